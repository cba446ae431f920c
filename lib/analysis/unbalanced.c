/* unbalanced.c - the unbalanced-force ratio of a frame (see unbalanced.h). */
#include "analysis/unbalanced.h"

double dem_unbalanced_frame(const dem_system *s)
{
    dem_unbalanced_sum u = {0.0, 0.0, 0, 0};
    for (size_t k = 0; k < s->nparticles; k++) /* a clump's members: its net force (below), as dem-step's */
        if (!(s->particles[k].flags & DEM_PARTICLE_FIXED) && !s->particles[k].clump) dem_unbalanced_add_particle(&u, s->particles[k].force);
    for (size_t k = 0; k < s->nclumps; k++) dem_unbalanced_add_particle(&u, s->clumps[k].force);
    for (size_t k = 0; k < s->ncontacts; k++)
        dem_unbalanced_add_contact(&u, dem_v3_add(s->contacts[k].fn, s->contacts[k].ft));
    return dem_unbalanced_ratio(&u);
}
