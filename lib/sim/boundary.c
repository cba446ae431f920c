/* boundary.c - the periodic cell and the walls' motion (see boundary.h). */
#include "sim/internal/boundary.h"

#include <math.h>

#include "sim/internal/dist.h"

void dem_boundary_cell_inverse(dem_sim *sim)
{
    sim->b.hinv = dem_m3_inverse(sim->b.cell.h);
}

double dem_boundary_cell_width(const dem_cell *c, int a)
{
    /* H scaled by a power of two near its largest component, so that det H and |u x w| neither
     * overflow nor underflow (a 1e100 m cell was "0 m wide": inf / inf); the scaling is exact,
     * so an ordinary cell's width is the same bits as without it */
    double big = 0.0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) big = fmax(big, fabs(c->h.m[r][k]));
    int e = 0;
    if (big > 0.0 && isfinite(big)) frexp(big, &e);
    dem_mat3 h = c->h;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) h.m[r][k] = ldexp(h.m[r][k], -e);
    dem_vec3 u = dem_m3_col(h, (a + 1) % 3), w = dem_m3_col(h, (a + 2) % 3);
    return ldexp(fabs(dem_m3_det(h)) / dem_v3_norm(dem_v3_cross(u, w)), e);
}

/* Particle a back into the cell if it left: its image change in sim->b.wrapped[a] (zeros if it
 * stayed). Fails, changing nothing, past the image counters' range. */
static dem_status wrap_particle(dem_sim *sim, size_t a, dem_error *err)
{
    int32_t *e = sim->b.wrapped[a];
    dem_vec3 s = cell_frac(sim, sim->p.x[a]);
    e[0] = e[1] = e[2] = 0;
    for (int k = 0; k < 3; k++) {
        double c = dem_v3_get(s, k);
        if (!sim->b.periodic[k] || (c < 1.0 && c >= 0.0)) continue;
        double f = floor(c), im = (double)sim->p.image[a][k] + f;
        if (!(fabs(f) <= DEM_IMAGE_MAX && fabs(im) <= DEM_IMAGE_MAX)) {
            e[0] = e[1] = e[2] = 0;
            return dem_fail(err, DEM_ERR_LIMIT,
                            "step %llu: particle %llu went %g cells along %c, to image %g: beyond +-2^30 cells, the range of the image counters",
                            (unsigned long long)sim->step + 1, (unsigned long long)sim->p.id[a], f, "abc"[k], im);
        }
        e[k] = (int32_t)f;
    }
    if (!(e[0] | e[1] | e[2])) return DEM_OK;
    dem_vec3 shift = cell_shift(sim, e);
    sim->p.x[a] = dem_v3_sub(sim->p.x[a], shift);
    /* the build position moves by the image in the build's cell, so that the displacement
     * relative to the field (neighbor.c) is unchanged */
    sim->nbr.x_build[a] = dem_v3_sub(sim->nbr.x_build[a], sim->b.deforming ? lattice_shift(sim->nbr.h_build, e) : shift);
    for (int k = 0; k < 3; k++) sim->p.image[a][k] += e[k];
    return DEM_OK;
}

static int wrapped(const dem_sim *sim, size_t a) { return (sim->b.wrapped[a][0] | sim->b.wrapped[a][1] | sim->b.wrapped[a][2]) != 0; }

/* x_i - (x_j + H s) must not change: s' = s - e_i + e_j, for pairs [p0, p1). */
static void shift_pairs(dem_sim *sim, size_t p0, size_t p1)
{
    int32_t (*e)[3] = sim->b.wrapped;
    for (size_t p = p0; p < p1; p++) {
        dem_contact_rec *np = &sim->c.pairs[p];
        for (int k = 0; k < 3; k++) np->s[k] += e[np->j][k] - e[np->i][k];
    }
}

/* Every particle, and every pair's image (one process, or a whole state). */
static dem_status wrap_all(dem_sim *sim, dem_error *err)
{
    int any = 0;
    for (size_t a = 0; a < sim->p.n; a++) {
        dem_status st = wrap_particle(sim, a, err);
        if (st) return st;
        any = any || wrapped(sim, a);
    }
    if (any) shift_pairs(sim, 0, sim->c.npairs);
    return DEM_OK;
}

void dem_boundary_wrap_own(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    d->wrap_failed = 0;
    if (!sim->b.cell.flags) return;
    dem_error err;
    for (size_t a = d->p0; a < d->p1 && !d->wrap_failed; a++) d->wrap_failed = wrap_particle(sim, a, &err) != DEM_OK;
}

/* With own stepping (dist.h): this process's particles were wrapped before the halo's exchange
 * (dem_boundary_wrap_own), which brought the halo's wrapped positions and image changes; the
 * pairs it evaluates follow them. A failure anywhere: every process makes the state whole and
 * wraps it as one process does, failing with its message; and where the state is whole already
 * (the wrap after a deforming cell's flip, which gathers it), every process wraps it all. */
static dem_status wrap_local(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (d->wrap_failed || !d->stale) {
        dem_dist_whole(sim);
        return wrap_all(sim, err);
    }
    int any = 0;
    for (size_t a = d->p0; a < d->p1 && !any; a++) any = wrapped(sim, a);
    for (size_t k = 0; k < d->nrecv && !any; k++) any = wrapped(sim, d->recv[k]);
    if (!any) return DEM_OK;
    shift_pairs(sim, sim->c.pblk[d->b0], sim->c.pblk[d->b1]);
    for (size_t k = 0; k < d->nforeign; k++) shift_pairs(sim, d->foreign[k], d->foreign[k] + 1);
    return DEM_OK;
}

/* Pairs see their partner through an image that changes with it. Done every step so that it
 * happens at the same step in any run. */
dem_status dem_boundary_cell_wrap(dem_sim *sim, dem_error *err)
{
    if (!sim->b.cell.flags) return DEM_OK;
    if (dist_local(sim)) return wrap_local(sim, err);
    return wrap_all(sim, err);
}

void dem_boundary_walls_move(dem_sim *sim, double h)
{
    for (size_t k = 0; k < sim->b.nwalls; k++)
        sim->b.walls[k].point = dem_v3_madd(sim->b.walls[k].point, sim->b.walls[k].vel, h);
}
