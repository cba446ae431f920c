/* vtk.c - VTK XML PolyData with appended raw little-endian arrays, and .pvd collections.
 *
 * Every PolyData file is described as a list of arrays, each with an encoder for one tuple; one
 * writer turns the list into the XML header (with the offsets) and the appended block, so the
 * offsets and the bytes written cannot disagree. */
#include "io/vtk.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "core/text.h"

/* The parts of a Piece, in the order the VTK XML PolyData schema lists them. */
typedef enum { SEC_POINT_DATA, SEC_CELL_DATA, SEC_POINTS, SEC_VERTS, SEC_LINES, SEC_COUNT } vtk_section;

static const char *const section_tag[SEC_COUNT] = {"PointData", "CellData", "Points", "Verts", "Lines"};

typedef void (*vtk_encode_fn)(const void *ctx, size_t k, uint8_t *dst);

typedef struct {
    vtk_section section;
    const char *name;
    const char *type;    /* VTK type name: Float64, UInt64, Int64, UInt32, UInt8 */
    unsigned ncomp;      /* components per tuple */
    unsigned size;       /* bytes per component */
    size_t count;        /* tuples */
    vtk_encode_fn encode;/* writes tuple k: ncomp * size bytes */
} vtk_array;

typedef struct {
    size_t npoints, nverts, nlines;
    const vtk_array *arrays;
    size_t narrays;
    const void *ctx;
} vtk_polydata;

#define TUPLE_MAX 24u  /* 3 Float64 */
#define CHUNK 65536u

static uint64_t array_bytes(const vtk_array *a) { return (uint64_t)a->count * a->ncomp * a->size; }

static dem_status io_status(FILE *out, dem_error *err)
{
    if (ferror(out)) return dem_fail(err, DEM_ERR_IO, "write failed: %s", strerror(errno ? errno : EIO));
    return DEM_OK;
}

/* The XML part up to the '_' that opens the appended data; arrays in section order. */
static void write_header(FILE *out, const vtk_polydata *pd)
{
    fputs("<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
          "  <PolyData>\n", out);
    fprintf(out, "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" "
                 "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n", pd->npoints, pd->nverts, pd->nlines);
    uint64_t offset = 0;
    for (int sec = 0; sec < SEC_COUNT; sec++) {
        int open = 0;
        for (size_t k = 0; k < pd->narrays; k++) {
            const vtk_array *a = &pd->arrays[k];
            if ((int)a->section != sec) continue;
            if (!open) fprintf(out, "      <%s>\n", section_tag[sec]);
            open = 1;
            fprintf(out, "        <DataArray type=\"%s\" Name=\"%s\"", a->type, a->name);
            if (a->ncomp > 1) fprintf(out, " NumberOfComponents=\"%u\"", a->ncomp);
            fprintf(out, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)offset);
            offset += 8 + array_bytes(a);
        }
        if (open) fprintf(out, "      </%s>\n", section_tag[sec]);
    }
    fputs("    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _", out);
}

/* One array of the appended block: its UInt64 byte count, then the tuples. */
static void write_block(FILE *out, const vtk_array *a, const void *ctx, uint8_t *buf)
{
    size_t tuple = (size_t)a->ncomp * a->size, used = 8;
    dem_put_u64(buf, array_bytes(a));
    for (size_t k = 0; k < a->count; k++) {
        if (used + tuple > CHUNK) {
            fwrite(buf, 1, used, out);
            used = 0;
        }
        a->encode(ctx, k, buf + used);
        used += tuple;
    }
    fwrite(buf, 1, used, out);
}

static dem_status write_polydata(FILE *out, const vtk_polydata *pd, dem_error *err)
{
    uint8_t *buf = malloc(CHUNK);
    if (!buf) return dem_fail(err, DEM_ERR_NOMEM, "out of memory writing a VTK file");
    write_header(out, pd);
    for (int sec = 0; sec < SEC_COUNT; sec++)
        for (size_t k = 0; k < pd->narrays; k++)
            if ((int)pd->arrays[k].section == sec) write_block(out, &pd->arrays[k], pd->ctx, buf);
    free(buf);
    fputs("\n  </AppendedData>\n</VTKFile>\n", out);
    fflush(out);
    return io_status(out, err);
}

static void put_vec(uint8_t *dst, dem_vec3 v)
{
    dem_put_f64(dst, v.x);
    dem_put_f64(dst + 8, v.y);
    dem_put_f64(dst + 16, v.z);
}

/* ============================== particles ============================== */
typedef struct {
    const dem_system *s;
    const size_t *sel; /* indices of the particles written */
} particle_ctx;

static const dem_particle *pk(const void *ctx, size_t k)
{
    const particle_ctx *c = ctx;
    return &c->s->particles[c->sel[k]];
}

static void enc_id(const void *c, size_t k, uint8_t *d) { dem_put_u64(d, pk(c, k)->id); }
static void enc_radius(const void *c, size_t k, uint8_t *d) { dem_put_f64(d, pk(c, k)->radius); }
static void enc_vel(const void *c, size_t k, uint8_t *d) { put_vec(d, pk(c, k)->vel); }
static void enc_omega(const void *c, size_t k, uint8_t *d) { put_vec(d, pk(c, k)->omega); }
static void enc_force(const void *c, size_t k, uint8_t *d) { put_vec(d, pk(c, k)->force); }
static void enc_material(const void *c, size_t k, uint8_t *d) { dem_put_u32(d, pk(c, k)->material); }
static void enc_fixed(const void *c, size_t k, uint8_t *d) { d[0] = (pk(c, k)->flags & DEM_PARTICLE_FIXED) ? 1 : 0; }
static void enc_pos(const void *c, size_t k, uint8_t *d) { put_vec(d, pk(c, k)->pos); }
/* Cell k is the single point k: connectivity k, end offset k + 1. */
static void enc_index(const void *c, size_t k, uint8_t *d) { (void)c; dem_put_i64(d, (int64_t)k); }
static void enc_next(const void *c, size_t k, uint8_t *d) { (void)c; dem_put_i64(d, (int64_t)k + 1); }

dem_status dem_vtk_particles(FILE *out, const dem_system *s, const dem_select *sel, dem_error *err)
{
    size_t *idx = malloc((s->nparticles ? s->nparticles : 1) * sizeof *idx), n = 0;
    if (!idx) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", s->nparticles);
    for (size_t k = 0; k < s->nparticles; k++)
        if (!sel || dem_select_match(sel, &s->particles[k])) idx[n++] = k;
    const vtk_array arrays[] = {
        {SEC_POINT_DATA, "id", "UInt64", 1, 8, n, enc_id},
        {SEC_POINT_DATA, "radius", "Float64", 1, 8, n, enc_radius},
        {SEC_POINT_DATA, "velocity", "Float64", 3, 8, n, enc_vel},
        {SEC_POINT_DATA, "angular_velocity", "Float64", 3, 8, n, enc_omega},
        {SEC_POINT_DATA, "force", "Float64", 3, 8, n, enc_force},
        {SEC_POINT_DATA, "material", "UInt32", 1, 4, n, enc_material},
        {SEC_POINT_DATA, "fixed", "UInt8", 1, 1, n, enc_fixed},
        {SEC_POINTS, "Points", "Float64", 3, 8, n, enc_pos},
        {SEC_VERTS, "connectivity", "Int64", 1, 8, n, enc_index},
        {SEC_VERTS, "offsets", "Int64", 1, 8, n, enc_next},
    };
    particle_ctx ctx = {s, idx};
    vtk_polydata pd = {n, n, 0, arrays, sizeof arrays / sizeof arrays[0], &ctx};
    dem_status st = write_polydata(out, &pd, err);
    free(idx);
    return st;
}

/* ============================== contacts ============================== */
typedef struct {
    const dem_system *s;
    const dem_id_index *ix;
    const size_t *sel; /* indices of the contacts written */
} contact_ctx;

static const dem_contact *ck(const void *ctx, size_t k)
{
    const contact_ctx *c = ctx;
    return &c->s->contacts[c->sel[k]];
}

/* Point 2k is the centre of i of contact k, point 2k + 1 that of j as seen from i. */
static void enc_end_pos(const void *ctx, size_t k, uint8_t *d)
{
    const contact_ctx *c = ctx;
    const dem_contact *ct = ck(ctx, k / 2);
    if (k % 2) {
        put_vec(d, dem_contact_partner_pos(c->s, c->ix, ct));
        return;
    }
    size_t i = dem_id_index_find(c->ix, ct->i);
    put_vec(d, i == SIZE_MAX ? dem_v3(NAN, NAN, NAN) : c->s->particles[i].pos);
}
static void enc_end_id(const void *c, size_t k, uint8_t *d) { dem_put_u64(d, k % 2 ? ck(c, k / 2)->j : ck(c, k / 2)->i); }
static void enc_fn(const void *c, size_t k, uint8_t *d) { dem_put_f64(d, dem_v3_norm(ck(c, k)->fn)); }
static void enc_ft(const void *c, size_t k, uint8_t *d) { dem_put_f64(d, dem_v3_norm(ck(c, k)->ft)); }
static void enc_overlap(const void *c, size_t k, uint8_t *d) { dem_put_f64(d, ck(c, k)->overlap); }
static void enc_sliding(const void *c, size_t k, uint8_t *d) { d[0] = (ck(c, k)->flags & DEM_CONTACT_SLIDING) ? 1 : 0; }
/* Line k joins points 2k and 2k + 1: connectivity is 0, 1, 2, ... and line k ends at 2k + 2. */
static void enc_line_end(const void *c, size_t k, uint8_t *d) { (void)c; dem_put_i64(d, 2 * (int64_t)k + 2); }

dem_status dem_vtk_contacts(FILE *out, const dem_system *s, const dem_id_index *ix,
                            const dem_select *sel, dem_error *err)
{
    size_t *idx = malloc((s->ncontacts ? s->ncontacts : 1) * sizeof *idx), n = 0;
    if (!idx) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu contacts", s->ncontacts);
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        if (!(c->flags & DEM_CONTACT_WALL) && dem_contact_selected(s, ix, sel, c)) idx[n++] = k;
    }
    const vtk_array arrays[] = {
        {SEC_POINT_DATA, "id", "UInt64", 1, 8, 2 * n, enc_end_id},
        {SEC_CELL_DATA, "normal_force", "Float64", 1, 8, n, enc_fn},
        {SEC_CELL_DATA, "tangential_force", "Float64", 1, 8, n, enc_ft},
        {SEC_CELL_DATA, "overlap", "Float64", 1, 8, n, enc_overlap},
        {SEC_CELL_DATA, "sliding", "UInt8", 1, 1, n, enc_sliding},
        {SEC_POINTS, "Points", "Float64", 3, 8, 2 * n, enc_end_pos},
        {SEC_LINES, "connectivity", "Int64", 1, 8, 2 * n, enc_index},
        {SEC_LINES, "offsets", "Int64", 1, 8, n, enc_line_end},
    };
    contact_ctx ctx = {s, ix, idx};
    vtk_polydata pd = {2 * n, 0, n, arrays, sizeof arrays / sizeof arrays[0], &ctx};
    dem_status st = write_polydata(out, &pd, err);
    free(idx);
    return st;
}

/* ============================== collections ============================== */
static const char pvd_tail[] = "  </Collection>\n</VTKFile>\n";

dem_status dem_pvd_begin(FILE *out, dem_error *err)
{
    fputs("<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
          "  <Collection>\n", out);
    fputs(pvd_tail, out);
    fflush(out);
    return io_status(out, err);
}

/* A file name as an XML attribute value. */
static void put_attr(FILE *out, const char *v)
{
    for (; *v; v++) {
        switch (*v) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*v, out);
        }
    }
}

dem_status dem_pvd_add(FILE *out, double time, const char *file, dem_error *err)
{
    /* Overwrite the closing tags with the new entry and write them again after it. */
    if (fseek(out, -(long)(sizeof pvd_tail - 1), SEEK_END) != 0)
        return dem_fail(err, DEM_ERR_IO, "cannot rewrite the .pvd collection: %s", strerror(errno));
    char t[DEM_DOUBLE_TEXT_MAX];
    dem_format_double(t, sizeof t, time);
    fprintf(out, "    <DataSet timestep=\"%s\" group=\"\" part=\"0\" file=\"", t);
    put_attr(out, file);
    fputs("\"/>\n", out);
    fputs(pvd_tail, out);
    fflush(out);
    return io_status(out, err);
}
