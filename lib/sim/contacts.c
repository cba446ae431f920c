/* contacts.c - the contact store (see contacts.h). */
#include "sim/internal/contacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/boundary.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/par.h"
#include "sim/internal/roll.h"

dem_status dem_store_alloc(dem_sim *sim, dem_error *err)
{
    size_t n = sim->p.n ? sim->p.n : 1;
    sim_store *c = &sim->c;
    c->nblk = (sim->p.n + PAIR_BLOCK - 1) / PAIR_BLOCK;
    c->jadj_start = calloc(n + 1, sizeof *c->jadj_start);
    c->istart = calloc(n + 1, sizeof *c->istart);
    c->wstart = calloc(n + 1, sizeof *c->wstart);
    c->pblk = calloc(c->nblk + 1, sizeof *c->pblk);
    if (!c->jadj_start || !c->istart || !c->wstart || !c->pblk)
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    return DEM_OK;
}

void dem_store_free(dem_sim *sim)
{
    sim_store *c = &sim->c;
    void *ptrs[] = {c->pairs, c->out, c->ptouch, c->jadj, c->jadj_start, c->istart, c->pblk,
                    c->wstart, c->wowner, c->wwall, c->whist, c->wout, c->wtouch, sim->e.wlost,
                    c->roll, c->wroll, c->keys.k, sim->e.wrlost, c->hooke, c->whooke, c->kout};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) free(ptrs[k]);
}

static int key_order(uint32_t ai, uint32_t aj, const int32_t as[3], uint32_t bi, uint32_t bj, const int32_t bs[3])
{
    if (ai != bi) return ai < bi ? -1 : 1;
    if (aj != bj) return aj < bj ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (as[k] != bs[k]) return as[k] < bs[k] ? -1 : 1;
    return 0;
}

static int cmp_pair_key(const void *pa, const void *pb)
{
    const dem_contact_rec *a = pa, *b = pb;
    return key_order(a->i, a->j, a->s, b->i, b->j, b->s);
}

static int cmp_store_key(const void *pa, const void *pb)
{
    const store_key *a = pa, *b = pb;
    return key_order(a->i, a->j, a->s, b->i, b->j, b->s);
}

/* A key and the place of its record (begin_pairs' sort with side records). */
typedef struct {
    store_key k;
    size_t at;
} store_key_at;

static int cmp_key_at(const void *pa, const void *pb)
{
    const store_key_at *a = pa, *b = pb;
    return key_order(a->k.i, a->k.j, a->k.s, b->k.i, b->k.j, b->k.s);
}

/* Record r against key k. */
static int rec_vs_key(const dem_contact_rec *r, const store_key *k) { return key_order(r->i, r->j, r->s, k->i, k->j, k->s); }

/* Room for need records (and their side records: rolling and twisting, hooke's stiffnesses). */
static dem_status grow_pairs(dem_sim *sim, size_t need, dem_error *err)
{
    if (need <= sim->c.cap_pairs) return DEM_OK;
    size_t cap = sim->c.cap_pairs ? sim->c.cap_pairs : 1024;
    while (cap < need) cap += cap / 2 + 1; /* from any capacity (a slim list may have 1) */
    dem_contact_rec *p = realloc(sim->c.pairs, cap * sizeof *p);
    if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", need);
    sim->c.pairs = p;
    if (dem_roll_on(&sim->st)) { /* the side array (roll.h) */
        dem_roll_rec *r = realloc(sim->c.roll, cap * sizeof *r);
        if (!r) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", need);
        sim->c.roll = r;
    }
    if (sim->st.normal == DEM_NORMAL_HOOKE) {
        double (*k)[2] = realloc(sim->c.hooke, cap * sizeof *k);
        if (!k) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", need);
        sim->c.hooke = k;
    }
    sim->c.cap_pairs = cap;
    return DEM_OK;
}

/* Hooke's stiffnesses of particle a against particle b (mb > 0) or a wall of material b (mb = 0). */
static void hooke_constants(const dem_sim *sim, double k[2], size_t a, double rb, double mb, uint32_t matb)
{
    const sim_particles *P = &sim->p;
    dem_pair p;
    dem_pair_init(&p, &sim->st, P->r[a], P->m[a], &sim->materials[P->mat[a]], rb, mb, &sim->materials[matb]);
    k[0] = p.kn;
    k[1] = p.kt;
}

/* Pair k's constants: hooke's stiffnesses (the pair's m* and R* are computed where they are read). */
static void pair_constants(const dem_sim *sim, size_t k)
{
    if (!sim->c.hooke) return;
    const dem_contact_rec *np = &sim->c.pairs[k];
    const sim_particles *P = &sim->p;
    hooke_constants(sim, sim->c.hooke[k], np->i, P->r[np->j], P->m[np->j], P->mat[np->j]);
}

/* The records with a history move to the front of the list (in place, in order), and are put in
 * key order if the particles were renumbered or the cell flipped since the list was built (their
 * side records move with them). The list then holds only them until dem_store_end_pairs. */
dem_status dem_store_begin_pairs(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    size_t k = 0;
    for (size_t p = 0; p < c->npairs; p++) {
        if (!c->pairs[p].flags) continue;
        if (k != p) dem_store_move_kept(c, k, p);
        k++;
    }
    c->npairs = k;
    c->keys.n = 0;
    return dem_store_sort_kept(sim, err);
}

dem_status dem_store_sort_kept(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    size_t k = c->npairs;
    int sorted = 1;
    for (size_t q = 1; q < k && sorted; q++) sorted = cmp_pair_key(&c->pairs[q - 1], &c->pairs[q]) < 0;
    if (sorted) return DEM_OK;
    if (!c->roll && !c->kout) {
        qsort(c->pairs, k, sizeof *c->pairs, cmp_pair_key);
        return DEM_OK;
    }
    /* with side records: sort the keys with each record's place, then put the records and their
     * side records in that order */
    store_key_at *o = malloc(k * sizeof *o);
    dem_contact_rec *t = malloc(k * sizeof *t);
    dem_roll_rec *r = c->roll ? malloc(k * sizeof *r) : NULL;
    dem_contact_out *u = c->kout ? malloc(k * sizeof *u) : NULL;
    if (!o || !t || (c->roll && !r) || (c->kout && !u)) {
        free(o); free(t); free(r); free(u);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory rebuilding the neighbour list");
    }
    for (size_t q = 0; q < k; q++) {
        o[q].k.i = c->pairs[q].i;
        o[q].k.j = c->pairs[q].j;
        memcpy(o[q].k.s, c->pairs[q].s, sizeof o[q].k.s);
        o[q].at = q;
    }
    qsort(o, k, sizeof *o, cmp_key_at);
    for (size_t q = 0; q < k; q++) {
        t[q] = c->pairs[o[q].at];
        if (r) r[q] = c->roll[o[q].at];
        if (u) u[q] = c->kout[o[q].at];
    }
    memcpy(c->pairs, t, k * sizeof *t);
    if (r) memcpy(c->roll, r, k * sizeof *r);
    if (u) memcpy(c->kout, u, k * sizeof *u);
    free(o); free(t); free(r); free(u);
    return DEM_OK;
}

void dem_store_move_kept(sim_store *c, size_t to, size_t from)
{
    c->pairs[to] = c->pairs[from];
    if (c->roll) c->roll[to] = c->roll[from];
    if (c->kout) c->kout[to] = c->kout[from];
}

/* Room for n results beside the kept records (a frame's, until the first build places them). */
static dem_status grow_kout(sim_store *c, size_t n, dem_error *err)
{
    if (n <= c->cap_kout) return DEM_OK;
    size_t cap = c->cap_kout + c->cap_kout / 2 + 1;
    if (cap < n) cap = n;
    dem_contact_out *o = aligned_alloc(64, cap * sizeof *o); /* as out: a result to a cache line */
    if (!o) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu contact results", n);
    if (c->kout) memcpy(o, c->kout, (c->npairs < c->cap_kout ? c->npairs : c->cap_kout) * sizeof *o); /* the kept records' */
    free(c->kout);
    c->kout = o;
    c->cap_kout = cap;
    return DEM_OK;
}

dem_status dem_store_reserve_pairs(dem_sim *sim, size_t n, dem_error *err)
{
    dem_status st = grow_pairs(sim, n, err);
    return st || !sim->c.kout ? st : grow_kout(&sim->c, n, err);
}

void dem_store_kept_results_done(dem_sim *sim)
{
    free(sim->c.kout);
    sim->c.kout = NULL;
    sim->c.cap_kout = 0;
}

dem_status dem_store_keys_reserve(store_keys *b, size_t n, dem_error *err)
{
    if (n <= b->cap) return DEM_OK;
    store_key *k = realloc(b->k, n * sizeof *k);
    if (!k) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", n);
    b->k = k;
    b->cap = n;
    return DEM_OK;
}

size_t dem_store_key_size(void) { return sizeof(store_key); }

/* The packed keys (dem_store_keys_pack): varints of 7 bits a byte, low first, of zigzagged
 * differences (i from the key before, j from i) and the image shift in one byte when each of
 * its components is -1, 0 or 1 (most pairs: 0 0 0), else 27 and three zigzagged varints. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    for (; v >= 0x80; v >>= 7) p[n++] = (uint8_t)(v | 0x80);
    p[n++] = (uint8_t)v;
    return n;
}

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0); }
static int64_t unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

size_t dem_store_keys_pack_max(size_t n) { return n * (2 * 10 + 1 + 3 * 5); }

size_t dem_store_keys_pack(const store_keys *b, uint8_t *out)
{
    uint8_t *p = out;
    int64_t last = 0;
    for (size_t e = 0; e < b->n; e++) {
        const store_key *k = &b->k[e];
        p += put_varint(p, zigzag((int64_t)k->i - last));
        p += put_varint(p, zigzag((int64_t)k->j - (int64_t)k->i));
        last = k->i;
        int small = 1;
        for (int c = 0; c < 3; c++) small &= k->s[c] >= -1 && k->s[c] <= 1;
        if (small) {
            *p++ = (uint8_t)(9 * (k->s[0] + 1) + 3 * (k->s[1] + 1) + (k->s[2] + 1));
        } else {
            *p++ = 27;
            for (int c = 0; c < 3; c++) p += put_varint(p, zigzag(k->s[c]));
        }
    }
    return (size_t)(p - out);
}

int dem_store_keys_unpack(store_keys *b, size_t at, size_t n, const uint8_t *in, size_t len)
{
    const uint8_t *p = in, *end = in + len;
    int64_t last = 0;
    for (size_t e = 0; e < n; e++) {
        store_key *k = &b->k[at + e];
        uint64_t di, dj, v;
        if (!get_varint(&p, end, &di) || !get_varint(&p, end, &dj) || p >= end) return 0;
        int64_t i = last + unzigzag(di), j = i + unzigzag(dj);
        if (i < 0 || i > UINT32_MAX || j < 0 || j > UINT32_MAX) return 0;
        k->i = (uint32_t)i;
        k->j = (uint32_t)j;
        last = i;
        uint8_t code = *p++;
        if (code < 27) {
            k->s[0] = code / 9 - 1;
            k->s[1] = code / 3 % 3 - 1;
            k->s[2] = code % 3 - 1;
        } else {
            for (int c = 0; c < 3; c++) {
                if (code != 27 || !get_varint(&p, end, &v)) return 0;
                int64_t sc = unzigzag(v);
                if (sc < INT32_MIN || sc > INT32_MAX) return 0;
                k->s[c] = (int32_t)sc;
            }
        }
    }
    return p == end;
}

dem_status dem_store_keys_add(store_keys *b, uint32_t i, uint32_t j, const int32_t s[3], dem_error *err)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap + b->cap / 2 + 1 : 1024;
        store_key *k = realloc(b->k, cap * sizeof *k);
        if (!k) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", b->n + 1);
        b->k = k;
        b->cap = cap;
    }
    store_key *k = &b->k[b->n++];
    k->i = i;
    k->j = j;
    memcpy(k->s, s, sizeof k->s);
    return DEM_OK;
}

dem_status dem_store_add_pair(dem_sim *sim, uint32_t i, uint32_t j, const int32_t s[3], dem_error *err)
{
    return dem_store_keys_add(&sim->c.keys, i, j, s, err);
}

dem_status dem_store_keys_append(dem_sim *sim, store_keys *b, dem_error *err)
{
    store_keys *to = &sim->c.keys;
    if (!b->n) return DEM_OK;
    if (!to->n && !to->k) { /* the first: taken over as it is */
        *to = *b;
        memset(b, 0, sizeof *b);
        return DEM_OK;
    }
    if (to->n + b->n > to->cap) {
        store_key *k = realloc(to->k, (to->n + b->n) * sizeof *k);
        if (!k) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", to->n + b->n);
        to->k = k;
        to->cap = to->n + b->n;
    }
    memcpy(to->k + to->n, b->k, b->n * sizeof *b->k);
    to->n += b->n;
    b->n = 0;
    return DEM_OK;
}

/* The keys in order: the grid's scan gives them by i, so each particle's few are sorted among
 * themselves (insertion sort); any other order (the hierarchical grid) is sorted whole. The
 * keys are unique, so either gives the one sorted order. */
void dem_store_keys_sort(store_keys *b)
{
    store_key *k = b->k;
    size_t n = b->n, p = 1;
    while (p < n && k[p - 1].i <= k[p].i) p++;
    if (p < n) {
        qsort(k, n, sizeof *k, cmp_store_key);
        return;
    }
    for (size_t a = 1; a < n; a++) {
        if (k[a].i != k[a - 1].i || cmp_store_key(&k[a - 1], &k[a]) < 0) continue;
        store_key t = k[a];
        size_t m = a;
        for (; m > 0 && k[m - 1].i == t.i && cmp_store_key(&k[m - 1], &t) > 0; m--) k[m] = k[m - 1];
        k[m] = t;
    }
}

/* Pairs [lo, hi) of the new list once the kept records are in their places (ptouch[k]: pair k
 * holds one): the new pairs from their keys, without history; every pair's constants; the
 * results and touch flags as exact zeros, which the next force pass fills, but for the pairs of
 * a frame the first build carried with their results (kout), which stand for this step's. */
static PAR_RANGE void fill_share(void *ctx, size_t lo, size_t hi, int t)
{
    dem_sim *sim = ctx;
    sim_store *c = &sim->c;
    const store_key *key = c->keys.k;
    (void)t;
    for (size_t k = lo; k < hi; k++) {
        dem_contact_rec *np = &c->pairs[k];
        if (!c->ptouch[k]) {
            memset(np, 0, sizeof *np);
            np->i = key[k].i;
            np->j = key[k].j;
            memcpy(np->s, key[k].s, sizeof np->s);
            if (c->roll) memset(&c->roll[k], 0, sizeof c->roll[k]);
        }
        pair_constants(sim, k);
        if (c->kout && c->ptouch[k]) continue; /* a frame's pair, touching, with its result (merge_kept) */
        c->ptouch[k] = 0;
        memset(&c->out[k], 0, sizeof c->out[k]);
    }
}

/* The new list from the sorted keys, carrying the history of the kept records (pairs[0 .. nold),
 * sorted) to the pairs of the same key, in place: first the kept records that are no candidate
 * any more go (their contact is gone: forward, in place), then the list is filled from its end,
 * where a kept record never lies past its new place. */
static dem_status merge_kept(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    const store_key *key = c->keys.k;
    size_t nold = c->npairs, nnew = c->keys.n, m = 0, kept = 0;
    for (size_t k = 0; k < nold; k++) { /* the kept records that are still candidates */
        while (m < nnew && rec_vs_key(&c->pairs[k], &key[m]) > 0) m++;
        if (m == nnew || rec_vs_key(&c->pairs[k], &key[m]) != 0) continue;
        if (kept != k) dem_store_move_kept(c, kept, k);
        kept++;
    }
    dem_status st;
    if ((st = grow_pairs(sim, nnew, err))) return st;
    size_t q = kept; /* kept records left to place: pairs[0 .. q) */
    for (size_t k = nnew; k-- > 0;) { /* only the kept records move; ptouch marks their places */
        int carried = q > 0 && rec_vs_key(&c->pairs[q - 1], &key[k]) == 0;
        c->ptouch[k] = (uint8_t)carried;
        if (!carried) continue;
        if (k != q - 1) {
            c->pairs[k] = c->pairs[q - 1];
            if (c->roll) c->roll[k] = c->roll[q - 1];
        }
        if (c->kout) c->out[k] = c->kout[q - 1]; /* a frame's result: this step's (fill_share keeps it) */
        q--;
    }
    c->npairs = nnew;
    dem_par_for(sim->pool, nnew, fill_share, sim);
    return DEM_OK;
}

/* Per particle, its pairs in the order of the sorted pair list: the order forces are summed in
 * (see jadj in sim_store). Pairs that do not touch add exact zeros (see forces.c), so only
 * the touching ones matter, and their order in the sorted list is the same whenever the list
 * was built. */
static dem_status build_adjacency(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    size_t n = sim->p.n;
    if (c->npairs > c->cap_adj) {
        uint32_t *a = realloc(c->jadj, c->npairs * sizeof *a);
        if (!a) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the contact adjacency");
        c->jadj = a;
        c->cap_adj = c->npairs;
    }
    size_t *js = c->jadj_start, *is = c->istart;
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!fill) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the contact adjacency");
    memset(js, 0, (n + 1) * sizeof *js);
    memset(is, 0, (n + 1) * sizeof *is);
    for (size_t p = 0; p < c->npairs; p++) {
        const dem_contact_rec *np = &c->pairs[p];
        if (np->i >= np->j) {
            free(fill);
            return dem_fail(err, DEM_ERR_VALUE, "internal error: particle %llu reaches its own periodic image",
                            (unsigned long long)sim->p.id[np->i]);
        }
        is[np->i + 1]++;
        js[np->j + 1]++;
    }
    for (size_t a = 0; a < n; a++) {
        js[a + 1] += js[a];
        is[a + 1] += is[a];
    }
    memcpy(fill, js, n * sizeof *fill);
    for (size_t p = 0; p < c->npairs; p++) c->jadj[fill[c->pairs[p].j]++] = (uint32_t)p;
    free(fill);
    return DEM_OK;
}

/* The pairs of each block of particles (the list is sorted by i). */
static void pair_blocks_bounds(dem_sim *sim)
{
    sim_store *c = &sim->c;
    size_t p = 0;
    for (size_t b = 0; b < c->nblk; b++) {
        c->pblk[b] = p;
        while (p < c->npairs && c->pairs[p].i < (b + 1) * PAIR_BLOCK) p++;
    }
    c->pblk[c->nblk] = c->npairs;
}

/* The pair arrays at cap records (at least npairs; their contents kept): the room a list that
 * shrank (a slim store's first list, a gas expanding) no longer needs, given back. */
static void fit_pairs(sim_store *c, size_t cap)
{
    if (cap < c->npairs) cap = c->npairs;
    if (!cap) cap = 1;
    dem_contact_rec *pr = realloc(c->pairs, cap * sizeof *pr);
    if (pr) c->pairs = pr;
    if (c->roll) {
        dem_roll_rec *r = realloc(c->roll, cap * sizeof *r);
        if (r) c->roll = r;
        else pr = NULL; /* the capacity stays the larger one, where one array kept it */
    }
    if (c->hooke) {
        double (*h)[2] = realloc(c->hooke, cap * sizeof *h);
        if (h) c->hooke = h;
        else pr = NULL;
    }
    if (pr) c->cap_pairs = cap;
    dem_contact_out *o = aligned_alloc(64, cap * sizeof *o); /* one result per cache line */
    if (o) {
        memcpy(o, c->out, c->npairs * sizeof *o);
        free(c->out);
        c->out = o;
        uint8_t *t = realloc(c->ptouch, cap);
        if (t) c->ptouch = t;
        c->cap_out = t ? cap : c->npairs;
    }
    uint32_t *a = realloc(c->jadj, cap * sizeof *a);
    if (a) {
        c->jadj = a;
        c->cap_adj = cap;
    }
}

/* A list at less than half its arrays' room gives the rest back, keeping a quarter of it for
 * the next rebuild's growth. */
static void fit_pairs_loose(sim_store *c)
{
    size_t room = c->npairs + c->npairs / 4 + 1024;
    if (c->cap_pairs > 2 * room || c->cap_out > 2 * room) fit_pairs(c, room);
}

dem_status dem_store_end_pairs(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    dem_status st = DEM_OK;
    dem_store_keys_sort(&c->keys);
    size_t nnew = c->keys.n;
    if (nnew > c->cap_out) {
        /* one result per cache line (the list's results restart from zeros: nothing to keep) */
        free(c->out);
        c->cap_out = 0;
        dem_contact_out *o = c->out = aligned_alloc(64, nnew * sizeof *o);
        uint8_t *t = realloc(c->ptouch, nnew);
        if (t) c->ptouch = t;
        if (!o || !t) st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu contact results", nnew);
        else c->cap_out = nnew;
    }
    if (!st) st = merge_kept(sim, err);
    free(c->keys.k); /* the keys live only during a rebuild */
    memset(&c->keys, 0, sizeof c->keys);
    if (st) return st;
    fit_pairs_loose(c);
    return dem_store_index(sim, err);
}

dem_status dem_store_index(dem_sim *sim, dem_error *err)
{
    dem_status st = build_adjacency(sim, err);
    if (!st) pair_blocks_bounds(sim);
    return st;
}

dem_status dem_store_select(dem_sim *sim, const uint32_t *pick, size_t n, dem_error *err)
{
    sim_store *c = &sim->c;
    for (size_t k = 0; k < n; k++) { /* forwards: pick[k] >= k */
        size_t p = pick[k];
        if (p == k) continue;
        c->pairs[k] = c->pairs[p];
        c->out[k] = c->out[p];
        c->ptouch[k] = c->ptouch[p];
        if (c->roll) c->roll[k] = c->roll[p];
        if (c->hooke) memcpy(c->hooke[k], c->hooke[p], sizeof c->hooke[k]);
    }
    c->npairs = n;
    fit_pairs(c, n); /* the room given back: the arrays at the size of what is kept (a rebuild grows them again) */
    return dem_store_index(sim, err);
}

void dem_store_swap_pairs(sim_store *a, sim_store *b)
{
    sim_store t = *a;
    a->pairs = b->pairs, a->npairs = b->npairs, a->cap_pairs = b->cap_pairs;
    a->out = b->out, a->ptouch = b->ptouch, a->cap_out = b->cap_out;
    a->jadj = b->jadj, a->jadj_start = b->jadj_start, a->istart = b->istart, a->cap_adj = b->cap_adj;
    a->pblk = b->pblk, a->hooke = b->hooke, a->roll = b->roll;
    b->pairs = t.pairs, b->npairs = t.npairs, b->cap_pairs = t.cap_pairs;
    b->out = t.out, b->ptouch = t.ptouch, b->cap_out = t.cap_out;
    b->jadj = t.jadj, b->jadj_start = t.jadj_start, b->istart = t.istart, b->cap_adj = t.cap_adj;
    b->pblk = t.pblk, b->hooke = t.hooke, b->roll = t.roll;
}

void dem_store_free_pairs(sim_store *c)
{
    void *ptrs[] = {c->pairs, c->out, c->ptouch, c->jadj, c->jadj_start, c->istart, c->pblk, c->hooke, c->roll};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) free(ptrs[k]);
    memset(c, 0, sizeof *c);
}

/* ---- particle-wall slots ------------------------------------------------------------------ */
/* A slot's history and results, kept across a rebuild by (particle, wall). */
typedef struct {
    uint32_t a, k;
    dem_contact_rec h;
    dem_contact_out o;
    uint8_t touch;
    dem_roll_rec r;   /* zeros without rolling and twisting */
} wall_keep;

static int cmp_wall_keep(const void *pa, const void *pb)
{
    const wall_keep *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* A new slot: no history; i and j name the particle and the wall. */
static void wall_slot_new(dem_contact_rec *h, size_t a, size_t k)
{
    memset(h, 0, sizeof *h);
    h->i = (uint32_t)a;
    h->j = (uint32_t)k;
}

/* Slot q of particle a laid out empty, its wall unknown here (another process's particle:
 * dem_store_wall_slots). */
static void wall_slot_empty(dem_sim *sim, size_t q, size_t a)
{
    sim_store *c = &sim->c;
    c->wowner[q] = (uint32_t)a;
    c->wwall[q] = UINT32_MAX;
    wall_slot_new(&c->whist[q], a, UINT32_MAX);
    memset(&c->wout[q], 0, sizeof c->wout[q]);
    c->wtouch[q] = 0;
    if (c->wroll) memset(&c->wroll[q], 0, sizeof c->wroll[q]);
    if (c->whooke) c->whooke[q][0] = c->whooke[q][1] = 0.0;
    sim->e.wlost[q] = 0.0;
    if (sim->e.wrlost) sim->e.wrlost[q][0] = sim->e.wrlost[q][1] = 0.0;
}

static dem_status grow_wall_slots(dem_sim *sim, size_t need, dem_error *err)
{
    sim_store *c = &sim->c;
    if (need <= c->cap_wslots) return DEM_OK;
    size_t cap = c->cap_wslots ? 2 * c->cap_wslots : 256;
    while (cap < need) cap *= 2;
#define G(ptr) do { void *q = realloc((ptr), cap * sizeof *(ptr)); if (!q) goto nomem; (ptr) = q; } while (0)
    G(c->wowner); G(c->wwall); G(c->whist); G(c->wout); G(c->wtouch); G(sim->e.wlost);
    if (sim->st.normal == DEM_NORMAL_HOOKE) G(c->whooke);
    if (dem_roll_on(&sim->st)) { G(c->wroll); G(sim->e.wrlost); }
#undef G
    c->cap_wslots = cap;
    return DEM_OK;
nomem:
    return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particle-wall slots", need);
}

typedef struct {
    dem_sim *sim;
    const wall_keep *keep;
    size_t nkeep;
    size_t first;         /* the first particle laid out (a process's own: dist.h; 0 in one process), */
    const uint32_t *list; /* or, when not NULL, the particles laid out (ascending) */
} wall_slot_args;

/* The e-th particle laid out. */
static inline size_t laid_out(const wall_slot_args *wa, size_t e) { return wa->list ? wa->list[e] : wa->first + e; }

/* Particles [lo, hi) of those laid out: wstart[a + 1] = the walls in reach of a (summed into
 * offsets after). */
static PAR_RANGE void wall_count_share(void *ctx, size_t lo, size_t hi, int t)
{
    const wall_slot_args *wa = ctx;
    dem_sim *sim = wa->sim;
    size_t nw = sim->b.nwalls;
    (void)t;
    for (size_t e = lo; e < hi; e++) {
        size_t a = laid_out(wa, e), m = 0;
        for (size_t k = 0; k < nw; k++) m += (size_t)dem_nbr_wall_near(sim, a, k);
        sim->c.wstart[a + 1] = m;
    }
}

/* Particles [lo, hi) of those laid out: their slots, from wstart[a] on, each keeping the history
 * and result of the kept slot of the same (particle, wall), if any. */
static PAR_RANGE void wall_fill_share(void *ctx, size_t lo, size_t hi, int t)
{
    const wall_slot_args *wa = ctx;
    dem_sim *sim = wa->sim;
    sim_store *c = &sim->c;
    const wall_keep *keep = wa->keep;
    (void)t;
    if (lo >= hi) return;
    size_t nw = sim->b.nwalls, nkeep = wa->nkeep, first = laid_out(wa, lo), e = 0, top = nkeep;
    while (e < top) { /* the first kept slot of the first particle or later */
        size_t mid = e + (top - e) / 2;
        if (keep[mid].a < first) e = mid + 1;
        else top = mid;
    }
    for (size_t f = lo; f < hi; f++) {
        size_t a = laid_out(wa, f), q = c->wstart[a];
        for (size_t k = 0; k < nw; k++) {
            if (!dem_nbr_wall_near(sim, a, k)) continue;
            c->wowner[q] = (uint32_t)a;
            c->wwall[q] = (uint32_t)k;
            while (e < nkeep && (keep[e].a < a || (keep[e].a == a && keep[e].k < k))) e++; /* out of reach now: gone */
            if (e < nkeep && keep[e].a == a && keep[e].k == k) {
                c->whist[q] = keep[e].h;
                c->whist[q].i = (uint32_t)a; /* its particle may have been renumbered */
                c->wout[q] = keep[e].o;
                c->wtouch[q] = keep[e].touch;
                if (c->wroll) c->wroll[q] = keep[e].r;
            } else {
                wall_slot_new(&c->whist[q], a, k);
                memset(&c->wout[q], 0, sizeof c->wout[q]);
                c->wtouch[q] = 0;
                if (c->wroll) memset(&c->wroll[q], 0, sizeof c->wroll[q]);
            }
            if (c->whooke) hooke_constants(sim, c->whooke[q], a, 0.0, 0.0, sim->b.walls[k].material);
            sim->e.wlost[q] = 0.0;
            if (sim->e.wrlost) sim->e.wrlost[q][0] = sim->e.wrlost[q][1] = 0.0;
            q++;
        }
    }
}

static dem_status wall_slots(dem_sim *sim, size_t p0, size_t p1, const uint32_t *list, store_share_counts_fn share, dem_error *err);

dem_status dem_store_wall_slots(dem_sim *sim, size_t p0, size_t p1, store_share_counts_fn share, dem_error *err)
{
    return wall_slots(sim, p0, p1, NULL, share, err);
}

dem_status dem_store_wall_slots_of(dem_sim *sim, const uint32_t *list, size_t nlist, store_share_counts_fn share, dem_error *err)
{
    return wall_slots(sim, 0, nlist, list, share, err);
}

/* Particles [p0, p1), or (list) list[p0 .. p1). */
static dem_status wall_slots(dem_sim *sim, size_t p0, size_t p1, const uint32_t *list, store_share_counts_fn share, dem_error *err)
{
    sim_store *c = &sim->c;
    size_t nkeep = 0;
    for (size_t q = 0; q < c->nwslots; q++) nkeep += c->wtouch[q] || c->whist[q].flags;
    wall_keep *keep = malloc((nkeep ? nkeep : 1) * sizeof *keep);
    if (!keep) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the particle-wall slots");
    nkeep = 0;
    for (size_t q = 0; q < c->nwslots; q++)
        if (c->wtouch[q] || c->whist[q].flags)
        {
            memset(&keep[nkeep], 0, sizeof keep[nkeep]);
            keep[nkeep].a = c->wowner[q];
            keep[nkeep].k = c->wwall[q];
            keep[nkeep].h = c->whist[q];
            keep[nkeep].o = c->wout[q];
            keep[nkeep].touch = c->wtouch[q];
            if (c->wroll) keep[nkeep].r = c->wroll[q];
            nkeep++;
        }
    int sorted = 1; /* the slots are in particle then wall order unless the particles were renumbered */
    for (size_t k = 1; k < nkeep && sorted; k++) sorted = cmp_wall_keep(&keep[k - 1], &keep[k]) < 0;
    if (!sorted) qsort(keep, nkeep, sizeof *keep, cmp_wall_keep);
    /* on the pool: each particle's count of walls in reach, their offsets, then the slots (of
     * particles [p0, p1), the others' counts shared) */
    size_t n = sim->p.n;
    int own = share != NULL;
    wall_slot_args wa = {sim, keep, nkeep, p0, list};
    dem_par_for(sim->pool, p1 - p0, wall_count_share, &wa);
    if (share) share(sim, c->wstart + 1);
    c->wstart[0] = 0;
    for (size_t a = 0; a < n; a++) c->wstart[a + 1] += c->wstart[a];
    dem_status st = grow_wall_slots(sim, c->wstart[n], err); /* the kept slots are copied out: free to move */
    if (!st) {
        dem_par_for(sim->pool, p1 - p0, wall_fill_share, &wa);
        c->nwslots = c->wstart[n];
        for (size_t a = 0, e = 0; own && a < n; a++) { /* the other processes' particles: empty slots */
            int mine = list ? e < p1 && list[e] == a : a >= p0 && a < p1;
            if (list && mine) e++;
            if (!mine)
                for (size_t q = c->wstart[a]; q < c->wstart[a + 1]; q++) wall_slot_empty(sim, q, a);
        }
    }
    free(keep);
    return st;
}

void dem_store_renumber(dem_sim *sim, const uint32_t *inv)
{
    sim_store *c = &sim->c;
    for (size_t q = 0; q < c->nwslots; q++) c->wowner[q] = inv[c->wowner[q]]; /* dem_store_wall_slots re-sorts them */
    for (size_t p = 0; p < c->npairs; p++) {
        dem_contact_rec *np = &c->pairs[p];
        np->i = inv[np->i];
        np->j = inv[np->j];
        if (np->i > np->j) { /* pairs are oriented by index: turn it round (an exact negation) */
            uint32_t t = np->i;
            np->i = np->j;
            np->j = t;
            for (int k = 0; k < 3; k++) {
                np->s[k] = -np->s[k];
                np->xi[k] = -np->xi[k];
            }
        }
    }
}

/* ---- frames ------------------------------------------------------------------------------- */
static int cmp_id_slot(const void *pa, const void *pb)
{
    const dem_id_slot *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

void dem_id_slots_sort(dem_id_slot *ids, size_t n) { qsort(ids, n, sizeof *ids, cmp_id_slot); }

long dem_id_slots_find(const dem_id_slot *ids, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ids[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && ids[lo].id == id ? (long)ids[lo].index : -1;
}

/* A frame's contact record must describe its particles as they are: its overlap and normal are
 * the geometry's (to 1e-6 of the smaller radius; dem-step writes them from the same arithmetic),
 * else the frame's contacts do not belong to its particles (a crafted or edited frame) and the
 * results it would stand for are wrong. delta, n: the geometry's. */
static dem_status check_record(const dem_sim *sim, size_t k, const dem_contact *c, double delta, dem_vec3 n, double rmin,
                               dem_error *err)
{
    double tol = 1e-6 * rmin;
    if (c->flags & DEM_CONTACT_NECK) { /* an adhesive neck at overlap <= 0: only a law with necks holds one */
        const dem_normal_model *nm = dem_normal_models[sim->st.normal];
        if (!nm->neck)
            return dem_fail(err, DEM_ERR_VALUE,
                            "contact record %zu (%llu-%s%llu): a neck (flags bit 2) at overlap %g m, but model.normal %s holds no neck "
                            "(the frame was run with jkr: continue it with --normal jkr)",
                            k, (unsigned long long)c->i, c->flags & DEM_CONTACT_WALL ? "wall " : "", (unsigned long long)c->j,
                            c->overlap, nm->name);
        if (delta > -sim->nbr.reach && !(delta > tol) && fabs(c->overlap - delta) <= tol &&
            dem_v3_norm(dem_v3_sub(c->normal, n)) <= 1e-6)
            return DEM_OK;
    }
    if (!(delta > 0.0 && fabs(c->overlap - delta) <= tol && dem_v3_norm(dem_v3_sub(c->normal, n)) <= 1e-6))
        return dem_fail(err, DEM_ERR_VALUE,
                        "contact record %zu (%llu-%s%llu): overlap %g m and normal (%g, %g, %g) disagree with the positions of its particles "
                        "(overlap %g m, normal (%g, %g, %g)): the frame's contacts do not belong to its particles",
                        k, (unsigned long long)c->i, c->flags & DEM_CONTACT_WALL ? "wall " : "", (unsigned long long)c->j, c->overlap,
                        c->normal.x, c->normal.y, c->normal.z, delta, n.x, n.y, n.z);
    (void)sim;
    return DEM_OK;
}

/* The frame's contact c as this store's history and result. */
static void load_record(dem_contact_rec *h, dem_contact_out *out, const dem_contact *c, dem_vec3 xi, const dem_contact_out *o)
{
    *out = *o;
    h->flags = DEM_REC_TOUCH | (c->flags & DEM_CONTACT_SLIDING ? DEM_REC_SLIDING : 0);
    h->xi[0] = xi.x; h->xi[1] = xi.y; h->xi[2] = xi.z;
    h->diss[0] = c->diss_friction; h->diss[1] = c->diss_damp_n; h->diss[2] = c->diss_damp_t;
}

/* The frame's rolling and twisting slots (3-11, formats/dem-stream.md §5.8) as a side record;
 * zeros from a frame without them (dem_roll_restore completes it). */
static void load_roll(dem_roll_rec *r, const dem_contact *c, uint32_t slots)
{
    memset(r, 0, sizeof *r);
    if (slots >= 12) {
        memcpy(r->xr, &c->hist[3], sizeof r->xr);
        r->xo = c->hist[6];
        memcpy(r->fr, &c->hist[7], sizeof r->fr);
        r->mo = c->hist[10];
        r->flags = dem_roll_slot_flags(c->hist[11]);
    }
    r->flags |= DEM_ROLL_ACTIVE;
}

/* A frame whose tangential model keeps the other kind of history (the stretch xi or the force
 * f_s: DEM_HISTORY_*) than this run's: its slots are carried over with the force they stood for,
 * f_s = -S_t xi with the frame's stiffness, or xi = -f_s / S_t with this run's (the spring's
 * elastic force is kept; the same law gives the same S_t, so the spring's energy is kept too).
 * Returns the factor for contact (a, b) at overlap delta (b: a particle, or the wall wall). */
typedef struct {
    int convert;          /* 1: stretch to force, -1: force to stretch, 0: as they are */
    dem_settings from;    /* the frame's settings */
} history_carry;

static double carry_factor(const dem_sim *sim, const history_carry *hc, size_t a, long b, uint32_t wall, double delta)
{
    const dem_settings *st = hc->convert > 0 ? &hc->from : &sim->st; /* whose stiffness */
    const sim_particles *P = &sim->p;
    dem_pair p;
    if (b < 0)
        dem_pair_init(&p, st, P->r[a], P->m[a], &sim->materials[P->mat[a]], 0.0, 0.0,
                      &sim->materials[sim->b.walls[wall].material]);
    else
        dem_pair_init(&p, st, P->r[a], P->m[a], &sim->materials[P->mat[a]], P->r[b], P->m[b], &sim->materials[P->mat[b]]);
    double stt = dem_tangential_models[st->tangential]->stiffness(&p, st->normal, delta);
    if (hc->convert > 0) return -stt;
    return stt > 0.0 ? -1.0 / stt : 0.0;
}

dem_status dem_store_load(dem_sim *sim, const dem_system *s, size_t keep_lo, size_t keep_hi, dem_pages_reader *consume, dem_error *err)
{
    sim_store *st = &sim->c;
    size_t n = sim->p.n, npair = 0, nwall = 0;
    history_carry hc;
    hc.convert = 0;
    dem_error ignored; /* a frame whose settings do not parse is taken as it is, as before */
    if (s->ncontacts && s->hist_slots >= 3 && dem_settings_read(&hc.from, s, &ignored) == DEM_OK) {
        int kf = dem_tangential_models[hc.from.tangential]->uses_history, kt = dem_tangential_models[sim->st.tangential]->uses_history;
        if (kf == DEM_HISTORY_STRETCH && kt == DEM_HISTORY_FORCE) hc.convert = 1;
        if (kf == DEM_HISTORY_FORCE && kt == DEM_HISTORY_STRETCH) hc.convert = -1;
    }
    for (size_t k = 0; k < s->ncontacts; k++) {
        if (s->contacts[k].flags & DEM_CONTACT_WALL) nwall++;
        else npair++;
    }
    dem_status r = DEM_OK;
    dem_id_slot *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) r = dem_fail(err, DEM_ERR_NOMEM, "out of memory for the frame's %zu contacts", s->ncontacts);
    /* the records become the list's kept ones (their flags say touching), with their results
     * beside them (kout), the wall contacts its slots' kept ones: the first build carries them as
     * any rebuild carries a history */
    if (!r) r = grow_pairs(sim, npair, err);
    if (!r) r = grow_wall_slots(sim, nwall, err);
    if (!r) r = grow_kout(st, npair ? npair : 1, err);
    if (r) {
        free(ids);
        return r;
    }
    for (size_t a = 0; a < n; a++) { ids[a].id = sim->p.id[a]; ids[a].index = (uint32_t)a; }
    dem_id_slots_sort(ids, n);
    st->npairs = st->nwslots = 0;
    for (size_t k = 0; k < s->ncontacts && !r; k++) {
        if (consume) dem_pages_consume(consume, k * sizeof *s->contacts); /* those before k are read */
        const dem_contact *c = &s->contacts[k];
        long i = dem_id_slots_find(ids, n, c->i);
        if (i < 0) continue; /* dem_system_check guarantees it exists */
        for (int a = 0; a < 3 && !r; a++)
            if (c->shift[a] > DEM_IMAGE_MAX || c->shift[a] < -DEM_IMAGE_MAX)
                r = dem_fail(err, DEM_ERR_LIMIT, "contact %zu (%llu, %llu): image shift %c = %d is beyond +-2^30 cells", k,
                             (unsigned long long)c->i, (unsigned long long)c->j, "xyz"[a], (int)c->shift[a]);
        if (r) break;
        dem_vec3 xi = dem_v3(c->hist[0], c->hist[1], c->hist[2]);
        if (s->hist_slots < 3) xi = dem_v3_zero();
        dem_contact_out o;
        memset(&o, 0, sizeof o);
        o.n = c->normal;
        o.fn = dem_v3_dot(c->fn, c->normal);
        o.ft = c->ft;
        o.delta = c->overlap;
        if (c->flags & DEM_CONTACT_WALL) {
            if (!dem_nbr_wall_near(sim, (size_t)i, (size_t)c->j)) continue; /* out of reach: cannot be touching, no slot */
            dem_vec3 wn;
            double gap;
            if (!wall_geometry(&sim->b.walls[c->j], sim->p.x[i], &wn, &gap)) gap = INFINITY;
            if ((r = check_record(sim, k, c, sim->p.r[i] - gap, wn, sim->p.r[i], err))) break;
            if (hc.convert) xi = dem_v3_scale(xi, carry_factor(sim, &hc, (size_t)i, -1, (uint32_t)c->j, c->overlap));
            size_t q = st->nwslots++;
            st->wowner[q] = (uint32_t)i;
            st->wwall[q] = (uint32_t)c->j;
            wall_slot_new(&st->whist[q], (size_t)i, (size_t)c->j);
            load_record(&st->whist[q], &st->wout[q], c, xi, &o);
            if (st->wroll) load_roll(&st->wroll[q], c, s->hist_slots);
            st->wtouch[q] = 1;
            continue;
        }
        long j = dem_id_slots_find(ids, n, c->j);
        if (j < 0) continue;
        {
            dem_vec3 d = dem_v3_sub(sim->p.x[i], dem_v3_add(sim->p.x[j], cell_shift(sim, c->shift)));
            double dist = dem_v3_norm(d), ri = sim->p.r[i], rj = sim->p.r[j];
            if ((r = check_record(sim, k, c, ri + rj - dist, dist > 0.0 ? dem_v3_scale(d, 1.0 / dist) : dem_v3_zero(), ri < rj ? ri : rj, err)))
                break;
        }
        if (hc.convert) xi = dem_v3_scale(xi, carry_factor(sim, &hc, (size_t)i, j, 0, c->overlap));
        dem_contact_rec rec;
        memset(&rec, 0, sizeof rec);
        if (i <= j) {
            rec.i = (uint32_t)i; rec.j = (uint32_t)j;
            memcpy(rec.s, c->shift, sizeof rec.s);
        } else { /* the frame names them the other way round: flip the pair */
            rec.i = (uint32_t)j; rec.j = (uint32_t)i;
            for (int a = 0; a < 3; a++) rec.s[a] = -c->shift[a];
            xi = dem_v3_neg(xi);
            o.n = dem_v3_neg(o.n);
            o.ft = dem_v3_neg(o.ft);
        }
        if (rec.i < keep_lo || rec.i >= keep_hi) continue; /* another process carries its record */
        size_t p = st->npairs++;
        load_record(&rec, &st->kout[p], c, xi, &o);
        st->pairs[p] = rec;
        if (st->roll) load_roll(&st->roll[p], c, s->hist_slots); /* no sign: unchanged by swapping i, j */
    }
    free(ids);
    if (!r) r = dem_store_sort_kept(sim, err); /* the records in key order, their results with them */
    if (r) {
        st->npairs = st->nwslots = 0;
        dem_store_kept_results_done(sim);
        return r;
    }
    return DEM_OK;
}

typedef struct {
    uint64_t i, j;
    int32_t s[3];
    uint32_t wall;
    int flip;         /* the frame names the pair the other way round: negate the vectors */
    const dem_contact_rec *h;
    const dem_contact_out *o;
    const dem_roll_rec *r; /* NULL without rolling and twisting */
} out_contact;

static int cmp_out_contact(const void *pa, const void *pb)
{
    const out_contact *a = pa, *b = pb;
    if (a->wall != b->wall) return a->wall < b->wall ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (a->s[k] != b->s[k]) return a->s[k] < b->s[k] ? -1 : 1;
    return 0;
}

static dem_contact make_contact(const out_contact *oc, int history, int necks)
{
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = oc->i;
    c.j = oc->j;
    memcpy(c.shift, oc->s, sizeof c.shift);
    c.flags = (oc->wall ? DEM_CONTACT_WALL : 0) | (oc->h->flags & DEM_REC_SLIDING ? DEM_CONTACT_SLIDING : 0) |
              (necks && oc->o->delta <= 0.0 ? DEM_CONTACT_NECK : 0); /* a jkr neck: touching at overlap <= 0 */
    double sg = oc->flip ? -1.0 : 1.0;
    c.overlap = oc->o->delta;
    c.normal = dem_v3_scale(oc->o->n, sg);
    c.fn = dem_v3_scale(c.normal, oc->o->fn);
    c.ft = dem_v3_scale(oc->o->ft, sg);
    c.diss_friction = oc->h->diss[0];
    c.diss_damp_n = oc->h->diss[1];
    c.diss_damp_t = oc->h->diss[2];
    if (history)
        for (int k = 0; k < 3; k++) c.hist[k] = sg * oc->h->xi[k];
    if (oc->r) { /* slots 3-11 (rolling.h): invariant under swapping i and j */
        memcpy(&c.hist[3], oc->r->xr, sizeof oc->r->xr);
        c.hist[6] = oc->r->xo;
        memcpy(&c.hist[7], oc->r->fr, sizeof oc->r->fr);
        c.hist[10] = oc->r->mo;
        c.hist[11] = (double)(oc->r->flags & (DEM_ROLL_CAPPED | DEM_TWIST_CAPPED));
    }
    return c;
}

/* Pair p as frames name it: the smaller id first, whatever the internal order. */
static void pair_out(const dem_sim *sim, size_t p, out_contact *oc)
{
    const sim_store *st = &sim->c;
    const uint64_t *id = sim->p.id;
    const dem_contact_rec *np = &st->pairs[p];
    oc->flip = id[np->i] > id[np->j];
    oc->i = id[oc->flip ? np->j : np->i];
    oc->j = id[oc->flip ? np->i : np->j];
    for (int k = 0; k < 3; k++) oc->s[k] = oc->flip ? -np->s[k] : np->s[k];
    oc->wall = 0;
    oc->h = np;
    oc->o = &st->out[p];
    oc->r = st->roll ? &st->roll[p] : NULL;
}

/* Wall slot q as frames name it. */
static void wall_out(const dem_sim *sim, size_t q, out_contact *oc)
{
    const sim_store *st = &sim->c;
    oc->i = sim->p.id[st->wowner[q]];
    oc->j = st->wwall[q];
    oc->flip = 0;
    memset(oc->s, 0, sizeof oc->s);
    oc->wall = 1;
    oc->h = &st->whist[q];
    oc->o = &st->wout[q];
    oc->r = st->wroll ? &st->wroll[q] : NULL;
}

dem_status dem_store_write(const dem_sim *sim, dem_system *out, dem_error *err)
{
    const sim_store *st = &sim->c;
    dem_status r;
    int history = dem_tangential_models[sim->st.tangential]->uses_history;
    size_t count = 0;
    for (size_t p = 0; p < st->npairs; p++) count += st->ptouch[p];
    for (size_t q = 0; q < st->nwslots; q++) count += st->wtouch[q];
    out_contact *list = malloc((count ? count : 1) * sizeof *list);
    if (!list) return dem_fail(err, DEM_ERR_NOMEM, "out of memory storing %zu contacts", count);
    size_t c = 0;
    for (size_t p = 0; p < st->npairs; p++)
        if (st->ptouch[p]) pair_out(sim, p, &list[c++]);
    for (size_t q = 0; q < st->nwslots; q++)
        if (st->wtouch[q]) wall_out(sim, q, &list[c++]);
    qsort(list, count, sizeof *list, cmp_out_contact);
    out->ncontacts = 0;
    out->hist_slots = dem_roll_on(&sim->st) ? 12 : history ? 3 : 0;
    if ((r = dem_system_reserve_contacts(out, count, err))) { free(list); return r; }
    for (size_t k = 0; k < count; k++) {
        dem_contact ct = make_contact(&list[k], history, dem_normal_models[sim->st.normal]->neck != NULL);
        if ((r = dem_system_push_contact(out, &ct, err))) break; /* reserved: cannot fail */
    }
    free(list);
    if (r) return r;
    return DEM_OK;
}

/* ---- a frame's contacts, streamed ------------------------------------------------------------
 * The frame's order (wall, i, j, s) with ids, as dem_store_write sorts them, found without a table of
 * all contacts: the particles in id order (16 bytes a particle), and for each the touching pairs
 * in which it has the smaller id, sorted among themselves (a handful); then, again in id order,
 * each particle's touching wall slots (already in wall order). */
struct store_stream {
    const dem_sim *sim;
    dem_id_slot *order;        /* the particles by id */
    size_t pos;             /* next particle of order */
    int walls;              /* 0: the pairs; 1: the wall slots */
    out_contact *local;     /* the current particle's pairs, sorted */
    size_t nlocal, next, cap;
    size_t slot;            /* walls: the next slot of the current particle */
    int history, necks;
    uint64_t emitted;
};

/* Particle a's touching pairs in which it has the smaller id, sorted. */
static dem_status stream_fill_local(store_stream *ss, size_t a, dem_error *err)
{
    const sim_store *st = &ss->sim->c;
    const uint64_t *id = ss->sim->p.id;
    size_t need = (st->istart[a + 1] - st->istart[a]) + (st->jadj_start[a + 1] - st->jadj_start[a]);
    if (need > ss->cap) {
        out_contact *l = realloc(ss->local, need * sizeof *l);
        if (!l) return dem_fail(err, DEM_ERR_NOMEM, "out of memory storing the contacts of particle %llu", (unsigned long long)id[a]);
        ss->local = l;
        ss->cap = need;
    }
    ss->nlocal = ss->next = 0;
    for (int side = 0; side < 2; side++) {
        size_t lo = side ? st->jadj_start[a] : st->istart[a], hi = side ? st->jadj_start[a + 1] : st->istart[a + 1];
        for (size_t e = lo; e < hi; e++) {
            size_t p = side ? st->jadj[e] : e;
            if (!st->ptouch[p]) continue;
            const dem_contact_rec *np = &st->pairs[p];
            if ((id[np->i] > id[np->j] ? np->j : np->i) != a) continue; /* the other particle names it */
            pair_out(ss->sim, p, &ss->local[ss->nlocal++]);
        }
    }
    for (size_t k = 1; k < ss->nlocal; k++) /* insertion sort: a particle has a few contacts */
        for (size_t m = k; m > 0 && cmp_out_contact(&ss->local[m - 1], &ss->local[m]) > 0; m--) {
            out_contact t = ss->local[m];
            ss->local[m] = ss->local[m - 1];
            ss->local[m - 1] = t;
        }
    return DEM_OK;
}

static dem_status stream_next(void *ctx, dem_contact *c, dem_error *err)
{
    store_stream *ss = ctx;
    const sim_store *st = &ss->sim->c;
    size_t n = ss->sim->p.n;
    dem_status r;
    while (!ss->walls) {
        if (ss->next < ss->nlocal) {
            *c = make_contact(&ss->local[ss->next++], ss->history, ss->necks);
            ss->emitted++;
            return DEM_OK;
        }
        if (ss->pos == n) {
            ss->walls = 1;
            ss->pos = 0;
            ss->slot = n ? st->wstart[ss->order[0].index] : 0;
            break;
        }
        if ((r = stream_fill_local(ss, ss->order[ss->pos++].index, err))) return r;
    }
    while (ss->pos < n) {
        size_t a = ss->order[ss->pos].index;
        for (; ss->slot < st->wstart[a + 1]; ss->slot++) {
            size_t q = ss->slot;
            if (!st->wtouch[q]) continue;
            out_contact oc;
            wall_out(ss->sim, q, &oc);
            *c = make_contact(&oc, ss->history, ss->necks);
            ss->slot++;
            ss->emitted++;
            return DEM_OK;
        }
        if (++ss->pos < n) ss->slot = st->wstart[ss->order[ss->pos].index];
    }
    return dem_fail(err, DEM_ERR_VALUE, "internal error: the store holds fewer contacts than it counted (%llu)",
                    (unsigned long long)ss->emitted);
}

/* walls: the wall contacts alone (the pairs come from elsewhere: dem_store_pairs_open). */
static dem_status stream_open(const dem_sim *sim, int walls, store_stream **out, dem_contact_source *src, dem_error *err)
{
    const sim_store *st = &sim->c;
    size_t n = sim->p.n, count = 0;
    *out = NULL;
    store_stream *ss = calloc(1, sizeof *ss);
    if (!ss || !(ss->order = malloc((n ? n : 1) * sizeof *ss->order))) {
        free(ss);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory storing the contacts of %zu particles", n);
    }
    for (size_t a = 0; a < n; a++) {
        ss->order[a].id = sim->p.id[a];
        ss->order[a].index = (uint32_t)a;
    }
    dem_id_slots_sort(ss->order, n);
    for (size_t p = 0; p < st->npairs && !walls; p++) count += st->ptouch[p];
    for (size_t q = 0; q < st->nwslots; q++) count += st->wtouch[q];
    ss->sim = sim;
    if (walls) { /* stream_next's wall phase from its start */
        ss->walls = 1;
        ss->slot = n ? st->wstart[ss->order[0].index] : 0;
    }
    int history = dem_tangential_models[sim->st.tangential]->uses_history;
    ss->history = history;
    ss->necks = dem_normal_models[sim->st.normal]->neck != NULL;
    src->count = count;
    src->hist_slots = dem_roll_on(&sim->st) ? 12 : history ? 3 : 0;
    src->next = stream_next;
    src->ctx = ss;
    *out = ss;
    return DEM_OK;
}

dem_status dem_store_stream_open(const dem_sim *sim, store_stream **out, dem_contact_source *src, dem_error *err)
{
    return stream_open(sim, 0, out, src, err);
}

dem_status dem_store_stream_open_walls(const dem_sim *sim, store_stream **out, dem_contact_source *src, dem_error *err)
{
    return stream_open(sim, 1, out, src, err);
}

/* ---- a share of a frame's pair contacts ---------------------------------------------------- */
struct pair_stream {
    out_contact *list;      /* the touching pairs of the range, in the frame's order */
    size_t n, next;
    int history, necks;
};

dem_status dem_store_pairs_open(const dem_sim *sim, size_t q0, size_t q1, pair_stream **out, dem_error *err)
{
    const sim_store *st = &sim->c;
    size_t n = 0;
    for (size_t p = q0; p < q1; p++) n += st->ptouch[p] != 0;
    pair_stream *ps = calloc(1, sizeof *ps);
    if (!ps || !(ps->list = malloc((n ? n : 1) * sizeof *ps->list))) {
        free(ps);
        *out = NULL;
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a frame's %zu contacts", n);
    }
    for (size_t p = q0; p < q1; p++)
        if (st->ptouch[p]) pair_out(sim, p, &ps->list[ps->n++]);
    qsort(ps->list, ps->n, sizeof *ps->list, cmp_out_contact);
    ps->history = dem_tangential_models[sim->st.tangential]->uses_history;
    ps->necks = dem_normal_models[sim->st.normal]->neck != NULL;
    *out = ps;
    return DEM_OK;
}

size_t dem_store_pairs_left(const pair_stream *ps) { return ps->n - ps->next; }

void dem_store_pairs_take(pair_stream *ps, dem_contact *c, size_t n)
{
    for (size_t k = 0; k < n && ps->next < ps->n; k++) c[k] = make_contact(&ps->list[ps->next++], ps->history, ps->necks);
}

void dem_store_pairs_close(pair_stream *ps)
{
    if (!ps) return;
    free(ps->list);
    free(ps);
}

void dem_store_stream_close(store_stream *ss)
{
    if (!ss) return;
    free(ss->order);
    free(ss->local);
    free(ss);
}

void dem_store_each_touching(dem_sim *sim, store_touching_fn fn)
{
    sim_store *c = &sim->c;
    for (size_t q = 0; q < c->npairs; q++) {
        if (!c->ptouch[q]) continue;
        dem_pair p;
        sim_pair_properties(sim, &p, q);
        fn(sim, &p, q, 0);
    }
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        dem_pair p;
        sim_wall_properties(sim, &p, q);
        fn(sim, &p, q, 1);
    }
}
