/* forces.h - the force module: every contact's force at the new positions (the geometry of each
 * pair and wall slot, then the law in blocks), then every particle's sum in a fixed order, local
 * damping, and the walls' loads. An implicit integrator asks here for forces (and, later, their
 * Jacobian). */
#ifndef DEM_SIM_FORCES_H
#define DEM_SIM_FORCES_H

#include <math.h>

#include "sim/internal/state.h"

/* The pair pass over the blocks of particles, in parallel: each touching pair's pending
 * accounting (account), then, if eval, its force at the new positions. */
void dem_forces_pair_pass(dem_sim *sim, int account, int eval);
/* Forces at the new positions, with the last step's pending accounting. Returns the number of
 * wall contacts lost in this step. */
size_t dem_forces_compute(dem_sim *sim);
/* Forces of a state no step has produced (a new system): evaluated without advancing any
 * history or energy accumulator (Vyas et al. 2025, §3: a_0 from a setup call). */
void dem_forces_setup(dem_sim *sim);
/* The kicks of the positions as they are, with nothing booked (exact mode's entry). */
void dem_forces_evaluate_only(dem_sim *sim);
/* The bytes of a step's running totals with nwalls walls (sim->b.tsum's size). */
size_t dem_forces_totals_size(size_t nwalls);

/* Local (non-viscous) damping of one component fk of a force or torque (forces.c for a sphere,
 * clumps.c for a clump): against the velocity component vk (Hanley 2019, eq 21), or in the Yade
 * form against u, the component's on-step estimate v + a dt/2 (Šmilauer and Chareyre 2015,
 * eq 1.9), which the caller computes from its own inertia. Returns the term added to fk. */
static inline double local_damping_term(const dem_settings *st, double fk, double vk, double u)
{
    double g = st->local_damping;
    if (st->local_form == DEM_LOCAL_YADE) return -g * fk * (fk * u > 0.0 ? 1.0 : fk * u < 0.0 ? -1.0 : 0.0);
    return -g * fabs(fk) * (vk > 0.0 ? 1.0 : vk < 0.0 ? -1.0 : 0.0);
}

#endif
