/* law_hertz.c - Hertz normal law: F = 4/3 E* sqrt(R*) delta^(3/2) (Hanley 2019, eq 6 with
 * H = 4G/(3(1-nu)) sqrt(R*) for one material; E* and R* of Vyas et al. 2025, eqs 3-4).
 * Only sqrt is used (delta^(3/2) = delta sqrt(delta)): IEEE sqrt is exact, so forces do not
 * depend on the maths library. */
#include <math.h>

#include "laws/settings.h"
#include "laws/laws.h"

static double force(const dem_pair *p, double delta)
{
    return 4.0 / 3.0 * p->estar * sqrt(p->rstar) * delta * sqrt(delta);
}

/* S_n = dF/d delta = 2 E* sqrt(R* delta) = 2 E* a, a the contact radius (Vyas et al. 2025, eq 32). */
static double stiffness(const dem_pair *p, double delta) { return 2.0 * p->estar * sqrt(p->rstar * delta); }

/* U = 8/15 E* sqrt(R*) delta^(5/2). */
static double energy(const dem_pair *p, double delta)
{
    return 8.0 / 15.0 * p->estar * sqrt(p->rstar) * delta * delta * sqrt(delta);
}

/* Both from the contact radius a = sqrt(R* delta): F = 4/3 E* a delta, S_n = 2 E* a. */
static void eval(const dem_pair *p, double delta, double *f, double *s)
{
    double a = sqrt(p->rstar * delta);
    *f = 4.0 / 3.0 * p->estar * a * delta;
    *s = 2.0 * p->estar * a;
}

const dem_normal_model dem_law_hertz = {"hertz", force, stiffness, energy, eval, 0.0, NULL};
