/* boundary.h - walls (planes and cylinders, moving and turning) and the periodic cell: its
 * matrix H, the images x + H s, fractional coordinates, and the wrap of centres that left it.
 * The coming velocity gradient (dH/dt = L H) and its cell flip belong here. */
#ifndef DEM_SIM_BOUNDARY_H
#define DEM_SIM_BOUNDARY_H

#include "sim/internal/state.h"

/* Signed geometry of a point x (a particle's centre) against wall wl: fills the normal (from the
 * wall to the particle) and the centre's distance from the wall surface; returns 0 if no contact
 * is possible (on a cylinder's axis). */
static inline int wall_geometry(const dem_wall *wl, dem_vec3 x, dem_vec3 *n, double *gap)
{
    dem_vec3 rel = dem_v3_sub(x, wl->point);
    if (wl->kind == DEM_WALL_PLANE) {
        *n = wl->normal;
        *gap = dem_v3_dot(rel, wl->normal);
        return 1;
    }
    dem_vec3 radial = dem_v3_madd(rel, wl->normal, -dem_v3_dot(rel, wl->normal));
    double d = dem_v3_norm(radial);
    if (d == 0.0) return 0;
    dem_vec3 e = dem_v3_scale(radial, 1.0 / d);
    if (wl->flags & DEM_WALL_OUTSIDE) {
        *n = e;
        *gap = d - wl->radius;
    } else {
        *n = dem_v3_neg(e);
        *gap = wl->radius - d;
    }
    return 1;
}

/* The velocity of wall wl's surface at point x (its translation and its turn about its point). */
static inline dem_vec3 wall_velocity_at(const dem_wall *wl, dem_vec3 x)
{
    return dem_v3_add(wl->vel, dem_v3_cross(wl->omega, dem_v3_sub(x, wl->point)));
}

/* The contact point of particle a with normal n (from the wall) and overlap delta: in the middle
 * of the overlap. */
static inline dem_vec3 wall_contact_point(const dem_sim *sim, size_t a, dem_vec3 n, double delta)
{
    return dem_v3_madd(sim->p.x[a], n, -(sim->p.r[a] - 0.5 * delta));
}

/* H s: the shift of the image s of a cell H. */
static inline dem_vec3 lattice_shift(dem_mat3 h, const int32_t s[3])
{
    dem_vec3 d = dem_v3_zero();
    for (int a = 0; a < 3; a++)
        if (s[a]) d = dem_v3_madd(d, dem_m3_col(h, a), (double)s[a]);
    return d;
}

/* The shift of the image s of the current cell. */
static inline dem_vec3 cell_shift(const dem_sim *sim, const int32_t s[3]) { return lattice_shift(sim->b.cell.h, s); }

/* Fractional coordinates H^-1 (x - origin) of x (or x itself without a cell). */
static inline dem_vec3 cell_frac(const dem_sim *sim, dem_vec3 x)
{
    if (!sim->b.cell.flags) return x;
    return dem_m3_mulv(sim->b.hinv, dem_v3_sub(x, sim->b.cell.origin));
}

/* H^-1 into sim->b.hinv (after every change of H). */
void dem_boundary_cell_inverse(dem_sim *sim);
/* Width of the cell perpendicular to face pair a (volume / area of the other two vectors). */
double dem_boundary_cell_width(const dem_cell *c, int a);
/* Put centres that left the cell back in, counting images (every step). Fails if a particle
 * went more than 2^30 cells away, or its image counter would pass +-2^30 (never overflows). */
DEM_MUST_CHECK dem_status dem_boundary_cell_wrap(dem_sim *sim, dem_error *err);
/* With own stepping (dist.h), after the drift: this process's particles wrapped, before the
 * halo's exchange sends their positions; a failure is noted for dem_boundary_cell_wrap to
 * report on every process. */
void dem_boundary_wrap_own(dem_sim *sim);
/* Walls move with their velocities by h. */
void dem_boundary_walls_move(dem_sim *sim, double h);

#endif
