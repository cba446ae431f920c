/* test_energy.c - lib/energy.c and the format 1.1 energy fields: the energies of hand-made
 * frames against their formulas (kinetic, gravity with unwrapped periodic positions, hooke and
 * hertz springs, Mindlin's tangential stiffness, walls), the budget's arithmetic, e_initial and
 * e_ahead through the codec (a format 1.0 record reads as NaN and 0), and the residual of an
 * elastic collision through dem_sim with its dt^2 scaling. */
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "gz.h"
#include "unit.h"

static dem_material material(double young, double poisson, double mu, double e)
{
    dem_material m = dem_material_default();
    m.young = young;
    m.poisson = poisson;
    m.friction = mu;
    m.restitution = e;
    return m;
}

static void add_particle(dem_system *s, uint64_t id, dem_vec3 x, dem_vec3 v, double r)
{
    dem_particle p = dem_particle_default();
    p.id = id;
    p.pos = x;
    p.vel = v;
    p.radius = r;
    dem_sphere_mass(r, s->materials[0].density, &p.mass, &p.inertia);
    CHECK(dem_system_push_particle(s, &p, NULL) == DEM_OK);
}

static void add_contact(dem_system *s, uint64_t i, uint64_t j, int wall, double delta, dem_vec3 xi)
{
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = i;
    c.j = j;
    c.flags = wall ? DEM_CONTACT_WALL : 0;
    c.normal = dem_v3(1, 0, 0);
    c.overlap = delta;
    c.hist[0] = xi.x;
    c.hist[1] = xi.y;
    c.hist[2] = xi.z;
    CHECK(dem_system_push_contact(s, &c, NULL) == DEM_OK);
}

static void test_defaults_and_checks(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    CHECK(isnan(s.energy[DEM_E_INITIAL]) && s.energy[DEM_E_AHEAD] == 0.0);
    CHECK(dem_system_check(&s, &err) == DEM_OK); /* NaN e_initial: not known, accepted */
    s.energy[DEM_E_INITIAL] = INFINITY;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE);
    s.energy[DEM_E_INITIAL] = 1.5;
    s.energy[DEM_E_AHEAD] = NAN;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE);
    s.energy[DEM_E_AHEAD] = 0.0;
    s.energy[DEM_E_DISS_FRICTION] = NAN;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE);
    dem_system_clear(&s);
    CHECK(isnan(s.energy[DEM_E_INITIAL]) && s.energy[DEM_E_DISS_FRICTION] == 0.0);
    CHECK(strcmp(dem_energy_names[DEM_E_INITIAL], "e_initial") == 0 && strcmp(dem_energy_names[DEM_E_AHEAD], "e_ahead") == 0);
    dem_system_free(&s);
}

/* One frame in memory. */
static bytes write_frame(const dem_system *s)
{
    bytes b = {0, 0};
    dem_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dem_writer *w = dem_writer_new(f, 1, &err);
    CHECK(dem_writer_put(w, s, &err) == DEM_OK);
    dem_writer_free(w);
    fclose(f);
    b.p = (uint8_t *)buf;
    b.n = len;
    return b;
}

static int read_frame(const bytes *b, dem_system *s, dem_error *err)
{
    dem_reader *r = dem_reader_new_mem(b->p, b->n, err);
    int rc = dem_reader_next(r, s, err);
    dem_reader_free(r);
    return rc;
}

static void test_codec(void)
{
    dem_system s, t;
    dem_error err;
    dem_system_init(&s);
    dem_system_init(&t);
    dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL);
    for (int k = 0; k < DEM_E_COUNT; k++) s.energy[k] = 0.125 * (k + 1);
    s.energy[DEM_E_AHEAD] = -3e-17;
    bytes f = write_frame(&s);
    CHECK(read_frame(&f, &t, &err) == 1);
    CHECK(memcmp(s.energy, t.energy, sizeof s.energy) == 0);
    free(f.p);
    /* NaN (not known) goes through bit for bit */
    s.energy[DEM_E_INITIAL] = NAN;
    f = write_frame(&s);
    CHECK(read_frame(&f, &t, &err) == 1 && isnan(t.energy[DEM_E_INITIAL]) && same_bits(s.energy[DEM_E_INITIAL], t.energy[DEM_E_INITIAL]));

    /* A format 1.0 frame: minor 0 and an 80-byte ENRG record. e_initial reads as NaN (not known)
     * and e_ahead as 0, the ten accumulators of 1.0 as written. */
    s.energy[DEM_E_INITIAL] = 42.0;
    s.energy[DEM_E_AHEAD] = 7.0;
    free(f.p);
    f = write_frame(&s);
    bytes pl = gz_payload(f.p, f.n), old = {0, 0};
    size_t at = payload_section(&pl, "ENRG");
    CHECK(at != (size_t)-1);
    uint8_t hdr[32];
    memcpy(hdr, pl.p + at, 32);
    CHECK(dem_get_u32(hdr + 24) == 96);
    dem_put_u64(hdr + 8, 16 + 80);
    dem_put_u32(hdr + 24, 80);
    bytes_add(&old, pl.p, at);
    bytes_add(&old, hdr, 32);
    bytes_add(&old, pl.p + at + 32, 80);
    bytes_add(&old, pl.p + at + 32 + 96, pl.n - (at + 32 + 96));
    old.p[10] = 0; /* minor version 0 */
    bytes g = gz_member(old.p, old.n);
    CHECK(read_frame(&g, &t, &err) == 1);
    CHECK(isnan(t.energy[DEM_E_INITIAL]) && t.energy[DEM_E_AHEAD] == 0.0);
    for (int k = 0; k < DEM_E_INITIAL; k++) CHECK(t.energy[k] == s.energy[k]);
    /* the writer writes minor 1 */
    CHECK(pl.p[10] == 1 && pl.p[11] == 0 && DEM_FORMAT_MINOR == 1);
    free(f.p);
    free(pl.p);
    free(old.p);
    free(g.p);
    dem_system_free(&s);
    dem_system_free(&t);
}

/* Energies of a hand-made frame. */
static void test_terms(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 0.9);
    dem_system_push_material(&s, &m, NULL);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(1, 0, 0);
    dem_system_push_wall(&s, &w, NULL);
    add_particle(&s, 1, dem_v3(0.001, 0, 0), dem_v3(0.2, -0.1, 0), 0.001);
    add_particle(&s, 2, dem_v3(0.003, 0, 0), dem_v3(0, 0, 0.3), 0.0015);
    s.particles[1].omega = dem_v3(4, 0, 0);
    s.hist_slots = 3;
    dem_vec3 xi = dem_v3(0, 2e-6, -1e-6);
    add_contact(&s, 2, 1, 0, 4e-6, xi);  /* pair */
    add_contact(&s, 1, 0, 1, 3e-6, xi);  /* particle 1 on the wall */
    add_contact(&s, 2, 1, 0, -1e-6, xi); /* not touching: no energy (a duplicate pair is only used here) */
    s.ncontacts = 3;

    dem_settings st;
    dem_settings_default(&st);
    st.gravity = dem_v3(0, 0, -9.81);
    const dem_particle *a = &s.particles[0], *b = &s.particles[1];
    double ekt = 0.5 * a->mass * 0.05 + 0.5 * b->mass * 0.09, ekr = 0.5 * b->inertia * 16;
    double epot = -(a->mass * -9.81 * 0 + b->mass * -9.81 * 0);
    /* hertz + Mindlin (the defaults) */
    dem_energy_terms e;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    dem_pair pp, pw;
    dem_pair_init(&pp, &st, b->radius, b->mass, &m, a->radius, a->mass, &m);
    dem_pair_init(&pw, &st, a->radius, a->mass, &m, 0.0, 0.0, &m);
    double u = 8.0 / 15.0 * pp.estar * sqrt(pp.rstar) * pow(4e-6, 2.5) + 8.0 / 15.0 * pw.estar * sqrt(pw.rstar) * pow(3e-6, 2.5);
    double xi2 = 5e-12;
    double ut = 0.5 * 8 * pp.gstar * sqrt(pp.rstar * 4e-6) * xi2 + 0.5 * 8 * pw.gstar * sqrt(pw.rstar * 3e-6) * xi2;
    CHECK(e.ekin_t == ekt && e.ekin_r == ekr && e.epot_g == epot);
    CHECK_MSG(fabs(e.eel_n - u) < 1e-13 * u, "hertz %.17g vs %.17g", e.eel_n, u);
    CHECK_MSG(fabs(e.eel_t - ut) < 1e-13 * ut, "mindlin %.17g vs %.17g", e.eel_t, ut);
    CHECK(dem_energy_mechanical(&e) == e.ekin_t + e.ekin_r + e.epot_g + e.eel_n + e.eel_t);

    /* hooke with given kn and kt */
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 2e4;
    st.kt = 1.5e4;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK(fabs(e.eel_n - 0.5 * 2e4 * (16e-12 + 9e-12)) < 1e-14 * e.eel_n);
    CHECK(fabs(e.eel_t - 0.5 * 1.5e4 * 2 * xi2) < 1e-14 * e.eel_t);
    /* no tangential spring: no tangential energy; fewer than 3 history slots likewise */
    st.tangential = dem_tangential_find("none");
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK && e.eel_t == 0.0);
    st.tangential = dem_tangential_find("history");
    s.hist_slots = 0;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK && e.eel_t == 0.0);

    /* gravity: -m g.x, at unwrapped positions in a periodic cell */
    s.particles[0].pos = dem_v3(0.001, 0.002, 0.005);
    s.particles[1].pos = dem_v3(0.003, 0.001, -0.002);
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK(fabs(e.epot_g - 9.81 * (a->mass * 0.005 + b->mass * -0.002)) < 1e-18);
    s.cell.flags = 7;
    s.cell.h = dem_m3_diag(0.01, 0.01, 0.02);
    s.particles[0].image[2] = -3; /* fell three times through the bottom face */
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK(fabs(e.epot_g - 9.81 * (a->mass * (0.005 - 0.06) + b->mass * -0.002)) < 1e-18);

    /* a contact naming a missing particle */
    s.contacts[0].j = 99;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_ERR_VALUE && strstr(err.msg, "99"));
    dem_system_free(&s);
}

static void test_budget_arithmetic(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 0.9);
    dem_system_push_material(&s, &m, NULL);
    add_particle(&s, 1, dem_v3(0, 0, 1), dem_v3(2, 0, 0), 0.01);
    dem_settings st;
    dem_settings_default(&st);
    st.gravity = dem_v3(0, 0, -10);
    double mass = s.particles[0].mass, e = 0.5 * mass * 4 + mass * 10;
    for (int k = 0; k < DEM_E_INITIAL; k++) s.energy[k] = 0.001 * (k + 1);
    s.energy[DEM_E_AHEAD] = 0.0005;
    double d = 0.001 * (1 + 2 + 3 + 4 + 5 + 6 + 7), w = 0.001 * (8 + 9 + 10);
    CHECK(fabs(dem_energy_dissipated(&s) - d) < 1e-15 && fabs(dem_energy_work(&s) - w) < 1e-15);
    double ref;
    CHECK(dem_energy_reference(&s, &st, &ref, &err) == DEM_OK);
    CHECK(fabs(ref - (e + d - w - 0.0005)) < 1e-15);
    dem_energy_terms t;
    dem_energy_terms_compute(&s, &st, &t, &err);
    CHECK(fabs(dem_energy_residual(ref, &t, &s)) < 1e-15);
    CHECK(fabs(dem_energy_residual(ref + 1.0, &t, &s) - 1.0) < 1e-15); /* lost energy: positive */
    dem_system_free(&s);
}

/* Largest |residual| / E0 of an undamped, frictionless head-on collision of two spheres through
 * dem_sim at dt = tc / per_tc (tc of the law at the impact speed). */
static double collision_residual(int normal, double per_tc)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 1.0);
    dem_system_push_material(&s, &m, NULL);
    double r = 0.001, v = 0.5;
    add_particle(&s, 1, dem_v3(0, 0, 0), dem_v3(v, 0, 0), r);
    add_particle(&s, 2, dem_v3(2 * r + 1e-6, 0, 0), dem_v3(-v, 0, 0), r);
    dem_settings st;
    dem_settings_default(&st);
    st.normal = normal;
    st.damping = dem_damping_find("none");
    st.tangential = dem_tangential_find("none");
    st.vc = 2 * v;
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.contact_time / per_tc);
    double ref, worst = 0.0;
    dem_sim_store(sim, &s, &err);
    CHECK(dem_energy_reference(&s, &st, &ref, &err) == DEM_OK);
    long steps = (long)(3 * per_tc);
    for (long k = 0; k < steps; k++) {
        dem_sim_step(sim, &err);
        dem_sim_store(sim, &s, &err);
        dem_energy_terms e;
        dem_energy_terms_compute(&s, &st, &e, &err);
        worst = fmax(worst, fabs(dem_energy_residual(ref, &e, &s)));
    }
    dem_sim_free(sim);
    dem_system_free(&s);
    return worst / ref;
}

static void test_collision_budget(void)
{
    for (int normal = 0; normal < 2; normal++) {
        double a = collision_residual(normal, 100), b = collision_residual(normal, 200), c = collision_residual(normal, 400);
        CHECK_MSG(c < 1e-4, "%s: residual %.3g of E0 at tc/400", dem_normal_models[normal]->name, c);
        CHECK_MSG(a / b > 3.0 && b / c > 3.0, "%s: not O(dt^2): %.3g %.3g %.3g", dem_normal_models[normal]->name, a, b, c);
        printf("  elastic collision (%s), largest |residual| / E0 at dt = tc/100, /200, /400: %.2e %.2e %.2e\n",
               dem_normal_models[normal]->name, a, b, c);
    }
}

int main(void)
{
    test_defaults_and_checks();
    test_codec();
    test_terms();
    test_budget_arithmetic();
    test_collision_budget();
    UNIT_DONE();
}
