/* par.c - the sim's thread pool (par.h): the caller and nt - 1 workers run the shares of one loop
 * at a time. Waiting, for the next loop or for the others' shares, spins for a few tens of
 * microseconds (long enough for the gap between the loops of a step on an idle machine) and then
 * sleeps on a condition variable, so that a waiting thread never holds a core that a busy
 * neighbour, or the thread with work, needs. */
#include "sim/internal/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Spin iterations before sleeping: each a CPU pause (tens of cycles), some 20-60 us in all. */
#define PAR_SPIN 2000

struct par_pool {
    int nt;
    pthread_t *tid;
    pthread_mutex_t lock;
    pthread_cond_t go;       /* a new loop (or quit) */
    pthread_cond_t done;     /* the last worker finished its share */
    atomic_uint gen;         /* loops started: a worker runs each new value once */
    atomic_int pending;      /* workers still running the current loop */
    int quit;                /* under lock */
    par_range_fn f;          /* the current loop, written before gen moves on */
    void *ctx;
    size_t n;
    size_t *cut;             /* nt + 1 share bounds of a loop split by work (dem_par_for_work), or NULL */
    int by_work;             /* the current loop uses cut */
};

typedef struct {
    par_pool *pool;
    int t;
} worker_arg;

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void run_share(par_pool *p, int t)
{
    size_t lo, hi;
    if (p->by_work) {
        lo = p->cut[t];
        hi = p->cut[t + 1];
    } else {
        par_share_of(p->n, t, p->nt, &lo, &hi);
    }
    p->f(p->ctx, lo, hi, t);
}

/* Wait until gen differs from seen (spin, then sleep); returns the new gen, or seen if quitting. */
static unsigned wait_next(par_pool *p, unsigned seen)
{
    for (int k = 0; k < PAR_SPIN; k++) {
        unsigned g = atomic_load_explicit(&p->gen, memory_order_acquire);
        if (g != seen) return g;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    unsigned g;
    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen && !p->quit) pthread_cond_wait(&p->go, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return g;
}

static void *worker(void *arg)
{
    worker_arg a = *(worker_arg *)arg;
    free(arg);
    par_pool *p = a.pool;
    unsigned seen = 0;
    for (;;) {
        unsigned g = wait_next(p, seen);
        if (g == seen) return NULL; /* quit */
        seen = g;
        run_share(p, a.t);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->lock); /* the caller tests pending under the lock: no lost wake-up */
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

static void run_loop(par_pool *p, size_t n, par_range_fn f, void *ctx);

void dem_par_for(par_pool *p, size_t n, par_range_fn f, void *ctx)
{
    if (!p) {
        f(ctx, 0, n, 0);
        return;
    }
    p->by_work = 0;
    run_loop(p, n, f, ctx);
}

void dem_par_for_work(par_pool *p, size_t n, par_work_fn work, const void *wctx, par_range_fn f, void *ctx)
{
    if (!p) {
        f(ctx, 0, n, 0);
        return;
    }
    size_t total = work(wctx, n);
    p->cut[0] = 0;
    p->cut[p->nt] = n;
    for (int t = 1; t < p->nt; t++) { /* the first k whose work before it reaches t/nt of the total */
        size_t target = (size_t)((double)total * t / p->nt), lo = p->cut[t - 1], hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (work(wctx, mid) < target) lo = mid + 1;
            else hi = mid;
        }
        p->cut[t] = lo;
    }
    p->by_work = 1;
    run_loop(p, n, f, ctx);
}

/* Items [lo, hi) seen as [0, hi - lo) by dem_par_for_work. */
typedef struct {
    size_t lo;
    par_work_fn work;
    const void *wctx;
    par_range_fn f;
    void *ctx;
} range_shift;

static size_t shifted_work(const void *w, size_t k)
{
    const range_shift *r = w;
    return r->work(r->wctx, r->lo + k) - r->work(r->wctx, r->lo);
}

static void shifted_range(void *c, size_t lo, size_t hi, int t)
{
    const range_shift *r = c;
    r->f(r->ctx, r->lo + lo, r->lo + hi, t);
}

void dem_par_for_work_range(par_pool *p, size_t lo, size_t hi, par_work_fn work, const void *wctx, par_range_fn f, void *ctx)
{
    if (!p) {
        f(ctx, lo, hi, 0);
        return;
    }
    range_shift r = {lo, work, wctx, f, ctx};
    dem_par_for_work(p, hi - lo, shifted_work, &r, shifted_range, &r);
}

static void run_loop(par_pool *p, size_t n, par_range_fn f, void *ctx)
{
    p->f = f;
    p->ctx = ctx;
    p->n = n;
    atomic_store_explicit(&p->pending, p->nt - 1, memory_order_relaxed);
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release); /* publishes f, ctx, n */
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    run_share(p, 0);
    for (int k = 0; k < PAR_SPIN; k++) {
        if (atomic_load_explicit(&p->pending, memory_order_acquire) == 0) return;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    while (atomic_load_explicit(&p->pending, memory_order_acquire) != 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static void stop_workers(par_pool *p, int started)
{
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (int k = 0; k < started; k++) pthread_join(p->tid[k], NULL);
}

dem_status dem_par_pool_new(int nt, par_pool **out, dem_error *err)
{
    *out = NULL;
    if (nt <= 1) return DEM_OK;
    par_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->tid = calloc((size_t)nt - 1, sizeof *p->tid)) || !(p->cut = calloc((size_t)nt + 1, sizeof *p->cut))) {
        if (p) free(p->tid);
        free(p);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %d threads", nt);
    }
    p->nt = nt;
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int k = 0; k < nt - 1; k++) {
        worker_arg *a = malloc(sizeof *a);
        if (a) *a = (worker_arg){p, k + 1};
        if (!a || pthread_create(&p->tid[k], NULL, worker, a) != 0) {
            free(a);
            stop_workers(p, k);
            p->nt = 0;
            dem_par_pool_free(p);
            return dem_fail(err, DEM_ERR_NOMEM, "cannot start thread %d of %d", k + 2, nt);
        }
    }
    *out = p;
    return DEM_OK;
}

void dem_par_pool_free(par_pool *p)
{
    if (!p) return;
    if (p->nt > 1) stop_workers(p, p->nt - 1);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->lock);
    free(p->tid);
    free(p->cut);
    free(p);
}
