/* integrate.c - the integrator registry and the velocity-Verlet step (see integrate.h).
 *
 * One step (Vyas et al. 2025, Fig. 7 and §4, Hanley 2019, eqs 1-12):
 *   1. half kick v += dt/2 F/m, w += dt/2 T/I; drag v *= gamma_d (Hanley 2019, eq 25);
 *      drift x += dt v; orientation q <- dq(w dt) q (Šmilauer and Chareyre 2015, §1.5.2); walls move; wrap.
 *   2. neighbour list rebuilt if a particle moved more than half the skin (Šmilauer and Chareyre 2015, §1.1.3).
 *   3. forces at t + dt (forces.c).
 *   4. half kick v += dt/2 F/m.
 * Fixed particles are never kicked; they move at their prescribed velocity and spin at their
 * prescribed angular velocity (kinematic driving, like a moving wall: forces.c books the work of
 * the drive).
 * Particles are kept in grid-cell order for memory locality, re-sorted every neighbor.sort_every
 * steps counted from step 0 (not from the start of a run), so the order, and with it every
 * sum, is the same however a run is split. The improved velocity-Verlet (Vyas et al. 2025, §4,
 * docs/models.md §1.5) differs only in its contacts: the relative velocity is taken with the
 * half-step normal and the tangential history is carried through the half-step plane. */
#include "sim/internal/integrate.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/angle.h"
#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/cell.h"
#include "sim/internal/clumps.h"
#include "sim/internal/dist.h"
#include "sim/internal/exact.h"
#include "sim/internal/forces.h"
#include "sim/internal/guard.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/par.h"
#include "sim/internal/rotate.h"
#include "sim/internal/variational.h"

/* One particle's half kick; save keeps its full-step velocities for the pending accounting. */
static inline void kick_particle(dem_sim *sim, size_t a, double h, int save)
{
    sim_particles *P = &sim->p;
    if (save) {
        sim->e.vf[a] = P->v[a];
        sim->e.wf[a] = P->w[a];
    }
    if (P->flags[a] & (DEM_PARTICLE_FIXED | SIM_PARTICLE_MEMBER)) return; /* a clump's member: its clump is kicked */
    P->v[a] = dem_v3_madd(P->v[a], P->f[a], h * P->inv_m[a]);  /* Vyas et al. 2025, eq 8, eq 20 */
    P->w[a] = dem_v3_madd(P->w[a], P->t[a], h * P->inv_i[a]);
}

static PAR_RANGE void kick_range(dem_sim *sim, size_t lo, size_t hi, double h, int save)
{
    for (size_t a = lo; a < hi; a++) kick_particle(sim, a, h, save);
}

typedef struct {
    dem_sim *sim;
    double h;
    int save;
    size_t first; /* the first particle kicked (dist.h's dist_stepped: 0 but with own stepping) */
} kick_args;

static void kick_share(void *ctx, size_t lo, size_t hi, int t) /* par.h */
{
    const kick_args *a = ctx;
    (void)t;
    kick_range(a->sim, a->first + lo, a->first + hi, a->h, a->save);
}

static void half_kick(dem_sim *sim)
{
    sim_particles *P = &sim->p;
    double h = 0.5 * sim->h;
    /* the first half kick after a step whose accounting is pending keeps its full-step velocities */
    int save = sim->e.acct == ACCT_PENDING;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1); /* dist.h: all particles, or this process's own */
    if (sim->ex.on) {
        if (save) {
            memcpy(sim->e.vf + p0, P->v + p0, (p1 - p0) * sizeof *sim->e.vf);
            memcpy(sim->e.wf + p0, P->w + p0, (p1 - p0) * sizeof *sim->e.wf);
        }
        dem_exact_half_kick(sim);
    } else {
        kick_args a = {sim, h, save, p0};
        dem_par_for(sim->pool, p1 - p0, kick_share, &a); /* par.h */
        if (sim->cl) dem_clumps_kick(sim, h); /* clumps.h: then their members' velocities */
    }
    dem_dist_went_stale(sim); /* dist.h: the other processes' particles here are stale now */
    if (save) sim->e.acct = ACCT_SAVED;
}

/* Drag (Hanley 2019, eq 25) on the half-step velocity; returns the energy it took, J. Reversed
 * (Hanley 2019, eq 28) it divides by gamma_d and gives the energy back (negative). */
static double drag(dem_sim *sim, size_t a, double gd, int reverse)
{
    sim_particles *P = &sim->p;
    double before = dem_v3_norm2(P->v[a]);
    P->v[a] = reverse ? dem_v3_scale(P->v[a], 1.0 / gd) : dem_v3_scale(P->v[a], gd);
    return 0.5 * P->m[a] * (before - dem_v3_norm2(P->v[a]));
}

/* What drift needs of the step, the same for every particle. */
typedef struct {
    double gd, h;
    int reverse;
    /* a deforming cell's field spin turns every particle (cell.h); only then is it added: the sum
     * in the loop cost 8% of a whole step on a static bed */
    int spin_field;
    dem_vec3 wl;
} drift_ctx;

/* One particle's drift (see drift); returns the squared step of its surface (guard.c), 0 for a
 * fixed particle that does not move. */
static inline double drift_particle(dem_sim *sim, size_t a, const drift_ctx *d)
{
    sim_particles *P = &sim->p;
    double h = d->h, *ed = &sim->e.edis[a * EDIS];
    ed[EDIS_DRAG] = 0.0;
    if (P->flags[a] & SIM_PARTICLE_MEMBER) return 0.0; /* its clump drifts it (clumps.h) */
    if (P->flags[a] & DEM_PARTICLE_FIXED) { /* driven: its prescribed motion, no drag */
        if (!dem_particle_driven(P, a)) return 0.0;
        double m2 = surface_step2(P, a, h);
        P->x[a] = dem_v3_madd(P->x[a], P->v[a], h);
        P->q[a] = quat_normalize(dem_quat_mul(rotation_quat(d->spin_field ? dem_v3_add(P->w[a], d->wl) : P->w[a], h), P->q[a]));
        return m2;
    }
    if (d->gd != 1.0 && !d->reverse) ed[EDIS_DRAG] = drag(sim, a, d->gd, 0);
    double m2 = surface_step2(P, a, h);
    P->x[a] = dem_v3_madd(P->x[a], P->v[a], h);
    if (d->gd != 1.0 && d->reverse) ed[EDIS_DRAG] = drag(sim, a, d->gd, 1);
    P->q[a] = quat_normalize(dem_quat_mul(rotation_quat(d->spin_field ? dem_v3_add(P->w[a], d->wl) : P->w[a], h), P->q[a])); /* Šmilauer and Chareyre 2015, §1.5.2 */
    return m2;
}

/* The largest squared surface step so far, and whether one was not finite (NaN or inf). */
static inline void note_step(double m2, double *move2, int *nonfinite)
{
    if (m2 > *move2) *move2 = m2;
    if (!(m2 <= DBL_MAX)) *nonfinite = 1;
}

/* Particles [lo, hi): the largest squared surface step in *move2, whether one was not finite in
 * *nonfinite. */
static PAR_RANGE void drift_range(dem_sim *sim, size_t lo, size_t hi, const drift_ctx *d, double *move2, int *nonfinite)
{
    double m = 0.0;
    int nf = 0;
    for (size_t a = lo; a < hi; a++) note_step(drift_particle(sim, a, d), &m, &nf);
    *move2 = m;
    *nonfinite = nf;
}

typedef struct {
    dem_sim *sim;
    const drift_ctx *d;
    size_t first; /* as kick_args' */
} drift_args;

/* par.h: thread t's share, its maxima in its partial. */
static void drift_share(void *ctx, size_t lo, size_t hi, int t)
{
    const drift_args *a = ctx;
    par_partial *p = &a->sim->part[t];
    int nf = 0;
    drift_range(a->sim, a->first + lo, a->first + hi, a->d, &p->max[0], &nf);
    p->count[0] = (size_t)nf;
}

/* Forward: drag, then x += dt v (Vyas et al. 2025, eq 9; Hanley 2019, eqs 25, 14). Reversed: x -= dt v with
 * the damped half-step velocity, then undo the drag (Hanley 2019, eqs 27, 18, 28). */
static void drift(dem_sim *sim)
{
    sim_particles *P = &sim->p;
    const drift_ctx d = {sim->st.drag, sim->h, sim->dir < 0, sim->b.deforming, sim->b.wl};
    /* the largest squared step of a particle's surface (guard.c), and whether one was not finite:
     * max reductions, the same whatever the order */
    double move2 = 0.0;
    int nonfinite = 0;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1); /* dist.h: all particles, or this process's own */
    if (sim->ex.on) {
        dem_exact_drift(sim);
        for (size_t a = p0; a < p1; a++) move2 = fmax(move2, surface_step2(P, a, d.h));
        sim->g.move2 = move2;
        sim->g.nonfinite = 0;
        return;
    }
    drift_args a = {sim, &d, p0};
    dem_par_for(sim->pool, p1 - p0, drift_share, &a); /* par.h; the maxima are the same in any order */
    for (int t = 0; t < sim->threads; t++) {
        move2 = fmax(move2, sim->part[t].max[0]);
        nonfinite = nonfinite || sim->part[t].count[0];
    }
    if (sim->cl) dem_clumps_drift(sim, d.h, d.gd, d.reverse, &move2, &nonfinite); /* clumps.h */
    sim->g.move2 = move2;
    sim->g.nonfinite = nonfinite;
    dem_boundary_walls_move(sim, d.h);
}

static dem_status vv_step(dem_sim *sim, dem_error *err)
{
    dem_status st;
    if (sim->step == UINT64_MAX)
        return dem_fail(err, DEM_ERR_LIMIT, "the step counter is at its largest value, 2^64 - 1: no further step can be counted");
    if (sim->nbr.sort_every && sim->step % sim->nbr.sort_every == 0 && sim->nbr.sorted_step != sim->step) {
        dem_dist_for_rebuild(sim, 1); /* dist.h: what the sort and the rebuild read of every particle */
        dem_deform_keep_sums(sim);
        dem_books_flush(sim);
        if ((st = dem_nbr_rebuild(sim, 1, err))) return st;
        sim->nbr.sorted_step = sim->step;
    }
    if (!sim->forces_current) {
        dem_forces_setup(sim);
        if ((st = dem_guard_check_overlaps(sim, err))) return st;
    }
    double p0 = sim->b.deforming ? dem_deform_begin_step(sim) : 0.0;
    if (sim->b.deforming && (st = dem_deform_check_rate(sim, err))) return st;
    half_kick(sim);
    if (sim->b.deforming) dem_deform_affine(sim, 0.5 * sim->h); /* the field, half a step each side (cell.h) */
    drift(sim);
    if (sim->b.deforming) dem_deform_affine(sim, 0.5 * sim->h);
    if (dist_local(sim)) dem_dist_share_halo(sim, &sim->g.move2, &sim->g.nonfinite); /* dist.h: the halo moved; the group's maxima */
    if ((st = dem_guard_check_move(sim, err)) || (st = dem_boundary_cell_wrap(sim, err))) return st;
    int flipped = 0;
    if (sim->b.deforming && ((st = dem_deform_flip(sim, &flipped, err)) || (flipped && (st = dem_boundary_cell_wrap(sim, err))) ||
                             (st = dem_guard_check_cell(sim, err)) || (sim->cl && (st = dem_clumps_check_cell(sim, err)))))
        return st;
    if (flipped || dem_nbr_needs_rebuild(sim)) {
        /* a blown-up state would ask for a rebuild: say why, rather than grid it */
        dem_dist_for_rebuild(sim, 0); /* dist.h: what the rebuild reads (a flip gathered the whole) */
        if ((st = dem_guard_check_finite(sim, err))) return st;
        dem_books_flush(sim);
        if ((st = dem_nbr_rebuild(sim, 0, err))) return st;
    }
    dem_books_apply_setup(sim);
    double before[DEM_E_COUNT];
    memcpy(before, sim->e.energy, sizeof before);
    size_t nlost = dem_forces_compute(sim);
    if (sim->b.deforming) dem_deform_end_step(sim, p0);
    if ((st = dem_guard_check_overlaps(sim, err))) return st;
    dem_guard_track_overlaps(sim);
    half_kick(sim);
    dem_books_close_step(sim, nlost, before);
    sim->step++;
    if (sim->ex.on) sim->time = (double)(sim->ex.tick += sim->dir) * sim->dt;
    else sim->time += sim->h;
    if (sim->ex.on && (st = dem_exact_range_check(sim, err))) return st;
    if (sim->step % 64 == 0 && (st = dem_guard_check_finite(sim, err))) return st;
    return DEM_OK;
}

/* The registry: one row per dem_integrator (the setting's names are in laws/settings.c). */
static const sim_integrator integrators[DEM_INTEGRATOR_COUNT] = {
    [DEM_INTEGRATOR_VV] = {0, vv_step},
    [DEM_INTEGRATOR_VV_IMPROVED] = {1, vv_step},
    [DEM_INTEGRATOR_VARIATIONAL] = {0, dem_vi_step}, /* variational.c: De Klerk et al. 2022's implicit integrator */
};

const sim_integrator *dem_integrate_get(int which)
{
    return &integrators[which];
}
