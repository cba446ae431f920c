/* test_kuhn.c - Kuhn's refined linear-frictional contact (lib/laws/tangential_kuhn.c; Kuhn et al. 2020,
 * docs/models.md §2) against hand-computed values and against an independent solution of the
 * elastic-plastic contact:
 *   - the fresh-contact fraction beta0 (eqs 7-8) and the slip onset beta_s (eqs 9-14, all three
 *     forms of the root) on cases worked by hand;
 *   - the force at the end of a step and the work done on the contact, against a bisection for
 *     the slip onset and an RK4 integration of the elastic-plastic rate equations (the plastic
 *     flow along the force, the magnitude on the friction circle) over random steps with a
 *     changing normal force: the direction to 1e-10, the work to 1e-9 of the movement's work;
 *   - the law as dem-step evaluates it (dem_contact_probe): a loaded contact moved across its
 *     force ends at the direction of the closed form whatever the number of steps the movement
 *     is cut into; the conventional add-and-project rule (the history law) does not, and only
 *     converges to the same direction as its steps shrink (Kuhn et al. 2020, Fig. 4). */
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "laws/tangential_kuhn.h"
#include "unit.h"

/* ---- an independent solution of the step ----------------------------------------------------- */

/* The step of dem_kuhn_step for a persisting contact, integrated: the onset by bisection on the
 * elastic path f0 + beta kt du (|f| against mu fn(beta)), then from the onset the rate equations
 * of a rigid-plastic slip along the force on the friction circle,
 *     df/dbeta = kt (du - (du.e) e) + mu dfn e,     e = f/|f|,
 * (the part across the force is elastic; the size follows mu fn), with dW/dbeta = f.du, by RK4
 * in n steps. Returns the force; *work the work done on the contact; *onset the onset. */
typedef struct {
    dem_vec3 f;
    double w;
} slide_state;

static slide_state slide_rate(slide_state s, dem_vec3 du, double kt, double mu, double dfn)
{
    dem_vec3 e = dem_v3_scale(s.f, 1.0 / dem_v3_norm(s.f));
    slide_state r;
    r.f = dem_v3_add(dem_v3_scale(dem_v3_madd(du, e, -dem_v3_dot(du, e)), kt), dem_v3_scale(e, mu * dfn));
    r.w = dem_v3_dot(s.f, du);
    return r;
}

static slide_state slide_axpy(slide_state s, slide_state r, double h)
{
    s.f = dem_v3_madd(s.f, r.f, h);
    s.w += h * r.w;
    return s;
}

static dem_vec3 reference_step(dem_vec3 f0, double fn0, double fn1, dem_vec3 du, double kt, double mu, int n,
                               double *work, double *onset)
{
    double dfn = fn1 - fn0;
    dem_vec3 dft = dem_v3_scale(du, kt);
    double lo = 0.0, hi = 1.0;
    if (dem_v3_norm(dem_v3_add(f0, dft)) <= mu * fn1) { /* elastic */
        *onset = 1.0;
        *work = dem_v3_dot(f0, du) + 0.5 * kt * dem_v3_norm2(du);
        return dem_v3_add(f0, dft);
    }
    /* the last beta at which the elastic path is inside the circle: g(beta) = |f| - mu fn */
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        double g = dem_v3_norm(dem_v3_madd(f0, dft, mid)) - mu * (fn0 + mid * dfn);
        if (g > 0.0) hi = mid;
        else lo = mid;
    }
    double bs = 0.5 * (lo + hi);
    *onset = bs;
    slide_state s = {dem_v3_madd(f0, dft, bs), bs * dem_v3_dot(f0, du) + 0.5 * kt * bs * bs * dem_v3_norm2(du)};
    double h = (1.0 - bs) / n;
    for (int k = 0; k < n; k++) {
        slide_state k1 = slide_rate(s, du, kt, mu, dfn);
        slide_state k2 = slide_rate(slide_axpy(s, k1, 0.5 * h), du, kt, mu, dfn);
        slide_state k3 = slide_rate(slide_axpy(s, k2, 0.5 * h), du, kt, mu, dfn);
        slide_state k4 = slide_rate(slide_axpy(s, k3, h), du, kt, mu, dfn);
        s.f = dem_v3_madd(s.f, dem_v3_add(dem_v3_add(k1.f, k4.f), dem_v3_scale(dem_v3_add(k2.f, k3.f), 2.0)), h / 6.0);
        s.w += h / 6.0 * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w);
    }
    *work = s.w;
    return s.f;
}

static double angle_between(dem_vec3 a, dem_vec3 b)
{
    return atan2(dem_v3_norm(dem_v3_cross(a, b)), dem_v3_dot(a, b));
}

static dem_kuhn_out kuhn(dem_vec3 f0, int fresh, double zeta0, double zeta1, dem_vec3 du, double kn, double kt, double mu)
{
    dem_kuhn_in in = {f0, fresh, zeta1, zeta1 - zeta0, du, kn, kt, mu};
    dem_kuhn_out out;
    dem_kuhn_step(&in, &out);
    return out;
}

static int close_rel(double a, double b, double tol) { return fabs(a - b) <= tol * fabs(b); }

/* ---- hand values ------------------------------------------------------------------------------ */

static void test_hand_values(void)
{
    const double kn = 1e5, kt = 1e5;
    dem_vec3 x = dem_v3(1, 0, 0), y = dem_v3(0, 1, 0);

    /* Fresh contact (eqs 7-8): apart by 1 um at the start, 3 um overlap at the end: touching for
     * the last 3/4 of the step. Of a 4 um movement 3 um count: kt 3 um = 0.3 N against the
     * cap 0.5 kn 3 um = 0.15 N: it slides from the first touch, the force 0.15 N along du and
     * the work 1/2 (mu fn1) |du| = 2.25e-7 J. With mu = 2 it sticks: 0.3 N, 0.3^2/(2 kt) J. */
    dem_kuhn_out o = kuhn(dem_v3_zero(), 1, -1e-6, 3e-6, dem_v3_scale(x, 4e-6), kn, kt, 0.5);
    CHECK_MSG(close_rel(o.beta0, 0.25, 1e-15) && o.sliding && o.fresh, "beta0 %.17g", o.beta0);
    CHECK_MSG(close_rel(o.f1.x, 0.15, 1e-14) && o.f1.y == 0.0 && close_rel(o.work, 2.25e-7, 1e-14), "fresh slide f %.17g W %.17g",
              o.f1.x, o.work);
    o = kuhn(dem_v3_zero(), 1, -1e-6, 3e-6, dem_v3_scale(x, 4e-6), kn, kt, 2.0);
    CHECK(close_rel(o.f1.x, 0.3, 1e-14) && !o.sliding && close_rel(o.work, 0.09 / (2 * kt), 1e-14));
    /* a contact that began exactly at the start, and one already touching, have beta0 = 0 */
    o = kuhn(dem_v3_zero(), 1, 0.0, 3e-6, dem_v3_scale(x, 1e-6), kn, kt, 2.0);
    CHECK(o.beta0 == 0.0 && close_rel(o.f1.x, 0.1, 1e-14));

    /* Slip onset with a constant normal force (fn = kn 1e-5 = 1 N, mu = 0.5: the limit 0.5 N):
     * 0.3 N plus an increment of 0.5 N along the force reaches 0.5 N at beta_s = 0.4; the
     * elastic work (0.5^2 - 0.3^2) / (2 kt) = 8e-7 J, then 0.5 N over the remaining 3 um:
     * 1.5e-6 J, all of it dissipated. */
    o = kuhn(dem_v3_scale(x, 0.3), 0, 1e-5, 1e-5, dem_v3_scale(x, 5e-6), kn, kt, 0.5);
    CHECK_MSG(close_rel(o.betas, 0.4, 1e-14) && o.sliding && !o.fresh, "beta_s %.17g", o.betas);
    CHECK_MSG(close_rel(o.f1.x, 0.5, 1e-14) && close_rel(o.work, 2.3e-6, 1e-13), "f %.17g W %.17g", o.f1.x, o.work);

    /* The normal force growing from 1 N to 1.1 N in the step: 0.3 + 0.5 beta = 0.5 (1 + 0.1
     * beta) at beta_s = 4/9; the force ends at mu fn1 = 0.55 N; the work: elastic to the onset,
     * then mu fn(beta) |du| along the movement. */
    o = kuhn(dem_v3_scale(x, 0.3), 0, 1e-5, 1.1e-5, dem_v3_scale(x, 5e-6), kn, kt, 0.5);
    double bs = 4.0 / 9.0, fs = 0.3 + 0.5 * bs, fns = 1.0 + 0.1 * bs;
    double w = (fs * fs - 0.09) / (2 * kt) + 0.5 * (1 - bs) * 5e-6 * 0.5 * (fns + 1.1);
    CHECK_MSG(close_rel(o.betas, bs, 1e-14), "beta_s %.17g, 4/9 = %.17g", o.betas, bs);
    CHECK_MSG(close_rel(o.f1.x, 0.55, 1e-14) && close_rel(o.work, w, 1e-12), "f %.17g W %.17g (%.17g)", o.f1.x, o.work, w);

    /* At the limit and moved back into the circle first (c = 0, b < 0): 0.5 N along x and an
     * increment (-0.4, 0.8) N: |f| = 0.5 N again at beta_s = -2b/a = 0.5 (eq 13's "+" root, not
     * its other root 0). */
    o = kuhn(dem_v3_scale(x, 0.5), 0, 1e-5, 1e-5, dem_v3(-4e-6, 8e-6, 0), kn, kt, 0.5);
    CHECK_MSG(close_rel(o.betas, 0.5, 1e-14), "beta_s %.17g", o.betas);

    /* Sliding across the force (a0 = 0), constant fn, kt |du| = mu fn: Lambda = 1 and the force
     * turns by gd(1) = 2 atan(tanh 1/2) (eq 19: sin theta1 = -tanh 1), i.e. ends at
     * mu fn (tanh 1, sech 1); its work (mu fn)^2 / kt ln cosh 1 (docs/models.md §2.9). */
    o = kuhn(dem_v3_scale(y, 0.5), 0, 1e-5, 1e-5, dem_v3_scale(x, 5e-6), kn, kt, 0.5);
    CHECK_MSG(o.betas == 0.0 && close_rel(o.f1.x, 0.5 * tanh(1.0), 1e-14) && close_rel(o.f1.y, 0.5 / cosh(1.0), 1e-14),
              "f (%.17g, %.17g)", o.f1.x, o.f1.y);
    CHECK(close_rel(angle_between(y, o.f1), 2.0 * atan(tanh(0.5)), 1e-14));
    CHECK_MSG(close_rel(o.work, 0.25 / kt * log(cosh(1.0)), 1e-14), "W %.17g", o.work);

    /* The root itself: eq 14 when a = 0 (-c / 2b), eq 13 otherwise, both roots of a contact at
     * the limit (c = 0), and the clamp to [0, 1]. */
    CHECK(close_rel(dem_kuhn_slip_onset(0.0, 0.5, -0.2), 0.2, 1e-15));
    CHECK(close_rel(dem_kuhn_slip_onset(1.0, -0.25, -0.25), 0.25 + sqrt(0.0625 + 0.25), 1e-15));
    CHECK(dem_kuhn_slip_onset(0.8, 0.3, 0.0) == 0.0 && close_rel(dem_kuhn_slip_onset(0.8, -0.2, 0.0), 0.5, 1e-15));

    /* the logarithmic mean of eq 18: (fn1 - fn0) / ln(fn1 / fn0) */
    CHECK(close_rel(dem_kuhn_lambda(2.0, 3.0, 0.5, 1.0, 1.0), 2.0 * 3.0 / (0.5 * (1.0 / log(2.0))), 1e-15));
    CHECK(close_rel(dem_kuhn_lambda(2.0, 3.0, 0.5, 1.0, 1e-9), 12.0 * (1.0 - 0.5e-9), 1e-15));

    /* No friction: no force, no work; the movement of a step with no movement changes nothing */
    o = kuhn(dem_v3_scale(x, 0.3), 0, 1e-5, 1e-5, dem_v3_scale(y, 1e-6), kn, kt, 0.0);
    CHECK(dem_v3_is_zero(o.f1) && o.work == 0.0 && o.sliding);
    o = kuhn(dem_v3_scale(x, 0.3), 0, 1e-5, 1e-5, dem_v3_zero(), kn, kt, 0.5);
    CHECK(o.f1.x == 0.3 && o.work == 0.0 && !o.sliding);
    printf("  hand values: beta0 1/4, beta_s 0.4, 4/9 and 0.5, the turn by gd(1) and its work\n");
}

/* ---- against the elastic-plastic rate equations ------------------------------------------------ */

static double urand(dem_rng *r) { return dem_rng_uniform(r); }

static void test_against_rk4(void)
{
    const double kn = 1e6, kt = 8e5;
    dem_rng seed;
    dem_rng_seed(&seed, 12345);
    /* worst errors: direction, onset, work at a constant normal force, work with a changing one
     * for movements of up to 1 and up to 4 yield lengths */
    double worst_dir = 0.0, worst_onset = 0.0, worst_const = 0.0, worst_step = 0.0, worst_small = 0.0, worst_large = 0.0;
    int slid = 0, cases = 800;
    for (int k = 0; k < cases; k++) {
        double mu = 0.1 + 0.8 * urand(&seed);
        double zeta0 = 1e-6 * (0.5 + urand(&seed));
        /* every fourth case at a constant normal force (the exact work); the others change it
         * by -40% .. +60% in the step, every fifth by at most 1% (the steps of a DEM run) */
        int dem = k % 5 == 1;
        double zeta1 = k % 4 == 0 ? zeta0 : zeta0 * (dem ? 0.99 + 0.02 * urand(&seed) : 0.6 + urand(&seed));
        double fn0 = kn * zeta0, fn1 = kn * zeta1;
        /* a start inside or on the circle, in any direction in the xy plane */
        double ang = 2 * M_PI * urand(&seed), mag = mu * fn0 * (k % 3 == 0 ? 1.0 : urand(&seed));
        dem_vec3 f0 = dem_v3(mag * cos(ang), mag * sin(ang), 0.0);
        /* a movement of up to 1 or up to 4 yield lengths mu fn0 / kt (0.05 in a DEM step) */
        double yl = (dem ? 0.05 : k % 2 ? 4.0 : 1.0) * urand(&seed), dang = 2 * M_PI * urand(&seed), dmag = yl * mu * fn0 / kt;
        dem_vec3 du = dem_v3(dmag * cos(dang), dmag * sin(dang), 0.0);
        dem_kuhn_out o = kuhn(f0, 0, zeta0, zeta1, du, kn, kt, mu);
        double wref, onset;
        dem_vec3 fref = reference_step(f0, fn0, fn1, du, kt, mu, 4000, &wref, &onset);
        if (!o.sliding) {
            CHECK(onset == 1.0 && dem_v3_norm(dem_v3_sub(o.f1, fref)) <= 1e-14 * mu * fn1);
            continue;
        }
        slid++;
        double dir = angle_between(o.f1, fref);
        double dw = fabs(o.work - wref) / (mu * fn0 * dmag); /* of the movement's work at the start's limit */
        double *worst = zeta1 == zeta0 ? &worst_const : dem ? &worst_step : yl <= 1.0 ? &worst_small : &worst_large;
        double tol = zeta1 == zeta0 || dem ? 1e-12 : yl <= 1.0 ? 1e-9 : 1e-6;
        if (dir > worst_dir) worst_dir = dir;
        if (fabs(o.betas - onset) > worst_onset) worst_onset = fabs(o.betas - onset);
        if (dw > *worst) *worst = dw;
        CHECK_MSG(dir < 1e-10 && fabs(dem_v3_norm(o.f1) - mu * fn1) <= 1e-14 * mu * fn1, "case %d: direction off by %g rad", k,
                  dir);
        CHECK_MSG(fabs(o.betas - onset) < 1e-11, "case %d: onset %.17g, bisection %.17g", k, o.betas, onset);
        CHECK_MSG(dw < tol, "case %d: work %.17g, RK4 %.17g (%.1f yield lengths, fn %g -> %g)", k, o.work, wref, yl, fn0, fn1);
    }
    CHECK(slid > cases / 3);
    printf("  %d sliding steps of %d against bisection and RK4: direction %.1e rad, onset %.1e; work, of mu fn |du|: "
           "%.1e at constant fn, %.1e for DEM-sized steps (0.05 yield lengths, fn within 1%%), %.1e (up to 1 yield length) "
           "and %.1e (up to 4) with fn changing by up to 60%%\n",
           slid, cases, worst_dir, worst_onset, worst_const, worst_step, worst_small, worst_large);
}

/* ---- the law as dem-step evaluates it: Kuhn et al. 2020, Fig. 4 ----------------------------------------- */

/* A contact loaded to its friction limit along y (normal x, hooke), then moved along z by
 * `move` yield lengths mu fn / kt in `steps` equal steps of dt, with the normal force held: the
 * sphere i spins about y, which moves its contact point along z and nothing else. Returns the
 * angle the force turned. */
static double fig4_angle(const char *law, int integrator, double move, int steps)
{
    dem_settings st;
    dem_settings_default(&st);
    st.integrator = integrator;
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1e5;
    st.kt = 8e4;
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, law);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    dem_material m = dem_material_default();
    m.friction = 0.5;
    double r = 1e-3, delta = 1e-6, dt = 1e-6, fn = st.kn * delta, l = r - 0.5 * delta;
    dem_probe_state ps;
    memset(&ps, 0, sizeof ps);
    ps.xi = dem_v3(r - 0.5 * delta, 0, 0);
    ps.xj = dem_v3(-(r - 0.5 * delta), 0, 0);
    ps.ri = ps.rj = r;
    double inertia;
    dem_sphere_mass(r, m.density, &ps.mi, &inertia);
    ps.mj = ps.mi;
    /* the contact point of i (at -l x from its centre) moves at l w (y x -x) = l w z */
    double total = move * m.friction * fn / st.kt;
    ps.wi = dem_v3(0, total / (steps * l * dt), 0);
    double hist[3] = {0, -m.friction * fn / st.kt, 0}; /* xi = -f / kt: the force 0.5 N along +y */
    int sliding;
    dem_vec3 fnv, ft = dem_v3_zero();
    for (int k = 0; k < steps; k++) dem_contact_probe(&st, &m, &m, dt, &ps, hist, &sliding, &fnv, &ft);
    return atan2(-ft.z, ft.y); /* du = -v_t dt points along -z */
}

static void test_fig4(void)
{
    double worst = 0.0;
    for (int integ = 0; integ < 2; integ++)
        for (int k = 1; k <= 12; k++) {
            double move = 0.25 * k, exact = 2.0 * atan(tanh(0.5 * move)); /* gd(move) */
            double a1 = fig4_angle("kuhn", integ, move, 1), a7 = fig4_angle("kuhn", integ, move, 7);
            double err = fmax(fabs(a1 - exact), fabs(a7 - exact));
            if (err > worst) worst = err;
            CHECK_MSG(err < 1e-10, "movement %g: kuhn %.17g (1 step), %.17g (7 steps), gd %.17g", move, a1, a7, exact);
        }
    /* the conventional rule: atan(move) in one step; in n steps it approaches gd(move) only as
     * 1/n (its error is the turning within each step it ignores) */
    double conv1 = fig4_angle("history", 1, 1.0, 1), gd1 = 2.0 * atan(tanh(0.5));
    double e10 = fabs(fig4_angle("history", 1, 1.0, 10) - gd1), e100 = fabs(fig4_angle("history", 1, 1.0, 100) - gd1);
    CHECK_MSG(close_rel(conv1, atan(1.0), 1e-12), "conventional one step %.17g", conv1);
    CHECK_MSG(e10 > 1e-3 && e100 < e10 / 8 && e100 > e10 / 12, "conventional in 10 and 100 steps: off by %g and %g", e10, e100);
    printf("  Kuhn et al. 2020, Fig. 4 through dem_contact_probe: kuhn within %.1e rad of gd(movement) in 1 and 7 steps; "
           "conventional at movement 1: %.4f rad in 1 step (gd 1 = %.4f), off by %.1e in 10 steps, %.1e in 100\n",
           worst, conv1, gd1, e10, e100);
}

int main(void)
{
    test_hand_values();
    test_against_rk4();
    test_fig4();
    UNIT_DONE();
}
