/* krylov.h - a compact preconditioned conjugate gradient for symmetric positive definite systems
 * given as a matrix-free operator (the Newton steps of lib/sim/variational.c). Every dot product
 * is summed in index order: the same bits on every run and thread count. */
#ifndef DEM_CORE_KRYLOV_H
#define DEM_CORE_KRYLOV_H

#include <stddef.h>

#include "core/error.h"

/* y = A x for vectors of n doubles. */
typedef void (*dem_linop)(void *ctx, const double *x, double *y);

typedef struct {
    size_t iterations;
    double relres;   /* |b - A x| / |b| at the end (2-norm) */
} dem_krylov_info;

/* Solve A x = b by CG with the diagonal preconditioner dinv (the inverse of A's diagonal, or an
 * approximation; NULL: none), from x = 0, until |r| <= tol |b| or maxit iterations. work holds 4 n
 * doubles. Fails (DEM_ERR_UNSTABLE) when A is found not positive definite (p.Ap <= 0), naming the
 * iteration, or when the tolerance is not reached in maxit iterations. */
DEM_MUST_CHECK dem_status dem_pcg(size_t n, dem_linop a, void *ctx, const double *dinv, const double *b, double *x, double tol,
                   size_t maxit, double *work, dem_krylov_info *info, dem_error *err);

/* Solve A x = b for a general (non-symmetric) A by BiCGSTAB with the same diagonal preconditioner
 * (right-preconditioned; van der Vorst 1992; Saad Algorithm 7.7), from x = 0, until |r| <= tol |b|
 * or maxit iterations. work holds 8 n doubles. Fails (DEM_ERR_UNSTABLE) on a breakdown (a zero
 * inner product) or when the tolerance is not reached. */
DEM_MUST_CHECK dem_status dem_bicgstab(size_t n, dem_linop a, void *ctx, const double *dinv, const double *b, double *x, double tol,
                        size_t maxit, double *work, dem_krylov_info *info, dem_error *err);

#endif
