/* coordination.h - the coordination number of a frame, over all particles or those centred in a
 * box, and the mechanical coordination number without rattlers.
 *
 * Definitions (contacts: records with overlap > 0):
 *   N       the particles counted: all, or those whose centre lies in the box;
 *   Z       = sum over the counted particles of their particle-particle contacts / N (walls
 *             excluded). Without a box this is 2 C / N; with one, a contact between two counted
 *             particles counts for both, a contact across the box's faces for its inner end;
 *   rattlers: every particle with fewer than K contacts (particle and wall contacts both count)
 *             is removed, which lowers its neighbours' counts, until every remaining particle
 *             has at least K (done over the whole frame: whether a particle is a rattler does
 *             not depend on the box);
 *   Z_m     = sum over the counted particles that remain of their contacts with remaining
 *             particles / N_m, N_m those particles (2 C_m / N_m without a box); 0 if every counted
 *             particle is a rattler, nan if N = 0;
 *   rattler_fraction = (N - N_m) / N, nan if N = 0.
 * A rigid clump (format 1.6) is one particle here: the contacts of its members with other particles
 * and clumps are its contacts (one per touching member pair), and it is counted once, by its first
 * member's centre when there is a box. */
#ifndef DEM_COORDINATION_H
#define DEM_COORDINATION_H

#include <stddef.h>

#include "analysis/analysis.h"
#include "core/error.h"
#include "io/system.h"

/* The default K: 2, the mechanical coordination number of Thornton (particles with no contact or
 * one carry no load; C. Thornton, Geotechnique 50 (2000) 43-53). K = 4 = d + 1, the least that
 * holds a frictionless sphere, removes every particle of a frictional bed near Z = 4 by the
 * cascade (measured: a settled bed of 1000 spheres, Z = 4.17, keeps 0 with K = 4, 98.7% with
 * K = 2): frictionless packings choose it with --rattler-contacts 4. */
#define DEM_RATTLER_CONTACTS 2u

typedef struct {
    size_t particles;        /* N */
    size_t contacts;         /* particle-particle contacts with at least one counted end */
    size_t wall_contacts;    /* wall contacts of the counted particles */
    double coordination;     /* Z */
    size_t mech_particles;   /* N_m */
    double coordination_mech;/* Z_m */
    double rattler_fraction; /* (N - N_m) / N */
} dem_coordination_stats;

/* box NULL: every particle; ix must be built for s; k >= 1. Fails on a contact naming a particle
 * that is not in the frame, or out of memory. */
DEM_MUST_CHECK dem_status dem_coordination_measure(const dem_system *s, const dem_id_index *ix, const dem_aabb *box, unsigned k,
                                    dem_coordination_stats *out, dem_error *err);

#endif
