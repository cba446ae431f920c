/* test_reverse.c - reversed-time DEM (Hanley 2019, §3) and the exact fixed-point mode: the reversal
 * returns a two-particle collision to its start within round-off, and bit for bit in exact mode;
 * the reversed step is the forward step of the velocity-reversed state, bit for bit; a chaotic
 * gas with walls (one moving) or in a periodic cell returns bit for bit in exact mode whatever
 * the thread count and however the run is split; values that would leave the lattice are errors;
 * irreversible settings are named. */
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "unit.h"

static dem_material material(double density, double young, double poisson)
{
    dem_material m = dem_material_default();
    m.density = density;
    m.young = young;
    m.poisson = poisson;
    m.friction = 0.0;
    m.restitution = 1.0;
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

static void frictionless(dem_settings *st, int normal)
{
    dem_settings_default(st);
    st->normal = normal;
    st->tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    st->damping = dem_model_find(DEM_MODEL_DAMPING, "none");
}

static const dem_particle *by_id(const dem_system *s, uint64_t id)
{
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].id == id) return &s->particles[k];
    return NULL;
}

/* Run sim from s for n steps in direction dir (exact quantum q, 0: floating point) on `threads`
 * threads; the result replaces s. */
static dem_status run(dem_system *s, const dem_settings *st, double dt, int dir, double q, int threads, long n, dem_error *err)
{
    dem_sim *sim = dem_sim_new(s, st, threads, err);
    if (!sim) return DEM_ERR_VALUE;
    dem_sim_set_dt(sim, dt);
    dem_sim_set_direction(sim, dir);
    dem_status rc = DEM_OK;
    if (q > 0.0) rc = dem_sim_set_exact(sim, q, err);
    for (long k = 0; k < n && !rc; k++) rc = dem_sim_step(sim, err);
    if (!rc) rc = dem_sim_store(sim, s, err);
    dem_sim_free(sim);
    return rc;
}

/* The largest difference of positions (over scale_x) and velocities (over scale_v) between the
 * particles of a and b matched by id; -1 if a particle is missing. */
static double state_error(const dem_system *a, const dem_system *b, double scale_x, double scale_v)
{
    double e = 0.0;
    for (size_t k = 0; k < a->nparticles; k++) {
        const dem_particle *p = &a->particles[k], *q = by_id(b, p->id);
        if (!q) return -1.0;
        e = fmax(e, dem_v3_norm(dem_v3_sub(p->pos, q->pos)) / scale_x);
        e = fmax(e, dem_v3_norm(dem_v3_sub(p->vel, q->vel)) / scale_v);
    }
    return e;
}

/* Positions, velocities and forces of every particle (matched by id), wall points and the time:
 * the same bits. */
static int same_state(const dem_system *a, const dem_system *b)
{
    if (a->nparticles != b->nparticles || a->nwalls != b->nwalls || !same_bits(a->time, b->time)) return 0;
    for (size_t k = 0; k < a->nparticles; k++) {
        const dem_particle *p = &a->particles[k], *q = by_id(b, p->id);
        if (!q || memcmp(&p->pos, &q->pos, sizeof p->pos) || memcmp(&p->vel, &q->vel, sizeof p->vel) ||
            memcmp(&p->force, &q->force, sizeof p->force) || memcmp(p->image, q->image, sizeof p->image))
            return 0;
    }
    for (size_t k = 0; k < a->nwalls; k++)
        if (memcmp(&a->walls[k].point, &b->walls[k].point, sizeof a->walls[k].point)) return 0;
    return 1;
}

/* dst (initialised) becomes a copy of src */
static void copy_system(dem_system *dst, const dem_system *src)
{
    dem_error err;
    dem_system_free(dst);
    CHECK(dem_system_copy(dst, src, &err) == DEM_OK);
}

/* Hanley §3.2.1: d = 1 cm, rho = 1000 kg/m^3, G = 2 MPa, nu = 0.2, dt = 100 ns, 15 000 steps. */
static void two_particles(dem_system *s)
{
    dem_error err;
    dem_system_init(s);
    dem_material m = material(1000, 4.8e6, 0.2);
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    add_sphere(s, 1, 0.005, dem_v3(0, 0, 0), dem_v3(0.9, 0.1, 0));
    add_sphere(s, 2, 0.005, dem_v3(0.0101, 0, 0), dem_v3(0, 0, 0.1));
}

static void test_two_particle_collision(void)
{
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HERTZ);
    dem_system s0, s;
    dem_error err;
    dem_system_init(&s);
    two_particles(&s0);
    copy_system(&s, &s0);
    CHECK(run(&s, &st, 1e-7, 1, 0.0, 1, 15000, &err) == DEM_OK);
    double moved = state_error(&s0, &s, 0.01, 0.9);
    CHECK_MSG(moved > 0.05, "the spheres did not collide (change %g)", moved);
    CHECK(run(&s, &st, 1e-7, -1, 0.0, 1, 15000, &err) == DEM_OK);
    double e = state_error(&s0, &s, 0.01, 0.9);
    CHECK_MSG(e >= 0.0 && e < 1e-12, "floating-point reversal error %g", e);
    CHECK_MSG(fabs(s.time) < 1e-15, "time %g s after reversal", s.time);
    CHECK(s.step == 30000);

    /* exact: the snapped start, forward, back: the same bits */
    dem_system snap;
    dem_system_init(&snap);
    copy_system(&s, &s0);
    double q = dem_exact_quantum(&s);
    CHECK(run(&s, &st, 1e-7, 1, q, 1, 0, &err) == DEM_OK);
    copy_system(&snap, &s);
    CHECK(run(&s, &st, 1e-7, 1, q, 1, 15000, &err) == DEM_OK);
    double lattice = state_error(&snap, &s, 0.01, 0.9);
    dem_system fwd;
    dem_system_init(&fwd);
    copy_system(&fwd, &s0);
    run(&fwd, &st, 1e-7, 1, 0.0, 1, 15000, &err);
    double vs_float = state_error(&fwd, &s, 0.01, 0.9);
    CHECK_MSG(vs_float < 1e-6, "the exact run ends %g from the floating-point one", vs_float);
    CHECK(run(&s, &st, 1e-7, -1, 0.0 + q, 2, 15000, &err) == DEM_OK);
    CHECK_MSG(same_state(&snap, &s), "exact reversal of the two-particle collision is not bit-exact");
    CHECK(lattice > 0.05);
    printf("  two-particle collision (Hanley §3.2.1), 15000 steps and back: floating point %.1e of d and |v|; "
           "exact: bit for bit (quantum 2^%d m; its run ends %.1e from the floating-point run)\n",
           e, ilogb(q), vs_float);
    dem_system_free(&s0);
    dem_system_free(&s);
    dem_system_free(&snap);
    dem_system_free(&fwd);
}

/* A gas of n spheres in a box of side L; walls on the faces (the lower one moving at vw), or a
 * periodic cell. No spin: exact mode needs it. */
static void make_gas(dem_system *s, int n, double L, int periodic, double vw, uint64_t seed)
{
    dem_error err;
    dem_system_init(s);
    dem_material m = material(2500, 1e8, 0.3);
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    dem_rng rng;
    dem_rng_seed(&rng, seed);
    int k = 0;
    while (k < n) {
        double r = 1e-3 * (0.7 + 0.6 * dem_rng_uniform(&rng));
        dem_vec3 x = dem_v3(r + (L - 2 * r) * dem_rng_uniform(&rng), r + (L - 2 * r) * dem_rng_uniform(&rng),
                            r + (L - 2 * r) * dem_rng_uniform(&rng));
        int ok = 1;
        for (size_t j = 0; j < s->nparticles && ok; j++)
            if (dem_v3_norm(dem_v3_sub(x, s->particles[j].pos)) < r + s->particles[j].radius) ok = 0;
        if (!ok) continue;
        dem_vec3 v = dem_v3(dem_rng_normal(&rng), dem_rng_normal(&rng), dem_rng_normal(&rng));
        add_sphere(s, (uint64_t)k + 1, r, x, dem_v3_scale(v, 0.5));
        k++;
    }
    if (periodic) {
        s->cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
        s->cell.origin = dem_v3_zero();
        memset(&s->cell.h, 0, sizeof s->cell.h);
        for (int a = 0; a < 3; a++) s->cell.h.m[a][a] = L;
        return;
    }
    const dem_vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int w = 0; w < 6; w++) {
        dem_wall wl;
        memset(&wl, 0, sizeof wl);
        wl.kind = DEM_WALL_PLANE;
        wl.normal = normals[w];
        wl.point = dem_v3(w == 1 ? L : 0.0, w == 3 ? L : 0.0, w == 5 ? L : 0.0);
        if (w == 4) wl.vel = dem_v3(0, 0, vw);
        CHECK(dem_system_push_wall(s, &wl, &err) == DEM_OK);
    }
}

static void test_exact_gas(int periodic)
{
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HERTZ);
    st.gravity = periodic ? dem_v3_zero() : dem_v3(0, 0, -9.81);
    st.sort_every = 500; /* several re-sorts of the particles on the way out and back */
    dem_system s0, a, b, c;
    dem_error err;
    dem_system_init(&a);
    dem_system_init(&b);
    dem_system_init(&c);
    make_gas(&s0, 150, 0.012, periodic, 0.02, 11);
    double q = dem_exact_quantum(&s0), dt = 2e-6;
    long n = 3000;
    copy_system(&a, &s0);
    CHECK(run(&a, &st, dt, 1, q, 1, 0, &err) == DEM_OK); /* the snapped start */
    copy_system(&s0, &a);
    /* forward: one go on 1 thread, against two halves through a frame on 2 threads */
    CHECK(run(&a, &st, dt, 1, q, 1, n, &err) == DEM_OK);
    copy_system(&b, &s0);
    CHECK(run(&b, &st, dt, 1, q, 2, n / 2, &err) == DEM_OK);
    CHECK(run(&b, &st, dt, 1, q, 2, n - n / 2, &err) == DEM_OK);
    CHECK_MSG(same_state(&a, &b), "exact forward: 1 thread in one go differs from 2 threads in two halves");
    size_t contacts = a.ncontacts;
    double moved = state_error(&s0, &a, 2e-3, 0.5);
    /* back on 2 threads */
    copy_system(&c, &a);
    CHECK(run(&c, &st, dt, -1, q, 2, n, &err) == DEM_OK);
    CHECK_MSG(same_state(&s0, &c), "exact reversal of the %s gas is not bit-exact", periodic ? "periodic" : "walled");
    /* the same in floating point drifts away */
    dem_system f;
    dem_system_init(&f);
    copy_system(&f, &s0);
    run(&f, &st, dt, 1, 0.0, 1, n, &err);
    run(&f, &st, dt, -1, 0.0, 1, n, &err);
    double ferr = state_error(&s0, &f, 2e-3, 0.5);
    CHECK(moved > 0.5);
    printf("  %s gas of 150 spheres, %ld steps out (%zu contacts at the end) and back: exact bit for bit on 1 and 2 threads; "
           "floating point %.1e of d and |v|\n", periodic ? "periodic" : "walled (a moving wall, gravity)", n, contacts, ferr);
    dem_system_free(&s0);
    dem_system_free(&a);
    dem_system_free(&b);
    dem_system_free(&c);
    dem_system_free(&f);
}

/* Eqs 17-20 are the forward step of the state with reversed velocities (and walls), bit for bit. */
static void test_reverse_is_mirror(void)
{
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HOOKE);
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 2e3;
    st.gravity = dem_v3(0, 0, -9.81);
    dem_system s0, a, b;
    dem_error err;
    dem_system_init(&a);
    dem_system_init(&b);
    make_gas(&s0, 60, 0.01, 0, 0.01, 5);
    copy_system(&a, &s0);
    CHECK(run(&a, &st, 1e-6, -1, 0.0, 1, 2000, &err) == DEM_OK);
    copy_system(&b, &s0);
    for (size_t k = 0; k < b.nparticles; k++) b.particles[k].vel = dem_v3_neg(b.particles[k].vel);
    for (size_t k = 0; k < b.nwalls; k++) b.walls[k].vel = dem_v3_neg(b.walls[k].vel);
    CHECK(run(&b, &st, 1e-6, 1, 0.0, 1, 2000, &err) == DEM_OK);
    int same = a.nparticles == b.nparticles;
    for (size_t k = 0; k < a.nparticles && same; k++) {
        const dem_particle *p = &a.particles[k], *r = by_id(&b, p->id);
        dem_vec3 vr = dem_v3_neg(r->vel);
        same = !memcmp(&p->pos, &r->pos, sizeof p->pos) && !memcmp(&p->vel, &vr, sizeof vr);
    }
    CHECK_MSG(same, "the reversed run is not the mirrored forward run bit for bit");
    CHECK(same_bits(a.time, -b.time));
    dem_system_free(&s0);
    dem_system_free(&a);
    dem_system_free(&b);
}

/* Drag (Hanley 2019, eqs 25-28): a falling sphere, damped, then undamped back to its start. */
static void test_drag(void)
{
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HERTZ);
    st.gravity = dem_v3(0, 0, -9.81);
    st.drag = 0.999;
    dem_system s0, s;
    dem_error err;
    dem_system_init(&s);
    dem_system_init(&s0);
    dem_material m = material(1000, 4.8e6, 0.2);
    CHECK(dem_system_push_material(&s0, &m, &err) == DEM_OK);
    add_sphere(&s0, 1, 0.005, dem_v3(0, 0, 0), dem_v3(0.1, 0, 0.2));
    copy_system(&s, &s0);
    run(&s, &st, 1e-4, 1, 0.0, 1, 1000, &err);
    double vz = s.particles[0].vel.z;
    CHECK_MSG(vz < -0.4 && vz > -0.981, "not on its way to the terminal velocity g dt / (1 - gamma_d) = -0.981 m/s: %g", vz);
    run(&s, &st, 1e-4, -1, 0.0, 1, 1000, &err);
    double e = state_error(&s0, &s, 0.01, 0.2);
    CHECK_MSG(e < 1e-10, "drag reversal error %g", e);
    printf("  drag 0.999, 1000 steps of free fall out and back: %.1e of d and |v0|\n", e);
    /* exact mode refuses drag: the lattice map v -> 0.999 v is not one to one */
    dem_sim *sim = dem_sim_new(&s0, &st, 1, &err);
    dem_sim_set_dt(sim, 1e-4);
    CHECK(dem_sim_set_exact(sim, 0x1p-50, &err) == DEM_ERR_VALUE && strstr(err.msg, "drag"));
    dem_sim_free(sim);
    dem_system_free(&s0);
    dem_system_free(&s);
}

static void test_exact_limits(void)
{
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HERTZ);
    dem_system s;
    dem_error err;
    two_particles(&s);
    /* a quantum too fine for the system: 2^53 quanta of 2^-70 m are 7.6e-6 m */
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    dem_sim_set_dt(sim, 1e-7);
    CHECK(dem_sim_set_exact(sim, 0x1p-70, &err) == DEM_ERR_LIMIT && strstr(err.msg, "particle 2") && strstr(err.msg, "range"));
    CHECK(dem_sim_set_exact(sim, 3e-17, &err) == DEM_ERR_VALUE && strstr(err.msg, "power of two"));
    dem_sim_free(sim);
    /* a particle flying out of the range: |x| < 2^53 2^-60 m = 7.8 mm */
    s.particles[0].pos = dem_v3(-0.0075, 0, 0);
    s.particles[1].pos = dem_v3(0.0075, 0, 0);
    s.particles[1].vel = dem_v3(1.0, 0, 0);
    sim = dem_sim_new(&s, &st, 1, &err);
    dem_sim_set_dt(sim, 1e-5);
    CHECK(dem_sim_set_exact(sim, 0x1p-60, &err) == DEM_OK);
    dem_status rc = DEM_OK;
    for (int k = 0; k < 1000 && !rc; k++) rc = dem_sim_step(sim, &err);
    /* it crosses 7.8125 mm in step 32 (after 31.25 steps of 10 um) */
    CHECK_MSG(rc == DEM_ERR_LIMIT && strstr(err.msg, "step 32: the position of particle 2") && strstr(err.msg, "|x| < 0.0078125 m"), "%s", err.msg);
    dem_sim_free(sim);
    /* what the lattice cannot carry */
    s.particles[0].omega = dem_v3(1, 0, 0);
    sim = dem_sim_new(&s, &st, 1, &err);
    dem_sim_set_dt(sim, 1e-7);
    CHECK(dem_sim_set_exact(sim, 0x1p-50, &err) == DEM_ERR_VALUE && strstr(err.msg, "spins"));
    dem_sim_free(sim);
    s.particles[0].omega = dem_v3_zero();
    dem_settings hist = st;
    hist.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "history");
    sim = dem_sim_new(&s, &hist, 1, &err);
    dem_sim_set_dt(sim, 1e-7);
    CHECK(dem_sim_set_exact(sim, 0x1p-50, &err) == DEM_ERR_VALUE && strstr(err.msg, "torques"));
    dem_sim_free(sim);
    dem_system_free(&s);
}

static void test_irreversibilities(void)
{
    dem_system s;
    two_particles(&s);
    char buf[2048];
    dem_settings st;
    frictionless(&st, DEM_NORMAL_HERTZ);
    st.drag = 0.9;
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 0 && buf[0] == 0);
    dem_settings_default(&st); /* hertz + history + restitution; the material: mu 0, e 1 */
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 1 && strstr(buf, "tangential springs"));
    s.materials[0].friction = 0.5;
    s.materials[0].restitution = 0.8;
    st.local_damping = 0.1;
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 4 && strstr(buf, "Coulomb friction") &&
          strstr(buf, "restitution (down to 0.8)") && strstr(buf, "local damping"));
    frictionless(&st, DEM_NORMAL_HOOKE);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "viscous");
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 0); /* gamma 0: no dashpot */
    st.gamma_n = 1.0;
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 1 && strstr(buf, "viscous"));
    s.cell.flags = 7;
    s.cell.stress_mask = 1;
    CHECK(dem_irreversibilities(&st, &s, buf, sizeof buf) == 2 && strstr(buf, "stress-controlled"));
    CHECK(dem_irreversibilities(&st, &s, buf, 16) == 2 && strlen(buf) < 16); /* cut, still counted */
    dem_system_free(&s);
}

int main(void)
{
    test_two_particle_collision();
    test_reverse_is_mirror();
    test_exact_gas(0);
    test_exact_gas(1);
    test_drag();
    test_exact_limits();
    test_irreversibilities();
    UNIT_DONE();
}
