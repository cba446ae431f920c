/* particles.h - the particles' arrays: filled from a frame, written back to one, and reordered
 * in space (every per-particle array of every module moves with its particle). */
#ifndef DEM_SIM_PARTICLES_H
#define DEM_SIM_PARTICLES_H

#include "core/pages.h"
#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_particles_alloc(dem_sim *sim, dem_error *err);
void dem_particles_free(dem_sim *sim);
/* From the frame's particles (rmax too). consume: the frame's particle table (its base), whose
 * pages go behind the loading (core/pages.h), so that the table and the sim's arrays are not
 * held whole at once; NULL: the table is left as it is. */
void dem_particles_load(dem_sim *sim, const dem_system *s, dem_pages_reader *consume);
/* Particle a as a frame's record (its clump's id; the sim's own flags left out). */
void dem_particle_record(const dem_sim *sim, size_t a, dem_particle *p);
/* Into the frame's particles (its table holds sim->p.n). */
void dem_particles_write(const dem_sim *sim, dem_system *out);
/* Put the particles in a new order: from[k] is the old index of the particle that goes to k. */
DEM_MUST_CHECK dem_status dem_particles_reorder(dem_sim *sim, const size_t *from, dem_error *err);

#endif
