/* clump.c - rigid clumps of spheres for dem-pack (see pack.h): templates (built-in shapes or a
 * table of member spheres), their mass properties (core/rigid.h), and clumps placed at the centres
 * of placeholder spheres (lattices, random packings, insertion) or read from a table of centroids. */
#include "pack/pack.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rigid.h"
#include "pack/table.h"

/* ---- a small table reader: a header of names (a name may carry its unit in brackets), then rows of
 * numbers separated by tabs; blank lines and lines starting with '#' skipped. ---------------------- */
#define TABLE_COLS_MAX 32

typedef struct {
    int ncols;
    int col[TABLE_COLS_MAX]; /* index into the caller's names, -1: ignored */
} table_header;

/* A field as a C string in buf (cut to size - 1 bytes). */
static void field_copy(dem_span f, char *buf, size_t size)
{
    size_t n = f.n < size - 1 ? f.n : size - 1;
    memcpy(buf, f.p, n);
    buf[n] = 0;
}

/* Match the header's names against names[0..n) (units: a name may read "x[m]" where units[k] is
 * "m"); a name the caller does not know is refused. */
static dem_status parse_header(dem_span line, const char *const *names, const char *const *units, int n,
                               const char *what, table_header *h, dem_error *err)
{
    dem_span f[TABLE_COLS_MAX];
    h->ncols = dem_table_split(line, f, TABLE_COLS_MAX);
    if (h->ncols > TABLE_COLS_MAX) return dem_fail(err, DEM_ERR_VALUE, "line 1: %d columns, at most %d", h->ncols, TABLE_COLS_MAX);
    for (int k = 0; k < h->ncols; k++) {
        char name[64];
        field_copy(f[k], name, sizeof name);
        char *br = strchr(name, '[');
        const char *unit = NULL;
        if (br) {
            char *close = strchr(br, ']');
            if (!close || close[1]) return dem_fail(err, DEM_ERR_VALUE, "line 1: column '%s': a unit goes in brackets at the end", name);
            *close = 0;
            *br = 0;
            unit = br + 1;
        }
        h->col[k] = -1;
        for (int c = 0; c < n; c++)
            if (strcmp(name, names[c]) == 0) h->col[k] = c;
        if (h->col[k] < 0) return dem_fail(err, DEM_ERR_VALUE, "line 1: unknown column '%s' in %s", name, what);
        for (int j = 0; j < k; j++)
            if (h->col[j] == h->col[k]) return dem_fail(err, DEM_ERR_VALUE, "line 1: column '%s' appears twice", name);
        const char *want = units[h->col[k]];
        if (unit && (!want || strcmp(unit, want) != 0))
            return dem_fail(err, DEM_ERR_VALUE, "line 1: column '%s' in [%s]: %s", name, unit,
                            want ? "the unit must be the SI one given in --help" : "this column has no unit");
    }
    return DEM_OK;
}

/* The numbers of one row into v[names' indices] (absent columns keep their values). */
static dem_status parse_row(dem_span text, const table_header *h, const char *const *names, long line, double *v,
                            dem_error *err)
{
    dem_span f[TABLE_COLS_MAX];
    int nf = dem_table_split(text, f, TABLE_COLS_MAX);
    if (nf != h->ncols) return dem_fail(err, DEM_ERR_VALUE, "line %ld: %d fields, the header has %d", line, nf, h->ncols);
    for (int k = 0; k < h->ncols; k++) {
        char buf[128], *end;
        field_copy(f[k], buf, sizeof buf);
        errno = 0;
        double x = strtod(buf, &end);
        if (!buf[0] || *end || !isfinite(x))
            return dem_fail(err, DEM_ERR_VALUE, "line %ld, column %s: '%s' is not a finite number", line, names[h->col[k]], buf);
        v[h->col[k]] = x;
    }
    return DEM_OK;
}

/* ---- templates ---------------------------------------------------------------------------------- */
void dem_clump_template_free(dem_clump_template *t)
{
    free(t->m);
    memset(t, 0, sizeof *t);
}

/* Mass properties per unit density and the members in the body frame. */
static dem_status template_finish(dem_clump_template *t, unsigned grid, dem_error *err)
{
    dem_rigid_props p;
    dem_status st = dem_rigid_props_of(t->m, t->n, 1.0, grid, &p, err);
    if (st) return st;
    dem_rigid_to_body(&p, t->m, t->n);
    t->volume = p.volume;
    t->inertia1 = p.inertia;
    t->q = p.q;
    t->inertia_err = p.inertia_err;
    t->grid = grid;
    t->rbound = 0.0;
    for (size_t k = 0; k < t->n; k++) {
        double rb = dem_v3_norm(t->m[k].x) + t->m[k].r;
        if (rb > t->rbound) t->rbound = rb;
    }
    return DEM_OK;
}

int dem_clump_is_builtin(const char *spec)
{
    static const char *const names[] = {"dimer", "trimer", "tetrahedron", "rod"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(spec, names[k], n) == 0 && (spec[n] == 0 || spec[n] == ':')) return 1;
    }
    return 0;
}

/* "NAME[:A[:B]]" split: the name's length and up to two numbers after it. */
static dem_status builtin_args(const char *spec, size_t *namelen, double *a, int *na, dem_error *err)
{
    const char *colon = strchr(spec, ':');
    *namelen = colon ? (size_t)(colon - spec) : strlen(spec);
    *na = 0;
    while (colon && *na < 2) {
        char *end;
        a[*na] = strtod(colon + 1, &end);
        if (end == colon + 1 || (*end && *end != ':') || !isfinite(a[*na]))
            return dem_fail(err, DEM_ERR_ARG, "'%s': '%s' is not a number", spec, colon + 1);
        (*na)++;
        colon = *end == ':' ? end : NULL;
    }
    if (colon) return dem_fail(err, DEM_ERR_ARG, "'%s': too many numbers", spec);
    return DEM_OK;
}

dem_status dem_clump_template_builtin(const char *spec, double radius, unsigned grid, dem_clump_template *t, dem_error *err)
{
    memset(t, 0, sizeof *t);
    if (!(radius > 0.0) || !isfinite(radius)) return dem_fail(err, DEM_ERR_ARG, "member radius %g m must be positive", radius);
    size_t nl;
    double a[2];
    int na;
    dem_status st = builtin_args(spec, &nl, a, &na, err);
    if (st) return st;
    int rod = nl == 3 && strncmp(spec, "rod", 3) == 0;
    size_t n = 0;
    double d = radius; /* centre distance: D r, D = 1 unless given */
    if (rod) {
        if (na < 1 || a[0] != floor(a[0]) || a[0] < 2 || a[0] > DEM_CLUMP_MEMBERS_MAX)
            return dem_fail(err, DEM_ERR_ARG, "'%s': a rod is rod:N[:D] with N spheres, 2 <= N <= %d", spec, DEM_CLUMP_MEMBERS_MAX);
        n = (size_t)a[0];
        if (na == 2) d = a[1] * radius;
    } else {
        if (na == 2) return dem_fail(err, DEM_ERR_ARG, "'%s': give NAME or NAME:D", spec);
        if (na == 1) d = a[0] * radius;
        n = nl == 5 && strncmp(spec, "dimer", 5) == 0 ? 2 : nl == 6 && strncmp(spec, "trimer", 6) == 0 ? 3
          : nl == 11 && strncmp(spec, "tetrahedron", 11) == 0 ? 4 : 0;
        if (!n) return dem_fail(err, DEM_ERR_ARG, "'%s' is not a built-in shape (dimer, trimer, tetrahedron, rod:N) nor a file", spec);
    }
    if (!(d > 0.0) || !isfinite(d))
        return dem_fail(err, DEM_ERR_ARG, "'%s': the centre distance D (in member radii) must be positive", spec);
    if (!(t->m = calloc(n, sizeof *t->m))) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a clump of %zu spheres", n);
    t->n = n;
    for (size_t k = 0; k < n; k++) t->m[k].r = radius;
    if (rod || n == 2) { /* a line along x */
        for (size_t k = 0; k < n; k++) t->m[k].x = dem_v3(d * ((double)k - 0.5 * (double)(n - 1)), 0.0, 0.0);
    } else if (n == 3) { /* an equilateral triangle of side d in the xy plane */
        double h = d * sqrt(3.0) / 2.0;
        t->m[0].x = dem_v3(-0.5 * d, -h / 3.0, 0.0);
        t->m[1].x = dem_v3(0.5 * d, -h / 3.0, 0.0);
        t->m[2].x = dem_v3(0.0, 2.0 * h / 3.0, 0.0);
    } else { /* a regular tetrahedron of edge d: alternate corners of a cube of side d / sqrt 2 */
        double c = d / (2.0 * sqrt(2.0));
        t->m[0].x = dem_v3(c, c, c);
        t->m[1].x = dem_v3(c, -c, -c);
        t->m[2].x = dem_v3(-c, c, -c);
        t->m[3].x = dem_v3(-c, -c, c);
    }
    snprintf(t->name, sizeof t->name, "%s", spec);
    if ((st = template_finish(t, grid, err))) dem_clump_template_free(t);
    return st;
}

dem_status dem_clump_template_tsv(const char *text, size_t len, unsigned grid, dem_clump_template *t, dem_error *err)
{
    static const char *const names[] = {"x", "y", "z", "r"};
    static const char *const units[] = {"m", "m", "m", "m"};
    memset(t, 0, sizeof *t);
    size_t at = 0, cap = 0;
    dem_span l;
    long line = 0;
    table_header h;
    dem_status st = DEM_OK;
    int header = 0;
    while (!st && dem_table_next_line(text, len, &at, &l)) {
        line++;
        if (!header) {
            if ((st = parse_header(l, names, units, 4, "a clump template (x y z r)", &h, err))) break;
            int seen = 0;
            for (int k = 0; k < h.ncols; k++) seen |= 1 << h.col[k];
            if (seen != 15) { st = dem_fail(err, DEM_ERR_VALUE, "line 1: a clump template needs the columns x y z r"); break; }
            header = 1;
        } else if (!dem_table_skip(l)) {
            double v[4] = {0};
            if ((st = parse_row(l, &h, names, line, v, err))) break;
            if (!(v[3] > 0.0)) { st = dem_fail(err, DEM_ERR_VALUE, "line %ld, column r: %g m must be positive", line, v[3]); break; }
            if (t->n == DEM_CLUMP_MEMBERS_MAX) { st = dem_fail(err, DEM_ERR_LIMIT, "more than %d members", DEM_CLUMP_MEMBERS_MAX); break; }
            if (t->n == cap) {
                cap = cap ? 2 * cap : 8;
                dem_rigid_member *m = realloc(t->m, cap * sizeof *m);
                if (!m) { st = dem_fail(err, DEM_ERR_NOMEM, "out of memory"); break; }
                t->m = m;
            }
            t->m[t->n].x = dem_v3(v[0], v[1], v[2]);
            t->m[t->n++].r = v[3];
        }
    }
    if (!st && !header) st = dem_fail(err, DEM_ERR_VALUE, "empty: a clump template is a header line x y z r, then one member per line");
    if (!st && !t->n) st = dem_fail(err, DEM_ERR_VALUE, "no member sphere after the header");
    if (!st) st = template_finish(t, grid, err);
    if (st) dem_clump_template_free(t);
    return st;
}

/* ---- placing clumps ----------------------------------------------------------------------------- */
/* A uniformly random rotation: a normal 4-vector normalised (the uniform measure on S^3), from the
 * generator's own log (machine-independent: no libm trigonometry). */
static dem_quat random_rotation(dem_rng *r)
{
    for (;;) {
        dem_quat q = {dem_rng_normal(r), dem_rng_normal(r), dem_rng_normal(r), dem_rng_normal(r)};
        double n = dem_quat_norm(q);
        if (n > 1e-3) return (dem_quat){q.w / n, q.x / n, q.y / n, q.z / n};
    }
}

static uint64_t next_clump_id(const dem_system *s)
{
    uint64_t id = 0;
    for (size_t k = 0; k < s->nclumps; k++)
        if (s->clumps[k].id > id) id = s->clumps[k].id;
    return id + 1;
}

/* A clump of template t with its centre of mass at x, oriented by qu (the template's frame to the
 * world), moving at v, w; members in material mat, ids from *id on. The members wrap into a
 * periodic cell along its periodic axes, their image counters keeping x_c + R b unwrapped. */
static dem_status push_clump(dem_system *s, const dem_clump_template *t, dem_vec3 x, dem_quat qu, dem_vec3 v, dem_vec3 w, uint32_t mat,
                             uint64_t cid, uint64_t *id, dem_error *err)
{
    double rho = s->materials[mat].density;
    dem_clump c;
    memset(&c, 0, sizeof c);
    c.id = cid;
    c.mass = rho * t->volume;
    c.inertia = dem_v3_scale(t->inertia1, rho);
    c.pos = x;
    c.vel = v;
    dem_quat q = dem_quat_mul(qu, t->q); /* body -> template -> world */
    double qn = dem_quat_norm(q);
    c.orient = (dem_quat){q.w / qn, q.x / qn, q.y / qn, q.z / qn};
    c.angmom = dem_rigid_momentum(c.orient, c.inertia, w);
    c.omega = dem_rigid_omega(c.orient, c.inertia, c.angmom);
    dem_status st = dem_system_push_clump(s, &c, err);
    dem_mat3 hinv = s->cell.flags ? dem_m3_inverse(s->cell.h) : dem_m3_identity();
    for (size_t k = 0; k < t->n && !st; k++) {
        dem_vec3 rb = dem_rigid_rotate(c.orient, t->m[k].x);
        dem_particle p = dem_particle_default();
        p.id = (*id)++;
        p.radius = t->m[k].r;
        p.material = mat;
        dem_sphere_mass(p.radius, rho, &p.mass, &p.inertia);
        p.pos = dem_v3_add(x, rb);
        p.vel = dem_v3_add(v, dem_v3_cross(c.omega, rb));
        p.omega = c.omega;
        p.orient = c.orient;
        p.clump = cid;
        if (s->cell.flags) { /* into the cell along its periodic axes, counting the images */
            dem_vec3 f = dem_m3_mulv(hinv, dem_v3_sub(p.pos, s->cell.origin));
            for (int a = 0; a < 3; a++) {
                if (!(s->cell.flags & (1u << a))) continue;
                double n = floor(dem_v3_get(f, a));
                if (n == 0.0) continue;
                p.pos = dem_v3_madd(p.pos, dem_m3_col(s->cell.h, a), -n);
                p.image[a] = (int32_t)n;
            }
        }
        dem_member mb = {p.id, cid, t->m[k].x};
        if (!(st = dem_system_push_particle(s, &p, err))) st = dem_system_push_member(s, &mb, err);
    }
    return st;
}

static uint64_t largest_id(const dem_particle *p, size_t n)
{
    uint64_t id = 0;
    for (size_t k = 0; k < n; k++)
        if (p[k].id > id) id = p[k].id;
    return id;
}

dem_status dem_pack_clumps_at_spheres(dem_system *s, size_t first, const dem_clump_template *t, int random, uint64_t seed, dem_error *err)
{
    size_t n = s->nparticles - first;
    dem_particle *at = malloc((n ? n : 1) * sizeof *at);
    if (!at) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", n);
    memcpy(at, s->particles + first, n * sizeof *at);
    s->nparticles = first;
    uint64_t id = largest_id(s->particles, first) + 1, cid = next_clump_id(s);
    dem_rng rng;
    dem_rng_seed(&rng, seed);
    dem_rng_jump(&rng);
    dem_rng_jump(&rng); /* a stream of its own: the positions and --velocity-random draw from the first two */
    dem_status st = DEM_OK;
    for (size_t k = 0; k < n && !st; k++) {
        dem_quat qu = random ? random_rotation(&rng) : dem_quat_identity();
        /* a placeholder wrapped into a periodic cell: its unwrapped centre */
        dem_vec3 x = at[k].pos;
        for (int a = 0; a < 3; a++)
            if (at[k].image[a]) x = dem_v3_madd(x, dem_m3_col(s->cell.h, a), (double)at[k].image[a]);
        st = push_clump(s, t, x, qu, at[k].vel, at[k].omega, at[k].material, cid++, &id, err);
    }
    free(at);
    return st;
}

dem_status dem_pack_clumps_tsv(dem_system *s, const char *text, size_t len, const dem_clump_template *t, uint32_t mat, dem_error *err)
{
    enum { X, Y, Z, Q0, Q1, Q2, Q3, VX, VY, VZ, WX, WY, WZ, NC };
    static const char *const names[NC] = {"x", "y", "z", "q0", "q1", "q2", "q3", "vx", "vy", "vz", "wx", "wy", "wz"};
    static const char *const units[NC] = {"m", "m", "m", NULL, NULL, NULL, NULL, "m/s", "m/s", "m/s", "rad/s", "rad/s", "rad/s"};
    size_t at = 0;
    dem_span l;
    long line = 0;
    table_header h;
    dem_status st = DEM_OK;
    int header = 0, hasq = 0;
    size_t first = s->nparticles, firstc = s->nclumps, firstm = s->nmembers;
    uint64_t id = largest_id(s->particles, s->nparticles) + 1, cid = next_clump_id(s);
    while (!st && dem_table_next_line(text, len, &at, &l)) {
        line++;
        if (!header) {
            if ((st = parse_header(l, names, units, NC, "a table of clumps (x y z, q0 q1 q2 q3, vx vy vz, wx wy wz)", &h, err))) break;
            int seen = 0;
            for (int k = 0; k < h.ncols; k++) seen |= 1 << h.col[k];
            if ((seen & 7) != 7) { st = dem_fail(err, DEM_ERR_VALUE, "line 1: a table of clumps needs the columns x y z (centres of mass, m)"); break; }
            int q = (seen >> Q0) & 15;
            if (q && q != 15) { st = dem_fail(err, DEM_ERR_VALUE, "line 1: give all four of q0 q1 q2 q3 (the orientation) or none"); break; }
            hasq = q == 15;
            header = 1;
        } else if (!dem_table_skip(l)) {
            double v[NC] = {0};
            v[Q0] = 1.0;
            if ((st = parse_row(l, &h, names, line, v, err))) break;
            dem_quat q = {v[Q0], v[Q1], v[Q2], v[Q3]};
            double qn = dem_quat_norm(q);
            if (hasq && !(fabs(qn - 1.0) <= 1e-6)) {
                st = dem_fail(err, DEM_ERR_VALUE, "line %ld: the orientation q0 q1 q2 q3 has length %.17g, not 1", line, qn);
                break;
            }
            st = push_clump(s, t, dem_v3(v[X], v[Y], v[Z]), q, dem_v3(v[VX], v[VY], v[VZ]), dem_v3(v[WX], v[WY], v[WZ]), mat, cid++, &id,
                            err);
            if (st) dem_error_prefix(err, "line %ld: ", line);
        }
    }
    if (!st && !header) st = dem_fail(err, DEM_ERR_VALUE, "empty: a table of clumps is a header line (x y z ...), then one clump per line");
    if (!st && s->nclumps == firstc) st = dem_fail(err, DEM_ERR_VALUE, "no clump after the header");
    if (st) {
        s->nparticles = first;
        s->nclumps = firstc;
        s->nmembers = firstm;
    }
    return st;
}
