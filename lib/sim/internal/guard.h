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

#endif
