/* guard.h - what a simulation refuses to start from, and what stops it early: the ranges a
 * system must lie in (sim.h: DEM_SIM_*), and the instability guards of dem_sim_limits checked
 * every step (an overlap beyond a fraction of a radius, a particle moving more than the skin in
 * one step), each stopping with a message that names the step, the particle and the time step
 * against the collision-time estimate. */
#ifndef DEM_SIM_GUARD_H
#define DEM_SIM_GUARD_H

#include "sim/internal/state.h"

/* libdem exports this module's functions under one prefix (issue 32); its code and the contact
 * store's (issue 33, being rewritten) still call them by their short names, mapped here until
 * that rewrite lands and a follow-up rename (issue 32) renames the calls. */
#define guard_alloc            dem_guard_alloc
#define guard_check_cell       dem_guard_check_cell
#define guard_check_finite     dem_guard_check_finite
#define guard_check_move       dem_guard_check_move
#define guard_check_overlaps   dem_guard_check_overlaps
#define guard_check_system     dem_guard_check_system
#define guard_free             dem_guard_free
#define guard_track_overlaps   dem_guard_track_overlaps

DEM_MUST_CHECK dem_status guard_alloc(dem_sim *sim, dem_error *err);
void guard_free(dem_sim *sim);
/* The ranges of the system as built (particles, periodic images, gravity, walls). */
DEM_MUST_CHECK dem_status guard_check_system(const dem_sim *sim, dem_error *err);
/* Every particle's position, velocity, spin, force and torque finite (else the step and the
 * particle, and the likely cause). */
DEM_MUST_CHECK dem_status guard_check_finite(dem_sim *sim, dem_error *err);
/* After a drift: the largest step of a particle's surface (translation and spin) against
 * lim.move skins; a non-finite velocity or spin. */
DEM_MUST_CHECK dem_status guard_check_move(dem_sim *sim, dem_error *err);
/* The periodic cell: every width at least the neighbour cutoff (no particle may reach its own
 * image), det H positive and finite; checked at the start and after every deforming step. */
DEM_MUST_CHECK dem_status guard_check_cell(const dem_sim *sim, dem_error *err);
/* After a force evaluation: the pair and wall overlaps flagged by forces.c. */
DEM_MUST_CHECK dem_status guard_check_overlaps(dem_sim *sim, dem_error *err);
/* After a force evaluation: the run's largest overlap (dem_sim_largest_overlap), from the blocks'
 * largest pair overlaps of that evaluation and every touching wall slot, in a fixed order. */
void guard_track_overlaps(dem_sim *sim);

#endif
