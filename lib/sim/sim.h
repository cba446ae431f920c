/* sim.h - advancing a system in time: velocity-Verlet (standard and improved), contact laws,
 * walls, gravity, damping, a Verlet neighbour list over a general periodic cell.
 *
 * A dem_sim is built from a frame (dem_system + dem_settings), advanced step by step, and
 * stored back into a frame at any time. It keeps its hot data in flat arrays. Results are
 * bit-identical for any thread count and however a run is split: forces are summed per particle
 * over its contacts in the order of the pair list (sorted by particle index; particles are
 * re-sorted in space at fixed steps), every total is summed in a fixed order, and everything
 * that carries over between steps (velocities, forces, contact histories, wall positions, energy
 * accumulators) is in the frame. */
#ifndef DEM_SIM_H
#define DEM_SIM_H

#include <stdint.h>

#include "core/error.h"
#include "laws/settings.h"
#include "laws/laws.h" /* dem_contact_probe: one contact driven kinematically */
#include "io/stream.h" /* dem_contact_filter */
#include "io/system.h"

typedef struct dem_sim dem_sim;

/* Time-step estimates (s) for the system as it is (Šmilauer and Chareyre 2015, §1.5.6; Vyas et al. 2025, eqs 1-7). */
typedef struct {
    double contact_time;   /* duration of a collision of the smallest pair at model.vc, or half the
                            * period of its rolling or twisting spring where that is shorter */
    double rotation_time;  /* that half period, pi sqrt(I* / k_theta) (inf without rolling or twisting
                            * resistance): I* the pair's reduced moment of inertia, k_theta the
                            * rolling k_r R*^2 or the twisting k_o at the overlap of a collision at vc */
    double pwave;          /* min r sqrt(rho/E) (Šmilauer and Chareyre 2015, p-wave), nan for a given kn */
    double stiffness;      /* min sqrt(2 m / K), K the sum of contact stiffnesses; inf without contacts */
    double recommended;    /* what --dt auto uses: min(contact_time/50, 0.2 pwave, 0.3 stiffness) */
} dem_dt_estimates;

/* Threads pay only with enough particles each: starting a loop on the other threads and waiting
 * for them cost about as much as the step of tens of particles, and far more when another process
 * shares the cores (with OpenMP's spinning team a 3-sphere step took 76-180 us on two threads
 * beside two busy processes, 0.2 us on one). dem_sim_new runs at most one thread per this many
 * particles. */
#define DEM_SIM_PARTICLES_PER_THREAD 64

/* Build a simulation from a frame. The frame's settings must have been read into st (whose
 * copy the sim keeps). threads >= 1: the most it may use (see dem_sim_threads). Fails on states it cannot simulate (clumps, deforming or
 * stress-controlled cells) with a message saying so. */
dem_sim *dem_sim_new(const dem_system *s, const dem_settings *st, int threads, dem_error *err);
/* dem_sim_new and dem_sim_release_frame in one, with the frame's particle table freed as soon as
 * the sim holds the particles, before it builds its neighbour list (the start's peak of memory:
 * the table is 216 bytes a sphere of it), and its contact table once the sim has loaded them.
 * The frame keeps its other sections and its particle count; on failure too its tables may be
 * gone. For a caller that reads the frame's particles no more (dem_sim_put writes frames). */
dem_sim *dem_sim_new_from(dem_system *frame, const dem_settings *st, int threads, dem_error *err);
void dem_sim_free(dem_sim *sim);
/* The threads the sim runs: min(threads asked, particles / DEM_SIM_PARTICLES_PER_THREAD), at least
 * 1. One thread starts no other (lib/sim/par.h). The results are the same bits for any count. */
int dem_sim_threads(const dem_sim *sim);

void dem_sim_estimate_dt(dem_sim *sim, dem_dt_estimates *est);

/* ---- Running one simulation on several processes (MPI ranks) ------------------------------
 * Every process builds the same sim from the same frame in the group (dem_sim_new_group), or
 * builds it, then joins the group with dem_sim_set_comm. The particles are cut into contiguous ranges of the spatial order, in blocks
 * of 64 (state.h's PAIR_BLOCK): each process evaluates the pairs of its blocks and those of
 * other blocks that reach its particles (a pair across a cut is evaluated by both, from the same
 * inputs, so its history stays the same bits on both), sums its particles' forces, and kicks
 * and drifts its own particles, receiving those of other processes its pairs reach (or, see
 * replicate below, the processes exchange every particle's results and each steps all). Every
 * sum keeps the order one process uses: the results are the same bits for any number of
 * processes, any cut and any thread count.
 * libdem calls no MPI itself: the program gives the exchange (dem-step's MPI build: bin/mpi_run.c). */
enum {
    DEM_BALANCE_WORK = 0,   /* cuts of equal work: pairs plus half a pair per particle (the default) */
    DEM_BALANCE_COUNT,      /* equal numbers of blocks */
    DEM_BALANCE_SKEW,       /* process r gets r + 1 shares of blocks: an uneven cut, for tests of the bits */
    DEM_BALANCE_SHIFT,      /* a cut that moves at every rebuild (the skew, forwards and backwards in turn):
                             * every rebuild hands pairs to other processes, for tests of the bits */
    DEM_BALANCE_COUNT_OF
};
typedef struct {
    int rank, size;         /* this process, and the group's size (>= 1) */
    int balance;            /* DEM_BALANCE_*: where the cuts fall, recomputed at every rebuild */
    /* All processes call it together, with the same off and len (size entries each, bytes):
     * afterwards every process holds all of buf, process r having given bytes [off[r], off[r] +
     * len[r]). It does not return on failure (MPI's errors abort the job). */
    void (*allgather)(void *ctx, void *buf, const size_t *off, const size_t *len);
    void *ctx;
    /* 1: every process holds the whole state after every step (kicks and drift of every particle
     * on every process, every particle's results exchanged). 0 (the default): but in exact mode,
     * each process kicks and drifts its own particles and
     * receives only those of other processes its pairs reach, and from its first step keeps the
     * contacts of its own particles only; what a rebuild, a re-sort, a frame and the queries below
     * read of the others comes from them. The same bits either way. */
    int replicate;
    /* Point to point (the halo of own stepping, the chains' hand-overs): all processes call it
     * together; this process sends slen[s] bytes from send + soff[s] to each process s and
     * receives rlen[r] bytes from each process r into recv + roff[r] (the sender's slen for it is
     * the same: both sides know the sizes). Zero lengths are no messages, and a process's own
     * entries are zero. It does not return on failure. */
    void (*sendrecv)(void *ctx, const void *send, const size_t *soff, const size_t *slen, void *recv, const size_t *roff,
                     const size_t *rlen);
    /* Own stepping: the other processes' particles' state that this process does not keep (all
     * but its halo's positions and velocities) is given back to the system page by page while it
     * is stale (0, the default), or (1, for tests) filled with NaN, so that a read of it would
     * change the results. The same bits either way. */
    int check_stale;
    /* A frame's particles and pair contacts stream from the processes that own them to process
     * 0, a chunk at a time (dist.h's dem_dist_frame_sources): the particles or contacts of a chunk
     * (0, the default: 4 MiB of particles, and of contacts over all processes, at least 16 each;
     * small ones, for tests, make many rounds). The same bytes either way. */
    int frame_chunk;
} dem_comm;
/* Join the group (size 1: nothing changes). Refuses, naming it, what is not yet distributed:
 * the variational integrator (dem_sim_minimize refuses likewise). In a group, every process
 * calls what reads the whole state at the same point of the run, since it gathers it or sums
 * over it with the processes: dem_sim_store, dem_sim_put, dem_sim_energy_reference,
 * dem_sim_unbalanced, dem_sim_touching, dem_sim_kinetic_energy, dem_sim_current_overlap,
 * dem_sim_cell_stress, and, once stepping began (each process then holds its own contacts
 * only), dem_sim_estimate_dt. */
DEM_MUST_CHECK dem_status dem_sim_set_comm(dem_sim *sim, const dem_comm *comm, dem_error *err);
/* dem_sim_new_from and dem_sim_set_comm in one, with the group joined before the sim builds its
 * first neighbour list: where each process steps its own particles, none then holds the whole
 * list, even at the start (the same bits as the two calls; a start's peak of memory lower by the
 * other processes' pairs). Collective: every process calls it with the same frame. */
dem_sim *dem_sim_new_group(dem_system *frame, const dem_settings *st, int threads, const dem_comm *comm, dem_error *err);
/* What a process of a group reads of a frame's contacts: dem_sim_new_group loads only the pair
 * contacts whose earlier particle (in the frame's particle table) falls in this process's first
 * share of the particles (a function of the particle count, rank and size alone), and the wall
 * contacts; a reader given this filter (dem_reader_filter_contacts) keeps just those, so that no
 * process holds the others' (a frame whose contacts come before its particles is read whole).
 * The frame then equals the whole one for dem_sim_new_group, with these caveats: the reader's
 * checks across contacts (dem_system_check) see only the contacts kept, and so does
 * dem_sim_new_group's check of their geometry; it fails on every process when it fails on one
 * (the others' message names that process), and a program that wants one process's message
 * reads the frame whole and builds the sim again (bin/mpi_run.c). */
typedef struct dem_group_contacts dem_group_contacts;
dem_group_contacts *dem_group_contacts_new(int rank, int size, dem_error *err);
/* f filled to read through g (g must outlive the reader's use of it). */
void dem_group_contacts_filter(dem_group_contacts *g, dem_contact_filter *f);
/* The count of contacts in the last contact table read through g, kept or not. */
uint64_t dem_group_contacts_in_frame(const dem_group_contacts *g);
void dem_group_contacts_free(dem_group_contacts *g);
/* What the distribution did so far (zeros in one process): pairs evaluated by this process as
 * its own and across a cut (for a second time), bytes it gave to the exchanges. */
typedef struct {
    size_t own_pairs, foreign_pairs;    /* at the last rebuild */
    size_t particles;                   /* its particles at the last rebuild */
    uint64_t bytes;                     /* given to the exchanges so far */
    uint64_t received;                  /* received from the other processes so far (bytes) */
    uint64_t exchanges;
    uint64_t chains;                    /* of them, sums in one process's order handed from process to
                                         * process (K - 1 hand-overs and a broadcast each) */
    int own;                            /* 1: each process steps its own particles (dem_comm.replicate) */
    size_t halo;                        /* then: its particles other processes receive each step */
    size_t halo_in;                     /* and the other processes' particles it receives each step */
    uint64_t gathers;                   /* own stepping: the whole state gathered so far */
    uint64_t rebuild_gathers;           /* rebuilds and re-sorts from a stale state so far: the positions
                                         * alone gathered, or (near_rebuilds of them) not even those */
    uint64_t near_rebuilds;             /* rebuilds and re-sorts that received only the positions next to its cells */
    uint64_t near_received;             /* the positions those received, in all */
    uint64_t migrated;                  /* particles received from other processes at new cuts so far */
    uint64_t root_gathers;              /* frames' states sent to process 0 (dem_sim_put) so far */
    size_t clumps;                      /* own stepping: the clumps it moved at the last rebuild */
    uint64_t clumps_migrated;           /* clumps' states received from other processes at new cuts so far */
    uint64_t drops;                     /* own stepping: times the other processes' stale particles' state went */
    uint64_t dropped_bytes;             /* the pages given back to the system then, in all (bytes) */
} dem_dist_stats;
void dem_sim_dist_stats(const dem_sim *sim, dem_dist_stats *s);

/* The neighbour search at its last build (dem-step -v prints it). */
#define DEM_NEIGHBOR_MAX_LEVELS 16
typedef struct {
    int multi;              /* 1: the hierarchical grid (neighbor.grid multi, or auto above the size ratio) */
    int levels;             /* its levels (0 with the single-level grid) */
    double rmax[DEM_NEIGHBOR_MAX_LEVELS];   /* each level's largest radius, m (coarsest first) */
    size_t count[DEM_NEIGHBOR_MAX_LEVELS];  /* its particles */
    uint64_t tests;         /* distance tests of the last build: the candidates the masks let through */
    size_t pairs;           /* pairs in the list (in a group of processes, from its first step: this process's
                             * own and foreign pairs, dem_dist_stats) */
} dem_neighbor_info;
void dem_sim_neighbor_info(const dem_sim *sim, dem_neighbor_info *info);
/* Set the time step (s > 0). */
void dem_sim_set_dt(dem_sim *sim, double dt);
double dem_sim_dt(const dem_sim *sim);
/* Set one energy accumulator (dem_energy_index), e.g. the budget's reference DEM_E_INITIAL. */
void dem_sim_set_energy(dem_sim *sim, int index, double value);

/* Run backwards in time (dir < 0): the reversed-time algorithm of Hanley 2019 (eqs 17-20,
 * with drag eqs 27-28): v -= dt/2 F/m, x -= dt v, F(x), v -= dt/2 F/m; walls move back, time
 * decreases, the step counter still counts the steps taken. It is the forward step with dt
 * negated, bit for bit. dir > 0: forward (the default). */
void dem_sim_set_direction(dem_sim *sim, int dir);

/* Exact (fixed-point) mode (Levesque and Verlet 1993): positions on the lattice X quantum,
 * velocities on X quantum / dt, every kick rounded onto the lattice contact by contact and summed
 * as integers, so that a forward run followed by a reversed one returns to the first state bit
 * for bit, for any thread count. Call after the last dem_sim_set_dt. Puts the state (positions,
 * velocities, wall points and velocities, periodic cell, time) onto the lattices; the frame's
 * forces stand only if they are the kick of these positions. Refuses what the lattice cannot
 * carry: tangential forces (torques), local damping, drag, spinning particles; and values whose
 * lattice coordinates would reach 2^53 (then and during the run: DEM_ERR_LIMIT, never a wrap).
 * quantum: a power of two, m. */
DEM_MUST_CHECK dem_status dem_sim_set_exact(dem_sim *sim, double quantum, dem_error *err);
/* The default quantum: the power of two with 2^53 quanta >= 4 times the largest coordinate of
 * the system (particles plus radius, wall points, cell). */
double dem_exact_quantum(const dem_system *s);
/* Whether the sim is in exact mode, and its quantum (m; 0 if not). */
int dem_sim_exact(const dem_sim *sim, double *quantum);

/* The guards that stop an unstable run early (DEM_ERR_UNSTABLE), with a message naming the step,
 * the particle (or pair) and the time step against the collision-time estimate. 0 turns a guard
 * off. */
typedef struct {
    double overlap;  /* an overlap beyond this fraction of the smaller radius (of the radius against
                      * a wall): default 0.5 (settled beds stay below 0.01) */
    double move;     /* a particle moving more than this many neighbour skins in one step: default 1
                      * (a typical step moves 1e-3 skins) */
} dem_sim_limits;

/* The largest overlap of a run, relative to the smaller radius (to the particle's radius against a
 * wall), looked at after every force evaluation: what tells whether the contact stiffness is soft
 * enough to stand in for the real material (overlaps of about 1% and less; README "Choosing the
 * time step"). ratio 0: no contact yet. */
typedef struct {
    double ratio;   /* delta / r_min */
    double overlap; /* delta, m */
    uint64_t step;  /* the step at whose end it was seen (the frame's step count) */
    uint64_t i, j;  /* particle ids; j a wall index when wall is 1 */
    int wall;
} dem_overlap_record;

/* The largest overlap since the sim was made, and the largest of the current forces (the state a
 * run ends in: a settled bed's static overlaps, where the run's largest is often an impact). */
dem_overlap_record dem_sim_largest_overlap(const dem_sim *sim);
dem_overlap_record dem_sim_current_overlap(dem_sim *sim);

void dem_sim_limits_default(dem_sim_limits *lim);
void dem_sim_set_limits(dem_sim *sim, const dem_sim_limits *lim);

/* The deforming periodic cell (cell.c; Šmilauer and Chareyre 2015, §1.6): dH/dt = L H with the frame's cell.vgrad L,
 * particles carried by the homogeneous field L (x - o) and their stored velocities the fluctuation
 * about it (spins about the field's spin); the stress-controlled diagonal components of L (bits 0-2
 * of cell.stress_mask) set every step by a proportional servo:
 *   L_kk = clamp(gain (sigma_kk - target_kk), -max_rate, max_rate),
 * sigma the Love-Weber stress of the contacts (compression positive, as dem-stress).
 * Its constants are the settings cell.gain (1/(Pa s); 0: max_rate over the largest |target|) and
 * cell.max_rate (1/s; 0: the quasi-static rate 1e-3 / (d sqrt(rho / p)), an inertial number of
 * 1e-3 for the mean diameter d, density rho and mean |target| p). */
/* Replay: the velocity gradient of the next step, given (the servo does not decide it). */
void dem_sim_set_cell_rate(dem_sim *sim, const dem_mat3 *l);
/* The velocity gradient the last step used, the Love-Weber stress of the current forces (Pa,
 * compression positive, symmetric) and the cell flips so far. */
dem_mat3 dem_sim_cell_rate(const dem_sim *sim);
dem_mat3 dem_sim_cell_stress(dem_sim *sim);
int dem_sim_cell_flips(const dem_sim *sim);
/* The cell's deformation gradient F, its stress targets and stress mask. */
dem_mat3 dem_sim_cell_deform(const dem_sim *sim);
dem_mat3 dem_sim_cell_target(const dem_sim *sim);
unsigned dem_sim_cell_mask(const dem_sim *sim);
/* The unbalanced-force ratio: the mean |net force| on the free particles over the mean |contact
 * force| (0 without contacts). */
double dem_sim_unbalanced(dem_sim *sim);
/* The contacts in touch (particle pairs and particle-wall) with the current forces: the
 * unbalanced-force ratio is 0 without any, so it means "balanced" only when this is > 0. And in
 * *flying (may be NULL) the free particles that touch nothing and feel a net force (falling under
 * gravity): the ratio divides by the mean over the contacts, so the few first contacts of a
 * falling cloud can make it small while most particles are still in the air. */
size_t dem_sim_touching(dem_sim *sim, size_t *flying);
/* The kinetic energy, translational plus rotational, J, of the free (not fixed) particles, summed
 * in the sim's particle order (deterministic), and their number in *nfree (may be NULL). In a
 * deforming cell it is that of the velocities the frames hold, the fluctuation about the field. */
double dem_sim_kinetic_energy(dem_sim *sim, size_t *nfree);

/* The ranges a system must lie in to be simulated (io/system.h: DEM_RADIUS_MIN ...); dem_sim_new
 * refuses the rest, naming the particle. */

/* Advance one step. Fails if a value becomes non-finite, a guard of dem_sim_limits trips, a
 * particle leaves the ranges above, or the step counter would wrap (naming particle and step). */
DEM_MUST_CHECK dem_status dem_sim_step(dem_sim *sim, dem_error *err);
uint64_t dem_sim_steps(const dem_sim *sim);
double dem_sim_time(const dem_sim *sim);
/* Set the time, s (finite): a run of a given duration puts its last frame on the time asked,
 * where the sum of its steps has drifted by round-off. Nothing a step computes depends on the
 * time. Refused in exact mode, where the time is the step lattice's tick times dt. */
DEM_MUST_CHECK dem_status dem_sim_set_time(dem_sim *sim, double time, dem_error *err);
/* Neighbour-list rebuilds since the sim was made (for benchmarks and tests). */
uint64_t dem_sim_rebuilds(const dem_sim *sim);

/* Quasi-static minimisation (minimize.c; De Klerk et al. 2022, §1, the quasi-static limit; Hanley 2019, §6): the
 * potential energy of the frictionless contacts, bonds, walls and gravity minimised over the
 * positions of the free particles by nonlinear conjugate gradients (Polak-Ribiere+), until every
 * free particle's |net force| <= ftol or max_iter iterations (line searches), or stop (when not
 * NULL) returns nonzero before an iteration (a signal: the state is the last complete iterate,
 * result.interrupted). Free particles end at rest; fixed particles and walls stay; step and time
 * do not change. Refuses friction (a tangential model with history), exact mode and a deforming
 * cell; fails (DEM_ERR_VALUE) when the energy has no minimum along a search direction (gravity
 * with nothing below: the particles would fall for ever). */
typedef struct {
    double ftol;        /* N */
    uint64_t max_iter;
    int (*stop)(void *ctx);
    void *stop_ctx;
} dem_minimize_opts;
typedef struct {
    uint64_t iterations;  /* line searches */
    uint64_t evaluations; /* force evaluations */
    double energy;        /* potential energy at the end, J (contacts, bonds, gravity) */
    double fmax0, fmax;   /* largest |net force| on a free particle at the start and at the end, N */
    double fround;        /* the round-off of the net forces at the start, N: 4 eps times the
                           * largest over the free particles of the sum over its contacts of
                           * |fn| + S_n X (S_n the normal stiffness, X the largest coordinate:
                           * a position's last bit moves a force by S_n eps X) plus m |g|. A
                           * tolerance below it may never be reached. */
    int converged;        /* fmax <= ftol */
    int interrupted;      /* stop said so */
} dem_minimize_result;
DEM_MUST_CHECK dem_status dem_sim_minimize(dem_sim *sim, const dem_minimize_opts *o, dem_minimize_result *r, dem_error *err);
/* The largest |net force| on a free particle of the forces in the sim (N), and the potential
 * energy of the evaluated contacts, bonds and gravity (J). */
double dem_sim_largest_force(const dem_sim *sim);
double dem_sim_potential_energy(const dem_sim *sim);

/* The variational integrator's Newton iterations (variational.c): of the last step, the largest
 * of the run so far, and the totals (linear solves and their CG iterations). residual: the
 * Newton residual |R| at the end of a step relative to its scale (the larger of |R| at the
 * predictor, |p_k| and h |F|, in the M^-1 norm). Returns 0 (and zeros) for another integrator. */
typedef struct {
    unsigned last_newton, max_newton;
    double last_residual, max_residual;
    uint64_t steps, newton, krylov;
} dem_vi_stats;
int dem_sim_vi_stats(const dem_sim *sim, dem_vi_stats *out);

/* Write the current state into out (which must be the frame the sim was built from, or a copy
 * of it): particles, walls, contacts with their history, energy accumulators, step, time, dt,
 * settings. Completes the energy accounting of the last step first (it is otherwise done in the
 * next step's pair pass), which changes nothing a later step computes. */
DEM_MUST_CHECK dem_status dem_sim_store(dem_sim *sim, dem_system *out, dem_error *err);
/* dem_sim_store, dem_system_check and dem_writer_put in one, with the particles and contacts
 * encoded from the sim as the writer goes (no frame-sized table: the frame's own particle and
 * contact tables are freed, dem_sim_release_frame). The same bytes as the three calls. */
struct dem_writer;
/* In a group of processes (dem_sim_set_comm) every process calls it; process 0 writes (it alone
 * receives the state, from the others), the others pass w NULL and write nothing (a writer on
 * another process is an error, after the exchange). */
DEM_MUST_CHECK dem_status dem_sim_put(dem_sim *sim, dem_system *frame, struct dem_writer *w, dem_error *err);
/* Free the frame's particle and contact tables, which a sim built from it holds now (the frame
 * keeps its other sections and its particle count): a run need not hold the state twice. Frames
 * are then written with dem_sim_put; dem_sim_store allocates the particle table again. */
void dem_sim_release_frame(dem_system *frame);
/* dem_sim_store and dem_energy_reference (with settings) in one, the particles and contacts
 * streamed from the sim (no frame-sized table; the frame's own are freed): the same bits. The
 * frame is left with its head (dem_sim_put's). In a group, process 0
 * takes it from the state gathered to it and every process gets its value; every process calls
 * it. */
DEM_MUST_CHECK dem_status dem_sim_energy_reference(dem_sim *sim, dem_system *frame, const dem_settings *settings, double *ref, dem_error *err);

#endif
