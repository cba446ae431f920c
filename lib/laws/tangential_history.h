/* tangential_history.h - the linear spring with history and a Coulomb cap (tangential_history.c
 * holds its registry row and its books): its per-contact update inline, so that the pair pass
 * (lib/sim/forces.c) evaluates the common law without a call per contact. */
#ifndef DEM_LAWS_TANGENTIAL_HISTORY_H
#define DEM_LAWS_TANGENTIAL_HISTORY_H

#include <math.h>

#include "core/angle.h"
#include "laws/carry.h"
#include "laws/laws.h"

static inline double dem_history_stiffness(const dem_pair *p, int normal, double delta)
{
    if (normal == DEM_NORMAL_HERTZ) return 8.0 * p->gstar * sqrt(p->rstar * delta);
    if (normal == DEM_NORMAL_HOOKE) return p->kt;
    /* adhesion: Mindlin's 8 G* a at the contact radius (DMT: Hertz's; JKR: its own, as LAMMPS) */
    return 8.0 * p->gstar * (normal == DEM_NORMAL_JKR ? dem_jkr_radius(p, delta) : sqrt(p->rstar * delta));
}

/* One contact's tangential update after its normal part (dem_law_normal). fadh: an adhesive
 * law's 2 F_pulloff (the Coulomb cap is mu |F_n + fadh|, laws.h); 0 otherwise. */
static inline void dem_history_update(const dem_law *law, const dem_pair *p, const dem_contact_in *c, const dem_contact_kin *k,
                          double eta_n, double sn, dem_contact_rec *h, dem_contact_out *o, double fadh)
{
    double fn = o->fn;
    double hdt = law->hdt;
    dem_vec3 n = c->n, nh = k->nh, vt = k->vt;
    double stt = dem_history_stiffness(p, law->st->normal, c->delta);
    double eta_t = law->damping->eta_t(p, law->st, eta_n, sn, stt);
    dem_vec3 xi = (h->flags & DEM_REC_TOUCH) ? dem_v3(h->xi[0], h->xi[1], h->xi[2]) : dem_v3_zero();
    xi = dem_carry_in(law, c, nh, xi);                /* Hanley 2019, eqs 7-9; Kuhn et al. 2020, eqs 22-23 */
    xi = dem_v3_madd(xi, vt, hdt);                    /* Vyas et al. 2025, eq 14 */
    dem_vec3 vts = vt;
    if (c->half_normal) {                             /* docs/models.md §1.5 step 6 */
        xi = dem_carry_out(law, nh, n, xi, 0);
        vts = dem_carry_out(law, nh, n, vt, 1);
    }
    dem_vec3 ft = dem_v3_sub(dem_v3_scale(xi, -stt), dem_v3_scale(vts, eta_t)); /* Vyas et al. 2025, eq 16 */
    double cap = p->mu * fabs(fn + fadh), ft2 = dem_v3_norm2(ft);
    uint32_t flags = DEM_REC_TOUCH;
    if (ft2 > cap * cap) { /* Coulomb: cap the force and reset the spring to match (Vyas et al. 2025, eqs 17-18) */
        double ftn = sqrt(ft2);                       /* only now: most contacts stick */
        flags |= DEM_REC_SLIDING;
        ft = ftn > 0.0 ? dem_v3_scale(ft, cap / ftn) : dem_v3_zero();
        xi = stt > 0.0 ? dem_v3_scale(dem_v3_madd(ft, vts, eta_t), -1.0 / stt) : dem_v3_zero();
    }
    o->ft = ft;
    h->xi[0] = xi.x;
    h->xi[1] = xi.y;
    h->xi[2] = xi.z;
    h->flags = flags | (eta_t != 0.0 ? DEM_REC_ETA_T : 0u);
    h->stt = stt;
}

/* One touching contact: the normal part, then the update (the law's eval_block, inline). */
static inline void dem_history_eval(const dem_law *law, const dem_pair *p, const dem_contact_in *c, dem_contact_rec *h,
                                    dem_contact_out *o, double fadh)
{
    dem_contact_kin k;
    double eta_n, sn;
    dem_law_normal(law, p, c, h, o, &k, &eta_n, &sn);
    dem_history_update(law, p, c, &k, eta_n, sn, h, o, fadh);
}

#endif
