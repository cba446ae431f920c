/* pack_tsv.c - particles from tab-separated text, with messages that name the line and column. */
#include "pack/pack.h"
#include "pack/table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    COL_X, COL_Y, COL_Z, COL_R, COL_ID, COL_VX, COL_VY, COL_VZ, COL_WX, COL_WY, COL_WZ,
    COL_MATERIAL, COL_FIXED,
    /* The other columns of `dem-probe --particles`, accepted and ignored so that its output of
     * one frame pipes straight back into dem-pack: a fresh system has no time or forces. */
    COL_FRAME, COL_STEP, COL_TIME, COL_FX, COL_FY, COL_FZ, NCOLS
};
#define COL_FIRST_IGNORED COL_FRAME
static const char *const col_names[NCOLS] = {"x", "y", "z", "r", "id", "vx", "vy", "vz",
                                              "wx", "wy", "wz", "material", "fixed",
                                              "frame", "step", "time", "fx", "fy", "fz"};
/* SI unit a header name may carry in brackets, as dem-probe prints it: "x[m]", "vx[m/s]". */
static const char *const col_units[NCOLS] = {"m", "m", "m", "m", NULL, "m/s", "m/s", "m/s",
                                              "rad/s", "rad/s", "rad/s", NULL, NULL,
                                              NULL, NULL, "s", "N", "N", "N"};
#define COL_LIST "required: x y z r; optional: id vx vy vz wx wy wz material fixed; ignored: frame step time fx fy fz"
#define NREQUIRED 4 /* x y z r come first in col_names */
#define FIELD_MAX 128

typedef struct {
    int col[NCOLS];   /* column enum of each header field */
    int ncols;        /* fields in the header */
    int present[NCOLS];
} header;

/* The column a header name denotes, or -1: the bare name, or the name and its SI unit. */
static int column_of(dem_span name)
{
    const char *bracket = memchr(name.p, '[', name.n);
    size_t n = bracket ? (size_t)(bracket - name.p) : name.n;
    for (int j = 0; j < NCOLS; j++) {
        if (strlen(col_names[j]) != n || memcmp(col_names[j], name.p, n) != 0) continue;
        if (!bracket) return j;
        const char *unit = col_units[j];
        size_t un = name.n - n - 2; /* without the brackets */
        if (unit && name.p[name.n - 1] == ']' && strlen(unit) == un && memcmp(unit, bracket + 1, un) == 0) return j;
        return -1;
    }
    return -1;
}

static dem_status parse_header(dem_span line, header *h, dem_error *err)
{
    dem_span f[NCOLS + 1];
    memset(h, 0, sizeof *h);
    if (dem_table_blank(line))
        return dem_fail(err, DEM_ERR_ARG, "line 1: the header is empty; expected tab-separated column names (" COL_LIST ")");
    int n = dem_table_split(line, f, NCOLS + 1);
    for (int k = 0; k < n; k++) {
        if (k >= NCOLS) /* more names than columns exist: one must be unknown or repeated */
            return dem_fail(err, DEM_ERR_ARG, "line 1: %d columns in the header, but only %d column names exist (" COL_LIST ")", n, NCOLS);
        if (f[k].n == 0) return dem_fail(err, DEM_ERR_ARG, "line 1: column %d has an empty name", k + 1);
        int c = column_of(f[k]);
        if (c < 0)
            return dem_fail(err, DEM_ERR_ARG, "line 1, column %.*s: unknown column name (" COL_LIST
                            "; x y z r may carry [m], v* [m/s], w* [rad/s])", (int)(f[k].n < 40 ? f[k].n : 40), f[k].p);
        if (h->present[c]) return dem_fail(err, DEM_ERR_ARG, "line 1, column %s: appears twice in the header", col_names[c]);
        h->present[c] = 1;
        h->col[k] = c;
    }
    h->ncols = n;
    for (int c = 0; c < NREQUIRED; c++)
        if (!h->present[c]) return dem_fail(err, DEM_ERR_ARG, "line 1, column %s: required column missing from the header", col_names[c]);
    return DEM_OK;
}

/* Copy a field into buf as a C string; fails if it does not fit. */
static dem_status field_text(dem_span f, char *buf, size_t line, int col, dem_error *err)
{
    if (f.n == 0) return dem_fail(err, DEM_ERR_ARG, "line %zu, column %s: empty value", line, col_names[col]);
    if (f.n >= FIELD_MAX)
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column %s: value of %zu bytes is too long", line, col_names[col], f.n);
    memcpy(buf, f.p, f.n);
    buf[f.n] = 0;
    return DEM_OK;
}

static dem_status field_double(dem_span f, double *v, size_t line, int col, dem_error *err)
{
    char buf[FIELD_MAX];
    dem_status st = field_text(f, buf, line, col, err);
    if (st) return st;
    char *end;
    double x = strtod(buf, &end);
    if (end != buf + f.n || !isfinite(x))
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column %s: '%s' is not a finite number", line, col_names[col], buf);
    *v = x;
    return DEM_OK;
}

static dem_status field_id(dem_span f, uint64_t *id, size_t line, dem_error *err)
{
    char buf[FIELD_MAX];
    dem_status st = field_text(f, buf, line, COL_ID, err);
    if (st) return st;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (!isdigit((unsigned char)buf[0]) || *end || errno == ERANGE)
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column id: '%s' is not an integer in 0..18446744073709551615", line, buf);
    *id = v;
    return DEM_OK;
}

static dem_status field_material(const dem_system *s, dem_span f, uint32_t *mat, size_t line, dem_error *err)
{
    char buf[FIELD_MAX];
    dem_status st = field_text(f, buf, line, COL_MATERIAL, err);
    if (st) return st;
    if ((st = dem_pack_find_material(s, buf, mat, err))) dem_error_prefix(err, "line %zu, column material: ", line);
    return st;
}

static dem_status field_fixed(dem_span f, uint32_t *flags, size_t line, dem_error *err)
{
    char buf[FIELD_MAX];
    dem_status st = field_text(f, buf, line, COL_FIXED, err);
    if (st) return st;
    if (strcmp(buf, "0") && strcmp(buf, "1"))
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column fixed: '%s' must be 0 or 1", line, buf);
    if (buf[0] == '1') *flags |= DEM_PARTICLE_FIXED;
    return DEM_OK;
}

/* Store the value of field f (column col) in p. */
static dem_status parse_field(const dem_system *s, dem_span f, int col, dem_particle *p, size_t line, dem_error *err)
{
    double *dst = NULL;
    if (col >= COL_FIRST_IGNORED) return DEM_OK;
    switch (col) {
    case COL_ID: return field_id(f, &p->id, line, err);
    case COL_MATERIAL: return field_material(s, f, &p->material, line, err);
    case COL_FIXED: return field_fixed(f, &p->flags, line, err);
    case COL_X: dst = &p->pos.x; break;
    case COL_Y: dst = &p->pos.y; break;
    case COL_Z: dst = &p->pos.z; break;
    case COL_R: dst = &p->radius; break;
    case COL_VX: dst = &p->vel.x; break;
    case COL_VY: dst = &p->vel.y; break;
    case COL_VZ: dst = &p->vel.z; break;
    case COL_WX: dst = &p->omega.x; break;
    case COL_WY: dst = &p->omega.y; break;
    case COL_WZ: dst = &p->omega.z; break;
    }
    dem_status st = field_double(f, dst, line, col, err);
    if (!st && col == COL_R && !(p->radius > 0.0))
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column r: radius %g must be positive", line, p->radius);
    return st;
}

static dem_status parse_row(const dem_system *s, const header *h, dem_span line_text, size_t line, dem_particle *p, dem_error *err)
{
    dem_span f[NCOLS];
    int n = dem_table_split(line_text, f, NCOLS);
    if (n < h->ncols)
        return dem_fail(err, DEM_ERR_ARG, "line %zu, column %s: missing value (%d fields, the header names %d columns)",
                        line, col_names[h->col[n]], n, h->ncols);
    if (n > h->ncols)
        return dem_fail(err, DEM_ERR_ARG, "line %zu: %d fields, but the header names %d columns", line, n, h->ncols);
    dem_status st;
    for (int k = 0; k < n; k++)
        if ((st = parse_field(s, f[k], h->col[k], p, line, err))) return st;
    return DEM_OK;
}

typedef struct {
    uint64_t id;
    size_t line;
} id_line;

static int cmp_id_line(const void *a, const void *b)
{
    const id_line *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Report the first line (in file order) that repeats an id of an earlier line. */
static dem_status check_unique_ids(id_line *ids, size_t n, dem_error *err)
{
    qsort(ids, n, sizeof *ids, cmp_id_line);
    size_t bad = SIZE_MAX;
    for (size_t k = 1; k < n; k++) /* sorted by (id, line): a repeat follows its predecessor */
        if (ids[k].id == ids[k - 1].id && (bad == SIZE_MAX || ids[k].line < ids[bad].line)) bad = k;
    if (bad == SIZE_MAX) return DEM_OK;
    size_t first = bad;
    while (first > 0 && ids[first - 1].id == ids[bad].id) first--;
    return dem_fail(err, DEM_ERR_ARG, "line %zu, column id: id %llu already used on line %zu", ids[bad].line,
                    (unsigned long long)ids[bad].id, ids[first].line);
}

dem_status dem_pack_parse_tsv(dem_system *s, const char *text, size_t len, dem_error *err)
{
    size_t at = 0, line = 1, base = s->nparticles;
    dem_span l;
    header h;
    dem_status st;
    if (!dem_table_next_line(text, len, &at, &l))
        return dem_fail(err, DEM_ERR_ARG, "line 1: empty input; expected a header line naming the columns (" COL_LIST ")");
    if ((st = parse_header(l, &h, err))) return st;
    if (s->nmaterials == 0) return dem_fail(err, DEM_ERR_ARG, "there is no material for the particles");
    id_line *ids = NULL;
    size_t cap = 0;
    while (dem_table_next_line(text, len, &at, &l)) {
        line++;
        if (dem_table_skip(l)) continue;
        dem_particle p = dem_particle_default();
        p.id = (uint64_t)s->nparticles + 1; /* as dem_pack_push_sphere numbers them */
        if ((st = parse_row(s, &h, l, line, &p, err))) goto fail;
        dem_sphere_mass(p.radius, s->materials[p.material].density, &p.mass, &p.inertia);
        if ((st = dem_system_push_particle(s, &p, err))) goto fail;
        size_t k = s->nparticles - base - 1;
        if (k == cap) {
            cap = cap ? 2 * cap : 1024;
            id_line *q = realloc(ids, cap * sizeof *q);
            if (!q) { st = dem_fail(err, DEM_ERR_NOMEM, "out of memory reading line %zu", line); goto fail; }
            ids = q;
        }
        ids[k].id = p.id;
        ids[k].line = line;
    }
    if (h.present[COL_ID] && (st = check_unique_ids(ids, s->nparticles - base, err))) goto fail;
    free(ids);
    return DEM_OK;
fail:
    free(ids);
    s->nparticles = base;
    return st;
}
