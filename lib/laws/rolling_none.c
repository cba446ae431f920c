/* rolling_none.c - no rolling resistance (the default); also the twisting model none. */
#include "laws/rolling.h"

static double zero_stiffness(const dem_settings *st, double rstar, double delta, double stt)
{
    (void)st; (void)rstar; (void)delta; (void)stt;
    return 0.0;
}

static void no_resistance(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r)
{
    (void)st; (void)in; (void)r;
}

const dem_resist_model dem_law_rolling_none = {"none", 0, 0, zero_stiffness, no_resistance};
const dem_resist_model dem_law_twisting_none = {"none", 0, 0, zero_stiffness, no_resistance};
