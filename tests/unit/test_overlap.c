/* test_overlap.c - the volume of a sphere inside a half-space, a slab and a box
 * (lib/analysis/overlap_volume.c) against closed forms, partitions and Monte Carlo. */
#include <math.h>
#include <stdint.h>

#include "analysis/overlap_volume.h"
#include "core/rng.h"
#include "unit.h"

static double whole(double r) { return 4.0 / 3.0 * M_PI * r * r * r; }
static int rel_close(double a, double b, double tol) { return fabs(a - b) <= tol * fabs(b); }

static void test_whole_and_nothing(void)
{
    dem_vec3 c = dem_v3(0.3, -0.2, 1.5);
    double r = 0.7;
    CHECK(dem_sphere_box_volume(c, r, dem_v3(-1, -1, 0), dem_v3(1, 1, 3)) == whole(r));
    CHECK(dem_sphere_box_volume(c, r, dem_v3(1.0, -1, 0), dem_v3(2, 1, 3)) == 0.0);  /* beyond x = 1.0 */
    CHECK(dem_sphere_box_volume(c, r, dem_v3(-1, -1, 2.2), dem_v3(1, 1, 3)) == 0.0); /* touching from above */
    CHECK(dem_sphere_slab_volume(c, r, 2, 0.0, 3.0) == whole(r));
    CHECK(dem_sphere_slab_volume(c, r, 2, 2.5, 3.0) == 0.0);
    CHECK(dem_sphere_below_volume(c, r, 0, 1.0) == whole(r));
    CHECK(dem_sphere_below_volume(c, r, 0, -0.4) == 0.0);
}

/* A plane at height h above the bottom of the sphere leaves the cap pi h^2 (3r - h) / 3 below. */
static void test_caps(void)
{
    double r = 2.0;
    dem_vec3 c = dem_v3(0, 0, 0); /* so that the planes -r + h carry h exactly (Sterbenz) */
    const double hs[] = {1e-6, 1e-3, 0.1, 0.5, 1.0, 1.9, 2.0, 2.7, 3.999};
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) {
        double h = (-r + hs[k]) + r, cap = M_PI * h * h * (3.0 * r - h) / 3.0;
        CHECK_MSG(rel_close(dem_sphere_below_volume(c, r, 2, c.z - r + h), cap, 1e-13), "h %g", h);
        /* the same cap as a box whose other faces are far: along each axis */
        CHECK_MSG(rel_close(dem_sphere_box_volume(c, r, dem_v3(-9, -9, -9), dem_v3(9, 9, c.z - r + h)), cap, 1e-13), "z h %g", h);
        CHECK_MSG(rel_close(dem_sphere_box_volume(c, r, dem_v3(c.x + r - h, -9, -9), dem_v3(9, 9, 9)), cap, 1e-13), "x h %g", h);
        /* a slab that cuts off the cap from each end */
        CHECK_MSG(rel_close(dem_sphere_slab_volume(c, r, 1, c.y - r + h, c.y + r - h), whole(r) - 2.0 * cap, 1e-13) ||
                      h > r, "slab h %g", h);
    }
}

/* Centred on a face: 1/2; on an edge: 1/4; on a corner: 1/8 (these need the quadrature). */
static void test_face_edge_corner(void)
{
    double r = 0.37;
    dem_vec3 c = dem_v3(0.5, 0.25, -0.125);
    double w = whole(r);
    CHECK(rel_close(dem_sphere_box_volume(c, r, dem_v3(0.5, -9, -9), dem_v3(9, 9, 9)), w / 2.0, 1e-14));
    CHECK(rel_close(dem_sphere_box_volume(c, r, dem_v3(-9, -9, -0.125), dem_v3(9, 9, 9)), w / 2.0, 1e-14));
    for (int ax = 0; ax < 3; ax++) { /* edge along each axis */
        dem_vec3 lo = dem_v3(-9, -9, -9), hi = c;
        if (ax == 0) { lo.x = -9; hi.x = 9; }
        if (ax == 1) { lo.y = -9; hi.y = 9; }
        if (ax == 2) { lo.z = -9; hi.z = 9; }
        CHECK_MSG(rel_close(dem_sphere_box_volume(c, r, lo, hi), w / 4.0, 1e-13), "edge %d: %.17g", ax,
                  dem_sphere_box_volume(c, r, lo, hi) / w);
    }
    for (int oct = 0; oct < 8; oct++) { /* each corner */
        dem_vec3 lo = c, hi = c;
        if (oct & 1) hi.x = 9; else lo.x = -9;
        if (oct & 2) hi.y = 9; else lo.y = -9;
        if (oct & 4) hi.z = 9; else lo.z = -9;
        CHECK_MSG(rel_close(dem_sphere_box_volume(c, r, lo, hi), w / 8.0, 1e-13), "corner %d: %.17g", oct,
                  dem_sphere_box_volume(c, r, lo, hi) / w);
    }
    /* a quarter disc and a disc in a rectangle, closed form */
    CHECK(rel_close(dem_disc_rect_area(2.0, 0, 5, 0, 5), M_PI, 1e-15));
    CHECK(rel_close(dem_disc_rect_area(2.0, -5, 5, -5, 5), 4.0 * M_PI, 1e-15));
    CHECK(rel_close(dem_disc_rect_area(1.0, -0.5, 0.5, -0.5, 0.5), 1.0, 1e-15)); /* the square inside */
}

/* The volumes in the boxes of a grid that covers the sphere sum to the whole sphere. */
static void test_partition(void)
{
    dem_rng rng;
    dem_rng_seed(&rng, 20);
    double worst = 0.0;
    for (int trial = 0; trial < 200; trial++) {
        double r = 0.5 + dem_rng_uniform(&rng);
        dem_vec3 c = dem_v3(dem_rng_uniform(&rng), dem_rng_uniform(&rng), dem_rng_uniform(&rng));
        /* 3 to 6 cells per axis: two outer faces beyond the sphere, random cuts inside it */
        double cuts[3][7];
        int n[3];
        for (int a = 0; a < 3; a++) {
            double x = dem_v3_get(c, a);
            n[a] = 3 + (int)(dem_rng_uniform(&rng) * 4.0);
            cuts[a][0] = x - r - 0.1;
            cuts[a][n[a]] = x + r + 0.1;
            for (int k = 1; k < n[a]; k++) cuts[a][k] = x - r + 2.0 * r * dem_rng_uniform(&rng);
            for (int i = 1; i < n[a]; i++) /* sort */
                for (int k = i; k > 1 && cuts[a][k] < cuts[a][k - 1]; k--) {
                    double t = cuts[a][k];
                    cuts[a][k] = cuts[a][k - 1];
                    cuts[a][k - 1] = t;
                }
        }
        double sum = 0.0;
        for (int i = 0; i < n[0]; i++)
            for (int j = 0; j < n[1]; j++)
                for (int k = 0; k < n[2]; k++)
                    sum += dem_sphere_box_volume(c, r, dem_v3(cuts[0][i], cuts[1][j], cuts[2][k]),
                                                 dem_v3(cuts[0][i + 1], cuts[1][j + 1], cuts[2][k + 1]));
        double e = fabs(sum - whole(r)) / whole(r);
        if (e > worst) worst = e;
    }
    CHECK_MSG(worst < 1e-12, "partition: worst relative error %g", worst);
    /* the 27 boxes of a 3x3x3 grid with the sphere in the middle box's corner region */
    dem_vec3 c = dem_v3(0.1, 0.2, 0.3);
    double g[4] = {-2, 0.0, 0.45, 2}, sum = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                sum += dem_sphere_box_volume(c, 0.4, dem_v3(g[i], g[j], g[k]), dem_v3(g[i + 1], g[j + 1], g[k + 1]));
    CHECK_MSG(fabs(sum - whole(0.4)) <= 1e-12 * whole(0.4), "27 boxes: %.17g vs %.17g", sum, whole(0.4));
}

/* Random boxes against Monte Carlo: points uniform in the sphere's bounding cube, the fraction
 * inside both; the tolerance 5 standard deviations of the binomial count. */
static void test_monte_carlo(void)
{
    dem_rng rng;
    dem_rng_seed(&rng, 7);
    const int n = 200000;
    for (int trial = 0; trial < 12; trial++) {
        double r = 1.0;
        dem_vec3 lo, hi;
        double q[6];
        for (int k = 0; k < 6; k++) q[k] = -1.2 + 2.4 * dem_rng_uniform(&rng);
        lo = dem_v3(fmin(q[0], q[1]), fmin(q[2], q[3]), fmin(q[4], q[5]));
        hi = dem_v3(fmax(q[0], q[1]), fmax(q[2], q[3]), fmax(q[4], q[5]));
        long hits = 0;
        for (int k = 0; k < n; k++) {
            double x = -1 + 2 * dem_rng_uniform(&rng), y = -1 + 2 * dem_rng_uniform(&rng), z = -1 + 2 * dem_rng_uniform(&rng);
            if (x * x + y * y + z * z <= 1.0 && x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y && z >= lo.z && z <= hi.z)
                hits++;
        }
        double p = (double)hits / n, est = 8.0 * p, sd = 8.0 * sqrt(p * (1.0 - p) / n);
        double v = dem_sphere_box_volume(dem_v3(0, 0, 0), r, lo, hi);
        CHECK_MSG(fabs(v - est) <= 5.0 * sd + 1e-12, "box %d: exact %g, Monte Carlo %g +- %g", trial, v, est, sd);
    }
}

int main(void)
{
    test_whole_and_nothing();
    test_caps();
    test_face_edge_corner();
    test_partition();
    test_monte_carlo();
    UNIT_DONE();
}
