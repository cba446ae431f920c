/* bond.c - harmonic bonds between particles (De Klerk et al. 2022, §3.3): made for every pair closer than a
 * gap, or read from a table of ids (see pack.h). */
#include "pack/pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The pair (a, b) through the image nearest to a (periodic axes), in *s; returns x_a - x_b'. */
static dem_vec3 nearest_image(const dem_system *s, const dem_particle *a, const dem_particle *b, dem_mat3 hinv, int32_t sh[3])
{
    dem_vec3 d = dem_v3_sub(a->pos, b->pos);
    sh[0] = sh[1] = sh[2] = 0;
    if (!s->cell.flags) return d;
    dem_vec3 f = dem_m3_mulv(hinv, d);
    double fr[3] = {f.x, f.y, f.z};
    for (int k = 0; k < 3; k++)
        if (s->cell.flags & (1u << k)) sh[k] = (int32_t)lround(fr[k]);
    /* x_b' = x_b + H sh: d' = d - H sh */
    return dem_v3_sub(d, dem_m3_mulv(s->cell.h, dem_v3((double)sh[0], (double)sh[1], (double)sh[2])));
}

/* A bond's delta and force at the frame's positions. */
static void bond_state(dem_bond *b, dem_vec3 d, double ri, double rj)
{
    double dist = dem_v3_norm(d);
    b->delta = ri + rj - dist;
    b->f = dist > 0.0 ? dem_v3_add(dem_v3_scale(d, b->kb * b->delta / dist), dem_v3_zero()) : dem_v3_zero(); /* + 0: no -0 */
}

typedef struct {
    uint64_t a, b;
    int32_t s[3];
} bond_key;

static int cmp_key(const void *pa, const void *pb)
{
    const bond_key *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (x->s[k] != y->s[k]) return x->s[k] < y->s[k] ? -1 : 1;
    return 0;
}

static bond_key key_of(uint64_t i, uint64_t j, const int32_t s[3])
{
    bond_key k;
    int flip = j < i;
    k.a = flip ? j : i;
    k.b = flip ? i : j;
    for (int d = 0; d < 3; d++) k.s[d] = flip ? -s[d] : s[d];
    return k;
}

/* The existing bonds' keys, sorted. */
static bond_key *existing_keys(const dem_system *s, dem_error *err)
{
    bond_key *keys = malloc((s->nbonds ? s->nbonds : 1) * sizeof *keys);
    if (!keys) {
        dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu bonds", s->nbonds);
        return NULL;
    }
    for (size_t k = 0; k < s->nbonds; k++) keys[k] = key_of(s->bonds[k].i, s->bonds[k].j, s->bonds[k].shift);
    qsort(keys, s->nbonds, sizeof *keys, cmp_key);
    return keys;
}

typedef struct {
    double x;
    size_t k;
} by_x;

static int cmp_x(const void *pa, const void *pb)
{
    const by_x *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

dem_status dem_pack_bond_gap(dem_system *s, double gap, double kb, size_t *added, dem_error *err)
{
    if (added) *added = 0;
    if (!isfinite(gap)) return dem_fail(err, DEM_ERR_ARG, "bond gap %g m is not finite", gap);
    if (!(kb > 0.0) || !isfinite(kb)) return dem_fail(err, DEM_ERR_ARG, "bond stiffness %g N/m must be positive and finite", kb);
    size_t n = s->nparticles, n0 = s->nbonds;
    bond_key *keys = existing_keys(s, err);
    if (!keys) return DEM_ERR_NOMEM;
    by_x *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        free(keys);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", n);
    }
    double rmax = 0.0;
    for (size_t k = 0; k < n; k++) {
        order[k].k = k;
        order[k].x = s->cell.flags ? 0.0 : s->particles[k].pos.x;
        if (s->particles[k].radius > rmax) rmax = s->particles[k].radius;
    }
    dem_mat3 hinv = s->cell.flags ? dem_m3_inverse(s->cell.h) : dem_m3_zero();
    /* Without a cell, a sweep along x in x order; in a cell every pair through its nearest image
     * (n^2 / 2 distance tests: a second for about 30 000 spheres). The bonds are added in the
     * order (i, j) of the particles' indices, i < j, whichever way they were found. */
    qsort(order, n, sizeof *order, cmp_x);
    dem_status st = DEM_OK;
    bond_key *found = NULL;
    size_t nfound = 0, cap = 0;
    for (size_t u = 0; u < n && !st; u++) {
        size_t a = order[u].k;
        const dem_particle *pa = &s->particles[a];
        for (size_t v = u + 1; v < n && !st; v++) {
            size_t b = order[v].k;
            const dem_particle *pb = &s->particles[b];
            if (!s->cell.flags && pb->pos.x - pa->pos.x > 2.0 * rmax + gap) break;
            int32_t sh[3];
            dem_vec3 d = nearest_image(s, pa, pb, hinv, sh);
            double reach = pa->radius + pb->radius + gap;
            if (dem_v3_norm2(d) >= reach * reach) continue;
            if (nfound == cap) {
                size_t nc = cap ? 2 * cap : 64;
                bond_key *q = realloc(found, nc * sizeof *q);
                if (!q) { st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu bonds", nc); break; }
                found = q;
                cap = nc;
            }
            /* as (smaller index, larger index): the order of the output */
            size_t i = a < b ? a : b, j = a < b ? b : a;
            found[nfound].a = i;
            found[nfound].b = j;
            for (int k = 0; k < 3; k++) found[nfound].s[k] = a < b ? sh[k] : -sh[k];
            nfound++;
        }
    }
    free(order);
    if (!st && nfound) qsort(found, nfound, sizeof *found, cmp_key);
    for (size_t k = 0; k < nfound && !st; k++) {
        const dem_particle *pi = &s->particles[found[k].a], *pj = &s->particles[found[k].b];
        bond_key key = key_of(pi->id, pj->id, found[k].s);
        if (bsearch(&key, keys, n0, sizeof *keys, cmp_key)) continue; /* bonded already */
        dem_bond b;
        memset(&b, 0, sizeof b);
        b.i = pi->id;
        b.j = pj->id;
        memcpy(b.shift, found[k].s, sizeof b.shift);
        b.kb = kb;
        dem_vec3 xj = pj->pos;
        if (s->cell.flags) xj = dem_v3_add(xj, dem_m3_mulv(s->cell.h, dem_v3((double)b.shift[0], (double)b.shift[1], (double)b.shift[2])));
        bond_state(&b, dem_v3_sub(pi->pos, xj), pi->radius, pj->radius);
        st = dem_system_push_bond(s, &b, err);
    }
    free(found);
    free(keys);
    if (!st && added) *added = s->nbonds - n0;
    return st;
}

static int cmp_id(const void *pa, const void *pb)
{
    const uint64_t *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The index of the particle with this id in the sorted (id, index) table, or SIZE_MAX. */
static size_t find_id(const uint64_t (*ix)[2], size_t n, uint64_t id)
{
    uint64_t key[2] = {id, 0};
    const uint64_t *p = bsearch(key, ix, n, sizeof *ix, cmp_id);
    return p ? (size_t)p[1] : SIZE_MAX;
}

/* One field of a table line: the text between tabs, trimmed of spaces. */
static size_t next_field(const char *line, size_t n, size_t *at, char *out, size_t cap)
{
    size_t start = *at, end = start;
    while (end < n && line[end] != '\t') end++;
    *at = end < n ? end + 1 : end + 1;
    while (start < end && line[start] == ' ') start++;
    size_t e = end;
    while (e > start && line[e - 1] == ' ') e--;
    size_t len = e - start < cap - 1 ? e - start : cap - 1;
    memcpy(out, line + start, len);
    out[len] = 0;
    return e - start;
}

static dem_status bonds_tsv(dem_system *s, const char *text, size_t len, double kb_default, const uint64_t (*ix)[2], dem_error *err);

dem_status dem_pack_bonds_tsv(dem_system *s, const char *text, size_t len, double kb_default, size_t *added, dem_error *err)
{
    if (added) *added = 0;
    size_t n = s->nparticles, n0 = s->nbonds;
    uint64_t (*ix)[2] = malloc((n ? n : 1) * sizeof *ix);
    if (!ix) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", n);
    for (size_t k = 0; k < n; k++) {
        ix[k][0] = s->particles[k].id;
        ix[k][1] = k;
    }
    qsort(ix, n, sizeof *ix, cmp_id);
    dem_status st = bonds_tsv(s, text, len, kb_default, (const uint64_t (*)[2])ix, err);
    free(ix);
    if (!st && added) *added = s->nbonds - n0;
    return st;
}

static dem_status bonds_tsv(dem_system *s, const char *text, size_t len, double kb_default, const uint64_t (*ix)[2], dem_error *err)
{
    enum { C_I, C_J, C_KB, C_SX, C_SY, C_SZ, C_N };
    static const char *const names[C_N] = {"i", "j", "kb", "sx", "sy", "sz"};
    int col[16], ncol = 0, have[C_N] = {0};
    size_t at = 0, line_no = 0;
    char field[128];
    int header = 1;
    dem_mat3 hinv = s->cell.flags ? dem_m3_inverse(s->cell.h) : dem_m3_zero();
    while (at < len) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        at += n + (nl ? 1 : 0);
        line_no++;
        if (n && line[n - 1] == '\r') n--;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k == n || line[k] == '#') continue;
        size_t pos = 0;
        if (header) {
            header = 0;
            while (pos <= n) {
                if (ncol == 16) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: more than 16 columns", line_no);
                next_field(line, n, &pos, field, sizeof field);
                char *br = strchr(field, '[');
                if (br) *br = 0; /* kb[N/m]: a unit as dem-probe prints it */
                int c = -1;
                for (int q = 0; q < C_N; q++)
                    if (strcmp(field, names[q]) == 0) c = q;
                if (c < 0 && strcmp(field, "frame") && strcmp(field, "step") && strcmp(field, "time") && strcmp(field, "flags") &&
                    strcmp(field, "delta") && strcmp(field, "fx") && strcmp(field, "fy") && strcmp(field, "fz") && strcmp(field, "energy"))
                    return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: unknown column '%s' (columns: i j, optional kb sx sy sz)", line_no, field);
                if (c >= 0 && have[c]) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: column '%s' appears twice", line_no, field);
                if (c >= 0) have[c] = 1;
                col[ncol++] = c;
            }
            if (!have[C_I] || !have[C_J]) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: columns i and j are required", line_no);
            if (!have[C_KB] && !(kb_default > 0.0 && isfinite(kb_default)))
                return dem_fail(err, DEM_ERR_ARG, "the bond table has no kb column: give the stiffness with --bond-stiffness");
            continue;
        }
        double v[C_N] = {0, 0, kb_default, 0, 0, 0};
        int nf = 0;
        while (pos <= n) {
            if (nf == ncol) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: more fields than the %d columns of the header", line_no, ncol);
            next_field(line, n, &pos, field, sizeof field);
            int c = col[nf++];
            if (c < 0) continue;
            char *end;
            double x = strtod(field, &end);
            if (!*field || *end || !isfinite(x))
                return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu, column %s: '%s' is not a finite number", line_no, names[c], field);
            if ((c == C_I || c == C_J || c >= C_SX) && x != floor(x))
                return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu, column %s: '%s' is not an integer", line_no, names[c], field);
            v[c] = x;
        }
        if (nf != ncol) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: %d fields, the header has %d", line_no, nf, ncol);
        if (v[C_I] < 0 || v[C_J] < 0 || v[C_I] > 1.8e19 || v[C_J] > 1.8e19)
            return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: a particle id out of range", line_no);
        dem_bond b;
        memset(&b, 0, sizeof b);
        b.i = (uint64_t)v[C_I];
        b.j = (uint64_t)v[C_J];
        b.kb = v[C_KB];
        size_t pi = find_id(ix, s->nparticles, b.i), pj = find_id(ix, s->nparticles, b.j);
        if (pi == SIZE_MAX || pj == SIZE_MAX)
            return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: no particle with id %llu", line_no,
                            (unsigned long long)(pi == SIZE_MAX ? b.i : b.j));
        const dem_particle *a = &s->particles[pi], *c = &s->particles[pj];
        dem_vec3 d;
        if (have[C_SX] || have[C_SY] || have[C_SZ]) {
            for (int q = 0; q < 3; q++) {
                if (fabs(v[C_SX + q]) > DEM_IMAGE_MAX)
                    return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: image shift beyond +-2^30", line_no);
                b.shift[q] = (int32_t)v[C_SX + q];
            }
            d = dem_v3_sub(a->pos, c->pos);
            if (s->cell.flags) d = dem_v3_sub(d, dem_m3_mulv(s->cell.h, dem_v3((double)b.shift[0], (double)b.shift[1], (double)b.shift[2])));
        } else {
            d = nearest_image(s, a, c, hinv, b.shift); /* the nearest image in a cell */
        }
        if (!(b.kb > 0.0)) return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: kb %g N/m must be positive", line_no, b.kb);
        if (b.i == b.j && !(b.shift[0] | b.shift[1] | b.shift[2]))
            return dem_fail(err, DEM_ERR_VALUE, "bond table line %zu: particle %llu bonded to itself", line_no, (unsigned long long)b.i);
        bond_state(&b, d, a->radius, c->radius);
        dem_status st = dem_system_push_bond(s, &b, err);
        if (st) return st;
    }
    if (header) return dem_fail(err, DEM_ERR_VALUE, "bond table: no header line (columns i j, optional kb sx sy sz)");
    return DEM_OK;
}

size_t dem_pack_unbond_contacts(dem_system *s)
{
    if (!s->nbonds || !s->ncontacts) return 0;
    bond_key *keys = malloc(s->nbonds * sizeof *keys);
    if (!keys) return 0;
    for (size_t k = 0; k < s->nbonds; k++) keys[k] = key_of(s->bonds[k].i, s->bonds[k].j, s->bonds[k].shift);
    qsort(keys, s->nbonds, sizeof *keys, cmp_key);
    size_t kept = 0;
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        if (!(c->flags & DEM_CONTACT_WALL)) {
            bond_key key = key_of(c->i, c->j, c->shift);
            if (bsearch(&key, keys, s->nbonds, sizeof *keys, cmp_key)) continue;
        }
        s->contacts[kept++] = *c;
    }
    free(keys);
    size_t removed = s->ncontacts - kept;
    s->ncontacts = kept;
    return removed;
}
