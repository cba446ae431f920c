/* tangential_incremental.c - the incremental tangential law of Hanley 2019 (eq 10), Yade's
 * Hertz-Mindlin and LAMMPS' `mindlin/force`: the history is the tangential spring FORCE f_s
 * (history slots 0..2, N, on i), carried from step to step and incremented with the stiffness
 * of the current overlap,
 *
 *     f_s(t+dt) = R f_s(t) - H_s dU_s,   dU_s = v_t dt,                        (Hanley 2019, eq 10)
 *
 * R the carry onto the new contact plane and the twirl with the pair's spin (Hanley 2019, eqs 7-9,
 * Kuhn et al. 2020, eqs 22-23; carry.h, as the history law), H_s the tangential stiffness at the overlap
 * of t + dt: Mindlin's 8 G* a with Hertz, a = sqrt(R* delta) (Hanley's
 * H_s = H_n sqrt(U_n) 3(1-nu)/(2-nu) for one material), kt with hooke. The tangential force is f_s minus the dashpot eta_t v_t, capped at mu |F_n| (Hanley 2019,
 * after eq 10: "the magnitude of f_s is limited to mu |f_n|"; Vyas et al. 2025, eqs 16-18); when the cap acts,
 * f_s is set to the capped force plus the dashpot part, as the history law resets its stretch.
 *
 * The history law (tangential_history.c) is the total form F_t = -S_t xi, LAMMPS' `mindlin`:
 * with Hertz its force follows S_t(delta) at a given stretch and goes to zero as the overlap
 * closes, where this one keeps the force the contact has built (Hanley §4, Fig. 5). With a
 * constant stiffness (hooke) the two are the same law: f_s = -kt xi step by step, to round-off.
 *
 * Energy: the spring holds |f_s|^2 / (2 H_s). A change of H_s at a given force changes it with
 * no force doing work (the incremental spring is not a potential either): the work hook books
 * 1/2 (1/H_new - 1/H_old) |f_s,old|^2 as the law's work (work_law), the rest of the change being
 * the spring force's own work -(f_old + f_new)/2 . v_t dt, exactly, for a sticking step (the
 * increment -H_new v_t dt gives |f_new|^2 - |f_old|^2 = H_new (-2 f_old . v_t dt + H_new |v_t
 * dt|^2); the rotations keep |f_s|). So eel_t = |f_s|^2 / (2 H_s) is a convention (the one energy
 * the frame's state defines): it diverges as H_s -> 0 under a held force, and work_law with it.
 * When the contact opens while it sticks, the spring is cut with that energy in it, and
 * dem_contact_forget books it as the law's work, not friction: over a contact that never slid
 * work_law ends at minus the energy the spring kept (Hanley's Fig. 5: -1.655e-8 J; docs/models.md). */
#include <math.h>

#include "core/angle.h"
#include "laws/carry.h"
#include "laws/tangential_history.h" /* dem_history_stiffness: the same H_s */

static double stiffness(const dem_pair *p, int normal, double delta) { return dem_history_stiffness(p, normal, delta); }

/* One touching contact's tangential update after its normal part (dem_law_normal). The same
 * steps as dem_history_update with the force in place of the stretch. */
static void update(const dem_law *law, const dem_pair *p, const dem_contact_in *c, const dem_contact_kin *k, double eta_n,
                   double sn, dem_contact_rec *h, dem_contact_out *o)
{
    double fn = o->fn, hdt = law->hdt;
    dem_vec3 n = c->n, nh = k->nh, vt = k->vt;
    double hs = dem_history_stiffness(p, law->st->normal, c->delta); /* H_s at U_n(t + dt) (Hanley 2019, eq 10) */
    double eta_t = law->damping->eta_t(p, law->st, eta_n, sn, hs);
    dem_vec3 fs = (h->flags & DEM_REC_TOUCH) ? dem_v3(h->xi[0], h->xi[1], h->xi[2]) : dem_v3_zero();
    fs = dem_carry_in(law, c, nh, fs);                 /* Hanley 2019, eqs 7-9; Kuhn et al. 2020, eqs 22-23 */
    fs = dem_v3_madd(fs, vt, -hs * hdt);               /* Hanley 2019, eq 10 */
    dem_vec3 vts = vt;
    if (c->half_normal) {                              /* docs/models.md §1.5 step 6 */
        fs = dem_carry_out(law, nh, n, fs, 0);
        vts = dem_carry_out(law, nh, n, vt, 1);
    }
    dem_vec3 ft = dem_v3_sub(fs, dem_v3_scale(vts, eta_t)); /* Vyas et al. 2025, eq 16 */
    double cap = p->mu * fabs(fn), ft2 = dem_v3_norm2(ft);
    uint32_t flags = DEM_REC_TOUCH;
    if (ft2 > cap * cap) { /* Coulomb: cap the force, the spring holds the capped force's elastic part */
        double ftn = sqrt(ft2);
        flags |= DEM_REC_SLIDING;
        ft = ftn > 0.0 ? dem_v3_scale(ft, cap / ftn) : dem_v3_zero();
        fs = dem_v3_madd(ft, vts, eta_t);
    }
    o->ft = ft;
    h->xi[0] = fs.x;
    h->xi[1] = fs.y;
    h->xi[2] = fs.z;
    h->flags = flags | (eta_t != 0.0 ? DEM_REC_ETA_T : 0u);
    h->stt = hs;
}

static void eval_block(const dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                       dem_contact_rec *const *h, dem_contact_out *const *o)
{
    for (size_t m = 0; m < count; m++) {
        dem_contact_kin k;
        double eta_n, sn;
        dem_law_normal(law, &p[m], &c[m], h[m], o[m], &k, &eta_n, &sn);
        update(law, &p[m], &c[m], &k, eta_n, sn, h[m], o[m]);
    }
}

/* The books of one contact (laws.h, dem_spring_work_inline for the stretch form). prev[XI2]
 * keeps |f_s / H_s|^2, the stretch a linear spring of stiffness H_s would have, so that
 * 1/2 S_t prev[XI2] is the stored energy as dem_contact_forget reads it. The stored energy
 * goes from E0 = |f0|^2 / (2 H0) to E1 = |f1|^2 / (2 H1); the law's part is
 * 1/2 (1/H1 - 1/H0) |f0|^2 (the stiffness change at the old force), the spring's the rest,
 * 1/2 (|f1|^2 - |f0|^2) / H1; friction (sliding) is minus the tangential force's work over the
 * step (trapezoid of the full-step powers) minus the spring's part; otherwise the dashpot's
 * work goes to damp_t. */
static void work(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup, double d[4])
{
    dem_vec3 fs = dem_v3(h->xi[0], h->xi[1], h->xi[2]);
    double h1 = h->stt, f2 = dem_v3_norm2(fs);
    double x2 = h1 > 0.0 ? f2 / (h1 * h1) : 0.0;
    double pt = dem_v3_dot(o->ft, ut);
    double pd = (h->flags & DEM_REC_ETA_T) ? dem_v3_dot(dem_v3_sub(o->ft, fs), ut) : 0.0;
    if (!setup) {
        double x0 = h->prev[DEM_PREV_XI2], h0 = h->prev[DEM_PREV_STT];
        double e0 = 0.5 * h0 * x0, e1 = 0.5 * h1 * x2;
        /* 1/2 (1/H1 - 1/H0) |f0|^2 with |f0|^2 = H0^2 x0 */
        double law = x0 > 0.0 && h1 > 0.0 ? 0.5 * x0 * h0 * (h0 - h1) / h1 : 0.0;
        d[3] = law;
        if (h->flags & DEM_REC_SLIDING) d[0] = -0.5 * dt * (h->prev[DEM_PREV_PT] + pt) - (e1 - e0 - law);
        else d[2] = -0.5 * dt * (h->prev[DEM_PREV_PD] + pd);
    }
    h->prev[DEM_PREV_PT] = pt;
    h->prev[DEM_PREV_PD] = pd;
    h->prev[DEM_PREV_XI2] = x2;
    h->prev[DEM_PREV_STT] = h1;
}

const dem_tangential_model dem_law_tangential_incremental = {"incremental", DEM_HISTORY_FORCE, stiffness, eval_block, work};
