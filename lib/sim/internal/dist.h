/* dist.h - one simulation on a group of processes (dist.c; the public side is sim.h's dem_comm).
 *
 * Every process holds every particle's state (its copies of others' stale between gathers; with
 * own stepping the stale part's pages given back to the system, dist.c's drop_stale) and,
 * every process stepping every particle, every pair's record; each stepping its own, from the
 * first step, its own and foreign pairs' only (the slim store, below). The contacts are cut by blocks of particles (PAIR_BLOCK):
 * process r owns blocks [bcut[r], bcut[r+1]), their particles and the pairs whose i is in them
 * (contiguous in the list sorted by i), evaluates those and the "foreign" pairs whose j is one of
 * its particles (the same inputs on both sides of a cut: the same bits, the history included),
 * and sums its particles' forces. The blocks' sums go from process to process in block order (a
 * chain: dem_dist_chain_blocks), and either (replicated stepping) the per-particle (forces,
 * torques, dissipation, the exact mode's kicks) and per-wall-slot results are exchanged, every
 * process then stepping every particle as one process would, or (own stepping, dist_local) each
 * process steps its own particles and, after the drift, receives its halo's positions and
 * velocities point to point; the sums over particles and wall slots then go from process to
 * process in their order (dem_dist_chain).
 * The records and results of the pairs of other processes' blocks go stale on a process between
 * rebuilds: they come from their owners before a rebuild (the kept records), for a frame (at
 * process 0), the setup's books and, every process stepping every particle, the count of
 * touching bodies (dem_dist_share_pairs). */
#ifndef DEM_SIM_DIST_H
#define DEM_SIM_DIST_H

#include "sim/internal/neighbor.h"
#include "sim/internal/state.h"

/* What a rebuild from a stale state receives (struct sim_dist's near): */
enum dist_near {
    NEAR_NONE = 0,    /* every position (dem_dist_for_rebuild gathered them), or the state is whole */
    NEAR_PENDING = 1, /* the grid's binning will receive the positions in the cells next to this
                       * process's (dem_dist_near) */
    NEAR_OWN = 2,     /* it has, and the wall slots are laid out for its own particles */
    NEAR_SORT = 3,    /* a re-sort: the owners share their particles' cells (dem_dist_sort_cells),
                       * every process sorts alike, then receives what its scan reaches
                       * (dem_dist_near_sorted) */
    NEAR_HELD = 4     /* it has, and the wall slots are laid out for the particles it held */
};

struct sim_dist {
    dem_comm comm;
    size_t *bcut;             /* size + 1 block bounds */
    size_t *old_bcut;         /* those before the last decomposition */
    size_t b0, b1;            /* this process's blocks */
    size_t p0, p1;            /* their particles */
    uint32_t *foreign;        /* pairs of other blocks whose j is in [p0, p1), in list order */
    size_t nforeign, cap_foreign;
    size_t *off, *len;        /* the exchange's ranges, size each (bytes) */
    size_t *counts;           /* size x 3: words each process gives (counts, statuses) */
    char *stage;              /* the packed exchanges' staging buffer (dist.c's share_fields) */
    size_t cap_stage;
    size_t stage_kept;        /* own stepping: what the steps' exchanges need of it (dist.c's stage_keep) */
    dem_dist_stats stats;
    /* Own stepping (dem_comm.replicate 0, and a run that allows it: dist_local): this process
     * kicks, drifts and wraps its own particles [p0, p1) and receives the halo, the particles of
     * other processes that its pairs and bonds across a cut reach, from their processes, point to
     * point: it sends each other process those of its own particles that process's pairs reach
     * (send, by process then index; send_at[s]: where process s's begin) and receives from each
     * (recv, in index order, so by process; recv_at[r]). The rest of its copy of the state goes
     * stale until dem_dist_whole gathers it (stale). */
    int local, stale;
    int partial;              /* a rebuild gathered only the positions (dem_dist_for_rebuild): the
                               * particles that change process at its cuts migrate */
    int near;                 /* ... and not even those (enum dist_near) */
    uint32_t *near_list;      /* dem_dist_near's: the particles it received */
    size_t cap_near;
    uint32_t *held;           /* a re-sort without a gather (NEAR_HELD): the particles (new
                               * indices, ascending) this process held before it */
    size_t nheld, cap_held;
    uint32_t *held_counts;    /* n words: their wall slots' counts shared in the old numbering */
    int deliver;              /* a rebuild carried each process's own kept records (dem_dist_keep_own) */
    uint32_t *from;           /* a partial gather's re-sort: new index k was particle from[k] (NULL: none) */
    uint32_t *send, *recv;
    size_t nsend, nrecv, cap_send, cap_recv, *send_at, *recv_at;
    size_t *roff, *rlen;      /* the point-to-point exchange's receiving ranges, size each (bytes) */
    uint32_t *blk_rank;       /* the process of each block (the halo's making, the kept records' delivery) */
    uint64_t *keys;           /* the halo's making: (process, particle) of the sends */
    size_t cap_keys;
    /* With clumps (own stepping): a clump is moved (kicked, drifted, mapped by a deforming cell,
     * its members' forces summed to it) by every process that owns one of its members, alike. A
     * process moves clumps_moved (in clump order) and exchanges its members' forces and torques
     * point to point with the other processes that move their clumps: it sends msend (by process:
     * msend_at) and receives mrecv (mrecv_at), each process's in clump then member order. The
     * sums over the clumps go in particle order, each clump at its first member (whose process
     * moves it). The other clumps' state goes stale here: a process that starts moving a clump
     * at new cuts receives it from the process that held its first member (dem_dist_decompose's
     * migration); dem_dist_whole and dem_dist_to_root bring every clump from the process of its
     * first member. */
    uint32_t *clumps_moved;
    size_t nclumps_moved;
    uint32_t *msend, *mrecv;
    size_t cap_msend, cap_mrecv, *msend_at, *mrecv_at;
    uint32_t *clumps_own;     /* with clumps: those whose members are all this process's, */
    uint32_t *clumps_across;  /* and those whose members belong to several processes */
    size_t nclumps_own, nclumps_across;
    char *each;               /* K x DIST_EACH_MAX bytes: dem_dist_gather_each's */
    double moved[3];          /* the group's two largest squared displacements since the build
                               * and its largest total one, from the last halo exchange (the
                               * rebuild test: dem_nbr_largest_moves) */
    int wrap_failed;          /* a particle's wrap failed: on this process, then (after the
                               * halo's exchange) on any (boundary.c) */
    size_t cap_blk;
    /* The slim store (own stepping, from the first list of a sim built in the group, dem_dist_join,
     * or else from the first step, dem_dist_slim): the pair list holds this
     * process's own pairs and its foreign ones only, in list order (foreign first: their i is
     * another's, before p0), with global particle indices; its blocks' bounds pblk are of that
     * list. A rebuild's keys and kept records then go point to point to the processes that will
     * evaluate their pairs at the new cuts, which the scanning processes agree on from the
     * blocks' counts of pairs (gpblk: the whole list's pairs before each block) before the list
     * is made (next_bcut, have_next); a frame's pairs come to process 0 alone, swapped in for the
     * writing (frame, framed: dem_dist_frame_done). */
    int slim, have_next, framed;
    size_t *next_bcut, *gpblk, cap_gpblk;
    sim_store frame;
    /* A frame being written (dem_dist_frame_sources): each process streams its own particles and
     * touching pairs in the frame's order, process 0 merges the pairs. */
    struct frame_merge *merge;
};

/* This process steps its own particles only (see struct sim_dist). */
static inline int dist_local(const dem_sim *sim) { return sim->dist && sim->dist->local; }

/* The pair list holds this process's own and foreign pairs only (struct sim_dist's slim store). */
static inline int dist_slim(const dem_sim *sim) { return sim->dist && sim->dist->slim; }

/* This process's blocks and particles ([0, nblk) and [0, n) in one process). */
static inline void dist_blocks(const dem_sim *sim, size_t *b0, size_t *b1)
{
    *b0 = sim->dist ? sim->dist->b0 : 0;
    *b1 = sim->dist ? sim->dist->b1 : sim->c.nblk;
}
static inline void dist_particles(const dem_sim *sim, size_t *p0, size_t *p1)
{
    *p0 = sim->dist ? sim->dist->p0 : 0;
    *p1 = sim->dist ? sim->dist->p1 : sim->p.n;
}

/* The particles this process kicks and drifts: its own when it steps them alone (dist_local),
 * else all. */
static inline void dist_stepped(const dem_sim *sim, size_t *p0, size_t *p1)
{
    *p0 = dist_local(sim) ? sim->dist->p0 : 0;
    *p1 = dist_local(sim) ? sim->dist->p1 : sim->p.n;
}

/* The wall slots of the particles this process steps (slots are in particle order). */
static inline void dist_stepped_slots(const dem_sim *sim, size_t *q0, size_t *q1)
{
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    *q0 = sim->c.wstart[p0];
    *q1 = sim->c.wstart[p1];
}

/* A sim built in a group (dem_sim_new_group): the group joined before the first neighbour build,
 * at cuts of equal counts of blocks, with the slim store from the start where each process
 * steps its own particles (the build then routes the keys and the frame's kept records as any
 * rebuild of it does: no process holds the whole list). Collective. */
DEM_MUST_CHECK dem_status dem_dist_join(dem_sim *sim, const dem_comm *comm, dem_error *err);
/* Before it (the store allocated): this process's particles [*p0, *p1) at those cuts, whose
 * frame records it carries into the first build (dem_store_load); unchanged without a group
 * (comm NULL or of one). */
void dem_dist_join_range(const dem_sim *sim, const dem_comm *comm, size_t *p0, size_t *p1);
/* The group's agreement on a status before its first collective step: mine where this process
 * failed, else the first failing process's status (err naming that process), else DEM_OK.
 * Collective; comm NULL or of one: mine. */
DEM_MUST_CHECK dem_status dem_dist_agree(const dem_comm *comm, dem_status mine, dem_error *err);
/* The cuts and the foreign pairs of the current list (after every rebuild); with own stepping,
 * the halo. */
DEM_MUST_CHECK dem_status dem_dist_decompose(dem_sim *sim, dem_error *err);
/* Every pair's result line and touch flag (and records: its record and side arrays) from the
 * process that owns its block (not with the slim store: dem_dist_every_pair). */
void dem_dist_share_pairs(dem_sim *sim, int records);
/* Own stepping, at the first step of a sim that joined the group after it was built
 * (dem_sim_set_comm): the store made slim (struct sim_dist): this process keeps its own and
 * foreign pairs only, and gives the room of the others back. Until then (the frame read, the
 * time step's estimate, the energy's reference) every process holds every pair. A sim built in
 * the group (dem_dist_join) is slim from its first list. */
DEM_MUST_CHECK dem_status dem_dist_slim(dem_sim *sim, dem_error *err);
/* A frame's particles and contacts, collective, after dem_dist_to_root: at
 * process 0, psrc and src give them in the frame's order for the writer: the particles its own
 * from its state, the others' pulled from their processes a chunk at a time (or all from its
 * state, gathered to it, where it evaluates bonds for the frame); the pair contacts merged from
 * every process's own touching pairs, each pulled a chunk at a time; then the wall contacts from
 * its store. Each pull is a round that every process takes part in. At the others: the rounds
 * until process 0 ends them (dem_dist_frame_sources_end), then the return. A failure (memory)
 * is every process's. */
DEM_MUST_CHECK dem_status dem_dist_frame_sources(dem_sim *sim, dem_particle_source *psrc, dem_contact_source *src, dem_error *err);
/* Process 0: the rounds end (the others return from dem_dist_frame_sources), whether or not the
 * writer took every contact; at every process, the streams go. */
void dem_dist_frame_sources_end(dem_sim *sim);
/* What a frame at every process reads of the pairs: every pair's record and result from its
 * owner; with the slim store, every process's touching pairs gathered into a list of them all,
 * in list order, swapped in until dem_dist_frame_done. Collective. */
DEM_MUST_CHECK dem_status dem_dist_every_pair(dem_sim *sim, dem_error *err);
/* After a frame: this process's own list back, where a frame's list was swapped in. */
void dem_dist_frame_done(dem_sim *sim);
/* The hierarchical grid's rebuild (every process scans every particle): with the slim store, each
 * keeps the keys of its particles and hands them on as dem_dist_gather_keys does; else nothing. */
DEM_MUST_CHECK dem_status dem_dist_scanned_all(dem_sim *sim, dem_error *err);
/* Before a rebuild: the records of other processes' pairs lose their flags, so that each process
 * carries its own kept records (those with flags: a history) into the new list; after the new
 * cuts (dem_dist_decompose), each carried record goes to the processes that then evaluate its
 * pair (a rebuild keeps nothing else: the results restart from zeros). After a gather of the
 * positions alone (dem_dist_for_rebuild), the wall slots of other processes' particles likewise
 * lose their touch and flags: each process carries its own particles' into the new layout, and
 * they migrate with their particles. */
void dem_dist_keep_own(dem_sim *sim);
/* After the sums: the particles' forces, torques, dissipation and kicks, the wall slots; the
 * counts (wall contacts lost, particles past the guard) summed over the processes. */
void dem_dist_share_sums(dem_sim *sim, size_t *lost, size_t *nbad);
/* A rebuild's scan: each process scans its own particles (dist_particles) into the store's keys;
 * then every process receives the others' keys, appended in process order (the order of one
 * process's scan), and the count of distance tests summed. With the slim store, instead, the new
 * cuts come from the blocks' counts of pairs, and each key goes to the processes of its i and
 * its j at them, each kept record (dem_store_begin_pairs) likewise, merged into this process's
 * kept ones in key order. st: this process's scan's status; a failure anywhere fails every
 * process (the others name the process). */
DEM_MUST_CHECK dem_status dem_dist_gather_keys(dem_sim *sim, dem_status st, dem_error *err);
/* A sum over the pairs in list order, with the one-process bits: process r adds its blocks' pairs
 * [pblk[b0], pblk[b1]) to the running sum acc (len bytes) that processes 0 .. r-1 left, by
 * run(sim, lo, hi, acc), in turn; every process then holds the whole sum (K - 1 messages from
 * process to process and one broadcast, of acc alone). In one process: run over every pair. */
typedef void (*dist_run_fn)(const dem_sim *sim, size_t lo, size_t hi, void *acc);
void dem_dist_chain_pairs(dem_sim *sim, void *acc, size_t len, dist_run_fn run);
/* The same over the blocks: process r runs run(sim, b0, b1, acc) on its blocks [b0, b1) (in one
 * process, over every block). */
void dem_dist_chain_blocks(dem_sim *sim, void *acc, size_t len, dist_run_fn run);
/* w[0 .. n) (n <= 3, integers) replaced by their sums over the processes (in one process: kept). */
void dem_dist_sum_counts(dem_sim *sim, size_t *w, size_t n);
/* Own stepping (dist_local), after the drift (and a deforming cell's map): this process's
 * particles wrapped, then the halo's positions, velocities and the accounting's full-step
 * velocities from their processes (point to point); the drift's largest squared step and non-finite flag (*move2,
 * *nonfinite) made the group's, and the group's largest displacements since the build in moved
 * (maxima: exact in any order). */
void dem_dist_share_halo(dem_sim *sim, double *move2, int *nonfinite);
/* Own stepping, between steps: the halo's positions and velocities from their processes again
 * (the halo's exchange in a step brings them after the drift, before the second half kick), when
 * the state is stale. Collective. */
void dem_dist_refresh_halo(dem_sim *sim);
/* Own stepping, where the state becomes stale (the kick, the sums kept by their owners): the
 * other processes' particles' state this process does not keep goes (dem_comm.check_stale), once
 * after each time it was whole. Nothing in one process or replicated stepping. */
void dem_dist_went_stale(dem_sim *sim);
/* Own stepping: every process's copy of the state made whole again (particles, books, guards,
 * wall slots: each from its owner), when it is stale; before anything reads the whole state (a
 * re-sort or rebuild, a frame, the queries of sim.h, a guard's report). Collective: every
 * process calls it at the same point. Nothing in one process or replicated stepping. */
void dem_dist_whole(dem_sim *sim);
/* A frame's state at process 0, which writes it or takes the energy's reference: with own
 * stepping, every process's wall slots and clumps (in place: the other processes' copies stay
 * stale), and the particles' frame fields where process 0 evaluates bonds for the frame; the
 * rest streams to it from the owners (dem_dist_frame_sources). Collective. */
void dem_dist_to_root(dem_sim *sim);
/* Own stepping, before a rebuild or a re-sort (sort), when the state is stale: for a re-sort (and
 * the hierarchical grid's rebuild) what they read of every particle (positions, image counters),
 * from the owners; for a rebuild of the single-level grid nothing yet: the grid's binning will
 * receive the positions in the cells next to this process's (dem_dist_near). The particles that
 * change process at the new cuts (or numbers) then come whole from their old process with their
 * wall slots, and the new halo from its (dem_dist_decompose). Collective. */
void dem_dist_for_rebuild(dem_sim *sim, int sort);
/* A rebuild whose grid receives the positions near this process's particles alone (see above). */
int dem_dist_near_pending(const dem_sim *sim);
/* A re-sort from a stale state (own stepping, the single-level grid): no position is gathered.
 * The grid is the group's (dem_dist_extent); each process takes the cells of its own particles
 * and dem_dist_sort_cells gives every process every particle's (4 bytes a particle), from which
 * each sorts as one process does (cell, then index); after the renumbering (dem_dist_renumbered)
 * dem_dist_near_sorted sends the positions of the particles each process held to the processes
 * whose particles (at the current cuts, in the new numbers) have cells next to theirs, and lists
 * in *more what this process's scan of its particles bins besides them (the others' received,
 * and its own held ones outside its range next to its cells). The wall slots are then laid out
 * by each process for the particles it held (dem_dist_slots_held), which migrate with them.
 * Collective. */
int dem_dist_sort_pending(const dem_sim *sim);
void dem_dist_sort_cells(dem_sim *sim, uint32_t *cellof);
DEM_MUST_CHECK dem_status dem_dist_near_sorted(dem_sim *sim, const nbr_grid *g, const uint32_t *cellof, const uint32_t **more, size_t *nmore,
                                               dem_error *err);
int dem_dist_slots_held(const dem_sim *sim, const uint32_t **held, size_t *nheld);
/* counts[k] of the particles this process held (dem_dist_slots_held) given, the others' from
 * the processes that held them (contacts.h's share). Collective. */
void dem_dist_share_held_counts(dem_sim *sim, size_t *counts);
/* lo, hi (a rebuild grid's extent: dem_nbr_grid_setup) made the group's: the smallest lo and the
 * largest hi of the processes (exact). Collective. */
void dem_dist_extent(dem_sim *sim, double lo[3], double hi[3]);
/* The rebuild's near positions: given the grid and the cells of this process's particles
 * (cellof[a], a in [p0, p1)), every process sends each other one the positions and image
 * counters of its particles in the cells next to (or in) the box of that process's cells, point
 * to point; this process's copies of those it receives are set, and *near lists them (valid
 * until the next rebuild). A particle within the grid's cutoff of one of this process's lies in
 * a cell next to its cell, so its scan finds every pair one process's finds. Collective. */
DEM_MUST_CHECK dem_status dem_dist_near(dem_sim *sim, const nbr_grid *g, const uint32_t *cellof, const uint32_t **near, size_t *nnear,
                                        dem_error *err);
/* A rebuild's wall slots laid out by each process for its own particles (after a gather of
 * positions alone, or none: dem_dist_for_rebuild), the counts shared by
 * dem_dist_share_slot_counts: counts[a] for particle a from its process (contacts.h's share). */
int dem_dist_slots_own(const dem_sim *sim);
void dem_dist_share_slot_counts(dem_sim *sim, size_t *counts);
/* A re-sort renumbered the particles: new index k was from[k] (after dem_dist_for_rebuild, the
 * particles then come from the processes that held from[k] at the old cuts). */
DEM_MUST_CHECK dem_status dem_dist_renumbered(dem_sim *sim, const size_t *from, dem_error *err);
/* A sum in the order one process makes it, over the particles (and their wall slots) each
 * process steps (dist_stepped: contiguous in every order the sums use): with own stepping,
 * process r runs run(sim, acc) on the running sum acc (len bytes) the processes before it left,
 * in turn, and every process then holds the whole sum (K - 1 messages and one broadcast, of acc alone);
 * otherwise (one process, or every process holding the whole state) run once, over all. */
typedef void (*dist_chain_fn)(dem_sim *sim, void *acc);
void dem_dist_chain(dem_sim *sim, void *acc, size_t len, dist_chain_fn run);
/* The clumps this process moves (struct sim_dist): with own stepping, the *n of the list
 * returned; else NULL, and *n is every clump (all). */
static inline const uint32_t *dist_clumps_moved(const dem_sim *sim, size_t all, size_t *n)
{
    int own = dist_local(sim);
    *n = own ? sim->dist->nclumps_moved : all;
    return own ? sim->dist->clumps_moved : NULL;
}
/* Own stepping with clumps: the clumps with a force that touch nothing (dem_sim_touching's count),
 * this process's part of it (summed over the processes after): touches(sim, a) says whether
 * particle a (one of this process's) touches something in the current forces. Collective. */
typedef int (*dist_touch_fn)(const dem_sim *sim, size_t a);
size_t dem_dist_clumps_flying(dem_sim *sim, dist_touch_fn touches);
/* Every process's len bytes mine (len <= DIST_EACH_MAX), gathered in process order; returns
 * them (K x len bytes, valid until the next gather). In one process: mine. */
#define DIST_EACH_MAX 128
const void *dem_dist_gather_each(dem_sim *sim, const void *mine, size_t len);
void dem_dist_free(dem_sim *sim);

#endif
