/* mpi_run.c - dem-step's MPI build (see mpi_run.h). */
#include "mpi_run.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int rank, size = 1;
static int *counts, *displs; /* size each: MPI_Allgatherv's */

/* A failing rank above 0 waits before it exits: where every rank fails alike (an input they all
 * read, a run the guards stop on all), mpirun ends the job as soon as one rank exits with a
 * failure, and rank 0, which may lag behind the others, would be ended before it wrote its
 * message. Rank 0's exit ends the waiting ones; a rank that fails alone exits after the wait. */
#define FAIL_WAIT_S 5

static void hold_back(int status)
{
    (void)status;
    if (rank > 0) sleep(FAIL_WAIT_S);
}

void cli_mpi_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counts = malloc(2 * (size_t)size * sizeof *counts);
    if (!counts) {
        fprintf(stderr, "dem-step: out of memory for %d ranks\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    displs = counts + size;
    const char *keep = getenv("DEM_MPI_STDERR");
    if (rank > 0 && !(keep && strcmp(keep, "1") == 0) && !freopen("/dev/null", "w", stderr)) exit(1);
    /* rank 0 alone writes to standard output (the stream, the help), and --help ends MPI on
     * every rank before it exits 0: mpirun then returns 0, without its message about ranks that
     * left without finalizing */
    if (rank > 0 && !freopen("/dev/null", "w", stdout)) exit(1);
    cli_set_help_done(cli_mpi_finish);
    cli_set_before_exit(hold_back);
}

int cli_mpi_rank(void) { return rank; }
int cli_mpi_size(void) { return size; }

/* MPI's counts and displacements are ints: the usual exchange is one MPI_Allgatherv from the
 * lowest range's start; one that spans more than 2 GiB goes as each rank's broadcasts of 1 GiB. */
#define CHUNK ((size_t)1 << 30)

static void allgather(void *ctx, void *buf, const size_t *off, const size_t *len)
{
    (void)ctx;
    size_t lo = SIZE_MAX, hi = 0;
    for (int r = 0; r < size; r++) {
        if (off[r] < lo) lo = off[r];
        if (off[r] + len[r] > hi) hi = off[r] + len[r];
    }
    if (hi <= lo) return;
    if (hi - lo <= (size_t)INT_MAX) {
        for (int r = 0; r < size; r++) {
            counts[r] = (int)len[r];
            displs[r] = (int)(off[r] - lo);
        }
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, (char *)buf + lo, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
        return;
    }
    for (int r = 0; r < size; r++)
        for (size_t at = 0; at < len[r]; at += CHUNK) {
            size_t k = len[r] - at < CHUNK ? len[r] - at : CHUNK;
            MPI_Bcast((char *)buf + off[r] + at, (int)k, MPI_BYTE, r, MPI_COMM_WORLD);
        }
}

/* dem_comm's point-to-point exchange: a receive and a send per process with bytes to exchange
 * (in pieces of at most CHUNK: MPI's counts are ints), then wait for all. Between two processes
 * the messages arrive in the order they were sent (MPI's non-overtaking rule), and every process
 * makes the same sequence of calls, so each receive matches its send. */
static MPI_Request *reqs;
static size_t cap_reqs;

static size_t pieces(size_t len) { return (len + CHUNK - 1) / CHUNK; }

static void sendrecv(void *ctx, const void *send, const size_t *soff, const size_t *slen, void *recv, const size_t *roff,
                     const size_t *rlen)
{
    (void)ctx;
    size_t n = 0;
    for (int r = 0; r < size; r++) n += pieces(slen[r]) + pieces(rlen[r]);
    if (n > cap_reqs) {
        MPI_Request *q = realloc(reqs, n * sizeof *q);
        if (!q) {
            fprintf(stderr, "dem-step: out of memory for %zu messages\n", n);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        reqs = q;
        cap_reqs = n;
    }
    int k = 0;
    for (int r = 0; r < size; r++)
        for (size_t at = 0; at < rlen[r]; at += CHUNK)
            MPI_Irecv((char *)recv + roff[r] + at, (int)(rlen[r] - at < CHUNK ? rlen[r] - at : CHUNK), MPI_BYTE, r, 0,
                      MPI_COMM_WORLD, &reqs[k++]);
    for (int r = 0; r < size; r++)
        for (size_t at = 0; at < slen[r]; at += CHUNK)
            MPI_Isend((const char *)send + soff[r] + at, (int)(slen[r] - at < CHUNK ? slen[r] - at : CHUNK), MPI_BYTE, r, 0,
                      MPI_COMM_WORLD, &reqs[k++]);
    MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
}

/* Rank 0's frame s to the others, as the stream encodes it (rank 0 holds it; the others receive
 * and decode it into s and st). */
static void frame_from_root(dem_system *s, dem_settings *st)
{
    dem_error err;
    char *bytes = NULL;
    size_t n = 0;
    if (rank == 0) {
        FILE *f = open_memstream(&bytes, &n);
        dem_writer *w = f ? dem_writer_new(f, 1, &err) : NULL;
        if (!w) cli_die("cannot encode the frame for the other ranks: %s", f ? err.msg : "out of memory");
        if (dem_writer_put(w, s, &err) || dem_writer_finish(w, &err)) cli_die_err(&err);
        dem_writer_free(w);
        if (fclose(f) != 0) cli_die("cannot encode the frame for the other ranks: out of memory");
    }
    unsigned long long len = n;
    MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank > 0 && !(bytes = malloc(len ? len : 1))) cli_die("out of memory for the frame (%llu bytes)", len);
    for (unsigned long long at = 0; at < len; at += CHUNK) {
        unsigned long long k = len - at < CHUNK ? len - at : CHUNK;
        MPI_Bcast(bytes + at, (int)k, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    if (rank > 0) {
        dem_reader *r = dem_reader_new_mem(bytes, len, &err);
        if (!r) cli_die_err(&err);
        dem_system_init(s);
        cli_read_frame(r, "the frame from rank 0", -1, s); /* frees r */
        if (dem_settings_read(st, s, &err)) cli_die("%s", err.msg);
    }
    free(bytes);
}

/* Whether every rank can read path as a regular file (not standard input); its identity then
 * (size and modification time) in id. */
static int file_for_all(const char *path, unsigned long long id[3])
{
    struct stat sb;
    int mine = path && strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, R_OK) == 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (mine) {
        id[0] = (unsigned long long)sb.st_size;
        id[1] = (unsigned long long)sb.st_mtim.tv_sec;
        id[2] = (unsigned long long)sb.st_mtim.tv_nsec;
    }
    return all;
}

/* Whether every rank read the same file (size, time) and in it the same frame (step, particles,
 * and contacts: in its table, whether or not this rank kept them all). */
static int same_everywhere(const unsigned long long id[3], const dem_system *s, unsigned long long contacts)
{
    unsigned long long v[6] = {id[0], id[1], id[2], (unsigned long long)s->step, (unsigned long long)s->nparticles, contacts};
    unsigned long long lo[6], hi[6];
    MPI_Allreduce(v, lo, 6, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(v, hi, 6, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return memcmp(lo, hi, sizeof lo) == 0;
}

static int all_ranks(int mine)
{
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* The run's file, where each rank read its own share of the frame's pair contacts
 * (dem_group_contacts_new): cli_mpi_new_sim reads it whole if the sim cannot be built from the
 * shares, so that the message is one process's. NULL: each rank holds the whole frame. */
static const char *share_path;
static unsigned long long share_id[3];

/* The file's last frame into s and st at every rank, each keeping only the pair contacts its
 * share of the particles loads (the others' are dropped as they are decoded, never held): 1 when
 * every rank read the same frame so. */
static int read_shares(const char *path, const unsigned long long id[3], dem_system *s, dem_settings *st)
{
    dem_error err;
    dem_group_contacts *g = dem_group_contacts_new(rank, size, &err);
    dem_contact_filter f;
    if (g) dem_group_contacts_filter(g, &f);
    int mine = g && cli_try_read_run_frame(path, &f, s, st), ok = all_ranks(mine);
    unsigned long long contacts = g ? (unsigned long long)dem_group_contacts_in_frame(g) : 0;
    dem_group_contacts_free(g);
    if (ok && same_everywhere(id, s, contacts)) {
        share_path = path;
        memcpy(share_id, id, sizeof share_id);
        return 1;
    }
    if (mine) dem_system_free(s); /* a frame that fails on one rank: each reads it whole, and all fail alike */
    return 0;
}

/* The file's last frame whole at every rank: each reads it, or, where the ranks' copies differ,
 * rank 0's goes to all. */
static void read_whole(const char *path, const unsigned long long id[3], dem_system *s, dem_settings *st)
{
    cli_read_run_frame(path, s, st);
    if (same_everywhere(id, s, (unsigned long long)s->ncontacts)) return;
    /* not the same file on every node (a node's own copy), or one being written: rank 0's */
    if (rank > 0) dem_system_free(s);
    frame_from_root(s, st);
}

void cli_mpi_read_run_frame(const char *path, dem_system *s, dem_settings *st)
{
    unsigned long long id[3] = {0, 0, 0};
    if (size > 1 && file_for_all(path, id)) {
        /* each rank reads the file itself: the stream decodes as it reads, so no rank holds the
         * frame's bytes beside its tables (on a restart, about as much again), nor the other
         * ranks' pair contacts */
        if (!read_shares(path, id, s, st)) read_whole(path, id, s, st);
        return;
    }
    if (rank == 0) cli_read_run_frame(path, s, st);
    if (size > 1) frame_from_root(s, st);
}

dem_sim *cli_mpi_new_sim(dem_system *s, const dem_settings *st, void (*edit)(void *ctx, dem_system *s), void *ctx, int threads,
                         int balance, int replicate, int check_stale, int frame_chunk)
{
    dem_error err;
    dem_comm c = {rank, size, balance, allgather, NULL, replicate, sendrecv, check_stale, frame_chunk};
    dem_sim *sim = dem_sim_new_group(s, st, threads, &c, &err);
    if (!sim && share_path) { /* every rank failed (dem_dist_agree), one of them on its share of the contacts */
        dem_settings read;
        dem_system_free(s);
        read_whole(share_path, share_id, s, &read); /* the run's settings are st, the options' */
        share_path = NULL;
        edit(ctx, s);
        sim = dem_sim_new_group(s, st, threads, &c, &err);
    }
    if (!sim) cli_die_err(&err);
    return sim;
}

int cli_mpi_max(int v)
{
    int m = v;
    if (size > 1) MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

void cli_mpi_finish(void)
{
    free(counts);
    free(reqs);
    MPI_Finalize();
}
