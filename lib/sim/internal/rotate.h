/* rotate.h - a particle's orientation turned by its spin over a step (integrate.c's drift, the
 * variational integrator's update). */
#ifndef DEM_SIM_ROTATE_H
#define DEM_SIM_ROTATE_H

#include <math.h>

#include "core/angle.h"
#include "core/vec.h"

/* The rotation by the angle |w| dt about w as a unit quaternion (cos x, sin x w/|w|), x = |w| dt/2.
 * For the small angles of a time step the series of cos x and sin x / x in x^2 need neither the
 * square root |w| nor a division (exact to below 1e-17 for x < 0.01, as dem_small_sincos). */
static inline dem_quat rotation_quat(dem_vec3 w, double dt)
{
    double x2 = 0.25 * dt * dt * dem_v3_norm2(w);
    if (x2 == 0.0) return dem_quat_identity();
    double cs, s; /* s = sin(x) / |w| */
    if (x2 < 1e-4) {
        cs = dem_cos_series(x2);
        s = 0.5 * dt * dem_sinc_series(x2);
    } else {
        double wn = dem_v3_norm(w), x = 0.5 * wn * dt; /* x >= 0.01: beyond the series */
        cs = cos(x);
        s = sin(x) / wn;
    }
    dem_quat q = {cs, w.x * s, w.y * s, w.z * s};
    return q;
}

/* q / |q|. The product of two unit quaternions is a unit one to rounding, so one Newton step
 * for 1/sqrt(|q|^2) from 1 is exact to rounding and costs neither a square root nor a division;
 * a quaternion further off (read from a frame) gets the full normalisation. */
static inline dem_quat quat_normalize(dem_quat q)
{
    double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    double iq = fabs(n2 - 1.0) < 1e-8 ? 0.5 * (3.0 - n2) : 1.0 / sqrt(n2);
    return (dem_quat){q.w * iq, q.x * iq, q.y * iq, q.z * iq};
}

#endif
