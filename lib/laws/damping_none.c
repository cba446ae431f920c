/* law_damping_none.c - no contact damping: elastic contacts conserve energy. */
#include "laws/settings.h"
#include "laws/laws.h"

static double eta_n(const dem_pair *p, const dem_settings *st, double sn)
{
    (void)p, (void)st, (void)sn;
    return 0.0;
}

static double eta_t(const dem_pair *p, const dem_settings *st, double eta_n, double sn, double stt)
{
    (void)p, (void)st, (void)eta_n, (void)sn, (void)stt;
    return 0.0;
}

const dem_damping_model dem_law_damping_none = {"none", eta_n, eta_t};
