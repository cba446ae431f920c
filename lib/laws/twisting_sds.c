/* twisting_sds.c - Luding 2008's twisting spring-dashpot-slider (LAMMPS `twisting sds`): see rolling.h. */
#include "laws/rolling.h"

#include <math.h>

/* k_o = model.twisting_stiffness S_t R*^2, N m/rad */
static double stiffness(const dem_settings *st, double rstar, double delta, double stt)
{
    (void)delta;
    return st->twisting_stiffness * stt * rstar * rstar;
}

static void eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r)
{
    double k = stiffness(st, in->rstar, in->delta, in->stt);
    double c = st->twisting_damping * 2.0 * sqrt(in->inertia_o * k);
    dem_twisting_slider(in, r, k, c, in->mu_o * in->rstar * in->fn);
}

const dem_resist_model dem_law_twisting_sds = {"sds", 1, 1, stiffness, eval};
