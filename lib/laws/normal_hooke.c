/* law_hooke.c - linear spring normal law: F = kn delta (Vyas et al. 2025, eq 13; Hanley 2019, eq 6, linear).
 * kn is given, or derived per pair by dem_pair_init (Vyas et al. 2025, eqs 1 and 27, Šmilauer and Chareyre 2015, §1.2.1). */
#include "laws/settings.h"
#include "laws/laws.h"

static double force(const dem_pair *p, double delta) { return p->kn * delta; }
static double stiffness(const dem_pair *p, double delta) { (void)delta; return p->kn; }
static double energy(const dem_pair *p, double delta) { return 0.5 * p->kn * delta * delta; }

static void eval(const dem_pair *p, double delta, double *f, double *s)
{
    *f = p->kn * delta;
    *s = p->kn;
}

const dem_normal_model dem_law_hooke = {"hooke", force, stiffness, energy, eval, 0.0, NULL};
