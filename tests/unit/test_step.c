/* test_step.c - dem-step's physics against physics: analytic collisions (duration, restitution),
 * conservation laws, objectivity under rigid rotation, and bit-exact determinism across thread
 * counts and split runs. */
#include <math.h>
#include <stdlib.h>

#include "core/angle.h"
#include "dem.h"
#include "unit.h"

static dem_material material(double density, double young, double poisson, double mu, double e)
{
    dem_material m = dem_material_default();
    m.density = density;
    m.young = young;
    m.poisson = poisson;
    m.friction = mu;
    m.restitution = e;
    return m;
}

static void add_sphere(dem_system *s, uint64_t id, double r, dem_vec3 x, dem_vec3 v)
{
    dem_error err;
    dem_particle p = dem_particle_default();
    p.id = id;
    p.radius = r;
    dem_sphere_mass(r, s->materials[0].density, &p.mass, &p.inertia);
    p.pos = x;
    p.vel = v;
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
}

typedef struct {
    double duration;  /* s, from interpolated first and last contact */
    double e;         /* normal restitution */
    double energy_ratio;
} collision;

/* Two spheres moving head-on along x at relative speed vrel, gap apart; run until they
 * separate. The gap decides where in its step the contact begins (the impact phase). */
static collision collide_gap(const dem_settings *st, const dem_material *m, double r1, double r2, double vrel, double dt_frac,
                             double gap)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    CHECK(dem_system_push_material(&s, m, &err) == DEM_OK);
    add_sphere(&s, 1, r1, dem_v3(0, 0, 0), dem_v3(0.5 * vrel, 0, 0));
    add_sphere(&s, 2, r2, dem_v3(r1 + r2 + gap, 0, 0), dem_v3(-0.5 * vrel, 0, 0));
    dem_sim *sim = dem_sim_new(&s, st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    double dt = est.contact_time * dt_frac;
    dem_sim_set_dt(sim, dt);
    double m1 = s.particles[0].mass, m2 = s.particles[1].mass;
    double ek0 = 0.5 * (m1 + m2) * 0.25 * vrel * vrel;
    double t_in = NAN, t_out = NAN, prev = -gap;
    collision c = {NAN, NAN, NAN};
    for (long k = 0; k < 100000000L; k++) {
        CHECK(dem_sim_step(sim, &err) == DEM_OK);
        CHECK(dem_sim_store(sim, &s, &err) == DEM_OK);
        double d = r1 + r2 - dem_v3_norm(dem_v3_sub(s.particles[1].pos, s.particles[0].pos));
        double t = dem_sim_time(sim);
        if (prev <= 0.0 && d > 0.0 && isnan(t_in)) t_in = t - dt * d / (d - prev);
        if (prev > 0.0 && d <= 0.0) {
            t_out = t - dt * d / (d - prev);
            break;
        }
        prev = d;
    }
    double v1 = s.particles[0].vel.x, v2 = s.particles[1].vel.x;
    c.duration = t_out - t_in;
    c.e = (v2 - v1) / vrel;
    c.energy_ratio = (0.5 * m1 * dem_v3_norm2(s.particles[0].vel) + 0.5 * m2 * dem_v3_norm2(s.particles[1].vel)) / ek0;
    (void)m1;
    dem_sim_free(sim);
    dem_system_free(&s);
    return c;
}

static collision collide(const dem_settings *st, const dem_material *m, double r1, double r2, double vrel, double dt_frac)
{
    return collide_gap(st, m, r1, r2, vrel, dt_frac, 1e-3 * r2);
}

/* The largest |E_after / E_before - 1| of a linear collision over `phases` impact phases. */
static double worst_energy_error(const dem_settings *st, const dem_material *m, double r, double tc, double vrel,
                                 double dt_frac, int phases)
{
    double worst = 0.0;
    for (int k = 0; k < phases; k++) {
        double gap = (3.0 + (double)k / phases) * vrel * tc * dt_frac; /* 3 to 4 steps of approach */
        collision c = collide_gap(st, m, r, r, vrel, dt_frac, gap);
        worst = fmax(worst, fabs(c.energy_ratio - 1.0));
    }
    return worst;
}

static void test_linear_collision(void)
{
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1e5;
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_material m = material(2500, 7e10, 0.25, 0.5, 1.0);
    double r = 1e-3, mass = 4.0 / 3.0 * M_PI * r * r * r * 2500;
    double tc = M_PI * sqrt(0.5 * mass / st.kn); /* Vyas et al. 2025, eq 7 */
    collision c = collide(&st, &m, r, r, 0.2, 0.01), c2 = collide(&st, &m, r, r, 0.2, 0.005);
    CHECK_MSG(fabs(c.duration / tc - 1.0) < 0.005, "duration %g, analytic %g", c.duration, tc);
    /* Velocity-Verlet's energy error at the kink of the force (contact start and end) is third
     * order in dt: 4e-6 at tc/100 and 5e-7 at tc/200 for the worst phase of the impact. */
    CHECK_MSG(fabs(c.energy_ratio - 1.0) < 1e-5, "energy ratio %.12g at tc/100", c.energy_ratio);
    CHECK_MSG(fabs(c2.energy_ratio - 1.0) < 1e-6, "energy ratio %.12g at tc/200", c2.energy_ratio);
    /* Over every impact phase: velocity-Verlet's error at the kink falls as dt^3; at tc/100 it
     * reaches 4e-6 for the worst phase, and it is below 1e-6 for every phase from tc/160 on. */
    double w100 = worst_energy_error(&st, &m, r, tc, 0.2, 0.01, 40), w160 = worst_energy_error(&st, &m, r, tc, 0.2, 1.0 / 160, 40);
    CHECK_MSG(w160 < 1e-6, "worst energy error over impact phases at tc/160: %.3g", w160);
    CHECK_MSG(w100 > 2.0 * w160 && w100 < 6.0 * w160, "not third order: %.3g at tc/100, %.3g at tc/160", w100, w160);
    printf("  linear spring over 40 impact phases: energy returned to %.2e (worst) at tc/100, %.2e at tc/160 (ratio %.2f; (1.6)^3 = 4.10)\n",
           w100, w160, w100 / w160);
    printf("  linear spring: duration %.6g s vs pi sqrt(m*/kn) = %.6g s (%.2e); energy returned %.1e at tc/100, %.1e at tc/200\n",
           c.duration, tc, c.duration / tc - 1.0, c.energy_ratio - 1.0, c2.energy_ratio - 1.0);
}

static void test_hertz_duration(void)
{
    dem_settings st;
    dem_settings_default(&st);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_material m = material(1000, 2e6 * 2 * 1.2, 0.2, 0.5, 1.0); /* Hanley 2019, §3.2.1: G = 2 MPa, nu = 0.2 */
    double r = 0.005, v = 0.9, mass = 4.0 / 3.0 * M_PI * r * r * r * 1000;
    double estar = 1.0 / (2 * (1 - 0.04) / m.young), mstar = 0.5 * mass, rstar = 0.5 * r;
    double th = 2.868 * pow(mstar * mstar / (rstar * estar * estar * v), 0.2);
    collision c = collide(&st, &m, r, r, v, 0.002);
    CHECK_MSG(fabs(c.duration / th - 1.0) < 0.01, "Hertz duration %g vs %g", c.duration, th);
    printf("  Hertz: duration %.6g s vs 2.868 (m*^2/(R* E*^2 v))^(1/5) = %.6g s (%.2e)\n", c.duration, th, c.duration / th - 1.0);
}

static void test_restitution(void)
{
    const double es[3] = {0.5, 0.8, 0.95}, ratios[3] = {1, 5, 20};
    double worst = 0.0;
    for (int law = 0; law < 2; law++)
        for (int ie = 0; ie < 3; ie++)
            for (int ir = 0; ir < 3; ir++) {
                dem_settings st;
                dem_settings_default(&st);
                st.normal = law == 0 ? DEM_NORMAL_HOOKE : DEM_NORMAL_HERTZ;
                st.kn_rule = DEM_KN_HERTZ;
                st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
                dem_material m = material(2500, 7e10, 0.25, 0.5, es[ie]);
                collision c = collide(&st, &m, 1e-3, 1e-3 * ratios[ir], 0.5, 0.01);
                double rel = fabs(c.e / es[ie] - 1.0);
                if (rel > worst) worst = rel;
                CHECK_MSG(rel < 0.01, "%s e=%g ratio %g: got %g", law ? "hertz" : "hooke", es[ie], ratios[ir], c.e);
            }
    printf("  restitution: 18 cases (hooke, hertz; e 0.5, 0.8, 0.95; size ratio 1, 5, 20), worst relative error %.2e\n", worst);
}

/* A cloud of frictional, damped spheres colliding in free space: momentum is conserved to
 * round-off, angular momentum too. */
static void make_cloud(dem_system *s, int n, double box, uint64_t seed)
{
    dem_error err;
    dem_system_init(s);
    dem_material m = material(2500, 1e8, 0.3, 0.5, 0.7);
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    dem_rng rng;
    dem_rng_seed(&rng, seed);
    int k = 0;
    while (k < n) {
        dem_vec3 x = dem_v3(box * dem_rng_uniform(&rng), box * dem_rng_uniform(&rng), box * dem_rng_uniform(&rng));
        double r = 1e-3 * (0.7 + 0.6 * dem_rng_uniform(&rng));
        int ok = 1;
        for (size_t j = 0; j < s->nparticles && ok; j++)
            if (dem_v3_norm(dem_v3_sub(x, s->particles[j].pos)) < r + s->particles[j].radius) ok = 0;
        if (!ok) continue;
        dem_vec3 v = dem_v3(dem_rng_normal(&rng), dem_rng_normal(&rng), dem_rng_normal(&rng));
        add_sphere(s, (uint64_t)k + 1, r, x, dem_v3_scale(v, 0.5));
        s->particles[k].omega = dem_v3(50 * dem_rng_normal(&rng), 0, 0);
        k++;
    }
}

static dem_vec3 momentum(const dem_system *s)
{
    dem_vec3 p = dem_v3_zero();
    for (size_t k = 0; k < s->nparticles; k++) p = dem_v3_madd(p, s->particles[k].vel, s->particles[k].mass);
    return p;
}

static void test_momentum(void)
{
    dem_system s;
    dem_error err;
    make_cloud(&s, 200, 0.012, 5);
    dem_settings st;
    dem_settings_default(&st);
    dem_vec3 p0 = momentum(&s);
    double scale = 0.0;
    for (size_t k = 0; k < s.nparticles; k++) scale += s.particles[k].mass * dem_v3_norm(s.particles[k].vel);
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.recommended);
    for (int k = 0; k < 3000; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
    CHECK(dem_sim_store(sim, &s, &err) == DEM_OK);
    size_t nc = s.ncontacts;
    dem_vec3 p1 = momentum(&s);
    double drift = dem_v3_norm(dem_v3_sub(p1, p0)) / scale;
    CHECK_MSG(drift < 1e-13, "momentum drift %g of the momentum scale", drift);
    CHECK(s.energy[DEM_E_DISS_DAMP_N] > 0.0); /* collisions did happen */
    CHECK(s.energy[DEM_E_DISS_FRICTION] > 0.0 && s.energy[DEM_E_DISS_DAMP_T] > 0.0); /* and slid */
    /* per contact, friction can dip by round-off-sized amounts at stick-slip transitions of the
     * Mindlin spring (its energy is not a potential); the dashpots never create energy */
    for (size_t k = 0; k < s.ncontacts; k++) CHECK(s.contacts[k].diss_damp_n >= 0.0);
    printf("  momentum of a colliding frictional cloud: drift %.2e of sum m|v| after 3000 steps (%zu contacts at the end)\n", drift, nc);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* Undamped frictionless gas in a box of six walls: total energy stays bounded. */
static void test_gas_energy(void)
{
    dem_system s;
    dem_error err;
    make_cloud(&s, 150, 0.01, 9);
    s.materials[0].restitution = 1.0;
    const dem_vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int k = 0; k < 6; k++) {
        dem_wall w;
        memset(&w, 0, sizeof w);
        w.kind = DEM_WALL_PLANE;
        w.normal = normals[k];
        w.point = dem_v3(k == 1 ? 0.0115 : -0.0015, k == 3 ? 0.0115 : -0.0015, k == 5 ? 0.0115 : -0.0015);
        CHECK(dem_system_push_wall(&s, &w, &err) == DEM_OK);
    }
    dem_settings st;
    dem_settings_default(&st);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.recommended);
    double e0 = dem_kinetic_energy_t(&s) + dem_kinetic_energy_r(&s), emax = 0.0, emin = INFINITY;
    for (int k = 0; k < 40; k++) {
        for (int j = 0; j < 250; j++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
        CHECK(dem_sim_store(sim, &s, &err) == DEM_OK);
        double e = dem_kinetic_energy_t(&s) + dem_kinetic_energy_r(&s);
        for (size_t c = 0; c < s.ncontacts; c++) { /* Hertz potential of each contact */
            dem_pair p;
            const dem_particle *a = NULL, *b = NULL;
            for (size_t q = 0; q < s.nparticles; q++) {
                if (s.particles[q].id == s.contacts[c].i) a = &s.particles[q];
                if (!(s.contacts[c].flags & DEM_CONTACT_WALL) && s.particles[q].id == s.contacts[c].j) b = &s.particles[q];
            }
            dem_pair_init(&p, &st, a->radius, a->mass, &s.materials[0], b ? b->radius : 0, b ? b->mass : 0, &s.materials[0]);
            e += dem_law_hertz.energy(&p, s.contacts[c].overlap);
        }
        if (e > emax) emax = e;
        if (e < emin) emin = e;
    }
    CHECK_MSG(emax / e0 - 1.0 < 1e-3 && 1.0 - emin / e0 < 1e-3, "energy range [%g, %g] of %g", emin, emax, e0);
    printf("  frictionless elastic gas of 150 spheres in a walled box, 10000 steps: energy within [%.2e, %.2e] of its start\n",
           emin / e0 - 1.0, emax / e0 - 1.0);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* Two spheres in contact with a loaded tangential spring, turned rigidly by a quarter turn
 * about an axis (the contact normal, or an axis normal to it): the tangential force must turn
 * with them, keeping its size (objectivity; Kuhn et al. 2020, §2.8, Hanley 2019, eqs 7-9). The motion is
 * imposed step by step through dem_contact_probe, as a rigid rotation cannot be free. */
static void test_rigid_rotation(int axis)
{
    dem_material m = material(2500, 1e8, 0.3, 10.0, 1.0);
    double r = 1e-3, d = 2 * r - 1e-6, rate = 50.0, dt = 1e-5;
    dem_vec3 u = axis == 0 ? dem_v3(1, 0, 0) : dem_v3(0, 0, 1), omega = dem_v3_scale(u, rate);
    dem_settings st;
    dem_settings_default(&st);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    for (int integ = 0; integ < 2; integ++) {
        st.integrator = integ ? DEM_INTEGRATOR_VV_IMPROVED : DEM_INTEGRATOR_VV;
        double hist[3] = {0, 2e-7, 0}, mass, inertia;
        dem_sphere_mass(r, m.density, &mass, &inertia);
        int sliding = 0, steps = (int)lround(M_PI / 2 / rate / dt);
        dem_vec3 fn, ft, ft0 = dem_v3_zero();
        for (int k = 0; k <= steps; k++) {
            /* positions at step k (angle k rate dt), velocities half a step earlier */
            double a1 = k * rate * dt, ah = (k - 0.5) * rate * dt;
            dem_vec3 x0 = dem_v3(-0.5 * d, 0, 0);
            dem_probe_state ps;
            #define ROT(v, ang) dem_v3_add(dem_v3_add(dem_v3_scale(v, cos(ang)), dem_v3_scale(dem_v3_cross(u, v), sin(ang))), dem_v3_scale(u, dem_v3_dot(u, v) * (1 - cos(ang))))
            ps.xi = ROT(x0, a1);
            ps.xj = dem_v3_neg(ps.xi);
            ps.vi = dem_v3_cross(omega, ROT(x0, ah));
            ps.vj = dem_v3_neg(ps.vi);
            ps.wi = ps.wj = omega;
            ps.ri = ps.rj = r;
            ps.mi = ps.mj = mass;
            CHECK(dem_contact_probe(&st, &m, &m, k ? dt : 0.0, &ps, hist, &sliding, &fn, &ft) == 1);
            if (k == 0) ft0 = ft;
        }
        double angle = steps * rate * dt;
        dem_vec3 expect = ROT(ft0, angle);
        #undef ROT
        double err_rel = dem_v3_norm(dem_v3_sub(ft, expect)) / dem_v3_norm(ft0);
        CHECK_MSG(err_rel < 1e-3 && !sliding, "axis %d integrator %d: ft error %g", axis, integ, err_rel);
        printf("  rigid quarter turn about %s (%s): tangential force off its rotated start by %.1e of its size\n",
               axis == 0 ? "the normal" : "an axis normal to the contact", integ ? "vv-improved" : "vv", err_rel);
    }
}

static int same_frames(const dem_system *a, const dem_system *b)
{
    if (a->nparticles != b->nparticles || a->ncontacts != b->ncontacts || a->step != b->step) return 0;
    for (size_t k = 0; k < a->nparticles; k++)
        if (memcmp(&a->particles[k], &b->particles[k], sizeof a->particles[k]) != 0) return 0;
    for (size_t k = 0; k < a->ncontacts; k++)
        if (memcmp(&a->contacts[k], &b->contacts[k], sizeof a->contacts[k]) != 0) return 0;
    return memcmp(a->energy, b->energy, sizeof a->energy) == 0 && a->time == b->time;
}

/* A settling, frictional, damped cloud under gravity in a box: the same bits for 1 and 2
 * threads, and for 2N steps against N + N through a stored frame. */
static void test_determinism(void)
{
    dem_system s, a, b, c;
    dem_error err;
    make_cloud(&s, 300, 0.015, 3);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    w.point = dem_v3(0, 0, -0.002);
    CHECK(dem_system_push_wall(&s, &w, &err) == DEM_OK);
    dem_settings st;
    dem_settings_default(&st);
    st.gravity = dem_v3(0, 0, -9.81);
    st.local_damping = 0.1;
    CHECK(dem_settings_write(&st, &s, &err) == DEM_OK);
    dem_system_init(&a);
    dem_system_init(&b);
    dem_system_init(&c);
    int n = 1500;
    double dt = 0;
    for (int threads = 1; threads <= 2; threads++) {
        dem_system *out = threads == 1 ? &a : &b;
        CHECK(dem_system_copy(out, &s, &err) == DEM_OK);
        dem_sim *sim = dem_sim_new(out, &st, threads, &err);
        dem_dt_estimates est;
        dem_sim_estimate_dt(sim, &est);
        dt = est.recommended;
        dem_sim_set_dt(sim, dt);
        for (int k = 0; k < 2 * n; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
        CHECK(dem_sim_store(sim, out, &err) == DEM_OK);
        dem_sim_free(sim);
    }
    CHECK_MSG(same_frames(&a, &b), "1 and 2 threads differ");
    /* N, store, read back through the codec, N more */
    CHECK(dem_system_copy(&c, &s, &err) == DEM_OK);
    dem_sim *sim = dem_sim_new(&c, &st, 1, &err);
    dem_sim_set_dt(sim, dt);
    for (int k = 0; k < n; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
    CHECK(dem_sim_store(sim, &c, &err) == DEM_OK);
    dem_sim_free(sim);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dem_writer *wr = dem_writer_new(f, 1, &err);
    CHECK(dem_writer_put(wr, &c, &err) == DEM_OK);
    dem_writer_free(wr);
    fclose(f);
    dem_reader *r = dem_reader_new_mem(buf, len, &err);
    dem_system d;
    dem_system_init(&d);
    CHECK(dem_reader_next(r, &d, &err) == 1);
    dem_reader_free(r);
    free(buf);
    dem_settings st2;
    CHECK(dem_settings_read(&st2, &d, &err) == DEM_OK);
    sim = dem_sim_new(&d, &st2, 2, &err);
    for (int k = 0; k < n; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
    CHECK(dem_sim_store(sim, &d, &err) == DEM_OK);
    dem_sim_free(sim);
    CHECK_MSG(same_frames(&a, &d), "2N steps and N + N steps differ");
    printf("  300 settling frictional spheres, %d steps: 1 vs 2 threads and 2N vs N+N (through the codec) bit-identical; %zu contacts\n",
           2 * n, a.ncontacts);
    dem_system_free(&s);
    dem_system_free(&a);
    dem_system_free(&b);
    dem_system_free(&c);
    dem_system_free(&d);
}

/* Spheres rolling down a tilted floor (gravity at 17 degrees, friction 0.5: rolling without
 * slip, the wall contact's tangential spring holds the friction force), none touching another:
 * each sphere's force is gravity plus its own wall contact, whatever the particles' order in
 * memory. So re-sorting the particles every 7 steps must give the same bits as never sorting;
 * it would not if a wall contact's history were lost, or given to another particle, when the
 * particles are renumbered. */
static const dem_particle *find_id(const dem_system *s, uint64_t id)
{
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].id == id) return &s->particles[k];
    return NULL;
}

static void test_wall_history_resort(void)
{
    dem_system s, out[2];
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(2500, 1e7, 0.25, 0.5, 0.5);
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    double r = 0.001;
    for (int k = 0; k < 24; k++) { /* lanes 2.05 mm apart, rolling up and down: they pass each other */
        int row = k % 4, col = k / 4;
        double speed = row % 2 ? -0.3 : 0.3;
        /* at the floor's static overlap (Hertz, E* = E / (2 (1 - nu^2))), already rolling */
        double estar = 1e7 / (2.0 * (1.0 - 0.25 * 0.25)), mass = 2500 * 4.0 / 3.0 * M_PI * r * r * r;
        double overlap = pow(mass * 9.81 * cos(17.0 * M_PI / 180.0) / (4.0 / 3.0 * estar * sqrt(r)), 2.0 / 3.0);
        dem_vec3 x = dem_v3(0.003 * col + 0.0004 * row, 0.00205 * row, r - overlap);
        add_sphere(&s, (uint64_t)(100 - k), r, x, dem_v3(speed, 0.0, 0.0));
        s.particles[s.nparticles - 1].omega = dem_v3(0.0, speed / (r - 0.5 * overlap), 0.0);
    }
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    CHECK(dem_system_push_wall(&s, &w, &err) == DEM_OK);
    double th = 17.0 * M_PI / 180.0, dt = 0;
    for (int v = 0; v < 2; v++) {
        dem_settings st;
        dem_settings_default(&st);
        st.gravity = dem_v3(9.81 * sin(th), 0.0, -9.81 * cos(th));
        st.sort_every = v ? 7 : 0;
        dem_system_init(&out[v]);
        CHECK(dem_system_copy(&out[v], &s, &err) == DEM_OK);
        dem_sim *sim = dem_sim_new(&out[v], &st, 1, &err);
        dem_dt_estimates est;
        dem_sim_estimate_dt(sim, &est);
        dt = est.recommended;
        dem_sim_set_dt(sim, dt);
        for (int k = 0; k < 3000; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
        CHECK(dem_sim_store(sim, &out[v], &err) == DEM_OK);
        dem_sim_free(sim);
    }
    int same = out[0].nparticles == s.nparticles && out[1].nparticles == s.nparticles, rolled = 1;
    for (size_t k = 0; k < s.nparticles && same; k++) {
        const dem_particle *a = find_id(&out[0], s.particles[k].id), *b = find_id(&out[1], s.particles[k].id);
        same = a && b && memcmp(&a->pos, &b->pos, sizeof a->pos) == 0 && memcmp(&a->vel, &b->vel, sizeof a->vel) == 0 &&
               memcmp(&a->omega, &b->omega, sizeof a->omega) == 0;
        /* rolling without slip: v = omega x r on the floor, a = 5/7 g sin th */
        if (a) {
            double acc = (a->vel.x - s.particles[k].vel.x) / (3000 * dt), slip = a->vel.x - a->omega.y * r;
            if (k == 0) printf("  rolling sphere: a = %.6g m/s^2 against 5/7 g sin th = %.6g, slip %.3g m/s of %.3g\n", acc,
                               5.0 / 7.0 * 9.81 * sin(th), slip, a->vel.x);
            rolled &= fabs(slip) < 1e-3 * fabs(a->vel.x) && fabs(acc / (5.0 / 7.0 * 9.81 * sin(th)) - 1.0) < 0.01;
        }
    }
    CHECK_MSG(same, "re-sorting every 7 steps changed the spheres' motion");
    CHECK_MSG(rolled, "the spheres do not roll without slipping at 5/7 g sin(theta)");
    printf("  24 spheres rolling on a wall in lanes that pass each other, 3000 steps: re-sorted every 7 steps = never, bit for bit\n");
    dem_system_free(&s);
    dem_system_free(&out[0]);
    dem_system_free(&out[1]);
}

/* dem_rotate_between carries a vector of the plane normal to n0 into the plane normal to n1 by
 * the smallest rotation: against Rodrigues' rotation about n0 x n1 by the angle between them, for
 * angles from 1e-6 rad to 2 rad (the contact plane's turn in one step is tiny; 2 rad checks the
 * formula, not a use). dem_rotate_rescale, the projection it replaces, is off at second order. */
static dem_vec3 unit_vec(double a, double b)
{
    return dem_v3(cos(a) * sin(b), sin(a) * sin(b), cos(b));
}

/* The frame a run writes with dem_sim_put (its contacts encoded from the store as the writer
 * goes, no frame-sized table) is the same bytes as dem_sim_store + dem_writer_put: the same
 * contacts in the same order (wall, i, j, s by id) with the same values. An fcc lattice slightly
 * squeezed between two walls in z, periodic in x and y (pairs through images, sphere-wall
 * contacts), ids in an order unrelated to the particles' (re-sorted every 7 steps), rolling and
 * twisting on (12 history slots). */
static char *frame_bytes(dem_sim *sim, dem_system *s, int streamed, size_t *len)
{
    dem_error err;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    dem_writer *w = dem_writer_new(f, 0, &err);
    int ok = streamed ? dem_sim_put(sim, s, w, &err) == DEM_OK
                      : dem_sim_store(sim, s, &err) == DEM_OK && dem_system_check(s, &err) == DEM_OK && dem_writer_put(w, s, &err) == DEM_OK;
    if (!ok) fprintf(stderr, "frame_bytes: %s\n", err.msg);
    dem_writer_free(w);
    fclose(f);
    return buf;
}

static void test_streamed_frame(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(2500, 1e7, 0.25, 0.5, 0.5);
    m.rolling_friction = 0.05;
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    dem_lattice l = {DEM_LATTICE_FCC, {4, 4, 3}, 5e-4, 1e-3, {0.0, 0.0, 0.0}};
    CHECK(dem_pack_lattice(&s, &l, 0, &err) == DEM_OK);
    dem_vec3 per = dem_lattice_period(&l);
    CHECK(dem_pack_set_cell(&s, dem_v3(0, 0, 0), dem_v3(per.x, per.y, per.z + 1e-3), DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B, &err) == DEM_OK);
    dem_pack_wrap_into_cell(&s);
    for (size_t k = 0; k < s.nparticles; k++) s.particles[k].id = (uint64_t)((k * 7919u) % 100003u) + 1u;
    CHECK(dem_pack_random_velocity(&s, 0.05, 11, &err) == DEM_OK);
    double zlo = INFINITY, zhi = -INFINITY; /* the outer layers' centres, after the wrap */
    for (size_t k = 0; k < s.nparticles; k++) {
        zlo = fmin(zlo, s.particles[k].pos.z);
        zhi = fmax(zhi, s.particles[k].pos.z);
    }
    for (int side = 0; side < 2; side++) { /* 1% of a radius into the outer layers */
        dem_wall w;
        memset(&w, 0, sizeof w);
        w.kind = DEM_WALL_PLANE;
        w.normal = dem_v3(0, 0, side ? -1 : 1);
        w.point = dem_v3(0, 0, side ? zhi + 5e-4 - 5e-6 : zlo - 5e-4 + 5e-6);
        CHECK(dem_system_push_wall(&s, &w, &err) == DEM_OK);
    }
    dem_settings st;
    dem_settings_default(&st);
    st.sort_every = 7;
    st.rolling = 1;
    st.twisting = 1;
    CHECK(dem_settings_write(&st, &s, &err) == DEM_OK);
    dem_system a, b;
    dem_system_init(&a);
    dem_system_init(&b);
    CHECK(dem_system_copy(&a, &s, &err) == DEM_OK);
    CHECK(dem_system_copy(&b, &s, &err) == DEM_OK);
    dem_sim *sim = dem_sim_new(&a, &st, 2, &err);
    CHECK(sim != NULL);
    if (!sim) return;
    dem_sim_set_dt(sim, 2e-6);
    int same = 1;
    size_t shifted = 0, walls = 0;
    for (int k = 0; k <= 300; k++) {
        if (k && dem_sim_step(sim, &err) != DEM_OK) { CHECK_MSG(0, "step %d: %s", k, err.msg); break; }
        if (k % 100) continue;
        size_t la = 0, lb = 0;
        char *fa = frame_bytes(sim, &a, 0, &la), *fb = frame_bytes(sim, &b, 1, &lb);
        same &= la == lb && la > 0 && memcmp(fa, fb, la) == 0;
        double ra = NAN, rb = NAN; /* the energy budget's reference, from the table and streamed */
        same &= dem_energy_reference(&a, &st, &ra, &err) == DEM_OK && dem_sim_energy_reference(sim, &b, &st, &rb, &err) == DEM_OK &&
                same_bits(ra, rb) && isfinite(ra);
        free(fa);
        free(fb);
        for (size_t c = 0; c < a.ncontacts; c++) {
            shifted += (a.contacts[c].shift[0] | a.contacts[c].shift[1] | a.contacts[c].shift[2]) != 0;
            walls += (a.contacts[c].flags & DEM_CONTACT_WALL) != 0;
        }
    }
    /* dem_sim_new_from (the frame's tables freed as the sim takes them) continues as dem_sim_new */
    dem_system c, d, e;
    dem_system_init(&c);
    dem_system_init(&d);
    dem_system_init(&e);
    CHECK(dem_sim_store(sim, &a, &err) == DEM_OK && dem_system_copy(&c, &a, &err) == DEM_OK && dem_system_copy(&d, &a, &err) == DEM_OK &&
          dem_system_copy(&e, &a, &err) == DEM_OK);
    dem_sim *s1 = dem_sim_new(&c, &st, 2, &err), *s2 = dem_sim_new_from(&d, &st, 2, &err);
    CHECK(s1 && s2);
    CHECK_MSG(d.particles == NULL && d.contacts == NULL && d.ncontacts == 0 && d.nparticles == c.nparticles && c.ncontacts > 0,
              "dem_sim_new_from kept the frame's tables (%p, %p) or lost its count", (void *)d.particles, (void *)d.contacts);
    int taken_same = s1 && s2;
    for (int k = 0; taken_same && k < 40; k++) {
        dem_sim_set_dt(s1, 2e-6);
        dem_sim_set_dt(s2, 2e-6);
        taken_same = dem_sim_step(s1, &err) == DEM_OK && dem_sim_step(s2, &err) == DEM_OK;
    }
    size_t l1 = 0, l2 = 0;
    char *f1 = taken_same ? frame_bytes(s1, &c, 1, &l1) : NULL, *f2 = taken_same ? frame_bytes(s2, &e, 1, &l2) : NULL;
    CHECK_MSG(taken_same && l1 == l2 && l1 > 0 && memcmp(f1, f2, l1) == 0, "40 steps from dem_sim_new_from differ from dem_sim_new's");
    free(f1);
    free(f2);
    dem_sim_free(s1);
    dem_sim_free(s2);
    dem_system_free(&c);
    dem_system_free(&d);
    dem_system_free(&e);
    dem_sim_free(sim);
    CHECK_MSG(same, "a frame (or its energy reference) from the store differs from one from the frame's table");
    CHECK_MSG(shifted > 0 && walls > 0 && a.hist_slots == 12, "the case has no contacts through images or with walls (%zu, %zu)", shifted, walls);
    CHECK_MSG(b.ncontacts == 0 && b.contacts == NULL, "dem_sim_put kept a contact table in the frame");
    printf("  %zu spheres, periodic in x and y, two walls, ids shuffled, re-sorted every 7 steps: frames and energy references "
           "streamed from the store = from the table, bit for bit (%zu contacts through images, %zu with walls, 12 slots); "
           "a sim taking the frame's tables (dem_sim_new_from) runs 40 steps to the same bytes\n",
           s.nparticles, shifted, walls);
    dem_system_free(&s);
    dem_system_free(&a);
    dem_system_free(&b);
}

/* dem_sim_new_from gives back the frame's tables' pages as it loads them (core/pages.h: a call a
 * megabyte, so only a frame of more than a megabyte of particles and of contacts is read that
 * way): a simple cubic block of 24 x 24 x 16 spheres pressed 0.1% into each other (9216
 * particles, 2 MB; 26 496 sheared contacts with histories, 6 MB), stored after 3 steps and
 * taken in, runs 5 more steps to the bytes of a sim that kept the table. A loader that gave back
 * a page before reading it would read zeros there. */
static void test_taken_large_frame(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(2500, 1e7, 0.25, 0.5, 0.5);
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    double r = 5e-4, gap = 2.0 * r * 0.999;
    uint64_t id = 1;
    for (int i = 0; i < 24; i++)
        for (int j = 0; j < 24; j++)
            for (int k = 0; k < 16; k++) /* a shear flow in x, so that every contact's spring is loaded */
                add_sphere(&s, id++, r, dem_v3(gap * i, gap * j, gap * k), dem_v3(0.01 * k, 0.0, 0.0));
    dem_settings st;
    dem_settings_default(&st);
    CHECK(dem_settings_write(&st, &s, &err) == DEM_OK);
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    CHECK(sim != NULL);
    if (!sim) { dem_system_free(&s); return; }
    dem_sim_set_dt(sim, 1e-6);
    int ok = 1;
    for (int k = 0; k < 3 && ok; k++) ok = dem_sim_step(sim, &err) == DEM_OK;
    dem_system kept, taken; /* the frame's header, materials and settings stay in taken */
    dem_system_init(&kept);
    dem_system_init(&taken);
    ok = ok && dem_sim_store(sim, &s, &err) == DEM_OK && dem_system_copy(&kept, &s, &err) == DEM_OK &&
         dem_system_copy(&taken, &s, &err) == DEM_OK;
    size_t np = kept.nparticles, nc = kept.ncontacts, big = np * sizeof *kept.particles, bigc = nc * sizeof *kept.contacts;
    CHECK_MSG(ok && big > (3u << 19) && bigc > (3u << 19), "the frame's tables (%zu, %zu bytes) are too small to be given back as read", big, bigc);
    dem_sim *a = ok ? dem_sim_new(&kept, &st, 1, &err) : NULL, *b = ok ? dem_sim_new_from(&taken, &st, 1, &err) : NULL;
    ok = a && b;
    for (int k = 0; k < 5 && ok; k++) {
        dem_sim_set_dt(a, 1e-6);
        dem_sim_set_dt(b, 1e-6);
        ok = dem_sim_step(a, &err) == DEM_OK && dem_sim_step(b, &err) == DEM_OK;
    }
    size_t la = 0, lb = 0;
    char *fa = ok ? frame_bytes(a, &kept, 1, &la) : NULL, *fb = ok ? frame_bytes(b, &taken, 1, &lb) : NULL;
    CHECK_MSG(ok && la == lb && la > 0 && memcmp(fa, fb, la) == 0, "a sim that took a %zu-contact frame in (its pages given back as read) "
              "differs from one that kept it", nc);
    printf("  %zu spheres, %zu sheared contacts (%.1f and %.1f MB of tables): a sim taking the frame in, its pages given back as read, "
           "runs 5 steps to the bytes of one that kept it\n", np, nc, big / 1048576.0, bigc / 1048576.0);
    free(fa);
    free(fb);
    dem_sim_free(a);
    dem_sim_free(b);
    dem_sim_free(sim);
    dem_system_free(&kept);
    dem_system_free(&taken);
    dem_system_free(&s);
}

/* The same for pair contacts: stacks of two spheres on a tilted floor, each stack's spheres
 * touching only each other and the lower one the floor, so each sum has one pair and at most one
 * wall contact in a fixed order, whatever the particles' order in memory. Re-sorting every 7
 * steps (each sort renumbers the particles, turns pairs round and rebuilds the list, carrying
 * every history in place) must give the same bits as never sorting, with the tangential springs
 * and the rolling and twisting springs loaded; it would not if a history were lost, or given to
 * another pair, in a rebuild. */
static void test_pair_history_resort(void)
{
    dem_system s, out[3];
    dem_error err;
    dem_system_init(&s);
    dem_material m = material(2500, 1e7, 0.25, 0.5, 0.5);
    m.rolling_friction = 0.02;
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    double r = 0.001;
    for (int k = 0; k < 40; k++) { /* 20 stacks, 3 mm apart, sliding and rolling along x */
        double x = 0.003 * (k / 2 % 5), y = 0.003 * (k / 10), z = k % 2 ? 3.0 * r - 9.4e-7 - 7.5e-7 : r - 9.4e-7; /* about the static overlaps */
        add_sphere(&s, (uint64_t)(1000 - 7 * k), r, dem_v3(x, y, z), dem_v3(k % 2 ? 0.02 : 0.0, k % 4 < 2 ? 0.01 : -0.01, 0.0));
    }
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    CHECK(dem_system_push_wall(&s, &w, &err) == DEM_OK);
    double th = 10.0 * M_PI / 180.0;
    for (int v = 0; v < 3; v++) {
        dem_settings st;
        dem_settings_default(&st);
        st.gravity = dem_v3(9.81 * sin(th), 0.0, -9.81 * cos(th));
        st.sort_every = v ? 7 : 0;
        st.rolling = 1;
        st.twisting = 1;
        dem_system_init(&out[v]);
        CHECK(dem_system_copy(&out[v], &s, &err) == DEM_OK);
        dem_sim *sim = dem_sim_new(&out[v], &st, v == 2 ? 2 : 1, &err);
        dem_sim_set_dt(sim, 2e-6);
        for (int k = 0; k < 2000; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
        CHECK(dem_sim_store(sim, &out[v], &err) == DEM_OK);
        dem_sim_free(sim);
    }
    int same = 1;
    size_t pairs = 0;
    for (size_t k = 0; k < s.nparticles; k++)
        for (int v = 1; v < 3; v++) {
            const dem_particle *a = find_id(&out[0], s.particles[k].id), *b = find_id(&out[v], s.particles[k].id);
            same &= a && b && memcmp(&a->pos, &b->pos, sizeof a->pos) == 0 && memcmp(&a->vel, &b->vel, sizeof a->vel) == 0 &&
                    memcmp(&a->omega, &b->omega, sizeof a->omega) == 0;
        }
    for (size_t c = 0; c < out[0].ncontacts; c++) pairs += !(out[0].contacts[c].flags & DEM_CONTACT_WALL);
    CHECK_MSG(same, "re-sorting every 7 steps changed the stacks' motion");
    CHECK_MSG(pairs == 20, "the stacks came apart: %zu pair contacts of 20", pairs);
    printf("  20 stacks of two spheres sliding down a floor, 2000 steps: re-sorted every 7 steps (1 and 2 threads) = never, bit for bit (%zu pair contacts)\n",
           pairs);
    for (int v = 0; v < 3; v++) dem_system_free(&out[v]);
    dem_system_free(&s);
}

static void test_rotate_between(void)
{
    double worst = 0.0, proj_small = 0.0;
    for (int k = 0; k < 400; k++) {
        dem_vec3 n0 = unit_vec(0.37 * k, 0.11 + 0.0071 * k);
        dem_vec3 ax = dem_v3_cross(n0, unit_vec(1.3 + 0.29 * k, 0.7 + 0.013 * k));
        ax = dem_v3_scale(ax, 1.0 / dem_v3_norm(ax));        /* an axis normal to n0 */
        double ang = 1e-6 * pow(2e6, (k % 20) / 19.0);       /* 1e-6 .. 2 rad */
        dem_vec3 a = dem_v3_cross(n0, unit_vec(0.5 * k, 2.0 + 0.003 * k));  /* a vector of the n0 plane */
        /* Rodrigues: R v = v cos + (ax x v) sin + ax (ax . v)(1 - cos) */
        double c = cos(ang), sn = sin(ang);
        dem_vec3 n1 = dem_v3_add(dem_v3_scale(n0, c), dem_v3_scale(dem_v3_cross(ax, n0), sn));
        dem_vec3 ra = dem_v3_add(dem_v3_add(dem_v3_scale(a, c), dem_v3_scale(dem_v3_cross(ax, a), sn)),
                                 dem_v3_scale(ax, dem_v3_dot(ax, a) * (1.0 - c)));
        dem_vec3 got = dem_rotate_between(a, n0, n1);
        double err = dem_v3_norm(dem_v3_sub(got, ra)) / dem_v3_norm(a);
        if (err > worst) worst = err;
        if (ang > 1e-4 && ang < 1e-2) {
            double e2 = dem_v3_norm(dem_v3_sub(dem_rotate_rescale(a, n1), ra)) / dem_v3_norm(a) / (ang * ang);
            if (e2 > proj_small) proj_small = e2;
        }
    }
    CHECK_MSG(worst < 1e-15, "rotate_between off Rodrigues by %g", worst);
    /* the projection's error is of second order: |error| / angle^2 of order 1 */
    printf("  rotate_between: %g off Rodrigues; projection: %g x angle^2\n", worst, proj_small);
    CHECK_MSG(proj_small > 0.05, "projection error / angle^2 = %g: no second-order error to remove?", proj_small);
}

int main(void)
{
    test_linear_collision();
    test_hertz_duration();
    test_restitution();
    test_momentum();
    test_gas_energy();
    test_rotate_between();
    test_rigid_rotation(0);
    test_rigid_rotation(1);
    test_determinism();
    test_wall_history_resort();
    test_streamed_frame();
    test_pair_history_resort();
    test_taken_large_frame();
    UNIT_DONE();
}
