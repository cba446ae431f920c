/* test_energy.c - lib/energy.c and the format 1.1 energy fields: the energies of hand-made
 * frames against their formulas (kinetic, gravity with unwrapped periodic positions, hooke and
 * hertz springs, Mindlin's tangential stiffness, walls), the budget's arithmetic, e_initial and
 * e_ahead through the codec (a format 1.0 record reads as NaN and 0), velocity Verlet's shadow
 * term e_shadow against its formula, and the residual through dem_sim: elastic collisions
 * (hooke, hertz) over impact phases and time steps against the onset bound, and one case per
 * part of e_shadow (a rocking sphere: tangential spring and rotation; a sphere running round a
 * cylinder: the wall's curvature; a sphere sliding off a fixed one: the turning normal). */
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
    CHECK(dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
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

    /* Frames of formats 1.0 (minor 0, an 80-byte ENRG record) and 1.1 (minor 1, 96 bytes):
     * what they lack reads as not known (e_initial NaN) or nothing (e_ahead, work_law 0); what
     * they have as written. */
    s.energy[DEM_E_INITIAL] = 42.0;
    s.energy[DEM_E_AHEAD] = 7.0;
    s.energy[DEM_E_WORK_LAW] = 9.0;
    free(f.p);
    f = write_frame(&s);
    bytes pl = gz_payload(f.p, f.n);
    size_t at = payload_section(&pl, "ENRG");
    CHECK(at != (size_t)-1);
    uint8_t hdr[32];
    memcpy(hdr, pl.p + at, 32);
    CHECK(dem_get_u32(hdr + 24) == 104);
    for (int minor = 0; minor <= 1; minor++) {
        unsigned size = minor ? 96 : 80;
        bytes old = {0, 0};
        uint8_t h2[32];
        memcpy(h2, hdr, 32);
        dem_put_u64(h2 + 8, 16 + size);
        dem_put_u32(h2 + 24, size);
        bytes_add(&old, pl.p, at);
        bytes_add(&old, h2, 32);
        bytes_add(&old, pl.p + at + 32, size);
        bytes_add(&old, pl.p + at + 32 + 104, pl.n - (at + 32 + 104));
        old.p[10] = (uint8_t)minor;
        bytes g = gz_member(old.p, old.n);
        CHECK(read_frame(&g, &t, &err) == 1);
        CHECK(t.energy[DEM_E_WORK_LAW] == 0.0);
        if (minor) CHECK(t.energy[DEM_E_INITIAL] == 42.0 && t.energy[DEM_E_AHEAD] == 7.0);
        else CHECK(isnan(t.energy[DEM_E_INITIAL]) && t.energy[DEM_E_AHEAD] == 0.0);
        for (int k = 0; k < DEM_E_INITIAL; k++) CHECK(t.energy[k] == s.energy[k]);
        free(old.p);
        free(g.p);
    }
    /* the writer writes minor 5 for a frame without clumps (1.3 added the end-of-stream marker, 1.4 F to CELL, 1.5 settings
     * keys, 1.6 clumps; the ENRG layout is 1.2's) */
    CHECK(pl.p[10] == 5 && pl.p[11] == 0 && DEM_FORMAT_MINOR_NO_CLUMPS == 5 && DEM_FORMAT_MINOR == 6);
    free(f.p);
    free(pl.p);
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
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(1, 0, 0);
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
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
    CHECK(e.e_shadow == 0.0); /* HEAD flags 0: the forces are not current */
    CHECK(dem_energy_mechanical(&e) == e.ekin_t + e.ekin_r + e.epot_g + e.eel_n + e.eel_t + e.e_shadow);

    /* hooke with given kn and kt */
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 2e4;
    st.kt = 1.5e4;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);
    CHECK(fabs(e.eel_n - 0.5 * 2e4 * (16e-12 + 9e-12)) < 1e-14 * e.eel_n);
    CHECK(fabs(e.eel_t - 0.5 * 1.5e4 * 2 * xi2) < 1e-14 * e.eel_t);
    /* no tangential spring: no tangential energy; fewer than 3 history slots likewise */
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK && e.eel_t == 0.0);
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "history");
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
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
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
    CHECK(dem_energy_terms_compute(&s, &st, &t, &err) == DEM_OK);
    CHECK(fabs(dem_energy_residual(ref, &t, &s)) < 1e-15);
    CHECK(fabs(dem_energy_residual(ref + 1.0, &t, &s) - 1.0) < 1e-15); /* lost energy: positive */
    dem_system_free(&s);
}

/* e_shadow of a hand-made frame against energy.h's formula, written out in components: axes are
 * chosen so that every projection is read off by hand. */
static void test_shadow_formula(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 0.9);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE; /* wall 0: the floor z = 0, moving and turning about the origin */
    w.normal = dem_v3(0, 0, 1);
    w.vel = dem_v3(0.01, 0, 0.02);
    w.omega = dem_v3(0, 0.5, 0);
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_CYLINDER; /* wall 1: particles inside a cylinder of radius 0.01 along z */
    w.normal = dem_v3(0, 0, 1);
    w.radius = 0.01;
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
    w.flags = DEM_WALL_OUTSIDE; /* wall 2: particles outside a cylinder of radius 0.002 */
    w.radius = 0.002;
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
    double r = 0.001, d = 2e-6; /* every contact has overlap d */
    add_particle(&s, 1, dem_v3(0.005, 0, r - d), dem_v3(0.3, 0.1, -0.2), r);
    add_particle(&s, 2, dem_v3(0.005 - 2 * r + d, 0, r - d), dem_v3(-0.1, 0.4, 0), r);
    add_particle(&s, 3, dem_v3(0.002 + r - d, 0, 0.01), dem_v3(0, 0.2, 0.1), r);
    add_particle(&s, 4, dem_v3(0.01 - r + d, 0, -0.01), dem_v3(0.05, -0.3, 0), r);
    s.particles[0].omega = dem_v3(0, 0, 20);
    s.particles[1].omega = dem_v3(0, 0, -10);
    s.particles[3].omega = dem_v3(0, 0, 5);
    s.particles[2].flags = DEM_PARTICLE_FIXED; /* not kicked: its force does not count */
    dem_vec3 f[4] = {{1e-3, 2e-3, -3e-3}, {-4e-3, 0, 1e-3}, {5, 5, 5}, {0, 2e-3, 0}};
    dem_vec3 t[4] = {{0, 0, 1e-7}, {2e-7, 0, 0}, {1, 1, 1}, {0, -1e-7, 3e-7}};
    for (int k = 0; k < 4; k++) {
        s.particles[k].force = f[k];
        s.particles[k].torque = t[k];
    }
    s.hist_slots = 3;
    dem_vec3 nx = dem_v3(1, 0, 0), xi = dem_v3(0, 1e-7, 0);
    add_contact(&s, 1, 2, 0, d, xi);  /* pair, normal +x (from 2 to 1), sticking */
    add_contact(&s, 1, 0, 1, d, xi);  /* 1 on the floor, normal +z */
    add_contact(&s, 3, 2, 1, d, xi);  /* 3 outside cylinder 2, at +x from the axis: normal +x */
    add_contact(&s, 4, 1, 1, d, xi);  /* 4 inside cylinder 1, at +x from the axis: normal -x */
    add_contact(&s, 2, 4, 0, d, xi);  /* a sliding pair: no tangential term, normal +x (from 4 to 2) */
    s.contacts[0].normal = nx;
    s.contacts[1].normal = dem_v3(0, 0, 1);
    s.contacts[2].normal = nx;
    s.contacts[3].normal = dem_v3(-1, 0, 0);
    s.contacts[4].normal = nx;
    s.contacts[4].flags |= DEM_CONTACT_SLIDING;

    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 2e4;
    st.kt = 1.5e4;
    dem_energy_terms e;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK && e.e_shadow == 0.0); /* flags 0 */
    s.flags = DEM_HEAD_FORCES_CURRENT;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK && e.e_shadow == 0.0); /* dt 0 */
    s.dt = 1e-5;
    CHECK(dem_energy_terms_compute(&s, &st, &e, &err) == DEM_OK);

    double kn = 2e4, kt = 1.5e4, fe = kn * d, l = r - 0.5 * d, mass = s.particles[0].mass, in = s.particles[0].inertia;
    double h = 0.0;
    /* pair 1-2: vr = (0.4, -0.3, -0.2): normal part 0.4, the rest (0, -0.3, -0.2); the spins
     * add (l w1 + l w2) z x n = (0, l (20 - 10), 0), subtracted in the tangential velocity */
    h += kn * 0.16 - fe / (2 * r - d) * 0.13 + kt * (pow(-0.3 - l * 10, 2) + 0.04);
    /* 1 on the floor: the floor's velocity at the contact point cp = (0.005, 0, -d/2) is
     * (0.01, 0, 0.02) + (0, 0.5, 0) x cp = (0.01 - 0.5 d/2, 0, 0.02 - 0.5 * 0.005); vr follows;
     * tangential: vr's x and y parts minus l w1 z x z = 0 */
    double vwx = 0.01 - 0.25 * d, vwz = 0.02 - 0.0025;
    h += kn * pow(-0.2 - vwz, 2) + kt * (pow(0.3 - vwx, 2) + 0.01);
    /* 3 outside cylinder 2 (rho = 0.002 + r - d): normal part 0, along a x n = y: 0.2, the
     * curvature enters with -; tangential (0, 0.2, 0.1) */
    h += -fe / (0.002 + r - d) * 0.04 + kt * (0.04 + 0.01);
    /* 4 inside cylinder 1 (rho = 0.01 - r + d), normal -x: vr.n = -0.05; along a x n = -y:
     * 0.3, the curvature enters with +; tangential (0, -0.3, 0) - l (0, 0, 5) x (-1, 0, 0) */
    h += kn * 0.0025 + fe / (0.01 - r + d) * 0.09 + kt * pow(-0.3 + l * 5, 2);
    /* sliding pair 2-4 (normal +x): vr = (-0.15, 0.7, 0): normal and turning parts only */
    h += kn * 0.0225 - fe / (2 * r - d) * 0.49;
    double kick = 0.0;
    for (int k = 0; k < 4; k++)
        if (k != 2) kick += dem_v3_norm2(f[k]) / mass + dem_v3_norm2(t[k]) / in;
    double want = 1e-10 / 12 * h - 1e-10 / 24 * kick;
    CHECK_MSG(fabs(e.e_shadow - want) < 1e-12 * fabs(want), "e_shadow %.17g, by hand %.17g", e.e_shadow, want);
    CHECK(dem_energy_mechanical(&e) == e.ekin_t + e.ekin_r + e.epot_g + e.eel_n + e.eel_t + e.e_shadow);
    /* the reference uses the same E */
    double ref;
    CHECK(dem_energy_reference(&s, &st, &ref, &err) == DEM_OK && ref == dem_energy_mechanical(&e));
    dem_system_free(&s);
}

/* Run sim for at most `steps` steps (stopping when the frame has no contact, if release), and
 * give the largest |residual| relative to scale (the largest kinetic energy seen, if scale is 0)
 * with e_shadow and without it. */
static void budget_run(dem_sim *sim, dem_system *s, const dem_settings *st, long steps, int release, double scale,
                       double *with, double *without)
{
    dem_error err;
    double ref, w = 0.0, wo = 0.0, ek = 0.0;
    CHECK(dem_sim_store(sim, s, &err) == DEM_OK);
    CHECK(dem_energy_reference(s, st, &ref, &err) == DEM_OK);
    int failed = 0;
    for (long k = 0; k < steps && !failed; k++) {
        failed = dem_sim_step(sim, &err) != DEM_OK || dem_sim_store(sim, s, &err) != DEM_OK;
        if (release && !s->ncontacts) break;
        dem_energy_terms e;
        CHECK(dem_energy_terms_compute(s, st, &e, &err) == DEM_OK);
        double res = dem_energy_residual(ref, &e, s);
        w = fmax(w, fabs(res));
        wo = fmax(wo, fabs(res + e.e_shadow));
        ek = fmax(ek, e.ekin_t + e.ekin_r);
    }
    CHECK_MSG(!failed, "%s", err.msg);
    if (!(scale > 0.0)) scale = ek;
    *with = w / scale;
    *without = wo / scale;
}

/* Largest |residual| / E0 of an undamped, frictionless head-on collision of two spheres through
 * dem_sim at dt = tc / per_tc (tc of the law at the impact speed). The gap is (3 + phase) steps
 * of approach: phase in [0, 1) sets where within a step the contact begins. */
static double collision_residual(int normal, double per_tc, double phase, double *without)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.5, 1.0);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    double r = 0.001, v = 0.5;
    add_particle(&s, 1, dem_v3(0, 0, 0), dem_v3(v, 0, 0), r);
    add_particle(&s, 2, dem_v3(2 * r + 1e-6, 0, 0), dem_v3(-v, 0, 0), r);
    dem_settings st;
    dem_settings_default(&st);
    st.normal = normal;
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    st.vc = 2 * v;
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    double dt = est.contact_time / per_tc;
    dem_sim_free(sim);
    s.particles[1].pos.x = 2 * r + (3 + phase) * 2 * v * dt;
    sim = dem_sim_new(&s, &st, 1, &err);
    dem_sim_set_dt(sim, dt);
    double e0 = s.particles[0].mass * v * v, with;
    budget_run(sim, &s, &st, (long)(3 * per_tc) + 4, 0, e0, &with, without);
    dem_sim_free(sim);
    dem_system_free(&s);
    return with;
}

/* The elastic collision over 10 impact phases at dt = tc/100, /200, /400. With e_shadow what
 * remains is the onset step. For hertz it is small and falls faster than dt^2. For hooke it is
 * k (s (s - d)/2 + d^2/12) (energy.h): at most w^2 dt^2/6 = (pi / per_tc)^2 / 6 of E0, reached
 * when the contact begins at the end of a step, so the bound is checked from both sides. */
static void test_collision_budget(void)
{
    const double per[3] = {100, 200, 400};
    for (int normal = 0; normal < 2; normal++) {
        double with[3], without[3];
        for (int k = 0; k < 3; k++) {
            with[k] = without[k] = 0.0;
            for (int q = 0; q < 10; q++) {
                double wo, wi = collision_residual(normal, per[k], (q + 0.5) / 10, &wo);
                with[k] = fmax(with[k], wi);
                without[k] = fmax(without[k], wo);
            }
        }
        const char *name = dem_normal_models[normal]->name;
        printf("  elastic collision (%s), largest |residual| / E0 over 10 impact phases at dt = tc/100, /200, /400: "
               "%.2e %.2e %.2e (without e_shadow: %.2e %.2e %.2e)\n",
               name, with[0], with[1], with[2], without[0], without[1], without[2]);
        CHECK_MSG(with[0] / with[1] > 3.0 && with[1] / with[2] > 3.0, "%s: not O(dt^2): %.3g %.3g %.3g", name, with[0], with[1], with[2]);
        if (normal == DEM_NORMAL_HERTZ) {
            CHECK_MSG(with[0] < 1e-4, "hertz: residual %.3g of E0 at tc/100", with[0]);
            for (int k = 0; k < 3; k++) CHECK_MSG(with[k] < 0.2 * without[k], "hertz: e_shadow gains too little: %.3g vs %.3g", with[k], without[k]);
        } else {
            for (int k = 0; k < 3; k++) {
                double bound = pow(M_PI / per[k], 2) / 6;
                CHECK_MSG(with[k] < 1.01 * bound && with[k] > 0.5 * bound, "hooke at tc/%g: %.3g, onset bound %.3g", per[k], with[k], bound);
            }
        }
    }
}

/* A hooke sphere resting on the floor under gravity rocks on its sticking tangential spring
 * (mu 10): normal, tangential and rotational springs, no contact opening. */
static void test_shadow_rocking(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 10, 1.0);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
    add_particle(&s, 1, dem_v3(0, 0, 0.001 - 2e-7), dem_v3(1e-4, 0, 0), 0.001);
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1000;
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.gravity = dem_v3(0, 0, -9.81);
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.contact_time / 100);
    double with, without;
    budget_run(sim, &s, &st, 2000, 0, 0.0, &with, &without);
    CHECK(s.ncontacts == 1 && !(s.contacts[0].flags & DEM_CONTACT_SLIDING) && s.energy[DEM_E_DISS_FRICTION] == 0.0);
    printf("  rocking sphere (hooke, sticking), largest |residual| / kinetic energy at tc/100: %.2e (without e_shadow: %.2e)\n", with, without);
    CHECK_MSG(with < 1e-6 && without > 1e-5, "rocking: %.3g, without e_shadow %.3g", with, without);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* A frictionless hooke sphere running round the inside of a cylinder at 1 m/s stays in contact:
 * the normal turns with it, which the wall's curvature term follows. */
static void test_shadow_cylinder(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.0, 1.0);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_CYLINDER;
    w.normal = dem_v3(0, 0, 1);
    w.radius = 0.005;
    CHECK(dem_system_push_wall(&s, &w, NULL) == DEM_OK);
    add_particle(&s, 1, dem_v3(0.004 + 1e-6, 0, 0), dem_v3(0, 1, 0), 0.001);
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1000;
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    double dt = est.contact_time / 100, with, without;
    dem_sim_set_dt(sim, dt);
    budget_run(sim, &s, &st, (long)(2 * M_PI * 0.004 / dt), 1, 0.0, &with, &without);
    CHECK(s.ncontacts == 1); /* one turn without leaving the wall */
    printf("  sphere round a cylinder (hooke), largest |residual| / kinetic energy at tc/100: %.2e (without e_shadow: %.2e)\n", with, without);
    CHECK_MSG(with < 1e-10 && with < 0.01 * without, "cylinder: %.3g, without e_shadow %.3g", with, without);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* A frictionless hooke sphere slides off the top of a fixed sphere under gravity until it leaves
 * it: a pair whose normal turns, and a fixed particle. */
static void test_shadow_dome(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(1e7, 0.3, 0.0, 1.0);
    CHECK(dem_system_push_material(&s, &m, NULL) == DEM_OK);
    double big = 0.005, r = 0.001;
    add_particle(&s, 1, dem_v3(0, 0, 0), dem_v3(0, 0, 0), big);
    s.particles[0].flags = DEM_PARTICLE_FIXED;
    add_particle(&s, 2, dem_v3(0, 0, 0), dem_v3(0.05, 0, 0), r);
    s.particles[1].pos.z = big + r - s.particles[1].mass * 9.81 / 1000; /* at rest on the top */
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1000;
    st.gravity = dem_v3(0, 0, -9.81);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.contact_time / 100);
    double with, without;
    budget_run(sim, &s, &st, 100000, 1, 0.0, &with, &without);
    dem_vec3 x = s.particles[1].pos;
    double angle = acos(x.z / dem_v3_norm(x)) * 180 / M_PI;
    /* a rigid contact lets go at cos = 2/3 + v0^2 / (3 g (big + r)): 47 degrees */
    CHECK_MSG(s.ncontacts == 0 && angle > 40 && angle < 50, "left the dome at %g degrees", angle);
    printf("  sphere sliding off a fixed sphere (hooke, left at %.1f deg), largest |residual| / kinetic energy at tc/100: "
           "%.2e (without e_shadow: %.2e)\n", angle, with, without);
    CHECK_MSG(with < 1e-11 && with < 0.01 * without, "dome: %.3g, without e_shadow %.3g", with, without);
    dem_sim_free(sim);
    dem_system_free(&s);
}

int main(void)
{
    test_defaults_and_checks();
    test_codec();
    test_terms();
    test_budget_arithmetic();
    test_shadow_formula();
    test_collision_budget();
    test_shadow_rocking();
    test_shadow_cylinder();
    test_shadow_dome();
    UNIT_DONE();
}
