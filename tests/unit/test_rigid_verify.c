/* test_rigid_verify.c - lib/core/rigid.c against analytic solutions (docs/verification.md "Rigid
 * clumps" has the numbers side by side; `build/tests/test_rigid_verify -v` prints them):
 *   - the union of two overlapping equal spheres: volume and moments in closed form (docs/models.md
 *     "Rigid clumps") against the grid at 20, 40, 80, 160 cells, and a rod of ten against a fine grid;
 *   - a free asymmetric body stepped kick-drift-kick with zero torque, the angular velocity stored
 *     between steps as a clump's stream does: |L| to rounding, the energy error's order in dt, and
 *     the intermediate-axis (Dzhanibekov) flip period against 4 K(k) / lambda (Landau and Lifshitz,
 *     Mechanics, §37), K by the arithmetic-geometric mean;
 *   - torque-free precession of symmetric bodies (prolate and oblate) against Omega_p = |L| / I_perp.
 * The Fincham leapfrog of Šmilauer and Chareyre 2015, §1.5.3 is stepped beside ours in -v mode as
 * the reference the splitting replaces. */
#include <math.h>
#include <stdlib.h>

#include "core/rigid.h"
#include "unit.h"

static int verbose;

/* ---- two overlapping equal spheres --------------------------------------------------------- */

/* The union of two spheres of radius R whose centres lie at x = -a and x = +a (0 <= a <= R), unit
 * density: each half (x >= 0 for the sphere at +a) is the sphere less the cap beyond the mid-plane.
 * With u = x - a along the axis, the disc of radius^2 R^2 - u^2 integrated over u in [-a, R]. */
typedef struct {
    double volume, axial, transverse;
} lens_union;

static lens_union two_spheres(double R, double a)
{
    double R2 = R * R, R3 = R2 * R, R4 = R3 * R, R5 = R4 * R, a2 = a * a, a3 = a2 * a, a5 = a3 * a2;
    lens_union u;
    u.volume = 2.0 * M_PI * (2.0 * R3 / 3.0 + R2 * a - a3 / 3.0);
    u.axial = M_PI * (8.0 * R5 / 15.0 + R4 * a - 2.0 * R2 * a3 / 3.0 + a5 / 5.0);
    /* int x^2 dV over one half */
    double x2 = M_PI * (2.0 * R5 / 15.0 + a * R4 / 2.0 + 2.0 * a2 * R3 / 3.0 + a3 * R2 / 3.0 - a5 / 30.0);
    u.transverse = 2.0 * x2 + 0.5 * u.axial;
    return u;
}

static void test_two_spheres(void)
{
    /* the limits: a = R is two spheres touching, a = 0 one sphere */
    lens_union t = two_spheres(1.0, 1.0), o = two_spheres(1.0, 0.0);
    double v1 = 4.0 / 3.0 * M_PI, i1 = 0.4 * v1;
    CHECK(fabs(t.volume - 2 * v1) < 1e-14 && fabs(t.axial - 2 * i1) < 1e-14 && fabs(t.transverse - 2 * (i1 + v1)) < 1e-13);
    CHECK(fabs(o.volume - v1) < 1e-14 && fabs(o.axial - i1) < 1e-14 && fabs(o.transverse - i1) < 1e-14);

    static const unsigned grids[] = {20, 40, 80, 160};
    static const double spacing[] = {1.0, 1.5}; /* centre distance / R: the dimer of the packing, a wider one */
    if (verbose) printf("# d/R\tgrid\tvolume_err\tI_axial_err\tI_trans_err\testimate\n");
    for (int s = 0; s < 2; s++) {
        double R = 0.01, a = 0.5 * spacing[s] * R, rho = 2500.0;
        lens_union u = two_spheres(R, a);
        /* turned off the grid's axes, so that no symmetry helps the grid */
        double c = cos(0.3), sn = sin(0.3);
        dem_rigid_member m[2] = {{{-a * c, -a * sn, 0.1 * R}, R}, {{a * c, a * sn, 0.1 * R}, R}};
        for (int g = 0; g < 4; g++) {
            dem_rigid_props p;
            dem_error err;
            CHECK(dem_rigid_props_of(m, 2, rho, grids[g], &p, &err) == DEM_OK);
            double ev = fabs(p.volume - u.volume) / u.volume, ea = fabs(p.inertia.x - rho * u.axial) / (rho * u.axial);
            double et = fmax(fabs(p.inertia.y - rho * u.transverse), fabs(p.inertia.z - rho * u.transverse)) / (rho * u.transverse);
            if (verbose) printf("%g\t%u\t%.2e\t%.2e\t%.2e\t%.2e\n", spacing[s], grids[g], ev, ea, et, p.inertia_err);
            /* the error is at most 3 times the estimate (it was below it in every case measured); the
             * error shrinks with the grid */
            CHECK_MSG(fmax(ea, et) <= 3.0 * p.inertia_err, "d/R %g grid %u: error %.2e, estimate %.2e", spacing[s], grids[g],
                      fmax(ea, et), p.inertia_err);
            double bound = grids[g] >= 160 ? 5e-4 : grids[g] >= 80 ? 2e-3 : grids[g] >= 40 ? 1e-2 : 5e-2;
            CHECK_MSG(ev < bound && ea < bound && et < bound, "d/R %g grid %u: errors %.2e %.2e %.2e", spacing[s], grids[g], ev, ea, et);
            /* the symmetry axis found: the body x axis along the template's centre line */
            dem_vec3 ax = dem_rigid_rotate(p.q, dem_v3(1, 0, 0));
            CHECK(fabs(fabs(ax.x * c + ax.y * sn) - 1.0) < 1e-3);
        }
    }
}

/* A rod of 10 overlapping spheres (spacing R): the grid counts its cells across the rod, so it is
 * resolved as the dimer is; against the grid 640 as the reference. */
static void test_rod(void)
{
    dem_rigid_member m[10];
    for (int k = 0; k < 10; k++) m[k] = (dem_rigid_member){dem_v3(0.0, 0.0, 0.01 * k), 0.01};
    dem_rigid_props p, ref;
    dem_error err;
    CHECK(dem_rigid_props_of(m, 10, 2500.0, 640, &ref, &err) == DEM_OK);
    CHECK(dem_rigid_props_of(m, 10, 2500.0, 80, &p, &err) == DEM_OK);
    double e = 0.0;
    for (int i = 0; i < 3; i++) e = fmax(e, fabs(dem_v3_get(p.inertia, i) / dem_v3_get(ref.inertia, i) - 1.0));
    CHECK_MSG(e < 2e-3 && e <= 3.0 * p.inertia_err, "rod of 10 at grid 80: error %.2e, estimate %.2e", e, p.inertia_err);
    if (verbose) printf("# rod of 10 spheres (spacing R), grid 80 against grid 640: moments within %.2e, estimate %.2e\n", e, p.inertia_err);
}

/* ---- free rotation ------------------------------------------------------------------------- */

/* One kick-drift-kick step with the torque T, the state (q, w) as a clump stores it: L from w at the
 * step's start, w from L at its end. */
static void kdk(dem_quat *q, dem_vec3 *w, dem_vec3 I, dem_vec3 T, double h)
{
    dem_vec3 L = dem_rigid_momentum(*q, I, *w);
    L = dem_v3_madd(L, T, 0.5 * h);
    dem_rigid_drift(q, I, L, h);
    L = dem_v3_madd(L, T, 0.5 * h);
    *w = dem_rigid_omega(*q, I, L);
}

/* The Fincham leapfrog as Šmilauer and Chareyre 2015, §1.5.3 prints it, torque-free: the body
 * angular velocity from the frame of q at the step's start, a half step of q, the full step with
 * q' at the half step. Here only to show, in -v mode, what the splitting replaces. */
static dem_quat half_qdot(dem_quat q, dem_vec3 wb)
{
    dem_quat o = {0.0, wb.x, wb.y, wb.z}, r = dem_quat_mul(q, o);
    return (dem_quat){0.5 * r.w, 0.5 * r.x, 0.5 * r.y, 0.5 * r.z};
}

static void fincham_drift(dem_quat *q, dem_vec3 I, dem_vec3 L, double h)
{
    dem_vec3 lb = dem_rigid_unrotate(*q, L), wb = dem_v3(lb.x / I.x, lb.y / I.y, lb.z / I.z);
    dem_quat d = half_qdot(*q, wb);
    dem_quat qh = {q->w + 0.5 * h * d.w, q->x + 0.5 * h * d.x, q->y + 0.5 * h * d.y, q->z + 0.5 * h * d.z};
    dem_quat d2 = half_qdot(qh, wb);
    dem_quat n = {q->w + h * d2.w, q->x + h * d2.x, q->y + h * d2.y, q->z + h * d2.z};
    double nn = dem_quat_norm(n);
    *q = (dem_quat){n.w / nn, n.x / nn, n.y / nn, n.z / nn};
}

/* The largest relative energy error over a time span with step h, from body angular velocity wb0. */
static double energy_error(dem_vec3 I, dem_vec3 wb0, double span, double h, int fincham)
{
    dem_quat q = dem_quat_identity();
    dem_vec3 w = wb0, L = dem_rigid_momentum(q, I, w);
    double e0 = dem_rigid_kinetic(q, I, L), worst = 0.0;
    long n = lround(span / h);
    for (long k = 0; k < n; k++) {
        if (fincham) fincham_drift(&q, I, L, h);
        else kdk(&q, &w, I, dem_v3_zero(), h), L = dem_rigid_momentum(q, I, w);
        worst = fmax(worst, fabs(dem_rigid_kinetic(q, I, L) - e0) / e0);
    }
    return worst;
}

/* K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) */
static double complete_k(double k2)
{
    double a = 1.0, b = sqrt(1.0 - k2);
    for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return M_PI / (2.0 * a);
}

/* The period of the body angular velocity of a free body with I1 < I2 < I3, |L|^2 = M2 and
 * 2E = E2 (Landau and Lifshitz, Mechanics, §37): 4 K(k) / lambda, the roles of axes 1 and 3
 * exchanged when M2 < E2 I2. */
static double euler_period(dem_vec3 I, double M2, double E2)
{
    double I1 = I.x, I2 = I.y, I3 = I.z;
    if (M2 < E2 * I2) I1 = I.z, I3 = I.x;
    double lambda = sqrt((I3 - I2) * (M2 - E2 * I1) / (I1 * I2 * I3));
    double k2 = (I2 - I1) * (E2 * I3 - M2) / ((I3 - I2) * (M2 - E2 * I1));
    return 4.0 * complete_k(k2) / lambda;
}

static void test_free_asymmetric(void)
{
    /* a body of three unequal moments (kg m^2) spun close to its intermediate axis */
    dem_vec3 I = dem_v3(1.0, 2.0, 3.0), wb0 = dem_v3(0.01, 2.0, 0.01);
    dem_quat q = {cos(0.3), sin(0.3) * 0.6, 0.0, sin(0.3) * 0.8}; /* a tilted start: the frames differ */
    dem_vec3 w = dem_rigid_rotate(q, wb0), L0 = dem_rigid_momentum(q, I, w);
    double M2 = dem_v3_norm2(L0), E2 = 2.0 * dem_rigid_kinetic(q, I, L0);
    double period = euler_period(I, M2, E2), h = 1e-3;
    long steps = lround(3.2 * period / h);
    double cross[8], prev = dem_rigid_unrotate(q, w).y, dl = 0.0;
    int nc = 0;
    for (long k = 1; k <= steps; k++) {
        kdk(&q, &w, I, dem_v3_zero(), h);
        dem_vec3 L = dem_rigid_momentum(q, I, w);
        dl = fmax(dl, dem_v3_norm(dem_v3_sub(L, L0)) / sqrt(M2));
        double w2 = dem_rigid_unrotate(q, w).y; /* flips sign at each Dzhanibekov turn-over */
        if ((w2 < 0.0) != (prev < 0.0) && nc < 8) cross[nc++] = h * ((double)(k - 1) + prev / (prev - w2));
        prev = w2;
    }
    CHECK_MSG(dl < 2e-16 * (double)steps, "L drifted by %.2e of |L| over %ld steps", dl, steps);
    CHECK_MSG(nc >= 5, "%d flips in %.3g s", nc, steps * h);
    /* a whole number of periods (two sign changes each) ending at the last sign change */
    int first = (nc - 1) % 2, periods = (nc - 1 - first) / 2;
    double measured = nc >= 5 ? (cross[nc - 1] - cross[first]) / periods : 0.0;
    double rel = fabs(measured - period) / period;
    CHECK_MSG(rel < 0.01, "flip period %.6g s, analytic %.6g s", measured, period);
    CHECK_MSG(rel < 1e-4, "flip period %.6g s, analytic %.6g s: %.2e", measured, period, rel);
    if (verbose)
        printf("# Dzhanibekov: I = (1, 2, 3) kg m^2, w0 = (0.01, 2, 0.01) rad/s, dt = %g s: period %.6f s, analytic "
               "4K(k)/lambda = %.6f s, relative error %.2e; |L - L0| / |L| at most %.2e over %ld steps\n",
               h, measured, period, rel, dl, steps);

    /* the energy error and its order: halving dt divides it by 4 (second order); bounded in time */
    dem_vec3 wt = dem_v3(0.6, 0.9, 0.7);
    double e1 = energy_error(I, wt, 20.0, 0.02, 0), e2 = energy_error(I, wt, 20.0, 0.01, 0), e3 = energy_error(I, wt, 20.0, 0.005, 0);
    CHECK_MSG(fabs(e1 / e2 - 4.0) < 0.2 && fabs(e2 / e3 - 4.0) < 0.2, "energy errors %.3e %.3e %.3e", e1, e2, e3);
    double elong = energy_error(I, wt, 400.0, 0.02, 0);
    CHECK_MSG(elong < 1.05 * e1, "energy error over 400 s %.3e, over 20 s %.3e: a drift", elong, e1);
    if (verbose) {
        printf("# energy error max|E - E0|/E0 over 20 s, w0 = (0.6, 0.9, 0.7) rad/s\n# dt\tsplitting\tFincham (§1.5.3)\n");
        double hs[3] = {0.02, 0.01, 0.005}, es[3] = {e1, e2, e3};
        for (int i = 0; i < 3; i++) printf("%g\t%.3e\t%.3e\n", hs[i], es[i], energy_error(I, wt, 20.0, hs[i], 1));
        printf("# over 400 s at dt = 0.02 s: splitting %.3e, Fincham %.3e\n", elong, energy_error(I, wt, 400.0, 0.02, 1));
    }
}

/* Torque-free precession of a body with two equal moments I_perp about the third (symmetry) axis:
 * the symmetry axis turns about L at the constant rate Omega_p = |L| / I_perp (Landau and Lifshitz,
 * Mechanics, §33), keeping its angle to L. */
static void precession(dem_vec3 I, int sym, double i_perp, dem_vec3 wb0, const char *name)
{
    dem_quat q = {cos(0.2), 0.0, sin(0.2), 0.0};
    dem_vec3 w = dem_rigid_rotate(q, wb0), L = dem_rigid_momentum(q, I, w), n = dem_v3_scale(L, 1.0 / dem_v3_norm(L));
    dem_vec3 e = dem_v3(sym == 0, sym == 1, sym == 2);
    dem_vec3 u = dem_rigid_rotate(q, e);
    u = dem_v3_madd(u, n, -dem_v3_dot(u, n));
    u = dem_v3_scale(u, 1.0 / dem_v3_norm(u));
    dem_vec3 v = dem_v3_cross(n, u);
    double rate = dem_v3_norm(L) / i_perp, h = 1e-3, span = 3.0 * 2.0 * M_PI / rate, phi = 0.0, prev = 0.0;
    double cos0 = dem_v3_dot(dem_rigid_rotate(q, e), n), dcos = 0.0;
    long steps = lround(span / h);
    for (long k = 0; k < steps; k++) {
        kdk(&q, &w, I, dem_v3_zero(), h);
        dem_vec3 s = dem_rigid_rotate(q, e);
        double a = atan2(dem_v3_dot(s, v), dem_v3_dot(s, u)), d = a - prev;
        phi += d - 2.0 * M_PI * round(d / (2.0 * M_PI)); /* unwrapped */
        prev = a;
        dcos = fmax(dcos, fabs(dem_v3_dot(s, n) - cos0));
    }
    double measured = phi / (steps * h), rel = fabs(measured - rate) / rate;
    CHECK_MSG(rel < 1e-5, "%s: precession %.9g rad/s, |L|/I_perp %.9g rad/s", name, measured, rate);
    CHECK_MSG(dcos < 1e-6, "%s: the angle to L changed by %.2e in cosine", name, dcos);
    if (verbose)
        printf("# precession, %s body I = (%g, %g, %g) kg m^2, dt = %g s: %.9f rad/s, |L|/I_perp = %.9f rad/s, relative "
               "error %.2e; cos(angle to L) kept to %.1e\n",
               name, I.x, I.y, I.z, h, measured, rate, rel, dcos);
}

int main(int argc, char **argv)
{
    verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    test_two_spheres();
    test_rod();
    test_free_asymmetric();
    precession(dem_v3(0.4, 1.3, 1.3), 0, 1.3, dem_v3(3.0, 0.5, -0.4), "prolate (dimer-like)");
    precession(dem_v3(2.0, 2.0, 3.5), 2, 2.0, dem_v3(0.5, -0.3, 1.5), "oblate");
    UNIT_DONE();
}
