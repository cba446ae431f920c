/* law_damping_restitution.c - dashpots that reproduce the pair's coefficient of restitution e
 * for any pair of sizes (Vyas et al. 2025, eqs 31-32, docs/models.md §1.6):
 *   linear spring:  eta_n = 2 beta sqrt(m* kn)
 *   Hertz (dmt, jkr): eta_n = 2 sqrt(5/6) beta sqrt(m* S_n),  S_n = 2 E* sqrt(R* delta) (every step)
 * with beta = -ln e / sqrt(pi^2 + ln^2 e) (dem_pair.beta). The tangential dashpot gets the same
 * damping ratio as the normal one: eta_t = eta_n sqrt(S_t / S_n) (docs/models.md §1.6, derived;
 * for Hertz-Mindlin this is 2 sqrt(G* / E*), for one material sqrt(2(1-nu)/(2-nu))), computed
 * as the same factor times beta sqrt(m* S_t): one square root and no division per contact. */
#include <math.h>

#include "laws/settings.h"
#include "laws/laws.h"

static double factor(const dem_settings *st) { return st->normal != DEM_NORMAL_HOOKE ? 2.0 * sqrt(5.0 / 6.0) : 2.0; }

static double eta_n(const dem_pair *p, const dem_settings *st, double sn)
{
    return factor(st) * p->beta * sqrt(p->mstar * sn);
}

static double eta_t(const dem_pair *p, const dem_settings *st, double en, double sn, double stt)
{
    (void)en;
    return sn > 0.0 ? factor(st) * p->beta * sqrt(p->mstar * stt) : 0.0;
}

const dem_damping_model dem_law_damping_restitution = {"restitution", eta_n, eta_t};
