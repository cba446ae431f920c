/* rolling.c - what the rolling and twisting sub-models share (see rolling.h): the sliders, the
 * couple, the books, and the list of material parameters the chosen sub-models leave inert. */
#include "laws/rolling.h"

#include <math.h>
#include <string.h>

#include "laws/carry.h"

const dem_resist_model *const dem_rolling_models[] = {&dem_law_rolling_none, &dem_law_rolling_sds, &dem_law_rolling_epsd};
const int dem_rolling_count = (int)(sizeof dem_rolling_models / sizeof dem_rolling_models[0]);
const dem_resist_model *const dem_twisting_models[] = {&dem_law_twisting_none, &dem_law_twisting_sds,
                                                       &dem_law_twisting_marshall};
const int dem_twisting_count = (int)(sizeof dem_twisting_models / sizeof dem_twisting_models[0]);

void dem_rolling_slider(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r, int damped_at_cap)
{
    const dem_law *law = in->law;
    double hdt = law->hdt, R = in->rstar;
    dem_vec3 xr = dem_v3(r->xr[0], r->xr[1], r->xr[2]);
    dem_vec3 vr = dem_v3_scale(dem_v3_cross(in->wrel, in->n), R); /* Luding 2008: v_r = R* (w_i - w_j) x n */
    if (hdt != 0.0 && in->c->half_normal) {
        /* vv-improved: as the tangential spring (docs/models.md §1.5 steps 5-6, "the same two-stage
         * rotation is used for the SDS rolling-resistance history"): into the half-step plane,
         * advanced there with the half-step normal, then into the end-of-step plane */
        dem_vec3 dh = dem_v3_madd(in->c->d, in->c->vij, -0.5 * hdt);
        dem_vec3 nh = dem_v3_scale(dh, 1.0 / dem_v3_norm(dh));
        dem_vec3 vh = dem_v3_scale(dem_v3_cross(in->wrel, nh), R);
        xr = dem_v3_madd(dem_carry_in(law, in->c, nh, xr), vh, hdt);
        xr = dem_carry_out(law, nh, in->n, xr, 0);
        vr = dem_carry_out(law, nh, in->n, vh, 1);
    } else if (hdt != 0.0) { /* onto this step's contact plane, twirled with the pair (carry.h), then advanced */
        xr = dem_carry_in(law, in->c, in->n, xr);
        xr = dem_v3_madd(xr, vr, hdt);
    }
    double k = dem_rolling_models[st->rolling]->stiffness(st, R, in->delta, in->stt);
    /* Ai et al. eq 15: C_r = eta_r 2 sqrt(I_r k_theta), k_theta = k R*^2; on v_r = R* theta_r' it is C_r / R*^2 */
    double c = st->rolling_damping * 2.0 * sqrt(in->inertia_r * k) / R;
    double cap = in->mu_r * in->fn;
    dem_vec3 fk = dem_v3_scale(xr, -k), f = dem_v3_madd(fk, vr, -c);
    r->flags &= ~DEM_ROLL_CAPPED;
    if (damped_at_cap) { /* sds: |F_r| <= mu_r F_n, the spring gives way (LAMMPS' rolling sds) */
        double fm = dem_v3_norm(f);
        if (fm > cap) {
            r->flags |= DEM_ROLL_CAPPED;
            f = fm > 0.0 ? dem_v3_scale(f, cap / fm) : dem_v3_zero();
            if (k > 0.0) xr = dem_v3_scale(dem_v3_madd(f, vr, c), -1.0 / k);
        }
    } else { /* epsd: the spring's moment at most mu_r R* F_n, no dashpot at the cap (Ai et al. eqs 18-21, f = 0) */
        double fm = dem_v3_norm(fk);
        if (fm > cap) {
            r->flags |= DEM_ROLL_CAPPED;
            f = fm > 0.0 ? dem_v3_scale(fk, cap / fm) : dem_v3_zero();
            if (k > 0.0) xr = dem_v3_scale(f, -1.0 / k);
        }
    }
    r->xr[0] = xr.x; r->xr[1] = xr.y; r->xr[2] = xr.z;
    r->fr[0] = f.x; r->fr[1] = f.y; r->fr[2] = f.z;
    r->kr = k;
}

void dem_twisting_slider(const dem_roll_in *in, dem_roll_rec *r, double k, double c, double cap)
{
    double hdt = in->law->hdt, wo = dem_v3_dot(in->wrel, in->n);
    double xo = r->xo + hdt * wo;
    double m = -k * xo - c * wo;
    r->flags &= ~DEM_TWIST_CAPPED;
    if (fabs(m) > cap) {
        r->flags |= DEM_TWIST_CAPPED;
        m = m > 0.0 ? cap : -cap;
        if (k > 0.0) xo = -(m + c * wo) / k;
    }
    r->xo = xo;
    r->mo = m;
    r->ko = k;
}

dem_vec3 dem_roll_couple(const dem_roll_rec *r, dem_vec3 n, double rstar)
{
    dem_vec3 m = dem_v3_scale(dem_v3_cross(n, dem_v3(r->fr[0], r->fr[1], r->fr[2])), rstar);
    return dem_v3_madd(m, n, r->mo);
}

void dem_roll_eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r)
{
    dem_rolling_models[st->rolling]->eval(st, in, r);
    dem_twisting_models[st->twisting]->eval(st, in, r);
    r->flags |= DEM_ROLL_ACTIVE;
    dem_vec3 m = dem_roll_couple(r, in->n, in->rstar);
    r->m[0] = m.x; r->m[1] = m.y; r->m[2] = m.z;
}

/* One spring's step (as dem_spring_work_inline does for the tangential one): at the cap, the
 * work of its force less the change of its energy; else its dashpot's work; the law's work
 * 1/2 (k - k_old) (x_old^2 + x^2) / 2. p, pd: full-step powers of force and dashpot; x2: stretch^2. */
static void spring_books(double b[4], double p, double pd, double x2, double k, int capped, double dt, int setup, double *diss, double *law)
{
    if (!setup) {
        double k_old = b[DEM_RB_X2] > 0.0 ? b[DEM_RB_K] : k, k_mid = 0.5 * (k_old + k);
        *law += 0.25 * (k - k_old) * (b[DEM_RB_X2] + x2);
        if (capped) *diss += -0.5 * dt * (b[DEM_RB_P] + p) - 0.5 * k_mid * (x2 - b[DEM_RB_X2]);
        else *diss += -0.5 * dt * (b[DEM_RB_PD] + pd);
    }
    b[DEM_RB_P] = p;
    b[DEM_RB_PD] = pd;
    b[DEM_RB_X2] = x2;
    b[DEM_RB_K] = k;
}

void dem_roll_work(dem_roll_rec *r, dem_vec3 n, double rstar, dem_vec3 wrel, double dt, int setup, double e[3])
{
    dem_vec3 vr = dem_v3_scale(dem_v3_cross(wrel, n), rstar), xr = dem_v3(r->xr[0], r->xr[1], r->xr[2]);
    dem_vec3 fr = dem_v3(r->fr[0], r->fr[1], r->fr[2]);
    double pr = dem_v3_dot(fr, vr), pdr = dem_v3_dot(dem_v3_madd(fr, xr, r->kr), vr);
    spring_books(r->br, pr, pdr, dem_v3_norm2(xr), r->kr, (r->flags & DEM_ROLL_CAPPED) != 0, dt, setup, &e[0], &e[2]);
    double wo = dem_v3_dot(wrel, n);
    spring_books(r->bo, r->mo * wo, (r->mo + r->ko * r->xo) * wo, r->xo * r->xo, r->ko, (r->flags & DEM_TWIST_CAPPED) != 0, dt,
                 setup, &e[1], &e[2]);
}

void dem_roll_forget(dem_roll_rec *r, double hdt, double e[2])
{
    if (hdt != 0.0) {
        e[0] += -0.5 * hdt * r->br[DEM_RB_P] + 0.5 * r->br[DEM_RB_K] * r->br[DEM_RB_X2];
        e[1] += -0.5 * hdt * r->bo[DEM_RB_P] + 0.5 * r->bo[DEM_RB_K] * r->bo[DEM_RB_X2];
    }
    memset(r, 0, sizeof *r);
}
