/* test_incremental.c - the incremental tangential law (lib/laws/tangential_incremental.c,
 * `--tangential incremental`) against Mindlin's stiffness and against the total (history) form:
 * a contact driven kinematically (dem_contact_probe) is sheared, unloaded and sheared back, and
 * the force is compared with the sums of H_s dU_s that Hanley 2019, eq 10 prescribes, the stiffness
 * H_s = 4 G a / (2 - nu) computed here from G, nu and a = sqrt(R* delta) (Hanley §2:
 * H_s = H_n sqrt(U_n) 3(1-nu)/(2-nu), H_n = 4 G sqrt(R*) / (3 (1-nu))); with the linear normal
 * law the two forms must be the same law; dem-energy's stored energy is |f_s|^2 / (2 H_s). */
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "unit.h"

static dem_material material(double young, double poisson, double mu, double e)
{
    dem_material m = dem_material_default();
    m.density = 2500;
    m.young = young;
    m.poisson = poisson;
    m.friction = mu;
    m.restitution = e;
    return m;
}

/* Hanley's H_s for two equal spheres of one material at overlap delta. */
static double hanley_hs(const dem_material *m, double r, double delta)
{
    double g = m->young / (2.0 * (1.0 + m->poisson)), rstar = 0.5 * r;
    double hn = 4.0 * g / (3.0 * (1.0 - m->poisson)) * sqrt(rstar);
    return hn * sqrt(delta) * 3.0 * (1.0 - m->poisson) / (2.0 - m->poisson);
}

typedef struct {
    const dem_settings *st;
    const dem_material *m;
    double r, mass, dt;
    double delta;      /* current overlap */
    double hist[3];
    int sliding, first;
    dem_vec3 ft;
} drive;

/* One step: the overlap goes to delta (the spheres move apart or together along x, j at +x
 * from i, so the normal from j to i is -x and never turns), sphere i spins about z at w (its
 * contact point moves along y: the tangential displacement of the step is (r - delta/2) w dt). */
static void step(drive *d, double delta, double w)
{
    double gap0 = 2.0 * d->r - d->delta, gap1 = 2.0 * d->r - delta;
    dem_probe_state ps;
    ps.xi = dem_v3(-0.5 * gap1, 0, 0);
    ps.xj = dem_v3(0.5 * gap1, 0, 0);
    double v = d->first ? 0.0 : 0.5 * (gap1 - gap0) / d->dt;
    ps.vi = dem_v3(-v, 0, 0);
    ps.vj = dem_v3(v, 0, 0);
    ps.wi = dem_v3(0, 0, w);
    ps.wj = dem_v3_zero();
    ps.ri = ps.rj = d->r;
    ps.mi = ps.mj = d->mass;
    dem_vec3 fn;
    CHECK(dem_contact_probe(d->st, d->m, d->m, d->first ? 0.0 : d->dt, &ps, d->hist, &d->sliding, &fn, &d->ft) == 1);
    d->delta = delta;
    d->first = 0;
}

/* Shear at delta1 by s1, unload to delta2 = delta1 / 4 (no shear), shear back by s1 at delta2:
 * Hanley 2019, eq 10 gives f = (H_s(delta1) - H_s(delta2)) s1 = H_s(delta1) s1 / 2 after the
 * displacement has come back to zero (the force the contact built at the larger overlap
 * survives); the total form gives 0 (its stretch is zero) and, after the unloading, H_s(delta2) s1. */
static void test_unload(void)
{
    dem_material m = material(1e8, 0.3, 1e30, 1.0);
    dem_settings st;
    dem_settings_default(&st);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    double r = 1e-3, d1 = 4e-6, d2 = 1e-6, dt = 1e-6, w = 20.0;
    int n = 200;
    for (int integ = 0; integ < 2; integ++) {
        st.integrator = integ ? DEM_INTEGRATOR_VV_IMPROVED : DEM_INTEGRATOR_VV;
        for (int law = 0; law < 2; law++) {
            st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, law ? "incremental" : "history");
            CHECK(st.tangential >= 0);
            drive d = {&st, &m, r, 0, dt, d1, {0, 0, 0}, 0, 1, {0, 0, 0}};
            double inertia;
            dem_sphere_mass(r, m.density, &d.mass, &inertia);
            step(&d, d1, 0.0);
            for (int k = 0; k < n; k++) step(&d, d1, w);
            double s1 = n * (r - 0.5 * d1) * w * dt, h1 = hanley_hs(&m, r, d1), h2 = hanley_hs(&m, r, d2);
            /* loaded: f_y on i = -H_s(delta1) s1 in both forms */
            double m_load = fabs(d.ft.y), e_load = fabs(d.ft.y / (-h1 * s1) - 1.0);
            CHECK_MSG(e_load < 1e-12 && fabs(d.ft.x) < 1e-12 * h1 * s1 && fabs(d.ft.z) < 1e-12 * h1 * s1,
                      "%s %s loaded: ft (%g, %g, %g), expected y %g", law ? "incremental" : "history", integ ? "vv-improved" : "vv",
                      d.ft.x, d.ft.y, d.ft.z, -h1 * s1);
            for (int k = 1; k <= n; k++) step(&d, d1 + (d2 - d1) * k / n, 0.0);
            double f_unl = law ? -h1 * s1 : -h2 * s1;
            double m_unl = fabs(d.ft.y), e_unl = fabs(d.ft.y / f_unl - 1.0);
            CHECK_MSG(e_unl < 1e-12, "%s unloaded: %g, expected %g", law ? "incremental" : "history", d.ft.y, f_unl);
            for (int k = 0; k < n; k++) step(&d, d2, -w * (r - 0.5 * d1) / (r - 0.5 * d2));
            double f_back = law ? -(h1 - h2) * s1 : 0.0;
            double e_back = law ? fabs(d.ft.y / f_back - 1.0) : fabs(d.ft.y) / (h1 * s1);
            CHECK_MSG(e_back < 1e-10 && !d.sliding, "%s sheared back: %g, expected %g", law ? "incremental" : "history", d.ft.y, f_back);
            if (integ)
                printf("  shear at delta, unload to delta/4, shear back (%s): |ft| %.6g, %.6g, %.6g mN "
                       "(expected %.6g, %.6g, %.6g; errors %.1e %.1e %.1e)\n",
                       law ? "incremental" : "history", m_load * 1e3, m_unl * 1e3, fabs(d.ft.y) * 1e3,
                       h1 * s1 * 1e3, fabs(f_unl) * 1e3, fabs(f_back) * 1e3, e_load, e_unl, e_back);
        }
    }
}

/* With the linear normal law (constant kt) the incremental law is the history law: f_s = -kt xi
 * at every step, to round-off, under a motion that turns the normal, spins the pair about it,
 * changes the overlap, slides and sticks again, with dashpots. */
static void test_hooke_same(void)
{
    dem_material m = material(1e8, 0.3, 0.3, 0.7);
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    double r = 1e-3, dt = 2e-7, mass, inertia, worst_f = 0.0, worst_h = 0.0;
    dem_sphere_mass(r, m.density, &mass, &inertia);
    dem_pair p;
    dem_pair_init(&p, &st, r, mass, &m, r, mass, &m);
    for (int integ = 0; integ < 2; integ++) {
        st.integrator = integ ? DEM_INTEGRATOR_VV_IMPROVED : DEM_INTEGRATOR_VV;
        int th = dem_model_find(DEM_MODEL_TANGENTIAL, "history"), ti = dem_model_find(DEM_MODEL_TANGENTIAL, "incremental");
        double hh[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        int slides = 0, sticks = 0;
        for (int k = 0; k < 4000; k++) {
            /* i circles j at a distance that breathes; both spin */
            double t1 = k * dt, th1 = 0.3 + 4e-4 * sin(2e4 * t1), ph1 = 0.2 + 2e-4 * sin(1.3e4 * t1);
            double t0 = (k - 1) * dt, th0 = 0.3 + 4e-4 * sin(2e4 * t0), ph0 = 0.2 + 2e-4 * sin(1.3e4 * t0);
            double g1 = 2 * r - 2e-6 * (1.5 + 0.5 * sin(1.5e4 * t1)), g0 = 2 * r - 2e-6 * (1.5 + 0.5 * sin(1.5e4 * t0));
            dem_vec3 x1 = dem_v3(g1 * cos(th1) * cos(ph1), g1 * sin(th1) * cos(ph1), g1 * sin(ph1));
            dem_vec3 x0 = dem_v3(g0 * cos(th0) * cos(ph0), g0 * sin(th0) * cos(ph0), g0 * sin(ph0));
            dem_probe_state ps;
            ps.xi = x1;
            ps.xj = dem_v3_zero();
            ps.vi = k ? dem_v3_scale(dem_v3_sub(x1, x0), 1.0 / dt) : dem_v3_zero();
            ps.vj = dem_v3_zero();
            ps.wi = dem_v3(10.0 * sin(1.7e4 * t1), 8.0 * cos(1.3e4 * t1), -6.0 * sin(1.1e4 * t1));
            ps.wj = dem_v3(-4.0 * cos(1.9e4 * t1), 2.0 * cos(5e3 * t1), 12.0 * sin(2.3e4 * t1));
            ps.ri = ps.rj = r;
            ps.mi = ps.mj = mass;
            dem_vec3 fnh, fth, fni, fti;
            int sh, si;
            st.tangential = th;
            CHECK(dem_contact_probe(&st, &m, &m, k ? dt : 0.0, &ps, hh, &sh, &fnh, &fth) == 1);
            st.tangential = ti;
            CHECK(dem_contact_probe(&st, &m, &m, k ? dt : 0.0, &ps, hi, &si, &fni, &fti) == 1);
            double fs = dem_v3_norm(fth) + 1e-300;
            double ef = dem_v3_norm(dem_v3_sub(fth, fti)) / fs;
            double eh = dem_v3_norm(dem_v3_sub(dem_v3(hi[0], hi[1], hi[2]), dem_v3_scale(dem_v3(hh[0], hh[1], hh[2]), -p.kt))) /
                        (p.kt * dem_v3_norm(dem_v3(hh[0], hh[1], hh[2])) + 1e-300);
            if (ef > worst_f) worst_f = ef;
            if (eh > worst_h) worst_h = eh;
            CHECK_MSG(sh == si && fnh.x == fni.x && fnh.y == fni.y && fnh.z == fni.z, "step %d: sliding %d %d", k, sh, si);
            slides += sh;
            sticks += !sh;
        }
        CHECK_MSG(slides > 100 && sticks > 100, "the motion must slide and stick: %d %d", slides, sticks);
        if (integ) printf("  (steps sliding %d, sticking %d)\n", slides, sticks);
    }
    CHECK_MSG(worst_f < 1e-12 && worst_h < 1e-12, "hooke: incremental against history: force %g, history %g", worst_f, worst_h);
    printf("  hooke, a turning, spinning, breathing, sliding contact with dashpots: incremental = history to %.1e (force), "
           "%.1e (f_s = -kt xi)\n", worst_f, worst_h);
}

/* dem-energy's stored tangential energy: |f_s|^2 / (2 H_s) for a force history, 1/2 H_s |xi|^2
 * for the stretch. */
static void test_energy_terms(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 1.0);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    double r = 1e-3, delta = 4e-6;
    for (int k = 0; k < 2; k++) {
        dem_particle p = dem_particle_default();
        p.id = (uint64_t)k + 1;
        p.radius = r;
        p.pos = dem_v3(k ? 2 * r - delta : 0.0, 0, 0);
        dem_sphere_mass(r, m.density, &p.mass, &p.inertia);
        CHECK(dem_system_push_particle(&s, &p, NULL) == DEM_OK);
    }
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = 1;
    c.j = 2;
    c.normal = dem_v3(-1, 0, 0);
    c.overlap = delta;
    c.hist[1] = 3e-3; /* N for incremental, m for history: only the formula differs */
    c.hist[2] = -4e-3;
    CHECK(dem_system_push_contact(&s, &c, NULL) == DEM_OK);
    s.hist_slots = 3;
    dem_settings st;
    dem_settings_default(&st);
    dem_energy_terms e;
    double hs = hanley_hs(&m, r, delta), f2 = 25e-6;
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "incremental");
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK_MSG(fabs(e.eel_t / (0.5 * f2 / hs) - 1.0) < 1e-13, "incremental eel_t %.17g, expected %.17g", e.eel_t, 0.5 * f2 / hs);
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "history");
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK_MSG(fabs(e.eel_t / (0.5 * hs * f2) - 1.0) < 1e-13, "history eel_t %.17g, expected %.17g", e.eel_t, 0.5 * hs * f2);
    dem_system_free(&s);
}

int main(void)
{
    test_unload();
    test_hooke_same();
    test_energy_terms();
    UNIT_DONE();
}
