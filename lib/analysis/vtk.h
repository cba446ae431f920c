/* vtk.h - frames as VTK XML files for ParaView: PolyData (.vtp) and collections (.pvd).
 *
 * A .vtp file is VTK XML PolyData, version 1.0, byte_order LittleEndian, header_type UInt64,
 * with every array in one appended raw block: each array is a UInt64 byte count followed by its
 * values, every value encoded little-endian whatever the host. The functions write to a FILE
 * the caller opened (in binary mode) and still owns. */
#ifndef DEM_VTK_H
#define DEM_VTK_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "core/error.h"
#include "io/select.h"
#include "io/system.h"

/* The particles of s matching sel (NULL: all), one vertex cell each. Points: positions (m).
 * PointData: id (UInt64), radius (m), velocity (m/s), angular_velocity (rad/s), force (N)
 * (Float64), material (UInt32), fixed (UInt8, 1 if flagged fixed). */
DEM_MUST_CHECK dem_status dem_vtk_particles(FILE *out, const dem_system *s, const dem_select *sel, dem_error *err);

/* The particle-particle contact records whose i or j matches sel (NULL: all), one line cell
 * each from the centre of i to the centre of j as seen from i (its periodic image x_j + H shift).
 * PointData: id (UInt64, of the particle at that end). CellData: normal_force and
 * tangential_force (magnitudes, N), overlap (m), sliding (UInt8). ix must be built for s. */
DEM_MUST_CHECK dem_status dem_vtk_contacts(FILE *out, const dem_system *s, const dem_id_index *ix,
                            const dem_select *sel, dem_error *err);

/* The container. Plane and cylinder walls are infinite; they are drawn finite within a box:
 * dem_vtk_scene_box is the bounding box of the particles' spheres, of the periodic cell's corners
 * (if the frame has one), of the positions of the planes normal to a coordinate axis (along that
 * axis) and of the end circles of every cylinder, enlarged on every side by DEM_VTK_MARGIN times
 * its largest edge (an axis on which nothing lies spans -0.5 .. 0.5 m). */
#define DEM_VTK_MARGIN 0.05
#define DEM_VTK_SEGMENTS 48 /* quads around a cylinder's mantle */
dem_aabb dem_vtk_scene_box(const dem_system *s);

/* Where the mantle of cylinder wall w ends, as t0 < t1 along its axis from w->point: at the
 * innermost plane wall facing +axis (t0) and the innermost facing -axis (t1); an end without
 * such a plane lies at the particles' extent along the axis (their spheres) enlarged by
 * DEM_VTK_MARGIN of it; without particles, +-radius. */
void dem_vtk_cylinder_ends(const dem_system *s, const dem_wall *w, double *t0, double *t1);

/* The walls, one polygon cell per plane and DEM_VTK_SEGMENTS per cylinder, each polygon's normal
 * (right-hand rule) towards the particles. A plane is the rectangle in it, edges along u = n x e
 * / |n x e| (e the coordinate axis along which n has its smallest component) and v = n x u,
 * covering the projection of dem_vtk_scene_box onto it; for a plane normal to a coordinate axis
 * that is the box's face. A cylinder is its mantle of radius R between dem_vtk_cylinder_ends.
 * No PointData. CellData: wall (UInt32, the wall's index), kind (UInt8: 1 plane, 2 cylinder),
 * material (UInt32), velocity (m/s), angular_velocity (rad/s), force (N, exerted by the
 * particles), torque (N m, about the wall's point), work (J, done by the wall). */
DEM_MUST_CHECK dem_status dem_vtk_walls(FILE *out, const dem_system *s, dem_error *err);

/* The periodic cell: its 8 corners o + H s, s in {0, 1}^3 (point k has s = (k & 1, k >> 1 & 1,
 * k >> 2 & 1)) and its 12 edges as line cells, the 4 along a first, then b, then c. CellData:
 * vector (UInt8, 0 1 2: the cell vector a b c the edge is parallel to) and periodic (UInt8, 1
 * if the cell is periodic along that vector). A frame without a cell gives an empty PolyData. */
DEM_MUST_CHECK dem_status dem_vtk_cell(FILE *out, const dem_system *s, dem_error *err);

/* A ParaView collection kept complete after every call, so that it is valid even if the
 * program stops early: dem_pvd_begin writes an empty collection to a fresh seekable file,
 * dem_pvd_add inserts one data set (its file name relative to the .pvd, timestep = time, s)
 * before the closing tags. */
DEM_MUST_CHECK dem_status dem_pvd_begin(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_pvd_add(FILE *out, double time, const char *file, dem_error *err);

#endif
