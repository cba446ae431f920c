/* neighbor.h - neighbour search: a cell grid over the (periodic) domain, a Verlet list with a
 * skin, the test that says when to rebuild it, and the spatial sort of the particles.
 *
 * The interface the rest of the simulator sees: nbr_rebuild hands the contact store every
 * candidate pair (and every particle-wall slot) within the cutoff, and nbr_needs_rebuild says
 * when the list may miss a contact. A hierarchical grid for large size ratios is a second
 * backend behind these two calls. */
#ifndef DEM_SIM_NEIGHBOR_H
#define DEM_SIM_NEIGHBOR_H

#include "sim/state.h"

dem_status nbr_alloc(dem_sim *sim, dem_error *err);
void nbr_free(dem_sim *sim);
/* The default skin: 0.2 of the smallest radius. */
double nbr_default_skin(const dem_sim *sim);
/* Rebuild the pair list and the wall slots (the store keeps every history); sort: put the
 * particles into grid-cell order first. */
dem_status nbr_rebuild(dem_sim *sim, int sort, dem_error *err);
/* Whether the two largest displacements since the last build could close the skin (or a
 * particle and a moving wall could). */
int nbr_needs_rebuild(const dem_sim *sim);
/* Whether wall k can reach particle a before the next rebuild: within the skin now, or of
 * undefined geometry (on a cylinder's axis). */
int nbr_wall_near(const dem_sim *sim, size_t a, size_t k);

#endif
