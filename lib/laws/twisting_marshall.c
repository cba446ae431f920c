/* twisting_marshall.c - Marshall 2009's twisting resistance (LAMMPS `twisting marshall`, Vyas et al. 2025
 * §5.1): stiffness, damping and limit from the tangential law over the contact radius
 * a = sqrt(R* delta): k_o = S_t a^2 / 2, c_o = eta_t a^2 / 2, |M_o| <= (2/3) a mu F_n. It uses
 * neither the materials' twisting_friction nor model.twisting_*. */
#include "laws/rolling.h"

#include <math.h>

static double stiffness(const dem_settings *st, double rstar, double delta, double stt)
{
    (void)st;
    return 0.5 * stt * rstar * delta;
}

static void eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r)
{
    double a2 = in->rstar * in->delta, a = sqrt(a2);
    dem_twisting_slider(in, r, stiffness(st, in->rstar, in->delta, in->stt), 0.5 * in->eta_t * a2, 2.0 / 3.0 * a * in->mu * in->fn);
}

const dem_resist_model dem_law_twisting_marshall = {"marshall", 0, 0, stiffness, eval};
