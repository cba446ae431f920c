/* dist.c - one simulation on a group of processes (see dist.h). */
#include "sim/internal/dist.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pages.h"
#include "laws/rolling.h"
#include "sim/internal/bonds.h"
#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/clumps.h"
#include "sim/internal/contacts.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/particles.h"

/* The work of blocks [0, b) of a list whose blocks begin at pblk: their pairs and half a pair
 * per particle (forces.c's split of the pass over threads, the same measure). */
static size_t blocks_work(const size_t *pblk, size_t b) { return pblk[b] + b * (PAIR_BLOCK / 2); }

/* The cuts (cut[0 .. K]) of the blocks of the whole list (pblk: its pairs before each block). */
static void cut_blocks(const dem_sim *sim, const size_t *pblk, size_t *cut)
{
    const struct sim_dist *d = sim->dist;
    size_t nb = sim->c.nblk, K = (size_t)d->comm.size, total = blocks_work(pblk, nb);
    cut[0] = 0;
    cut[K] = nb;
    for (size_t r = 1; r < K; r++) {
        if (d->comm.balance == DEM_BALANCE_COUNT) {
            cut[r] = nb * r / K;
        } else if (d->comm.balance == DEM_BALANCE_SKEW || (d->comm.balance == DEM_BALANCE_SHIFT && sim->nbr.rebuilds % 2 == 0)) {
            cut[r] = nb * (r * (r + 1) / 2) / (K * (K + 1) / 2); /* process r: r + 1 shares */
        } else if (d->comm.balance == DEM_BALANCE_SHIFT) { /* process r: K - r shares */
            cut[r] = nb * (r * K - r * (r - 1) / 2) / (K * (K + 1) / 2); /* shares K, K-1, ..., K-r+1 before it */
        } else { /* the first block whose work before it reaches r / K of the total */
            size_t target = (size_t)((double)total * (double)r / (double)K), lo = cut[r - 1], hi = nb;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (blocks_work(pblk, mid) < target) lo = mid + 1;
                else hi = mid;
            }
            cut[r] = lo;
        }
        if (cut[r] < cut[r - 1]) cut[r] = cut[r - 1];
    }
}

static size_t block_particle(const dem_sim *sim, size_t b)
{
    size_t a = b * PAIR_BLOCK;
    return a < sim->p.n ? a : sim->p.n;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Whether this run lets each process step its own particles (struct sim_dist): every run but one
 * that asks for every process to step every particle (dem_comm.replicate), and the variational
 * integrator, which dem_sim_set_comm refuses anyway. */
static int can_step_own(const dem_sim *sim)
{
    return !sim->dist->comm.replicate && sim->st.integrator != DEM_INTEGRATOR_VARIATIONAL;
}

/* The staging buffer, at least size bytes (its contents are not kept). */
static int stage_reserve(struct sim_dist *d, size_t size)
{
    if (size <= d->cap_stage) return 1;
    char *st = realloc(d->stage, size);
    if (!st) return 0;
    d->stage = st;
    d->cap_stage = size;
    return 1;
}

/* The staging buffer at least size bytes for an exchange of every step (the halo's, the clumps'
 * members'), reserved where a failure can be said: the room kept when a rebuild's larger
 * exchanges are done (stage_fit). */
static int stage_keep(struct sim_dist *d, size_t size)
{
    if (size > d->stage_kept) d->stage_kept = size;
    return stage_reserve(d, size);
}

/* After a decomposition: the staging buffer back at what the steps' exchanges reserved
 * (stage_keep), its room for a rebuild's, a migration's or a frame's (which reserve their own, and
 * may fail where that can be said) given back. */
static void stage_fit(struct sim_dist *d)
{
    size_t keep = d->stage_kept ? d->stage_kept : 1;
    if (d->cap_stage <= keep) return;
    char *st = realloc(d->stage, keep);
    if (!st) return;
    d->stage = st;
    d->cap_stage = keep;
}

/* The drift's results every process needs, gathered from every process with the halo's
 * exchange: its largest squared step and non-finite flag (guard.c), whether a wrap failed
 * (boundary.c), and its two largest squared displacements since the build (the rebuild test),
 * all merged exactly. */
typedef struct {
    double move2, nonfinite, wrap_failed, moved[3];
} halo_head;
_Static_assert(sizeof(halo_head) <= DIST_EACH_MAX, "dem_dist_gather_each takes DIST_EACH_MAX bytes a process");

/* A halo particle's bytes in that exchange at most: five vectors (dem_dist_share_halo's
 * halo_fields), the image counters and a clump member's offset (halo_bytes). */
#define HALO_MAX_BYTES (6 * sizeof(dem_vec3) + 3 * sizeof(int32_t))

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A pair or bond (i, j) in the halo's making: where this process owns one of them and another
 * process the other, this one sends its own to that process (a key: the process, then the
 * particle) and receives the other (in d->recv); the keys are sorted and made unique after. */
static void halo_pair(struct sim_dist *d, uint32_t i, uint32_t j)
{
    uint64_t ri = d->blk_rank[i / PAIR_BLOCK], rj = d->blk_rank[j / PAIR_BLOCK], me = (uint64_t)d->comm.rank;
    if (ri == rj || (ri != me && rj != me)) return;
    uint32_t mine = ri == me ? i : j, theirs = ri == me ? j : i;
    d->keys[d->nsend++] = (ri == me ? rj : ri) << 32 | mine;
    d->recv[d->nrecv++] = theirs;
}

/* n elements of size bytes at base sorted by cmp and made unique in place; returns the count. */
static size_t sort_unique(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *b = base;
    if (n > 1) qsort(b, n, size, cmp);
    size_t m = 0;
    for (size_t a = 0; a < n; a++)
        if (!m || cmp(b + a * size, b + (m - 1) * size) != 0) {
            if (m != a) memcpy(b + m * size, b + a * size, size);
            m++;
        }
    return m;
}

/* n entries in each of the halo's lists at most. */
static int halo_reserve(struct sim_dist *d, size_t n)
{
    if (n > d->cap_keys) {
        uint64_t *k = realloc(d->keys, n * sizeof *k);
        if (!k) return 0;
        d->keys = k;
        d->cap_keys = n;
    }
    if (n > d->cap_send) {
        uint32_t *sd = realloc(d->send, n * sizeof *sd);
        if (!sd) return 0;
        d->send = sd;
        d->cap_send = n;
    }
    if (n > d->cap_recv) {
        uint32_t *rv = realloc(d->recv, n * sizeof *rv);
        if (!rv) return 0;
        d->recv = rv;
        d->cap_recv = n;
    }
    return 1;
}

/* The process of particle a (own stepping: after make_halo's blk_rank). */
static size_t rank_of(const struct sim_dist *d, size_t a) { return d->blk_rank[a / PAIR_BLOCK]; }

/* Whether clump k has a member of process r: its process now (rank_of) or before the new cuts
 * (held_by: which then moved it, its state current there). */
typedef size_t (*particle_rank_fn)(const struct sim_dist *d, size_t a);
static int clump_has(const dem_sim *sim, size_t k, size_t r, particle_rank_fn rank)
{
    const struct sim_clumps *cl = sim->cl;
    for (size_t j = cl->start[k]; j < cl->start[k + 1]; j++)
        if (rank(sim->dist, cl->pidx[j]) == r) return 1;
    return 0;
}


static size_t clump_bytes(const dem_sim *sim);

/* The clumps whose members are all this process's (own), those whose members belong to several
 * processes (across; the same list on every process): dem_dist_clumps_flying's; and those it
 * moves. */
static dem_status clump_owners(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const struct sim_clumps *cl = sim->cl;
    size_t me = (size_t)d->comm.rank, nown = 0, nacross = 0, nmoved = 0;
    for (int pass = 0; pass < 2; pass++) {
        nown = nacross = nmoved = 0;
        for (size_t k = 0; k < cl->n; k++) {
            size_t r = rank_of(d, cl->pidx[cl->start[k]]);
            int across = 0;
            for (size_t j = cl->start[k] + 1; j < cl->start[k + 1] && !across; j++) across = rank_of(d, cl->pidx[j]) != r;
            if (across) {
                if (pass) d->clumps_across[nacross] = (uint32_t)k;
                nacross++;
            } else if (r == me) {
                if (pass) d->clumps_own[nown] = (uint32_t)k;
                nown++;
            }
            if (clump_has(sim, k, me, rank_of)) { /* it moves the clumps with a member of its own */
                if (pass) d->clumps_moved[nmoved] = (uint32_t)k;
                nmoved++;
            }
        }
        if (pass) break;
        uint32_t *o = realloc(d->clumps_own, (nown ? nown : 1) * sizeof *o);
        if (o) d->clumps_own = o;
        uint32_t *a = o ? realloc(d->clumps_across, (nacross ? nacross : 1) * sizeof *a) : NULL;
        if (a) d->clumps_across = a;
        uint32_t *m = a ? realloc(d->clumps_moved, (nmoved ? nmoved : 1) * sizeof *m) : NULL;
        if (m) d->clumps_moved = m;
        /* the flags of dem_dist_clumps_flying, and every clump's state (gather_clumps) */
        size_t stage = (size_t)d->comm.size * nacross, all = cl->n * clump_bytes(sim);
        if (!o || !a || !m || !stage_keep(d, stage > all ? stage : all))
            return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the processes' %zu clumps", cl->n);
    }
    d->nclumps_own = nown;
    d->nclumps_across = nacross;
    d->nclumps_moved = d->stats.clumps = nmoved;
    return DEM_OK;
}

/* Whether member slot j of clump k is the first of its process in the clump (so that each
 * process is named once among its members). */
static int first_of_rank(const dem_sim *sim, size_t k, size_t j)
{
    const struct sim_clumps *cl = sim->cl;
    size_t r = rank_of(sim->dist, cl->pidx[j]);
    for (size_t i = cl->start[k]; i < j; i++)
        if (rank_of(sim->dist, cl->pidx[i]) == r) return 0;
    return 1;
}

/* The members' exchange (struct sim_dist): each member of a clump this process moves comes from
 * its process if another's, and each of its own goes to every other process that moves the
 * clump; both sides list them in clump then member order. Counted (pass 0), then listed. */
static dem_status member_lists(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const struct sim_clumps *cl = sim->cl;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    size_t *out = d->msend_at, *in = d->mrecv_at; /* counts, then the cursors */
    for (int pass = 0; pass < 2; pass++) {
        if (!pass) {
            memset(out, 0, (K + 1) * sizeof *out);
            memset(in, 0, (K + 1) * sizeof *in);
        }
        for (size_t e = 0; e < d->nclumps_moved; e++) {
            size_t k = d->clumps_moved[e];
            for (size_t j = cl->start[k]; j < cl->start[k + 1]; j++) {
                uint32_t a = cl->pidx[j];
                size_t o = rank_of(d, a);
                if (o != me) {
                    if (pass) d->mrecv[in[o]] = a;
                    in[o]++;
                    continue;
                }
                for (size_t q = cl->start[k]; q < cl->start[k + 1]; q++) { /* the others that move it */
                    size_t r = rank_of(d, cl->pidx[q]);
                    if (r == me || !first_of_rank(sim, k, q)) continue;
                    if (pass) d->msend[out[r]] = a;
                    out[r]++;
                }
            }
        }
        /* the counts into starts (pass 0: where each process's begin; pass 1: back from the ends) */
        if (pass) {
            for (size_t r = K; r > 0; r--) out[r] = out[r - 1], in[r] = in[r - 1];
            out[0] = in[0] = 0;
            break;
        }
        size_t so = 0, si = 0;
        for (size_t r = 0; r <= K; r++) {
            size_t co = out[r], ci = in[r];
            out[r] = so, in[r] = si;
            so += co, si += ci;
        }
        if (so > d->cap_msend) {
            uint32_t *m = realloc(d->msend, so * sizeof *m);
            if (!m) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the exchange of %zu clump members", so);
            d->msend = m;
            d->cap_msend = so;
        }
        if (si > d->cap_mrecv) {
            uint32_t *m = realloc(d->mrecv, si * sizeof *m);
            if (!m) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the exchange of %zu clump members", si);
            d->mrecv = m;
            d->cap_mrecv = si;
        }
        if (!stage_keep(d, (so + si) * 2 * sizeof(dem_vec3))) /* their exchange (share_members), reserved now */
            return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the exchange of %zu clump members", so + si);
    }
    return DEM_OK;
}

/* The process of each block, under the cuts just made. */
static dem_status rank_blocks(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    size_t nb = sim->c.nblk;
    if (nb > d->cap_blk) {
        uint32_t *br = realloc(d->blk_rank, nb * sizeof *br);
        if (!br) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the processes' blocks");
        d->blk_rank = br;
        d->cap_blk = nb;
    }
    for (size_t r = 0; r < (size_t)d->comm.size; r++)
        for (size_t b = d->bcut[r]; b < d->bcut[r + 1]; b++) d->blk_rank[b] = (uint32_t)r;
    return DEM_OK;
}

/* The halo of this process (struct sim_dist): from its own pairs, the foreign pairs and the
 * bonds with a partner here, those whose other particle belongs to another process. The list is
 * the whole one here (a rebuild has just made it, or the frame). */
static dem_status make_halo(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const sim_store *c = &sim->c;
    size_t K = (size_t)d->comm.size;
    size_t q0 = c->pblk[d->b0], q1 = c->pblk[d->b1], na = d->nforeign; /* the foreign pairs all cross */
    for (size_t p = q0; p < q1; p++) na += d->blk_rank[c->pairs[p].j / PAIR_BLOCK] != (uint32_t)d->comm.rank;
    for (size_t k = 0; k < sim->bd.n; k++) na += d->blk_rank[sim->bd.i[k] / PAIR_BLOCK] != d->blk_rank[sim->bd.j[k] / PAIR_BLOCK];
    if (!halo_reserve(d, na)) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the halo of %zu pairs", na);
    d->nsend = d->nrecv = 0;
    d->stage_kept = 0; /* what the steps' exchanges reserve at these cuts (stage_keep) */
    for (size_t p = q0; p < q1; p++) halo_pair(d, c->pairs[p].i, c->pairs[p].j);
    for (size_t k = 0; k < d->nforeign; k++) halo_pair(d, c->pairs[d->foreign[k]].i, c->pairs[d->foreign[k]].j);
    for (size_t k = 0; k < sim->bd.n; k++) halo_pair(d, sim->bd.i[k], sim->bd.j[k]); /* a bond's partners too */
    d->nsend = sort_unique(d->keys, d->nsend, sizeof *d->keys, cmp_u64);
    d->nrecv = sort_unique(d->recv, d->nrecv, sizeof *d->recv, cmp_u32);
    for (size_t k = 0, r = 0; r <= K; r++) { /* the sends by process, and where each process's begin */
        for (; k < d->nsend && (d->keys[k] >> 32) < r; k++) d->send[k] = (uint32_t)d->keys[k];
        d->send_at[r] = k;
    }
    for (size_t r = 0, k = 0; r < K; r++) { /* the receipts are in index order: by process */
        while (k < d->nrecv && d->recv[k] < block_particle(sim, d->bcut[r])) k++;
        d->recv_at[r] = k;
    }
    d->recv_at[K] = d->nrecv;
    if (sim->cl) { /* the clumps: who moves which, and their members' exchange */
        dem_status st = clump_owners(sim, err);
        if (!st) st = member_lists(sim, err);
        if (st) return st;
    }
    /* the halo's exchange, at its largest (dem_dist_share_halo): reserved now, where a failure can be said */
    if (!stage_keep(d, (d->nsend + d->nrecv) * HALO_MAX_BYTES))
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the exchange of a halo of %zu particles", d->nsend + d->nrecv);
    /* its particles sent (each counted once, though it may go to several processes) and those received */
    for (size_t k = 0; k < d->nsend; k++) d->keys[k] = d->send[k];
    d->stats.halo = sort_unique(d->keys, d->nsend, sizeof *d->keys, cmp_u64);
    d->stats.halo_in = d->nrecv;
    return DEM_OK;
}

static dem_status migrate(dem_sim *sim, dem_error *err);
static void drop_stale(dem_sim *sim);
static dem_status deliver_kept(dem_sim *sim, dem_error *err);

dem_status dem_dist_decompose(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (!d) return DEM_OK;
    const sim_store *c = &sim->c;
    memcpy(d->old_bcut, d->bcut, ((size_t)d->comm.size + 1) * sizeof *d->bcut); /* a migration's (below) */
    if (d->have_next) memcpy(d->bcut, d->next_bcut, ((size_t)d->comm.size + 1) * sizeof *d->bcut); /* deliver_keys' */
    else cut_blocks(sim, c->pblk, d->bcut);
    d->have_next = 0;
    d->b0 = d->bcut[d->comm.rank];
    d->b1 = d->bcut[d->comm.rank + 1];
    d->p0 = block_particle(sim, d->b0);
    d->p1 = block_particle(sim, d->b1);
    /* the pairs where one of this process's particles is j and i is another's (i < j: before p0) */
    size_t n = 0;
    for (size_t a = d->p0; a < d->p1; a++)
        for (size_t e = c->jadj_start[a]; e < c->jadj_start[a + 1]; e++) n += c->pairs[c->jadj[e]].i < d->p0;
    if (n > d->cap_foreign) {
        uint32_t *f = realloc(d->foreign, n * sizeof *f);
        if (!f) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu pairs across the processes' cuts", n);
        d->foreign = f;
        d->cap_foreign = n;
    }
    d->nforeign = 0;
    for (size_t a = d->p0; a < d->p1; a++)
        for (size_t e = c->jadj_start[a]; e < c->jadj_start[a + 1]; e++)
            if (c->pairs[c->jadj[e]].i < d->p0) d->foreign[d->nforeign++] = c->jadj[e];
    if (d->nforeign > 1) qsort(d->foreign, d->nforeign, sizeof *d->foreign, cmp_u32); /* in list order: read forwards */
    d->stats.own_pairs = c->pblk[d->b1] - c->pblk[d->b0];
    d->stats.foreign_pairs = d->nforeign;
    d->stats.particles = d->p1 - d->p0;
    d->local = d->stats.own = can_step_own(sim);
    d->stats.halo = 0;
    dem_status st = rank_blocks(sim, err);
    if (!st && d->local) st = make_halo(sim, err);
    if (!st && d->partial) st = migrate(sim, err);
    if (!st && d->deliver) st = deliver_kept(sim, err);
    if (!st && d->local && d->stale) drop_stale(sim); /* the particles it no longer keeps at the new cuts */
    if (!st && d->local) stage_fit(d);
    return st;
}

/* The group's exchange of the ranges d->off, d->len of buf, counted in the statistics. */
static void allgather(struct sim_dist *d, void *buf)
{
    size_t me = (size_t)d->comm.rank, all = 0;
    for (size_t r = 0; r < (size_t)d->comm.size; r++) all += d->len[r];
    d->stats.bytes += d->len[me];
    d->stats.received += all - d->len[me];
    d->stats.exchanges++;
    d->comm.allgather(d->comm.ctx, buf, d->off, d->len);
}

/* Point to point: d->off, d->len of send to each process, d->roff, d->rlen of recv from each. */
static void sendrecv(struct sim_dist *d, const void *send, void *recv)
{
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        d->stats.bytes += d->len[r];
        d->stats.received += d->rlen[r];
    }
    d->stats.exchanges++;
    d->comm.sendrecv(d->comm.ctx, send, d->off, d->len, recv, d->roff, d->rlen);
}

/* The staging buffer's segments (d->off, d->len) exchanged: every process gets every one. */
static void exchange_stage(struct sim_dist *d)
{
    allgather(d, d->stage);
}

/* Every process's elements [at(r), at(r+1)) of base (elem bytes each) to every process. */
typedef size_t (*bound_fn)(const dem_sim *sim, size_t r);

static size_t bound_particle(const dem_sim *sim, size_t r) { return block_particle(sim, sim->dist->bcut[r]); }
static size_t bound_pair(const dem_sim *sim, size_t r) { return sim->c.pblk[sim->dist->bcut[r]]; }
static size_t bound_slot(const dem_sim *sim, size_t r) { return sim->c.wstart[block_particle(sim, sim->dist->bcut[r])]; }

static void share(dem_sim *sim, void *base, size_t elem, bound_fn at)
{
    struct sim_dist *d = sim->dist;
    if (!base) return; /* an array this run has not (the same on every process) */
    for (int r = 0; r < d->comm.size; r++) {
        size_t lo = at(sim, (size_t)r), hi = at(sim, (size_t)r + 1);
        d->off[r] = lo * elem;
        d->len[r] = (hi - lo) * elem;
    }
    allgather(d, base);
}

/* Every process's words w[0 .. n) (n <= 3), into d->counts[r * 3 .. r * 3 + n). */
static void share_words(struct sim_dist *d, const size_t *w, size_t n)
{
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    for (size_t k = 0; k < n; k++) d->counts[3 * me + k] = w[k];
    for (size_t r = 0; r < K; r++) {
        d->off[r] = 3 * r * sizeof *d->counts;
        d->len[r] = n * sizeof *d->counts;
    }
    allgather(d, d->counts);
}

/* Arrays exchanged together (share_fields): each process's range of each, by its bounds. */
typedef struct {
    void *base;       /* NULL: an array this run has not (the same on every process) */
    size_t elem;
    bound_fn at;
} field;

static size_t bound_rank(const dem_sim *sim, size_t r) { (void)sim; return r; }

/* The arrays f, each moved by fn (share: to every process; to_root: to process 0), in place. */
typedef void (*array_fn)(dem_sim *sim, void *base, size_t elem, bound_fn at);
static void each_array(dem_sim *sim, const field *f, size_t nf, array_fn fn)
{
    for (size_t k = 0; k < nf; k++) fn(sim, f[k].base, f[k].elem, f[k].at);
}

/* A pair's result line and touch flag, and (records) its record and side record. */
#define PAIR_FIELDS(sim, records)                                                                               \
    {(sim)->c.out, sizeof *(sim)->c.out, bound_pair}, {(sim)->c.ptouch, sizeof *(sim)->c.ptouch, bound_pair},    \
        {(records) ? (sim)->c.pairs : NULL, sizeof *(sim)->c.pairs, bound_pair},                               \
        {(records) ? (sim)->c.roll : NULL, sizeof *(sim)->c.roll, bound_pair}

void dem_dist_share_pairs(dem_sim *sim, int records)
{
    if (!sim->dist) return;
    const field f[] = {PAIR_FIELDS(sim, records)};
    each_array(sim, f, sizeof f / sizeof f[0], share);
}

/* One exchange for several arrays: each process packs its ranges of them, in turn, into its
 * segment of a staging buffer, the segments are exchanged, and every process unpacks the others'.
 * One exchange instead of one per array: the latency of an exchange between nodes is paid once. */
static void share_fields(dem_sim *sim, const field *f, size_t nf)
{
    struct sim_dist *d = sim->dist;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, total = 0;
    for (size_t r = 0; r < K; r++) {
        size_t seg = 0;
        for (size_t k = 0; k < nf; k++)
            if (f[k].base) seg += (f[k].at(sim, r + 1) - f[k].at(sim, r)) * f[k].elem;
        d->off[r] = total;
        d->len[r] = seg;
        total += seg;
    }
    if (!stage_reserve(d, total)) { /* on failure the arrays go one at a time, in place */
        each_array(sim, f, nf, share);
        return;
    }
    char *mine = d->stage + d->off[me]; /* pack this process's segment; then unpack the others' */
    for (size_t k = 0; k < nf; k++) {
        if (!f[k].base) continue;
        size_t lo = f[k].at(sim, me), n = (f[k].at(sim, me + 1) - lo) * f[k].elem;
        memcpy(mine, (char *)f[k].base + lo * f[k].elem, n);
        mine += n;
    }
    exchange_stage(d);
    for (size_t r = 0; r < K; r++) {
        if (r == me) continue;
        const char *at = d->stage + d->off[r];
        for (size_t k = 0; k < nf; k++) {
            if (!f[k].base) continue;
            size_t lo = f[k].at(sim, r), n = (f[k].at(sim, r + 1) - lo) * f[k].elem;
            memcpy((char *)f[k].base + lo * f[k].elem, at, n);
            at += n;
        }
    }
}

/* A wall slot's state, in an exchange's fields: its record and result, whether it touches, the
 * friction it lost, its rolling and twisting record and lost energy (those two only with them),
 * its wall and hooke's stiffnesses (with hooke): a process lays out only its own particles' slots
 * at a rebuild (dem_store_wall_slots), the others' walls unknown there. */
#define SLOT_FIELDS(sim)                                                                                                    \
    {(sim)->c.whist, sizeof *(sim)->c.whist, bound_slot}, {(sim)->c.wout, sizeof *(sim)->c.wout, bound_slot},                 \
        {(sim)->c.wtouch, sizeof *(sim)->c.wtouch, bound_slot}, {(sim)->e.wlost, sizeof *(sim)->e.wlost, bound_slot},         \
        {(sim)->c.wroll, sizeof *(sim)->c.wroll, bound_slot}, {(sim)->e.wrlost, sizeof *(sim)->e.wrlost, bound_slot},         \
        {(sim)->c.wwall, sizeof *(sim)->c.wwall, bound_slot}, {(sim)->c.whooke, sizeof *(sim)->c.whooke, bound_slot}

/* Own stepping with clumps: the members' forces and torques, point to point, to the other
 * processes that move their clumps (member_lists), which then sum them to the clumps (clumps.h). */
static void share_members(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    sim_particles *P = &sim->p;
    size_t K = (size_t)d->comm.size, each = 2 * sizeof(dem_vec3), nout = d->msend_at[K];
    for (size_t r = 0; r < K; r++) {
        d->off[r] = d->msend_at[r] * each;
        d->len[r] = (d->msend_at[r + 1] - d->msend_at[r]) * each;
        d->roff[r] = d->mrecv_at[r] * each;
        d->rlen[r] = (d->mrecv_at[r + 1] - d->mrecv_at[r]) * each;
    }
    /* the staging buffer holds them: member_lists reserved it */
    char *at = d->stage, *recv = d->stage + nout * each;
    for (size_t k = 0; k < nout; k++, at += each) {
        memcpy(at, &P->f[d->msend[k]], sizeof(dem_vec3));
        memcpy(at + sizeof(dem_vec3), &P->t[d->msend[k]], sizeof(dem_vec3));
    }
    sendrecv(d, d->stage, recv);
    for (size_t k = 0, nin = d->mrecv_at[K]; k < nin; k++, recv += each) {
        memcpy(&P->f[d->mrecv[k]], recv, sizeof(dem_vec3));
        memcpy(&P->t[d->mrecv[k]], recv + sizeof(dem_vec3), sizeof(dem_vec3));
    }
}

void dem_dist_share_sums(dem_sim *sim, size_t *lost, size_t *nbad)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    sim_particles *P = &sim->p;
    size_t me = (size_t)d->comm.rank;
    if (d->local) { /* each process keeps its particles' and slots' results: only the counts go */
        size_t w[2] = {*lost, *nbad};
        dem_dist_sum_counts(sim, w, 2);
        *lost = w[0];
        *nbad = w[1];
        dem_dist_went_stale(sim);
        if (sim->cl) share_members(sim); /* and the clumps' members' forces, which every process sums */
        return;
    }
    /* the counts ride along: each process's pair of them, summed after (integers: any order) */
    d->counts[3 * me] = *lost;
    d->counts[3 * me + 1] = *nbad;
    const field f[] = {
        {P->f, sizeof *P->f, bound_particle},
        {P->t, sizeof *P->t, bound_particle},
        {sim->e.edis, EDIS * sizeof *sim->e.edis, bound_particle},
        {sim->e.wadh, sizeof *sim->e.wadh, bound_particle},
        {sim->g.pbad, sizeof *sim->g.pbad, bound_particle},
        {sim->ex.on ? sim->ex.K : NULL, sizeof *sim->ex.K, bound_particle},
        {sim->ex.on ? sim->ex.kbad : NULL, sizeof *sim->ex.kbad, bound_particle},
        SLOT_FIELDS(sim),
        {d->counts, 3 * sizeof *d->counts, bound_rank},
    };
    share_fields(sim, f, sizeof f / sizeof f[0]);
    *lost = *nbad = 0;
    for (size_t k = 0; k < (size_t)d->comm.size; k++) {
        *lost += d->counts[3 * k];
        *nbad += d->counts[3 * k + 1];
    }
}

/* The halo's fields: what the pair pass reads of a particle that moves (the accounting's
 * full-step velocities only while an accounting is pending). */
static size_t halo_fields(const dem_sim *sim, dem_vec3 **f)
{
    size_t nf = 0;
    f[nf++] = sim->p.x;
    f[nf++] = sim->p.v;
    f[nf++] = sim->p.w;
    if (sim->e.acct == ACCT_SAVED) {
        f[nf++] = sim->e.vf;
        f[nf++] = sim->e.wf;
    }
    return nf;
}

static void merge_head(struct sim_dist *d, const halo_head *h, double *move2, int *nonfinite)
{
    *move2 = fmax(*move2, h->move2);
    *nonfinite |= h->nonfinite != 0.0;
    d->wrap_failed |= h->wrap_failed != 0.0;
    dem_nbr_merge_moves(d->moved, h->moved);
}

/* A halo particle's bytes in the exchange: nf vectors, its image counters in a cell, and with
 * clumps its offset R b from its clump's centroid (the cell's clump sums read it on every
 * process whose pairs reach the member, and only the processes that own a member of the clump
 * move it: struct sim_dist). */
static size_t halo_bytes(const dem_sim *sim, size_t nf)
{
    return nf * sizeof(dem_vec3) + (sim->b.cell.flags ? sizeof *sim->p.image : 0) + (sim->cl ? sizeof(dem_vec3) : 0);
}

/* A halo particle's fields packed at `at` (halo_bytes). */
static char *pack_halo(const dem_sim *sim, dem_vec3 *const *f, size_t nf, size_t a, char *at)
{
    for (size_t k = 0; k < nf; k++, at += sizeof(dem_vec3)) memcpy(at, &f[k][a], sizeof(dem_vec3));
    if (sim->b.cell.flags) {
        memcpy(at, sim->p.image[a], sizeof *sim->p.image);
        at += sizeof *sim->p.image;
    }
    if (sim->cl) {
        const dem_vec3 *b = dem_clumps_offset(sim, a), zero = dem_v3_zero();
        memcpy(at, b ? b : &zero, sizeof(dem_vec3));
        at += sizeof(dem_vec3);
    }
    return at;
}

/* ... and unpacked into this process's copy: in a cell, with wrap, its wrap is the change of its
 * image counters (the pairs' images follow it: boundary.c). */
static const char *unpack_halo(dem_sim *sim, dem_vec3 *const *f, size_t nf, size_t a, const char *from, int wrap)
{
    for (size_t k = 0; k < nf; k++, from += sizeof(dem_vec3)) memcpy(&f[k][a], from, sizeof(dem_vec3));
    if (sim->b.cell.flags) {
        int32_t im[3], (*image)[3] = sim->p.image, (*e)[3] = sim->b.wrapped;
        memcpy(im, from, sizeof im);
        from += sizeof im;
        for (int k = 0; k < 3; k++) {
            if (wrap) e[a][k] = im[k] - image[a][k];
            image[a][k] = im[k];
        }
    }
    if (sim->cl) {
        uint32_t j = sim->cl->slot[a];
        if (j != SIM_NO_CLUMP) memcpy(&sim->cl->rw[j], from, sizeof(dem_vec3));
        from += sizeof(dem_vec3);
    }
    return from;
}

/* The halo's fields from the processes that own them, point to point (the lists of make_halo);
 * wrap: its image counters' change is its wrap in this step (after the drift), else the counters
 * are taken as they are (the halo of new cuts). */
static void exchange_halo(dem_sim *sim, int wrap)
{
    struct sim_dist *d = sim->dist;
    dem_vec3 *f[5];
    size_t nf = halo_fields(sim, f), each = halo_bytes(sim, nf);
    /* the sends, then the receipts, in the staging buffer that make_halo reserved */
    char *out = d->stage, *in = d->stage + d->nsend * each;
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        d->off[r] = d->send_at[r] * each;
        d->len[r] = (d->send_at[r + 1] - d->send_at[r]) * each;
        d->roff[r] = d->recv_at[r] * each;
        d->rlen[r] = (d->recv_at[r + 1] - d->recv_at[r]) * each;
    }
    for (size_t k = 0; k < d->nsend; k++) out = pack_halo(sim, f, nf, d->send[k], out);
    sendrecv(d, d->stage, in);
    for (size_t k = 0; k < d->nrecv; k++) in = (char *)unpack_halo(sim, f, nf, d->recv[k], in, wrap);
}

void dem_dist_refresh_halo(dem_sim *sim)
{
    if (dist_local(sim) && sim->dist->stale) exchange_halo(sim, 0);
}

void dem_dist_share_halo(dem_sim *sim, double *move2, int *nonfinite)
{
    struct sim_dist *d = sim->dist;
    dem_boundary_wrap_own(sim); /* boundary.h: this process's particles into the cell */
    halo_head mine = {*move2, (double)*nonfinite, (double)d->wrap_failed, {0.0, 0.0, 0.0}};
    dem_nbr_largest_moves(sim, d->p0, d->p1, mine.moved);
    d->moved[0] = d->moved[1] = d->moved[2] = 0.0;
    const char *heads = dem_dist_gather_each(sim, &mine, sizeof mine); /* every process's: maxima */
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        halo_head h;
        memcpy(&h, heads + r * sizeof h, sizeof h);
        merge_head(d, &h, move2, nonfinite);
    }
    exchange_halo(sim, 1);
}

/* What a frame reads of the particles' state (dem_particle_record; the bonds' evaluation): the
 * part of PARTICLE_FIELDS (below) process 0 gathers to write one (dem_dist_to_root). The books' arrays,
 * the build's positions and the guard's flags are summed or used where they are kept. */
#define FRAME_FIELDS(sim)                                                                                              \
    {(sim)->p.x, sizeof *(sim)->p.x, bound_particle}, {(sim)->p.v, sizeof *(sim)->p.v, bound_particle},                 \
        {(sim)->p.w, sizeof *(sim)->p.w, bound_particle}, {(sim)->p.q, sizeof *(sim)->p.q, bound_particle},             \
        {(sim)->p.f, sizeof *(sim)->p.f, bound_particle}, {(sim)->p.t, sizeof *(sim)->p.t, bound_particle},             \
        {(sim)->p.image, sizeof *(sim)->p.image, bound_particle}

/* A particle's state with own stepping, in an exchange's fields: what its owner keeps current
 * (the whole state's gather, and the migration of particles that change owner at a rebuild). */
#define PARTICLE_FIELDS(sim)                                                                                           \
    FRAME_FIELDS(sim), {(sim)->nbr.x_build, sizeof *(sim)->nbr.x_build, bound_particle},                                \
        {(sim)->e.edis, EDIS * sizeof *(sim)->e.edis, bound_particle}, {(sim)->e.vf, sizeof *(sim)->e.vf, bound_particle}, \
        {(sim)->e.wf, sizeof *(sim)->e.wf, bound_particle}, {(sim)->e.wadh, sizeof *(sim)->e.wadh, bound_particle},       \
        {(sim)->g.pbad, sizeof *(sim)->g.pbad, bound_particle},                                                         \
        {(sim)->ex.on ? (sim)->ex.V : NULL, sizeof *(sim)->ex.V, bound_particle},                                       \
        {(sim)->ex.on ? (sim)->ex.K : NULL, sizeof *(sim)->ex.K, bound_particle},                                       \
        {(sim)->ex.on ? (sim)->ex.kbad : NULL, sizeof *(sim)->ex.kbad, bound_particle}

/* Elements [lo, hi) of an array of the particles' state that this process does not keep (below):
 * their whole pages given back to the system (they read as zeros until written again), or,
 * checking (dem_comm.check_stale), every byte 0xff, a NaN in every double, so that a read of
 * them would change the results. */
static void stale_range(struct sim_dist *d, void *base, size_t elem, size_t lo, size_t hi)
{
    if (lo >= hi) return;
    char *a = (char *)base + lo * elem, *b = (char *)base + hi * elem;
    if (d->comm.check_stale) {
        memset(a, 0xff, (size_t)(b - a));
        return;
    }
    d->stats.dropped_bytes += dem_pages_release(a, (size_t)(b - a));
}

/* An array of n elements whose own particles' [p0, p1) this process keeps and, of the halo's
 * fields (halo), its halo's (recv, ascending, none in [p0, p1)): the rest is stale_range's. */
static void drop_array(struct sim_dist *d, void *base, size_t elem, size_t n, int halo)
{
    if (!base) return;
    size_t at = 0, k = 0, nk = halo ? d->nrecv : 0;
    for (; k < nk && d->recv[k] < d->p0; at = d->recv[k++] + 1) stale_range(d, base, elem, at, d->recv[k]);
    stale_range(d, base, elem, at, d->p0);
    for (at = d->p1; k < nk; at = d->recv[k++] + 1) stale_range(d, base, elem, at, d->recv[k]);
    stale_range(d, base, elem, at, n);
}

/* Own stepping, once the state is stale (the whole state's gather read, or new cuts made, or a
 * frame sent to process 0): this process keeps its own particles' state (PARTICLE_FIELDS) and its
 * halo's positions, velocities and image counters (halo_fields), current; the rest of its copy
 * would stay stale until a gather, and goes (stale_range), so that what a process holds of the
 * particles' state grows with its own particles and halo, not with the system. The particles'
 * constants (radius, mass, material, id, ...) stay whole: a rebuild reads them of the particles
 * whose positions it receives. */
static void drop_stale(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d->local) return;
    const field f[] = {PARTICLE_FIELDS(sim)};
    const void *halo[] = {sim->p.x, sim->p.v, sim->p.w, sim->e.vf, sim->e.wf, sim->p.image};
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
        int in_halo = 0;
        for (size_t h = 0; h < sizeof halo / sizeof halo[0]; h++) in_halo |= f[k].base == halo[h];
        drop_array(d, f[k].base, f[k].elem, sim->p.n, in_halo);
    }
    d->stats.drops++;
}

void dem_dist_went_stale(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->local || d->stale) return;
    d->stale = 1;
    drop_stale(sim);
}

/* A clump's state: what a process that starts moving it needs (its members' offsets follow
 * from its orientation: dem_clumps_offsets). */
#define CLUMP_FIELDS(cl)                                                                                                 \
    {(cl)->x, sizeof *(cl)->x, NULL}, {(cl)->v, sizeof *(cl)->v, NULL}, {(cl)->w, sizeof *(cl)->w, NULL},                \
        {(cl)->L, sizeof *(cl)->L, NULL}, {(cl)->f, sizeof *(cl)->f, NULL}, {(cl)->t, sizeof *(cl)->t, NULL},            \
        {(cl)->q, sizeof *(cl)->q, NULL}

static size_t fields_size(const field *f, size_t nf)
{
    size_t per = 0;
    for (size_t k = 0; k < nf; k++) per += f[k].base ? f[k].elem : 0; /* an array this run has not: NULL */
    return per;
}

/* Entry k (a particle's, a clump's) of the arrays f copied to (out) or from the bytes at *at,
 * which moves on past them. */
static void copy_entry(const field *f, size_t nf, size_t k, char **at, int out)
{
    for (size_t e = 0; e < nf; e++) {
        if (!f[e].base) continue;
        char *p = (char *)f[e].base + k * f[e].elem;
        if (out) memcpy(*at, p, f[e].elem);
        else memcpy(p, *at, f[e].elem);
        *at += f[e].elem;
    }
}

static size_t clump_bytes(const dem_sim *sim)
{
    const field f[] = {CLUMP_FIELDS(sim->cl)};
    return fields_size(f, sizeof f / sizeof f[0]);
}

/* Own stepping with clumps (struct sim_dist): every clump's state from
 * the process of its first member, which moves it, to every process (root 0) or to process 0
 * (root 1), in clump order. The staging buffer holds them: clump_owners reserved it. */
static void gather_clumps(dem_sim *sim, int root)
{
    struct sim_dist *d = sim->dist;
    struct sim_clumps *cl = sim->cl;
    if (!cl || !d->local) return; /* else every process moves every clump */
    const field f[] = {CLUMP_FIELDS(cl)};
    size_t nf = sizeof f / sizeof f[0], per = fields_size(f, nf), K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    size_t *at = d->counts; /* each process's clumps, then where its next is */
    memset(at, 0, K * sizeof *at);
    for (size_t k = 0; k < cl->n; k++) at[rank_of(d, cl->pidx[cl->start[k]])]++;
    for (size_t r = 0, total = 0; r < K; r++) {
        d->off[r] = d->roff[r] = total * per;
        d->len[r] = d->rlen[r] = at[r] * per;
        total += at[r];
        at[r] = d->off[r];
    }
    size_t mine = d->off[me], len = d->len[me];
    char *pack = d->stage + mine;
    for (size_t k = 0; k < cl->n; k++)
        if (rank_of(d, cl->pidx[cl->start[k]]) == me) copy_entry(f, nf, k, &pack, 1);
    if (!root) {
        allgather(d, d->stage);
    } else { /* to process 0 alone: it receives the others' segments where they lie */
        for (size_t r = 0; r < K; r++) {
            d->len[r] = 0;
            if (me != 0 || r == 0) d->rlen[r] = 0;
        }
        if (me != 0) {
            d->off[0] = mine;
            d->len[0] = len;
        }
        sendrecv(d, d->stage, d->stage);
        if (me != 0) return;
    }
    for (size_t k = 0; k < cl->n; k++) {
        size_t r = rank_of(d, cl->pidx[cl->start[k]]);
        if (r == me) continue;
        char *from = d->stage + at[r];
        copy_entry(f, nf, k, &from, 0);
        at[r] += per;
        dem_clumps_offsets(sim, k);
    }
}

void dem_dist_whole(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->stale) return;
    const field f[] = {PARTICLE_FIELDS(sim), SLOT_FIELDS(sim)};
    /* each array in place, one exchange each: a staging buffer would hold the whole state a
     * second time (about 300 bytes a particle on every process) for a gather that is rare */
    each_array(sim, f, sizeof f / sizeof f[0], share);
    gather_clumps(sim, 0);
    d->stale = 0;
    d->stats.gathers++;
    /* the bonds of other processes' particles, from the positions their forces were last taken
     * at (they change only in a drift, which a rebuild's gather follows with new forces) */
    if (sim->bd.n) dem_bonds_eval_all(sim);
}

/* Every process's elements [at(r), at(r+1)) of base to process 0, in place (the same layout on
 * every process: no staging, no copy but the messages). */
static void to_root(dem_sim *sim, void *base, size_t elem, bound_fn at)
{
    struct sim_dist *d = sim->dist;
    if (!base) return; /* an array this run has not (the same on every process) */
    size_t me = (size_t)d->comm.rank;
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        size_t lo = at(sim, r), n = (at(sim, r + 1) - lo) * elem;
        d->off[r] = d->len[r] = d->roff[r] = d->rlen[r] = 0;
        if (me != 0 && r == me) {
            d->off[0] = lo * elem;
            d->len[0] = n;
        }
        if (me == 0 && r != 0) {
            d->roff[r] = lo * elem;
            d->rlen[r] = n;
        }
    }
    sendrecv(d, base, base);
}

static dem_status gather_touching(dem_sim *sim, dem_error *err);
static void pairs_back(dem_sim *sim);

/* A frame's particles stream to process 0 from their owners (dem_dist_frame_sources), but where
 * it evaluates the bonds for the frame, which reads every particle's position. */
static int streams_particles(const dem_sim *sim) { return sim->bd.n == 0; }

void dem_dist_to_root(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    d->stats.root_gathers++;
    if (!d->stale) return; /* every process holds every particle current */
    if (streams_particles(sim)) { /* the particles stream to it as the writer takes them (dem_dist_frame_sources) */
        const field f[] = {SLOT_FIELDS(sim)};
        each_array(sim, f, sizeof f / sizeof f[0], to_root);
    } else {
        const field f[] = {FRAME_FIELDS(sim), SLOT_FIELDS(sim)};
        each_array(sim, f, sizeof f / sizeof f[0], to_root);
    }
    gather_clumps(sim, 1);
    if (d->comm.rank == 0 && sim->bd.n) dem_bonds_eval_all(sim); /* as dem_dist_whole */
}

void dem_dist_for_rebuild(dem_sim *sim, int sort)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->stale) return;
    d->partial = 1;
    d->stats.rebuild_gathers++;
    if (!sort && !sim->nbr.used_multi) { /* the grid's binning receives what it reaches (the radii, so the
                                            * backend, are the last rebuild's) */
        d->near = NEAR_PENDING;
        d->stats.near_rebuilds++;
        return;
    }
    if (sort && !dem_nbr_uses_multi(sim)) { /* the owners' cells of their particles, then what each scan reaches
                                              * (dem_dist_sort_cells, dem_dist_near_sorted) */
        d->near = NEAR_SORT;
        d->stats.near_rebuilds++;
        return;
    }
    /* what the grid and the wall slots' layout read (positions) and the bonds' exclusions (image
     * counters): the rest stays with the owners, who hand it on at the new cuts (dem_dist_decompose's
     * migration), the wall slots' records with their particles (dem_dist_keep_own) */
    const field f[] = {{sim->p.x, sizeof *sim->p.x, bound_particle}, {sim->p.image, sizeof *sim->p.image, bound_particle}};
    share_fields(sim, f, sizeof f / sizeof f[0]);
}

static int count_segments(struct sim_dist *d, const size_t *out, const size_t *in, size_t size, size_t *nout, size_t *nin);
static void exchange_counts(struct sim_dist *d, const size_t *out, size_t *in);
static void rewind_offsets(struct sim_dist *d, const size_t *out, size_t size);

int dem_dist_near_pending(const dem_sim *sim) { return sim->dist && sim->dist->near == NEAR_PENDING; }
int dem_dist_sort_pending(const dem_sim *sim) { return sim->dist && sim->dist->near == NEAR_SORT; }

/* After the near positions alone (a gather of every position lays out every particle's slots:
 * every rank's copy of a particle it held carries its kept slots, whatever its new number, and
 * migrate takes them from there; a re-sort without one, those of the particles it held). */
int dem_dist_slots_own(const dem_sim *sim) { return sim->dist && sim->dist->near == NEAR_OWN; }

int dem_dist_slots_held(const dem_sim *sim, const uint32_t **held, size_t *nheld)
{
    if (!sim->dist || sim->dist->near != NEAR_HELD) return 0;
    *held = sim->dist->held;
    *nheld = sim->dist->nheld;
    return 1;
}

static size_t first_failed(dem_sim *sim, int ok);

/* During a re-sort's rebuild, before its new cuts: whether this process held particle k (its new
 * number), its old number in this process's range. */
static int held_here(const struct sim_dist *d, size_t k) { return d->from[k] >= d->p0 && d->from[k] < d->p1; }

void dem_dist_share_held_counts(dem_sim *sim, size_t *counts)
{
    struct sim_dist *d = sim->dist;
    size_t n = sim->p.n, K = (size_t)d->comm.size;
    uint32_t *old = d->held_counts; /* dem_dist_near_sorted's: n words, freed here */
    if (sim->b.nwalls == 0) { /* no walls: no slots anywhere */
        for (size_t k = 0; k < n; k++) counts[k] = 0;
        free(old);
        d->held_counts = NULL;
        return;
    }
    /* in the old numbering, where the particles each process held are its old blocks' range:
     * each fills its range, and the ranges are shared, as dem_dist_share_slot_counts shares the
     * current ones */
    for (size_t e = 0; e < d->nheld; e++) old[d->from[d->held[e]]] = (uint32_t)counts[d->held[e]];
    for (size_t r = 0; r < K; r++) {
        size_t lo = block_particle(sim, d->bcut[r]), hi = block_particle(sim, d->bcut[r + 1]);
        d->off[r] = lo * sizeof *old;
        d->len[r] = (hi - lo) * sizeof *old;
    }
    allgather(d, old);
    for (size_t k = 0; k < n; k++)
        if (!held_here(d, k)) counts[k] = old[d->from[k]];
    free(old);
    d->held_counts = NULL;
}

void dem_dist_share_slot_counts(dem_sim *sim, size_t *counts)
{
    struct sim_dist *d = sim->dist;
    size_t n = sim->p.n;
    if (sim->b.nwalls == 0) { /* no walls: no slots anywhere */
        for (size_t a = 0; a < n; a++) counts[a] = 0;
        return;
    }
    /* as 16-bit counts when they fit (a particle has at most one slot a wall): 2 bytes a particle */
    uint16_t *c16 = sim->b.nwalls <= UINT16_MAX ? malloc((n ? n : 1) * sizeof *c16) : NULL;
    if (!c16) {
        share(sim, counts, sizeof *counts, bound_particle);
        return;
    }
    for (size_t a = d->p0; a < d->p1; a++) c16[a] = (uint16_t)counts[a];
    share(sim, c16, sizeof *c16, bound_particle);
    for (size_t a = 0; a < n; a++)
        if (a < d->p0 || a >= d->p1) counts[a] = c16[a];
    free(c16);
}

void dem_dist_extent(dem_sim *sim, double lo[3], double hi[3])
{
    struct sim_dist *d = sim->dist;
    double mine[6] = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
    const double *all = dem_dist_gather_each(sim, mine, sizeof mine);
    for (size_t r = 0; r < (size_t)d->comm.size; r++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], all[6 * r + k]);
            hi[k] = fmax(hi[k], all[6 * r + 3 + k]);
        }
}

/* Whether the cells a0 .. a1 and b0 .. b1 along an axis of n cells lie next to (or on) one
 * another, through the periodic faces where the axis is periodic (a span may run past the last
 * cell: cells_box's); a0 > a1 or b0 > b1: no cell there. */
static int spans_near(int64_t a0, int64_t a1, int64_t b0, int64_t b1, int n, int periodic)
{
    if (a0 > a1 || b0 > b1) return 0;
    for (int64_t s = periodic ? -1 : 0; s <= (periodic ? 1 : 0); s++)
        if (a0 + s * n <= b1 + 1 && a1 + s * n >= b0 - 1) return 1;
    return 0;
}

/* Whether the cells of box a (cells_box's: lo[3], hi[3]) lie next to box b's along every axis. */
static int boxes_near(const dem_sim *sim, const nbr_grid *g, const int32_t *a, const int32_t *b)
{
    for (int k = 0; k < 3; k++)
        if (!spans_near(a[k], a[3 + k], b[k], b[3 + k], g->n[k], sim->b.periodic[k])) return 0;
    return 1;
}

/* The cell coordinates of cell index c in g. */
static void cell_coords(const nbr_grid *g, uint32_t c, int x[3])
{
    x[0] = (int)(c % (uint32_t)g->n[0]);
    x[1] = (int)(c / (uint32_t)g->n[0] % (uint32_t)g->n[1]);
    x[2] = (int)(c / (uint32_t)g->n[0] / (uint32_t)g->n[1]);
}

/* The box of this process's cells in g: along each axis lo (box[k]) to hi (box[3 + k]), lo > hi
 * for none; along a periodic axis the shortest arc of cells that holds them all, which may run
 * past the last cell (hi >= n: through the periodic face), so that particles that have crossed
 * the face since the sort do not stretch the box over the whole cell. 0 if out of memory. */
static int cells_box(const dem_sim *sim, const nbr_grid *g, const int32_t (*xyz)[3], size_t nown, int32_t box[6])
{
    for (int k = 0; k < 3; k++) {
        box[k] = INT32_MAX;
        box[3 + k] = INT32_MIN;
    }
    for (size_t e = 0; e < nown; e++)
        for (int k = 0; k < 3; k++) {
            if (xyz[e][k] < box[k]) box[k] = xyz[e][k];
            if (xyz[e][k] > box[3 + k]) box[3 + k] = xyz[e][k];
        }
    for (int k = 0; k < 3; k++) {
        int n = g->n[k];
        if (!sim->b.periodic[k] || box[k] > box[3 + k] || n < 3) continue;
        uint8_t *used = calloc((size_t)n, 1);
        if (!used) return 0;
        for (size_t e = 0; e < nown; e++) used[xyz[e][k]] = 1;
        /* the longest run of empty cells, around the face; the box is the rest */
        int best = 0, end = -1;
        for (int i = 0, run = 0; i < 2 * n; i++) {
            run = used[i % n] ? 0 : run + 1;
            if (run > best && run <= n) {
                best = run;
                end = i % n;
            }
        }
        free(used);
        if (best == 0) continue; /* every cell along the axis */
        box[k] = (end + 1) % n;
        box[3 + k] = box[k] + (n - best) - 1;
    }
    return 1;
}

/* A near particle in the exchange: its index, position and image counters. */
typedef struct {
    uint32_t a;
    dem_vec3 x;
    int32_t image[3];
} near_item;

/* dem_dist_near's exchange, from the particles snd[0 .. nsnd) (NULL: [p0, p1)), whose positions
 * this process holds, to the processes whose particles' cells lie next to theirs; box: this
 * process's box of the cells of [p0, p1). The receipts are in d->near_list[0 .. *nnear). */
static dem_status near_exchange(dem_sim *sim, const nbr_grid *g, const uint32_t *cellof, const uint32_t *snd, size_t nsnd, int32_t box[6],
                                size_t *nnear, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, nout, nin;
    /* the cells of this process's particles, their box, and every process's */
    size_t nown = d->p1 - d->p0;
    int32_t (*xyz)[3] = malloc((nown ? nown : 1) * sizeof *xyz), *all = malloc(K * 6 * sizeof *box);
    for (size_t e = 0; xyz && e < nown; e++) {
        int x[3];
        cell_coords(g, cellof[d->p0 + e], x);
        for (int k = 0; k < 3; k++) xyz[e][k] = x[k];
    }
    int ok = xyz && all && cells_box(sim, g, (const int32_t(*)[3])xyz, nown, box);
    if (!ok) box[0] = box[3] = INT32_MIN, box[1] = box[4] = INT32_MAX; /* a box no process has: its failure */
    const int32_t *boxes = dem_dist_gather_each(sim, box, 6 * sizeof *box); /* collective: every process fails alike */
    size_t failed = K;
    for (size_t r = 0; r < K && failed == K; r++)
        if (boxes[6 * r] == INT32_MIN && boxes[6 * r + 3] == INT32_MIN && boxes[6 * r + 1] == INT32_MAX) failed = r;
    if (failed < K) {
        free(xyz);
        free(all);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the rebuild's cells on process %zu of %zu", failed, K);
    }
    memcpy(all, boxes, K * 6 * sizeof *box);
    /* the processes whose cells lie next to this one's (a few: the cuts' neighbours), to which
     * its particles next to their cells go: counted, then sent */
    size_t *out = d->counts, *in = d->counts + K, *next = d->counts + 2 * K, nnext = 0;
    for (size_t r = 0; r < K; r++)
        if (r != me && boxes_near(sim, g, box, all + 6 * r)) next[nnext++] = r;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            exchange_counts(d, out, in);
            if (!count_segments(d, out, in, sizeof(near_item), &nout, &nin)) {
                free(all);
                free(xyz);
                return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the positions of %zu particles near the processes' cuts", nout + nin);
            }
        } else {
            memset(out, 0, K * sizeof *out);
        }
        for (size_t s = 0; s < (snd ? nsnd : nown); s++) {
            size_t a = snd ? snd[s] : d->p0 + s;
            int x[3];
            cell_coords(g, cellof[a], x);
            for (size_t e = 0; e < nnext; e++) {
                size_t r = next[e];
                const int32_t *b = all + 6 * r;
                int near_r = 1;
                /* z first: the cuts of the spatial order (z, y, x) are mostly across z */
                for (int k = 2; k >= 0 && near_r; k--) near_r = spans_near(x[k], x[k], b[k], b[3 + k], g->n[k], sim->b.periodic[k]);
                if (!near_r) continue;
                if (!pass) {
                    out[r]++;
                    continue;
                }
                near_item it = {(uint32_t)a, sim->p.x[a], {sim->p.image[a][0], sim->p.image[a][1], sim->p.image[a][2]}};
                memcpy(d->stage + d->off[r], &it, sizeof it);
                d->off[r] += sizeof it;
            }
        }
    }
    free(all);
    free(xyz);
    rewind_offsets(d, out, sizeof(near_item));
    sendrecv(d, d->stage, d->stage + nout * sizeof(near_item));
    if (nin > d->cap_near) {
        uint32_t *l = realloc(d->near_list, nin * sizeof *l);
        if (!l) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles near the processes' cuts", nin);
        d->near_list = l;
        d->cap_near = nin;
    }
    const char *from = d->stage + nout * sizeof(near_item);
    for (size_t e = 0; e < nin; e++, from += sizeof(near_item)) {
        near_item it;
        memcpy(&it, from, sizeof it);
        sim->p.x[it.a] = it.x;
        memcpy(sim->p.image[it.a], it.image, sizeof it.image);
        d->near_list[e] = it.a;
    }
    d->stats.near_received += nin;
    *nnear = nin;
    return DEM_OK;
}

dem_status dem_dist_near(dem_sim *sim, const nbr_grid *g, const uint32_t *cellof, const uint32_t **near, size_t *nnear, dem_error *err)
{
    int32_t box[6];
    sim->dist->near = NEAR_OWN; /* done: the wall slots are laid out for this process's particles (dem_dist_slots_own) */
    dem_status st = near_exchange(sim, g, cellof, NULL, 0, box, nnear, err);
    *near = sim->dist->near_list;
    return st;
}

void dem_dist_sort_cells(dem_sim *sim, uint32_t *cellof) { share(sim, cellof, sizeof *cellof, bound_particle); }

dem_status dem_dist_near_sorted(dem_sim *sim, const nbr_grid *g, const uint32_t *cellof, const uint32_t **more, size_t *nmore, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    size_t n = sim->p.n, K = (size_t)d->comm.size, nh = d->p1 - d->p0, nin = 0;
    d->near = NEAR_HELD; /* the wall slots are laid out for the particles this process held (dem_dist_slots_held) */
    if (nh > d->cap_held || !d->held) {
        uint32_t *h = realloc(d->held, (nh ? nh : 1) * sizeof *h);
        if (h) {
            d->held = h;
            d->cap_held = nh ? nh : 1;
        }
    }
    if (!d->held_counts) d->held_counts = malloc((n ? n : 1) * sizeof *d->held_counts);
    size_t failed = first_failed(sim, d->cap_held >= nh && d->held && d->held_counts);
    if (failed < K) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the re-sort's particles on process %zu of %zu", failed, K);
    d->nheld = 0;
    for (size_t k = 0; k < n; k++)
        if (held_here(d, k)) d->held[d->nheld++] = (uint32_t)k;
    int32_t box[6];
    dem_status st = near_exchange(sim, g, cellof, d->held, d->nheld, box, &nin, err);
    if (st) return st;
    /* what this process's scan of [p0, p1) bins besides them: the others' particles received, and
     * its own held ones outside [p0, p1) whose cells lie next to its box (they went to no one
     * else for it), each once */
    size_t extra = 0;
    for (size_t e = 0; e < d->nheld; e++) extra += d->held[e] < d->p0 || d->held[e] >= d->p1;
    if (nin + extra > d->cap_near) {
        uint32_t *l = realloc(d->near_list, (nin + extra) * sizeof *l);
        if (!l) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles near the processes' cuts", nin + extra);
        d->near_list = l;
        d->cap_near = nin + extra;
    }
    size_t m = 0;
    for (size_t e = 0; e < nin; e++)
        if (d->near_list[e] < d->p0 || d->near_list[e] >= d->p1) d->near_list[m++] = d->near_list[e];
    for (size_t e = 0; e < d->nheld; e++) {
        size_t a = d->held[e];
        if (a >= d->p0 && a < d->p1) continue;
        int x[3], near_me = 1;
        cell_coords(g, cellof[a], x);
        for (int k = 2; k >= 0 && near_me; k--) near_me = spans_near(x[k], x[k], box[k], box[3 + k], g->n[k], sim->b.periodic[k]);
        if (near_me) d->near_list[m++] = (uint32_t)a;
    }
    *more = d->near_list;
    *nmore = m;
    return DEM_OK;
}

/* A point-to-point exchange of items of `size` bytes, out[r] to and in[r] from each process r:
 * its segments in the staging buffer, the sends first, then the receipts (*nout, *nin items in
 * all). 0 if the buffer cannot hold them. */
static int count_segments(struct sim_dist *d, const size_t *out, const size_t *in, size_t size, size_t *nout, size_t *nin)
{
    *nout = *nin = 0;
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        d->off[r] = *nout * size;
        d->len[r] = out[r] * size;
        d->roff[r] = *nin * size;
        d->rlen[r] = in[r] * size;
        *nout += out[r];
        *nin += in[r];
    }
    return stage_reserve(d, (*nout + *nin) * size);
}

/* Each process's counts out[r] of what it sends to process r, point to point: in[r], what r
 * sends here (both sides then know every message's size); in[me] = 0. */
static void exchange_counts(struct sim_dist *d, const size_t *out, size_t *in)
{
    size_t me = (size_t)d->comm.rank;
    for (size_t r = 0; r < (size_t)d->comm.size; r++) {
        d->off[r] = d->roff[r] = r * sizeof(size_t);
        d->len[r] = d->rlen[r] = r != me ? sizeof(size_t) : 0;
    }
    sendrecv(d, out, in);
    in[me] = 0;
}

/* The sends' offsets (count_segments') again after a packing moved them on: out[r] items of
 * size bytes to each process r. */
static void rewind_offsets(struct sim_dist *d, const size_t *out, size_t size)
{
    for (size_t r = 0, at = 0; r < (size_t)d->comm.size; r++) {
        d->off[r] = at * size;
        at += out[r];
    }
}

dem_status dem_dist_renumbered(dem_sim *sim, const size_t *from, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->partial) return DEM_OK; /* the whole state was there: nothing moves */
    size_t n = sim->p.n;
    uint32_t *f = realloc(d->from, (n ? n : 1) * sizeof *f);
    if (!f) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the order of %zu particles", n);
    d->from = f;
    for (size_t k = 0; k < n; k++) f[k] = (uint32_t)from[k];
    return DEM_OK;
}

/* The process that held particle a (by its number then) under the old cuts. */
static size_t old_owner(const struct sim_dist *d, size_t a)
{
    size_t b = a / PAIR_BLOCK, lo = 0, hi = (size_t)d->comm.size - 1;
    while (lo < hi) { /* the last process whose first block is at most b */
        size_t mid = (lo + hi + 1) / 2;
        if (d->old_bcut[mid] <= b) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The process that held particle k before the new cuts (and, after a re-sort, its new number). */
static size_t held_by(const struct sim_dist *d, size_t k) { return old_owner(d, d->from ? d->from[k] : k); }

/* Clump k's part of the clumps' migration: to each process that moves it now and did not
 * before, from the process that held its first member (which moved it), counted (mode 0),
 * packed (1) or unpacked (2); d->counts: to, then from each process (counts or byte offsets). */
static void migrate_clump(dem_sim *sim, size_t k, const field *f, size_t nf, int mode)
{
    struct sim_dist *d = sim->dist;
    const struct sim_clumps *cl = sim->cl;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, src = held_by(d, cl->pidx[cl->start[k]]);
    size_t *out = d->counts, *in = d->counts + K, per = fields_size(f, nf);
    for (size_t j = cl->start[k]; j < cl->start[k + 1]; j++) {
        size_t r = rank_of(d, cl->pidx[j]);
        if ((src != me && r != me) || !first_of_rank(sim, k, j) || clump_has(sim, k, r, held_by)) continue;
        if (mode == 0) {
            if (src == me) out[r]++;
            else in[src]++;
        } else if (mode == 1 && src == me) {
            char *at = d->stage + out[r];
            copy_entry(f, nf, k, &at, 1);
            out[r] += per;
        } else if (mode == 2 && r == me) {
            char *at = d->stage + in[src];
            copy_entry(f, nf, k, &at, 0);
            in[src] += per;
            dem_clumps_offsets(sim, k);
        }
    }
}

/* The clumps' part of a migration (a process moves those with a member of its own): each clump
 * that a process starts moving at the new cuts comes to it, point to point. */
static dem_status migrate_clumps(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const struct sim_clumps *cl = sim->cl;
    if (!cl) return DEM_OK;
    const field f[] = {CLUMP_FIELDS(cl)};
    size_t nf = sizeof f / sizeof f[0], per = fields_size(f, nf), K = (size_t)d->comm.size, nout, nin;
    size_t *out = d->counts, *in = d->counts + K;
    memset(d->counts, 0, 2 * K * sizeof *d->counts);
    for (size_t k = 0; k < cl->n; k++) migrate_clump(sim, k, f, nf, 0);
    if (!count_segments(d, out, in, per, &nout, &nin))
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the %zu clumps that change processes", nout + nin);
    for (size_t r = 0; r < K; r++) { /* the byte offsets where each process's go and come */
        out[r] = d->off[r];
        in[r] = nout * per + d->roff[r];
    }
    for (size_t k = 0; k < cl->n; k++) migrate_clump(sim, k, f, nf, 1);
    sendrecv(d, d->stage, d->stage + nout * per);
    for (size_t k = 0; k < cl->n; k++) migrate_clump(sim, k, f, nf, 2);
    d->stats.clumps_migrated += nin;
    return DEM_OK;
}

/* Particle k and its wall slots (the new layout's) copied to (out) or from the bytes at *at. */
static void copy_particle(const dem_sim *sim, const field *f, size_t nf, const field *w, size_t nw, size_t k, char **at, int out)
{
    copy_entry(f, nf, k, at, out);
    for (size_t q = sim->c.wstart[k]; q < sim->c.wstart[k + 1]; q++) copy_entry(w, nw, q, at, out);
}

/* After a rebuild or a re-sort that gathered only positions (dem_dist_for_rebuild): each particle
 * whose process changed comes whole from the one that held it, with its wall slots, particle by
 * particle in index order (a re-sort scatters them), point to point; then the clumps that a
 * process starts moving, and the new halo. */
static dem_status migrate(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const size_t *ws = sim->c.wstart;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, n = sim->p.n, nout, nin, moved = 0;
    d->partial = d->near = 0;
    const field f[] = {PARTICLE_FIELDS(sim)}, w[] = {SLOT_FIELDS(sim)};
    size_t nf = sizeof f / sizeof f[0], nw = sizeof w / sizeof w[0], per = fields_size(f, nf), slot = fields_size(w, nw);
    size_t *out = d->counts, *in = d->counts + K; /* bytes to and from each process */
    /* the particles this process may hand on: those it held, or after a re-sort any */
    size_t s0 = d->from ? 0 : block_particle(sim, d->old_bcut[me]), s1 = d->from ? n : block_particle(sim, d->old_bcut[me + 1]);
    for (size_t r = 0; r < K; r++) out[r] = in[r] = 0;
    for (size_t k = s0; k < s1; k++) {
        size_t now = rank_of(d, k);
        if (now != me && held_by(d, k) == me) out[now] += per + (ws[k + 1] - ws[k]) * slot;
    }
    for (size_t k = d->p0; k < d->p1; k++) {
        size_t was = held_by(d, k);
        if (was != me) {
            in[was] += per + (ws[k + 1] - ws[k]) * slot;
            moved++;
        }
    }
    if (!count_segments(d, out, in, 1, &nout, &nin)) {
        free(d->from);
        d->from = NULL;
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the %zu bytes of the particles that change process", nout + nin);
    }
    for (size_t k = s0; k < s1; k++) { /* by process, each's in index order */
        size_t now = rank_of(d, k);
        if (now == me || held_by(d, k) != me) continue;
        char *at = d->stage + d->off[now];
        copy_particle(sim, f, nf, w, nw, k, &at, 1);
        d->off[now] = (size_t)(at - d->stage);
    }
    rewind_offsets(d, out, 1);
    sendrecv(d, d->stage, d->stage + nout);
    for (size_t r = 0; r < K; r++) d->roff[r] += nout; /* where each process's receipts begin */
    for (size_t k = d->p0; k < d->p1; k++) {
        size_t was = held_by(d, k);
        if (was == me) continue;
        char *at = d->stage + d->roff[was];
        copy_particle(sim, f, nf, w, nw, k, &at, 0);
        d->roff[was] = (size_t)(at - d->stage);
    }
    d->stats.migrated += moved;
    dem_status st = migrate_clumps(sim, err);
    if (!st) exchange_halo(sim, 0);
    free(d->from);
    d->from = NULL;
    return st;
}

void dem_dist_keep_own(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    sim_store *c = &sim->c;
    /* the other processes' pairs: their owners keep them (a stale copy here may still carry the
     * flags of a contact its owner has lost since) */
    size_t p0 = c->pblk[d->b0], p1 = c->pblk[d->b1];
    for (size_t p = 0; p < c->npairs; p++)
        if (p < p0 || p >= p1) c->pairs[p].flags = 0;
    d->deliver = 1;
    /* the wall slots of the other processes' particles likewise, when only the positions were
     * gathered (their stale copies would be kept): each process carries its own into the new
     * layout, and they go with their particles to the processes that own them at the new cuts
     * (migrate) */
    if (d->partial) {
        size_t q0 = c->wstart[d->p0], q1 = c->wstart[d->p1];
        for (size_t q = 0; q < c->nwslots; q++)
            if (q < q0 || q >= q1) {
                c->wtouch[q] = 0;
                c->whist[q].flags = 0;
            }
    }
}

static size_t first_failed(dem_sim *sim, int ok);

/* A record as the processes exchange it: the record, its side record and, at the first build, a
 * frame's result (out where the record is placed in the list, kout before the merge). */
static size_t record_bytes(const sim_store *c)
{
    return sizeof *c->pairs + (c->roll ? sizeof *c->roll : 0) + (c->kout ? sizeof *c->out : 0);
}

static void record_pack(const sim_store *c, size_t p, int placed, char *at)
{
    memcpy(at, &c->pairs[p], sizeof *c->pairs);
    at += sizeof *c->pairs;
    if (c->roll) {
        memcpy(at, &c->roll[p], sizeof *c->roll);
        at += sizeof *c->roll;
    }
    if (c->kout) memcpy(at, placed ? &c->out[p] : &c->kout[p], sizeof *c->out);
}

static void record_unpack(sim_store *c, size_t q, int placed, const char *from)
{
    memcpy(&c->pairs[q], from, sizeof *c->pairs);
    from += sizeof *c->pairs;
    if (c->roll) {
        memcpy(&c->roll[q], from, sizeof *c->roll);
        from += sizeof *c->roll;
    }
    if (!c->kout) return;
    if (!placed) {
        memcpy(&c->kout[q], from, sizeof *c->kout);
        return;
    }
    memcpy(&c->out[q], from, sizeof *c->out); /* a frame's pair at the first build: its result is this step's */
    c->ptouch[q] = 1;
}

/* Each record of the list with a history (flags) to the processes of its i and j by rank(),
 * where they are others than this one: the counts first, then the records (with their places in
 * the list where placed, and their side records; at the first build, a frame's results too: out
 * where placed, kout before), packed by process, each's in list order, point to point. *in: what
 * arrived, *nin records of *rs bytes each, in the staging buffer. No room on a process fails
 * every process. */
static dem_status send_records(dem_sim *sim, particle_rank_fn rank, int placed, const char **in, size_t *nin, size_t *rs,
                               dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const sim_store *c = &sim->c;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, hs = placed ? sizeof(uint32_t) : 0, nout = 0;
    size_t *out = d->counts, *inc = d->counts + K; /* the counts' exchange: K words each way */
    *rs = hs + record_bytes(c);
    for (size_t r = 0; r < K; r++) out[r] = 0;
    for (size_t p = 0; p < c->npairs; p++) {
        if (!c->pairs[p].flags) continue;
        size_t ri = rank(d, c->pairs[p].i), rj = rank(d, c->pairs[p].j);
        if (ri != me) out[ri]++;
        if (rj != me && rj != ri) out[rj]++;
    }
    exchange_counts(d, out, inc);
    *nin = 0;
    for (size_t r = 0; r < K; r++) {
        nout += out[r];
        *nin += inc[r];
    }
    size_t failed = first_failed(sim, stage_reserve(d, (nout + *nin) * *rs)); /* (its exchange moves the offsets: the segments after) */
    if (failed < K) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the contacts the processes exchange, on process %zu of %zu", failed, K);
    (void)count_segments(d, out, inc, *rs, &nout, nin); /* the room is there */
    for (size_t p = 0; p < c->npairs; p++) {
        if (!c->pairs[p].flags) continue;
        size_t ri = rank(d, c->pairs[p].i), rj = rank(d, c->pairs[p].j), to[2] = {ri, rj};
        for (int e = 0; e < 2; e++) {
            if (to[e] == me || (e == 1 && rj == ri)) continue;
            char *at = d->stage + d->off[to[e]];
            uint32_t q = (uint32_t)p;
            if (placed) memcpy(at, &q, sizeof q);
            record_pack(c, p, placed, at + hs);
            d->off[to[e]] += *rs;
        }
    }
    rewind_offsets(d, out, *rs);
    sendrecv(d, d->stage, d->stage + nout * *rs);
    *in = d->stage + nout * *rs;
    return DEM_OK;
}

/* After a rebuild's merge (each process carried its own kept records into the new list: the
 * records with flags, new pairs having none) and the new cuts: each carried record to the
 * processes that now evaluate its pair, its i's and its j's, where they are others, with its
 * place in the list (send_records). */
static dem_status deliver_kept(dem_sim *sim, dem_error *err)
{
    sim_store *c = &sim->c;
    const char *from;
    size_t nin, rs;
    sim->dist->deliver = 0;
    dem_status st = send_records(sim, rank_of, 1, &from, &nin, &rs, err);
    for (size_t k = 0; !st && k < nin; k++, from += rs) {
        uint32_t q;
        memcpy(&q, from, sizeof q);
        record_unpack(c, q, 1, from + sizeof q);
    }
    return st;
}

static dem_status deliver_keys(dem_sim *sim, dem_status st, int all, dem_error *err);

dem_status dem_dist_gather_keys(dem_sim *sim, dem_status st, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (!d) return st;
    if (d->slim) return deliver_keys(sim, st, 0, err);
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, ks = dem_store_key_size();
    store_keys *keys = &sim->c.keys;
    /* this process's keys packed (about 4 bytes a key, not 20: dem_store_keys_pack) */
    uint8_t *packed = st ? NULL : malloc(dem_store_keys_pack_max(keys->n) + 1);
    if (!st && !packed) st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for the neighbour search's %zu keys", keys->n);
    size_t mine[4] = {st ? 0 : keys->n, (size_t)sim->nbr.tests, st != DEM_OK, st ? 0 : dem_store_keys_pack(keys, packed)};
    const size_t *all = dem_dist_gather_each(sim, mine, sizeof mine);
    size_t total = 0, before = 0, bytes = 0, failed = K;
    uint64_t tests = 0;
    for (size_t r = 0; r < K; r++) {
        if (r < me) before += all[4 * r];
        total += all[4 * r];
        tests += all[4 * r + 1];
        if (all[4 * r + 2] && failed == K) failed = r;
        d->off[r] = bytes;
        d->len[r] = all[4 * r + 3];
        d->counts[r] = all[4 * r]; /* each process's count of keys, for the unpacking */
        bytes += all[4 * r + 3];
    }
    if (!st && failed < K)
        st = dem_fail(err, DEM_ERR_LIMIT, "the neighbour search failed on process %zu of %zu (its message is in its standard error)", failed, K);
    if (!st) st = dem_store_keys_reserve(keys, total ? total : 1, err); /* on every process alike: a failure here is each one's */
    if (!st && !stage_reserve(d, bytes)) st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for the %zu bytes of the processes' keys", bytes);
    if (st) {
        free(packed);
        return st;
    }
    memcpy(d->stage + d->off[me], packed, d->len[me]);
    free(packed);
    allgather(d, d->stage);
    memmove((char *)keys->k + before * ks, keys->k, keys->n * ks);
    for (size_t r = 0, at = 0; r < K; r++) {
        if (r != me && !dem_store_keys_unpack(keys, at, d->counts[r], (const uint8_t *)d->stage + d->off[r], d->len[r]))
            return dem_fail(err, DEM_ERR_LIMIT, "internal error: process %zu's %zu keys do not unpack from its %zu bytes", r, d->counts[r], d->len[r]);
        at += d->counts[r];
    }
    keys->n = total;
    sim->nbr.tests = tests;
    return DEM_OK;
}

/* ---- the slim store (struct sim_dist) ----------------------------------------------------- */

/* The first process whose ok is 0 (every process's, exact), or K: a failure on one process
 * (memory) fails every process at the same point instead of leaving the others waiting. */
static size_t first_failed(dem_sim *sim, int ok)
{
    size_t mine = ok != 0, K = (size_t)sim->dist->comm.size;
    const size_t *each = dem_dist_gather_each(sim, &mine, sizeof mine);
    for (size_t r = 0; r < K; r++)
        if (!each[r]) return r;
    return K;
}

dem_status dem_dist_slim(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->local || d->slim) return DEM_OK;
    sim_store *c = &sim->c;
    size_t q0 = c->pblk[d->b0], q1 = c->pblk[d->b1], nf = d->nforeign, n = nf + (q1 - q0);
    uint32_t *pick = malloc((n ? n : 1) * sizeof *pick);
    size_t failed = first_failed(sim, pick != NULL);
    if (failed < (size_t)d->comm.size) {
        free(pick);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the pair list of process %zu of %d", failed, d->comm.size);
    }
    for (size_t k = 0; k < nf; k++) pick[k] = d->foreign[k]; /* before the own ones: their i is before p0 */
    for (size_t p = q0; p < q1; p++) pick[nf + p - q0] = (uint32_t)p;
    for (size_t b = d->b0; b < d->b1; b++) /* the guard's worst pair of each own block, at its new place */
        if (sim->g.bworst_pair && sim->g.bworst_pair[b] >= q0) sim->g.bworst_pair[b] = sim->g.bworst_pair[b] - q0 + nf;
    dem_status st = dem_store_select(sim, pick, n, err);
    free(pick);
    if (st) return st;
    for (size_t k = 0; k < nf; k++) d->foreign[k] = (uint32_t)k;
    d->slim = 1;
    return DEM_OK;
}

/* The process of particle a at the cuts deliver_keys chose (next_bcut). */
static size_t next_rank(const struct sim_dist *d, size_t a)
{
    size_t b = a / PAIR_BLOCK, lo = 0, hi = (size_t)d->comm.size; /* the last r with next_bcut[r] <= b */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->next_bcut[mid] <= b) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The new cuts from the blocks' counts of pairs: this process's blocks' counts (its keys, i in
 * its particles) to every process, 4 bytes a block; every process then holds the whole list's
 * bounds (gpblk) and cuts them as one list (the same cuts as a whole list's). */
static dem_status cut_from_counts(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    const store_keys *keys = &sim->c.keys;
    size_t nb = sim->c.nblk, K = (size_t)d->comm.size;
    if (nb + 1 > d->cap_gpblk) {
        size_t *g = realloc(d->gpblk, (nb + 1) * sizeof *g);
        if (g) {
            d->gpblk = g;
            d->cap_gpblk = nb + 1;
        }
    }
    if (!d->next_bcut) d->next_bcut = calloc(K + 1, sizeof *d->next_bcut);
    int ok = d->cap_gpblk >= nb + 1 && d->next_bcut && stage_reserve(d, nb * sizeof(uint32_t));
    size_t failed = first_failed(sim, ok);
    if (failed < K) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the blocks' counts of pairs on process %zu of %zu", failed, K);
    uint32_t *cnt = (uint32_t *)(void *)d->stage;
    for (size_t b = d->b0; b < d->b1; b++) cnt[b] = 0;
    for (size_t k = 0; k < keys->n; k++) cnt[keys->k[k].i / PAIR_BLOCK]++;
    for (size_t r = 0; r < K; r++) {
        d->off[r] = d->bcut[r] * sizeof *cnt;
        d->len[r] = (d->bcut[r + 1] - d->bcut[r]) * sizeof *cnt;
    }
    allgather(d, d->stage);
    d->gpblk[0] = 0;
    for (size_t b = 0; b < nb; b++) d->gpblk[b + 1] = d->gpblk[b] + cnt[b];
    cut_blocks(sim, d->gpblk, d->next_bcut);
    d->have_next = 1;
    return DEM_OK;
}

/* The keys of this process's scan (i its own at the old cuts) to the processes of their i and j
 * at the new ones, packed (dem_store_keys_pack), point to point; the keys received, with this
 * process's own, in process order (the order of one process's scan). */
static dem_status route_keys(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    store_keys *keys = &sim->c.keys;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, nk = keys->n;
    size_t *outk = d->counts, *ink = outk + K, *outb = ink + K, *inb = outb + K, *at = inb + K; /* 6K + 1 words */
    store_key *routed = NULL;
    uint8_t *packed = NULL;
    size_t total = 0, bytes = 0, nin = 0, inbytes = 0;
    for (size_t r = 0; r < K; r++) outk[r] = 0;
    for (size_t k = 0; k < nk; k++) {
        size_t ri = next_rank(d, keys->k[k].i), rj = next_rank(d, keys->k[k].j);
        outk[ri]++;
        if (rj != ri) outk[rj]++;
    }
    for (size_t r = 0; r < K; r++) total += outk[r];
    routed = malloc((total ? total : 1) * sizeof *routed); /* by process, each's in scan order */
    packed = malloc(dem_store_keys_pack_max(total) + 1);
    int ok = routed && packed;
    if (ok) {
        for (size_t r = 0, a = 0; r <= K; r++) {
            at[r] = a;
            if (r < K) a += outk[r];
        }
        for (size_t k = 0; k < nk; k++) {
            size_t ri = next_rank(d, keys->k[k].i), rj = next_rank(d, keys->k[k].j);
            routed[at[ri]++] = keys->k[k];
            if (rj != ri) routed[at[rj]++] = keys->k[k];
        }
        for (size_t r = 0, a = 0; r < K; r++) { /* each process's packed apart */
            store_keys seg = {routed + a, outk[r], outk[r]};
            outb[r] = r == me ? 0 : dem_store_keys_pack(&seg, packed + bytes);
            bytes += outb[r];
            a += outk[r];
        }
    } else { /* nothing sent: the others learn of the failure below */
        for (size_t r = 0; r < K; r++) outk[r] = outb[r] = 0;
    }
    size_t mineme = outk[me];
    outk[me] = 0; /* not sent */
    exchange_counts(d, outk, ink);
    exchange_counts(d, outb, inb);
    for (size_t r = 0; r < K; r++) {
        nin += ink[r];
        inbytes += inb[r];
    }
    if (ok) ok = !dem_store_keys_reserve(keys, nin + mineme ? nin + mineme : 1, err) && stage_reserve(d, inbytes);
    size_t failed = first_failed(sim, ok);
    if (failed < K) {
        free(routed);
        free(packed);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the rebuild's keys on process %zu of %zu", failed, K);
    }
    for (size_t r = 0, ob = 0, ib = 0; r < K; r++) {
        d->off[r] = ob;
        d->len[r] = outb[r];
        d->roff[r] = ib;
        d->rlen[r] = inb[r];
        ob += outb[r];
        ib += inb[r];
    }
    sendrecv(d, packed, d->stage);
    dem_status st = DEM_OK;
    size_t a = 0, mine_at = 0;
    for (size_t r = 0; r < me; r++) mine_at += outk[r];
    for (size_t r = 0, ib = 0; r < K && !st; r++) {
        if (r == me) {
            memcpy(keys->k + a, routed + mine_at, mineme * sizeof *routed);
            a += mineme;
            continue;
        }
        if (!dem_store_keys_unpack(keys, a, ink[r], (const uint8_t *)d->stage + ib, inb[r]))
            st = dem_fail(err, DEM_ERR_LIMIT, "internal error: process %zu's %zu keys do not unpack from its %zu bytes", r, ink[r], inb[r]);
        a += ink[r];
        ib += inb[r];
    }
    keys->n = a;
    free(routed);
    free(packed);
    return st;
}

/* This process's kept records (dem_store_begin_pairs: its own pairs' with a history, in key
 * order) to the processes of their i and j at the new cuts; those that stay here and those
 * received, in key order again (dem_store_sort_kept): what dem_store_end_pairs merges. */
static dem_status route_kept(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    sim_store *c = &sim->c;
    size_t me = (size_t)d->comm.rank, q = 0, nin, rs;
    const char *from;
    dem_status st = send_records(sim, next_rank, 0, &from, &nin, &rs, err); /* every kept record has flags */
    if (st) return st;
    for (size_t p = 0; p < c->npairs; p++) { /* those that stay, forwards in place */
        if (next_rank(d, c->pairs[p].i) != me && next_rank(d, c->pairs[p].j) != me) continue;
        if (q != p) dem_store_move_kept(c, q, p);
        q++;
    }
    size_t failed = first_failed(sim, !dem_store_reserve_pairs(sim, q + nin, err));
    if (failed < (size_t)d->comm.size)
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the kept contacts on process %zu of %d", failed, d->comm.size);
    for (size_t k = 0; k < nin; k++, from += rs, q++) record_unpack(c, q, 0, from);
    c->npairs = q;
    return dem_store_sort_kept(sim, err);
}

/* The slim store's rebuild after the scan (dem_dist_gather_keys): the scans' statuses and tests
 * (all: every process scanned every particle, the hierarchical grid: its tests are the whole's,
 * and it keeps its own particles' keys), the new cuts, the keys and the kept records to the
 * processes that evaluate their pairs at them. */
static dem_status deliver_keys(dem_sim *sim, dem_status st, int all, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    store_keys *keys = &sim->c.keys;
    size_t K = (size_t)d->comm.size;
    if (all && !st) { /* the keys whose i is this process's (at the old cuts) */
        size_t n = 0;
        for (size_t k = 0; k < keys->n; k++)
            if (keys->k[k].i >= d->p0 && keys->k[k].i < d->p1) keys->k[n++] = keys->k[k];
        keys->n = n;
    }
    size_t mine[2] = {(size_t)sim->nbr.tests, st != DEM_OK};
    const size_t *each = dem_dist_gather_each(sim, mine, sizeof mine);
    uint64_t tests = 0;
    size_t failed = K;
    for (size_t r = 0; r < K; r++) {
        tests += each[2 * r];
        if (each[2 * r + 1] && failed == K) failed = r;
    }
    if (!st && failed < K)
        st = dem_fail(err, DEM_ERR_LIMIT, "the neighbour search failed on process %zu of %zu (its message is in its standard error)", failed, K);
    if (st) return st;
    if (!all) sim->nbr.tests = tests;
    d->deliver = 0; /* the kept records go with the keys, before the merge */
    if ((st = cut_from_counts(sim, err)) || (st = route_keys(sim, err))) return st;
    return route_kept(sim, err);
}

dem_status dem_dist_scanned_all(dem_sim *sim, dem_error *err)
{
    if (!sim->dist || !sim->dist->slim) return DEM_OK;
    return deliver_keys(sim, DEM_OK, 1, err);
}

/* One array of the touching pairs' (elem bytes an element, base this process's, dst the frame
 * list's) to the frame list at every process: each process's own at its place in the list, the
 * others' received there by the group's gather (no staging). */
static void gather_touching_array(dem_sim *sim, const void *base, void *dst, size_t elem, size_t before)
{
    struct sim_dist *d = sim->dist;
    const sim_store *c = &sim->c;
    size_t K = (size_t)d->comm.size, q0 = c->pblk[d->b0], q1 = c->pblk[d->b1];
    char *at = (char *)dst + before * elem; /* this process's, in place */
    for (size_t p = q0; p < q1; p++)
        if (c->ptouch[p]) {
            memcpy(at, (const char *)base + p * elem, elem);
            at += elem;
        }
    for (size_t r = 0, a = 0; r < K; r++) { /* each process's segment at its place in the list */
        d->off[r] = d->roff[r] = a * elem;
        d->len[r] = d->rlen[r] = d->counts[3 * r] * elem;
        a += d->counts[3 * r];
    }
    allgather(d, dst);
}

/* The touching pairs of every process, with their results and side records, into a list of them
 * all at every process, in list order, swapped in for this process's own (dem_dist_frame_done
 * swaps it back). */
static dem_status gather_touching(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    sim_store *c = &sim->c;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    size_t q0 = c->pblk[d->b0], q1 = c->pblk[d->b1], n = 0;
    for (size_t p = q0; p < q1; p++) n += c->ptouch[p] != 0;
    share_words(d, &n, 1);
    size_t total = 0, before = 0;
    for (size_t r = 0; r < K; r++) {
        if (r < me) before += d->counts[3 * r];
        total += d->counts[3 * r];
    }
    sim_store *f = &d->frame;
    dem_store_free_pairs(f);
    size_t np = sim->p.n + 1, cap = total ? total : 1;
    f->pairs = malloc(cap * sizeof *f->pairs);
    f->out = aligned_alloc(64, cap * sizeof *f->out);
    f->ptouch = malloc(cap);
    f->roll = c->roll ? malloc(cap * sizeof *f->roll) : NULL;
    f->jadj = malloc(cap * sizeof *f->jadj);
    f->jadj_start = malloc(np * sizeof *f->jadj_start);
    f->istart = malloc(np * sizeof *f->istart);
    f->pblk = malloc((c->nblk + 1) * sizeof *f->pblk);
    f->cap_pairs = f->cap_out = f->cap_adj = cap;
    int ok = f->pairs && f->out && f->ptouch && (f->roll || !c->roll) && f->jadj && f->jadj_start && f->istart && f->pblk;
    size_t failed = first_failed(sim, ok);
    if (failed < K) {
        dem_store_free_pairs(f);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a frame's contacts on process %zu of %zu", failed, K);
    }
    gather_touching_array(sim, c->pairs, f->pairs, sizeof *c->pairs, before);
    gather_touching_array(sim, c->out, f->out, sizeof *c->out, before);
    if (c->roll) gather_touching_array(sim, c->roll, f->roll, sizeof *c->roll, before);
    memset(f->ptouch, 1, total);
    f->npairs = total;
    dem_store_swap_pairs(c, f);
    d->framed = 1;
    dem_status st = dem_store_index(sim, err);
    if (st) pairs_back(sim);
    return st;
}

/* This process's own pairs again, after a frame's (gather_touching). */
static void pairs_back(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->framed) return;
    dem_store_swap_pairs(&sim->c, &d->frame);
    dem_store_free_pairs(&d->frame);
    d->framed = 0;
}

void dem_dist_frame_done(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    if (d->comm.rank == 0 && d->local && d->stale) drop_stale(sim); /* the state sent to it for the frame */
    pairs_back(sim);
    if (d->local) stage_fit(d); /* the room its touching pairs took to be sent */
}

/* ---- a frame's particles and pair contacts, streamed to process 0 --------------------------
 * The particles: each process's own are one range of the frame's order, which process 0 pulls
 * from it a chunk at a time as the writer reads them (4 MiB a chunk). The pair contacts: each
 * process streams the touching pairs of its blocks (each pair is one process's) in the
 * frame's order: by the smaller id, then the other, then the image shift (dem_store_pairs_open).
 * Process 0 merges the streams by that key, holding one chunk of each; when a process's chunk is
 * used up and it has more, process 0 pulls the next: a round, in which process 0's list of the
 * processes it pulls from goes to every process, then each of those sends its chunk point to
 * point. A round with an empty list ends the frame. Process 0 thus holds K chunks (at most 4 MiB
 * in all, at least 16 contacts each), not every touching pair; the bytes are those of the pairs
 * gathered whole and sorted (dem_store_write's order). */
#define MERGE_BYTES (4u << 20)

struct frame_merge {
    pair_stream *own;       /* this process's touching pairs, in the frame's order */
    size_t chunk;           /* contacts a pull brings */
    dem_contact *buf;       /* process 0: a chunk a process; elsewhere: the chunk to send */
    size_t *have, *at;      /* process 0: each process's chunk: its contacts, the next one to merge */
    uint64_t *left;         /* process 0: each process's contacts not yet pulled */
    unsigned char *pull;    /* a round's list, process 0's (PULL_BYTES: below) */
    int pairs_done, ended;
    store_stream *walls;    /* process 0: the wall contacts, after the pairs */
    dem_contact_source wsrc;
    uint64_t wall_count;
    /* the particles (streams_particles): each process's own, in the frame's order (the list's,
     * so each process's are one range of it), pulled a chunk at a time by process 0 */
    int particles;
    size_t pchunk;          /* particles a pull brings */
    dem_particle *pbuf;     /* process 0: the chunk received; elsewhere: the chunk to send */
    size_t pfirst, pn;      /* process 0: pbuf holds particles [pfirst, pfirst + pn) */
};

/* A round's list (pull, K flags and a word): the processes that send their next chunk of pairs
 * (PULL_PAIRS); or, process 0's own flag PULL_PARTICLES, the one flagged sends its particles from
 * the word's index on (the reader may read them more than once: the energy's reference does). */
enum { PULL_PAIRS = 1, PULL_PARTICLES = 2 };
#define PULL_BYTES(K) ((K) + sizeof(uint64_t))

static void merge_free(struct sim_dist *d)
{
    struct frame_merge *m = d->merge;
    if (!m) return;
    dem_store_pairs_close(m->own);
    dem_store_stream_close(m->walls);
    free(m->buf);
    free(m->have);
    free(m->at);
    free(m->left);
    free(m->pull);
    free(m->pbuf);
    free(m);
    d->merge = NULL;
}

/* The particles of process r's range [*p0, *p1) at the current cuts. */
static void owned_range(const dem_sim *sim, size_t r, size_t *p0, size_t *p1)
{
    *p0 = block_particle(sim, sim->dist->bcut[r]);
    *p1 = block_particle(sim, sim->dist->bcut[r + 1]);
}

/* A particles' round (its list: the one process flagged sends): that process's next chunk of its
 * own particles' frame records to process 0, from where it left off. */
static void particle_round(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    struct frame_merge *m = d->merge;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, from = K;
    for (size_t r = 1; r < K; r++)
        if (m->pull[r]) from = r;
    uint64_t at;
    memcpy(&at, m->pull + K, sizeof at);
    size_t p0, p1, n = 0;
    if (from < K) {
        owned_range(sim, from, &p0, &p1);
        if ((me == from || me == 0) && at >= p0 && at < p1) n = p1 - at < m->pchunk ? p1 - at : m->pchunk; /* both sides know it */
    }
    if (me == from)
        for (size_t k = 0; k < n; k++) dem_particle_record(sim, at + k, &m->pbuf[k]);
    for (size_t r = 0; r < K; r++) {
        d->off[r] = d->roff[r] = 0;
        d->len[r] = me == from && r == 0 ? n * sizeof *m->pbuf : 0;
        d->rlen[r] = me == 0 && r == from ? n * sizeof *m->pbuf : 0;
    }
    sendrecv(d, m->pbuf, m->pbuf);
    if (me == 0) {
        m->pfirst = at;
        m->pn = n;
    }
    memset(m->pull, 0, PULL_BYTES(K));
}

/* A round: process 0's list to every process; each process on it sends its next chunk to
 * process 0 (every process calls it; returns whether the list was empty: the frame's end). */
static int merge_round(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    struct frame_merge *m = d->merge;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, any = 0;
    for (size_t r = 0; r < K; r++) {
        d->off[r] = 0;
        d->len[r] = r == 0 ? PULL_BYTES(K) : 0;
    }
    allgather(d, m->pull);
    for (size_t r = 1; r < K; r++) any |= m->pull[r];
    if (!any) return 1;
    if (m->pull[0] == PULL_PARTICLES) { /* process 0's own flag: a particles' round */
        particle_round(sim);
        return 0;
    }
    size_t mine = 0;
    if (me != 0 && m->pull[me]) {
        mine = dem_store_pairs_left(m->own) < m->chunk ? dem_store_pairs_left(m->own) : m->chunk;
        dem_store_pairs_take(m->own, m->buf, mine);
    }
    for (size_t r = 0; r < K; r++) {
        d->off[r] = d->roff[r] = 0;
        d->len[r] = me != 0 && r == 0 ? mine * sizeof *m->buf : 0;
        d->rlen[r] = 0;
        if (me == 0 && m->pull[r]) {
            size_t n = m->left[r] < m->chunk ? (size_t)m->left[r] : m->chunk;
            d->roff[r] = r * m->chunk * sizeof *m->buf;
            d->rlen[r] = n * sizeof *m->buf;
            m->have[r] = n;
            m->at[r] = 0;
            m->left[r] -= n;
        }
    }
    sendrecv(d, m->buf, m->buf);
    memset(m->pull, 0, PULL_BYTES(K));
    return 0;
}

/* The frame's order of two pair contacts (dem_store_pairs_open's). */
static int pair_before(const dem_contact *a, const dem_contact *b)
{
    if (a->i != b->i) return a->i < b->i;
    if (a->j != b->j) return a->j < b->j;
    for (int k = 0; k < 3; k++)
        if (a->shift[k] != b->shift[k]) return a->shift[k] < b->shift[k];
    return 0;
}

/* dem_contact_source at process 0: the least head of the processes' chunks, each refilled first. */
static dem_status merge_next(void *ctx, dem_contact *c, dem_error *err)
{
    dem_sim *sim = ctx;
    struct sim_dist *d = sim->dist;
    struct frame_merge *m = d->merge;
    size_t K = (size_t)d->comm.size;
    if (m->pairs_done) return m->wsrc.next(m->wsrc.ctx, c, err);
    int round = 0;
    for (size_t r = 0; r < K; r++) {
        if (m->at[r] < m->have[r] || m->left[r] == 0) continue;
        if (r == 0) { /* its own: no message */
            size_t n = m->left[0] < m->chunk ? (size_t)m->left[0] : m->chunk;
            dem_store_pairs_take(m->own, m->buf, n);
            m->have[0] = n;
            m->at[0] = 0;
            m->left[0] -= n;
        } else {
            m->pull[r] = PULL_PAIRS;
            round = 1;
        }
    }
    if (round) merge_round(sim);
    size_t best = K;
    for (size_t r = 0; r < K; r++)
        if (m->at[r] < m->have[r] &&
            (best == K || pair_before(&m->buf[r * m->chunk + m->at[r]], &m->buf[best * m->chunk + m->at[best]])))
            best = r;
    if (best == K) {
        m->pairs_done = 1;
        return m->wsrc.next(m->wsrc.ctx, c, err);
    }
    *c = m->buf[best * m->chunk + m->at[best]++];
    return DEM_OK;
}

/* dem_particle_source at process 0: its own particles' records from its state, the others' from
 * the chunks their processes send, pulled in the frame's order (the writer reads it front to
 * back; each process's particles are one range of it). */
static dem_status merge_particles(void *ctx, size_t first, size_t n, dem_particle *out, dem_error *err)
{
    dem_sim *sim = ctx;
    struct sim_dist *d = sim->dist;
    struct frame_merge *m = d->merge;
    size_t K = (size_t)d->comm.size;
    for (size_t k = 0; k < n; k++) {
        size_t a = first + k, p0 = 0, p1 = 0;
        if (!m->particles || (a >= d->p0 && a < d->p1)) { /* held here */
            dem_particle_record(sim, a, &out[k]);
            continue;
        }
        if (a < m->pfirst || a >= m->pfirst + m->pn) {
            size_t r = 1;
            for (; r < K; r++) {
                owned_range(sim, r, &p0, &p1);
                if (a < p1) break;
            }
            if (r == K || a < p0) return dem_fail(err, DEM_ERR_VALUE, "internal error: particle %zu of the frame has no process", a);
            uint64_t at = a;
            m->pull[0] = PULL_PARTICLES;
            m->pull[r] = 1;
            memcpy(m->pull + K, &at, sizeof at);
            merge_round(sim);
            if (a < m->pfirst || a >= m->pfirst + m->pn)
                return dem_fail(err, DEM_ERR_VALUE, "internal error: process %zu did not send particle %zu", r, a);
        }
        out[k] = m->pbuf[a - m->pfirst];
    }
    return DEM_OK;
}

dem_status dem_dist_frame_sources(dem_sim *sim, dem_particle_source *psrc, dem_contact_source *src, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    sim_store *c = &sim->c;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    merge_free(d);
    struct frame_merge *m = calloc(1, sizeof *m);
    size_t chunk = MERGE_BYTES / K / sizeof(dem_contact);
    chunk = d->comm.frame_chunk > 0 ? (size_t)d->comm.frame_chunk : chunk < 16 ? 16 : chunk;
    int ok = m && dem_store_pairs_open(sim, c->pblk[d->b0], c->pblk[d->b1], &m->own, err) == DEM_OK;
    if (ok) {
        d->merge = m;
        m->chunk = chunk;
        m->pull = calloc(PULL_BYTES(K), 1);
        m->buf = malloc((me == 0 ? K : 1) * chunk * sizeof *m->buf);
        m->particles = d->local && streams_particles(sim); /* else every process holds every particle current */
        m->pchunk = d->comm.frame_chunk > 0 ? (size_t)d->comm.frame_chunk : MERGE_BYTES / sizeof(dem_particle);
        m->pbuf = m->particles ? malloc(m->pchunk * sizeof *m->pbuf) : NULL;
        ok = m->pull && m->buf && (m->pbuf || !m->particles);
        if (ok && me == 0) {
            m->have = calloc(K, sizeof *m->have);
            m->at = calloc(K, sizeof *m->at);
            m->left = calloc(K, sizeof *m->left);
            ok = m->have && m->at && m->left && dem_store_stream_open_walls(sim, &m->walls, &m->wsrc, err) == DEM_OK;
        }
    } else {
        free(m);
    }
    size_t n = ok ? dem_store_pairs_left(m->own) : 0;
    size_t failed = first_failed(sim, ok);
    if (failed < K) {
        merge_free(d);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a frame's contacts on process %zu of %zu", failed, K);
    }
    share_words(d, &n, 1);
    if (me != 0) { /* the rounds, until process 0 ends them */
        while (!merge_round(sim)) {
        }
        m->ended = 1;
        return DEM_OK;
    }
    uint64_t total = 0;
    for (size_t r = 0; r < K; r++) total += m->left[r] = d->counts[3 * r];
    m->wall_count = m->wsrc.count;
    *src = m->wsrc;
    src->count = (size_t)total + m->wall_count;
    src->next = merge_next;
    src->ctx = sim;
    *psrc = (dem_particle_source){sim->p.n, merge_particles, sim};
    return DEM_OK;
}

void dem_dist_frame_sources_end(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->merge) return;
    struct frame_merge *m = d->merge;
    if (d->comm.rank == 0 && !m->ended) {
        memset(m->pull, 0, PULL_BYTES((size_t)d->comm.size));
        merge_round(sim); /* the empty list: the others return */
    }
    merge_free(d);
}

dem_status dem_dist_every_pair(dem_sim *sim, dem_error *err)
{
    struct sim_dist *d = sim->dist;
    if (!d) return DEM_OK;
    if (d->slim) return gather_touching(sim, err);
    dem_dist_share_pairs(sim, 1);
    return DEM_OK;
}

/* A chain's hand-over from process r to r + 1, point to point (every process calls it; only
 * those two exchange): r's running sum acc (len bytes) replaces r + 1's. */
static void hand_on(struct sim_dist *d, void *acc, size_t len, size_t r)
{
    size_t me = (size_t)d->comm.rank;
    for (size_t k = 0; k < (size_t)d->comm.size; k++) {
        d->off[k] = d->roff[k] = 0;
        d->len[k] = me == r && k == r + 1 ? len : 0;
        d->rlen[k] = me == r + 1 && k == r ? len : 0;
    }
    sendrecv(d, acc, acc);
}

/* A chain's end: the last process's sum to every process. */
static void hand_out(struct sim_dist *d, void *acc, size_t len)
{
    size_t last = (size_t)d->comm.size - 1;
    for (size_t k = 0; k <= last; k++) {
        d->off[k] = 0;
        d->len[k] = k == last ? len : 0;
    }
    allgather(d, acc);
}

/* A chain (dem_dist_chain): the hand-overs before this process's turn, which leave it the sum
 * of the processes before it, and those after, which hand its sum on and give every process the
 * last one's: K - 1 messages and one broadcast in all. */
static void chain_before(struct sim_dist *d, void *acc, size_t len)
{
    for (size_t r = 0; r < (size_t)d->comm.rank; r++) hand_on(d, acc, len, r);
}

static void chain_after(struct sim_dist *d, void *acc, size_t len)
{
    for (size_t r = (size_t)d->comm.rank; r + 1 < (size_t)d->comm.size; r++) hand_on(d, acc, len, r);
    hand_out(d, acc, len);
    d->stats.chains++;
}

static size_t bound_block(const dem_sim *sim, size_t r) { return sim->dist->bcut[r]; }

/* A chain over what each process owns of an order, [at(r), at(r + 1)) for process r; in one
 * process, over [0, all). */
static void chain_owned(dem_sim *sim, void *acc, size_t len, dist_run_fn run, bound_fn at, size_t all)
{
    struct sim_dist *d = sim->dist;
    if (!d) {
        run(sim, 0, all, acc);
        return;
    }
    size_t me = (size_t)d->comm.rank;
    chain_before(d, acc, len);
    run(sim, at(sim, me), at(sim, me + 1), acc);
    chain_after(d, acc, len);
}

void dem_dist_chain_pairs(dem_sim *sim, void *acc, size_t len, dist_run_fn run)
{
    chain_owned(sim, acc, len, run, bound_pair, sim->c.npairs);
}

void dem_dist_chain_blocks(dem_sim *sim, void *acc, size_t len, dist_run_fn run)
{
    chain_owned(sim, acc, len, run, bound_block, sim->c.nblk);
}

void dem_dist_chain(dem_sim *sim, void *acc, size_t len, dist_chain_fn run)
{
    struct sim_dist *d = sim->dist;
    if (!d || !d->local) {
        run(sim, acc);
        return;
    }
    chain_before(d, acc, len);
    run(sim, acc);
    chain_after(d, acc, len);
}

/* Whether clump k's members that this process owns (mine) or all of them touch something. */
static int members_touch(const dem_sim *sim, size_t k, int mine, dist_touch_fn touches)
{
    const struct sim_clumps *cl = sim->cl;
    for (size_t j = cl->start[k]; j < cl->start[k + 1]; j++)
        if ((!mine || rank_of(sim->dist, cl->pidx[j]) == (size_t)sim->dist->comm.rank) && touches(sim, cl->pidx[j])) return 1;
    return 0;
}

size_t dem_dist_clumps_flying(dem_sim *sim, dist_touch_fn touches)
{
    struct sim_dist *d = sim->dist;
    const struct sim_clumps *cl = sim->cl;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank, na = d->nclumps_across, n = 0;
    for (size_t e = 0; e < d->nclumps_own; e++) {
        size_t k = d->clumps_own[e];
        if (dem_v3_norm2(cl->f[k]) != 0.0) n += !members_touch(sim, k, 0, touches);
    }
    /* the clumps across processes: whether this process's members touch, from every process (a
     * byte each); the process of its first member, which moves it, counts one that flies */
    uint8_t *flag = (uint8_t *)d->stage;
    for (size_t e = 0; e < na; e++) flag[me * na + e] = (uint8_t)members_touch(sim, d->clumps_across[e], 1, touches);
    for (size_t r = 0; r < K; r++) {
        d->off[r] = r * na;
        d->len[r] = na;
    }
    allgather(d, d->stage);
    for (size_t e = 0; e < na; e++) {
        if (rank_of(d, cl->pidx[cl->start[d->clumps_across[e]]]) != me) continue;
        int t = 0;
        for (size_t r = 0; r < K && !t; r++) t = flag[r * na + e];
        n += !t && dem_v3_norm2(cl->f[d->clumps_across[e]]) != 0.0;
    }
    return n;
}

const void *dem_dist_gather_each(dem_sim *sim, const void *mine, size_t len)
{
    struct sim_dist *d = sim->dist;
    if (!d) return mine;
    size_t K = (size_t)d->comm.size, me = (size_t)d->comm.rank;
    for (size_t r = 0; r < K; r++) {
        d->off[r] = r * len;
        d->len[r] = len;
    }
    memcpy(d->each + me * len, mine, len);
    allgather(d, d->each);
    return d->each;
}

void dem_dist_sum_counts(dem_sim *sim, size_t *w, size_t n)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    share_words(d, w, n);
    for (size_t k = 0; k < n; k++) {
        w[k] = 0;
        for (size_t r = 0; r < (size_t)d->comm.size; r++) w[k] += d->counts[3 * r + k];
    }
}

void dem_dist_free(dem_sim *sim)
{
    struct sim_dist *d = sim->dist;
    if (!d) return;
    merge_free(d);
    free(d->bcut);
    free(d->old_bcut);
    free(d->from);
    free(d->foreign);
    free(d->off);
    free(d->len);
    free(d->counts);
    free(d->stage);
    free(d->send);
    free(d->recv);
    free(d->send_at);
    free(d->recv_at);
    free(d->roff);
    free(d->rlen);
    free(d->keys);
    free(d->msend);
    free(d->mrecv);
    free(d->msend_at);
    free(d->mrecv_at);
    free(d->clumps_moved);
    free(d->near_list);
    free(d->held);
    free(d->held_counts);
    free(d->clumps_own);
    free(d->clumps_across);
    free(d->blk_rank);
    free(d->each);
    free(d->next_bcut);
    free(d->gpblk);
    pairs_back(sim);
    free(d);
    sim->dist = NULL;
}

static dem_status dist_new(dem_sim *sim, const dem_comm *comm, dem_error *err);

dem_status dem_sim_set_comm(dem_sim *sim, const dem_comm *comm, dem_error *err)
{
    dem_status st = dist_new(sim, comm, err);
    if (st || !sim->dist) return st;
    if ((st = dem_dist_decompose(sim, err))) dem_dist_free(sim);
    return st;
}

/* The first scan's cuts: equal counts of blocks (its keys' counts then cut the list, as at any
 * rebuild of the slim store); process r's first block. */
static size_t join_cut(size_t nb, size_t r, size_t K) { return nb * r / K; }

/* Process r's particles [*p0, *p1) of n at the join's cuts (a function of n, r and K alone, so
 * that a reader knows it before any sim exists: dem_group_contacts_new). */
static void join_share(size_t n, size_t r, size_t K, size_t *p0, size_t *p1)
{
    size_t nb = (n + PAIR_BLOCK - 1) / PAIR_BLOCK, a = join_cut(nb, r, K) * PAIR_BLOCK, b = join_cut(nb, r + 1, K) * PAIR_BLOCK;
    *p0 = a < n ? a : n;
    *p1 = b < n ? b : n;
}

void dem_dist_join_range(const dem_sim *sim, const dem_comm *comm, size_t *p0, size_t *p1)
{
    if (!comm || comm->size <= 1 || comm->rank < 0 || comm->rank >= comm->size) return; /* dem_dist_join says what is wrong */
    join_share(sim->p.n, (size_t)comm->rank, (size_t)comm->size, p0, p1);
}

dem_status dem_dist_agree(const dem_comm *comm, dem_status mine, dem_error *err)
{
    if (!comm || comm->size <= 1 || !comm->allgather || comm->rank < 0 || comm->rank >= comm->size) return mine;
    size_t K = (size_t)comm->size, me = (size_t)comm->rank;
    int *all = calloc(K, sizeof *all);
    size_t *off = calloc(K, sizeof *off), *len = calloc(K, sizeof *len);
    if (!all || !off || !len) { /* K words: the others then wait for this process until the job ends */
        free(all); free(off); free(len);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the statuses of %zu processes", K);
    }
    for (size_t r = 0; r < K; r++) {
        off[r] = r * sizeof *all;
        len[r] = sizeof *all;
    }
    all[me] = (int)mine;
    comm->allgather(comm->ctx, all, off, len);
    size_t first = 0;
    while (first < K && all[first] == DEM_OK) first++;
    dem_status st = first < K ? (dem_status)all[first] : DEM_OK;
    free(all); free(off); free(len);
    if (mine || !st) return mine;
    return dem_fail(err, st, "process %zu of %zu: %s (its message goes where its standard error goes)", first, K, dem_status_name(st));
}

/* ---- a frame's contacts as a process of a group needs them --------------------------------- */
struct dem_group_contacts {
    size_t rank, size;
    dem_id_slot *ids;       /* the frame's particles by id, with their indices in its table */
    size_t nids, cap_ids;
    size_t lo, hi;          /* this process's particles at the join (join_share) */
    uint64_t in_frame;      /* the contacts of the last table begun, kept or not */
};

dem_group_contacts *dem_group_contacts_new(int rank, int size, dem_error *err)
{
    if (size < 1 || rank < 0 || rank >= size) {
        dem_fail(err, DEM_ERR_ARG, "process %d of a group of %d", rank, size);
        return NULL;
    }
    dem_group_contacts *g = calloc(1, sizeof *g);
    if (!g) {
        dem_fail(err, DEM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->rank = (size_t)rank;
    g->size = (size_t)size;
    return g;
}

void dem_group_contacts_free(dem_group_contacts *g)
{
    if (!g) return;
    free(g->ids);
    free(g);
}

/* The reader's begin (stream.h): index the frame's particles by id, and this process's share. */
static int group_begin(void *ctx, const dem_system *s, uint64_t count, dem_error *err)
{
    dem_group_contacts *g = ctx;
    g->in_frame = count;
    if (g->size <= 1 || !s) return 0; /* one process keeps them all; so does a frame whose contacts come first */
    if (s->nparticles > g->cap_ids) {
        dem_id_slot *q = realloc(g->ids, s->nparticles * sizeof *q);
        if (!q) return dem_fail(err, DEM_ERR_NOMEM, "out of memory indexing %zu particles", s->nparticles);
        g->ids = q;
        g->cap_ids = s->nparticles;
    }
    g->nids = s->nparticles;
    for (size_t a = 0; a < s->nparticles; a++) {
        g->ids[a].id = s->particles[a].id;
        g->ids[a].index = (uint32_t)a;
    }
    dem_id_slots_sort(g->ids, g->nids);
    join_share(s->nparticles, g->rank, g->size, &g->lo, &g->hi);
    return 1;
}

/* The reader's keep: a pair whose earlier particle (in the frame's table) is this process's, as
 * dem_store_load keeps them; every wall contact (each process loads those near its particles); and
 * one naming a particle that does not exist, which dem_system_check then refuses on every
 * process. */
static int group_keep(void *ctx, const dem_contact *c)
{
    const dem_group_contacts *g = ctx;
    if (c->flags & DEM_CONTACT_WALL) return 1;
    long i = dem_id_slots_find(g->ids, g->nids, c->i), j = dem_id_slots_find(g->ids, g->nids, c->j);
    if (i < 0 || j < 0) return 1;
    size_t a = (size_t)(i < j ? i : j);
    return a >= g->lo && a < g->hi;
}

void dem_group_contacts_filter(dem_group_contacts *g, dem_contact_filter *f)
{
    f->begin = group_begin;
    f->keep = group_keep;
    f->ctx = g;
}

uint64_t dem_group_contacts_in_frame(const dem_group_contacts *g) { return g->in_frame; }

dem_status dem_dist_join(dem_sim *sim, const dem_comm *comm, dem_error *err)
{
    dem_status st = dist_new(sim, comm, err);
    if (st || !sim->dist) return st;
    struct sim_dist *d = sim->dist;
    size_t K = (size_t)d->comm.size, nb = sim->c.nblk;
    for (size_t r = 0; r <= K; r++) d->bcut[r] = join_cut(nb, r, K);
    memcpy(d->old_bcut, d->bcut, (K + 1) * sizeof *d->bcut);
    d->b0 = d->bcut[d->comm.rank];
    d->b1 = d->bcut[d->comm.rank + 1];
    d->p0 = block_particle(sim, d->b0);
    d->p1 = block_particle(sim, d->b1);
    d->local = d->stats.own = can_step_own(sim);
    d->slim = d->local;
    /* the frame's kept records (dem_store_load) by block: each process carries its own particles'
     * (dem_dist_keep_own), which go to the processes of their pairs at the cuts the keys make */
    if ((st = dem_store_index(sim, err))) dem_dist_free(sim);
    return st;
}

/* A group's state (struct sim_dist) for comm, its cuts not yet made; sim->dist NULL for a group
 * of one. */
static dem_status dist_new(dem_sim *sim, const dem_comm *comm, dem_error *err)
{
    if (!comm || !comm->allgather || !comm->sendrecv || comm->size < 1 || comm->rank < 0 || comm->rank >= comm->size)
        return dem_fail(err, DEM_ERR_ARG, "a group of processes needs its size (>= 1), this process's rank in it and its two exchanges");
    if (comm->frame_chunk < 0) return dem_fail(err, DEM_ERR_ARG, "frame_chunk %d: a count of contacts, or 0", comm->frame_chunk);
    if (comm->balance < 0 || comm->balance >= DEM_BALANCE_COUNT_OF)
        return dem_fail(err, DEM_ERR_ARG, "balance %d is not one of the cuts (0 work, 1 count, 2 skew, 3 shift)", comm->balance);
    dem_dist_free(sim);
    if (comm->size == 1) return DEM_OK;
    if (sim->st.integrator == DEM_INTEGRATOR_VARIATIONAL)
        return dem_fail(err, DEM_ERR_LIMIT, "the variational integrator is not yet distributed over processes: run it in one process (dem-step without mpirun, --threads for more cores)");
    if (sim->p.n > UINT32_MAX)
        return dem_fail(err, DEM_ERR_LIMIT, "%zu particles: more than the 2^32 - 1 the pair records index", sim->p.n);
    struct sim_dist *d = calloc(1, sizeof *d);
    size_t K = (size_t)comm->size;
    if (!d) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    sim->dist = d;
    d->comm = *comm;
    d->bcut = calloc(K + 1, sizeof *d->bcut);
    d->old_bcut = calloc(K + 1, sizeof *d->old_bcut);
    d->off = calloc(K, sizeof *d->off);
    d->len = calloc(K, sizeof *d->len);
    d->counts = calloc(6 * K + 1, sizeof *d->counts); /* 3 words a process (share_words), 2 (deliver_kept), 6 and one (route_keys) */
    d->send_at = calloc(K + 1, sizeof *d->send_at);
    d->recv_at = calloc(K + 1, sizeof *d->recv_at);
    d->roff = calloc(K, sizeof *d->roff);
    d->rlen = calloc(K, sizeof *d->rlen);
    d->msend_at = calloc(K + 1, sizeof *d->msend_at);
    d->mrecv_at = calloc(K + 1, sizeof *d->mrecv_at);
    d->each = calloc(K, DIST_EACH_MAX);
    if (!d->bcut || !d->old_bcut || !d->off || !d->len || !d->counts || !d->send_at || !d->recv_at || !d->roff || !d->rlen || !d->msend_at || !d->mrecv_at || !d->each) {
        dem_dist_free(sim);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    }
    return DEM_OK;
}

void dem_sim_dist_stats(const dem_sim *sim, dem_dist_stats *s)
{
    if (sim->dist) *s = sim->dist->stats;
    else memset(s, 0, sizeof *s);
}
