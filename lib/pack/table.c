/* table.c - the lines and fields of dem-pack's tab-separated tables (see table.h). */
#include "pack/table.h"

#include <string.h>

int dem_table_next_line(const char *text, size_t len, size_t *at, dem_span *line)
{
    if (*at >= len) return 0;
    const char *start = text + *at;
    const char *nl = memchr(start, '\n', len - *at);
    size_t n = nl ? (size_t)(nl - start) : len - *at;
    *at += n + (nl ? 1 : 0);
    if (n > 0 && start[n - 1] == '\r') n--;
    line->p = start;
    line->n = n;
    return 1;
}

int dem_table_split(dem_span line, dem_span *fields, int max)
{
    int count = 0;
    size_t start = 0;
    for (size_t k = 0; k <= line.n; k++) {
        if (k < line.n && line.p[k] != '\t') continue;
        dem_span f = {line.p + start, k - start};
        while (f.n && f.p[0] == ' ') { f.p++; f.n--; }
        while (f.n && f.p[f.n - 1] == ' ') f.n--;
        if (count < max) fields[count] = f;
        count++;
        start = k + 1;
    }
    return count;
}

int dem_table_blank(dem_span line)
{
    for (size_t k = 0; k < line.n; k++)
        if (line.p[k] != ' ' && line.p[k] != '\t') return 0;
    return 1;
}

int dem_table_skip(dem_span line)
{
    size_t k = 0;
    while (k < line.n && (line.p[k] == ' ' || line.p[k] == '\t')) k++;
    return k == line.n || line.p[k] == '#';
}
