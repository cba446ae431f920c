/* test_par.c - the sim's thread pool (lib/sim/par.c): every item of a loop runs exactly once, in
 * the share par_share_of gives its thread, for any thread count and any loop length (fewer items
 * than threads included), loop after loop; partial results come back per thread. */
#include <stdint.h>
#include <stdlib.h>

#include "sim/internal/par.h"
#include "unit.h"

typedef struct {
    unsigned *visits;  /* per item: how many times it ran */
    int *owner;        /* per item: the thread that ran it */
    par_partial *part; /* per thread: count[0] items, max[0] largest item */
} loop_ctx;

static void visit(void *ctx, size_t lo, size_t hi, int t)
{
    loop_ctx *c = ctx;
    c->part[t].count[0] = hi - lo;
    c->part[t].max[0] = hi > lo ? (double)(hi - 1) : -1.0;
    for (size_t k = lo; k < hi; k++) {
        c->visits[k]++;
        c->owner[k] = t;
    }
}

static void test_loops(int nt)
{
    dem_error err;
    par_pool *pool;
    CHECK(dem_par_pool_new(nt, &pool, &err) == DEM_OK);
    CHECK((nt <= 1) == (pool == NULL));
    size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000, 12345};
    for (int round = 0; round < 50; round++) { /* many loops: workers sleep and wake between them */
        size_t n = sizes[round % 8];
        loop_ctx c = {calloc(n + 1, sizeof(unsigned)), calloc(n + 1, sizeof(int)), calloc((size_t)nt, sizeof(par_partial))};
        dem_par_for(pool, n, visit, &c);
        int ok = 1;
        size_t total = 0;
        for (int t = 0; t < nt; t++) {
            size_t lo, hi;
            par_share_of(n, t, nt, &lo, &hi);
            for (size_t k = lo; k < hi; k++) ok &= c.visits[k] == 1 && c.owner[k] == t;
            ok &= c.part[t].count[0] == hi - lo;
            total += c.part[t].count[0];
        }
        CHECK_MSG(ok && total == n, "%d threads, %zu items, round %d", nt, n, round);
        free(c.visits);
        free(c.owner);
        free(c.part);
    }
    dem_par_pool_free(pool);
}

/* work before item k: the first half of the items cost 100 each, the rest 1 (a pour's packed half) */
static size_t skewed_work(const void *wctx, size_t k)
{
    size_t half = *(const size_t *)wctx / 2;
    return k <= half ? 100 * k : 100 * half + (k - half);
}

static void test_work_split(int nt)
{
    dem_error err;
    par_pool *pool;
    CHECK(dem_par_pool_new(nt, &pool, &err) == DEM_OK);
    size_t sizes[] = {0, 1, 5, 1000, 4096};
    for (int round = 0; round < 10; round++) {
        size_t n = sizes[round % 5];
        loop_ctx c = {calloc(n + 1, sizeof(unsigned)), calloc(n + 1, sizeof(int)), calloc((size_t)nt, sizeof(par_partial))};
        dem_par_for_work(pool, n, skewed_work, &n, visit, &c);
        int ok = 1;
        size_t total = 0, most = 0;
        for (size_t k = 0; k < n; k++) ok &= c.visits[k] == 1;
        for (size_t k = 1; k < n; k++) ok &= c.owner[k] >= c.owner[k - 1]; /* contiguous, in thread order */
        for (int t = 0; t < nt; t++) total += c.part[t].count[0];
        for (int t = 0; t < nt && n >= 1000; t++) { /* each share's work within one item of its due */
            size_t lo = 0, hi = 0;
            for (size_t k = 0; k < n; k++)
                if (c.owner[k] == t) { if (hi == 0) lo = k; hi = k + 1; }
            size_t w = hi > lo ? skewed_work(&n, hi) - skewed_work(&n, lo) : 0;
            if (w > most) most = w;
        }
        CHECK_MSG(ok && total == n, "dem_par_for_work: %d threads, %zu items", nt, n);
        if (n >= 1000 && nt <= 4) CHECK_MSG(most <= skewed_work(&n, n) / (size_t)nt + 100, "dem_par_for_work: %d threads, largest share %zu of %zu", nt, most, skewed_work(&n, n));
        free(c.visits);
        free(c.owner);
        free(c.part);
    }
    dem_par_pool_free(pool);
}

int main(void)
{
    for (int nt = 1; nt <= 8; nt++) test_loops(nt);
    for (int nt = 1; nt <= 8; nt++) test_work_split(nt);
    size_t lo, hi;
    par_share_of(10, 0, 3, &lo, &hi);
    CHECK(lo == 0 && hi == 4); /* the first n % nt shares one longer, as OpenMP's schedule(static) */
    par_share_of(10, 2, 3, &lo, &hi);
    CHECK(lo == 7 && hi == 10);
    UNIT_DONE();
}
