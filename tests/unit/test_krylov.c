/* test_krylov.c - lib/core/krylov.c: CG on a symmetric positive definite system and BiCGSTAB on a
 * non-symmetric one, against exact solutions; the refusal of an indefinite matrix. */
#include <math.h>

#include "core/krylov.h"
#include "unit.h"

#define N 50

/* The 1D Laplacian with a diagonal shift s (tridiagonal, SPD for s >= 0) plus an antisymmetric
 * part a (non-symmetric for a != 0): y = A x. */
typedef struct {
    double s, a;
} tri;

static void apply(void *ctx, const double *x, double *y)
{
    const tri *t = ctx;
    for (int k = 0; k < N; k++) {
        double l = k > 0 ? x[k - 1] : 0.0, r = k < N - 1 ? x[k + 1] : 0.0;
        y[k] = (2.0 + t->s) * x[k] - l - r + t->a * (r - l);
    }
}

static double max_err(const double *x, const double *want)
{
    double m = 0.0;
    for (int k = 0; k < N; k++) m = fmax(m, fabs(x[k] - want[k]));
    return m;
}

int main(void)
{
    double want[N], b[N], x[N], dinv[N], work[8 * N];
    for (int k = 0; k < N; k++) want[k] = sin(0.3 * k) + 0.01 * k;
    dem_krylov_info info;
    dem_error err;

    /* SPD: CG converges to the exact solution (within N iterations in exact arithmetic) */
    tri spd = {0.1, 0.0};
    apply(&spd, want, b);
    for (int k = 0; k < N; k++) dinv[k] = 1.0 / (2.0 + spd.s);
    CHECK(dem_pcg(N, apply, &spd, dinv, b, x, 1e-14, 10 * N, work, &info, &err) == DEM_OK);
    CHECK_MSG(max_err(x, want) < 1e-12, "CG error %g after %zu iterations", max_err(x, want), info.iterations);
    CHECK(info.relres <= 1e-14 && info.iterations <= N);
    /* the same bits again (fixed-order sums) */
    double x2[N];
    CHECK(dem_pcg(N, apply, &spd, dinv, b, x2, 1e-14, 10 * N, work, &info, &err) == DEM_OK);
    CHECK(memcmp(x, x2, sizeof x) == 0);

    /* non-symmetric: BiCGSTAB */
    tri ns = {0.1, 0.4};
    apply(&ns, want, b);
    CHECK(dem_bicgstab(N, apply, &ns, dinv, b, x, 1e-14, 10 * N, work, &info, &err) == DEM_OK);
    CHECK_MSG(max_err(x, want) < 1e-11, "BiCGSTAB error %g after %zu iterations", max_err(x, want), info.iterations);

    /* indefinite (shift -3: eigenvalues 2 - 2 cos + s reach below 0): CG refuses, naming it */
    tri ind = {-3.0, 0.0};
    apply(&ind, want, b);
    CHECK(dem_pcg(N, apply, &ind, NULL, b, x, 1e-14, 10 * N, work, &info, &err) == DEM_ERR_UNSTABLE);
    CHECK(strstr(err.msg, "not positive definite") != NULL);

    /* b = 0: x = 0 at once */
    for (int k = 0; k < N; k++) b[k] = 0.0;
    CHECK(dem_pcg(N, apply, &spd, dinv, b, x, 1e-14, 10 * N, work, &info, &err) == DEM_OK && info.iterations == 0 && x[7] == 0.0);
    UNIT_DONE();
}
