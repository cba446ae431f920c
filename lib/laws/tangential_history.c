/* tangential_history.c - tangential spring with history and a Coulomb cap (Vyas et al. 2025, eqs 14-18).
 * The spring displacement xi (history slots 0..2, m) is carried from step to step: rotated onto
 * the new contact plane and twirled with the pair's spin (Hanley 2019, eqs 7-9, Kuhn et al. 2020, eqs 22-23),
 * incremented by v_t dt, and reset to the cap when sliding. Stiffness: with the linear normal
 * law kt (given, or kn 4 G* / E*: Vyas et al. 2025, eq 5); with Hertz the Mindlin stiffness S_t = 8 G* a,
 * a = sqrt(R* delta) (Vyas et al. 2025, eq 29). */
#include "laws/tangential_history.h"

static double stiffness(const dem_pair *p, int normal, double delta) { return dem_history_stiffness(p, normal, delta); }

static void eval_block(const dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                       dem_contact_rec *const *h, dem_contact_out *const *o)
{
    for (size_t m = 0; m < count; m++) {
        dem_history_eval(law, &p[m], &c[m], h[m], o[m], law->cap_adh * p[m].gamma * p[m].rstar);
    }
}

/* The linear spring's books (dem_spring_work_inline, laws.h) behind the registry's pointer. */
void dem_spring_work(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup, double d[4])
{
    dem_spring_work_inline(h, o, ut, dt, setup, d);
}

const dem_tangential_model dem_law_tangential_history = {"history", DEM_HISTORY_STRETCH, stiffness, eval_block, dem_spring_work};
