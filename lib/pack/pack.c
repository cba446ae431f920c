/* pack.c - particle generators: lattices, regions, size distributions and random sequential
 * addition. Materials, walls, cell and velocities are in pack_setup.c, TSV import in pack_tsv.c. */
#include "pack/pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Positions must not depend on whether the compiler fuses a*b+c (see rng.c). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

static const char axis_names[] = "xyz";

int dem_axis_index(char c)
{
    switch (c) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    default: return -1;
    }
}

dem_status dem_pack_push_sphere(dem_system *s, dem_vec3 pos, double radius, uint32_t mat, dem_error *err)
{
    if (mat >= s->nmaterials)
        return dem_fail(err, DEM_ERR_ARG, "material %u does not exist (%zu materials)", mat, s->nmaterials);
    dem_particle p = dem_particle_default();
    p.id = (uint64_t)s->nparticles + 1;
    p.pos = pos;
    p.radius = radius;
    p.material = mat;
    dem_sphere_mass(radius, s->materials[mat].density, &p.mass, &p.inertia);
    return dem_system_push_particle(s, &p, err);
}

static int cmp_clump_id(const void *a, const void *b)
{
    uint64_t x = ((const dem_clump *)a)->id, y = ((const dem_clump *)b)->id;
    return x < y ? -1 : x > y;
}

/* A clump's volume is its mass over its members' density (the union of overlapping members,
 * not the sum of their spheres); the density from one member, m / (4/3 pi r^3). */
static double clumps_volume(const dem_system *s)
{
    dem_clump *sorted = malloc(s->nclumps * sizeof *sorted);
    uint8_t *seen = calloc(s->nclumps, 1);
    double v = 0.0;
    if (sorted && seen) {
        memcpy(sorted, s->clumps, s->nclumps * sizeof *sorted);
        qsort(sorted, s->nclumps, sizeof *sorted, cmp_clump_id);
        for (size_t k = 0; k < s->nparticles; k++) {
            const dem_particle *p = &s->particles[k];
            dem_clump key = {.id = p->clump};
            const dem_clump *c = p->clump ? bsearch(&key, sorted, s->nclumps, sizeof *sorted, cmp_clump_id) : NULL;
            if (!c || seen[c - sorted]++) continue;
            v += c->mass * (4.0 / 3.0 * M_PI * p->radius * p->radius * p->radius) / p->mass;
        }
    }
    free(sorted);
    free(seen);
    return v;
}

double dem_pack_solid_volume(const dem_system *s)
{
    double v = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) {
        if (s->particles[k].clump) continue;
        double r = s->particles[k].radius;
        v += 4.0 / 3.0 * M_PI * r * r * r;
    }
    return s->nclumps ? v + clumps_volume(s) : v;
}

dem_status dem_pack_bounds(const dem_system *s, dem_vec3 *lo, dem_vec3 *hi, dem_error *err)
{
    if (s->nparticles == 0) return dem_fail(err, DEM_ERR_ARG, "there are no particles to bound");
    for (int a = 0; a < 3; a++) {
        double l = INFINITY, h = -INFINITY;
        for (size_t k = 0; k < s->nparticles; k++) {
            double x = dem_v3_get(s->particles[k].pos, a), r = s->particles[k].radius;
            if (x - r < l) l = x - r;
            if (x + r > h) h = x + r;
        }
        dem_v3_set(lo, a, l);
        dem_v3_set(hi, a, h);
    }
    return DEM_OK;
}

/* ==== lattices ============================================================================== */
typedef struct {
    const char *name;
    int nsites;
    double basis[4][3]; /* fractional coordinates of the sites in the conventional cell */
} lattice_info;

static const lattice_info lattices[] = {
    [DEM_LATTICE_SC] = {"sc", 1, {{0, 0, 0}}},
    [DEM_LATTICE_BCC] = {"bcc", 2, {{0, 0, 0}, {0.5, 0.5, 0.5}}},
    [DEM_LATTICE_FCC] = {"fcc", 4, {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}}},
    /* Two close-packed layers A (z = 0) and B (z = c/2), each two sites of the rectangular
     * a x sqrt3 a cell of a triangular net. */
    [DEM_LATTICE_HCP] = {"hcp", 4, {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 5.0 / 6.0, 0.5}, {0, 1.0 / 3.0, 0.5}}},
};

dem_status dem_lattice_parse_kind(const char *text, dem_lattice_kind *kind, dem_error *err)
{
    for (int k = DEM_LATTICE_SC; k <= DEM_LATTICE_HCP; k++)
        if (strcmp(text, lattices[k].name) == 0) {
            *kind = (dem_lattice_kind)k;
            return DEM_OK;
        }
    return dem_fail(err, DEM_ERR_ARG, "unknown lattice '%s' (expected sc, bcc, fcc or hcp)", text);
}

const char *dem_lattice_name(dem_lattice_kind kind) { return lattices[kind].name; }
int dem_lattice_sites(dem_lattice_kind kind) { return lattices[kind].nsites; }

dem_vec3 dem_lattice_cell_edges(const dem_lattice *l)
{
    double d = l->spacing;
    switch (l->kind) {
    case DEM_LATTICE_SC: return dem_v3(d, d, d);
    case DEM_LATTICE_BCC: { double a = 2.0 * d / sqrt(3.0); return dem_v3(a, a, a); }
    case DEM_LATTICE_FCC: { double a = d * sqrt(2.0); return dem_v3(a, a, a); }
    case DEM_LATTICE_HCP: return dem_v3(d, sqrt(3.0) * d, sqrt(8.0 / 3.0) * d);
    }
    return dem_v3_zero();
}

dem_vec3 dem_lattice_period(const dem_lattice *l)
{
    dem_vec3 e = dem_lattice_cell_edges(l);
    return dem_v3((double)l->cells[0] * e.x, (double)l->cells[1] * e.y, (double)l->cells[2] * e.z);
}

size_t dem_lattice_count(const dem_lattice *l)
{
    return (size_t)l->cells[0] * (size_t)l->cells[1] * (size_t)l->cells[2] * (size_t)dem_lattice_sites(l->kind);
}

dem_status dem_lattice_check(const dem_lattice *l, dem_error *err)
{
    if ((unsigned)l->kind > DEM_LATTICE_HCP) return dem_fail(err, DEM_ERR_ARG, "unknown lattice kind %d", (int)l->kind);
    for (int a = 0; a < 3; a++)
        if (l->cells[a] < 1)
            return dem_fail(err, DEM_ERR_ARG, "%ld cells along %c: need at least 1", l->cells[a], axis_names[a]);
    if (!(l->radius > 0.0) || !isfinite(l->radius))
        return dem_fail(err, DEM_ERR_ARG, "radius %g m must be positive", l->radius);
    if (!isfinite(l->spacing) || !(l->spacing >= 2.0 * l->radius))
        return dem_fail(err, DEM_ERR_ARG, "spacing %g m is less than the sphere diameter 2R = %g m: neighbours would overlap",
                        l->spacing, 2.0 * l->radius);
    if (!dem_v3_isfinite(l->origin)) return dem_fail(err, DEM_ERR_ARG, "origin is not finite");
    /* In doubles, so that the product cannot wrap around. */
    double count = (double)l->cells[0] * (double)l->cells[1] * (double)l->cells[2] * dem_lattice_sites(l->kind);
    if (count > DEM_PACK_MAX_PARTICLES)
        return dem_fail(err, DEM_ERR_LIMIT, "%ldx%ldx%ld %s cells hold %.0f spheres, more than the %u allowed",
                        l->cells[0], l->cells[1], l->cells[2], lattices[l->kind].name, count, DEM_PACK_MAX_PARTICLES);
    return DEM_OK;
}

dem_status dem_pack_lattice(dem_system *s, const dem_lattice *l, uint32_t mat, dem_error *err)
{
    dem_status st = dem_lattice_check(l, err);
    if (st) return st;
    if ((st = dem_system_reserve_particles(s, s->nparticles + dem_lattice_count(l), err))) return st;
    const lattice_info *info = &lattices[l->kind];
    dem_vec3 e = dem_lattice_cell_edges(l);
    /* The spheres start at the origin: the first centre sits one radius in from each face. */
    dem_vec3 start = dem_v3_add(l->origin, dem_v3(l->radius, l->radius, l->radius));
    for (long k = 0; k < l->cells[2]; k++)
        for (long j = 0; j < l->cells[1]; j++)
            for (long i = 0; i < l->cells[0]; i++)
                for (int b = 0; b < info->nsites; b++) {
                    const double *f = info->basis[b];
                    dem_vec3 pos = dem_v3(start.x + ((double)i + f[0]) * e.x, start.y + ((double)j + f[1]) * e.y,
                                          start.z + ((double)k + f[2]) * e.z);
                    if ((st = dem_pack_push_sphere(s, pos, l->radius, mat, err))) return st;
                }
    return DEM_OK;
}

/* ==== regions =============================================================================== */
dem_status dem_region_parse_box(const char *text, dem_region *r, dem_error *err)
{
    double v[6];
    dem_status st = dem_parse_doubles(text, v, 6, err);
    if (st) return st;
    for (int a = 0; a < 3; a++)
        if (!(v[a] < v[a + 3]))
            return dem_fail(err, DEM_ERR_ARG, "box '%s': %c0 = %g must be less than %c1 = %g", text, axis_names[a], v[a],
                            axis_names[a], v[a + 3]);
    memset(r, 0, sizeof *r);
    r->kind = DEM_REGION_BOX;
    r->lo = dem_v3(v[0], v[1], v[2]);
    r->hi = dem_v3(v[3], v[4], v[5]);
    return DEM_OK;
}

/* The two axes other than axis, in x, y, z order. */
static void other_axes(int axis, int *t1, int *t2)
{
    *t1 = axis == 0 ? 1 : 0;
    *t2 = axis == 2 ? 1 : 2;
}

dem_status dem_region_parse_cylinder(const char *text, dem_region *r, dem_error *err)
{
    int axis = dem_axis_index(text[0]);
    if (axis < 0 || text[1] != ',')
        return dem_fail(err, DEM_ERR_ARG, "cylinder '%s': expected AXIS,C1,C2,RADIUS,LO,HI with AXIS x, y or z", text);
    double v[5];
    if (dem_parse_doubles(text + 2, v, 5, NULL))
        return dem_fail(err, DEM_ERR_ARG, "cylinder '%s': expected AXIS,C1,C2,RADIUS,LO,HI: 5 numbers after the axis", text);
    if (!(v[2] > 0.0)) return dem_fail(err, DEM_ERR_ARG, "cylinder '%s': radius %g must be positive", text, v[2]);
    if (!(v[3] < v[4])) return dem_fail(err, DEM_ERR_ARG, "cylinder '%s': LO = %g must be less than HI = %g", text, v[3], v[4]);
    memset(r, 0, sizeof *r);
    r->kind = DEM_REGION_CYLINDER;
    r->axis = axis;
    r->c1 = v[0];
    r->c2 = v[1];
    r->radius = v[2];
    r->axlo = v[3];
    r->axhi = v[4];
    int t1, t2;
    other_axes(axis, &t1, &t2);
    dem_v3_set(&r->lo, axis, v[3]);
    dem_v3_set(&r->hi, axis, v[4]);
    dem_v3_set(&r->lo, t1, v[0] - v[2]);
    dem_v3_set(&r->hi, t1, v[0] + v[2]);
    dem_v3_set(&r->lo, t2, v[1] - v[2]);
    dem_v3_set(&r->hi, t2, v[1] + v[2]);
    return DEM_OK;
}

double dem_region_volume(const dem_region *r)
{
    if (r->kind == DEM_REGION_CYLINDER) return M_PI * r->radius * r->radius * (r->axhi - r->axlo);
    dem_vec3 d = dem_v3_sub(r->hi, r->lo);
    return d.x * d.y * d.z;
}

/* ==== size distributions ==================================================================== */
static int positive(double x) { return x > 0.0 && isfinite(x); }

dem_status dem_size_check(const dem_size_dist *d, dem_error *err)
{
    switch (d->kind) {
    case DEM_SIZE_MONO:
        if (!positive(d->radius)) return dem_fail(err, DEM_ERR_ARG, "radius %g m must be positive", d->radius);
        return DEM_OK;
    case DEM_SIZE_UNIFORM:
        if (!positive(d->rmin) || !positive(d->rmax) || d->rmin > d->rmax)
            return dem_fail(err, DEM_ERR_ARG, "need 0 < RMIN <= RMAX, got RMIN = %g m, RMAX = %g m", d->rmin, d->rmax);
        return DEM_OK;
    case DEM_SIZE_BIDISPERSE:
        if (!positive(d->r1) || !positive(d->r2))
            return dem_fail(err, DEM_ERR_ARG, "radii R1 = %g m and R2 = %g m must be positive", d->r1, d->r2);
        if (!(d->phi1 >= 0.0 && d->phi1 <= 1.0))
            return dem_fail(err, DEM_ERR_ARG, "volume fraction PHI1 = %g must lie in [0, 1]", d->phi1);
        return DEM_OK;
    case DEM_SIZE_LOGNORMAL:
        if (!positive(d->median)) return dem_fail(err, DEM_ERR_ARG, "median radius %g m must be positive", d->median);
        if (!(d->sigma >= 0.0) || !isfinite(d->sigma))
            return dem_fail(err, DEM_ERR_ARG, "SIGMA = %g (of ln r) must be >= 0", d->sigma);
        if (!isfinite(d->median * exp(3.0 * d->sigma)) || !(d->median * exp(-3.0 * d->sigma) > 0.0))
            return dem_fail(err, DEM_ERR_ARG, "SIGMA = %g is too wide: radii exp(+-3 SIGMA) times the median overflow", d->sigma);
        return DEM_OK;
    }
    return dem_fail(err, DEM_ERR_ARG, "unknown size distribution %d", (int)d->kind);
}

size_t dem_bidisperse_count1(size_t n, double r1, double r2, double phi1)
{
    if (phi1 <= 0.0) return 0;
    if (phi1 >= 1.0) return n;
    /* Numbers are volume fractions divided by the volume of one sphere (the 4/3 pi cancels). */
    double a = phi1 / (r1 * r1 * r1), b = (1.0 - phi1) / (r2 * r2 * r2);
    double n1 = floor((double)n * (a / (a + b)) + 0.5);
    return n1 >= (double)n ? n : (size_t)n1;
}

dem_status dem_size_draw(const dem_size_dist *d, size_t n, dem_rng *rng, double *radii, dem_error *err)
{
    dem_status st = dem_size_check(d, err);
    if (st) return st;
    size_t n1 = d->kind == DEM_SIZE_BIDISPERSE ? dem_bidisperse_count1(n, d->r1, d->r2, d->phi1) : 0;
    for (size_t k = 0; k < n; k++) {
        switch (d->kind) {
        case DEM_SIZE_MONO: radii[k] = d->radius; break;
        case DEM_SIZE_UNIFORM: radii[k] = d->rmin + dem_rng_uniform(rng) * (d->rmax - d->rmin); break;
        case DEM_SIZE_BIDISPERSE: radii[k] = k < n1 ? d->r1 : d->r2; break;
        case DEM_SIZE_LOGNORMAL: {
            double z;
            do z = dem_rng_normal(rng); /* truncation by rejection keeps the shape inside */
            while (fabs(z) > 3.0);
            radii[k] = d->median * dem_rng_exp(d->sigma * z);
            break;
        }
        }
    }
    return DEM_OK;
}

/* ==== random sequential addition ============================================================ */
/* How one coordinate of a centre is drawn: across a periodic face, anywhere in [lo, lo + len);
 * otherwise so that the sphere stays inside [lo, lo + len]. */
typedef struct {
    int periodic[3];
    double lo[3], len[3];
} extent;

/* A uniform grid of cells no smaller than the largest diameter over the region's bounding box:
 * a sphere can only touch spheres whose centres lie in its own or the 26 adjacent cells. */
typedef struct {
    int n[3];
    double cs[3];
    size_t *head; /* first sphere of each cell, SIZE_MAX if empty */
    size_t *next; /* next sphere in the same cell */
} grid;

#define NONE SIZE_MAX

/* reach: the largest sum of two radii that can touch (2 rmax among new spheres alone). */
static dem_status grid_init(grid *g, const extent *e, size_t n, double reach, dem_error *err)
{
    double vol = e->len[0] * e->len[1] * e->len[2];
    /* The margin keeps len/ncells >= reach despite rounding. Cells of about one sphere each
     * when the packing is dilute keep the grid no bigger than the packing. */
    double h = fmax(reach * (1.0 + 1e-9), cbrt(vol / (double)n));
    double total;
    for (;;) {
        total = 1.0;
        for (int a = 0; a < 3; a++) {
            double c = floor(e->len[a] / h);
            g->n[a] = c < 1.0 ? 1 : c > 1e6 ? 1000000 : (int)c;
            total *= g->n[a];
        }
        if (total <= 4.0 * (double)n + 4096.0) break; /* thin slabs: coarsen until small */
        h *= 1.25;
    }
    for (int a = 0; a < 3; a++) g->cs[a] = e->len[a] / g->n[a];
    g->head = malloc((size_t)total * sizeof *g->head);
    g->next = malloc(n * sizeof *g->next);
    if (!g->head || !g->next) {
        free(g->head);
        free(g->next);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a search grid of %.0f cells", total);
    }
    for (size_t c = 0; c < (size_t)total; c++) g->head[c] = NONE;
    return DEM_OK;
}

static void grid_free(grid *g)
{
    free(g->head);
    free(g->next);
}

static int grid_coord(const grid *g, const extent *e, int a, double x)
{
    double c = floor((x - e->lo[a]) / g->cs[a]);
    return c < 0.0 ? 0 : c >= g->n[a] ? g->n[a] - 1 : (int)c;
}

static size_t grid_cell(const grid *g, const int c[3]) { return ((size_t)c[2] * g->n[1] + c[1]) * g->n[0] + c[0]; }

static void grid_insert(grid *g, const extent *e, dem_vec3 x, size_t k)
{
    int c[3] = {grid_coord(g, e, 0, x.x), grid_coord(g, e, 1, x.y), grid_coord(g, e, 2, x.z)};
    size_t cell = grid_cell(g, c);
    g->next[k] = g->head[cell];
    g->head[cell] = k;
}

/* The cells along axis a next to cell c (wrapping across periodic faces), each listed once. */
static int neighbour_cells(const grid *g, const extent *e, int a, int c, int out[3])
{
    int n = g->n[a], m = 0;
    if (n < 3) {
        for (int k = 0; k < n; k++) out[m++] = k;
        return m;
    }
    for (int d = -1; d <= 1; d++) {
        int q = c + d;
        if (q < 0 || q >= n) {
            if (!e->periodic[a]) continue;
            q = (q + n) % n;
        }
        out[m++] = q;
    }
    return m;
}

/* Separation of two centres, through the nearest periodic image along periodic axes. */
static dem_vec3 min_image(const extent *e, dem_vec3 d)
{
    for (int a = 0; a < 3; a++)
        if (e->periodic[a]) {
            double x = dem_v3_get(d, a);
            dem_v3_set(&d, a, x - e->len[a] * floor(x / e->len[a] + 0.5));
        }
    return d;
}

/* A sphere the grid knows: an existing particle near the region, or one placed here. */
typedef struct {
    dem_vec3 pos;
    double radius;
} ball;

/* Does a sphere at x of radius r overlap one of the spheres p[0..] in the grid? Touching is fine. */
static int overlaps_any(const grid *g, const extent *e, const ball *p, dem_vec3 x, double r)
{
    int c[3] = {grid_coord(g, e, 0, x.x), grid_coord(g, e, 1, x.y), grid_coord(g, e, 2, x.z)};
    int nb[3][3], nn[3];
    for (int a = 0; a < 3; a++) nn[a] = neighbour_cells(g, e, a, c[a], nb[a]);
    for (int k = 0; k < nn[2]; k++)
        for (int j = 0; j < nn[1]; j++)
            for (int i = 0; i < nn[0]; i++) {
                int q[3] = {nb[0][i], nb[1][j], nb[2][k]};
                for (size_t m = g->head[grid_cell(g, q)]; m != NONE; m = g->next[m]) {
                    double sum = r + p[m].radius;
                    if (dem_v3_norm2(min_image(e, dem_v3_sub(x, p[m].pos))) < sum * sum) return 1;
                }
            }
    return 0;
}

static double draw_coord(const extent *e, int a, double r, dem_rng *rng)
{
    double u = dem_rng_uniform(rng);
    if (e->periodic[a]) {
        double x = e->lo[a] + u * e->len[a];
        return x < e->lo[a] + e->len[a] ? x : e->lo[a]; /* rounding can land on the far face */
    }
    return e->lo[a] + r + u * (e->len[a] - 2.0 * r);
}

/* A uniformly random centre at which a sphere of radius r lies inside the region. */
static dem_vec3 draw_position(const dem_region *reg, const extent *e, double r, dem_rng *rng)
{
    dem_vec3 x;
    if (reg->kind == DEM_REGION_BOX) {
        x.x = draw_coord(e, 0, r, rng);
        x.y = draw_coord(e, 1, r, rng);
        x.z = draw_coord(e, 2, r, rng);
        return x;
    }
    double u, v; /* uniform in the unit disc by rejection from its square */
    do {
        u = 2.0 * dem_rng_uniform(rng) - 1.0;
        v = 2.0 * dem_rng_uniform(rng) - 1.0;
    } while (u * u + v * v > 1.0);
    double rho = reg->radius - r;
    int t1, t2;
    other_axes(reg->axis, &t1, &t2);
    dem_v3_set(&x, t1, reg->c1 + rho * u);
    dem_v3_set(&x, t2, reg->c2 + rho * v);
    dem_v3_set(&x, reg->axis, draw_coord(e, reg->axis, r, rng));
    return x;
}

static int near_equal(double a, double b, double scale) { return fabs(a - b) <= 1e-12 * scale; }

/* The drawing extent of the region, with the cell's bounds along periodic axes, after checking
 * that periodic axes make sense for the region. */
static dem_status make_extent(const dem_system *s, const dem_region *reg, extent *e, dem_error *err)
{
    const dem_cell *c = &s->cell;
    for (int a = 0; a < 3; a++) {
        e->periodic[a] = (c->flags >> a) & 1u;
        e->lo[a] = dem_v3_get(reg->lo, a);
        e->len[a] = dem_v3_get(reg->hi, a) - e->lo[a];
    }
    if (!c->flags) return DEM_OK;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j && c->h.m[i][j] != 0.0)
                return dem_fail(err, DEM_ERR_ARG, "random packing needs a rectangular periodic cell (H diagonal)");
    for (int a = 0; a < 3; a++) {
        if (!e->periodic[a]) continue;
        double clo = dem_v3_get(c->origin, a), clen = c->h.m[a][a];
        double rlo = dem_v3_get(reg->lo, a), rhi = dem_v3_get(reg->hi, a);
        if (reg->kind == DEM_REGION_CYLINDER && a != reg->axis)
            return dem_fail(err, DEM_ERR_ARG, "a cylinder along %c cannot be periodic along %c: only its axis can be periodic",
                            axis_names[reg->axis], axis_names[a]);
        if (!near_equal(rlo, clo, clen) || !near_equal(rhi, clo + clen, clen))
            return dem_fail(err, DEM_ERR_ARG,
                            "the cell is periodic along %c, so the %s must span the cell there: %s [%g, %g] m, cell [%g, %g] m",
                            axis_names[a], reg->kind == DEM_REGION_BOX ? "box" : "cylinder", reg->kind == DEM_REGION_BOX ? "box" : "cylinder",
                            rlo, rhi, clo, clo + clen);
        e->lo[a] = clo;
        e->len[a] = clen;
    }
    return DEM_OK;
}

/* Can the largest sphere fit at all? */
static dem_status check_fit(const dem_region *reg, const extent *e, double rmax, dem_error *err)
{
    if (reg->kind == DEM_REGION_CYLINDER && rmax > reg->radius)
        return dem_fail(err, DEM_ERR_LIMIT, "the largest sphere (radius %g m) does not fit in the cylinder of radius %g m",
                        rmax, reg->radius);
    for (int a = 0; a < 3; a++) {
        if (reg->kind == DEM_REGION_CYLINDER && a != reg->axis) continue;
        if (e->len[a] >= 2.0 * rmax) continue;
        if (e->periodic[a])
            return dem_fail(err, DEM_ERR_LIMIT, "the largest sphere (radius %g m) would overlap its own periodic image across the %g m period along %c",
                            rmax, e->len[a], axis_names[a]);
        return dem_fail(err, DEM_ERR_LIMIT, "the largest sphere (radius %g m) does not fit: the region is %g m long along %c",
                        rmax, e->len[a], axis_names[a]);
    }
    return DEM_OK;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* Does a sphere at x of radius r reach through one of the walls (be it on the wrong side)? */
static int crosses_wall(const dem_system *s, dem_vec3 x, double r)
{
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *wl = &s->walls[k];
        dem_vec3 rel = dem_v3_sub(x, wl->point);
        double gap;
        if (wl->kind == DEM_WALL_PLANE) gap = dem_v3_dot(rel, wl->normal);
        else {
            double d = dem_v3_norm(dem_v3_madd(rel, wl->normal, -dem_v3_dot(rel, wl->normal)));
            gap = wl->flags & DEM_WALL_OUTSIDE ? d - wl->radius : wl->radius - d;
        }
        if (gap < r) return 1;
    }
    return 0;
}

/* Place radii[0..n) one by one, ids from first_id on; the grid holds the nobst obstacles in
 * balls[0..nobst). On failure report and remove what was placed. */
static dem_status place_all(dem_system *s, const dem_random_spec *spec, const extent *e, grid *g, ball *balls,
                            size_t nobst, const double *radii, uint64_t first_id, dem_rng *rng, dem_error *err)
{
    size_t base = s->nparticles;
    dem_status st;
    for (size_t k = 0; k < spec->n; k++) {
        double r = radii[k];
        long attempt;
        dem_vec3 x = dem_v3_zero();
        for (attempt = 0; attempt < spec->max_attempts; attempt++) {
            x = draw_position(&spec->region, e, r, rng);
            if (!overlaps_any(g, e, balls, x, r) && !crosses_wall(s, x, r)) break;
        }
        if (attempt == spec->max_attempts) {
            double vol = 0.0; /* of the spheres placed here */
            for (size_t m = base; m < s->nparticles; m++) {
                double q = s->particles[m].radius;
                vol += 4.0 / 3.0 * M_PI * q * q * q;
            }
            double phi = vol / dem_region_volume(&spec->region);
            s->nparticles = base;
            return dem_fail(err, DEM_ERR_LIMIT,
                            "placed %zu of %zu spheres (solid fraction %.4f of the region) before sphere %zu "
                            "(radius %g m) found no free position in %ld attempts; random sequential addition "
                            "jams near a solid fraction of 0.38: use fewer or smaller spheres, a larger region, "
                            "more attempts, or a lattice",
                            k, spec->n, phi, k + 1, r, spec->max_attempts);
        }
        if ((st = dem_pack_push_sphere(s, x, r, spec->material, err))) {
            s->nparticles = base;
            return st;
        }
        s->particles[s->nparticles - 1].id = first_id + k;
        balls[nobst + k] = (ball){x, r};
        grid_insert(g, e, x, nobst + k);
    }
    return DEM_OK;
}

/* The particles already in s that a sphere of radius up to rmax inside the extent could touch
 * (centres wrapped into the extent along periodic axes), into balls[0..*n); their largest
 * radius in *robst. */
static void gather_obstacles(const dem_system *s, const extent *e, double rmax, ball *balls, size_t *n, double *robst)
{
    size_t m = 0;
    double big = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        dem_vec3 x = p->pos;
        int near = 1;
        for (int a = 0; a < 3 && near; a++) {
            double v = dem_v3_get(x, a), lo = e->lo[a], len = e->len[a];
            if (e->periodic[a]) {
                v -= len * floor((v - lo) / len);
                if (!(v < lo + len)) v = lo; /* rounding onto the far face */
                if (v < lo) v = lo;
                dem_v3_set(&x, a, v);
            } else {
                double reach = p->radius + rmax;
                near = v >= lo - reach && v <= lo + len + reach;
            }
        }
        if (!near) continue;
        balls[m++] = (ball){x, p->radius};
        if (p->radius > big) big = p->radius;
    }
    *n = m;
    *robst = big;
}

dem_status dem_pack_insert(dem_system *s, const dem_random_spec *spec, dem_error *err)
{
    dem_status st;
    if (spec->n < 1 || spec->n > DEM_PACK_MAX_PARTICLES)
        return dem_fail(err, DEM_ERR_ARG, "%zu spheres requested: need 1 to %u", spec->n, DEM_PACK_MAX_PARTICLES);
    if (spec->max_attempts < 1) return dem_fail(err, DEM_ERR_ARG, "max attempts %ld must be at least 1", spec->max_attempts);
    if (spec->material >= s->nmaterials)
        return dem_fail(err, DEM_ERR_ARG, "material %u does not exist (%zu materials)", spec->material, s->nmaterials);
    uint64_t first_id = 1;
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].id >= first_id) first_id = s->particles[k].id + 1;
    if (first_id == 0 || UINT64_MAX - first_id < spec->n)
        return dem_fail(err, DEM_ERR_LIMIT, "the ids of %zu new spheres would pass 2^64 - 1 (largest id %llu)", spec->n,
                        (unsigned long long)(first_id - 1));
    extent e;
    if ((st = make_extent(s, &spec->region, &e, err))) return st;
    double *radii = malloc(spec->n * sizeof *radii);
    ball *balls = malloc((s->nparticles + spec->n) * sizeof *balls);
    if (!radii || !balls) {
        free(radii);
        free(balls);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu radii", spec->n);
    }
    dem_rng rng;
    dem_rng_seed(&rng, spec->seed);
    grid g = {{0, 0, 0}, {0, 0, 0}, NULL, NULL};
    size_t nobst = 0;
    double robst = 0.0;
    if ((st = dem_size_draw(&spec->size, spec->n, &rng, radii, err))) goto done;
    /* Largest first: big spheres find room while the region is empty. Equal radii are equal
     * bit for bit, so the sorted array is the same whatever qsort does with ties. */
    qsort(radii, spec->n, sizeof *radii, cmp_desc);
    if ((st = check_fit(&spec->region, &e, radii[0], err))) goto done;
    gather_obstacles(s, &e, radii[0], balls, &nobst, &robst);
    if ((st = dem_system_reserve_particles(s, s->nparticles + spec->n, err))) goto done;
    if ((st = grid_init(&g, &e, nobst + spec->n, fmax(2.0 * radii[0], radii[0] + robst), err))) goto done;
    for (size_t k = 0; k < nobst; k++) grid_insert(&g, &e, balls[k].pos, k);
    st = place_all(s, spec, &e, &g, balls, nobst, radii, first_id, &rng, err);
    grid_free(&g);
done:
    free(radii);
    free(balls);
    return st;
}

uint64_t dem_pack_insert_seed(const dem_system *s, uint64_t seed)
{
    uint64_t max_id = 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].id > max_id) max_id = s->particles[k].id;
    const uint64_t words[4] = {seed, s->step, (uint64_t)s->nparticles, max_id};
    uint64_t h = 0x696e73657274ULL; /* "insert": no word list gives the plain seed back */
    for (int k = 0; k < 4; k++) {
        uint64_t state = h ^ words[k];
        h = dem_splitmix64(&state);
    }
    return h;
}

dem_status dem_pack_random(dem_system *s, const dem_random_spec *spec, dem_error *err)
{
    return dem_pack_insert(s, spec, err);
}
