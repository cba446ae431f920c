/* law_damping_viscous.c - constant dashpots: F_d = -eta v with eta_n = gamma_n, eta_t = gamma_t
 * (kg/s, settings model.gamma_n and model.gamma_t; Vyas et al. 2025, eqs 13 and 16). */
#include "laws/settings.h"
#include "laws/laws.h"

static double eta_n(const dem_pair *p, const dem_settings *st, double sn)
{
    (void)p, (void)sn;
    return st->gamma_n;
}

static double eta_t(const dem_pair *p, const dem_settings *st, double eta_n, double sn, double stt)
{
    (void)p, (void)eta_n, (void)sn, (void)stt;
    return st->gamma_t;
}

const dem_damping_model dem_law_damping_viscous = {"viscous", eta_n, eta_t};
