/* rolling_epsd.c - Ai et al. 2011's elastic-plastic spring-dashpot rolling resistance (their Type
 * C model: the moment capped at mu_r R* F_n): see rolling.h. */
#include "laws/rolling.h"

/* k_theta = model.rolling_stiffness S_t R*^2, i.e. k_r on xi_r = R* theta_r (rolling.h: Ai et al.'s
 * own 2.25 k_n mu_r^2 R*^2 is a choice of model.rolling_stiffness) */
static double stiffness(const dem_settings *st, double rstar, double delta, double stt)
{
    (void)rstar; (void)delta;
    return st->rolling_stiffness * stt;
}

static void eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r) { dem_rolling_slider(st, in, r, 0); }

const dem_resist_model dem_law_rolling_epsd = {"epsd", 1, 1, stiffness, eval};
