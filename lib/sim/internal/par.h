/* par.h - how the simulator splits a loop over its threads.
 *
 * A loop over n items runs as calls of a range function f(ctx, lo, hi, t): with one thread,
 * f(ctx, 0, n, 0) directly; with T threads, thread t (0: the caller) calls f on its contiguous
 * share par_share_of(n, t, T). The range function holds the loop, so the per-item code has one
 * call site and is inlined into it. Results never depend on the split: items are independent,
 * and the reductions the callers do (sums of counts, maxima) go through one partial per thread
 * (par_partial), combined in thread order, and are exact in any order anyway.
 *
 * The threads are the sim's own pool (par.c), not OpenMP's: a thread that finishes its share
 * spins only briefly for the next loop and then sleeps. libgomp's threads spin for about a
 * millisecond (its default policy, which it reads from OMP_WAIT_POLICY once, when it loads), and
 * beside a busy process they took the core from the thread that had work: two threads ran a
 * 20 000-sphere step 2-7 times slower than one (docs/performance.md, "Two threads beside busy
 * processes"). */
#ifndef DEM_SIM_PAR_H
#define DEM_SIM_PAR_H

#include <stddef.h>

#include "core/error.h"

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
 * shares one item longer (the split of OpenMP's schedule(static), which the pool keeps: the
 * same items go to the same thread as before it). */
static inline void par_share_of(size_t n, int t, int nt, size_t *lo, size_t *hi)
{
    size_t q = n / (size_t)nt, r = n % (size_t)nt, k = (size_t)t;
    *lo = k * q + (k < r ? k : r);
    *hi = *lo + q + (k < r);
}

/* One thread's partial results of a loop, on a cache line of its own. */
typedef struct {
    size_t count[2];
    double max[3];
    char pad[64 - 2 * sizeof(size_t) - 3 * sizeof(double)];
} par_partial;

typedef void (*par_range_fn)(void *ctx, size_t lo, size_t hi, int t);

/* A pool of nt threads: the caller and nt - 1 workers. NULL with nt <= 1 (nothing to start). */
typedef struct par_pool par_pool;
DEM_MUST_CHECK dem_status dem_par_pool_new(int nt, par_pool **out, dem_error *err);
void dem_par_pool_free(par_pool *pool);

/* Run f over [0, n) in the pool's shares (pool NULL: f(ctx, 0, n, 0) here); returns when every
 * share is done. */
void dem_par_for(par_pool *pool, size_t n, par_range_fn f, void *ctx);

/* The same with shares of equal work instead of equal counts: work(wctx, k) is the work of items
 * [0, k), non-decreasing in k (a prefix sum the caller has, such as the pairs before a block).
 * Which thread runs an item changes, never what is computed: the same bits as dem_par_for. A pour
 * whose lower half is packed and upper half falling gave the thread with the packed half nearly
 * all the contacts: two threads ran 1.2x one. */
typedef size_t (*par_work_fn)(const void *wctx, size_t k);
void dem_par_for_work(par_pool *pool, size_t n, par_work_fn work, const void *wctx, par_range_fn f, void *ctx);
/* The same over items [lo, hi) only (a process's share of a loop split over processes, dist.h):
 * f sees the items' own indices. */
void dem_par_for_work_range(par_pool *pool, size_t lo, size_t hi, par_work_fn work, const void *wctx, par_range_fn f, void *ctx);

#endif
