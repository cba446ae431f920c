/* test_rigid.c - lib/core/rigid.c: mass properties of clumps of spheres (exact for members apart,
 * the grid for overlapping ones), the principal frame's conventions, the omega <-> momentum
 * conversion and the torque-free drift (reversibility, the unit quaternion, the energy). The
 * verification against analytic solutions is test_rigid_verify.c. */
#include <math.h>

#include "core/rigid.h"
#include "unit.h"

static int close_rel(double a, double b, double tol) { return fabs(a - b) <= tol * fmax(fabs(a), fabs(b)); }

static int vclose(dem_vec3 a, dem_vec3 b, double tol)
{
    return fabs(a.x - b.x) <= tol && fabs(a.y - b.y) <= tol && fabs(a.z - b.z) <= tol;
}

static void test_errors(void)
{
    dem_rigid_props p;
    dem_error err;
    dem_rigid_member one = {{0, 0, 0}, 1.0};
    CHECK(dem_rigid_props_of(&one, 0, 1000.0, 40, &p, &err) == DEM_ERR_ARG);
    CHECK(dem_rigid_props_of(&one, 1, 0.0, 40, &p, &err) == DEM_ERR_ARG);
    CHECK(dem_rigid_props_of(&one, 1, NAN, 40, &p, &err) == DEM_ERR_ARG);
    dem_rigid_member bad[2] = {{{0, 0, 0}, 1.0}, {{1, 0, 0}, -1.0}};
    CHECK(dem_rigid_props_of(bad, 2, 1000.0, 40, &p, &err) == DEM_ERR_ARG);
    CHECK_MSG(strstr(err.msg, "member 2") != NULL, "message names the member: %s", err.msg);
    bad[1].r = 1.0, bad[1].x.y = INFINITY;
    CHECK(dem_rigid_props_of(bad, 2, 1000.0, 40, &p, &err) == DEM_ERR_ARG);
    /* overlapping members need a grid within the limits; members apart do not use it */
    dem_rigid_member dimer[2] = {{{0, 0, 0}, 1.0}, {{1, 0, 0}, 1.0}};
    CHECK(dem_rigid_props_of(dimer, 2, 1000.0, 4, &p, &err) == DEM_ERR_ARG);
    CHECK_MSG(strstr(err.msg, "grid") != NULL, "%s", err.msg);
    CHECK(dem_rigid_props_of(dimer, 2, 1000.0, DEM_RIGID_GRID_MAX + 1, &p, &err) == DEM_ERR_ARG);
    dimer[1].x.x = 2.0; /* touching: apart, exact */
    CHECK(dem_rigid_props_of(dimer, 2, 1000.0, 0, &p, &err) == DEM_OK && p.inertia_err == 0.0);
}

/* Members apart: the parallel-axes sums, exact. */
static void test_exact(void)
{
    dem_rigid_props p;
    dem_error err;
    const double rho = 2500.0, r = 0.01;
    dem_rigid_member one = {{0.3, -0.2, 0.1}, r};
    CHECK(dem_rigid_props_of(&one, 1, rho, 40, &p, &err) == DEM_OK);
    double m = rho * 4.0 / 3.0 * M_PI * r * r * r;
    CHECK(close_rel(p.mass, m, 1e-15) && p.inertia_err == 0.0);
    CHECK(vclose(p.centroid, one.x, 1e-17));
    CHECK(close_rel(p.inertia.x, 0.4 * m * r * r, 1e-15) && close_rel(p.inertia.z, 0.4 * m * r * r, 1e-15));
    CHECK(p.q.w == 1.0 && p.q.x == 0.0 && p.q.y == 0.0 && p.q.z == 0.0);

    /* two unequal spheres apart along z: centroid, moments by hand, the long axis is the body x */
    dem_rigid_member two[2] = {{{0, 0, 0}, 1.0}, {{0, 0, 3.0}, 0.5}};
    CHECK(dem_rigid_props_of(two, 2, 1.0, 40, &p, &err) == DEM_OK);
    double v1 = 4.0 / 3.0 * M_PI, v2 = v1 / 8.0, zc = 3.0 * v2 / (v1 + v2);
    double axial = 0.4 * (v1 + v2 * 0.25), trans = axial + v1 * zc * zc + v2 * (3.0 - zc) * (3.0 - zc);
    CHECK(close_rel(p.volume, v1 + v2, 1e-15) && close_rel(p.centroid.z, zc, 1e-15));
    CHECK(close_rel(p.inertia.x, axial, 1e-14) && close_rel(p.inertia.y, trans, 1e-14) && close_rel(p.inertia.z, trans, 1e-14));
    /* the body x axis is the template's z: R e_x = e_z, right-handed, q canonical (w > 0) */
    CHECK(vclose(dem_rigid_rotate(p.q, dem_v3(1, 0, 0)), dem_v3(0, 0, 1), 1e-15));
    CHECK(vclose(dem_rigid_rotate(p.q, dem_v3(0, 1, 0)), dem_v3(1, 0, 0), 1e-15));
    CHECK(p.q.w > 0.0);
    dem_rigid_member body[2] = {two[0], two[1]};
    dem_rigid_to_body(&p, body, 2);
    CHECK(vclose(body[0].x, dem_v3(-zc, 0, 0), 1e-15) && vclose(body[1].x, dem_v3(3.0 - zc, 0, 0), 1e-15));
    CHECK(body[0].r == 1.0 && body[1].r == 0.5);
}

/* An asymmetric template turned by a known rotation: the same moments, the principal axes turned
 * with it, and the same bits every time (the convention fixes order and signs). */
static void test_principal_frame(void)
{
    dem_rigid_member t[4] = {{{0, 0, 0}, 1.0}, {{2.5, 0, 0}, 0.8}, {{0, 3.1, 0}, 0.6}, {{0, 0, 4.0}, 0.7}};
    dem_rigid_props p, p2, pr;
    dem_error err;
    CHECK(dem_rigid_props_of(t, 4, 1000.0, 40, &p, &err) == DEM_OK);
    CHECK(dem_rigid_props_of(t, 4, 1000.0, 40, &p2, &err) == DEM_OK);
    CHECK(memcmp(&p, &p2, sizeof p) == 0);
    CHECK(p.inertia.x < p.inertia.y && p.inertia.y < p.inertia.z);
    CHECK(fabs(dem_quat_norm(p.q) - 1.0) < 1e-15);
    /* the tensor rebuilt from the principal frame: R diag(I) R^T e_i . e_j against the direct sum */
    dem_quat turn = {cos(0.35), sin(0.35) * 0.48, sin(0.35) * 0.6, sin(0.35) * 0.64};
    dem_rigid_member tr[4];
    for (int k = 0; k < 4; k++) tr[k] = (dem_rigid_member){dem_rigid_rotate(turn, t[k].x), t[k].r};
    CHECK(dem_rigid_props_of(tr, 4, 1000.0, 40, &pr, &err) == DEM_OK);
    CHECK(close_rel(pr.inertia.x, p.inertia.x, 1e-13) && close_rel(pr.inertia.y, p.inertia.y, 1e-13) &&
          close_rel(pr.inertia.z, p.inertia.z, 1e-13));
    for (int i = 0; i < 3; i++) {
        dem_vec3 e = dem_v3(i == 0, i == 1, i == 2);
        dem_vec3 want = dem_rigid_rotate(turn, dem_rigid_rotate(p.q, e)), got = dem_rigid_rotate(pr.q, e);
        /* an axis is defined up to its sign: compare |cos| */
        CHECK_MSG(fabs(fabs(dem_v3_dot(want, got)) - 1.0) < 1e-12, "axis %d turned: cos %.17g", i, dem_v3_dot(want, got));
    }
    /* the members in the body frame: centroid 0, diagonal second moments */
    dem_rigid_to_body(&p, t, 4);
    double v[4], sx = 0, sxy = 0, syz = 0, sv = 0;
    for (int k = 0; k < 4; k++) {
        v[k] = t[k].r * t[k].r * t[k].r;
        sv += v[k], sx += v[k] * t[k].x.x, sxy += v[k] * t[k].x.x * t[k].x.y, syz += v[k] * t[k].x.y * t[k].x.z;
    }
    CHECK(fabs(sx / sv) < 1e-14 && fabs(sxy / sv) < 1e-13 && fabs(syz / sv) < 1e-13);
}

/* Overlapping members: the grid, its error estimate, and the limit of members apart. */
static void test_grid(void)
{
    dem_rigid_member d[2] = {{{0, 0, 0}, 1.0}, {{1.0, 0, 0}, 1.0}};
    dem_rigid_props p, q;
    dem_error err;
    CHECK(dem_rigid_props_of(d, 2, 1.0, 80, &p, &err) == DEM_OK);
    CHECK(p.inertia_err > 0.0 && p.inertia_err < 1e-2);
    CHECK(close_rel(p.centroid.x, 0.5, 1e-12) && fabs(p.centroid.y) < 1e-14 && fabs(p.centroid.z) < 1e-14);
    /* the symmetric dimer keeps the template's axes exactly (rounding noise of the sums dropped) */
    CHECK(p.q.w == 1.0 && p.q.x == 0.0 && p.q.y == 0.0 && p.q.z == 0.0);
    CHECK(p.inertia.y == p.inertia.z);
    CHECK(dem_rigid_props_of(d, 2, 1.0, 80, &q, &err) == DEM_OK && memcmp(&p, &q, sizeof p) == 0);
    /* barely overlapping: the grid agrees with the exact sum of the spheres within its estimate */
    d[1].x.x = 2.0 - 1e-9;
    CHECK(dem_rigid_props_of(d, 2, 1.0, 160, &p, &err) == DEM_OK);
    d[1].x.x = 2.0;
    CHECK(dem_rigid_props_of(d, 2, 1.0, 160, &q, &err) == DEM_OK && q.inertia_err == 0.0);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(close_rel(dem_v3_get(p.inertia, i), dem_v3_get(q.inertia, i), 3.0 * p.inertia_err),
                  "moment %d: grid %.9g exact %.9g (estimate %.2g)", i, dem_v3_get(p.inertia, i), dem_v3_get(q.inertia, i),
                  p.inertia_err);
}

static void test_conversions(void)
{
    dem_quat q = {cos(0.4), sin(0.4) * 0.6, 0.0, sin(0.4) * 0.8};
    dem_vec3 I = dem_v3(1.0, 2.0, 3.5), w = dem_v3(0.3, -1.2, 2.0);
    dem_vec3 L = dem_rigid_momentum(q, I, w), w2 = dem_rigid_omega(q, I, L);
    CHECK(vclose(w2, w, 1e-15));
    CHECK(close_rel(dem_rigid_kinetic(q, I, L), 0.5 * dem_v3_dot(L, w), 1e-14));
    /* in the body frame L = I w componentwise */
    dem_vec3 lb = dem_rigid_unrotate(q, L), wb = dem_rigid_unrotate(q, w);
    CHECK(close_rel(lb.x, I.x * wb.x, 1e-14) && close_rel(lb.y, I.y * wb.y, 1e-14) && close_rel(lb.z, I.z * wb.z, 1e-14));
    CHECK(vclose(dem_rigid_unrotate(q, dem_rigid_rotate(q, w)), w, 1e-15));
}

/* The drift: a pure function of its arguments, |q| = 1, reversible with -h, exact about a
 * principal axis, and the energy held. */
static void test_drift(void)
{
    dem_vec3 I = dem_v3(1.0, 2.0, 3.0);
    dem_quat q0 = {cos(0.2), sin(0.2) * 0.36, sin(0.2) * 0.48, sin(0.2) * 0.8};
    dem_vec3 L = dem_rigid_momentum(q0, I, dem_rigid_rotate(q0, dem_v3(0.1, 2.0, 0.2)));
    dem_quat q = q0, qb = q0;
    double e0 = dem_rigid_kinetic(q0, I, L), emax = 0.0;
    for (int k = 0; k < 1000; k++) {
        dem_rigid_drift(&q, I, L, 1e-3);
        dem_rigid_drift(&qb, I, L, 1e-3);
        emax = fmax(emax, fabs(dem_rigid_kinetic(q, I, L) - e0) / e0);
    }
    CHECK(memcmp(&q, &qb, sizeof q) == 0);
    CHECK(fabs(dem_quat_norm(q) - 1.0) < 1e-15);
    CHECK_MSG(emax < 1e-6, "energy error %.3g over 1000 steps", emax);
    for (int k = 0; k < 1000; k++) dem_rigid_drift(&q, I, L, -1e-3);
    CHECK_MSG(fabs(q.w - q0.w) < 1e-12 && fabs(q.x - q0.x) < 1e-12 && fabs(q.y - q0.y) < 1e-12 && fabs(q.z - q0.z) < 1e-12,
              "reversed: %.17g %.17g %.17g %.17g", q.w, q.x, q.y, q.z);
    /* spin about a principal axis: a steady rotation at w = L / I_3, exact */
    dem_vec3 Lz = dem_v3(0, 0, 6.0);
    q = dem_quat_identity();
    for (int k = 0; k < 100; k++) dem_rigid_drift(&q, I, Lz, 1e-2);
    double angle = 2.0 * atan2(q.z, q.w);
    CHECK_MSG(close_rel(angle, 2.0, 1e-13) && q.x == 0.0 && q.y == 0.0, "angle %.17g", angle);
    /* zero momentum: no motion at all */
    q = q0;
    dem_rigid_drift(&q, I, dem_v3_zero(), 1e-3);
    CHECK(fabs(q.w - q0.w) < 1e-16 && fabs(q.z - q0.z) < 1e-16);
}

int main(void)
{
    test_errors();
    test_exact();
    test_principal_frame();
    test_grid();
    test_conversions();
    test_drift();
    UNIT_DONE();
}
