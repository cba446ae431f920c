/* forces.h - the force module: every contact's force at the new positions (the geometry of each
 * pair and wall slot, then the law in blocks), then every particle's sum in a fixed order, local
 * damping, and the walls' loads. An implicit integrator asks here for forces (and, later, their
 * Jacobian). */
#ifndef DEM_SIM_FORCES_H
#define DEM_SIM_FORCES_H

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

#endif
