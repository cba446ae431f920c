/* vtk.c - VTK XML PolyData with appended raw little-endian arrays, and .pvd collections.
 *
 * Every PolyData file is described as a list of arrays, each with an encoder for one tuple; one
 * writer turns the list into the XML header (with the offsets) and the appended block, so the
 * offsets and the bytes written cannot disagree. */
#include "analysis/vtk.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/codec.h"
#include "core/text.h"

/* The parts of a Piece, in the order the VTK XML PolyData schema lists them. */
typedef enum { SEC_POINT_DATA, SEC_CELL_DATA, SEC_POINTS, SEC_VERTS, SEC_LINES, SEC_POLYS, SEC_COUNT } vtk_section;

static const char *const section_tag[SEC_COUNT] = {"PointData", "CellData", "Points", "Verts", "Lines", "Polys"};

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
    size_t npoints, nverts, nlines, npolys;
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
                 "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n", pd->npoints, pd->nverts, pd->nlines, pd->npolys);
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
static void enc_clump(const void *c, size_t k, uint8_t *d) { dem_put_u64(d, pk(c, k)->clump); }
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
    /* "clump" (the member's clump id, 0: none; colour by it) only in a frame with clumps */
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
        {SEC_POINT_DATA, "clump", "UInt64", 1, 8, n, enc_clump},
    };
    particle_ctx ctx = {s, idx};
    size_t narrays = sizeof arrays / sizeof arrays[0] - (s->nclumps ? 0 : 1);
    vtk_polydata pd = {n, n, 0, 0, arrays, narrays, &ctx};
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
    vtk_polydata pd = {2 * n, 0, n, 0, arrays, sizeof arrays / sizeof arrays[0], &ctx};
    dem_status st = write_polydata(out, &pd, err);
    free(idx);
    return st;
}

/* ============================== the container ============================== */
/* Largest |n . a| at which two unit vectors count as parallel: 1 - 1e-9. */
#define PARALLEL 0.999999999

static void grow(dem_aabb *b, dem_vec3 x)
{
    for (int k = 0; k < 3; k++) {
        double v = dem_v3_get(x, k);
        if (v < dem_v3_get(b->lo, k)) dem_v3_set(&b->lo, k, v);
        if (v > dem_v3_get(b->hi, k)) dem_v3_set(&b->hi, k, v);
    }
}

static void grow_axis(dem_aabb *b, int k, double v)
{
    if (v < dem_v3_get(b->lo, k)) dem_v3_set(&b->lo, k, v);
    if (v > dem_v3_get(b->hi, k)) dem_v3_set(&b->hi, k, v);
}

/* The coordinate axis a unit vector lies along, or -1. */
static int axis_of(dem_vec3 n)
{
    for (int k = 0; k < 3; k++)
        if (fabs(dem_v3_get(n, k)) >= PARALLEL) return k;
    return -1;
}

/* Unit vectors u, v with (u, v, n) right-handed: u = n x e / |n x e| for the coordinate axis e
 * along which n has its smallest component (the first of equal ones), v = n x u. */
static void plane_basis(dem_vec3 n, dem_vec3 *u, dem_vec3 *v)
{
    int k = 0;
    for (int j = 1; j < 3; j++)
        if (fabs(dem_v3_get(n, j)) < fabs(dem_v3_get(n, k))) k = j;
    dem_vec3 e = dem_v3_zero();
    dem_v3_set(&e, k, 1);
    dem_vec3 c = dem_v3_cross(n, e);
    *u = dem_v3_scale(c, 1 / dem_v3_norm(c));
    *v = dem_v3_cross(n, *u);
}

void dem_vtk_cylinder_ends(const dem_system *s, const dem_wall *w, double *t0, double *t1)
{
    dem_vec3 a = w->normal;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        double t = dem_v3_dot(dem_v3_sub(p->pos, w->point), a);
        if (t - p->radius < lo) lo = t - p->radius;
        if (t + p->radius > hi) hi = t + p->radius;
    }
    if (!(lo <= hi)) { /* no particles: a mantle as long as the cylinder is wide */
        lo = -w->radius;
        hi = w->radius;
    } else {
        double m = DEM_VTK_MARGIN * (hi - lo);
        lo -= m;
        hi += m;
    }
    /* End planes: a plane facing along +a closes the lower end, one facing -a the upper; with
     * several, the innermost. */
    double floor = -INFINITY, lid = INFINITY;
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *q = &s->walls[k];
        if (q->kind != DEM_WALL_PLANE) continue;
        double c = dem_v3_dot(q->normal, a);
        if (fabs(c) < PARALLEL) continue;
        double t = dem_v3_dot(dem_v3_sub(q->point, w->point), a);
        if (c > 0 && t > floor) floor = t;
        if (c < 0 && t < lid) lid = t;
    }
    double f = isfinite(floor) ? floor : lo, l = isfinite(lid) ? lid : hi;
    if (f < l) {
        lo = f;
        hi = l;
    }
    *t0 = lo;
    *t1 = hi;
}

dem_aabb dem_vtk_scene_box(const dem_system *s)
{
    dem_aabb b = {dem_v3(INFINITY, INFINITY, INFINITY), dem_v3(-INFINITY, -INFINITY, -INFINITY)};
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        dem_vec3 r = dem_v3(p->radius, p->radius, p->radius);
        grow(&b, dem_v3_sub(p->pos, r));
        grow(&b, dem_v3_add(p->pos, r));
    }
    if (s->cell.flags)
        for (int c = 0; c < 8; c++) {
            dem_vec3 x = s->cell.origin;
            for (int d = 0; d < 3; d++)
                if (c & (1 << d)) x = dem_v3_add(x, dem_m3_col(s->cell.h, d));
            grow(&b, x);
        }
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *w = &s->walls[k];
        int ax = axis_of(w->normal);
        if (w->kind == DEM_WALL_PLANE && ax >= 0) grow_axis(&b, ax, dem_v3_get(w->point, ax));
    }
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *w = &s->walls[k];
        if (w->kind != DEM_WALL_CYLINDER) continue;
        double t[2];
        dem_vtk_cylinder_ends(s, w, &t[0], &t[1]);
        for (int e = 0; e < 2; e++) {
            dem_vec3 c = dem_v3_madd(w->point, w->normal, t[e]);
            for (int ax = 0; ax < 3; ax++) {
                double n = dem_v3_get(w->normal, ax), h = w->radius * sqrt(fmax(0, 1 - n * n));
                grow_axis(&b, ax, dem_v3_get(c, ax) - h);
                grow_axis(&b, ax, dem_v3_get(c, ax) + h);
            }
        }
    }
    double edge = 0;
    for (int ax = 0; ax < 3; ax++) {
        if (!(dem_v3_get(b.lo, ax) <= dem_v3_get(b.hi, ax))) { /* nothing there: 1 m about 0 */
            dem_v3_set(&b.lo, ax, -0.5);
            dem_v3_set(&b.hi, ax, 0.5);
        }
        edge = fmax(edge, dem_v3_get(b.hi, ax) - dem_v3_get(b.lo, ax));
    }
    dem_vec3 m = dem_v3(DEM_VTK_MARGIN * edge, DEM_VTK_MARGIN * edge, DEM_VTK_MARGIN * edge);
    b.lo = dem_v3_sub(b.lo, m);
    b.hi = dem_v3_add(b.hi, m);
    return b;
}

typedef struct {
    const dem_system *s;
    dem_vec3 *points;
    size_t *wall;      /* the wall of each polygon */
    int64_t *conn;     /* polygon corners, 4 per polygon */
} wall_ctx;

static const dem_wall *wk(const void *ctx, size_t k)
{
    const wall_ctx *c = ctx;
    return &c->s->walls[c->wall[k]];
}
static void enc_wall_index(const void *c, size_t k, uint8_t *d) { dem_put_u32(d, (uint32_t)((const wall_ctx *)c)->wall[k]); }
static void enc_wall_kind(const void *c, size_t k, uint8_t *d) { d[0] = (uint8_t)wk(c, k)->kind; }
static void enc_wall_material(const void *c, size_t k, uint8_t *d) { dem_put_u32(d, wk(c, k)->material); }
static void enc_wall_vel(const void *c, size_t k, uint8_t *d) { put_vec(d, wk(c, k)->vel); }
static void enc_wall_omega(const void *c, size_t k, uint8_t *d) { put_vec(d, wk(c, k)->omega); }
static void enc_wall_force(const void *c, size_t k, uint8_t *d) { put_vec(d, wk(c, k)->force); }
static void enc_wall_torque(const void *c, size_t k, uint8_t *d) { put_vec(d, wk(c, k)->torque); }
static void enc_wall_work(const void *c, size_t k, uint8_t *d) { dem_put_f64(d, wk(c, k)->work); }
static void enc_wall_point(const void *c, size_t k, uint8_t *d) { put_vec(d, ((const wall_ctx *)c)->points[k]); }
static void enc_wall_conn(const void *c, size_t k, uint8_t *d) { dem_put_i64(d, ((const wall_ctx *)c)->conn[k]); }
static void enc_quad_end(const void *c, size_t k, uint8_t *d) { (void)c; dem_put_i64(d, 4 * (int64_t)k + 4); }

/* The quad of a plane: the rectangle in the plane, with edges along plane_basis's u and v, that
 * covers the projection of the box b onto the plane; corners counter-clockwise seen from the
 * particles' side. */
static void plane_quad(const dem_wall *w, dem_aabb b, dem_vec3 *pt)
{
    dem_vec3 n = w->normal, u, v;
    plane_basis(n, &u, &v);
    dem_vec3 mid = dem_v3_scale(dem_v3_add(b.lo, b.hi), 0.5);
    /* c: the box's centre projected onto the plane, as p + (d - (d . n) n), d = centre - p, so that
     * a plane normal to a coordinate axis gets its corners at exactly p's coordinate on it. */
    dem_vec3 d = dem_v3_sub(mid, w->point);
    dem_vec3 c = dem_v3_add(w->point, dem_v3_madd(d, n, -dem_v3_dot(d, n)));
    double ulo = INFINITY, uhi = -INFINITY, vlo = INFINITY, vhi = -INFINITY;
    for (int k = 0; k < 8; k++) {
        dem_vec3 x = dem_v3((k & 1) ? b.hi.x : b.lo.x, (k & 2) ? b.hi.y : b.lo.y, (k & 4) ? b.hi.z : b.lo.z);
        double pu = dem_v3_dot(dem_v3_sub(x, c), u), pv = dem_v3_dot(dem_v3_sub(x, c), v);
        ulo = fmin(ulo, pu);
        uhi = fmax(uhi, pu);
        vlo = fmin(vlo, pv);
        vhi = fmax(vhi, pv);
    }
    pt[0] = dem_v3_madd(dem_v3_madd(c, u, ulo), v, vlo);
    pt[1] = dem_v3_madd(dem_v3_madd(c, u, uhi), v, vlo);
    pt[2] = dem_v3_madd(dem_v3_madd(c, u, uhi), v, vhi);
    pt[3] = dem_v3_madd(dem_v3_madd(c, u, ulo), v, vhi);
}

/* The mantle of a cylinder: two rings of DEM_VTK_SEGMENTS points at its ends, ring point k at
 * angle 2 pi k / DEM_VTK_SEGMENTS from u (plane_basis of the axis); pt receives both rings. */
static void cylinder_rings(const dem_system *s, const dem_wall *w, dem_vec3 *pt)
{
    dem_vec3 u, v;
    plane_basis(w->normal, &u, &v);
    double t[2];
    dem_vtk_cylinder_ends(s, w, &t[0], &t[1]);
    for (int e = 0; e < 2; e++) {
        dem_vec3 c = dem_v3_madd(w->point, w->normal, t[e]);
        for (int k = 0; k < DEM_VTK_SEGMENTS; k++) {
            double phi = 2 * M_PI * k / DEM_VTK_SEGMENTS;
            dem_vec3 r = dem_v3_add(dem_v3_scale(u, cos(phi)), dem_v3_scale(v, sin(phi)));
            pt[e * DEM_VTK_SEGMENTS + k] = dem_v3_madd(c, r, w->radius);
        }
    }
}

dem_status dem_vtk_walls(FILE *out, const dem_system *s, dem_error *err)
{
    size_t npoly = 0, npts = 0;
    for (size_t k = 0; k < s->nwalls; k++) {
        npoly += s->walls[k].kind == DEM_WALL_CYLINDER ? DEM_VTK_SEGMENTS : 1;
        npts += s->walls[k].kind == DEM_WALL_CYLINDER ? 2 * DEM_VTK_SEGMENTS : 4;
    }
    wall_ctx ctx = {s, malloc((npts ? npts : 1) * sizeof(dem_vec3)), malloc((npoly ? npoly : 1) * sizeof(size_t)),
                    malloc((npoly ? 4 * npoly : 1) * sizeof(int64_t))};
    if (!ctx.points || !ctx.wall || !ctx.conn) {
        free(ctx.points);
        free(ctx.wall);
        free(ctx.conn);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the polygons of %zu walls", s->nwalls);
    }
    dem_aabb box = dem_vtk_scene_box(s);
    size_t ip = 0, ic = 0;
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *w = &s->walls[k];
        if (w->kind != DEM_WALL_CYLINDER) {
            plane_quad(w, box, ctx.points + ip);
            for (int c = 0; c < 4; c++) ctx.conn[4 * ic + c] = (int64_t)ip + c;
            ctx.wall[ic++] = k;
            ip += 4;
            continue;
        }
        cylinder_rings(s, w, ctx.points + ip);
        /* Quad k: ring points k, k + 1 at both ends, ordered so that its normal points to the
         * particles' side (inwards, or outwards for a cylinder with the particles outside). */
        int outside = (w->flags & DEM_WALL_OUTSIDE) != 0;
        for (int q = 0; q < DEM_VTK_SEGMENTS; q++) {
            int64_t a = (int64_t)ip + q, b = (int64_t)ip + (q + 1) % DEM_VTK_SEGMENTS;
            int64_t corner[4] = {a, b, b + DEM_VTK_SEGMENTS, a + DEM_VTK_SEGMENTS};
            for (int c = 0; c < 4; c++) ctx.conn[4 * ic + c] = corner[outside ? c : (4 - c) % 4];
            ctx.wall[ic++] = k;
        }
        ip += 2 * DEM_VTK_SEGMENTS;
    }
    const vtk_array arrays[] = {
        {SEC_CELL_DATA, "wall", "UInt32", 1, 4, npoly, enc_wall_index},
        {SEC_CELL_DATA, "kind", "UInt8", 1, 1, npoly, enc_wall_kind},
        {SEC_CELL_DATA, "material", "UInt32", 1, 4, npoly, enc_wall_material},
        {SEC_CELL_DATA, "velocity", "Float64", 3, 8, npoly, enc_wall_vel},
        {SEC_CELL_DATA, "angular_velocity", "Float64", 3, 8, npoly, enc_wall_omega},
        {SEC_CELL_DATA, "force", "Float64", 3, 8, npoly, enc_wall_force},
        {SEC_CELL_DATA, "torque", "Float64", 3, 8, npoly, enc_wall_torque},
        {SEC_CELL_DATA, "work", "Float64", 1, 8, npoly, enc_wall_work},
        {SEC_POINTS, "Points", "Float64", 3, 8, npts, enc_wall_point},
        {SEC_POLYS, "connectivity", "Int64", 1, 8, 4 * npoly, enc_wall_conn},
        {SEC_POLYS, "offsets", "Int64", 1, 8, npoly, enc_quad_end},
    };
    vtk_polydata pd = {npts, 0, 0, npoly, arrays, sizeof arrays / sizeof arrays[0], &ctx};
    dem_status st = write_polydata(out, &pd, err);
    free(ctx.points);
    free(ctx.wall);
    free(ctx.conn);
    return st;
}

/* ============================== the periodic cell ============================== */
/* Point k (0..7) is o + H (k & 1, k >> 1 & 1, k >> 2 & 1); edge e (0..11) runs along cell vector
 * d = e / 4 from the point whose other two bits are the two bits of e % 4. */
static int edge_start(size_t e)
{
    int d = (int)(e / 4), r = (int)(e % 4), k = 0, bit = 0;
    for (int x = 0; x < 3; x++) {
        if (x == d) continue;
        if (r & (1 << bit)) k |= 1 << x;
        bit++;
    }
    return k;
}
static void enc_cell_point(const void *c, size_t k, uint8_t *d)
{
    const dem_cell *cell = c;
    dem_vec3 x = cell->origin;
    for (int v = 0; v < 3; v++)
        if (k & (1u << v)) x = dem_v3_add(x, dem_m3_col(cell->h, v));
    put_vec(d, x);
}
static void enc_cell_conn(const void *c, size_t k, uint8_t *d)
{
    (void)c;
    int start = edge_start(k / 2);
    dem_put_i64(d, k % 2 ? start | 1 << (k / 2 / 4) : start);
}
static void enc_cell_vector(const void *c, size_t k, uint8_t *d) { (void)c; d[0] = (uint8_t)(k / 4); }
static void enc_cell_periodic(const void *c, size_t k, uint8_t *d) { d[0] = (((const dem_cell *)c)->flags >> (k / 4)) & 1; }

dem_status dem_vtk_cell(FILE *out, const dem_system *s, dem_error *err)
{
    size_t np = s->cell.flags ? 8 : 0, nl = s->cell.flags ? 12 : 0;
    const vtk_array arrays[] = {
        {SEC_CELL_DATA, "vector", "UInt8", 1, 1, nl, enc_cell_vector},
        {SEC_CELL_DATA, "periodic", "UInt8", 1, 1, nl, enc_cell_periodic},
        {SEC_POINTS, "Points", "Float64", 3, 8, np, enc_cell_point},
        {SEC_LINES, "connectivity", "Int64", 1, 8, 2 * nl, enc_cell_conn},
        {SEC_LINES, "offsets", "Int64", 1, 8, nl, enc_line_end},
    };
    vtk_polydata pd = {np, 0, nl, 0, arrays, sizeof arrays / sizeof arrays[0], &s->cell};
    return write_polydata(out, &pd, err);
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
