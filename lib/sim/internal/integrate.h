/* integrate.h - the integrator registry. A row names an integrator of the `integrator` setting,
 * says how contacts see the relative velocity (half_normal), and gives its step. The explicit
 * velocity-Verlet family shares one step (Vyas et al. 2025, Fig. 7 and §4, Hanley 2019, eqs 1-12); the
 * direction of time (dem_sim_set_direction: Hanley's reversed algorithm, Hanley 2019, eqs 17-20) and
 * the exact mode (exact.c) are modes of it, not integrators. An implicit integrator is a row
 * whose step asks the force module for forces and their Jacobian (forces.h) and solves. */
#ifndef DEM_SIM_INTEGRATE_H
#define DEM_SIM_INTEGRATE_H

#include "sim/internal/state.h"

typedef struct sim_integrator {
    int half_normal;   /* contacts use the half-step normal (Vyas et al. 2025, §4, docs/models.md §1.5) */
    dem_status (*step)(dem_sim *sim, dem_error *err);
} sim_integrator;

/* The row of integrator `which` (dem_integrator). */
const sim_integrator *dem_integrate_get(int which);

#endif
