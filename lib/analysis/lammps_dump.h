/* lammps_dump.h - frames as a LAMMPS text dump ("dump custom"), which OVITO and LAMMPS' own
 * tools read: one block per frame,
 *
 *   ITEM: TIMESTEP / step
 *   ITEM: NUMBER OF ATOMS / n
 *   ITEM: BOX BOUNDS [xy xz yz] pp|ff pp|ff pp|ff / three lines of bounds [and tilts]
 *   ITEM: ATOMS id type mass radius x y z vx vy vz omegax omegay omegaz fx fy fz [ix iy iz]
 *
 * type is the material index + 1 (LAMMPS types count from 1). A periodic cell is the box: pp
 * along its periodic vectors (ff along the others); a cell that is not rectangular is written
 * as LAMMPS' restricted triclinic box, a = (lx, 0, 0), b = (xy, ly, 0), c = (xz, yz, lz), and
 * every position and vector is turned by the rotation that takes the cell onto that form (the
 * first factor of H's QR decomposition), so the dump shows the same system in LAMMPS' frame;
 * ix iy iz are the image counters (unwrapped = x + image . cell). Without a cell the box is ff ff
 * ff: with DEM_LAMMPS_BOUNDS_WALLS the container of the walls (a plane along an axis bounds its
 * side, an inner cylinder along an axis the two across it), the particles' extent on a side no
 * wall bounds; with DEM_LAMMPS_BOUNDS_PARTICLES the particles' bounding box; either widened to
 * hold every particle written (LAMMPS' read_dump drops atoms outside a fixed box). Numbers are the shortest text that reads back to the
 * same double. The caller opened out and owns it. */
#ifndef DEM_LAMMPS_DUMP_H
#define DEM_LAMMPS_DUMP_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "core/error.h"
#include "io/select.h"
#include "io/system.h"

/* The box of a frame without a periodic cell (a cell is always the box). */
typedef enum { DEM_LAMMPS_BOUNDS_WALLS = 0, DEM_LAMMPS_BOUNDS_PARTICLES = 1 } dem_lammps_bounds;

/* One frame: the particles matching sel (NULL: all), in id order (order: an index built for s).
 * A left-handed or degenerate cell is DEM_ERR_VALUE. */
DEM_MUST_CHECK dem_status dem_lammps_dump_frame(FILE *out, const dem_system *s, const dem_select *sel, const dem_id_index *order,
                                                dem_lammps_bounds bounds, dem_error *err);

#endif
