/* vtpcheck - test helper: check a VTK XML PolyData file with appended raw data as written by
 * dem-probe --vtk, independently of the writer.
 *
 * Usage: vtpcheck FILE           check; print "SECTION NAME TYPE COMPONENTS TUPLES" per array
 *        vtpcheck -x FILE        print the XML with the binary block left out (for an XML parser)
 *        vtpcheck -a NAME FILE   print array NAME, one tuple per line, components tab separated
 *
 * Checks: header_type UInt64 and LittleEndian; the blocks follow each other exactly as the
 * offsets say (each a UInt64 byte count, then the bytes), the last one ends right before
 * "\n  </AppendedData>\n</VTKFile>\n" at the end of the file; every array holds whole tuples, as
 * many as its section needs (points, cells: verts, lines and polys); offsets increase and end at the connectivity length;
 * connectivity names existing points. Exit status 1 with a message on the first problem. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "core/text.h"

#define MAX_ARRAYS 64
static const char TAIL[] = "\n  </AppendedData>\n</VTKFile>\n";

typedef struct {
    char section[16], name[64], type[16];
    unsigned ncomp, size;
    uint64_t offset, bytes, tuples;
    const uint8_t *data;
} array;

typedef struct {
    uint8_t *buf;
    size_t len;
    size_t base; /* first byte after '_' */
    uint64_t npoints, nverts, nlines, npolys;
    array a[MAX_ARRAYS];
    int n;
} vtp;

static void fail(const char *fmt, const char *arg)
{
    fprintf(stderr, "vtpcheck: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static void read_file(vtp *v, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot open %s", path);
    size_t cap = 1 << 16;
    v->buf = malloc(cap + 1);
    for (size_t got; (got = fread(v->buf + v->len, 1, cap - v->len, f)) > 0;) {
        v->len += got;
        if (v->len == cap) v->buf = realloc(v->buf, (cap *= 2) + 1);
    }
    fclose(f);
    v->buf[v->len] = 0;
}

/* Value of attribute key="..." in the tag starting at tag (up to the next '>'). */
static int attr(const char *tag, const char *key, char *out, size_t size)
{
    const char *end = strchr(tag, '>');
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", key);
    const char *p = strstr(tag, pat);
    if (!p || (end && p > end)) return 0;
    p += strlen(pat);
    size_t n = strcspn(p, "\"");
    if (n >= size) n = size - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return 1;
}

static uint64_t attr_u64(const char *tag, const char *key, uint64_t def)
{
    char v[32];
    return attr(tag, key, v, sizeof v) ? strtoull(v, NULL, 10) : def;
}

static unsigned type_size(const char *t)
{
    if (!strcmp(t, "Float64") || !strcmp(t, "Int64") || !strcmp(t, "UInt64")) return 8;
    if (!strcmp(t, "Float32") || !strcmp(t, "Int32") || !strcmp(t, "UInt32")) return 4;
    if (!strcmp(t, "Int8") || !strcmp(t, "UInt8")) return 1;
    fail("unknown DataArray type %s", t);
    return 0;
}

static void parse_header(vtp *v)
{
    const char *text = (const char *)v->buf;
    const char *top = strstr(text, "<VTKFile ");
    char val[32];
    if (!top || !attr(top, "header_type", val, sizeof val) || strcmp(val, "UInt64")) fail("%s", "header_type is not UInt64");
    if (!attr(top, "byte_order", val, sizeof val) || strcmp(val, "LittleEndian")) fail("%s", "byte_order is not LittleEndian");
    const char *piece = strstr(text, "<Piece ");
    const char *app = strstr(text, "<AppendedData encoding=\"raw\">");
    if (!piece || !app) fail("%s", "no Piece or no raw AppendedData");
    v->npoints = attr_u64(piece, "NumberOfPoints", 0);
    v->nverts = attr_u64(piece, "NumberOfVerts", 0);
    v->nlines = attr_u64(piece, "NumberOfLines", 0);
    v->npolys = attr_u64(piece, "NumberOfPolys", 0);
    const char *us = strchr(app, '_');
    if (!us) fail("%s", "no '_' opening the appended data");
    v->base = (size_t)(us + 1 - text);
    static const char *const sections[] = {"PointData", "CellData", "Points", "Verts", "Lines", "Polys"};
    for (const char *p = piece; p < app; p++) {
        if (*p != '<') continue;
        for (size_t s = 0; s < 6; s++) {
            size_t n = strlen(sections[s]);
            if (!strncmp(p + 1, sections[s], n) && (p[1 + n] == '>' || p[1 + n] == ' '))
                snprintf(v->a[v->n].section, sizeof v->a[v->n].section, "%s", sections[s]);
        }
        if (strncmp(p, "<DataArray ", 11)) continue;
        if (v->n == MAX_ARRAYS - 1) fail("%s", "too many arrays");
        array *a = &v->a[v->n];
        char fmt[32];
        if (!attr(p, "format", fmt, sizeof fmt) || strcmp(fmt, "appended")) fail("%s", "an array is not appended");
        if (!attr(p, "Name", a->name, sizeof a->name) || !attr(p, "type", a->type, sizeof a->type)) fail("%s", "array without Name or type");
        if (!attr(p, "offset", val, sizeof val)) fail("array %s has no offset", a->name);
        a->offset = strtoull(val, NULL, 10);
        a->ncomp = (unsigned)attr_u64(p, "NumberOfComponents", 1);
        a->size = type_size(a->type);
        memcpy(v->a[v->n + 1].section, a->section, sizeof a->section);
        v->n++;
    }
}

static void check_blocks(vtp *v)
{
    uint64_t at = 0;
    for (int k = 0; k < v->n; k++) {
        array *a = &v->a[k];
        if (a->offset != at) fail("array %s: offset does not follow the previous block", a->name);
        if (v->base + at + 8 > v->len) fail("array %s: block header past the end of the file", a->name);
        a->bytes = dem_get_u64(v->buf + v->base + at);
        a->data = v->buf + v->base + at + 8;
        if (v->base + at + 8 + a->bytes > v->len) fail("array %s: block past the end of the file", a->name);
        if (a->bytes % ((uint64_t)a->ncomp * a->size)) fail("array %s: byte count is not whole tuples", a->name);
        a->tuples = a->bytes / ((uint64_t)a->ncomp * a->size);
        at += 8 + a->bytes;
    }
    size_t end = v->base + (size_t)at;
    if (v->len - end != strlen(TAIL) || memcmp(v->buf + end, TAIL, strlen(TAIL)))
        fail("%s", "the appended block is not followed exactly by the closing tags at the end of the file");
}

static const array *find(const vtp *v, const char *section, const char *name)
{
    for (int k = 0; k < v->n; k++)
        if (!strcmp(v->a[k].section, section) && !strcmp(v->a[k].name, name)) return &v->a[k];
    return NULL;
}

static void check_cells(const vtp *v, const char *section, uint64_t ncells)
{
    const array *conn = find(v, section, "connectivity"), *offs = find(v, section, "offsets");
    if (!ncells && !conn && !offs) return;
    if (!conn || !offs) fail("%s: connectivity or offsets missing", section);
    if (offs->tuples != ncells) fail("%s: offsets count differs from the number of cells", section);
    uint64_t prev = 0;
    for (uint64_t k = 0; k < offs->tuples; k++) {
        uint64_t o = dem_get_u64(offs->data + 8 * k);
        if (o <= prev && k) fail("%s: offsets do not increase", section);
        prev = o;
    }
    if (prev != conn->tuples) fail("%s: the last offset differs from the connectivity length", section);
    for (uint64_t k = 0; k < conn->tuples; k++)
        if (dem_get_u64(conn->data + 8 * k) >= v->npoints) fail("%s: connectivity names a point that does not exist", section);
}

static void check_counts(const vtp *v)
{
    for (int k = 0; k < v->n; k++) {
        const array *a = &v->a[k];
        uint64_t want = !strcmp(a->section, "PointData") || !strcmp(a->section, "Points") ? v->npoints
                      : !strcmp(a->section, "CellData") ? v->nverts + v->nlines + v->npolys : a->tuples;
        if (a->tuples != want) fail("array %s: tuple count differs from its section's", a->name);
    }
    const array *pts = find(v, "Points", "Points");
    if (!pts || pts->ncomp != 3) fail("%s", "no 3-component Points array");
    check_cells(v, "Verts", v->nverts);
    check_cells(v, "Lines", v->nlines);
    check_cells(v, "Polys", v->npolys);
}

static void print_value(const array *a, uint64_t i)
{
    const uint8_t *p = a->data + i * a->size;
    char buf[DEM_DOUBLE_TEXT_MAX];
    if (!strcmp(a->type, "Float64")) { dem_format_double(buf, sizeof buf, dem_get_f64(p)); fputs(buf, stdout); }
    else if (!strcmp(a->type, "UInt64")) printf("%" PRIu64, dem_get_u64(p));
    else if (!strcmp(a->type, "Int64")) printf("%" PRId64, dem_get_i64(p));
    else if (!strcmp(a->type, "UInt32")) printf("%" PRIu32, dem_get_u32(p));
    else if (!strcmp(a->type, "UInt8")) printf("%u", p[0]);
    else printf("?");
}

static void dump(const vtp *v, const char *name)
{
    for (int k = 0; k < v->n; k++) {
        const array *a = &v->a[k];
        if (strcmp(a->name, name)) continue;
        for (uint64_t t = 0; t < a->tuples; t++)
            for (unsigned c = 0; c < a->ncomp; c++) {
                print_value(a, t * a->ncomp + c);
                putchar(c + 1 < a->ncomp ? '\t' : '\n');
            }
        return;
    }
    fail("no array named %s", name);
}

int main(int argc, char **argv)
{
    vtp v;
    memset(&v, 0, sizeof v);
    if (argc == 3 && !strcmp(argv[1], "-x")) {
        read_file(&v, argv[2]);
        parse_header(&v);
        fwrite(v.buf, 1, v.base - 1, stdout); /* up to, without, the '_' */
        fputs(TAIL + 1, stdout);
        free(v.buf);
        return 0;
    }
    const char *path = argc == 2 ? argv[1] : argc == 4 && !strcmp(argv[1], "-a") ? argv[3] : NULL;
    if (!path) fail("%s", "usage: vtpcheck [-x | -a NAME] FILE");
    read_file(&v, path);
    parse_header(&v);
    check_blocks(&v);
    check_counts(&v);
    if (argc == 4) {
        dump(&v, argv[2]);
        free(v.buf);
        return 0;
    }
    for (int k = 0; k < v.n; k++)
        printf("%s %s %s %u %" PRIu64 "\n", v.a[k].section, v.a[k].name, v.a[k].type, v.a[k].ncomp, v.a[k].tuples);
    free(v.buf);
    return 0;
}
