/* tangential_none.c - frictionless contacts: no tangential force, no history. */
#include "laws/laws.h"

static double stiffness(const dem_pair *p, int normal, double delta)
{
    (void)p, (void)normal, (void)delta;
    return 0.0;
}

/* The normal part only; the record holds no spring. */
static void eval_block(const dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                       dem_contact_rec *const *h, dem_contact_out *const *o)
{
    for (size_t m = 0; m < count; m++) {
        dem_contact_kin k;
        double eta_n, sn;
        dem_law_normal(law, &p[m], &c[m], h[m], o[m], &k, &eta_n, &sn);
        h[m]->flags = DEM_REC_TOUCH;
        h[m]->xi[0] = h[m]->xi[1] = h[m]->xi[2] = 0.0;
    }
}

/* No spring and no force: the spring's books (tangential_history.c) give exact zeros. */
const dem_tangential_model dem_law_tangential_none = {"none", DEM_HISTORY_NONE, stiffness, eval_block, dem_spring_work};
