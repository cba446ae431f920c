/* test_pages.c - memory given back inside an array that stays allocated (lib/core/pages.c): a
 * table read from front to back gives back only what was read (every element reads as written
 * when its turn comes), the pages behind the reading leave the resident set (mincore), the bytes
 * around a range keep their values, and the array is still freed as usual (the sanitizer build
 * checks that). The sim's loaders use it on a frame's tables (dem_particles_load, dem_store_load). */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/pages.h"
#include "unit.h"

/* Resident pages of [p, p + len) (whole pages inside it), by mincore. */
static size_t resident_pages(const void *p, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)p + page - 1) / page * page, b = ((uintptr_t)p + len) / page * page;
    if (b <= a) return 0;
    size_t n = (b - a) / page, in = 0;
    unsigned char *v = malloc(n);
    if (!v || mincore((void *)a, b - a, v) != 0) { free(v); return (size_t)-1; }
    for (size_t k = 0; k < n; k++) in += v[k] & 1;
    free(v);
    return in;
}

static void test_consume_front_to_back(void)
{
    size_t n = 3u << 20; /* 24 MB of doubles */
    double *t = malloc(n * sizeof *t);
    CHECK(t != NULL);
    if (!t) return;
    for (size_t k = 0; k < n; k++) t[k] = (double)k + 1.0;
    dem_pages_reader r = {(char *)t, 0};
    size_t wrong = 0, half = n / 2;
    for (size_t k = 0; k < half; k++) { /* the first half read */
        wrong += t[k] != (double)k + 1.0; /* nothing read yet was given back */
        dem_pages_consume(&r, (k + 1) * sizeof *t);
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), mb = 1u << 20, read = half * sizeof *t;
    /* all but the last megabyte read went (a call a megabyte), whole pages only, and nothing after */
    CHECK_MSG(r.done + mb >= read && r.done <= read, "given back up to byte %zu of the %zu read", r.done, read);
    CHECK_MSG(((uintptr_t)t + r.done) % page == 0, "the reading's mark is not on a page boundary");
    size_t behind = resident_pages(t, r.done), ahead = resident_pages((char *)t + read, n * sizeof *t - read);
    CHECK_MSG(behind <= 1, "%zu pages behind the reading are still resident", behind); /* the first may hold the allocator's words */
    CHECK_MSG(ahead + 2 >= (n * sizeof *t - read) / page, "only %zu pages ahead of the reading are resident", ahead);
    for (size_t k = half; k < n; k++) {
        wrong += t[k] != (double)k + 1.0;
        dem_pages_consume(&r, (k + 1) * sizeof *t);
    }
    CHECK_MSG(wrong == 0, "%zu elements read after their pages were given back", wrong);
    /* given back, the pages read as zeros (a fresh page on touch) */
    CHECK_MSG(t[page * 4 / sizeof *t] == 0.0, "a page given back did not read as zeros");
    free(t); /* the allocator's own words were kept */
}

static void test_release_inside_only(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 64 * page;
    unsigned char *a = malloc(len);
    CHECK(a != NULL);
    if (!a) return;
    memset(a, 0xa5, len);
    /* a range from the middle of one page to the middle of another: the whole pages between go */
    size_t from = page * 3 + page / 2, to = page * 9 + page / 3;
    uintptr_t first = ((uintptr_t)a + from + page - 1) / page * page, last = ((uintptr_t)a + to) / page * page;
    size_t got = dem_pages_release(a + from, to - from);
    CHECK_MSG(got == last - first, "%zu bytes given back, the whole pages inside are %zu", got, (size_t)(last - first));
    size_t kept = 0, zero = 0;
    for (size_t k = 0; k < len; k++) {
        uintptr_t at = (uintptr_t)a + k;
        if (at >= first && at < last) zero += a[k] == 0;
        else kept += a[k] == 0xa5;
    }
    CHECK_MSG(zero == last - first, "%zu of the %zu bytes given back read as zeros", zero, (size_t)(last - first));
    CHECK_MSG(kept == len - (last - first), "a byte outside the whole pages changed");
    CHECK(dem_pages_release(a + 1, page - 2) == 0); /* no whole page inside */
    CHECK(dem_pages_release(NULL, len) == 0);
    dem_pages_reader none = {NULL, 0};
    dem_pages_consume(&none, len); /* a reader without a table does nothing */
    CHECK(none.done == 0);
    free(a);
}

int main(void)
{
    test_consume_front_to_back();
    test_release_inside_only();
    printf("  a 24 MB table read front to back: nothing read was given back, the pages behind the reading left the resident set\n");
    UNIT_DONE();
}
