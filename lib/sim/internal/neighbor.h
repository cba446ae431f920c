/* neighbor.h - neighbour search: a cell grid over the (periodic) domain, a Verlet list with a
 * skin, the test that says when to rebuild it, and the spatial sort of the particles.
 *
 * The interface the rest of the simulator sees: dem_nbr_rebuild hands the contact store every
 * candidate pair (and every particle-wall slot) within the cutoff, and dem_nbr_needs_rebuild says
 * when the list may miss a contact. A hierarchical grid for large size ratios is a second
 * backend behind these two calls. */
#ifndef DEM_SIM_NEIGHBOR_H
#define DEM_SIM_NEIGHBOR_H

#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_nbr_alloc(dem_sim *sim, dem_error *err);
void dem_nbr_free(dem_sim *sim);
/* The default skin: 0.2 of the smallest radius. */
double dem_nbr_default_skin(const dem_sim *sim);
/* Rebuild the pair list and the wall slots (the store keeps every history); sort: put the
 * particles into grid-cell order first. */
DEM_MUST_CHECK dem_status dem_nbr_rebuild(dem_sim *sim, int sort, dem_error *err);
/* Whether the two largest displacements since the last build could close the skin (or a
 * particle and a moving wall could). */
int dem_nbr_needs_rebuild(const dem_sim *sim);
/* The two largest squared displacements since the build of particles [p0, p1) (relative to the
 * field in a deforming cell), merged into m[0] >= m[1], and their largest total one into m[2]
 * (start from zeros): what dem_nbr_needs_rebuild tests. */
void dem_nbr_largest_moves(const dem_sim *sim, size_t p0, size_t p1, double m[3]);
/* Another range's (add, as dem_nbr_largest_moves leaves it) merged into m: exact in any order. */
void dem_nbr_merge_moves(double m[3], const double add[3]);
/* Whether wall k can reach particle a before the next rebuild: within the skin now, or of
 * undefined geometry (on a cylinder's axis). */
int dem_nbr_wall_near(const dem_sim *sim, size_t a, size_t k);
/* Whether dem_nbr_rebuild uses the hierarchical grid (neighbor.grid multi, or auto with a size ratio
 * r_max / r_min above DEM_NEIGHBOR_AUTO_RATIO). */
int dem_nbr_uses_multi(const dem_sim *sim);

/* ---- shared by the backends (neighbor.c, neighbor_multi.c) ---- */
typedef struct {
    int n[3];         /* cells along each axis */
    double lo[3];     /* fractional (or absolute) coordinate of the grid's lower corner */
    double size[3];   /* cell size in the same coordinates */
} nbr_grid;
/* A grid over the particles' extent (the whole cell along periodic axes) with cells at least
 * cutoff wide, at most 8 nitems + 27 cells. */
DEM_MUST_CHECK dem_status dem_nbr_grid_setup(const dem_sim *sim, double cutoff, size_t nitems, nbr_grid *g, dem_error *err);
/* The candidate pair (a, b) seen through image sh of b (x_b + H sh near x_a), a != b or sh != 0,
 * whose groups interact (the caller checks the masks first, and counts the test in nbr.tests):
 * the distance test in the pair's canonical orientation (i = min(a, b), so that either backend
 * computes the same bits), then into the store. */
DEM_MUST_CHECK dem_status dem_nbr_candidate(dem_sim *sim, size_t a, size_t b, const int32_t sh[3], dem_error *err);
/* The same into the buffer keys (a thread's share of a parallel scan). */
DEM_MUST_CHECK dem_status dem_nbr_candidate_to(const dem_sim *sim, store_keys *keys, size_t a, size_t b, const int32_t sh[3], dem_error *err);

/* The hierarchical grid (neighbor_multi.c): every candidate pair into the store, between
 * dem_store_begin_pairs and dem_store_end_pairs. */
DEM_MUST_CHECK dem_status dem_nbr_multi_pairs(dem_sim *sim, dem_error *err);
void dem_nbr_multi_free(dem_sim *sim);
/* Its levels at the last build: count, and per level the largest radius and the particles. */
int dem_nbr_multi_levels(const dem_sim *sim, double *rmax, size_t *count, int most);

#endif
