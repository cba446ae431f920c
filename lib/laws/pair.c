/* pair.c - the properties of a pair of materials and sizes that every contact law reads. */
#include "laws/laws.h"

#include <math.h>

static double restitution_beta(double e)
{
    if (e >= 1.0) return 0.0;
    double le = log(e);
    return -le / sqrt(M_PI * M_PI + le * le);
}

void dem_pair_init(dem_pair *p, const dem_settings *st, double ri, double mi, const dem_material *a,
                   double rj, double mj, const dem_material *b)
{
    int wall = rj <= 0.0;
    p->mstar = wall ? mi : mi * mj / (mi + mj);
    p->rstar = wall ? ri : ri * rj / (ri + rj);
    p->estar = 1.0 / ((1.0 - a->poisson * a->poisson) / a->young + (1.0 - b->poisson * b->poisson) / b->young);
    p->gstar = 1.0 / (2.0 * (2.0 - a->poisson) * (1.0 + a->poisson) / a->young +
                      2.0 * (2.0 - b->poisson) * (1.0 + b->poisson) / b->young);
    double ga = a->young / (2.0 * (1.0 + a->poisson)), gb = b->young / (2.0 * (1.0 + b->poisson));
    p->gstar_l = 1.0 / ((2.0 - a->poisson) / ga + (2.0 - b->poisson) / gb);
    p->mu = a->friction < b->friction ? a->friction : b->friction;
    p->beta = restitution_beta(a->restitution < b->restitution ? a->restitution : b->restitution);
    switch (st->kn_rule) {
    case DEM_KN_GIVEN: p->kn = st->kn; break;
    case DEM_KN_HERTZ: /* pi sqrt(m* / kn) = t_H at vc (Vyas et al. 2025, eq 1) */
        p->kn = pow(M_PI / DEM_HERTZ_TC, 2.0) * pow(sqrt(p->mstar) * p->estar * p->estar * p->rstar * st->vc, 0.4);
        break;
    case DEM_KN_YADE: { /* springs in series, K_i = E_i 2 r_i (Šmilauer and Chareyre 2015, §1.2.1); a wall is rigid */
        double ki = a->young * 2.0 * ri;
        p->kn = wall ? ki : ki * (b->young * 2.0 * rj) / (ki + b->young * 2.0 * rj);
        break;
    }
    case DEM_KN_OVERLAP: { /* 1/2 m* vc^2 = 1/2 kn delta_max^2 (Vyas et al. 2025, eq 27) */
        double dmin = 2.0 * (wall || ri < rj ? ri : rj), dmax = st->max_overlap * dmin;
        p->kn = p->mstar * st->vc * st->vc / (dmax * dmax);
        break;
    }
    }
    p->kt = st->kt > 0.0 ? st->kt : p->kn * 4.0 * p->gstar_l / p->estar; /* Vyas et al. 2025, eq 5 */
    /* the work of adhesion of the pair: the geometric mean of the materials' surface_energy
     * (equal materials: their value; LAMMPS mixes its granular cohesion the same way) */
    p->gamma = sqrt(a->surface_energy * b->surface_energy);
}
