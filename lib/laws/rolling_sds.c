/* rolling_sds.c - Luding 2008's rolling spring-dashpot-slider (LAMMPS `rolling sds`): see rolling.h. */
#include "laws/rolling.h"

/* k_r = model.rolling_stiffness S_t on xi_r (k_theta = k_r R*^2: Iwashita & Oda 1998, Yade's alphaKr) */
static double stiffness(const dem_settings *st, double rstar, double delta, double stt)
{
    (void)rstar; (void)delta;
    return st->rolling_stiffness * stt;
}

static void eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r) { dem_rolling_slider(st, in, r, 1); }

const dem_resist_model dem_law_rolling_sds = {"sds", 1, 1, stiffness, eval};
