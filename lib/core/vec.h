/* vec.h - value-type 3-vectors, quaternions and 3x3 matrices with static inline operations.
 *
 * Vectors are passed and returned by value (Chipmunk2D style): the compiler keeps them in
 * registers, and the call sites read like the equations they implement. */
#ifndef DEM_VEC_H
#define DEM_VEC_H

#include <math.h>

typedef struct { double x, y, z; } dem_vec3;
/* Unit quaternion w + xi + yj + zk; identity is {1,0,0,0}. */
typedef struct { double w, x, y, z; } dem_quat;
/* Row-major 3x3 matrix: m[row][col]. */
typedef struct { double m[3][3]; } dem_mat3;

static inline dem_vec3 dem_v3(double x, double y, double z) { dem_vec3 v = {x, y, z}; return v; }
static inline dem_vec3 dem_v3_zero(void) { return dem_v3(0.0, 0.0, 0.0); }
static inline dem_vec3 dem_v3_add(dem_vec3 a, dem_vec3 b) { return dem_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline dem_vec3 dem_v3_sub(dem_vec3 a, dem_vec3 b) { return dem_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline dem_vec3 dem_v3_scale(dem_vec3 a, double s) { return dem_v3(a.x * s, a.y * s, a.z * s); }
static inline dem_vec3 dem_v3_neg(dem_vec3 a) { return dem_v3(-a.x, -a.y, -a.z); }
static inline double dem_v3_dot(dem_vec3 a, dem_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline dem_vec3 dem_v3_cross(dem_vec3 a, dem_vec3 b)
{
    return dem_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double dem_v3_norm2(dem_vec3 a) { return dem_v3_dot(a, a); }
static inline double dem_v3_norm(dem_vec3 a) { return sqrt(dem_v3_dot(a, a)); }
/* a + s*b, the axpy of every integrator. */
static inline dem_vec3 dem_v3_madd(dem_vec3 a, dem_vec3 b, double s)
{
    return dem_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline int dem_v3_isfinite(dem_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline int dem_v3_is_zero(dem_vec3 a) { return a.x == 0.0 && a.y == 0.0 && a.z == 0.0; }
static inline double dem_v3_get(dem_vec3 a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }
static inline void dem_v3_set(dem_vec3 *a, int axis, double v)
{
    if (axis == 0) a->x = v; else if (axis == 1) a->y = v; else a->z = v;
}

static inline dem_quat dem_quat_identity(void) { dem_quat q = {1.0, 0.0, 0.0, 0.0}; return q; }
static inline double dem_quat_norm(dem_quat q) { return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }
static inline dem_quat dem_quat_mul(dem_quat a, dem_quat b)
{
    dem_quat r = {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                  a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
    return r;
}

static inline dem_mat3 dem_m3_zero(void) { dem_mat3 a = {{{0}}}; return a; }
static inline dem_mat3 dem_m3_identity(void)
{
    dem_mat3 a = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    return a;
}
static inline dem_mat3 dem_m3_diag(double a, double b, double c)
{
    dem_mat3 m = {{{a, 0, 0}, {0, b, 0}, {0, 0, c}}};
    return m;
}
static inline dem_vec3 dem_m3_mulv(dem_mat3 a, dem_vec3 v)
{
    return dem_v3(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
                  a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
                  a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}
/* Column c of a matrix: for the periodic cell H = [a b c] these are the cell vectors. */
static inline dem_vec3 dem_m3_col(dem_mat3 a, int c) { return dem_v3(a.m[0][c], a.m[1][c], a.m[2][c]); }
static inline double dem_m3_det(dem_mat3 a)
{
    return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1])
         - a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0])
         + a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}
static inline dem_mat3 dem_m3_mul(dem_mat3 a, dem_mat3 b)
{
    dem_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}
static inline dem_mat3 dem_m3_transpose(dem_mat3 a)
{
    dem_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a.m[j][i];
    return r;
}
static inline dem_mat3 dem_m3_scale(dem_mat3 a, double s)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a.m[i][j] *= s;
    return a;
}
static inline dem_mat3 dem_m3_add(dem_mat3 a, dem_mat3 b)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a.m[i][j] += b.m[i][j];
    return a;
}
static inline int dem_m3_is_zero(dem_mat3 a)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (a.m[i][j] != 0.0) return 0;
    return 1;
}
/* a^-1 by cofactors (det a must not be 0). */
static inline dem_mat3 dem_m3_inverse(dem_mat3 a)
{
    dem_mat3 r;
    double det = dem_m3_det(a);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            r.m[i][j] = (a.m[i1][j1] * a.m[i2][j2] - a.m[i1][j2] * a.m[i2][j1]) / det;
        }
    return r;
}

#endif
