/* particles.h - the particles' arrays: filled from a frame, written back to one, and reordered
 * in space (every per-particle array of every module moves with its particle). */
#ifndef DEM_SIM_PARTICLES_H
#define DEM_SIM_PARTICLES_H

#include "sim/internal/state.h"

/* libdem exports this module's functions under one prefix (issue 32); its code and the contact
 * store's (issue 33, being rewritten) still call them by their short names, mapped here until
 * that rewrite lands and a follow-up rename (issue 32) renames the calls. */
#define particles_alloc        dem_particles_alloc
#define particles_free         dem_particles_free
#define particles_load         dem_particles_load
#define particles_reorder      dem_particles_reorder
#define particles_write        dem_particles_write

DEM_MUST_CHECK dem_status particles_alloc(dem_sim *sim, dem_error *err);
void particles_free(dem_sim *sim);
/* From the frame's particles (rmax too). */
void particles_load(dem_sim *sim, const dem_system *s);
/* Into the frame's particles. */
void particles_write(const dem_sim *sim, dem_system *out);
/* Put the particles in a new order: from[k] is the old index of the particle that goes to k. */
DEM_MUST_CHECK dem_status particles_reorder(dem_sim *sim, const size_t *from, dem_error *err);

#endif
