/* test_adhesion.c - the adhesive normal laws (lib/laws/normal_dmt.c, normal_jkr.c) against
 * their closed forms, independently of the simulator: JKR's contact radius solves
 * delta = a^2/R* - sqrt(2 pi gamma a / E*) on the stable branch; the force is
 * 4 E* a^3 / (3 R*) - sqrt(8 pi gamma E* a^3); the energy is a potential (U' = F, checked by
 * central differences); the neck ends where d delta / d a = 0; the special points of Johnson,
 * Kendall & Roberts (1971): F = 0 at a0^3 = 9 pi gamma R*^2 / (2 E*), the largest tension
 * -3/2 pi gamma R* at a^3 = a0^3 / 4, F = -4/3 pi gamma R* at delta = 0, U there
 * -3/5 pi gamma a_z^2, U at the neck's end 2/5 pi gamma a_c^2 (so W_s = 7.09 (gamma^5 R*^4 /
 * E*^2)^(1/3), Thornton & Ning 1998); DMT: Hertz minus 2 pi gamma R*, its U' = F. */
#include <math.h>

#include "dem.h"
#include "laws/laws.h"
#include "unit.h"

static int close_rel(double a, double b, double tol) { return fabs(a - b) <= tol * fabs(b); }

int main(void)
{
    dem_settings st;
    dem_settings_default(&st);
    dem_material m = dem_material_default();
    m.young = 1e7;
    m.poisson = 0.25;
    m.surface_energy = 0.7;
    dem_pair p;
    dem_pair_init(&p, &st, 1e-3, 1e-5, &m, 2e-3, 8e-5, &m);
    double r = p.rstar, es = p.estar, g = p.gamma;
    CHECK(close_rel(r, 2e-3 / 3.0, 1e-15));
    CHECK(close_rel(es, 1e7 / (2.0 * (1.0 - 0.0625)), 1e-15));
    CHECK(close_rel(g, 0.7, 1e-15)); /* sqrt(g g) for equal materials */
    dem_material m2 = m;
    m2.surface_energy = 0.2;
    dem_pair q;
    dem_pair_init(&q, &st, 1e-3, 1e-5, &m, 0.0, 0.0, &m2); /* a wall: R* = r, gamma = sqrt(0.7 0.2) */
    CHECK(close_rel(q.gamma, sqrt(0.14), 1e-15) && q.rstar == 1e-3);

    const dem_normal_model *jkr = dem_normal_models[dem_model_find(DEM_MODEL_NORMAL, "jkr")];
    const dem_normal_model *dmt = dem_normal_models[dem_model_find(DEM_MODEL_NORMAL, "dmt")];
    CHECK(jkr == &dem_law_jkr && dmt == &dem_law_dmt && jkr->neck && !dmt->neck);
    CHECK(jkr->pulloff == 1.5 && dmt->pulloff == 2.0);

    /* the radius solves the JKR relation at overlaps from deep compression into the neck */
    double ac = cbrt(M_PI * g * r * r / (8.0 * es)), dc = -3.0 * ac * ac / r;
    CHECK(close_rel(jkr->neck(&p), dc, 1e-13));
    for (int k = 0; k <= 200; k++) {
        double delta = dc * 0.999 + (50e-6 - dc * 0.999) * k / 200.0;
        double a = dem_jkr_radius(&p, delta);
        double back = a * a / r - sqrt(2.0 * M_PI * g * a / es);
        CHECK_MSG(fabs(back - delta) <= 1e-12 * (fabs(delta) + fabs(dc)), "delta %g: a %g gives %g", delta, a, back);
        CHECK(a >= ac); /* the stable branch */
        double f = jkr->force(&p, delta);
        CHECK(close_rel(f, 4.0 * es * a * a * a / (3.0 * r) - sqrt(8.0 * M_PI * g * es * a * a * a), 1e-12) ||
              fabs(f) < 1e-12 * 1.5 * M_PI * g * r);
        /* U' = F: a central difference of the energy (away from the square-root end at delta_c) */
        double h = 1e-4 * fabs(dc), du = (jkr->energy(&p, delta + h) - jkr->energy(&p, delta - h)) / (2.0 * h);
        if (delta - dc > 0.01 * fabs(dc)) CHECK_MSG(fabs(du - f) <= 1e-5 * 1.5 * M_PI * g * r, "delta %g: U' %g, F %g", delta, du, f);
    }
    /* special points */
    double a0 = cbrt(4.5 * M_PI * g * r * r / es), az = cbrt(2.0 * M_PI * g * r * r / es);
    double d0 = a0 * a0 / r - sqrt(2.0 * M_PI * g * a0 / es);
    CHECK(fabs(jkr->force(&p, d0)) <= 1e-10 * 1.5 * M_PI * g * r);
    double am = a0 / cbrt(4.0), dm = am * am / r - sqrt(2.0 * M_PI * g * am / es);
    CHECK(close_rel(jkr->force(&p, dm), -1.5 * M_PI * g * r, 1e-10));
    CHECK(close_rel(jkr->force(&p, 0.0), -4.0 / 3.0 * M_PI * g * r, 1e-12));
    CHECK(close_rel(jkr->energy(&p, 0.0), -0.6 * M_PI * g * az * az, 1e-12));
    CHECK(close_rel(jkr->energy(&p, dc), 0.4 * M_PI * g * ac * ac, 1e-6));
    double ws = jkr->energy(&p, dc) - jkr->energy(&p, 0.0);
    CHECK(close_rel(ws, 7.0922 * cbrt(pow(g, 5) * pow(r, 4) / (es * es)), 1e-4));
    CHECK(close_rel(jkr->force(&p, dc), -5.0 / 6.0 * M_PI * g * r, 1e-6));
    /* without adhesion JKR is Hertz */
    dem_material dry = m;
    dry.surface_energy = 0.0;
    dem_pair pd;
    dem_pair_init(&pd, &st, 1e-3, 1e-5, &dry, 2e-3, 8e-5, &dry);
    CHECK(close_rel(jkr->force(&pd, 3e-6), dem_law_hertz.force(&pd, 3e-6), 1e-12));

    /* DMT: Hertz minus the pull-off; U' = F; continuous energy at 0 */
    for (int k = 1; k <= 50; k++) {
        double delta = 1e-6 * k;
        CHECK(close_rel(dmt->force(&p, delta), dem_law_hertz.force(&p, delta) - 2.0 * M_PI * g * r, 1e-12));
        double h = 1e-9, du = (dmt->energy(&p, delta + h) - dmt->energy(&p, delta - h)) / (2.0 * h);
        CHECK(fabs(du - dmt->force(&p, delta)) <= 1e-6 * 2.0 * M_PI * g * r);
    }
    CHECK(dmt->energy(&p, 0.0) == 0.0);
    UNIT_DONE();
}
