/* par.h - how the simulator splits a loop over its threads.
 *
 * A loop over n items runs as one call of a range function f(lo, hi): with one thread, f(0, n)
 * directly, never entering the OpenMP runtime (whose team start and barriers cost a tiny system
 * more than its physics: docs/performance.md, "Small systems"); with T threads, one parallel
 * region in which thread t calls f on its contiguous share par_share(n, t, T), the split of
 * schedule(static). The range function holds the loop, so the per-item code has one call site
 * and is inlined into it. Results never depend on the split: items are independent, and the
 * reductions the callers do (sums of counts, maxima) are exact in any order. */
#ifndef DEM_SIM_PAR_H
#define DEM_SIM_PAR_H

#include <stddef.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Marks a range function: kept out of line so that it is the one caller of the per-item code,
 * which the compiler then inlines into its loop (called from both the parallel and the serial
 * branch, an inlined range function would leave the per-item code two call sites, and gcc then
 * calls it per item: 4% more instructions per step, measured with cachegrind). */
#if defined(__GNUC__)
#define PAR_RANGE __attribute__((noinline))
#else
#define PAR_RANGE
#endif

/* Thread t's share [*lo, *hi) of n items split over nt threads: contiguous, the first n % nt
 * shares one item longer. */
static inline void par_share_of(size_t n, int t, int nt, size_t *lo, size_t *hi)
{
    size_t q = n / (size_t)nt, r = n % (size_t)nt, k = (size_t)t;
    *lo = k * q + (k < r ? k : r);
    *hi = *lo + q + (k < r);
}

/* The calling thread's share inside a parallel region. */
static inline void par_share(size_t n, size_t *lo, size_t *hi)
{
#ifdef _OPENMP
    par_share_of(n, omp_get_thread_num(), omp_get_num_threads(), lo, hi);
#else
    *lo = 0;
    *hi = n;
#endif
}

#endif
