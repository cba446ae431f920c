/* law_tangential_history.c - tangential spring with history and a Coulomb cap (seed 001 eqs
 * 14-18). The spring displacement xi (history slots 0..2, m) is carried from step to step by
 * the integrator (rotated onto the new contact plane and twirled with the pair's spin: seed 000
 * eqs 7-9, seed 003 eqs 22-23), incremented by v_t dt, and reset to the cap when sliding.
 * Stiffness: with the linear normal law kt (given, or kn 4 G* / E*: seed 001 eq 5); with Hertz the
 * Mindlin stiffness S_t = 8 G* a, a = sqrt(R* delta) (equations.md eq 29). */
#include <math.h>

#include "io/settings.h"
#include "laws/laws.h"

static double stiffness(const dem_pair *p, int normal, double delta)
{
    if (normal == DEM_NORMAL_HERTZ) return 8.0 * p->gstar * sqrt(p->rstar * delta);
    return p->kt;
}

const dem_tangential_model dem_law_tangential_history = {"history", 1, stiffness};
