/* mpi_run.h - dem-step's MPI build (make MPI=1: bin/dem-step-mpi): the ranks, the exchange libdem's
 * group of processes asks for (sim.h's dem_comm), and the input frame that every rank starts from.
 * Only this file and mpi_run.c know MPI; libdem never calls it. */
#ifndef DEM_BIN_MPI_RUN_H
#define DEM_BIN_MPI_RUN_H

#include "dem.h"

/* MPI_Init. Ranks other than 0 send their standard error to /dev/null (every rank computes the
 * same messages; DEM_MPI_STDERR=1 keeps them) and write no stream. */
void cli_mpi_start(int *argc, char ***argv);
int cli_mpi_rank(void);
int cli_mpi_size(void);
/* Every rank starts from the same frame, the last of path. A regular file every rank can read
 * is read by each rank itself (no rank holds the frame's bytes beside its tables), each keeping
 * of its pair contacts only those its share of the particles loads (sim.h's
 * dem_group_contacts_new: no rank holds the others'), the ranks checking that they read the same
 * file (size, modification time) and frame (step, particles, contacts); otherwise (- or NULL: standard input, which mpirun gives rank 0; a file some node
 * lacks or holds another copy of, or one being written) rank 0 reads it and sends its bytes, as
 * the stream encodes them, to the others, which decode them. */
void cli_mpi_read_run_frame(const char *path, dem_system *s, dem_settings *st);
/* The sim built from s on the ranks (dem_sim_new_group: in the group before its first neighbour
 * list), cut as balance says (DEM_BALANCE_*), replicate, check_stale and frame_chunk as sim.h's dem_comm says; the
 * frame's tables go. Exits 1 with the library's message where it cannot. Where the ranks read
 * their shares of the contacts and one of them fails (a contact that does not fit its
 * particles), every rank reads the frame whole, edit(ctx, s) makes the program's edits of it
 * again, and the sim is built anew: one process's message. */
dem_sim *cli_mpi_new_sim(dem_system *s, const dem_settings *st, void (*edit)(void *ctx, dem_system *s), void *ctx, int threads,
                         int balance, int replicate, int check_stale, int frame_chunk);
/* The largest of the ranks' values (an interrupting signal reaches the ranks at different steps:
 * they stop at the same one). */
int cli_mpi_max(int v);
void cli_mpi_finish(void);

#endif
