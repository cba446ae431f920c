/* table.h - the lines and fields of the tab-separated tables dem-pack reads (particles, clump
 * templates, clump poses): one reader of text, so that every table splits, trims and skips alike. */
#ifndef DEM_PACK_TABLE_H
#define DEM_PACK_TABLE_H

#include <stddef.h>

/* A piece of the caller's text (not terminated). */
typedef struct {
    const char *p;
    size_t n;
} dem_span;

/* The next line of text from *at (without its '\n' and any '\r' before it); 0 at the end. */
int dem_table_next_line(const char *text, size_t len, size_t *at, dem_span *line);
/* Split a line at tabs into up to max fields, each trimmed of spaces; returns the field count
 * (which may exceed max: the extra fields are counted, not stored). */
int dem_table_split(dem_span line, dem_span *fields, int max);
/* Only spaces and tabs. */
int dem_table_blank(dem_span line);
/* Blank, or a comment ('#' first): a line the tables skip after their header. */
int dem_table_skip(dem_span line);

#endif
