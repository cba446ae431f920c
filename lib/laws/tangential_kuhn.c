/* tangential_kuhn.c - Kuhn's refined linear-frictional contact (Kuhn et al. 2020, "Linear-frictional
 * contact model for 3D DEM simulations of granular systems"; equations restored in
 * docs/models.md §2): the conventional rule "add kt du to the force, then cap it at mu fn"
 * (Kuhn et al. 2020, eqs 1-3; tangential_history.c) with the four refinements of the paper's Fig. 1:
 *
 *   1. a fresh contact is touching only for the part 1 - beta0 of the step (eqs 7-8);
 *   2. a contact that starts to slide within the step does so at beta_s, after an elastic part
 *      (eqs 9-15, the robust root of docs/models.md §2.4);
 *   3. while it slides, the force turns towards the movement: the elastic movement across the
 *      force turns it as it goes (eqs 16-19, the closed form of docs/models.md §2.6 in place of the
 *      paper's lookup tables and Newton iteration), so its final direction lies between its
 *      first one and the movement (eqs 20-21);
 *   4. the force is carried with the rotating contact onto the new tangent plane (eq 22) and
 *      turned with the pair's spin about the normal (eq 23), as every law with history does it
 *      (carry.h: by default the smallest rotation of the old plane onto the new, exact where the
 *      projection of eq 22 errs at second order in the step's turn; --carry project is eq 22).
 *
 * The normal law is the linear one the paper builds on (hooke, eq 1); settings.c refuses any
 * other. The elastic tangential force f is kept as the history law keeps it, a spring stretch
 * xi = -f / kt (history slots 0..2), so its stored energy 1/2 kt |xi|^2 = |f|^2 / (2 kt) is what
 * dem-energy counts. With a tangential dashpot (--damping) the dashpot force is added to the
 * force afterwards, as the paper adds contact damping (Fig. 1 line 50), and the sum is held to
 * the friction limit (the paper adds it without one: then a contact sliding at speed would be
 * stopped by its dashpot, not by friction).
 *
 * Decomposition: the movement of the step is split into normal and tangential parts with the
 * mid-step normal for vv-improved (docs/models.md §1.5's cross-paper note: the end-of-step normal
 * of Kuhn et al. 2020, eq 6 lags by a first-order term), the old force is carried onto that plane before
 * the step and the new one onto the end-of-step plane after it, as the history law carries its
 * spring. The paper projects and twirls the new force after the step (lines 48-49); carrying
 * the old one first is the same to first order, and for a rigid rotation, where there is no
 * movement, it is the same operation.
 *
 * Books (docs/models.md §2.9): the law computes the tangential work done on the contact in the
 * step, W = W_pre + W_slide, and its dissipation W - (|f1|^2 - |f0|^2) / (2 kt) (lines 51-53);
 * the work hook books that dissipation as friction, the dashpot's as damp_t. Between its
 * evaluation and its books the record's lwork carries the step's dissipation (J). Velocity Verlet's kicks
 * transfer 1/2 (f0 + f1) . du over a step, the law's work follows the force's path within it,
 * kinked where sliding starts: their difference, O(dt^2) at such steps, is what the residual of
 * dem-energy keeps of this law (README, Kuhn's contact). */
#include "laws/tangential_kuhn.h"

#include <math.h>

#include "core/angle.h"
#include "laws/carry.h"
#include "laws/laws.h"

/* log(1 + x) / x, with its series near x = 0 (0 when the normal force does not change) */
static double log1p_over(double x)
{
    if (fabs(x) < 1e-4) return 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
    return log1p(x) / x;
}

double dem_kuhn_lambda(double kt, double du, double mu, double fn0, double dfn)
{
    /* eq 18: kt |du| / (mu dfn) ln(1 + dfn / fn0), -> kt |du| / (mu fn0) as dfn -> 0 */
    return kt * du / (mu * fn0) * log1p_over(dfn / fn0);
}

double dem_kuhn_slip_onset(double a, double b, double c)
{
    double disc = b * b - a * c, s = disc > 0.0 ? sqrt(disc) : 0.0, beta;
    if (b > 0.0) beta = -c / (b + s);      /* eq 13 without cancellation; -c / (2b) as a -> 0 (eq 14) */
    else if (a > 0.0) beta = (-b + s) / a; /* b <= 0 < a + 2b + c: a > 0 */
    else beta = 1.0;                       /* only by rounding: g(beta) <= 0 on the whole step */
    if (!(beta > 0.0)) beta = 0.0;
    return beta < 1.0 ? beta : 1.0;
}

dem_vec3 dem_kuhn_turn(dem_vec3 e0, dem_vec3 d, double lambda)
{
    /* artanh(e1 . d) = artanh(e0 . d) + Lambda: e1 = [sech L e0 + (a0 (1 - sech L) + tanh L) d] / (1 + a0 tanh L) */
    double a0 = dem_v3_dot(e0, d), t = tanh(lambda), sc = 1.0 / cosh(lambda), den = 1.0 + a0 * t;
    if (!(den > 1e-14)) return e0; /* the force against the movement: the unstable fixed point (theta = pi/2) */
    dem_vec3 e1 = dem_v3_scale(dem_v3_madd(dem_v3_scale(e0, sc), d, a0 * (1.0 - sc) + t), 1.0 / den);
    return dem_v3_scale(e1, 1.0 / dem_v3_norm(e1));
}

/* ln(cosh L + a0 sinh L), L >= 0, |a0| <= 1, without overflow or cancellation: with
 * m = e^L - 1, cosh L + a0 sinh L - 1 = m ((1 + a0)/2 - (1 - a0) / (2 (1 + m))) */
static double log_cosh_sinh(double l, double a0)
{
    if (l < 30.0) {
        double m = expm1(l);
        return log1p(m * (0.5 * (1.0 + a0) - 0.5 * (1.0 - a0) / (1.0 + m)));
    }
    return l + log(0.5 * (1.0 + a0) + 0.5 * (1.0 - a0) * exp(-2.0 * l));
}

/* Gauss-Legendre nodes and weights on [0, 1]: 3 points, 5, then 8 */
static const double gauss_t[16] = {0.11270166537925831, 0.5, 0.88729833462074169,
                                   0.046910077030668004, 0.23076534494715845, 0.5, 0.76923465505284155, 0.95308992296933200,
                                   0.019855071751231856, 0.10166676129318664, 0.23723379504183550, 0.40828267875217510,
                                   0.59171732124782490, 0.76276620495816450, 0.89833323870681336, 0.98014492824876814};
static const double gauss_w[16] = {0.27777777777777778, 0.44444444444444444, 0.27777777777777778,
                                   0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324,
                                   0.11846344252809454, 0.050614268145188130, 0.11119051722668724, 0.15685332293894364,
                                   0.18134189168918100, 0.18134189168918100, 0.15685332293894364, 0.11119051722668724,
                                   0.050614268145188130};

/* The work of a sliding force from the onset to the end of the step (docs/models.md §2.9):
 * W = int mu fn(beta) e(beta) . du dbeta. With Lambda as the variable (dLambda = kt |du| /
 * (mu fn) dbeta, eq 16) W = (mu^2 / kt) int_0^L fn(l)^2 tanh(u0 + l) dl, tanh u0 = a0, and
 * fn(l) = fn_s exp(k l), k L = ln(fn1 / fn_s) = ln(1 + x). With T(l) = ln(cosh l + a0 sinh l),
 * whose derivative is tanh(u0 + l), integrated by parts:
 *     W kt / (mu fn_s)^2 = (1 + x)^2 T(L) - 2 ln(1 + x) int_0^1 (1 + x)^(2t) T(L t) dt,
 * exact for a constant normal force (x = 0: (mu fn)^2 / kt T(L)); the integral by Gauss-Legendre
 * (T is smoother than tanh, which a quadrature of the integrand itself would meet: its error is
 * ten times smaller for the same points), with 3 points for the small steps of a DEM run
 * (L <= 0.1, |x| <= 0.01), 5 up to L = 1, else 8. Against RK4 of the rate equations
 * (tests/unit/test_kuhn.c): to round-off at constant fn, to 1e-9 of mu fn |du| for L <= 1 with
 * fn changing by 60% in the step, 1e-8 up to 4 yield lengths. caps = mu fn_s, x = dfn / fn_s
 * over the sliding part of the step. */
static double slide_work(double caps, double kt, double l, double a0, double x)
{
    double t1 = log_cosh_sinh(l, a0), w;
    if (x == 0.0) {
        w = t1;
    } else {
        double lk = 2.0 * log1p(x), g = 0.0;
        int k0 = l <= 0.1 && fabs(x) <= 0.01 ? 0 : l <= 1.0 ? 3 : 8, k1 = k0 == 0 ? 3 : k0 == 3 ? 8 : 16;
        for (int k = k0; k < k1; k++) g += gauss_w[k] * exp(lk * gauss_t[k]) * log_cosh_sinh(l * gauss_t[k], a0);
        w = exp(lk) * t1 - lk * g;
    }
    return caps * caps / kt * w;
}

void dem_kuhn_step(const dem_kuhn_in *in, dem_kuhn_out *out)
{
    double kt = in->kt, mu = in->mu, kn = in->kn, zeta1 = in->zeta1, zeta0 = zeta1 - in->dzeta;
    double fn1 = kn * zeta1, cap1 = mu * fn1; /* eq 1 and the limit of eq 2_3 at the end of the step */
    dem_vec3 du = in->du;
    out->beta0 = 0.0;
    out->betas = 1.0;
    out->sliding = 0;
    out->fresh = 0;
    if (in->fresh || !(zeta0 > 0.0)) {
        /* Fresh contact (eqs 7-8; lines 11-18): touching from beta0 on, the movement before it
         * does nothing. Both kt |du| beta and mu fn grow from zero in proportion, so the force
         * keeps the direction of du and the cap is exact; sliding, it does mu fn(beta) |du|. */
        out->fresh = 1;
        if (zeta0 < 0.0) out->beta0 = zeta0 / (zeta0 - zeta1);
        du = dem_v3_scale(du, 1.0 - out->beta0);
        dem_vec3 f = dem_v3_scale(du, kt);
        double f2 = dem_v3_norm2(f);
        if (f2 > cap1 * cap1) {
            double fm = sqrt(f2);
            f = dem_v3_scale(f, cap1 / fm);
            out->work = 0.5 * cap1 * fm / kt; /* 1/2 mu fn1 |du| */
            out->sliding = 1;
            out->betas = out->beta0;
        } else {
            out->work = 0.5 * f2 / kt;
        }
        out->f1 = f;
        return;
    }
    dem_vec3 f0 = in->f0, dft = dem_v3_scale(du, kt), ftrial = dem_v3_add(f0, dft);
    double du2 = dem_v3_norm2(du), f0du = dem_v3_dot(f0, du);
    if (!(dem_v3_norm2(ftrial) > cap1 * cap1)) { /* elastic (eqs 2; lines 13-18, 20) */
        out->f1 = ftrial;
        out->work = f0du + 0.5 * kt * du2; /* (|f1|^2 - |f0|^2) / (2 kt) */
        return;
    }
    out->sliding = 1;
    if (!(cap1 > 0.0)) { /* no friction: no force can be held, none does work */
        out->f1 = dem_v3_zero();
        out->work = 0.0;
        out->betas = 0.0;
        return;
    }
    double fn0 = kn * zeta0, dfn = fn1 - fn0, cap0 = mu * fn0, f02 = dem_v3_norm2(f0);
    if (f02 > cap0 * cap0) {
        /* A start beyond its own limit (the limit at the start is kn zeta0 from this step's
         * movement, which can differ from the last step's overlap by rounding; or a frame
         * written with other settings): brought radially onto it, the energy it releases is
         * dissipated (the books count it: the stored energy before is the old force's). */
        f0 = dem_v3_scale(f0, cap0 / sqrt(f02));
        f0du = dem_v3_dot(f0, du);
        f02 = cap0 * cap0;
    }
    /* Slip onset (eqs 9-14): |f0 + beta dft|^2 = mu^2 (fn0 + beta dfn)^2 */
    double a = kt * kt * du2 - mu * mu * dfn * dfn;
    double b = kt * f0du - mu * mu * fn0 * dfn;
    double c = f02 - cap0 * cap0;
    double bs = dem_kuhn_slip_onset(a, b, c);
    out->betas = bs;
    dem_vec3 fs = dem_v3_madd(f0, dft, bs);                 /* eq 15 */
    double fns = fn0 + bs * dfn, work = bs * f0du + 0.5 * kt * bs * bs * du2; /* elastic until the onset (line 28) */
    dem_vec3 dur = dem_v3_scale(du, 1.0 - bs);              /* the rest of the step slides (line 30) */
    double dfnr = (1.0 - bs) * dfn, dn = dem_v3_norm(dur), caps = mu * fns, fsm = dem_v3_norm(fs);
    dem_vec3 e1 = fsm > 0.0 ? dem_v3_scale(fs, 1.0 / fsm) : (dn > 0.0 ? dem_v3_scale(dur, 1.0 / dn) : dem_v3_zero());
    if (dn > 0.0 && caps > 0.0 && fsm > 0.0) {
        /* the force turns while it slides (eqs 16-19, vector form), and its work (§2.9) */
        dem_vec3 d = dem_v3_scale(dur, 1.0 / dn);
        double a0 = dem_v3_dot(e1, d);
        a0 = a0 > 1.0 ? 1.0 : a0 < -1.0 ? -1.0 : a0;
        double l = dem_kuhn_lambda(kt, dn, mu, fns, dfnr);
        work += slide_work(caps, kt, l, a0, dfnr / fns);
        e1 = dem_kuhn_turn(e1, d, l);
    }
    out->f1 = dem_v3_scale(e1, cap1); /* eqs 20-21 */
    out->work = work;
}

/* ---- the sub-model ---------------------------------------------------------------------------- */

static double stiffness(const dem_pair *p, int normal, double delta)
{
    (void)normal, (void)delta;
    return p->kt;
}

/* One touching contact: the normal part (dem_law_normal), then Fig. 1. */
static void kuhn_eval(const dem_law *law, const dem_pair *p, const dem_contact_in *c, dem_contact_rec *h,
                      dem_contact_out *o)
{
    dem_contact_kin k;
    double eta_n, sn, hdt = law->hdt, kt = p->kt;
    dem_law_normal(law, p, c, h, o, &k, &eta_n, &sn);
    double eta_t = law->damping->eta_t(p, law->st, eta_n, sn, kt);
    int touched = (h->flags & DEM_REC_TOUCH) != 0;
    dem_vec3 xi = touched ? dem_v3(h->xi[0], h->xi[1], h->xi[2]) : dem_v3_zero();
    /* the last step's force onto this step's plane (eq 22), turned with the pair's spin (eq 23) */
    dem_vec3 f0 = dem_v3_scale(dem_carry_in(law, c, k.nh, xi), -kt);
    dem_kuhn_in in;
    in.f0 = f0;
    in.fresh = !touched;
    in.zeta1 = c->delta;
    in.dzeta = -k.vn * hdt;           /* eq 6: -n . du, n the mid-step normal with vv-improved */
    in.du = dem_v3_scale(k.vt, -hdt); /* j relative to i: Kuhn's du^t (eq 6) */
    in.kn = p->kn;
    in.kt = kt;
    in.mu = p->mu;
    dem_kuhn_out out;
    dem_kuhn_step(&in, &out);
    dem_vec3 f1 = out.f1, vts = k.vt;
    if (c->half_normal) { /* onto the end-of-step plane (docs/models.md §1.5 step 6) */
        f1 = dem_carry_out(law, k.nh, c->n, f1, 0);
        vts = dem_carry_out(law, k.nh, c->n, vts, 1);
    }
    dem_vec3 xin = dem_v3_scale(f1, -1.0 / kt), ft = f1;
    int capped = 0;
    if (eta_t != 0.0) {
        /* the contact dashpot added (Fig. 1 line 50), the sum held to the friction limit: a
         * dashpot does not carry more than friction can (Cundall and Strack's cap, as the
         * history law's); the spring keeps Kuhn's force */
        ft = dem_v3_madd(f1, vts, -eta_t);
        double cap = p->mu * p->kn * c->delta, ft2 = dem_v3_norm2(ft);
        if (ft2 > cap * cap) {
            ft = dem_v3_scale(ft, cap / sqrt(ft2));
            capped = 1;
        }
    }
    o->ft = ft;
    h->xi[0] = xin.x;
    h->xi[1] = xin.y;
    h->xi[2] = xin.z;
    h->stt = kt;
    h->flags = DEM_REC_TOUCH | (out.sliding || capped ? DEM_REC_SLIDING : 0u) | (eta_t != 0.0 ? DEM_REC_ETA_T : 0u);
    /* the dissipation of the step (lines 52-53), with the stored energies the books count; none
     * for an elastic step */
    if (hdt != 0.0)
        h->lwork = out.sliding || out.fresh ? out.work - 0.5 * kt * (dem_v3_norm2(xin) - dem_v3_norm2(xi)) : 0.0;
}

static void eval_block(const dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                       dem_contact_rec *const *h, dem_contact_out *const *o)
{
    for (size_t m = 0; m < count; m++) kuhn_eval(law, &p[m], &c[m], h[m], o[m]);
}

/* The books: the law's dissipation of the step to friction (d[0]), the dashpot's over the step
 * by the trapezoid of its full-step powers (d[2], as the history law's); then prev[] as the next
 * step and dem_contact_forget read it. */
static void work(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup, double d[4])
{
    double pd = dem_v3_dot(dem_spring_dashpot_t(h, o), ut);
    if (!setup) {
        d[0] = h->lwork;
        d[2] = -0.5 * dt * (h->prev[DEM_PREV_PD] + pd);
    }
    h->prev[DEM_PREV_PT] = dem_v3_dot(o->ft, ut);
    h->prev[DEM_PREV_PD] = pd;
    h->prev[DEM_PREV_XI2] = dem_v3_norm2(dem_v3(h->xi[0], h->xi[1], h->xi[2]));
    h->prev[DEM_PREV_STT] = h->stt;
}

const dem_tangential_model dem_law_tangential_kuhn = {"kuhn", DEM_HISTORY_STRETCH, stiffness, eval_block, work};
