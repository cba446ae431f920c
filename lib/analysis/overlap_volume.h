/* overlap_volume.h - the volume of a sphere that lies inside a region: a half-space, a slab
 * between two parallel planes across an axis, an axis-aligned box. Used by every measure over a
 * control volume (dem-probe --box and --profile, dem-stress --box) so that a sphere cut by a face
 * counts with the part of it that lies inside, not whole or not at all by its centre.
 *
 * Accuracy:
 *   half-space and slab: closed form (spherical caps, pi h^2 (3r - h) / 3), to a few ulps of the
 *     sphere's volume;
 *   box: exact when at most one axis cuts the sphere (whole, nothing, a cap or a slab); else the
 *     integral over z of the exact area of a disc inside a rectangle (closed form: a segment of
 *     segments and a sector per corner), by Gauss-Legendre quadrature on the sub-intervals
 *     between the heights where that area is not smooth (the disc's radius equal to a face's or a
 *     corner's distance from the axis), each mapped by z = z0 + L (3t^2 - 2t^3) so that the
 *     square-root behaviour at their ends becomes smooth. Measured against the closed forms
 *     (caps, half, quarter and eighth spheres) and by partitions (tests/unit/test_overlap.c):
 *     within 1e-13 of the sphere's volume.
 * Every function is pure (no state) and gives the same bits on every run. */
#ifndef DEM_OVERLAP_VOLUME_H
#define DEM_OVERLAP_VOLUME_H

#include "core/vec.h"

/* Volume of the sphere (centre c, radius r) below the plane x_axis = at (axis 0, 1, 2), m^3:
 * 0 if the plane lies below the sphere, 4/3 pi r^3 if above. */
double dem_sphere_below_volume(dem_vec3 c, double r, int axis, double at);

/* Volume of the sphere inside the slab lo <= x_axis <= hi (lo <= hi), m^3. */
double dem_sphere_slab_volume(dem_vec3 c, double r, int axis, double lo, double hi);

/* Volume of the sphere inside the box lo <= x <= hi (componentwise, lo <= hi), m^3. */
double dem_sphere_box_volume(dem_vec3 c, double r, dem_vec3 lo, dem_vec3 hi);

/* Area of the disc of radius rho centred at the origin inside the rectangle
 * [x0, x1] x [y0, y1] (x0 <= x1, y0 <= y1), closed form; m^2. */
double dem_disc_rect_area(double rho, double x0, double x1, double y0, double y1);

#endif
