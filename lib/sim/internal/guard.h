/* guard.h - what a simulation refuses to start from, and what stops it early: the ranges a
 * system must lie in (sim.h: DEM_SIM_*), and the instability guards of dem_sim_limits checked
 * every step (an overlap beyond a fraction of a radius, a particle moving more than the skin in
 * one step), each stopping with a message that names the step, the particle and the time step
 * against the collision-time estimate. */
#ifndef DEM_SIM_GUARD_H
#define DEM_SIM_GUARD_H

#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_guard_alloc(dem_sim *sim, dem_error *err);
void dem_guard_free(dem_sim *sim);
/* The ranges of the system as built (particles, periodic images, gravity, walls). */
DEM_MUST_CHECK dem_status dem_guard_check_system(const dem_sim *sim, dem_error *err);
/* Every particle's position, velocity, spin, force and torque finite (else the step and the
 * particle, and the likely cause). */
DEM_MUST_CHECK dem_status dem_guard_check_finite(dem_sim *sim, dem_error *err);
/* After a drift: the largest step of a particle's surface (translation and spin) against
 * lim.move skins; a non-finite velocity or spin. */
DEM_MUST_CHECK dem_status dem_guard_check_move(dem_sim *sim, dem_error *err);
/* The periodic cell: every width at least the neighbour cutoff (no particle may reach its own
 * image), det H positive and finite; checked at the start and after every deforming step. */
DEM_MUST_CHECK dem_status dem_guard_check_cell(const dem_sim *sim, dem_error *err);
/* After a force evaluation: the pair and wall overlaps flagged by forces.c. */
DEM_MUST_CHECK dem_status dem_guard_check_overlaps(dem_sim *sim, dem_error *err);
/* After a force evaluation: the run's largest overlap (dem_sim_largest_overlap), from the blocks'
 * largest pair overlaps of that evaluation and every touching wall slot, in a fixed order. */
void dem_guard_track_overlaps(dem_sim *sim);

/* The pair pass's overlap guard over one block of pairs: whether a pair overlapped beyond the
 * limit (guard.c reports it), and the largest delta / r_min (dem_guard_track_overlaps). */
typedef struct {
    int bad;
    double worst;
    size_t worst_pair;
    double worst_delta;
} guard_acc;

static inline void guard_acc_zero(guard_acc *g)
{
    g->bad = 0;
    g->worst = 0.0;
    g->worst_pair = 0;
    g->worst_delta = 0.0;
}

/* Pair pi touching at overlap delta, rmin the smaller radius. */
static inline void guard_pair(const dem_sim *sim, guard_acc *g, size_t pi, double delta, double rmin)
{
    if (delta > sim->g.ovl * rmin) g->bad = 1;
    if (delta > g->worst * rmin) { /* rarely true */
        g->worst = delta / rmin;
        g->worst_pair = pi;
        g->worst_delta = delta;
    }
}

/* Particle a touching a wall at overlap delta (the run stops: set, never cleared). */
static inline void guard_wall(dem_sim *sim, size_t a, double delta)
{
    if (delta > sim->g.ovl * sim->p.r[a]) sim->g.pbad[a] = 1;
}

static inline void guard_block(dem_sim *sim, size_t b, const guard_acc *g)
{
    sim->g.bbad[b] = (uint8_t)g->bad;
    sim->g.bworst[b] = g->worst;
    sim->g.bworst_pair[b] = g->worst_pair;
    sim->g.bworst_delta[b] = g->worst_delta;
}

#endif
