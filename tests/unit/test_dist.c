/* test_dist.c - one simulation on a group of processes (lib/sim/dist.c), without MPI: K threads
 * of this process play the ranks, each with a sim of its own and an exchange through shared
 * memory (a barrier, then every rank copies the others' ranges). The frames must be the bytes of
 * one process for every K and every cut; this runs where MPI is absent, and under the sanitizers
 * (make check, make check-threads), which the MPI build does not. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "dem.h"
#include "gz.h"
#include "unit.h"

#define MAX_RANKS 4
/* Under ThreadSanitizer (make check-threads) the runs take ten times as long: 2 and 3 ranks only. */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#else
#define UNDER_TSAN 0
#endif

/* The ranks' barrier: the last to arrive opens it (a new generation); the others yield the core
 * until then. A pthread barrier puts each waiter to sleep and wakes it through the kernel: with
 * more ranks than cores (4 on 2 here), the exchanges' two barriers a call made test_dist spend
 * two thirds of its time in futex calls (2 million of them). The generation is read before
 * arriving; the count is reset before the generation moves on, so a rank that leaves and arrives
 * at the next barrier counts from zero. The arrivals' read-modify-writes and the generation's
 * release make every rank's writes before the barrier visible to every rank after it. */
typedef struct {
    atomic_uint count, gen;
    unsigned n;
} rank_barrier;

static void rank_barrier_wait(rank_barrier *b)
{
    unsigned gen = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) + 1 == b->n) {
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->gen, 1, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == gen) sched_yield();
}

typedef struct {
    int size;
    rank_barrier bar;
    void *buf[MAX_RANKS];
    const void *send[MAX_RANKS];        /* thread_sendrecv's: each rank's sends */
    const size_t *soff[MAX_RANKS], *slen[MAX_RANKS];
    int mismatched[MAX_RANKS];          /* each rank's: a receive whose size its sender did not send */
} group;

typedef struct {
    group *g;
    int rank;
    const dem_system *start;
    const dem_settings *st;
    int balance, steps;
    int replicate;    /* dem_comm.replicate: every rank steps every particle */
    double dt;
    char *frame;      /* rank 0: the frame written at the end */
    size_t len;
    int ok;
    size_t across;    /* pairs it evaluated across its cuts at the last rebuild */
    double unbalanced;/* dem_sim_unbalanced at the end (a sum over the pairs in list order) */
    size_t touching, flying; /* dem_sim_touching at the end (counts summed over the ranks) */
    int put_elsewhere;      /* a second frame with rank 1 given the writer: refused there alone */
    int store_midway;       /* every rank takes the whole state (dem_sim_store) halfway, then steps on */
    double kinetic;         /* dem_sim_kinetic_energy at the end (a sum in particle order) */
    uint64_t midway;        /* a hash of the clumps' state that dem_sim_store gave this rank halfway */
    double stiffness;       /* dem_sim_estimate_dt's global-stiffness time at the end (each rank's pairs, then the least) */
    int slim;               /* the rank held only its own and foreign pairs at the end, or (replicated, one process) every pair */
    double ref;             /* dem_sim_energy_reference at the start (collective: process 0's, given to every rank) */
    uint64_t full_gathers;  /* rebuilds and re-sorts that received every position (dem_dist_stats) */
    uint64_t dropped;       /* the stale particles' pages it gave back (dem_dist_stats) */
    uint64_t rebuilds;      /* neighbour-list rebuilds (the group decides them as one process does) */
    const char *shares;     /* not NULL: the start read from these bytes, with the rank's share of the contacts */
    size_t shares_len;
    char msg[DEM_ERROR_MSG_MAX]; /* the rank's message where it failed */
} rank_run;

/* FNV-1a over n bytes, on from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t k = 0; k < n; k++) h = (h ^ ((const unsigned char *)p)[k]) * 1099511628211u;
    return h;
}

/* A hash of the clumps' state in a frame: each one's position, velocities, orientation and loads. */
static uint64_t clumps_hash(const dem_system *s)
{
    uint64_t h = 14695981039346656037u;
    for (size_t k = 0; k < s->nclumps; k++) {
        const dem_clump *c = &s->clumps[k];
        const dem_vec3 v[] = {c->pos, c->vel, c->omega, c->force, c->torque, c->angmom};
        h = fnv(fnv(h, v, sizeof v), &c->orient, sizeof c->orient);
    }
    return h;
}

/* The runs of frame_on take the whole state halfway when set (test_clumps), and leave their
 * kinetic energy in last_kinetic. */
static int store_midway;
static double last_kinetic;
static uint64_t last_full_gathers; /* the last group's most over its ranks */
static int join_at_start;          /* the ranks build their sims in the group (dem_sim_new_group) */
/* dem_comm.check_stale: the other ranks' particles' state a rank does not keep is NaN (1, the
 * default here: a read of it would change the frame), or given back to the system (0) */
static int check_stale = 1;
static int frame_chunk;            /* dem_comm.frame_chunk: a frame's contacts sent to process 0 so many at a time (0: the default) */
static const char *shares;         /* the ranks read the start from these bytes, each its share of the contacts */
static size_t shares_len;
static uint64_t last_dropped;      /* the last group's pages given back, its ranks' sum (bytes) */
/* The last one-process run's start and its stiffness time, which every group's from that start
 * must give (dem_sim_estimate_dt after the steps: each rank's pairs are its own then). */
static const dem_system *one_start;
static double one_stiffness, one_ref;
static uint64_t one_rebuilds;

/* dem_comm's exchange among the threads: every rank's array has the same layout, so rank r's
 * range is copied from its buffer to the same place in each other rank's. */
static void thread_allgather(void *ctx, void *buf, const size_t *off, const size_t *len)
{
    rank_run *me = ctx;
    group *g = me->g;
    g->buf[me->rank] = buf;
    rank_barrier_wait(&g->bar);
    for (int r = 0; r < g->size; r++)
        if (r != me->rank && len[r]) memcpy((char *)buf + off[r], (const char *)g->buf[r] + off[r], len[r]);
    rank_barrier_wait(&g->bar); /* no rank changes its array before the others have read it */
}

/* dem_comm's point-to-point exchange among the threads: each rank copies what the others send
 * it, checking that the sizes agree (a receive its sender did not size alike would be a defect of
 * the library, which MPI would report as a truncated message or a hang). */
static void thread_sendrecv(void *ctx, const void *send, const size_t *soff, const size_t *slen, void *recv, const size_t *roff,
                            const size_t *rlen)
{
    rank_run *me = ctx;
    group *g = me->g;
    int m = me->rank;
    g->send[m] = send;
    g->soff[m] = soff;
    g->slen[m] = slen;
    rank_barrier_wait(&g->bar);
    for (int r = 0; r < g->size; r++) {
        if (r == m ? rlen[r] != 0 || slen[r] != 0 : g->slen[r][m] != rlen[r]) {
            g->mismatched[m] = 1; /* read once the threads are joined */
            continue;
        }
        if (r != m && rlen[r]) memcpy((char *)recv + roff[r], (const char *)g->send[r] + g->soff[r][m], rlen[r]);
    }
    rank_barrier_wait(&g->bar); /* no rank changes its sends before the others have read them */
}

/* The one frame of bytes, as process rank of size reads it (dem_group_contacts_new: its share
 * of the pair contacts) into s; the contacts in the stream's table into *in_frame. The reader's
 * status. */
static int read_share(const char *data, size_t len, int rank, int size, dem_system *s, uint64_t *in_frame, dem_error *err)
{
    dem_group_contacts *gc = dem_group_contacts_new(rank, size, err);
    dem_reader *rd = gc ? dem_reader_new_mem(data, len, err) : NULL;
    dem_contact_filter f;
    int st = -1;
    if (rd) {
        dem_group_contacts_filter(gc, &f);
        dem_reader_filter_contacts(rd, &f);
        st = dem_reader_next(rd, s, err);
    }
    if (in_frame && gc) *in_frame = dem_group_contacts_in_frame(gc);
    dem_reader_free(rd);
    dem_group_contacts_free(gc);
    return st;
}

/* One rank's run (or one process's, g NULL): the frame after `steps` steps, by dem_sim_put. */
static void *run_rank(void *arg)
{
    rank_run *me = arg;
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    me->ok = me->shares ? read_share(me->shares, me->shares_len, me->rank, me->g->size, &s, NULL, &err) == 1
                        : dem_system_copy(&s, me->start, &err) == DEM_OK;
    dem_comm c = {me->rank, me->g ? me->g->size : 1, me->balance, thread_allgather, me, me->replicate, thread_sendrecv, check_stale, frame_chunk};
    int at_start = join_at_start && me->g;
    dem_sim *sim = !me->ok ? NULL : at_start ? dem_sim_new_group(&s, me->st, 1, &c, &err) : dem_sim_new(&s, me->st, 1, &err);
    me->ok = sim != NULL;
    if (sim) dem_sim_set_dt(sim, me->dt);
    if (sim && me->g && !at_start) me->ok = dem_sim_set_comm(sim, &c, &err) == DEM_OK;
    if (sim && me->ok) /* collective: process 0 takes it, every rank gets its value */
        me->ok = dem_sim_energy_reference(sim, &s, me->st, &me->ref, &err) == DEM_OK;
    for (int k = 0; k < me->steps && me->ok; k++) {
        me->ok = dem_sim_step(sim, &err) == DEM_OK;
        if (me->ok && me->store_midway && k == me->steps / 2) { /* collective: the whole state, here and elsewhere */
            me->ok = dem_sim_store(sim, &s, &err) == DEM_OK; /* into the frame's copy (its layout) */
            me->midway = clumps_hash(&s);
        }
    }
    dem_dist_stats ds;
    if (sim) dem_sim_dist_stats(sim, &ds);
    me->across = sim ? ds.foreign_pairs : 0;
    me->full_gathers = sim ? ds.rebuild_gathers - ds.near_rebuilds : 0;
    me->dropped = sim ? ds.dropped_bytes : 0;
    me->rebuilds = sim ? dem_sim_rebuilds(sim) : 0;
    if (sim) { /* the slim store: a rank stepping its own particles holds its own and foreign pairs, no more */
        dem_neighbor_info ni;
        dem_sim_neighbor_info(sim, &ni);
        me->slim = (!me->g || me->g->size == 1 || me->replicate || (me->steps == 0 && !at_start)) ? 1 : ni.pairs == ds.own_pairs + ds.foreign_pairs;
    }
    me->unbalanced = sim && me->ok ? dem_sim_unbalanced(sim) : NAN;
    me->touching = sim && me->ok ? dem_sim_touching(sim, &me->flying) : 0;
    me->kinetic = sim && me->ok ? dem_sim_kinetic_energy(sim, NULL) : NAN;
    dem_dt_estimates est;
    if (sim && me->ok) dem_sim_estimate_dt(sim, &est); /* collective: after the steps, from each rank's own pairs alone */
    me->stiffness = sim && me->ok ? est.stiffness : NAN;
    FILE *f = NULL;
    dem_writer *w = NULL;
    if (me->ok && me->rank == 0) {
        f = open_memstream(&me->frame, &me->len);
        w = dem_writer_new(f, 1, &err);
    }
    if (me->ok) me->ok = dem_sim_put(sim, &s, w, &err) == DEM_OK;
    if (!me->ok && !me->shares) fprintf(stderr, "rank %d: %s\n", me->rank, err.msg);
    if (!me->ok) snprintf(me->msg, sizeof me->msg, "%s", err.msg);
    if (w) {
        if (dem_writer_finish(w, &err)) me->ok = 0;
        dem_writer_free(w);
    }
    if (f) fclose(f);
    if (me->ok && me->g && me->g->size > 1) { /* process 0 writes the frames: a writer elsewhere is refused, after the exchange */
        char *junk = NULL;
        size_t jlen = 0;
        FILE *jf = me->rank == 1 ? open_memstream(&junk, &jlen) : NULL;
        dem_writer *jw = jf ? dem_writer_new(jf, 1, &err) : NULL;
        dem_status st = dem_sim_put(sim, &s, jw, &err);
        me->put_elsewhere = me->rank == 1 ? st == DEM_ERR_ARG && strstr(err.msg, "process 0 writes the frames") != NULL : st == DEM_OK;
        dem_writer_free(jw);
        if (jf) fclose(jf);
        free(junk);
    } else {
        me->put_elsewhere = 1;
    }
    dem_sim_free(sim);
    dem_system_free(&s);
    return NULL;
}

static void group_init(group *g, int n)
{
    g->size = n;
    memset(g->mismatched, 0, sizeof g->mismatched);
    atomic_init(&g->bar.count, 0);
    atomic_init(&g->bar.gen, 0);
    g->bar.n = (unsigned)n;
}

/* The frame of K ranks cut by `balance`, stepping their own particles or (replicate) all (K = 0:
 * one process without a group). */
static char *frame_on(int K, int balance, int replicate, const dem_system *start, const dem_settings *st, double dt, int steps,
                      size_t *len, size_t *across, double *unbalanced, size_t touching[2])
{
    group g;
    rank_run run[MAX_RANKS];
    pthread_t th[MAX_RANKS];
    int n = K ? K : 1;
    group_init(&g, n);
    for (int r = 0; r < n; r++) {
        run[r] = (rank_run){K ? &g : NULL, r, start, st, balance, steps, replicate, dt, NULL, 0, 0, 0, NAN, 0, 0, 0, store_midway, NAN, 0, NAN, 0, NAN, 0, 0, 0,
                            K ? shares : NULL, shares_len, ""};
        pthread_create(&th[r], NULL, run_rank, &run[r]);
    }
    int ok = 1;
    *across = 0;
    last_full_gathers = last_dropped = 0;
    for (int r = 0; r < n; r++) {
        pthread_join(th[r], NULL);
        last_dropped += run[r].dropped;
        if (run[r].full_gathers > last_full_gathers) last_full_gathers = run[r].full_gathers;
        ok = ok && run[r].ok;
        *across += run[r].across;
        CHECK_MSG(same_bits(run[r].unbalanced, run[0].unbalanced), "%d ranks: rank %d's unbalanced-force ratio differs from rank 0's", K, r);
        CHECK_MSG(run[r].touching == run[0].touching && run[r].flying == run[0].flying, "%d ranks: rank %d's contacts differ from rank 0's", K, r);
        CHECK_MSG(same_bits(run[r].kinetic, run[0].kinetic), "%d ranks: rank %d's kinetic energy differs from rank 0's", K, r);
        CHECK_MSG(!run[r].ok || run[r].slim, "%d ranks, replicate %d: rank %d holds pairs that are neither its own nor across its cuts", K, replicate, r);
        CHECK_MSG(run[r].midway == run[0].midway, "%d ranks: the clumps rank %d stored halfway differ from rank 0's", K, r);
        CHECK_MSG(K == 0 || start != one_start || same_bits(run[r].stiffness, one_stiffness),
                  "%d ranks: rank %d's stiffness time %.17g differs from one process's %.17g", K, r, run[r].stiffness, one_stiffness);
        CHECK_MSG(K == 0 || start != one_start || same_bits(run[r].ref, one_ref),
                  "%d ranks: rank %d's energy reference %.17g differs from one process's %.17g", K, r, run[r].ref, one_ref);
        CHECK_MSG(!run[r].ok || isfinite(run[r].ref), "%d ranks: rank %d's energy reference is %g", K, r, run[r].ref);
        /* the rebuild test reads each rank's own particles' displacements since the build: a
         * build's positions left stale would rebuild at other steps (the same bytes, other work) */
        CHECK_MSG(K == 0 || start != one_start || run[r].rebuilds == one_rebuilds, "%d ranks: rank %d rebuilt %llu times, one process %llu", K, r,
                  (unsigned long long)run[r].rebuilds, (unsigned long long)one_rebuilds);
        CHECK_MSG(!run[r].ok || run[r].put_elsewhere, "%d ranks: rank %d: a writer on rank 1 was not refused there alone", K, r);
    }
    *unbalanced = run[0].unbalanced;
    touching[0] = run[0].touching;
    touching[1] = run[0].flying;
    last_kinetic = run[0].kinetic;
    if (K == 0) {
        one_start = start;
        one_stiffness = run[0].stiffness;
        one_ref = run[0].ref;
        one_rebuilds = run[0].rebuilds;
    }
    CHECK_MSG(ok, "%d ranks, balance %d: a rank failed", K, balance);
    for (int r = 0; r < n; r++)
        CHECK_MSG(!g.mismatched[r], "%d ranks, balance %d: a point-to-point receive was not the size its sender sent", K, balance);
    *len = run[0].len;
    return run[0].frame;
}

/* The beds' material (frictional, damped, soft; rolling and twisting friction for the runs
 * that ask for them), pushed as s's first. */
static dem_material bed_material(dem_system *s)
{
    dem_error err;
    dem_material m = dem_material_default();
    m.density = 2500;
    m.young = 1e7;
    m.friction = 0.5;
    m.restitution = 0.6;
    m.rolling_friction = 0.1;
    m.twisting_friction = 0.05;
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    return m;
}

/* A floor at z = 0 and side walls at x = 0 and x = box. */
static void floor_and_sides(dem_system *s, double box)
{
    dem_error err;
    const dem_vec3 normals[3] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}};
    const dem_vec3 points[3] = {{0, 0, 0}, {0, 0, 0}, {box, 0, 0}};
    for (int k = 0; k < 3; k++) {
        dem_wall w;
        memset(&w, 0, sizeof w);
        w.kind = DEM_WALL_PLANE;
        w.normal = normals[k];
        w.point = points[k];
        CHECK(dem_system_push_wall(s, &w, &err) == DEM_OK);
    }
}

/* 648 frictional, damped spheres of random sizes in a squeezed cubic lattice (most touching their
 * neighbours) on a floor between two side walls, shaken and spinning, under gravity. */
static void make_bed(dem_system *s, dem_settings *st, int rolling)
{
    dem_error err;
    dem_system_init(s);
    dem_material m = bed_material(s);
    dem_rng rng;
    dem_rng_seed(&rng, 7);
    double a = 5.9e-4, box = 9 * a;
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 9; i++) {
                dem_particle p = dem_particle_default();
                p.id = s->nparticles + 1;
                p.radius = 3e-4 * (0.97 + 0.03 * dem_rng_uniform(&rng));
                dem_sphere_mass(p.radius, m.density, &p.mass, &p.inertia);
                p.pos = dem_v3((i + 0.5) * a, (j + 0.5) * a, (k + 0.5) * a);
                p.vel = dem_v3(0.05 * dem_rng_normal(&rng), 0.05 * dem_rng_normal(&rng), 0.05 * dem_rng_normal(&rng));
                p.omega = dem_v3(0, 30 * dem_rng_normal(&rng), 0);
                CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
            }
    floor_and_sides(s, box);
    dem_settings_default(st);
    st->gravity = dem_v3(0, 0, -9.81);
    st->local_damping = 0.05;
    st->sort_every = 100; /* re-sorts within the run, each renumbering the particles among the ranks */
    if (rolling) { /* rolling and twisting resistance: side records beside the pairs and wall slots */
        st->rolling = dem_model_find(DEM_MODEL_ROLLING, "epsd");
        st->twisting = dem_model_find(DEM_MODEL_TWISTING, "marshall");
    }
    CHECK(dem_settings_write(st, s, &err) == DEM_OK);
}

/* The frame's particle-wall contacts. */
static size_t count_wall_contacts(const dem_system *s)
{
    size_t n = 0;
    for (size_t k = 0; k < s->ncontacts; k++) n += (s->contacts[k].flags & DEM_CONTACT_WALL) != 0;
    return n;
}

static void test_ranks(int rolling)
{
    dem_system s;
    dem_settings st;
    make_bed(&s, &st, rolling);
    double dt = 4e-6;
    int steps = UNDER_TSAN ? 300 : 500;
    size_t len1, len, across, most = 0;
    double u1, u;
    size_t t1[2], t[2];
    char *one = frame_on(0, 0, 0, &s, &st, dt, steps, &len1, &across, &u1, t1);
    CHECK(one && len1 > 0);
    dem_error err;
    dem_system end;
    dem_system_init(&end);
    dem_reader *rd = one ? dem_reader_new_mem(one, len1, &err) : NULL;
    CHECK(rd && dem_reader_next(rd, &end, &err) == 1);
    dem_reader_free(rd);
    CHECK_MSG(end.ncontacts > 100, "only %zu contacts: the bed must touch across the ranks' cuts", end.ncontacts);
    int cases = 0;
    /* each rank stepping its own particles, and every rank stepping all (2 and 3 ranks by work:
     * the other cuts are the same code) */
    for (int rep = 0; rep < 2; rep++)
        for (int K = 1; K <= MAX_RANKS; K++)
            for (int balance = 0; balance < DEM_BALANCE_COUNT_OF; balance++) {
                if ((K < 3 && balance) || ((rolling || UNDER_TSAN) && (K == 1 || K == 4))) continue; /* 2 and 3 ranks: the time under TSan */
                if (rep && (balance || K == 1 || K == 4)) continue;
                char *f = frame_on(K, balance, rep, &s, &st, dt, steps, &len, &across, &u, t);
                CHECK_MSG(t[0] == t1[0] && t[1] == t1[1], "%d ranks, balance %d, replicate %d: %zu contacts and %zu flying, one process %zu and %zu",
                          K, balance, rep, t[0], t[1], t1[0], t1[1]);
                CHECK_MSG(same_bits(u, u1), "%d ranks, balance %d, replicate %d: the unbalanced-force ratio %.17g differs from one process's %.17g", K,
                          balance, rep, u, u1);
                CHECK_MSG(K == 1 || across > 0, "%d ranks, balance %d: no pair across the cuts", K, balance);
                /* the single-level grid: no rebuild or re-sort of own stepping gathers every position */
                CHECK_MSG(rep || last_full_gathers == 0, "%d ranks, balance %d: %llu rebuilds or re-sorts gathered every position", K, balance,
                          (unsigned long long)last_full_gathers);
                if (across > most) most = across;
                CHECK_MSG(f && len == len1 && memcmp(f, one, len) == 0, "%d ranks, balance %d, replicate %d: the frame differs from one process's", K,
                          balance, rep);
                free(f);
                cases++;
            }
    /* the sims built in the group (dem_sim_new_group): the first list slim, cut by its keys; their
     * frames' contacts (and the energy reference's) sent to process 0 three at a time: a round for
     * every few contacts (the others' above, in one chunk each) */
    join_at_start = 1;
    frame_chunk = 3;
    for (int K = 2; K <= MAX_RANKS; K++) {
        if ((rolling || UNDER_TSAN) && K == 4) continue;
        char *f = frame_on(K, 0, 0, &s, &st, dt, steps, &len, &across, &u, t);
        CHECK_MSG(f && len == len1 && memcmp(f, one, len) == 0 && same_bits(u, u1) && t[0] == t1[0] && t[1] == t1[1],
                  "%d ranks built in the group: the frame (or its measures) differs from one process's", K);
        /* no step: the frame read, written back (and the estimate and reference at the start) */
        const dem_system *keep_start = one_start;
        double keep_stiffness = one_stiffness, keep_ref = one_ref;
        uint64_t keep_rebuilds = one_rebuilds;
        size_t len0 = 0;
        join_at_start = 0;
        char *o0 = frame_on(0, 0, 0, &s, &st, dt, 0, &len0, &across, &u, t);
        join_at_start = 1;
        char *f0 = frame_on(K, 0, 0, &s, &st, dt, 0, &len, &across, &u, t);
        one_start = keep_start, one_stiffness = keep_stiffness, one_ref = keep_ref, one_rebuilds = keep_rebuilds;
        CHECK_MSG(f0 && o0 && len == len0 && memcmp(f0, o0, len0) == 0, "%d ranks built in the group, no step: the frame differs from one process's", K);
        free(f);
        free(f0);
        free(o0);
        cases++;
    }
    /* a restart built in the group: the end's frame (its pair and wall contacts, current forces)
     * stale on every rank from the start, 100 steps more on 2 and 3 ranks */
    CHECK_MSG(end.ncontacts > 0 && count_wall_contacts(&end) > 0, "the end's frame has %zu contacts, %zu with the walls", end.ncontacts,
              count_wall_contacts(&end));
    {
        const dem_system *keep_start = one_start;
        double keep_stiffness = one_stiffness, keep_ref = one_ref;
        uint64_t keep_rebuilds = one_rebuilds;
        size_t lenr = 0, lenk = 0;
        join_at_start = 0;
        char *r1 = frame_on(0, 0, 0, &end, &st, dt, 100, &lenr, &across, &u, t);
        join_at_start = 1;
        for (int K = 2; K <= 3; K++) {
            char *rk = frame_on(K, 0, 0, &end, &st, dt, 100, &lenk, &across, &u, t);
            CHECK_MSG(rk && r1 && lenk == lenr && memcmp(rk, r1, lenr) == 0, "%d ranks built in the group from a restart: the frame differs from one process's", K);
            free(rk);
            cases++;
        }
        free(r1);
        one_start = keep_start, one_stiffness = keep_stiffness, one_ref = keep_ref, one_rebuilds = keep_rebuilds;
    }
    join_at_start = 0;
    frame_chunk = 0;
    printf("  %s648 spheres between walls, %d steps, %zu contacts at the end: the frame of %s ranks (threads as ranks), cut by\n"
           "  work, count, skew and shift, %s,\n  is one process's bytes (%zu bytes; %d cases; up to %zu pairs across the cuts), and so is\n"
           "  the unbalanced-force ratio %.6g (a sum over the pairs handed from rank to rank) and the %zu contacts and %zu\n"
           "  spheres touching nothing\n",
           rolling ? "rolling and twisting, " : "", steps, end.ncontacts, rolling || UNDER_TSAN ? "2 and 3" : "1-4",
           "each rank stepping its own spheres (and by work, every rank all)", len1, cases, most, u1, t1[0], t1[1]);
    dem_system_free(&end);
    free(one);
    dem_system_free(&s);
}

/* 300 trimers (rigid clumps of three spheres), randomly oriented in a cubic lattice of their
 * bounding spheres, 10 x 10 x 3, in random motion: above a floor between two side walls, under
 * gravity (sheared 0), or in a periodic cell sheared at a constant rate (sheared 1: the cell's
 * map moves every clump, and its sums, the work of the field, read every clump at every step).
 * A clump's members may belong to different ranks (64-sphere blocks hold no whole number of
 * trimers): each rank moves the clumps with a member of its own. */
static void trimers(dem_system *s, dem_settings *st, int sheared)
{
    dem_error err;
    dem_system_init(s);
    dem_material m = bed_material(s);
    dem_clump_template t;
    CHECK(dem_clump_template_builtin("trimer", 3e-4, DEM_CLUMP_GRID_DEFAULT, &t, &err) == DEM_OK);
    dem_rng rng;
    dem_rng_seed(&rng, 11);
    double a = 2.0 * t.rbound, box = 10 * a;
    for (int k = 0; k < 3; k++) /* placeholders of the clumps' bounding radius */
        for (int j = 0; j < 10; j++)
            for (int i = 0; i < 10; i++) {
                dem_particle p = dem_particle_default();
                p.id = s->nparticles + 1;
                p.radius = t.rbound;
                dem_sphere_mass(p.radius, m.density, &p.mass, &p.inertia);
                p.pos = dem_v3((i + 0.5) * a, (j + 0.5) * a, (k + 0.5) * a);
                p.vel = dem_v3(0.3 * dem_rng_normal(&rng), 0.3 * dem_rng_normal(&rng), 0.3 * dem_rng_normal(&rng));
                CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
            }
    CHECK(dem_pack_clumps_at_spheres(s, 0, &t, 1, 5, &err) == DEM_OK);
    dem_clump_template_free(&t);
    dem_settings_default(st);
    if (sheared) {
        s->cell = dem_cell_default();
        s->cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
        s->cell.h = dem_m3_diag(box, box, 3 * a);
        s->cell.vgrad.m[0][1] = 20.0; /* 1/s: simple shear, 0.05 strain in the run */
    } else {
        floor_and_sides(s, box);
        st->gravity = dem_v3(0, 0, -9.81);
        st->local_damping = 0.1;
    }
    st->sort_every = 150; /* re-sorts within the run: members renumbered among the ranks */
    CHECK(dem_settings_write(st, s, &err) == DEM_OK);
}

static void test_clumps(int sheared)
{
    dem_system s;
    dem_settings st;
    trimers(&s, &st, sheared);
    double dt = 4e-6, u1, u;
    int steps = UNDER_TSAN || sheared ? 300 : 600; /* sheared: 300 steps pass 3 rebuilds and a re-sort */
    size_t len1, len, across, t1[2], tk[2];
    char *one = frame_on(0, 0, 0, &s, &st, dt, steps, &len1, &across, &u1, t1);
    double k1 = last_kinetic;
    CHECK(one && len1 > 0);
    /* under gravity some fly (a body with a force touching nothing); sheared, none has a force but its contacts' */
    CHECK_MSG(t1[0] > 10 && (sheared || (t1[1] > 0 && t1[1] < 300)), "%zu contacts and %zu flying: the trimers must touch and some fly", t1[0], t1[1]);
    /* cut by work, skewed, and moving at every rebuild (clumps change the processes that move
     * them), with and without the whole state taken halfway */
    static const struct { int K, balance, midway; } cases[] = {
        {2, DEM_BALANCE_WORK, 0}, {3, DEM_BALANCE_SKEW, 0}, {3, DEM_BALANCE_SHIFT, 1}, {4, DEM_BALANCE_SHIFT, 0}};
    int ncases = UNDER_TSAN || sheared ? 3 : 4;
    for (int c = 0; c < ncases; c++) {
        if (sheared && c == 1) continue; /* sheared: the skewed cut left out (the time of the suite) */
        int K = cases[c].K, balance = cases[c].balance;
        store_midway = cases[c].midway;
        char *f = frame_on(K, balance, 0, &s, &st, dt, steps, &len, &across, &u, tk);
        store_midway = 0;
        CHECK_MSG(tk[0] == t1[0] && tk[1] == t1[1], "clumps (sheared %d), %d ranks, balance %d: %zu contacts and %zu flying, one process %zu and %zu",
                  sheared, K, balance, tk[0], tk[1], t1[0], t1[1]);
        CHECK_MSG(same_bits(u, u1), "clumps (sheared %d), %d ranks, balance %d: the unbalanced-force ratio differs", sheared, K, balance);
        CHECK_MSG(same_bits(last_kinetic, k1), "clumps (sheared %d), %d ranks, balance %d: the kinetic energy differs", sheared, K, balance);
        CHECK_MSG(f && len == len1 && memcmp(f, one, len) == 0, "clumps (sheared %d), %d ranks, balance %d: the frame differs from one process's", sheared,
                  K, balance);
        free(f);
    }
    printf("  300 trimers %s, %d steps, re-sorted every 150: the frame, the unbalanced-force\n"
           "  ratio, the kinetic energy and the %zu contacts and %zu bodies touching nothing of 2 ranks (cut by\n"
           "  work), 3 (%scut anew at every rebuild, the whole state taken halfway)%s are one process's\n",
           sheared ? "in a periodic cell sheared at 20/s" : "between walls under gravity", steps, t1[0], t1[1],
           sheared ? "" : "skewed; ", ncases > 3 ? " and 4 (cut anew)" : "");
    free(one);
    dem_system_free(&s);
}

static void test_refusals(void)
{
    dem_system s;
    dem_settings st;
    dem_error err;
    make_bed(&s, &st, 0);
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    CHECK(sim != NULL);
    group g;
    memset(&g, 0, sizeof g);
    g.size = 2;
    rank_run me = {&g, 0, &s, &st, 0, 0, 0, 0.0, NULL, 0, 0, 0, NAN, 0, 0, 0, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, NULL, 0, ""};
    dem_comm bad = {2, 2, 0, thread_allgather, &me, 0, thread_sendrecv, 0, 0};
    CHECK(dem_sim_set_comm(sim, &bad, &err) != DEM_OK && strstr(err.msg, "rank") != NULL);
    dem_comm half = {0, 2, 0, thread_allgather, &me, 0, NULL, 0, 0};
    CHECK(dem_sim_set_comm(sim, &half, &err) != DEM_OK && strstr(err.msg, "exchanges") != NULL);
    dem_comm c = {0, 2, 9, thread_allgather, &me, 0, thread_sendrecv, 0, 0};
    CHECK(dem_sim_set_comm(sim, &c, &err) != DEM_OK && strstr(err.msg, "balance 9") != NULL);
    dem_comm chunk = {0, 2, 0, thread_allgather, &me, 0, thread_sendrecv, 0, -1};
    CHECK(dem_sim_set_comm(sim, &chunk, &err) != DEM_OK && strstr(err.msg, "frame_chunk -1") != NULL);
    dem_sim_free(sim);
    st.integrator = DEM_INTEGRATOR_VARIATIONAL;
    st.normal = dem_model_find(DEM_MODEL_NORMAL, "hooke");
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    sim = dem_sim_new(&s, &st, 1, &err);
    CHECK(sim != NULL);
    c.balance = 0;
    CHECK(sim && dem_sim_set_comm(sim, &c, &err) != DEM_OK && strstr(err.msg, "variational") != NULL);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* Process r's particles of n at the join (equal counts of 64-sphere blocks), as dist.c cuts them. */
static void join_share(size_t n, size_t r, size_t K, size_t *lo, size_t *hi)
{
    size_t nb = (n + 63) / 64;
    *lo = nb * r / K * 64 < n ? nb * r / K * 64 : n;
    *hi = nb * (r + 1) / K * 64 < n ? nb * (r + 1) / K * 64 : n;
}

/* Whether process r of K keeps contact c of frame s (index[id]: its particle's place in s). */
static int keeps(const dem_system *s, const size_t *index, const dem_contact *c, size_t r, size_t K)
{
    if (c->flags & DEM_CONTACT_WALL) return 1;
    size_t lo, hi, a = index[c->i] < index[c->j] ? index[c->i] : index[c->j];
    join_share(s->nparticles, r, K, &lo, &hi);
    return a >= lo && a < hi;
}

/* A frame read by each process of a group with its share of the pair contacts
 * (dem_group_contacts_new): each keeps the wall contacts and the pairs whose earlier particle is
 * in its share at the join, in the stream's order, and every pair is some process's; a frame
 * whose contacts come before its particles is read whole; the group built from the shares is one
 * process's bytes; and a contact that does not fit its particles in one process's share stops
 * every process, that one with the library's message, the others naming it. */
static void test_shares(void)
{
    dem_system s, whole;
    dem_settings st;
    dem_error err;
    make_bed(&s, &st, 0);
    /* ids shuffled: the frame's order (by id) then owes nothing to the spatial blocks, so the
     * pairs named by one particle come from several processes, merged at process 0 */
    dem_rng rng;
    dem_rng_seed(&rng, 3);
    for (size_t k = s.nparticles; k > 1; k--) {
        size_t m = (size_t)(dem_rng_uniform(&rng) * (double)k) % k;
        uint64_t t0 = s.particles[k - 1].id;
        s.particles[k - 1].id = s.particles[m].id;
        s.particles[m].id = t0;
    }
    double dt = 4e-6, u;
    size_t len, across, t[2];
    char *e = frame_on(0, 0, 0, &s, &st, dt, 300, &len, &across, &u, t);
    dem_system_init(&whole);
    dem_reader *rd = e ? dem_reader_new_mem(e, len, &err) : NULL;
    CHECK(rd && dem_reader_next(rd, &whole, &err) == 1);
    dem_reader_free(rd);
    size_t n = whole.nparticles, walls = count_wall_contacts(&whole), pairs = whole.ncontacts - walls;
    size_t *index = calloc(n + 2, sizeof *index); /* make_bed's ids: 1 .. n */
    for (size_t k = 0; k < n; k++) index[whole.particles[k].id] = k;
    CHECK(pairs > 100 && walls > 0);
    for (size_t K = 2; K <= MAX_RANKS; K++) {
        size_t sum = 0, later = 0;
        for (size_t r = 0; r < K; r++) {
            dem_system part;
            dem_system_init(&part);
            uint64_t in = 0;
            CHECK(read_share(e, len, (int)r, (int)K, &part, &in, &err) == 1);
            CHECK_MSG(in == whole.ncontacts, "%zu of %zu: %llu contacts in the frame, %zu read whole", r, K, (unsigned long long)in, whole.ncontacts);
            size_t q = 0, same = 1;
            for (size_t k = 0; k < whole.ncontacts; k++)
                if (keeps(&whole, index, &whole.contacts[k], r, K))
                    same = same && q < part.ncontacts && memcmp(&part.contacts[q++], &whole.contacts[k], sizeof *whole.contacts) == 0;
            CHECK_MSG(same && q == part.ncontacts, "process %zu of %zu: %zu contacts kept, not the %zu of its share in the stream's order", r, K,
                      part.ncontacts, q);
            sum += part.ncontacts - walls;
            if (r > 0) later += part.ncontacts - walls;
            dem_system_free(&part);
        }
        CHECK_MSG(sum == pairs && later > 0, "%zu processes keep %zu pairs (%zu past process 0), the frame has %zu", K, sum, later, pairs);
    }
    /* the contacts before the particles: every process reads them all */
    bytes pl = gz_payload((const uint8_t *)e, len), moved = {0, 0};
    size_t part_at = payload_section(&pl, "PART"), cont_at = payload_section(&pl, "CONT"), cont_len = 16;
    for (int k = 7; k >= 0; k--) cont_len += (size_t)pl.p[cont_at + 8 + k] << (8 * k);
    CHECK(part_at < cont_at && cont_at + cont_len <= pl.n);
    bytes_add(&moved, pl.p, part_at);
    bytes_add(&moved, pl.p + cont_at, cont_len);
    bytes_add(&moved, pl.p + part_at, cont_at - part_at);
    bytes_add(&moved, pl.p + cont_at + cont_len, pl.n - cont_at - cont_len);
    bytes gm = gz_member(moved.p, moved.n);
    dem_system part;
    dem_system_init(&part);
    uint64_t in = 0;
    CHECK(read_share((const char *)gm.p, gm.n, 1, 3, &part, &in, &err) == 1 && part.ncontacts == whole.ncontacts && in == whole.ncontacts);
    free(pl.p);
    free(moved.p);
    free(gm.p);
    /* 100 steps on, from the shares: one process's bytes */
    size_t len1 = 0, lenk = 0, t1[2];
    char *one = frame_on(0, 0, 0, &whole, &st, dt, 100, &len1, &across, &u, t1);
    join_at_start = 1;
    shares = e;
    shares_len = len;
    for (int K = 2; K <= 4; K++) {
        frame_chunk = K == 4 ? 0 : 3; /* the frame's contacts to process 0 three at a time, or in one chunk each */
        char *f = frame_on(K, 0, 0, &whole, &st, dt, 100, &lenk, &across, &u, t);
        CHECK_MSG(f && one && lenk == len1 && memcmp(f, one, len1) == 0, "%d ranks from their shares of the frame: the frame differs from one process's", K);
        free(f);
    }
    frame_chunk = 0;
    /* one pair contact of process 2's share (of 3) moved off its particles' geometry */
    size_t bad = 0;
    while (bad < whole.ncontacts && (whole.contacts[bad].flags & DEM_CONTACT_WALL || !keeps(&whole, index, &whole.contacts[bad], 2, 3))) bad++;
    CHECK(bad < whole.ncontacts);
    whole.contacts[bad].overlap += 1e-5;
    char *wrong = NULL;
    size_t wlen = 0;
    FILE *f = open_memstream(&wrong, &wlen);
    dem_writer *w = dem_writer_new(f, 1, &err);
    CHECK(w && dem_writer_put(w, &whole, &err) == DEM_OK && dem_writer_finish(w, &err) == DEM_OK);
    dem_writer_free(w);
    fclose(f);
    CHECK(dem_system_copy(&part, &whole, &err) == DEM_OK);
    CHECK(dem_sim_new_from(&part, &st, 1, &err) == NULL && strstr(err.msg, "disagree with the positions of its particles"));
    group g;
    rank_run run[3];
    pthread_t th[3];
    group_init(&g, 3);
    for (int r = 0; r < 3; r++) {
        run[r] = (rank_run){&g, r, &whole, &st, 0, 0, 0, dt, NULL, 0, 0, 0, NAN, 0, 0, 0, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, wrong, wlen, ""};
        pthread_create(&th[r], NULL, run_rank, &run[r]);
    }
    for (int r = 0; r < 3; r++) pthread_join(th[r], NULL);
    CHECK_MSG(!run[0].ok && !run[1].ok && !run[2].ok, "a contact that does not fit its particles on process 2: processes went on (%d %d %d)", run[0].ok,
              run[1].ok, run[2].ok);
    CHECK_MSG(strstr(run[2].msg, "disagree with the positions of its particles") && strstr(run[0].msg, "process 2 of 3") &&
                  strstr(run[1].msg, "process 2 of 3"),
              "the processes' messages: '%s', '%s', '%s'", run[0].msg, run[1].msg, run[2].msg);
    printf("  the frame of 648 spheres (ids shuffled), %zu pairs and %zu wall contacts, read by 2-4 processes each with its\n"
           "  share of the pairs: each the pairs of its particles and every wall contact, in the stream's order; 100 steps on\n"
           "  2-4 from the shares, their frames' contacts merged at process 0 (3 at a time on 2 and 3), are one process's\n"
           "  bytes; a contact off its particles in process 2's share stops all three\n",
           pairs, walls);
    join_at_start = 0;
    shares = NULL;
    shares_len = 0;
    free(wrong);
    free(one);
    free(e);
    free(index);
    dem_system_free(&part);
    dem_system_free(&whole);
    dem_system_free(&s);
}

int main(void)
{
    test_ranks(0);
    test_ranks(1);
    test_clumps(0);
    test_clumps(1);
    test_refusals();
    test_shares();
    UNIT_DONE();
}
