/* rigid.c - mass properties of clumps of spheres, their principal frame and the torque-free
 * rotation step (rigid.h; the equations are docs/models.md "Rigid clumps"). */
#include "core/rigid.h"

#include <stdlib.h>

#include "core/angle.h"

/* ---- rotations ------------------------------------------------------------------------------ */

/* The rotation matrix of a quaternion: v_outer = R v_body, the same as q v q* / |q|^2. The
 * homogeneous form divided by |q|^2 keeps R orthogonal to rounding whatever |q|'s own rounding: the
 * conversions w -> L -> w of successive steps then lose about 4e-17 of |L| a step, against 3e-16
 * with the form 1 - 2 (y^2 + z^2) (docs/verification.md "Rigid clumps"). */
static dem_mat3 quat_matrix(dem_quat q)
{
    double ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, s = 1.0 / (ww + xx + yy + zz);
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    dem_mat3 r = {{{(ww + xx - yy - zz) * s, 2.0 * (xy - wz) * s, 2.0 * (xz + wy) * s},
                   {2.0 * (xy + wz) * s, (ww - xx + yy - zz) * s, 2.0 * (yz - wx) * s},
                   {2.0 * (xz - wy) * s, 2.0 * (yz + wx) * s, (ww - xx - yy + zz) * s}}};
    return r;
}

/* R^T v without forming the transpose. */
static dem_vec3 mulv_transposed(dem_mat3 r, dem_vec3 v)
{
    return dem_v3(r.m[0][0] * v.x + r.m[1][0] * v.y + r.m[2][0] * v.z,
                  r.m[0][1] * v.x + r.m[1][1] * v.y + r.m[2][1] * v.z,
                  r.m[0][2] * v.x + r.m[1][2] * v.y + r.m[2][2] * v.z);
}

dem_vec3 dem_rigid_rotate(dem_quat q, dem_vec3 v) { return dem_m3_mulv(quat_matrix(q), v); }
dem_vec3 dem_rigid_unrotate(dem_quat q, dem_vec3 v) { return mulv_transposed(quat_matrix(q), v); }

/* The sign convention of a quaternion (q and -q are the same rotation): w > 0, or for w = 0 the
 * first non-zero of x, y, z positive. */
static dem_quat quat_canonical(dem_quat q)
{
    double lead = q.w != 0.0 ? q.w : q.x != 0.0 ? q.x : q.y != 0.0 ? q.y : q.z;
    if (lead < 0.0) q = (dem_quat){-q.w, -q.x, -q.y, -q.z};
    return q;
}

static dem_quat quat_normalized(dem_quat q)
{
    double n = dem_quat_norm(q);
    return (dem_quat){q.w / n, q.x / n, q.y / n, q.z / n};
}

/* The unit quaternion of a proper rotation matrix (Shepperd's method: the largest of the four
 * candidate pivots keeps the square root away from zero). */
static dem_quat quat_of_matrix(dem_mat3 r)
{
    double tr = r.m[0][0] + r.m[1][1] + r.m[2][2];
    dem_quat q;
    if (tr >= r.m[0][0] && tr >= r.m[1][1] && tr >= r.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = (dem_quat){0.25 * s, (r.m[2][1] - r.m[1][2]) / s, (r.m[0][2] - r.m[2][0]) / s, (r.m[1][0] - r.m[0][1]) / s};
    } else if (r.m[0][0] >= r.m[1][1] && r.m[0][0] >= r.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + r.m[0][0] - r.m[1][1] - r.m[2][2]);
        q = (dem_quat){(r.m[2][1] - r.m[1][2]) / s, 0.25 * s, (r.m[0][1] + r.m[1][0]) / s, (r.m[0][2] + r.m[2][0]) / s};
    } else if (r.m[1][1] >= r.m[2][2]) {
        double s = 2.0 * sqrt(1.0 + r.m[1][1] - r.m[0][0] - r.m[2][2]);
        q = (dem_quat){(r.m[0][2] - r.m[2][0]) / s, (r.m[0][1] + r.m[1][0]) / s, 0.25 * s, (r.m[1][2] + r.m[2][1]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + r.m[2][2] - r.m[0][0] - r.m[1][1]);
        q = (dem_quat){(r.m[1][0] - r.m[0][1]) / s, (r.m[0][2] + r.m[2][0]) / s, (r.m[1][2] + r.m[2][1]) / s, 0.25 * s};
    }
    return quat_canonical(quat_normalized(q));
}

/* ---- the principal axes -------------------------------------------------------------------- */

/* Cyclic Jacobi eigen-decomposition of a symmetric 3x3 matrix a (destroyed: its diagonal ends as
 * the eigenvalues); v receives the eigenvectors as columns. The pivots are visited in the fixed
 * order (0,1), (0,2), (1,2) and the rotation angle follows Rutishauser's stable formula, so the
 * result depends on the bits of a alone. */
static void jacobi3(double a[3][3], double v[3][3])
{
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) v[i][j] = i == j ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 50; sweep++) {
        if (a[0][1] == 0.0 && a[0][2] == 0.0 && a[1][2] == 0.0) return;
        for (int k = 0; k < 3; k++) {
            int p = pairs[k][0], q = pairs[k][1];
            double apq = a[p][q];
            if (apq == 0.0) continue;
            double g = 100.0 * fabs(apq);
            if (sweep > 3 && fabs(a[p][p]) + g == fabs(a[p][p]) && fabs(a[q][q]) + g == fabs(a[q][q])) {
                a[p][q] = a[q][p] = 0.0; /* below the rounding of both diagonal entries */
                continue;
            }
            double theta = (a[q][q] - a[p][p]) / (2.0 * apq);
            double t = fabs(theta) > 1e150 ? 0.5 / theta : (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
            double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
            /* a <- G^T a G, v <- v G, G the plane rotation with G_pp = G_qq = c, G_pq = s = -G_qp */
            for (int r = 0; r < 3; r++) {
                double arp = a[r][p], arq = a[r][q];
                a[r][p] = c * arp - s * arq;
                a[r][q] = s * arp + c * arq;
            }
            for (int r = 0; r < 3; r++) {
                double apr = a[p][r], aqr = a[q][r];
                a[p][r] = c * apr - s * aqr;
                a[q][r] = s * apr + c * aqr;
            }
            a[p][q] = a[q][p] = 0.0;
            for (int r = 0; r < 3; r++) {
                double vrp = v[r][p], vrq = v[r][q];
                v[r][p] = c * vrp - s * vrq;
                v[r][q] = s * vrp + c * vrq;
            }
        }
    }
}

/* The principal moments (ascending) and the rotation from the principal frame to the tensor's
 * frame for a symmetric inertia tensor J. The convention that makes the frame unique: equal moments
 * keep the tensor's axis order (a stable sort); the first two axes have their largest component
 * (the first on a tie) positive; the third is their cross product (right-handed). Off-diagonal
 * entries below 1e-14 of the trace are rounding noise of the sums (a template symmetric about an
 * axis) and are dropped, so that such a template keeps its symmetry axes exactly. */
static void principal_axes(dem_mat3 J, dem_vec3 *moments, dem_quat *q)
{
    double a[3][3], v[3][3];
    double noise = 1e-14 * (fabs(J.m[0][0]) + fabs(J.m[1][1]) + fabs(J.m[2][2]));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = i != j && fabs(J.m[i][j]) <= noise ? 0.0 : J.m[i][j];
    jacobi3(a, v);
    int order[3] = {0, 1, 2};
    for (int i = 1; i < 3; i++) /* stable insertion sort by ascending moment */
        for (int j = i; j > 0 && a[order[j]][order[j]] < a[order[j - 1]][order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    dem_vec3 axis[3];
    for (int k = 0; k < 2; k++) {
        int c = order[k];
        dem_vec3 e = dem_v3(v[0][c], v[1][c], v[2][c]);
        int big = 0;
        for (int i = 1; i < 3; i++)
            if (fabs(dem_v3_get(e, i)) > fabs(dem_v3_get(e, big))) big = i;
        axis[k] = dem_v3_get(e, big) < 0.0 ? dem_v3_neg(e) : e;
    }
    axis[2] = dem_v3_cross(axis[0], axis[1]);
    *moments = dem_v3(a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]]);
    dem_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) r.m[i][k] = dem_v3_get(axis[k], i);
    *q = quat_of_matrix(r);
}

/* ---- mass properties ----------------------------------------------------------------------- */

/* Volume-weighted moments of a solid about a reference point: vol = int dV, first[i] = int x_i dV,
 * second[i][j] = int x_i x_j dV. */
typedef struct {
    double vol, first[3], second[3][3];
} moments;

static dem_status check_members(const dem_rigid_member *m, size_t n, double density, dem_error *err)
{
    if (n == 0) return dem_fail(err, DEM_ERR_ARG, "a rigid body needs at least one member sphere");
    if (!isfinite(density) || !(density > 0.0))
        return dem_fail(err, DEM_ERR_ARG, "density %g kg/m^3: must be finite and > 0", density);
    for (size_t k = 0; k < n; k++) {
        if (!dem_v3_isfinite(m[k].x) || !isfinite(m[k].r))
            return dem_fail(err, DEM_ERR_ARG, "member %zu: centre or radius is not a finite number", k + 1);
        if (!(m[k].r > 0.0)) return dem_fail(err, DEM_ERR_ARG, "member %zu: radius %g m must be > 0", k + 1, m[k].r);
    }
    return DEM_OK;
}

/* Whether any two members overlap (centre distance below the sum of the radii; touching is apart). */
static int members_overlap(const dem_rigid_member *m, size_t n)
{
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++) {
            double rr = m[j].r + m[k].r;
            if (dem_v3_norm2(dem_v3_sub(m[j].x, m[k].x)) < rr * rr) return 1;
        }
    return 0;
}

/* The inertia tensor of unit density from the moments about the centroid c (= first / vol):
 * J = tr(S) 1 - S with S_ij = second_ij - vol c_i c_j. */
static dem_mat3 inertia_of(const moments *mo, dem_vec3 *c)
{
    double ci[3] = {mo->first[0] / mo->vol, mo->first[1] / mo->vol, mo->first[2] / mo->vol};
    double s[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) s[i][j] = mo->second[i][j] - mo->vol * ci[i] * ci[j];
    double tr = s[0][0] + s[1][1] + s[2][2];
    dem_mat3 J;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) J.m[i][j] = (i == j ? tr : 0.0) - s[i][j];
    *c = dem_v3(ci[0], ci[1], ci[2]);
    return J;
}

/* Members apart: the sum of the spheres (parallel axes), about ref. A sphere's own second moment
 * is r^2/5 of its volume along each axis (its inertia 2/5 m r^2). */
static moments moments_apart(const dem_rigid_member *m, size_t n, dem_vec3 ref)
{
    moments mo = {0};
    for (size_t k = 0; k < n; k++) {
        double v = (4.0 / 3.0) * M_PI * m[k].r * m[k].r * m[k].r;
        double d[3] = {m[k].x.x - ref.x, m[k].x.y - ref.y, m[k].x.z - ref.z};
        mo.vol += v;
        for (int i = 0; i < 3; i++) {
            mo.first[i] += v * d[i];
            for (int j = 0; j < 3; j++) mo.second[i][j] += v * (d[i] * d[j] + (i == j ? 0.2 * m[k].r * m[k].r : 0.0));
        }
    }
    return mo;
}

typedef struct {
    double lo, hi;
} interval;

static int interval_cmp(const void *pa, const void *pb)
{
    const interval *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return 0;
}

/* The bounding box of the members. */
static void bounding_box(const dem_rigid_member *m, size_t n, dem_vec3 *lo, dem_vec3 *hi)
{
    *lo = dem_v3(m[0].x.x - m[0].r, m[0].x.y - m[0].r, m[0].x.z - m[0].r);
    *hi = dem_v3(m[0].x.x + m[0].r, m[0].x.y + m[0].r, m[0].x.z + m[0].r);
    for (size_t k = 1; k < n; k++)
        for (int i = 0; i < 3; i++) {
            double c = dem_v3_get(m[k].x, i);
            if (c - m[k].r < dem_v3_get(*lo, i)) dem_v3_set(lo, i, c - m[k].r);
            if (c + m[k].r > dem_v3_get(*hi, i)) dem_v3_set(hi, i, c + m[k].r);
        }
}

/* Overlapping members: the moments of the union about the box centre ref, on a grid of square
 * columns laid along the box's longest side (axis c) and centred on the box, of side s = (the longer
 * of the two other sides) / grid. A column's cross-section is taken at its centre (the midpoint rule across it, the cell's
 * own second moment s^2/12 included, as the cells of Šmilauer and Chareyre 2015, §1.5.4), and along
 * its length the union of the members' chords is integrated exactly: the chords are merged as
 * intervals, so overlaps count once. buf holds n intervals. */
static moments moments_grid(const dem_rigid_member *m, size_t n, dem_vec3 lo, dem_vec3 hi, dem_vec3 ref,
                            unsigned grid, long extra, interval *buf)
{
    double side[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
    int c = 0;
    for (int i = 1; i < 3; i++)
        if (side[i] > side[c]) c = i;
    int a = (c + 1) % 3, b = (c + 2) % 3;
    /* the resolution counts across the columns, where the quadrature's error lies: a rod of many
     * members along c gets as many cells across as a sphere */
    double s = fmax(side[a], side[b]) / grid, area = s * s, own = s * s / 12.0;
    long na = (long)ceil(side[a] / s), nb = (long)ceil(side[b] / s);
    if (na < 1) na = 1;
    if (nb < 1) nb = 1;
    na += extra, nb += extra; /* one column more each way: the same cells shifted by half a cell */
    /* the columns' sums in the box frame's (a, b, c) order, then moved to (x, y, z) */
    double vol = 0, fa = 0, fb = 0, fc = 0, saa = 0, sbb = 0, scc = 0, sab = 0, sac = 0, sbc = 0;
    for (long i = 0; i < na; i++) {
        double ya = ((double)i - 0.5 * (double)(na - 1)) * s; /* relative to ref */
        double row[10] = {0};
        for (long j = 0; j < nb; j++) {
            double yb = ((double)j - 0.5 * (double)(nb - 1)) * s;
            size_t cnt = 0;
            for (size_t k = 0; k < n; k++) {
                double da = ya - (dem_v3_get(m[k].x, a) - dem_v3_get(ref, a));
                double db = yb - (dem_v3_get(m[k].x, b) - dem_v3_get(ref, b));
                double h2 = m[k].r * m[k].r - da * da - db * db;
                if (!(h2 > 0.0)) continue;
                double h = sqrt(h2), zc = dem_v3_get(m[k].x, c) - dem_v3_get(ref, c);
                buf[cnt++] = (interval){zc - h, zc + h};
            }
            if (cnt == 0) continue;
            qsort(buf, cnt, sizeof *buf, interval_cmp);
            double len = 0, m1 = 0, m2 = 0, u = buf[0].lo, w = buf[0].hi;
            for (size_t k = 1; k <= cnt; k++) {
                if (k < cnt && buf[k].lo <= w) { /* overlapping chord: extend the run */
                    if (buf[k].hi > w) w = buf[k].hi;
                    continue;
                }
                len += w - u;
                m1 += 0.5 * (w * w - u * u);
                m2 += (w * w * w - u * u * u) / 3.0;
                if (k < cnt) u = buf[k].lo, w = buf[k].hi;
            }
            row[0] += len;
            row[1] += ya * len;
            row[2] += yb * len;
            row[3] += m1;
            row[4] += (ya * ya + own) * len;
            row[5] += (yb * yb + own) * len;
            row[6] += m2;
            row[7] += ya * yb * len;
            row[8] += ya * m1;
            row[9] += yb * m1;
        }
        vol += row[0], fa += row[1], fb += row[2], fc += row[3], saa += row[4];
        sbb += row[5], scc += row[6], sab += row[7], sac += row[8], sbc += row[9];
    }
    moments mo;
    mo.vol = vol * area;
    mo.first[a] = fa * area, mo.first[b] = fb * area, mo.first[c] = fc * area;
    mo.second[a][a] = saa * area, mo.second[b][b] = sbb * area, mo.second[c][c] = scc * area;
    mo.second[a][b] = mo.second[b][a] = sab * area;
    mo.second[a][c] = mo.second[c][a] = sac * area;
    mo.second[b][c] = mo.second[c][b] = sbc * area;
    return mo;
}

/* The order of convergence of the grid's moments with the resolution: between 1.5 and 2 on two
 * overlapping spheres against their closed form, with a scatter from where the cell centres fall
 * on the surface (docs/verification.md). The error estimate from the grids g and g/2 divides their
 * difference by 2^p - 1 with the lower p; the shifted grid samples that scatter. */
#define GRID_ORDER 1.5

/* Props from moments about ref; density scales volume to mass. */
static void props_from(const moments *mo, dem_vec3 ref, double density, dem_rigid_props *out)
{
    dem_vec3 c;
    dem_mat3 J = dem_m3_scale(inertia_of(mo, &c), density);
    out->volume = mo->vol;
    out->mass = density * mo->vol;
    out->centroid = dem_v3_add(ref, c);
    principal_axes(J, &out->inertia, &out->q);
}

dem_status dem_rigid_props_of(const dem_rigid_member *m, size_t n, double density, unsigned grid,
                              dem_rigid_props *out, dem_error *err)
{
    dem_status st = check_members(m, n, density, err);
    if (st != DEM_OK) return st;
    dem_vec3 lo, hi;
    bounding_box(m, n, &lo, &hi);
    dem_vec3 ref = dem_v3_scale(dem_v3_add(lo, hi), 0.5);
    if (!members_overlap(m, n)) {
        moments mo = moments_apart(m, n, ref);
        props_from(&mo, ref, density, out);
        out->inertia_err = 0.0;
        return DEM_OK;
    }
    if (grid < DEM_RIGID_GRID_MIN || grid > DEM_RIGID_GRID_MAX)
        return dem_fail(err, DEM_ERR_ARG, "overlapping members: grid %u cells must lie in [%u, %u]", grid,
                        DEM_RIGID_GRID_MIN, DEM_RIGID_GRID_MAX);
    interval *buf = malloc(n * sizeof *buf);
    if (!buf) return dem_fail(err, DEM_ERR_NOMEM, "no memory for %zu members' chords", n);
    moments fine = moments_grid(m, n, lo, hi, ref, grid, 0, buf);
    moments coarse = moments_grid(m, n, lo, hi, ref, grid / 2, 0, buf);
    moments shifted = moments_grid(m, n, lo, hi, ref, grid, 1, buf);
    free(buf);
    if (!(fine.vol > 0.0) || !(coarse.vol > 0.0) || !(shifted.vol > 0.0))
        return dem_fail(err, DEM_ERR_ARG, "grid %u cells: too coarse to see the members (no cell centre inside)", grid);
    dem_rigid_props half, moved;
    props_from(&fine, ref, density, out);
    props_from(&coarse, ref, density, &half);
    props_from(&shifted, ref, density, &moved);
    double e_half = 0.0, e_moved = 0.0;
    for (int i = 0; i < 3; i++) {
        double a = dem_v3_get(out->inertia, i);
        e_half = fmax(e_half, fabs(a - dem_v3_get(half.inertia, i)) / a);
        e_moved = fmax(e_moved, fabs(a - dem_v3_get(moved.inertia, i)) / a);
    }
    out->inertia_err = fmax(e_half / (pow(2.0, GRID_ORDER) - 1.0), e_moved);
    return DEM_OK;
}

void dem_rigid_to_body(const dem_rigid_props *p, dem_rigid_member *m, size_t n)
{
    dem_mat3 r = quat_matrix(p->q);
    for (size_t k = 0; k < n; k++) m[k].x = mulv_transposed(r, dem_v3_sub(m[k].x, p->centroid));
}

/* ---- dynamics ------------------------------------------------------------------------------ */

dem_vec3 dem_rigid_omega(dem_quat q, dem_vec3 I, dem_vec3 L)
{
    dem_mat3 r = quat_matrix(q);
    dem_vec3 lb = mulv_transposed(r, L);
    return dem_m3_mulv(r, dem_v3(lb.x / I.x, lb.y / I.y, lb.z / I.z));
}

dem_vec3 dem_rigid_momentum(dem_quat q, dem_vec3 I, dem_vec3 w)
{
    dem_mat3 r = quat_matrix(q);
    dem_vec3 wb = mulv_transposed(r, w);
    return dem_m3_mulv(r, dem_v3(I.x * wb.x, I.y * wb.y, I.z * wb.z));
}

double dem_rigid_kinetic(dem_quat q, dem_vec3 I, dem_vec3 L)
{
    dem_vec3 lb = dem_rigid_unrotate(q, L);
    return 0.5 * (lb.x * lb.x / I.x + lb.y * lb.y / I.y + lb.z * lb.z / I.z);
}

/* The exact flow of the free rotor's part L_a^2 / (2 I_a) for a time tau: the body turns by
 * theta = tau L_a / I_a about its principal axis a (q <- q (cos theta/2, sin theta/2 e_a)), and
 * the body-frame momentum lb, constant in the world, turns by -theta about e_a. */
static void rotor_flow(dem_quat *q, dem_vec3 *lb, int a, double inertia, double tau)
{
    double half = 0.5 * tau * dem_v3_get(*lb, a) / inertia, sh, ch;
    dem_small_sincos(half, &sh, &ch);
    double c = ch * ch - sh * sh, s = 2.0 * sh * ch; /* cos theta, sin theta */
    dem_quat turn = {ch, a == 0 ? sh : 0.0, a == 1 ? sh : 0.0, a == 2 ? sh : 0.0};
    *q = dem_quat_mul(*q, turn);
    int j = (a + 1) % 3, k = (a + 2) % 3;
    double lj = dem_v3_get(*lb, j), lk = dem_v3_get(*lb, k);
    dem_v3_set(lb, j, c * lj + s * lk);
    dem_v3_set(lb, k, c * lk - s * lj);
}

/* The axes in the order of the symmetric splitting: 1, 2, 3, 2, 1 with weights 1/2, 1/2, 1, 1/2,
 * 1/2 (docs/models.md "Rigid clumps": the smallest moment outside, the largest in the middle). */
void dem_rigid_drift(dem_quat *q, dem_vec3 I, dem_vec3 L, double h)
{
    static const int axis[5] = {0, 1, 2, 1, 0};
    static const double weight[5] = {0.5, 0.5, 1.0, 0.5, 0.5};
    dem_vec3 lb = dem_rigid_unrotate(*q, L);
    for (int k = 0; k < 5; k++) rotor_flow(q, &lb, axis[k], dem_v3_get(I, axis[k]), weight[k] * h);
    *q = quat_normalized(*q);
}
