/* normal_dmt.c - the Derjaguin-Muller-Toporov adhesive normal law (Derjaguin, Muller & Toporov
 * 1975; LAMMPS granular `dmt`): Hertz plus a constant attraction, the pull-off force
 *
 *     F = 4/3 E* a delta - 2 pi gamma R*,   a = sqrt(R* delta),   delta > 0,
 *
 * gamma the pair's work of adhesion (dem_pair.gamma, J/m^2). The contact forms and ends at
 * delta = 0 (no neck): the force jumps by the pull-off there, the energy does not,
 *
 *     U = 8/15 E* a delta^2 - 2 pi gamma R* delta     (U' = F, U(0) = 0),
 *
 * so a pair separated quasistatically needs 2 pi gamma R* to come apart. S_n = 2 E* a (Hertz's);
 * the tangential law uses Mindlin's 8 G* a and caps at mu |F_n + 2 F_pulloff| (laws.h). */
#include <math.h>

#include "laws/settings.h"
#include "laws/laws.h"

static double pulloff(const dem_pair *p) { return 2.0 * M_PI * p->gamma * p->rstar; }

static double force(const dem_pair *p, double delta)
{
    return 4.0 / 3.0 * p->estar * sqrt(p->rstar * delta) * delta - pulloff(p);
}

static double stiffness(const dem_pair *p, double delta) { return 2.0 * p->estar * sqrt(p->rstar * delta); }

static double energy(const dem_pair *p, double delta)
{
    return 8.0 / 15.0 * p->estar * sqrt(p->rstar * delta) * delta * delta - pulloff(p) * delta;
}

static void eval(const dem_pair *p, double delta, double *f, double *s)
{
    double a = sqrt(p->rstar * delta);
    *f = 4.0 / 3.0 * p->estar * a * delta - pulloff(p);
    *s = 2.0 * p->estar * a;
}

const dem_normal_model dem_law_dmt = {"dmt", force, stiffness, energy, eval, 2.0, NULL};
