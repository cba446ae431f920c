/* stream.h - reading and writing the dem stream: a sequence of frames, each one gzip member.
 *
 * The layout is specified in formats/dem-stream.md. A writer emits one complete, self-contained
 * frame per call and flushes it, so a downstream program in a pipe sees every frame as soon as it
 * is written. A reader delivers a frame only after its gzip trailer (CRC-32 and length) has been
 * checked and every value has passed dem_system_check, so a frame is either complete and sound or
 * an error naming the frame, the field and the byte offset. */
#ifndef DEM_STREAM_H
#define DEM_STREAM_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "io/system.h"

#define DEM_FORMAT_MAJOR 1
#define DEM_FORMAT_MINOR 6 /* the newest minor version this build reads and writes */
/* The minor version a writer puts in a frame: 6 only when the frame has clumps (format 1.6), so
 * that frames without them keep the bytes of format 1.5. */
#define DEM_FORMAT_MINOR_NO_CLUMPS 5
#define DEM_MAGIC "DEMSTRM\0" /* 8 bytes at the start of every frame payload */
#define DEM_LEVEL_DEFAULT 1   /* deflate level: fast; doubles compress little at higher levels */

/* ---- writing ---- */
typedef struct dem_writer dem_writer;

/* level: 0 (stored, fastest) to 9 (smallest). The FILE stays the caller's. */
dem_writer *dem_writer_new(FILE *out, int level, dem_error *err);
/* Encode, compress and write one frame, then fflush. The system is not checked here:
 * call dem_system_check first when its values come from outside. */
DEM_MUST_CHECK dem_status dem_writer_put(dem_writer *w, const dem_system *s, dem_error *err);
/* A frame's contacts from a source instead of the frame's table: count contacts, hist_slots
 * history slots each, next(ctx, c, err) filling *c with the next one in the frame's order
 * (returns a dem_status). A simulator's store hands its contacts over this way, encoded as they
 * come, without a frame-sized table (dem_sim_put). */
typedef struct {
    size_t count;
    uint32_t hist_slots;
    dem_status (*next)(void *ctx, dem_contact *c, dem_error *err);
    void *ctx;
} dem_contact_source;
/* dem_writer_put with the contacts of src (the frame's own contact table is not read). Each
 * contact's values are checked as dem_system_check checks them (dem_contact_check_values). */
DEM_MUST_CHECK dem_status dem_writer_put_source(dem_writer *w, const dem_system *s, const dem_contact_source *src, dem_error *err);
/* A frame's particles from a source instead of the frame's table: count particles, fill(ctx,
 * first, n, out, err) writing particles first .. first + n - 1 of the frame's order into out
 * (n <= DEM_PARTICLE_BATCH; returns a dem_status). A simulator hands its particles over this
 * way (dem_sim_put), encoded a batch at a time, without a frame-sized table. */
#define DEM_PARTICLE_BATCH 64
typedef struct {
    size_t count;
    dem_status (*fill)(void *ctx, size_t first, size_t n, dem_particle *out, dem_error *err);
    void *ctx;
} dem_particle_source;
/* dem_writer_put_source with the particles of psrc too, when it is not NULL (the frame's own
 * particle table is then not read, and may be NULL). Each particle's values are checked as
 * dem_system_check checks them (dem_particle_check_values); what relates one record to another
 * (unique ids, the members of clumps, bonds) is the source's to keep. */
DEM_MUST_CHECK dem_status dem_writer_put_sources(dem_writer *w, const dem_system *s, const dem_particle_source *psrc,
                                                 const dem_contact_source *csrc, dem_error *err);
/* Close the stream: write the end-of-stream marker (26 bytes, formats/dem-stream.md §3.1) and
 * flush. A stream without it was cut short (a killed writer, a full disk) or written before
 * format 1.3; readers warn. */
DEM_MUST_CHECK dem_status dem_writer_finish(dem_writer *w, dem_error *err);
#define DEM_EOS_BYTES 26
/* Compressed bytes written so far. */
uint64_t dem_writer_bytes(const dem_writer *w);
void dem_writer_free(dem_writer *w);

/* ---- reading ---- */
typedef struct dem_reader dem_reader;

/* A byte source: returns the number of bytes read (0 at end of input) or -1 on error, in
 * which case it may fill err. */
typedef long (*dem_read_fn)(void *ctx, void *buf, size_t n, dem_error *err);

dem_reader *dem_reader_new(dem_read_fn fn, void *ctx, dem_error *err);
/* Read from a file descriptor with read(2): a frame is delivered as soon as its bytes arrive. */
dem_reader *dem_reader_new_fd(int fd, dem_error *err);
/* Read from memory (tests and fuzzing); the buffer must outlive the reader. */
dem_reader *dem_reader_new_mem(const void *buf, size_t len, dem_error *err);
/* Read the next frame into s (its previous contents are replaced).
 * Returns 1 when a frame was read, 0 at the clean end of the input (after at least one frame),
 * or a negative dem_status. After an error the reader cannot continue. */
int dem_reader_next(dem_reader *r, dem_system *s, dem_error *err);
/* A frame's contacts kept selectively as they are decoded, so that a reader that needs only some
 * of them (a process of a group: dem_group_contacts_new) never holds the others. At the start of
 * each frame's contact table, begin(ctx, s, count, err) is called with the table's count of
 * contacts and the frame as decoded so far, or s NULL when the frame's particles come after its
 * contacts (not the writer's order). It returns 1: keep(ctx, c) is then called for every contact
 * in the stream's order, after its values are checked (dem_contact_check_values), and those it
 * returns 0 for are dropped; 0: every contact is kept; < 0: a dem_status, and the frame fails
 * with err. What relates one contact to another (dem_system_check: the ids exist, no pair
 * twice) is then checked among the contacts kept. */
typedef struct {
    int (*begin)(void *ctx, const dem_system *s, uint64_t count, dem_error *err);
    int (*keep)(void *ctx, const dem_contact *c);
    void *ctx;
} dem_contact_filter;
/* f: copied; NULL: every contact kept (the default). */
void dem_reader_filter_contacts(dem_reader *r, const dem_contact_filter *f);
/* Frames delivered so far. */
uint64_t dem_reader_frames(const dem_reader *r);
/* After dem_reader_next returned 0: whether the input ended with an end-of-stream marker (0: the
 * stream may have been cut at a frame boundary). */
int dem_reader_ended_with_marker(const dem_reader *r);
/* Compressed bytes consumed so far (offset of the next frame once a frame is read). */
uint64_t dem_reader_offset(const dem_reader *r);
void dem_reader_free(dem_reader *r);

#endif
