/* test_stress.c - lib/stress.c against hand computations: the Jacobi eigen solver on matrices of
 * known spectrum (random rotations, repeated eigenvalues, extreme scales), stress invariants, the
 * Love-Weber sign convention on a squeezed pair, its periodic image and walls, the identity
 * sum Vp sigma_p = V sigma on a random frame, control volumes, the kinetic stress of a gas, a
 * hydrostatic lattice, and wall loads. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "unit.h"

/* ---- a small deterministic generator (tests only) ---- */
static uint64_t rng_state = 88172645463325252ull;
static double urand(void) /* [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static dem_mat3 mat_mul(dem_mat3 a, dem_mat3 b)
{
    dem_mat3 c = dem_m3_zero();
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            for (int q = 0; q < 3; q++) c.m[r][k] += a.m[r][q] * b.m[q][k];
    return c;
}

static dem_mat3 transpose(dem_mat3 a)
{
    dem_mat3 t;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) t.m[r][c] = a.m[c][r];
    return t;
}

/* A random rotation from a random unit quaternion. */
static dem_mat3 random_rotation(void)
{
    double w = urand() - 0.5, x = urand() - 0.5, y = urand() - 0.5, z = urand() - 0.5;
    double n = sqrt(w * w + x * x + y * y + z * z);
    w /= n, x /= n, y /= n, z /= n;
    dem_mat3 r = {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                   {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                   {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
    return r;
}

/* Largest error of the decomposition of a (eigenvalues ev, vectors v) relative to scale. */
static double eigen_error(dem_mat3 a, const double ev[3], dem_mat3 v, double scale)
{
    double worst = 0.0;
    for (int k = 0; k < 3; k++) {
        dem_vec3 x = dem_m3_col(v, k);
        dem_vec3 r = dem_v3_sub(dem_m3_mulv(a, x), dem_v3_scale(x, ev[k]));
        worst = fmax(worst, dem_v3_norm(r) / scale);
    }
    dem_mat3 vtv = mat_mul(transpose(v), v);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(vtv.m[r][c] - (r == c)));
    return worst;
}

static void test_eigen_known_spectra(void)
{
    const double sets[][3] = {{3, 2, 1},   {1, 1, 1},      {5, 5, -2},  {-1, -1, 7}, {0, 0, 0},
                              {1e-9, 0, -1e-9}, {4, 4 + 1e-12, 4}, {1e6, 1, 1e-6}, {-3, -7, -5}};
    double worst_val = 0.0, worst_vec = 0.0;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
        for (int trial = 0; trial < 200; trial++) {
            dem_mat3 r = random_rotation();
            dem_mat3 a = mat_mul(mat_mul(r, dem_m3_diag(sets[s][0], sets[s][1], sets[s][2])), transpose(r));
            a = dem_m3_sym(a);
            double ev[3], want[3] = {sets[s][0], sets[s][1], sets[s][2]};
            for (int i = 0; i < 3; i++) /* sort descending */
                for (int j = i + 1; j < 3; j++)
                    if (want[j] > want[i]) { double t = want[i]; want[i] = want[j]; want[j] = t; }
            dem_mat3 v;
            dem_sym3_eigen(a, ev, &v);
            double scale = fmax(fmax(fabs(want[0]), fabs(want[2])), DBL_MIN);
            for (int k = 0; k < 3; k++) worst_val = fmax(worst_val, fabs(ev[k] - want[k]) / scale);
            CHECK(ev[0] >= ev[1] && ev[1] >= ev[2]);
            worst_vec = fmax(worst_vec, eigen_error(a, ev, v, scale));
            CHECK(dem_m3_det(v) > 0.0);
        }
    CHECK_MSG(worst_val < 1e-14, "eigenvalues off by %.3g of the largest", worst_val);
    CHECK_MSG(worst_vec < 1e-14, "A v - l v or V^T V - I off by %.3g", worst_vec);
    printf("  Jacobi eigen solver, 1800 rotated spectra (repeated, mixed-sign, 1e12 spread): eigenvalues to %.1e, vectors to %.1e\n",
           worst_val, worst_vec);
}

static void test_eigen_special(void)
{
    double ev[3];
    dem_mat3 v;
    /* diagonal, already sorted or not: exact */
    dem_sym3_eigen(dem_m3_diag(2, 7, -1), ev, &v);
    CHECK(ev[0] == 7 && ev[1] == 2 && ev[2] == -1);
    CHECK(v.m[1][0] == 1 && v.m[0][1] * v.m[0][1] == 1 && v.m[2][2] * v.m[2][2] == 1);
    /* extreme scales: no overflow or underflow in the rotations */
    const double scales[] = {1e-300, 1e300, DBL_MIN, 1e-320};
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        double s = scales[k];
        dem_mat3 a = {{{2 * s, s, 0}, {s, 2 * s, 0}, {0, 0, 5 * s}}}; /* eigenvalues 5s, 3s, s */
        dem_sym3_eigen(a, ev, NULL);
        double tol = s < DBL_MIN ? 1e-3 : 1e-14; /* subnormals carry few digits */
        CHECK_MSG(fabs(ev[0] / s - 5) < tol && fabs(ev[1] / s - 3) < tol && fabs(ev[2] / s - 1) < tol,
                  "scale %g: %g %g %g", s, ev[0] / s, ev[1] / s, ev[2] / s);
    }
    /* a non-symmetric input: its symmetric part is used */
    dem_mat3 a = {{{1, 2, 0}, {0, 1, 0}, {0, 0, 0}}}; /* sym: [[1,1,0],[1,1,0],[0,0,0]] -> 2, 0, 0 */
    dem_sym3_eigen(a, ev, NULL);
    CHECK(fabs(ev[0] - 2) < 1e-15 && fabs(ev[1]) < 1e-15 && fabs(ev[2]) < 1e-15);
    /* non-finite: nan, no hang */
    a.m[0][1] = NAN;
    dem_sym3_eigen(a, ev, &v);
    CHECK(isnan(ev[0]) && isnan(ev[1]) && isnan(ev[2]));
    a.m[0][1] = INFINITY;
    dem_sym3_eigen(a, ev, NULL);
    CHECK(isnan(ev[0]));
}

static void test_invariants(void)
{
    dem_stress_invariants inv;
    /* axisymmetric (triaxial) state: q = s1 - s3 */
    dem_mat3 r = random_rotation();
    dem_mat3 s = mat_mul(mat_mul(r, dem_m3_diag(300, 100, 100)), transpose(r));
    dem_stress_invariants_of(s, &inv);
    CHECK(fabs(inv.p - 500.0 / 3.0) < 1e-12);
    CHECK_MSG(fabs(inv.q - 200.0) < 1e-11, "q %.17g", inv.q);
    CHECK(fabs(inv.s1 - 300) < 1e-12 && fabs(inv.s2 - 100) < 1e-12 && fabs(inv.s3 - 100) < 1e-12);
    /* hydrostatic: q = 0 exactly; pure shear tau: q = sqrt(3) tau, p = 0 */
    dem_stress_invariants_of(dem_m3_diag(7, 7, 7), &inv);
    CHECK(inv.q == 0.0 && inv.p == 7.0 && inv.s1 == 7.0 && inv.s3 == 7.0);
    dem_mat3 shear = {{{0, 5, 0}, {5, 0, 0}, {0, 0, 0}}};
    dem_stress_invariants_of(shear, &inv);
    CHECK(inv.p == 0.0 && fabs(inv.q - 5 * sqrt(3.0)) < 1e-14 && fabs(inv.s1 - 5) < 1e-15 && fabs(inv.s3 + 5) < 1e-15);
    CHECK(dem_stress_q(shear) == inv.q && dem_stress_p(shear) == 0.0);
}

/* ---- hand-made frames ---- */
static void add_particle(dem_system *s, uint64_t id, dem_vec3 x, double r)
{
    dem_error err;
    dem_particle p = dem_particle_default();
    p.id = id;
    p.pos = x;
    p.radius = r;
    dem_sphere_mass(r, 2500, &p.mass, &p.inertia);
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
}

/* A contact record between i and j (or wall j) with normal n, overlap delta, forces on i. */
static void add_contact(dem_system *s, uint64_t i, uint64_t j, int wall, dem_vec3 n, double delta, dem_vec3 fn,
                        dem_vec3 ft, int sx, int sy, int sz)
{
    dem_error err;
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = i;
    c.j = j;
    c.flags = wall ? DEM_CONTACT_WALL : 0;
    c.normal = n;
    c.overlap = delta;
    c.fn = fn;
    c.ft = ft;
    c.shift[0] = sx;
    c.shift[1] = sy;
    c.shift[2] = sz;
    CHECK(dem_system_push_contact(s, &c, &err) == DEM_OK);
}

static void periodic_cell(dem_system *s, double l)
{
    s->cell.flags = 7;
    s->cell.h = dem_m3_diag(l, l, l);
}

static void add_plane(dem_system *s, dem_vec3 p, dem_vec3 n)
{
    dem_error err;
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.point = p;
    w.normal = n;
    CHECK(dem_system_push_wall(s, &w, &err) == DEM_OK);
}

static int stress_of(const dem_system *s, const dem_aabb *box, int kinetic, dem_stress *out)
{
    dem_id_index ix;
    dem_error err;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, s, &err) == DEM_OK);
    int rc = dem_stress_assembly(s, &ix, box, kinetic, out, &err);
    dem_id_index_free(&ix);
    return rc;
}

/* Two spheres pressed together along x: compression is positive, sxx = F d / V. */
static void test_pair_sign(void)
{
    dem_system s;
    dem_system_init(&s);
    CHECK(dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
    periodic_cell(&s, 0.01);
    double r = 0.001, delta = 1e-5, d = 2 * r - delta, f = 0.3;
    add_particle(&s, 1, dem_v3(0.005 + d, 0.005, 0.005), r); /* i on the +x side */
    add_particle(&s, 2, dem_v3(0.005, 0.005, 0.005), r);
    /* n from j to i = +x; the force on i pushes it away from j: +x */
    add_contact(&s, 1, 2, 0, dem_v3(1, 0, 0), delta, dem_v3(f, 0, 0), dem_v3_zero(), 0, 0, 0);
    dem_stress st;
    CHECK(stress_of(&s, NULL, 0, &st) == DEM_OK);
    double v = 1e-6;
    CHECK(st.source == DEM_VOLUME_CELL && fabs(st.volume - v) < 1e-21);
    CHECK_MSG(fabs(st.sigma.m[0][0] - f * d / v) < 1e-9 * f * d / v, "sxx %.17g vs %.17g", st.sigma.m[0][0], f * d / v);
    CHECK(st.sigma.m[0][0] > 0.0 && st.sigma.m[1][1] == 0.0 && st.sigma.m[2][2] == 0.0);
    CHECK(st.contacts == 1 && st.particles == 2 && st.coordination == 1.0);

    /* The same pair across the periodic face: i at x = 0.0005, j's image at x_j - L. */
    dem_system t;
    dem_system_init(&t);
    CHECK(dem_system_copy(&t, &s, NULL) == DEM_OK);
    t.particles[0].pos.x = 0.0005;
    t.particles[1].pos.x = 0.0005 - d + 0.01;
    t.contacts[0].shift[0] = -1;
    dem_stress st2;
    CHECK(stress_of(&t, NULL, 0, &st2) == DEM_OK);
    CHECK_MSG(fabs(st2.sigma.m[0][0] - st.sigma.m[0][0]) < 1e-9 * st.sigma.m[0][0], "image: %.17g vs %.17g",
              st2.sigma.m[0][0], st.sigma.m[0][0]);

    /* A tangential force makes l (x) f unsymmetric: the symmetric part is reported. */
    s.contacts[0].ft = dem_v3(0, 0.1, 0);
    CHECK(stress_of(&s, NULL, 0, &st) == DEM_OK);
    CHECK(fabs(st.sigma.m[0][1] - 0.5 * d * 0.1 / v) < 1e-9 && st.sigma.m[0][1] == st.sigma.m[1][0]);
    dem_system_free(&s);
    dem_system_free(&t);
}

/* One sphere squeezed between a floor and a lid inside six walls: szz = 2 (r - delta/2) F / V,
 * and the particle's own stress carries the same, times V / Vp. */
static void test_walls(void)
{
    dem_system s;
    dem_system_init(&s);
    CHECK(dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
    double r = 0.001, delta = 2e-6, f = 0.05, h = 2 * r - 2 * delta;
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(1, 0, 0));
    add_plane(&s, dem_v3(0.004, 0, 0), dem_v3(-1, 0, 0));
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(0, 1, 0));
    add_plane(&s, dem_v3(0, 0.004, 0), dem_v3(0, -1, 0));
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(0, 0, 1));
    add_plane(&s, dem_v3(0, 0, h), dem_v3(0, 0, -1));
    add_particle(&s, 9, dem_v3(0.002, 0.002, r - delta), r);
    add_contact(&s, 9, 4, 1, dem_v3(0, 0, 1), delta, dem_v3(0, 0, f), dem_v3_zero(), 0, 0, 0);
    add_contact(&s, 9, 5, 1, dem_v3(0, 0, -1), delta, dem_v3(0, 0, -f), dem_v3_zero(), 0, 0, 0);
    s.walls[4].force = dem_v3(0, 0, -f);
    s.walls[5].force = dem_v3(0, 0, f);
    dem_stress st;
    CHECK(stress_of(&s, NULL, 0, &st) == DEM_OK);
    double v = 0.004 * 0.004 * h, want = 2 * (r - delta / 2) * f / v;
    CHECK(st.source == DEM_VOLUME_WALLS && fabs(st.volume - v) < 1e-12 * v);
    CHECK_MSG(fabs(st.sigma.m[2][2] - want) < 1e-12 * want, "szz %.17g vs %.17g", st.sigma.m[2][2], want);
    CHECK(st.wall_contacts == 2 && st.contacts == 0 && st.coordination == 0.0);

    dem_id_index ix;
    dem_error err;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, &s, &err) == DEM_OK);
    dem_mat3 sig[1];
    CHECK(dem_stress_particles(&s, &ix, sig, &err) == DEM_OK);
    double vp = dem_sphere_volume(r);
    CHECK_MSG(fabs(sig[0].m[2][2] * vp - want * v) < 1e-12 * want * v, "particle %.17g", sig[0].m[2][2]);
    dem_id_index_free(&ix);

    /* the wall loads: force as recorded, pressure compression positive on the lid and floor */
    dem_wall_load load[6];
    dem_wall_loads(&s, load);
    double area = 0.004 * 0.004;
    CHECK(fabs(load[5].pressure - f / area) < 1e-9 && fabs(load[4].pressure - f / area) < 1e-9);
    CHECK(load[5].area == area && load[0].pressure == 0.0);
    /* a wall outside the box, or a cylinder, has no area */
    add_plane(&s, dem_v3(0, 0, -1), dem_v3(0, 0, 1));
    dem_wall cyl;
    memset(&cyl, 0, sizeof cyl);
    cyl.kind = DEM_WALL_CYLINDER;
    cyl.normal = dem_v3(0, 0, 1);
    cyl.radius = 0.1;
    CHECK(dem_system_push_wall(&s, &cyl, NULL) == DEM_OK);
    dem_wall_load load8[8];
    dem_wall_loads(&s, load8);
    CHECK(isnan(load8[6].area) && isnan(load8[6].pressure) && isnan(load8[7].pressure));
    CHECK(load8[5].pressure == load[5].pressure);
    dem_system_free(&s);
}

/* A random frame: particles in a periodic cell with walls, random contacts with random normal and
 * tangential forces (equilibrium is not needed for the identity), some across images. */
static void random_frame(dem_system *s)
{
    dem_system_init(s);
    CHECK(dem_system_push_material(s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
    periodic_cell(s, 0.02);
    s->cell.flags = 3; /* periodic in x and y, walls in z */
    add_plane(s, dem_v3(0, 0, 0), dem_v3(0, 0, 1));
    add_plane(s, dem_v3(0, 0, 0.02), dem_v3(0, 0, -1));
    for (uint64_t k = 1; k <= 60; k++)
        add_particle(s, k * 7, dem_v3(0.02 * urand(), 0.02 * urand(), 0.02 * urand()), 0.0008 + 0.0004 * urand());
    for (int c = 0; c < 200; c++) {
        uint64_t i = 7 * (1 + (uint64_t)(60 * urand())), j = 7 * (1 + (uint64_t)(60 * urand()));
        int wall = c % 10 == 0;
        if (!wall && i == j) continue;
        dem_vec3 n = dem_v3(urand() - 0.5, urand() - 0.5, urand() - 0.5);
        n = dem_v3_scale(n, 1.0 / dem_v3_norm(n));
        dem_vec3 ft = dem_v3_cross(n, dem_v3(urand(), urand(), urand()));
        add_contact(s, i, wall ? (uint64_t)(c / 10 % 2) : j, wall, n, 1e-5 * urand(), dem_v3_scale(n, urand()), ft,
                    wall ? 0 : (int)(3 * urand()) - 1, wall ? 0 : (int)(3 * urand()) - 1, 0);
    }
}

static void test_particle_sum(void)
{
    dem_system s;
    random_frame(&s);
    dem_id_index ix;
    dem_error err;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, &s, &err) == DEM_OK);
    dem_stress st;
    CHECK(dem_stress_assembly(&s, &ix, NULL, 0, &st, &err) == DEM_OK);
    dem_mat3 *sig = malloc(s.nparticles * sizeof *sig);
    CHECK(dem_stress_particles(&s, &ix, sig, &err) == DEM_OK);
    dem_mat3 sum = dem_m3_zero();
    for (size_t k = 0; k < s.nparticles; k++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum.m[r][c] += dem_sphere_volume(s.particles[k].radius) * sig[k].m[r][c];
    double worst = 0.0, scale = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            scale = fmax(scale, fabs(st.sigma.m[r][c] * st.volume));
            worst = fmax(worst, fabs(sum.m[r][c] - st.sigma.m[r][c] * st.volume));
        }
    CHECK_MSG(worst < 1e-13 * scale, "sum Vp sigma_p - V sigma = %.3g of %.3g", worst, scale);
    printf("  random frame (60 particles, 200 contacts, images, walls): |sum Vp sigma_p - V sigma| = %.1e of |V sigma|\n",
           worst / scale);

    /* --box: only the contacts whose contact point lies in it */
    dem_aabb box = {dem_v3(0, 0, 0), dem_v3(0.01, 0.02, 0.02)};
    dem_stress sb;
    CHECK(dem_stress_assembly(&s, &ix, &box, 0, &sb, &err) == DEM_OK);
    dem_mat3 want = dem_m3_zero();
    size_t pp = 0;
    for (size_t k = 0; k < s.ncontacts; k++) {
        const dem_contact *c = &s.contacts[k];
        const dem_particle *pi = &s.particles[dem_id_index_find(&ix, c->i)];
        if (!dem_aabb_contains(box, dem_contact_point(pi, c))) continue;
        dem_vec3 f = dem_v3_add(c->fn, c->ft), l;
        if (c->flags & DEM_CONTACT_WALL) {
            l = dem_v3_scale(c->normal, pi->radius - 0.5 * c->overlap);
        } else {
            l = dem_v3_sub(pi->pos, dem_contact_partner_pos(&s, &ix, c));
            pp += c->overlap > 0.0;
        }
        double lv[3] = {l.x, l.y, l.z}, fv[3] = {f.x, f.y, f.z};
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++) want.m[r][q] += 0.5 * (lv[r] * fv[q] + lv[q] * fv[r]) / dem_aabb_volume(box);
    }
    double wb = 0.0;
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 3; q++) wb = fmax(wb, fabs(want.m[r][q] - sb.sigma.m[r][q]));
    CHECK_MSG(wb < 1e-12 * fabs(sb.sigma.m[0][0]) + 1e-300, "box: %.3g", wb);
    CHECK(sb.source == DEM_VOLUME_BOX && sb.volume == dem_aabb_volume(box) && sb.contacts == pp);
    CHECK(sb.particles < s.nparticles && sb.particles > 0);
    free(sig);
    dem_id_index_free(&ix);
    dem_system_free(&s);
}

/* A simple cubic lattice in its periodic cell, every bond carrying the same force: three equal
 * principal stresses p = N d F / V, q = 0. */
static void test_hydrostatic(void)
{
    dem_system s;
    dem_system_init(&s);
    CHECK(dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
    int n = 3;
    double d = 0.002, f = 1.25;
    periodic_cell(&s, n * d);
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int z = 0; z < n; z++)
                add_particle(&s, (uint64_t)(1 + x + n * y + n * n * z), dem_v3((x + 0.5) * d, (y + 0.5) * d, (z + 0.5) * d), 0.5 * d + 1e-6);
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int z = 0; z < n; z++) {
                uint64_t id = (uint64_t)(1 + x + n * y + n * n * z);
                int c[3] = {x, y, z};
                for (int a = 0; a < 3; a++) { /* bond to the +a neighbour, i = the neighbour */
                    int q[3] = {x, y, z}, sh[3] = {0, 0, 0};
                    q[a] = (c[a] + 1) % n;
                    uint64_t jd = (uint64_t)(1 + q[0] + n * q[1] + n * n * q[2]);
                    if (c[a] + 1 == n) sh[a] = 1; /* i wrapped to the low face: j seen through its image at -L */
                    dem_vec3 nn = dem_v3(a == 0, a == 1, a == 2);
                    add_contact(&s, jd, id, 0, nn, 2e-6, dem_v3_scale(nn, f), dem_v3_zero(), -sh[0], -sh[1], -sh[2]);
                }
            }
    dem_stress st;
    CHECK(stress_of(&s, NULL, 0, &st) == DEM_OK);
    dem_stress_invariants inv;
    dem_stress_invariants_of(st.sigma, &inv);
    double want = n * n * n * d * f / st.volume;
    CHECK_MSG(fabs(inv.s1 - want) < 1e-12 * want && fabs(inv.s3 - want) < 1e-12 * want, "s1 %.17g s3 %.17g want %.17g",
              inv.s1, inv.s3, want);
    CHECK(inv.q < 1e-12 * want && fabs(inv.p - want) < 1e-12 * want);
    CHECK(st.coordination == 6.0);
    dem_system_free(&s);
}

/* Free particles: the kinetic stress is the momentum flux of the fluctuations. */
static void test_kinetic(void)
{
    dem_system s;
    dem_system_init(&s);
    CHECK(dem_system_push_material(&s, &(dem_material){"m", 2500, 1e7, 0.25, 0.5, 0.9, 0, 0, 0}, NULL) == DEM_OK);
    periodic_cell(&s, 0.05);
    double ek = 0.0, mass = 0.0;
    dem_vec3 mom = dem_v3_zero();
    for (uint64_t k = 1; k <= 40; k++) {
        add_particle(&s, k, dem_v3(0.05 * urand(), 0.05 * urand(), 0.05 * urand()), 0.001 * (1 + urand()));
        dem_particle *p = &s.particles[s.nparticles - 1];
        p->vel = dem_v3(urand() - 0.5 + 3.0, urand() - 0.5, urand() - 0.5); /* a mean flow of 3 m/s along x */
        mass += p->mass;
        mom = dem_v3_madd(mom, p->vel, p->mass);
    }
    dem_vec3 mean = dem_v3_scale(mom, 1.0 / mass);
    for (size_t k = 0; k < s.nparticles; k++)
        ek += 0.5 * s.particles[k].mass * dem_v3_norm2(dem_v3_sub(s.particles[k].vel, mean));
    dem_stress st;
    CHECK(stress_of(&s, NULL, 1, &st) == DEM_OK);
    double p = dem_stress_p(st.sigma), want = 2.0 / 3.0 * ek / st.volume;
    CHECK_MSG(fabs(p - want) < 1e-12 * want, "gas p %.17g vs 2/3 E'/V %.17g", p, want);
    CHECK(st.sigma.m[0][0] == st.sigma_kinetic.m[0][0]);
    CHECK(stress_of(&s, NULL, 0, &st) == DEM_OK && st.sigma.m[0][0] == 0.0);
    dem_system_free(&s);
}

static void test_no_volume(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    add_particle(&s, 1, dem_v3(0, 0, 0), 0.001);
    dem_id_index ix;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, &s, &err) == DEM_OK);
    dem_stress st;
    CHECK(dem_stress_assembly(&s, &ix, NULL, 0, &st, &err) == DEM_ERR_VALUE && strstr(err.msg, "no volume"));
    dem_aabb box = {dem_v3(-1, -1, -1), dem_v3(1, 1, 1)};
    CHECK(dem_stress_assembly(&s, &ix, &box, 0, &st, &err) == DEM_OK && st.sigma.m[0][0] == 0.0 && st.particles == 1);
    /* without particles: coordination nan */
    box.lo = dem_v3(0.5, 0.5, 0.5);
    CHECK(dem_stress_assembly(&s, &ix, &box, 1, &st, &err) == DEM_OK && isnan(st.coordination) && st.particles == 0);
    dem_id_index_free(&ix);
    dem_system_free(&s);
}

int main(void)
{
    test_eigen_known_spectra();
    test_eigen_special();
    test_invariants();
    test_pair_sign();
    test_walls();
    test_particle_sum();
    test_hydrostatic();
    test_kinetic();
    test_no_volume();
    UNIT_DONE();
}
