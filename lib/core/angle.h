/* angle.h - the small rotations of one time step: sin and cos of tiny angles by their series,
 * a vector turned about a normal, a vector carried onto a new plane.
 *
 * The angle turned in one time step is almost always tiny. The Taylor series to 8th order is
 * exact to below 1e-17 for |x| < 0.01 and avoids libm's sincos, which dominated the step for
 * dense packings. Coefficients are multiplied, not divided: a division costs as much as a dozen
 * multiplications, and this runs for every contact. */
#ifndef DEM_ANGLE_H
#define DEM_ANGLE_H

#include <math.h>

#include "core/vec.h"

/* sin x / x from x^2 */
static inline double dem_sinc_series(double x2)
{
    return 1.0 - x2 * (1.0 / 6.0) * (1.0 - x2 * (1.0 / 20.0) * (1.0 - x2 * (1.0 / 42.0)));
}

/* cos x from x^2 */
static inline double dem_cos_series(double x2)
{
    return 1.0 - x2 * 0.5 * (1.0 - x2 * (1.0 / 12.0) * (1.0 - x2 * (1.0 / 30.0) * (1.0 - x2 * (1.0 / 56.0))));
}

static inline void dem_small_sincos(double x, double *sn, double *cs)
{
    if (fabs(x) < 0.01) {
        *sn = x * dem_sinc_series(x * x);
        *cs = dem_cos_series(x * x);
    } else {
        *sn = sin(x);
        *cs = cos(x);
    }
}

/* Rotate a onto the plane normal to n, keeping its length (docs/models.md §0, RR). */
static inline dem_vec3 dem_rotate_rescale(dem_vec3 a, dem_vec3 n)
{
    dem_vec3 p = dem_v3_madd(a, n, -dem_v3_dot(a, n));
    double p2 = dem_v3_norm2(p);
    if (p2 == 0.0) return dem_v3_zero();
    return dem_v3_scale(p, sqrt(dem_v3_norm2(a) / p2));
}

/* The smallest rotation carrying unit n0 onto unit n1, applied to a vector a of the plane normal
 * to n0: R a = a - (a . n1) (n0 + n1) / (1 + n0 . n1) (Rodrigues' formula for the rotation about
 * n0 x n1, reduced with a . n0 = 0). Exact for any angle below pi: carried with the contact
 * plane, a keeps its length and its angle to the axis of the turn, which the projection of
 * dem_rotate_rescale changes at second order in the angle (a rigid rotation in N steps would
 * leave an error of order 1/N: examples/fcc-triaxial's README). */
static inline dem_vec3 dem_rotate_between(dem_vec3 a, dem_vec3 n0, dem_vec3 n1)
{
    double c = dem_v3_dot(n0, n1);
    if (!(c > -0.5)) return dem_rotate_rescale(a, n1); /* more than 120 degrees in a step: no plane to carry */
    return dem_v3_madd(a, dem_v3_add(n0, n1), -dem_v3_dot(a, n1) / (1.0 + c));
}

/* Rotation by phi about unit n of a vector in the plane normal to n (Hanley 2019, eq 9 with the R of
 * docs/models.md §4.3; Kuhn et al. 2020, eq 23): cos phi f + sin phi n x f. */
static inline dem_vec3 dem_twirl(dem_vec3 f, dem_vec3 n, double phi)
{
    if (phi == 0.0) return f;
    double sn, cs;
    dem_small_sincos(phi, &sn, &cs);
    return dem_v3_add(dem_v3_scale(f, cs), dem_v3_scale(dem_v3_cross(n, f), sn));
}

#endif
