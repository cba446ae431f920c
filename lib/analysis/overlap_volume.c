/* overlap_volume.c - the volume of a sphere inside a half-space, a slab or a box (see
 * overlap_volume.h for the methods and their accuracy). */
#include "analysis/overlap_volume.h"

#include <math.h>

/* The cap of height h (0 <= h <= 2r) cut from a sphere of radius r: pi h^2 (3r - h) / 3, taking
 * the smaller side so that thin caps keep their relative accuracy. */
static double cap_volume(double r, double h)
{
    if (h <= 0.0) return 0.0;
    double whole = 4.0 / 3.0 * M_PI * r * r * r;
    if (h >= 2.0 * r) return whole;
    if (h <= r) return M_PI * h * h * (3.0 * r - h) / 3.0;
    double g = 2.0 * r - h;
    return whole - M_PI * g * g * (3.0 * r - g) / 3.0;
}

double dem_sphere_below_volume(dem_vec3 c, double r, int axis, double at)
{
    return cap_volume(r, at - dem_v3_get(c, axis) + r);
}

double dem_sphere_slab_volume(dem_vec3 c, double r, int axis, double lo, double hi)
{
    double x = dem_v3_get(c, axis);
    double a = lo - x, b = hi - x; /* the slab relative to the centre */
    if (!(b > a) || b <= -r || a >= r) return 0.0;
    if (a <= -r) return cap_volume(r, b + r);
    if (b >= r) return cap_volume(r, r - a); /* the cap above a: by symmetry, of height r - a */
    /* both planes cut: the whole sphere minus the two caps outside */
    return 4.0 / 3.0 * M_PI * r * r * r - cap_volume(r, a + r) - cap_volume(r, r - b);
}

/* ---- a disc in a rectangle ---- */
/* Area of the disc of radius rho (centred at the origin) where x >= t. */
static double segment_area(double rho, double t)
{
    if (t >= rho) return 0.0;
    if (t <= -rho) return M_PI * rho * rho;
    return rho * rho * acos(t / rho) - t * sqrt((rho - t) * (rho + t));
}

/* Area of the disc where x >= a and y >= b. */
static double quadrant_area(double rho, double a, double b)
{
    if (a >= rho || b >= rho) return 0.0;
    if (a <= -rho) return segment_area(rho, b);
    if (b <= -rho) return segment_area(rho, a);
    if (a * a + b * b >= rho * rho) { /* the corner (a, b) is outside the disc */
        if (a >= 0.0 && b >= 0.0) return 0.0;
        if (a < 0.0 && b >= 0.0) return segment_area(rho, b);
        if (a >= 0.0 && b < 0.0) return segment_area(rho, a);
        return segment_area(rho, a) + segment_area(rho, b) - M_PI * rho * rho;
    }
    /* The corner P inside: the boundary P -> B = (hb, b) along y = b, the arc from B to A =
     * (a, ha) counterclockwise, A -> P along x = a; the area is 1/2 the contour integral of
     * x dy - y dx: a chord contributes 1/2 (p x q), the arc 1/2 rho^2 (its angle). */
    double ha = sqrt((rho - a) * (rho + a)), hb = sqrt((rho - b) * (rho + b));
    return 0.5 * (b * (a - hb) + a * (b - ha) + rho * rho * (atan2(ha, a) - atan2(b, hb)));
}

double dem_disc_rect_area(double rho, double x0, double x1, double y0, double y1)
{
    if (!(rho > 0.0) || !(x1 > x0) || !(y1 > y0)) return 0.0;
    double v = quadrant_area(rho, x0, y0) - quadrant_area(rho, x1, y0) - quadrant_area(rho, x0, y1) +
               quadrant_area(rho, x1, y1);
    return v > 0.0 ? v : 0.0;
}

/* ---- a sphere in a box ---- */
/* Gauss-Legendre, 24 points on [-1, 1]: the non-negative nodes and their weights (numpy's
 * leggauss(24)); the rule is symmetric. */
static const double gl_node[12] = {
    0.06405689286260563, 0.19111886747361631, 0.3150426796961634, 0.43379350762604513,
    0.54542147138883956, 0.64809365193697555, 0.74012419157855436, 0.82000198597390295,
    0.88641552700440096, 0.9382745520027328,  0.97472855597130947, 0.99518721999702131};
static const double gl_weight[12] = {
    0.12793819534675221, 0.1258374563468283,   0.12167047292780342,  0.11550566805372561,
    0.10744427011596561, 0.097618652104114065, 0.086190161531953288, 0.073346481411080411,
    0.059298584915436742, 0.044277438817419551, 0.028531388628933743, 0.012341229799987091};

struct slice_problem {
    double r;
    double x0, x1, y0, y1; /* the rectangle, relative to the centre */
};

static double slice_area(const struct slice_problem *p, double z)
{
    double rho2 = (p->r - z) * (p->r + z);
    return rho2 > 0.0 ? dem_disc_rect_area(sqrt(rho2), p->x0, p->x1, p->y0, p->y1) : 0.0;
}

/* The integral of slice_area over [z0, z1], smooth inside, with square-root behaviour at the
 * ends: z = z0 + L s(t), s = 3t^2 - 2t^3, dz = 6 L t (1 - t) dt, t in [0, 1]. Each node pair
 * (t, 1 - t) is evaluated from its nearer end so that z keeps its precision there. */
static double integrate_piece(const struct slice_problem *p, double z0, double z1)
{
    double len = z1 - z0, sum = 0.0;
    for (int k = 0; k < 12; k++) {
        double u = 0.5 * (1.0 - gl_node[k]); /* t = u and t = 1 - u */
        double s = u * u * (3.0 - 2.0 * u);
        double jac = 6.0 * u * (1.0 - u);
        sum += 0.5 * gl_weight[k] * jac * (slice_area(p, z0 + len * s) + slice_area(p, z1 - len * s));
    }
    return len * sum;
}

/* Adaptive: a piece whose halves do not agree with it (a singularity just beyond an end, where
 * the map does not reach it) is split in two, down to 12 levels. tol is absolute, m^3. */
static double integrate_adaptive(const struct slice_problem *p, double z0, double z1, double whole, double tol,
                                 int depth)
{
    double zm = 0.5 * (z0 + z1);
    double left = integrate_piece(p, z0, zm), right = integrate_piece(p, zm, z1);
    if (depth >= 12 || fabs(whole - (left + right)) <= tol) return left + right;
    return integrate_adaptive(p, z0, zm, left, 0.5 * tol, depth + 1) +
           integrate_adaptive(p, zm, z1, right, 0.5 * tol, depth + 1);
}

#ifndef QUAD_TOL
#define QUAD_TOL 1e-14
#endif
static void add_break(double *z, int *n, double r, double d, double zlo, double zhi)
{
    if (!(d < r)) return;
    double h = sqrt((r - d) * (r + d));
    if (h > zlo && h < zhi) z[(*n)++] = h;
    if (-h > zlo && -h < zhi) z[(*n)++] = -h;
}

double dem_sphere_box_volume(dem_vec3 c, double r, dem_vec3 lo, dem_vec3 hi)
{
    double a[3], b[3];
    int cut[3], ncut = 0;
    for (int k = 0; k < 3; k++) {
        a[k] = dem_v3_get(lo, k) - dem_v3_get(c, k);
        b[k] = dem_v3_get(hi, k) - dem_v3_get(c, k);
        if (!(b[k] > a[k]) || b[k] <= -r || a[k] >= r) return 0.0;
        cut[k] = a[k] > -r || b[k] < r;
        ncut += cut[k];
    }
    if (ncut == 0) return 4.0 / 3.0 * M_PI * r * r * r;
    if (ncut == 1)
        for (int k = 0; k < 3; k++)
            if (cut[k]) return dem_sphere_slab_volume(c, r, k, dem_v3_get(lo, k), dem_v3_get(hi, k));
    /* Integrate along an axis that does not cut if there is one (fewer breaks), else along z. */
    int ax = 2;
    for (int k = 0; k < 3; k++)
        if (!cut[k]) ax = k;
    int u = (ax + 1) % 3, v = (ax + 2) % 3;
    struct slice_problem p = {r, fmax(a[u], -r), fmin(b[u], r), fmax(a[v], -r), fmin(b[v], r)};
    double zlo = fmax(a[ax], -r), zhi = fmin(b[ax], r);
    /* The heights where the slice's area is not smooth: the disc's radius sqrt(r^2 - z^2) equal
     * to the distance of a cutting face or of a corner of two cutting faces. */
    double z[2 + 2 * 8];
    int n = 0;
    z[n++] = zlo;
    double fu[2] = {p.x0, p.x1}, fv[2] = {p.y0, p.y1};
    int cu[2] = {a[u] > -r, b[u] < r}, cv[2] = {a[v] > -r, b[v] < r};
    for (int i = 0; i < 2; i++) {
        if (cu[i]) add_break(z, &n, r, fabs(fu[i]), zlo, zhi);
        if (cv[i]) add_break(z, &n, r, fabs(fv[i]), zlo, zhi);
        for (int j = 0; j < 2; j++)
            if (cu[i] && cv[j]) add_break(z, &n, r, hypot(fu[i], fv[j]), zlo, zhi);
    }
    z[n++] = zhi;
    for (int i = 1; i < n; i++) /* sort: insertion, n <= 18 */
        for (int k = i; k > 0 && z[k] < z[k - 1]; k--) {
            double t = z[k];
            z[k] = z[k - 1];
            z[k - 1] = t;
        }
    double vol = 0.0;
    for (int i = 1; i < n; i++)
        if (z[i] > z[i - 1]) {
            double len = z[i] - z[i - 1];
            vol += integrate_adaptive(&p, z[i - 1], z[i], integrate_piece(&p, z[i - 1], z[i]),
                                      QUAD_TOL * r * r * len, 0);
        }
    return vol;
}
