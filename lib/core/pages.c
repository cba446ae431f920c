/* pages.c - memory given back to the system inside an array that stays allocated (pages.h). */
#include "core/pages.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

size_t dem_pages_release(void *p, size_t len)
{
#ifdef MADV_DONTNEED
    long ps = sysconf(_SC_PAGESIZE);
    uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096, a = (uintptr_t)p, b = a + len;
    uintptr_t pa = (a + page - 1) / page * page, pb = b / page * page;
    if (p && pa < pb && madvise((void *)pa, pb - pa, MADV_DONTNEED) == 0) return pb - pa;
#else
    (void)p;
    (void)len;
#endif
    return 0;
}

enum { CONSUME_STEP = 1 << 20 };

void dem_pages_consume(dem_pages_reader *t, size_t upto)
{
    if (!t->base || upto <= t->done || upto - t->done < CONSUME_STEP) return;
    long ps = sysconf(_SC_PAGESIZE);
    uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096, end = ((uintptr_t)t->base + upto) / page * page;
    if (end <= (uintptr_t)t->base + t->done) return;
    dem_pages_release(t->base + t->done, end - ((uintptr_t)t->base + t->done));
    t->done = end - (uintptr_t)t->base; /* page-aligned from here on: the next call's first page is whole */
}
