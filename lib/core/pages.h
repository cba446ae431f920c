/* pages.h - memory given back to the system inside an array that stays allocated.
 *
 * A large array read once from front to back (a frame's table as the sim takes it in) or whose
 * elements become stale in runs (a process's copy of other processes' particles, lib/sim/dist.c)
 * can give its pages back while it is still allocated: the whole pages inside a byte range go
 * (madvise MADV_DONTNEED on the private anonymous memory malloc gives large arrays) and read as
 * zeros if they are ever touched again, which costs a fresh page then. The array stays valid for
 * free() or realloc(): only whole pages strictly inside the range go, never the allocator's own
 * words around it. */
#ifndef DEM_PAGES_H
#define DEM_PAGES_H

#include <stddef.h>

/* Gives back the whole pages inside [p, p + len); returns the bytes given back (0 where the
 * system has no such call, or the range holds no whole page). */
size_t dem_pages_release(void *p, size_t len);

/* A table read once from front to back, its pages given back behind the reading
 * (dem_pages_consume). */
typedef struct {
    char *base;   /* the table; NULL: nothing is given back */
    size_t done;  /* the bytes before base + done are given back */
} dem_pages_reader;

/* The table's first `upto` bytes have been read and will not be read again: their whole pages
 * go, once a megabyte has gathered since the last time (a call a megabyte, not one a record). */
void dem_pages_consume(dem_pages_reader *t, size_t upto);

#endif
