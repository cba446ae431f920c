/* guard.c - the ranges a system must lie in and the instability guards (see guard.h). */
#include "sim/internal/guard.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fields.h"
#include "sim/internal/boundary.h"
#include "sim/internal/dist.h"

void dem_sim_limits_default(dem_sim_limits *lim)
{
    lim->overlap = 0.5;
    lim->move = 1.0;
}

/* The overlap factor forces.c compares with (infinite: off). */
static void set_factors(dem_sim *sim)
{
    sim->g.ovl = sim->g.lim.overlap > 0.0 ? sim->g.lim.overlap : INFINITY;
}

void dem_sim_set_limits(dem_sim *sim, const dem_sim_limits *lim)
{
    sim->g.lim = *lim;
    set_factors(sim);
    /* flags set under the old limits (a setup evaluation) do not hold under the new ones; a flag
     * is otherwise never cleared: the run stops when one is reported */
    memset(sim->g.pbad, 0, sim->p.n ? sim->p.n : 1);
    memset(sim->g.bbad, 0, sim->c.nblk ? sim->c.nblk : 1);
    sim->g.nbbad = 0;
}

dem_status dem_guard_alloc(dem_sim *sim, dem_error *err)
{
    sim_guard *g = &sim->g;
    dem_sim_limits_default(&g->lim);
    set_factors(sim);
    g->bbad = calloc(sim->c.nblk ? sim->c.nblk : 1, 1);
    g->pbad = calloc(sim->p.n ? sim->p.n : 1, 1);
    g->bworst = calloc(sim->c.nblk ? sim->c.nblk : 1, sizeof *g->bworst);
    g->bworst_pair = calloc(sim->c.nblk ? sim->c.nblk : 1, sizeof *g->bworst_pair);
    g->bworst_delta = calloc(sim->c.nblk ? sim->c.nblk : 1, sizeof *g->bworst_delta);
    if (!g->bbad || !g->pbad || !g->bworst || !g->bworst_pair || !g->bworst_delta) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    return DEM_OK;
}

void dem_guard_free(dem_sim *sim)
{
    free(sim->g.bbad);
    free(sim->g.pbad);
    free(sim->g.bworst);
    free(sim->g.bworst_pair);
    free(sim->g.bworst_delta);
}

dem_status dem_guard_check_system(const dem_sim *sim, dem_error *err)
{
    const sim_particles *P = &sim->p;
    dem_vec3 gv = sim->st.gravity;
    double gm = fmax(fabs(gv.x), fmax(fabs(gv.y), fabs(gv.z))); /* |g| itself may overflow */
    if (!(gm <= DEM_GRAVITY_MAX && dem_v3_norm(gv) <= DEM_GRAVITY_MAX))
        return dem_fail(err, DEM_ERR_LIMIT, "gravity (%g, %g, %g) m/s^2 is beyond %g m/s^2 in magnitude, the range dem-step simulates",
                        gv.x, gv.y, gv.z, DEM_GRAVITY_MAX);
    for (size_t a = 0; a < P->n; a++) {
        unsigned long long id = (unsigned long long)P->id[a];
        double r = P->r[a];
        if (!(r >= DEM_RADIUS_MIN && r <= DEM_RADIUS_MAX))
            return dem_fail(err, DEM_ERR_LIMIT, "particle %llu: radius %g m is outside [%g, %g] m, the range dem-step simulates", id, r,
                            DEM_RADIUS_MIN, DEM_RADIUS_MAX);
        dem_vec3 x = P->x[a];
        double m = fmax(fabs(x.x), fmax(fabs(x.y), fabs(x.z)));
        if (!(m <= DEM_COORD_MAX_RADII * r))
            return dem_fail(err, DEM_ERR_LIMIT,
                            "particle %llu at (%g, %g, %g) m lies more than 2^40 of its radii (%g m) from the origin: the doubles could not resolve its contacts; move the system nearer the origin",
                            id, x.x, x.y, x.z, r);
        for (int k = 0; k < 3; k++)
            if (P->image[a][k] > DEM_IMAGE_MAX || P->image[a][k] < -DEM_IMAGE_MAX)
                return dem_fail(err, DEM_ERR_LIMIT, "particle %llu: periodic image counter %c = %d is beyond +-2^30 cells",
                                id, "xyz"[k], (int)P->image[a][k]);
        if (sim->b.cell.flags) {
            dem_vec3 s = cell_frac(sim, x);
            for (int k = 0; k < 3; k++)
                if (sim->b.periodic[k] && !(fabs(dem_v3_get(s, k)) <= DEM_IMAGE_MAX))
                    return dem_fail(err, DEM_ERR_LIMIT, "particle %llu at (%g, %g, %g) m lies %.3g cells outside the periodic cell along %c, beyond 2^30",
                                    id, x.x, x.y, x.z, fabs(dem_v3_get(s, k)), "abc"[k]);
        }
    }
    for (size_t k = 0; k < sim->b.nwalls; k++) {
        dem_vec3 x = sim->b.walls[k].point;
        double m = fmax(fabs(x.x), fmax(fabs(x.y), fabs(x.z)));
        if (P->n && !(m <= DEM_COORD_MAX_RADII * P->rmax))
            return dem_fail(err, DEM_ERR_LIMIT, "wall %zu: its point (%g, %g, %g) m lies beyond 2^40 of the largest radius (%g m) from the origin",
                            k, x.x, x.y, x.z, P->rmax);
    }
    return DEM_OK;
}

/* "the time step ... is ... times the collision time ..." for a stop message. */
static void dt_advice(dem_sim *sim, char *buf, size_t size)
{
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    if (isfinite(est.contact_time) && est.contact_time > 0.0)
        snprintf(buf, size, "the time step %g s is %.3g times the collision time %g s of the smallest pair (dem-step --dt auto would use %g s)",
                 sim->dt, sim->dt / est.contact_time, est.contact_time, est.recommended);
    else
        snprintf(buf, size, "the time step is %g s", sim->dt);
}

/* The overlap guard's advice: with dt a small part of the collision time (tc/20 or less) the step
 * resolves every collision, so an overlap past the limit means contacts too soft for the load
 * they carry: the stiffness, or a unit slip in it (--young 70 is 70 Pa, not 70 GPa). */
static void overlap_advice(dem_sim *sim, char *buf, size_t size)
{
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    if (isfinite(est.contact_time) && est.contact_time > 0.0 && sim->dt <= est.contact_time / 20.0)
        snprintf(buf, size,
                 "the time step %g s is only 1/%.3g of the collision time %g s, so it is not the cause: the contacts are too soft for "
                 "the load they carry; check the stiffness and its units (Young's modulus in Pa, e.g. 7e10 for glass, not 70; "
                 "--kn in N/m) and the speeds against --vc",
                 sim->dt, est.contact_time / sim->dt, est.contact_time);
    else
        dt_advice(sim, buf, size);
}

static int particle_finite(const sim_particles *P, size_t a)
{
    dem_quat q = P->q[a];
    return dem_v3_isfinite(P->x[a]) && dem_v3_isfinite(P->v[a]) && dem_v3_isfinite(P->w[a]) && dem_v3_isfinite(P->f[a]) &&
           dem_v3_isfinite(P->t[a]) && isfinite(q.w + q.x + q.y + q.z);
}

dem_status dem_guard_check_finite(dem_sim *sim, dem_error *err)
{
    const sim_particles *P = &sim->p;
    for (int k = 0; k < DEM_E_COUNT; k++)
        if (!isfinite(sim->e.energy[k]) && !(k == DEM_E_INITIAL && isnan(sim->e.energy[k]))) {
            char advice[256];
            dt_advice(sim, advice, sizeof advice);
            return dem_fail(err, DEM_ERR_UNSTABLE, "step %llu: the energy books overflowed (%s = %g J): a value of the frame is too large for its physics (a wall's speed, a force), or %s",
                            (unsigned long long)sim->step, dem_energy_names[k], sim->e.energy[k], advice);
        }
    if (dist_local(sim)) { /* dist.h: each process its own particles; the whole state only to report one */
        size_t p0, p1, bad[1] = {0};
        dist_stepped(sim, &p0, &p1);
        for (size_t a = p0; a < p1 && !bad[0]; a++) bad[0] = !particle_finite(P, a);
        dem_dist_sum_counts(sim, bad, 1);
        if (!bad[0]) return DEM_OK;
        dem_dist_whole(sim);
    }
    for (size_t a = 0; a < P->n; a++) {
        if (particle_finite(P, a)) continue;
        char advice[256];
        dt_advice(sim, advice, sizeof advice);
        return dem_fail(err, DEM_ERR_UNSTABLE,
                        "step %llu: particle %llu has a non-finite position, velocity, spin, orientation, force or torque (|v| = %g m/s, |w| = %g rad/s, |f| = %g N): the run is unstable; %s",
                        (unsigned long long)sim->step, (unsigned long long)P->id[a], dem_v3_norm(P->v[a]), dem_v3_norm(P->w[a]),
                        dem_v3_norm(P->f[a]), advice);
    }
    return DEM_OK;
}

dem_status dem_guard_check_move(dem_sim *sim, dem_error *err)
{
    const sim_particles *P = &sim->p;
    double h = fabs(sim->h);
    if (sim->g.nonfinite) { /* a speed or spin whose step overflows: never on to a NaN orientation */
        dem_status st = dem_guard_check_finite(sim, err);
        if (st) return st;
        dem_dist_whole(sim); /* dist.h: the group's flag, every particle to find it */
        for (size_t a = 0; a < P->n; a++) {
            if (surface_step2(P, a, h) <= DBL_MAX) continue;
            char advice[256];
            dt_advice(sim, advice, sizeof advice);
            return dem_fail(err, DEM_ERR_UNSTABLE, "step %llu: particle %llu moves or spins too fast for one step (|v| = %g m/s, |w| = %g rad/s): the run is unstable; %s",
                            (unsigned long long)sim->step + 1, (unsigned long long)P->id[a], dem_v3_norm(P->v[a]), dem_v3_norm(P->w[a]), advice);
        }
    }
    double lim = sim->g.lim.move * sim->nbr.skin;
    for (size_t k = 0; k < sim->b.nwalls; k++) { /* a wall's step too: walls push particles */
        const dem_wall *wl = &sim->b.walls[k];
        double d = fmax(fabs(wl->vel.x), fmax(fabs(wl->vel.y), fabs(wl->vel.z))) * h; /* no overflow in a norm */
        if (sim->g.lim.move > 0.0 ? d <= lim : isfinite(d)) continue;
        char advice[256];
        dt_advice(sim, advice, sizeof advice);
        return dem_fail(err, DEM_ERR_UNSTABLE,
                        "step %llu: wall %zu moves %g m or more in one step (velocity (%g, %g, %g) m/s), more than %g of the neighbour skin %g m: %s (guard: dem-step --stop-move)",
                        (unsigned long long)sim->step + 1, k, d, wl->vel.x, wl->vel.y, wl->vel.z, sim->g.lim.move, sim->nbr.skin, advice);
    }
    if (!(sim->g.lim.move > 0.0) || sim->g.move2 <= lim * lim) return DEM_OK;
    dem_dist_whole(sim); /* dist.h: the group's step, every particle to find it */
    size_t worst = 0; /* the particle the drift moved furthest */
    for (size_t a = 1; a < P->n; a++)
        if (surface_step2(P, a, h) > surface_step2(P, worst, h)) worst = a;
    char advice[256];
    dt_advice(sim, advice, sizeof advice);
    return dem_fail(err, DEM_ERR_UNSTABLE,
                    "step %llu: particle %llu moved %g m in one step (|v| = %g m/s, |w| r = %g m/s), more than %g of the neighbour skin %g m: the run is unstable; %s (guard: dem-step --stop-move)",
                    (unsigned long long)sim->step + 1, (unsigned long long)P->id[worst], sqrt(sim->g.move2),
                    dem_v3_norm(P->v[worst]), dem_v3_norm(P->w[worst]) * P->r[worst], sim->g.lim.move, sim->nbr.skin, advice);
}

/* The first pair over the overlap limit in this process's blocks (dist_blocks), in list order. */
typedef struct {
    double delta, rmin;
    uint64_t i, j;          /* the particles' ids */
    int found;
} bad_pair;

static bad_pair first_bad_pair(const dem_sim *sim)
{
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    size_t b0, b1;
    dist_blocks(sim, &b0, &b1);
    for (size_t b = b0; b < b1; b++) {
        if (!sim->g.bbad[b]) continue;
        for (size_t p = c->pblk[b]; p < c->pblk[b + 1]; p++) {
            const dem_contact_rec *np = &c->pairs[p];
            double rmin = fmin(P->r[np->i], P->r[np->j]), delta = c->out[p].delta;
            if (c->ptouch[p] && delta > sim->g.ovl * rmin) return (bad_pair){delta, rmin, P->id[np->i], P->id[np->j], 1};
        }
    }
    return (bad_pair){0.0, 0.0, 0, 0, 0};
}

dem_status dem_guard_check_overlaps(dem_sim *sim, dem_error *err)
{
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    char advice[400];
    if (sim->g.nbbad) { /* the group's count (dem_books_blocks): then each process's first, the first of those */
        bad_pair m = first_bad_pair(sim);
        if (sim->dist) {
            _Static_assert(sizeof m <= DIST_EACH_MAX, "dem_dist_gather_each takes DIST_EACH_MAX bytes a process");
            const bad_pair *all = dem_dist_gather_each(sim, &m, sizeof m);
            for (int r = sim->dist->comm.size - 1; r >= 0; r--)
                if (all[r].found) m = all[r];
        }
        if (m.found) {
            overlap_advice(sim, advice, sizeof advice);
            return dem_fail(err, DEM_ERR_UNSTABLE,
                            "step %llu: particles %llu and %llu overlap by %g m, %.3g of the smaller radius (more than %g): the run is unstable; %s (guard: dem-step --stop-overlap)",
                            (unsigned long long)sim->step + 1, (unsigned long long)m.i, (unsigned long long)m.j, m.delta, m.delta / m.rmin,
                            sim->g.lim.overlap, advice);
        }
    }
    if (!sim->g.nwbad) return DEM_OK;
    dem_dist_whole(sim); /* dist.h: the group's count, every wall slot to find one */
    for (size_t q = 0; q < c->nwslots; q++) {
        size_t a = c->wowner[q];
        double delta = c->wout[q].delta;
        if (!c->wtouch[q] || !(delta > sim->g.ovl * P->r[a])) continue;
        overlap_advice(sim, advice, sizeof advice);
        return dem_fail(err, DEM_ERR_UNSTABLE,
                        "step %llu: particle %llu overlaps wall %u by %g m, %.3g of its radius (more than %g)%s: the run is unstable; %s (guard: dem-step --stop-overlap)",
                        (unsigned long long)sim->step + 1, (unsigned long long)P->id[a], c->wwall[q], delta, delta / P->r[a],
                        sim->g.lim.overlap, delta > P->r[a] ? ", its centre beyond the wall" : "", advice);
    }
    return DEM_OK;
}

static void record_overlap(dem_overlap_record *m, uint64_t step, double ratio, double delta, uint64_t i, uint64_t j, int wall)
{
    if (!(ratio > m->ratio)) return;
    *m = (dem_overlap_record){ratio, delta, step, i, j, wall};
}

/* The wall slots [q0, q1)'s largest overlap after m (the first of equals). The ratio itself
 * decides, not delta against ratio x radius, which may round the other way: the first largest of
 * runs is then the first largest of their concatenation (dist.h's processes). A slot whose delta
 * is below 0.9999 of ratio x radius has a smaller ratio whatever the rounding (a few ulps), and
 * is passed over without the division (a serial loop at every step: par.c's threads wait). */
static void overlap_slots(const dem_sim *sim, size_t q0, size_t q1, uint64_t step, dem_overlap_record *m)
{
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    for (size_t q = q0; q < q1; q++) {
        if (!c->wtouch[q]) continue;
        size_t a = c->wowner[q];
        double delta = c->wout[q].delta;
        if (delta > 0.9999 * m->ratio * P->r[a]) record_overlap(m, step, delta / P->r[a], delta, P->id[a], c->wwall[q], 1);
    }
}

/* The largest overlap of the last force evaluation: the blocks' largest pairs, then the wall
 * slots, in a fixed order (the same record for any thread count). In a group of processes
 * (dist.h), each finds its blocks' and then its slots' (those it steps) past them, and the first
 * largest is taken of the processes' blocks' records in their order, then of their slots': one
 * process's record (a process's slot record is its blocks' when no slot passes them, and then
 * never wins). */
static dem_overlap_record overlap_now(dem_sim *sim, uint64_t step)
{
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    dem_overlap_record m[2] = {{0.0, 0.0, 0, 0, 0, 0}, {0.0, 0.0, 0, 0, 0, 0}}; /* blocks, slots */
    size_t b0, b1, q0, q1;
    dist_blocks(sim, &b0, &b1);
    for (size_t b = b0; b < b1; b++) {
        if (!(sim->g.bworst[b] > m[0].ratio)) continue;
        size_t p = sim->g.bworst_pair[b];
        record_overlap(&m[0], step, sim->g.bworst[b], sim->g.bworst_delta[b], P->id[c->pairs[p].i], P->id[c->pairs[p].j], 0);
    }
    dist_stepped_slots(sim, &q0, &q1);
    m[1] = m[0];
    overlap_slots(sim, q0, q1, step, &m[1]);
    if (!sim->dist) return m[1];
    _Static_assert(sizeof m <= DIST_EACH_MAX, "dem_dist_gather_each takes DIST_EACH_MAX bytes a process");
    const dem_overlap_record *all = dem_dist_gather_each(sim, m, sizeof m);
    dem_overlap_record best = {0.0, 0.0, 0, 0, 0, 0};
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < sim->dist->comm.size; r++)
            if (all[2 * r + k].ratio > best.ratio) best = all[2 * r + k];
    return best;
}

void dem_guard_track_overlaps(dem_sim *sim)
{
    dem_overlap_record now = overlap_now(sim, sim->step + 1); /* called before the step is counted */
    if (now.ratio > sim->g.most.ratio) sim->g.most = now;
}

dem_overlap_record dem_sim_largest_overlap(const dem_sim *sim)
{
    return sim->g.most;
}

dem_overlap_record dem_sim_current_overlap(dem_sim *sim)
{
    return overlap_now(sim, sim->step); /* collective with own stepping (dist.h): the ranks' slots */
}

dem_status dem_guard_check_cell(const dem_sim *sim, dem_error *err)
{
    if (!sim->b.cell.flags) return DEM_OK;
    double cutoff = 2.0 * sim->p.rmax + sim->nbr.skin + sim->nbr.reach, det = dem_m3_det(sim->b.cell.h);
    if (!(det > 0.0 && det <= DBL_MAX))
        return dem_fail(err, DEM_ERR_UNSTABLE, "step %llu: the periodic cell's volume det H = %g is no longer positive and finite (velocity gradient too large for the time step?)",
                        (unsigned long long)sim->step, det);
    for (int k = 0; k < 3; k++)
        if (sim->b.periodic[k] && dem_boundary_cell_width(&sim->b.cell, k) < cutoff)
            return dem_fail(err, sim->b.deforming ? DEM_ERR_UNSTABLE : DEM_ERR_VALUE,
                            "%sthe periodic cell is %g m wide along cell vector %c, less than the neighbour cutoff %g m (largest diameter plus skin): a particle would touch its own image",
                            sim->b.deforming ? "the deforming cell became too thin: " : "", dem_boundary_cell_width(&sim->b.cell, k), "abc"[k], cutoff);
    return DEM_OK;
}
