/* dem-count - test helper: what the last frame of a dem stream on standard input holds.
 *
 * Usage: dem-count                  one line: frames=F particles=N walls=W materials=M cell=FLAGS
 *        dem-count TABLE FIELDS     one row per record of TABLE (particle, wall, material, cell)
 *                                   with the comma-separated FIELDS (names of lib/fields.c:
 *                                   x, r, mass, flags, name, nz, radius, h11, ...), tab separated
 *
 * Doubles print as the shortest text that reads back bit for bit, so tests can compare values
 * exactly. It reads through libdem only: no program logic stands between a test and the frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"

static void print_value(const dem_field *f, const void *rec)
{
    const char *p = (const char *)rec + f->offset;
    char buf[DEM_DOUBLE_TEXT_MAX];
    switch (f->type) {
    case DEM_FT_CHAR32: printf("%.32s", p); break;
    case DEM_FT_F64: {
        double v;
        memcpy(&v, p, sizeof v);
        dem_format_double(buf, sizeof buf, v);
        fputs(buf, stdout);
        break;
    }
    case DEM_FT_U64: { unsigned long long v; uint64_t x; memcpy(&x, p, 8); v = x; printf("%llu", v); break; }
    case DEM_FT_U32: { uint32_t x; memcpy(&x, p, 4); printf("%u", x); break; }
    case DEM_FT_I32: { int32_t x; memcpy(&x, p, 4); printf("%d", x); break; }
    }
}

static int print_table(const dem_system *s, const char *table, const char *fields)
{
    const dem_record_type *rt;
    const void *base;
    size_t n, stride;
    if (strcmp(table, "particle") == 0) rt = &dem_rec_particle, base = s->particles, n = s->nparticles, stride = sizeof(dem_particle);
    else if (strcmp(table, "wall") == 0) rt = &dem_rec_wall, base = s->walls, n = s->nwalls, stride = sizeof(dem_wall);
    else if (strcmp(table, "material") == 0) rt = &dem_rec_material, base = s->materials, n = s->nmaterials, stride = sizeof(dem_material);
    else if (strcmp(table, "cell") == 0) rt = &dem_rec_cell, base = &s->cell, n = s->cell.flags ? 1 : 0, stride = 0;
    else {
        fprintf(stderr, "dem-count: unknown table '%s'\n", table);
        return 2;
    }
    const dem_field *cols[64];
    int ncols = 0;
    char *list = strdup(fields);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (ncols == 64 || !(cols[ncols] = dem_record_field(rt, tok))) {
            fprintf(stderr, "dem-count: table %s has no field '%s'\n", table, tok);
            free(list);
            return 2;
        }
        ncols++;
    }
    free(list);
    for (size_t k = 0; k < n; k++) {
        for (int c = 0; c < ncols; c++) {
            if (c) putchar('\t');
            print_value(cols[c], (const char *)base + k * stride);
        }
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "usage: dem-count [TABLE FIELDS] < stream\n");
        return 2;
    }
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(0, &err);
    int st;
    while ((st = dem_reader_next(r, &s, &err)) == 1) continue;
    if (st < 0) {
        fprintf(stderr, "dem-count: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    if (argc == 1)
        printf("frames=%llu particles=%zu walls=%zu materials=%zu cell=%u\n", (unsigned long long)dem_reader_frames(r),
               s.nparticles, s.nwalls, s.nmaterials, s.cell.flags);
    else
        rc = print_table(&s, argv[1], argv[2]);
    dem_reader_free(r);
    dem_system_free(&s);
    return rc;
}
