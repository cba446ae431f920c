/* state.h - the simulation's state, grouped by the module that owns each part (internal to
 * lib/sim/; the public interface is sim.h).
 *
 *   particles   particles.c   per-particle arrays; allocation and reordering
 *   bounds      boundary.c    walls and the periodic cell (H, H^-1, images, wrap)
 *   nbr         neighbor.c    the cell grid, the Verlet list's build state, the spatial sort
 *   store       contacts.c    pair records and results, particle-wall slots, adjacency, blocks
 *   books       books.c       the energy accounting by mechanism
 *   ex          exact.c       the fixed-point lattice of the exact mode
 *   g           guard.c       the ranges a system must lie in, the instability guards
 * forces.c evaluates the contacts and sums the forces; integrate.c is the integrator registry;
 * sim.c builds, steps and stores the whole.
 *
 * Determinism: every sum has a fixed order. Forces are summed per particle over its contacts in
 * the order of the (sorted) pair list; particles are re-sorted in space at fixed steps counted
 * from step 0; the books are summed over fixed blocks of particles (PAIR_BLOCK). */
#ifndef DEM_SIM_STATE_H
#define DEM_SIM_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/energy.h"
#include "laws/settings.h"
#include "io/system.h"
#include "laws/laws.h"
#include "sim/internal/par.h"
#include "sim/sim.h"

/* Particles per block of the deferred accounting's sums and of the pair pass. A block holds the
 * pairs whose i is in it; its touching pairs are the same, in the same (sorted) order, in any
 * neighbour list, so the sums do not depend on the thread count, on when the list was built, or
 * on how a run is split. */
#define PAIR_BLOCK 64
#define EDIS 2 /* per particle per step: local damping, drag (J) */
#define EDIS_LOCAL 0
#define EDIS_DRAG 1

typedef struct {
    size_t n;
    dem_vec3 *x, *v, *w, *f, *t;
    dem_quat *q;
    double *r, *m, *inertia;
    double *inv_m, *inv_i;  /* 1/m, 1/I */
    uint32_t *mat, *flags, *group;
    uint64_t *id;
    int32_t (*image)[3];
    double rmax;            /* the largest radius */
    size_t nfixed;          /* fixed particles: never kicked, driven if they move (integrate.c) */
} sim_particles;

/* The sums over the contacts of the current forces that the deforming cell needs (cell.c):
 * pairs: sum f (x) d (f on i, d = x_i - x_j' the branch vector); wall contacts: sum f (x) (x - o)
 * and sum f (x) (c - x) (c the contact point). With clumps, what counts each as one body (cell.c's
 * clump_fabric): sum f (x) R b over the members' contacts, the members' torques, and the clumps'
 * weights at their centroids less the members' at their centres. */
typedef struct {
    dem_mat3 pairs, wall_x, wall_r;
    dem_mat3 clumps, gravity;
    dem_vec3 torque;
} sim_fabric;

typedef struct {
    size_t nwalls;
    dem_wall *walls;
    void *tsum;             /* forces.c's totals of a step as they run (dem_forces_totals_size) */
    dem_cell cell;
    int periodic[3];
    dem_mat3 hinv;
    int32_t (*wrapped)[3];  /* images crossed by each particle in this step's wrap */
    double *dkin;           /* per particle: the kinetic energy the field's map of this half step
                             * gave its fluctuation velocity (cell.c), J, summed in particle order */
    /* the deforming cell (cell.c) */
    int deforming;          /* L != 0 or a servo: the affine field acts */
    int servo;              /* the servo decides the stress-controlled components (off: replayed) */
    dem_mat3 lsym;          /* D = (L + L^T)/2 of this step */
    dem_mat3 chord;         /* (I - M^-2) / h: the field's velocity of this step as the chord of its map
                             * M^2, so that the contact sees the step the positions take (a rigid spin is
                             * then carried exactly by vv-improved's half-step normal) */
    dem_vec3 wl;            /* the spin of the field, (L - L^T)/2 as a vector: particles' spins are relative to it */
    sim_fabric fab;         /* of the current forces, when fab_ok */
    int fab_ok;
    double gain, max_rate;  /* the servo's, resolved (1/(Pa s), 1/s) */
    int flips;              /* cell flips so far */
} sim_bounds;

typedef struct {
    double skin;
    double reach;           /* an adhesive law's largest neck |delta_c| over the material pairs, m
                             * (0: contacts end at zero overlap): added to every cutoff */
    dem_vec3 *x_build;      /* positions at the last rebuild */
    dem_mat3 h_build;       /* the cell at the last rebuild (a deforming cell's affine motion is no reason to rebuild) */
    dem_vec3 *wall_build;   /* wall points at the last rebuild */
    uint64_t sort_every;    /* steps between spatial sorts of the particles (0: never) */
    uint64_t sorted_step;   /* step of the last sort (UINT64_MAX: none yet) */
    uint64_t rebuilds;
    size_t *cell_start, *cell_items, cap_cells; /* cell grid scratch */
    struct nbr_multi *multi;/* the hierarchical grid's levels and scratch (neighbor_multi.c), NULL until used */
    int used_multi;         /* the last build used it */
    uint64_t tests;         /* distance tests of the last build (pairs past the interaction masks) */
} sim_neighbor;

/* Candidate pairs of a rebuild as keys (contacts.c), one buffer per thread of the scan. */
typedef struct {
    struct store_key_s *k;
    size_t n, cap;
} store_keys;

typedef struct {
    /* pairs within the neighbour cutoff, sorted by (i, j, s) */
    dem_contact_rec *pairs;
    size_t npairs, cap_pairs;
    dem_contact_out *out;   /* per pair: the last evaluation's result (64-byte aligned) */
    uint8_t *ptouch;        /* 1 if pair p touched at the last evaluation */
    size_t cap_out;
    /* Each particle sums its pairs in list order: first those where it is j (i < j: earlier in the
     * list sorted by i), from jadj, then its own i-range of the list, pairs istart[a] ..
     * istart[a+1]-1 (read in place: sequential). i < j in every pair: no particle reaches its
     * own periodic image (dem_sim_new refuses a cell narrower than the cutoff). */
    uint32_t *jadj;
    size_t *jadj_start, *istart;
    size_t cap_adj;
    size_t *pblk;           /* pairs pblk[b] .. pblk[b+1]-1 have i in block b (PAIR_BLOCK particles) */
    size_t nblk;            /* blocks: ceil(n / PAIR_BLOCK) */
    /* Particle-wall slots, like the neighbour list: one per particle and wall within the skin at
     * the last rebuild (no other wall can touch the particle before the next one), in particle
     * then wall order; particle a owns slots wstart[a] .. wstart[a+1]-1. */
    size_t nwslots, cap_wslots;
    size_t *wstart;         /* n + 1 */
    uint32_t *wowner;       /* per slot: the particle */
    uint32_t *wwall;        /* per slot: the wall */
    dem_contact_rec *whist; /* per slot: record, same layout as pairs (i: particle, j: wall) */
    dem_contact_out *wout;  /* per slot: the result of the last evaluation */
    uint8_t *wtouch;        /* per slot: 1 if the particle touched the wall at the last evaluation */
    /* a rebuild's candidate pairs (i, j, s), 20 bytes each, sorted before they become records
     * (contacts.c); freed at the end of the rebuild */
    store_keys keys;
    /* hooke's stiffnesses kn, kt (N/m) per pair and per wall slot, NULL unless the normal law is
     * hooke: functions of the two particles (or the particle and the wall) that the kn_from rules
     * make costly (pow), so computed at each rebuild for every pair (contacts.c) rather than at
     * each evaluation; the other laws' pairs carry nothing for them */
    double (*hooke)[2], (*whooke)[2];
    /* rolling and twisting resistance (roll.h): side arrays beside pairs and whist, NULL unless a
     * rolling or twisting model is on */
    struct dem_roll_rec_s *roll, *wroll;
    int roll_on;            /* a rolling or twisting model is on (the one test the force sums make) */
    /* a frame's pair results (dem_store_load), a side array beside the kept records until the
     * first build places them (merge_kept; in a group, route_kept and deliver_kept carry them with
     * their records); NULL otherwise */
    dem_contact_out *kout;
    size_t cap_kout;
} sim_store;

enum { ACCT_NONE = 0, ACCT_PENDING = 1, ACCT_SAVED = 2 };

typedef struct {
    double energy[DEM_E_COUNT];
    double *edis;           /* per particle per step: local damping, drag (J); see EDIS */
    int setup_pending;      /* the setup forces' first half step is not in the accumulators yet */
    double setup_p[4];      /* their powers: normal dashpot, local damping, walls, driven particles (W) */
    double (*bsum)[5];      /* per block of particles: its pairs' part of the deferred full-step accounting
                             * (friction, damp_n, damp_t, law, normal-dashpot power) */
    double *blost;          /* per block of particles: friction its pairs' contacts gave up as they were lost this step, J */
    double *wlost;          /* per particle-wall slot: the same (sized with the slots) */
    double *badh, *wadh;    /* adhesive laws and tangential springs only (else NULL): per block of particles,
                             * and per particle for its wall contacts, the law's work as contacts formed or
                             * broke this step (J): adhesion, springs cut loaded (dem_contact_forget) */
    /* The full-step accounting of the pairs of step k needs the velocities at t + dt, after the
     * second half kick; it is done in step k + 1's pair pass, which reads the same records anyway
     * (ACCT_SAVED), or by dem_books_flush before anything that changes the pairs, dt or mode, and
     * before a store (ACCT_PENDING). Both run pair_block over the same fixed blocks of particles
     * (PAIR_BLOCK), so the books are the same bits whichever way, and however a run is split. */
    int acct;               /* ACCT_NONE, ACCT_PENDING (full-step velocities in v, w) or ACCT_SAVED (in vf, wf) */
    dem_vec3 *vf, *wf;      /* full-step velocities of the last step, saved by the next first half kick */
    double pend_w[5];       /* the last step's wall contacts: friction, damp_n, damp_t, law, dashpot power */
    double pend_lost, pend_dl, pend_dw; /* its lost contacts' friction, local damping, and work of the
                                         * walls and driven particles, J */
    int deforming;          /* the accounted step's cell deformed: its field's L and spin (the servo */
    dem_mat3 lstep, dstep;  /* may have changed the cell's L since), and D */
    dem_vec3 wlstep;
    /* rolling and twisting resistance (roll.h; NULL when off): per block of particles, its pairs'
     * part of the accounting (rolling, twisting, law) and the springs' energy of the contacts lost
     * (rolling, twisting); per wall slot the latter; the walls' part of the pending step */
    double (*rsum)[3], (*rlost)[2], (*wrlost)[2];
    double pend_r[3], pend_rlost[2];
    /* The per-block sums above summed over the blocks in block order from zero (bsum's and rsum's
     * by a pass with the accounting, the others by one with an evaluation; dem_books_blocks): what
     * the step's books read, the same on every process of a group (a chain over their blocks). */
    double blk_sum[5], blk_lost, blk_adh, blk_roll[3], blk_rlost[2];
} sim_books;

/* exact (fixed-point) mode, Levesque and Verlet 1993: positions x = X qx and velocities
 * v = V qv (qv = qx / dt) on lattices, X and V integers, every kick an integer */
typedef struct {
    int on;
    double qx, qv;
    int64_t (*V)[3];        /* velocity in lattice units: X advances by V every step */
    int64_t (*K)[3];        /* the half kick of the current forces, lattice units */
    double *kc;             /* dt^2 / (2 m qx): force (N) to half kick (lattice units) */
    int64_t kg[3];          /* the half kick of gravity */
    int64_t (*wV)[3];       /* per wall: lattice steps per step */
    int64_t tick;           /* time = tick dt */
    uint8_t *kbad;          /* per particle: a kick left the lattice's range in this evaluation */
    size_t wbad;            /* 1 + the first wall whose point left the lattice's range (0: none) */
    /* a sheared cell (dem_exact_field): x_i += round(n (x_j - o_j) / H_jj) quanta per half step, n the
     * quanta the cell's face x_j = o_j + H_jj moves in it; i = sh_i, j = sh_j, H_jj = sh_hq quanta */
    int shear, sh_i, sh_j;
    int64_t sh_n, sh_hq;
} sim_exact;

/* The instability guards (guard.c). */
typedef struct {
    dem_sim_limits lim;
    double ovl;             /* lim.overlap, or infinity when off: forces.c flags delta > ovl r */
    uint8_t *bbad;          /* per block: a pair overlapped beyond the limit in the last evaluation */
    size_t nbbad;           /* such blocks (every process's: dem_books_blocks) */
    uint8_t *pbad;          /* per particle: a wall overlap beyond the limit (set, never cleared: the run stops) */
    size_t nwbad;           /* particles with such a wall overlap */
    double *bworst;         /* per block: the largest delta / r_min of its pairs in the last evaluation */
    size_t *bworst_pair;    /* per block: that pair's index */
    double *bworst_delta;   /* per block: that pair's overlap, m (the processes exchange it: not its result line) */
    dem_overlap_record most;/* the largest overlap of the run so far (dem_guard_track_overlaps) */
    double move2;           /* the largest squared step of a particle's surface in the last drift, m^2 */
    int nonfinite;          /* a velocity or spin of the last drift was not finite */
} sim_guard;

/* Harmonic bonds (bonds.c): n = 0 and nothing allocated unless the frame has bonds. */
typedef struct {
    size_t n;
    uint32_t *i, *j;        /* particle indices (renumbered with the particles) */
    int64_t (*c)[3];        /* C = s + image_i - image_j, constant (bonds.h) */
    double *kb;             /* N/m */
    double *delta;          /* of the last evaluation, m */
    dem_vec3 *f;            /* force on i of the last evaluation, N */
    size_t *start, *list;   /* particle a's bonds: list[start[a] .. start[a+1]-1] = 2 k + side */
} sim_bonds;

/* Material-pair constants (index a * nmat + b). */
typedef struct {
    double estar, gstar, gstar_l, mu, beta, gamma;
} mat_pair;

struct sim_integrator;
struct sim_vi; /* variational.c's workspace, made at its first step */

struct dem_sim {
    dem_settings st;
    const struct sim_integrator *integ; /* integrate.c's registry row for st.integrator */
    int threads;            /* 1: every loop runs plainly (pool NULL: no thread, no lock, no
                             * system call: a 3-sphere step costs 0.2 us, par.h) */
    struct par_pool *pool;  /* the other threads-1 threads (par.c) */
    par_partial *part;      /* one partial result per thread (par.h) */
    double dt;
    int dir;                /* +1 forward in time; -1 reversed (Hanley eqs 17-20) */
    double h;               /* signed time step dir * dt: every update of the state uses it */
    double hdt;             /* time step of history and energy updates: h, 0 in a setup evaluation */
    uint64_t step;
    double time;
    int forces_current;     /* forces in f, t belong to the current state */
    size_t nmat;
    dem_material *materials;
    mat_pair *mp;
    double (*mroll)[2];     /* per material pair (as mp): rolling and twisting coefficients mu_r, mu_o, the
                             * smaller of the two materials'; NULL unless a rolling or twisting model is on */
    sim_particles p;
    sim_bounds b;
    sim_neighbor nbr;
    sim_store c;
    sim_books e;
    sim_exact ex;
    sim_guard g;
    sim_bonds bd;
    struct sim_vi *vi;
    struct sim_clumps *cl;  /* rigid clumps (clumps.h); NULL without */
    struct sim_dist *dist;  /* the group of processes it runs on (dist.h); NULL in one process */
};

/* A fixed particle that moves or spins: driven at its prescribed velocities. */
static inline int dem_particle_driven(const sim_particles *P, size_t a)
{
    const dem_vec3 v = P->v[a], w = P->w[a];
    return v.x != 0.0 || v.y != 0.0 || v.z != 0.0 || w.x != 0.0 || w.y != 0.0 || w.z != 0.0;
}

/* The squared step of particle a's surface in a step h, (|v|^2 + |w|^2 r^2) h^2: at least half
 * the square of its fastest point's step (the guard against steps longer than the skin); not
 * finite if v or w is not. */
static inline double surface_step2(const sim_particles *P, size_t a, double h)
{
    return (dem_v3_norm2(P->v[a]) + dem_v3_norm2(P->w[a]) * P->r[a] * P->r[a]) * h * h;
}

/* The effective radius of particles i and j, r_i r_j / (r_i + r_j) (Vyas et al. 2025, eq 3), as
 * dem_pair_init computes it. */
static inline double sim_rstar(const sim_particles *P, uint32_t i, uint32_t j) { return P->r[i] * P->r[j] / (P->r[i] + P->r[j]); }

/* The law properties of a contact from the material table (mi, mj: the materials), its m* and R*,
 * and hooke's stiffnesses (hk, when the law is hooke). */
static inline void sim_contact_properties(const dem_sim *sim, dem_pair *p, uint32_t mi, uint32_t mj, double mstar, double rstar,
                                          const double *hk)
{
    const mat_pair *mp = &sim->mp[mi * sim->nmat + mj];
    p->mstar = mstar;
    p->rstar = rstar;
    p->estar = mp->estar;
    p->gstar = mp->gstar;
    p->gstar_l = mp->gstar_l;
    p->mu = mp->mu;
    p->beta = mp->beta;
    p->gamma = mp->gamma;
    p->kn = hk ? hk[0] : 0.0;
    p->kt = hk ? hk[1] : 0.0;
}

/* Pair pi's law properties: m* and R* from the particles' masses and radii (the expressions of
 * dem_pair_init, so the same bits as stored constants would give). */
static inline void sim_pair_properties(const dem_sim *sim, dem_pair *p, size_t pi)
{
    const sim_particles *P = &sim->p;
    const dem_contact_rec *h = &sim->c.pairs[pi];
    uint32_t i = h->i, j = h->j;
    sim_contact_properties(sim, p, P->mat[i], P->mat[j], P->m[i] * P->m[j] / (P->m[i] + P->m[j]), sim_rstar(P, i, j),
                           sim->c.hooke ? sim->c.hooke[pi] : NULL);
}

/* Wall slot q's: the wall is rigid, infinitely heavy and large (m* = m, R* = r). */
static inline void sim_wall_properties(const dem_sim *sim, dem_pair *p, size_t q)
{
    const sim_particles *P = &sim->p;
    uint32_t a = sim->c.wowner[q];
    sim_contact_properties(sim, p, P->mat[a], sim->b.walls[sim->c.wwall[q]].material, P->m[a], P->r[a],
                           sim->c.whooke ? sim->c.whooke[q] : NULL);
}

#endif
