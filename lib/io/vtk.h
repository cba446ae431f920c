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
#include "core/select.h"
#include "io/system.h"

/* The particles of s matching sel (NULL: all), one vertex cell each. Points: positions (m).
 * PointData: id (UInt64), radius (m), velocity (m/s), angular_velocity (rad/s), force (N)
 * (Float64), material (UInt32), fixed (UInt8, 1 if flagged fixed). */
dem_status dem_vtk_particles(FILE *out, const dem_system *s, const dem_select *sel, dem_error *err);

/* The particle-particle contact records whose i or j matches sel (NULL: all), one line cell
 * each from the centre of i to the centre of j as seen from i (its periodic image x_j + H shift).
 * PointData: id (UInt64, of the particle at that end). CellData: normal_force and
 * tangential_force (magnitudes, N), overlap (m), sliding (UInt8). ix must be built for s. */
dem_status dem_vtk_contacts(FILE *out, const dem_system *s, const dem_id_index *ix,
                            const dem_select *sel, dem_error *err);

/* A ParaView collection kept complete after every call, so that it is valid even if the
 * program stops early: dem_pvd_begin writes an empty collection to a fresh seekable file,
 * dem_pvd_add inserts one data set (its file name relative to the .pvd, timestep = time, s)
 * before the closing tags. */
dem_status dem_pvd_begin(FILE *out, dem_error *err);
dem_status dem_pvd_add(FILE *out, double time, const char *file, dem_error *err);

#endif
