/* unbalanced.h - the unbalanced-force ratio (Yade's unbalancedForce): the mean |net force| on
 * the free (not fixed) particles over the mean |contact force| of the contacts in touch; 0
 * without contacts or free particles. One definition for dem-step --until unbalanced (from the
 * simulator's arrays, lib/sim/sim.c) and dem-probe's summary (from a frame, whose particle
 * force is the same net force, gravity and local damping included, and whose contact records
 * are the contacts in touch), so that the two cannot disagree. The sums run in the order given:
 * the frame's particle order is the simulator's; its contacts are sorted by id, so the frame's
 * value can differ from the simulator's in the last bits. */
#ifndef DEM_UNBALANCED_H
#define DEM_UNBALANCED_H

#include <stddef.h>

#include "core/vec.h"
#include "io/system.h"

typedef struct {
    double fnet, fcontact; /* sums of |f|, N */
    size_t nfree, ncontacts;
} dem_unbalanced_sum;

static inline void dem_unbalanced_add_particle(dem_unbalanced_sum *u, dem_vec3 f)
{
    u->fnet += dem_v3_norm(f);
    u->nfree++;
}

static inline void dem_unbalanced_add_contact(dem_unbalanced_sum *u, dem_vec3 f)
{
    u->fcontact += dem_v3_norm(f);
    u->ncontacts++;
}

static inline double dem_unbalanced_ratio(const dem_unbalanced_sum *u)
{
    if (!u->ncontacts || !u->nfree || u->fcontact == 0.0) return 0.0;
    return (u->fnet / (double)u->nfree) / (u->fcontact / (double)u->ncontacts);
}

/* Of a frame: the particles without DEM_PARTICLE_FIXED, every contact record (fn + ft). */
double dem_unbalanced_frame(const dem_system *s);

#endif
