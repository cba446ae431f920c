/* contacts.h - the contact store: one record per pair within the neighbour cutoff, keyed by
 * (i, j, image shift) and sorted by it, and one per particle-wall slot; each record carries the
 * law's history and the books' state, and keeps them across rebuilds of the list, re-sorts of
 * the particles and frames (load and store). Also the per-particle adjacency that fixes the order
 * of the force sums, and the blocks of the pair pass. */
#ifndef DEM_SIM_CONTACTS_H
#define DEM_SIM_CONTACTS_H

#include "core/pages.h"
#include "io/stream.h"
#include "sim/internal/state.h"

/* A candidate pair of a rebuild: the key of its record. */
typedef struct store_key_s {
    uint32_t i, j;
    int32_t s[3];
} store_key;

DEM_MUST_CHECK dem_status dem_store_alloc(dem_sim *sim, dem_error *err);
void dem_store_free(dem_sim *sim);

/* A rebuild of the pair list: begin keeps the records with a history (touching, or lost in the
 * last evaluation) at the front of the list, in key order, without copying them elsewhere; add
 * appends a candidate pair (i < j) as a 20-byte key; end sorts the keys (each particle's few
 * among themselves when they come by particle, as the grid's scan gives them), merges the kept
 * records into their new places in the list in place, and lays out results, adjacency and
 * blocks. */
DEM_MUST_CHECK dem_status dem_store_begin_pairs(dem_sim *sim, dem_error *err);
DEM_MUST_CHECK dem_status dem_store_add_pair(dem_sim *sim, uint32_t i, uint32_t j, const int32_t s[3], dem_error *err);
/* A parallel scan: each thread adds its share's keys to a buffer of its own and puts them in
 * order (dem_store_keys_sort), and the buffers are appended in the shares' order (dem_store_keys_append
 * empties b; the first one appended is taken over without a copy): the same keys as one thread's
 * scan. */
DEM_MUST_CHECK dem_status dem_store_keys_add(store_keys *b, uint32_t i, uint32_t j, const int32_t s[3], dem_error *err);
void dem_store_keys_sort(store_keys *b);
DEM_MUST_CHECK dem_status dem_store_keys_append(dem_sim *sim, store_keys *b, dem_error *err);
/* Room for n keys in b (its keys kept); the bytes of one key (dist.c moves them between processes). */
DEM_MUST_CHECK dem_status dem_store_keys_reserve(store_keys *b, size_t n, dem_error *err);
size_t dem_store_key_size(void);
/* A rebuild's keys for another process (dist.c): b's n keys packed into out (at most
 * dem_store_keys_pack_max(n) bytes; about 4 a key), their length returned; and n keys unpacked
 * from in (len bytes) into b's keys at, 0 if the bytes are not n keys exactly. */
size_t dem_store_keys_pack_max(size_t n);
size_t dem_store_keys_pack(const store_keys *b, uint8_t *out);
DEM_MUST_CHECK int dem_store_keys_unpack(store_keys *b, size_t at, size_t n, const uint8_t *in, size_t len);
DEM_MUST_CHECK dem_status dem_store_end_pairs(dem_sim *sim, dem_error *err);
/* The kept records (pairs[0 .. npairs) between begin and end) in key order, their side records
 * with them (records handed on by other processes join them: dist.c); room for n records. */
DEM_MUST_CHECK dem_status dem_store_sort_kept(dem_sim *sim, dem_error *err);
/* Kept record from to place to (before the merge): with its side record and, while a frame's
 * results are carried (kout), its result. */
void dem_store_move_kept(sim_store *c, size_t to, size_t from);
/* Room for n kept records (and their results while a frame's are carried: kout). */
DEM_MUST_CHECK dem_status dem_store_reserve_pairs(dem_sim *sim, size_t n, dem_error *err);
/* The list's adjacency and blocks (jadj, istart, pblk) from its records. */
DEM_MUST_CHECK dem_status dem_store_index(dem_sim *sim, dem_error *err);
/* Only pairs pick[0 .. n) (increasing) kept, in order, with their results and side records; the
 * arrays shrunk to them and the list indexed again (a process's own and foreign pairs: dist.c). */
DEM_MUST_CHECK dem_status dem_store_select(dem_sim *sim, const uint32_t *pick, size_t n, dem_error *err);
/* The pair list's arrays (records, results, touch flags, side records, adjacency, blocks) of a
 * and b exchanged, the wall slots left (a frame's list of every process's pairs: dist.c); and
 * freed (c zeroed). */
void dem_store_swap_pairs(sim_store *a, sim_store *b);
void dem_store_free_pairs(sim_store *c);
/* The slots of the walls each particle can reach before the next rebuild (dem_nbr_wall_near). Slots
 * that touch or hold a history keep them. In a group of processes whose positions are not all
 * here (dist.h), only particles [p0, p1) are laid out: share(sim, counts) gives the others' counts
 * of slots (counts[a], a outside [p0, p1)) and their slots are laid out empty, their walls unknown;
 * else p0 = 0, p1 = n and share NULL. */
typedef void (*store_share_counts_fn)(dem_sim *sim, size_t *counts);
DEM_MUST_CHECK dem_status dem_store_wall_slots(dem_sim *sim, size_t p0, size_t p1, store_share_counts_fn share, dem_error *err);
/* The same for the nlist particles of list (ascending) rather than a range: a process's after a
 * re-sort that gathered no position (dist.h's dem_dist_slots_held). */
DEM_MUST_CHECK dem_status dem_store_wall_slots_of(dem_sim *sim, const uint32_t *list, size_t nlist, store_share_counts_fn share,
                                                  dem_error *err);

/* Each touching contact, the pairs in list order and then the wall slots, with its pair
 * properties: fn(sim, p, q, wall), q the index in the pair list or among the wall slots. */
typedef void (*store_touching_fn)(dem_sim *sim, const dem_pair *p, size_t q, int wall);
void dem_store_each_touching(dem_sim *sim, store_touching_fn fn);
/* The particles were renumbered: particle k is now inv[k]'s old index's new place (inv[old] =
 * new). Pairs keep i < j (turned round where needed: an exact negation). */
void dem_store_renumber(dem_sim *sim, const uint32_t *inv);
/* A table of particle ids with their indices, sorted by id: the frame's contacts name particles
 * by id (dem_store_load, dem_store_write, and a group's reader: dem_group_contacts_new). */
typedef struct {
    uint64_t id;
    uint32_t index;
} dem_id_slot;
void dem_id_slots_sort(dem_id_slot *ids, size_t n);
/* The index of id in ids[0 .. n) sorted, or -1. */
long dem_id_slots_find(const dem_id_slot *ids, size_t n, uint64_t id);
/* The frame's contacts seed the histories and results of the list and the slots. Before the
 * first build: their records become the list's kept records, each with its result beside it
 * (sim_store.kout), and the wall contacts the slots' kept ones, which the build carries as any
 * rebuild carries a history, the results with them (the frame's contact table may go then: no
 * copy of it is held through the build); after it, dem_store_kept_results_done frees kout. Only
 * the pairs whose i (the lower index) is in [keep_lo, keep_hi) become records: in a group of
 * processes, each carries its own particles' records into the first build (dist.h's
 * dem_dist_join_range, dem_dist_keep_own), and the build hands them, results included, to the
 * processes that evaluate their pairs. consume: the frame's contact table (its base), whose pages
 * go behind the loading (core/pages.h), so that the table and what it becomes are not held whole
 * at once; NULL: the table is left as it is. On failure nothing is kept. */
DEM_MUST_CHECK dem_status dem_store_load(dem_sim *sim, const dem_system *s, size_t keep_lo, size_t keep_hi, dem_pages_reader *consume,
                                         dem_error *err);
void dem_store_kept_results_done(dem_sim *sim);
/* The touching contacts into the frame, sorted by (wall, i, j, s), each pair named with the
 * smaller id first. */
DEM_MUST_CHECK dem_status dem_store_write(const dem_sim *sim, dem_system *out, dem_error *err);
/* The same contacts, in the same order and bits, as a source for the stream writer
 * (dem_writer_put_source), without the frame's table: open fills src; the store must not change
 * until close. */
typedef struct store_stream store_stream;
DEM_MUST_CHECK dem_status dem_store_stream_open(const dem_sim *sim, store_stream **ss, dem_contact_source *src, dem_error *err);
void dem_store_stream_close(store_stream *ss);
/* The same, of the wall contacts alone: the frame's pair contacts come from the processes of a
 * group, merged (dist.c's frame_merge), its wall contacts from process 0's store. */
DEM_MUST_CHECK dem_status dem_store_stream_open_walls(const dem_sim *sim, store_stream **ss, dem_contact_source *src, dem_error *err);
/* The touching pairs of the list's [q0, q1) as a frame names them, in the frame's order (by the
 * smaller id, then the other, then the image shift): a process's share of a frame's pair
 * contacts, which process 0 merges with the others' (dist.c). The store must not change until it
 * is closed. */
typedef struct pair_stream pair_stream;
DEM_MUST_CHECK dem_status dem_store_pairs_open(const dem_sim *sim, size_t q0, size_t q1, pair_stream **ps, dem_error *err);
size_t dem_store_pairs_left(const pair_stream *ps);
/* The next n (at most dem_store_pairs_left) into c. */
void dem_store_pairs_take(pair_stream *ps, dem_contact *c, size_t n);
void dem_store_pairs_close(pair_stream *ps);

#endif
