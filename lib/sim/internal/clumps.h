/* clumps.h - rigid clumps of spheres in the simulation (Šmilauer and Chareyre 2015, §1.5.3-1.5.4;
 * formats/dem-stream.md §5.6).
 *
 * A clump's members are particles like any other for the neighbour search, the contacts, walls,
 * bonds and the books, but they never touch each other (dem_clumps_excluded, asked by the
 * neighbour build) and are neither kicked nor drifted on their own (integrate.c skips the particles
 * flagged SIM_PARTICLE_MEMBER). The clump moves instead:
 *   kick   v_c += h/2 F_c/m_c, L += h/2 T_c, w = R I^-1 R^T L         (dem_clumps_kick)
 *   drift  x_c += h v_c; q turned by rigid.h's torque-free rotor at constant L (dem_clumps_drift)
 * and its members follow its pose: x_k = x_c + R b_k (less H times their image counters in a
 * periodic cell), v_k = v_c + w x R b_k, w_k = w, q_k = q. After each force evaluation the
 * members' forces are summed to the clump (dem_clumps_gather): F_c = m_c g + sum_k (f_k - m_k g),
 * T_c = sum_k (t_k + R b_k x (f_k - m_k g)), over each clump's members in the order of their ids,
 * clump by clump: the same bits for any thread count, any particle order, any split of a run. The
 * state a step starts from (x_c, v_c, q, L, F_c, T_c) is what the frame holds. Local damping acts
 * on the clump's force and torque, drag on its velocity; both are booked on its first member's
 * slot of the per-particle dissipation (EDIS), which the books sum in particle order.
 *
 * In a deforming periodic cell (cell.h) a clump is one body of the affine field. Its centroid is
 * mapped as a free sphere's centre, x_c - o <- M (x_c - o), and its velocity v_c is, as a sphere's,
 * the fluctuation about the field, mapped u <- M^-1 u (du/dt = F/m - L u); the kinetic energy the
 * map changes goes into work_cell. Its members are placed rigidly from the pose (never stretched).
 * Its angular momentum L and angular velocity w are the laboratory's and the map leaves them alone:
 * a rigid body's L changes only by torques (dL/dt = T), and the field's spin reaches it through its
 * contacts (Yade's NewtonIntegrator applies the field only to a clump's centroid; LAMMPS's fix
 * rigid under fix deform maps only each body's centre of mass, FixRigid::deform). A member's
 * velocity and spin are then, like a sphere's, about the field at its own centre:
 *   v_k = v_c + w x R b_k - C R b_k,   w_k = w - wL,
 * with C the field's chord over the step that the contacts use (cell.h) and wL the field's spin,
 * so that a contact between members sees exactly the rigid bodies' relative velocity.
 * The cell's sums (cell.c) count each clump as one body: its contacts' branch vectors join the
 * clumps' centroids (the Love-Weber stress dem-stress prints), and the power of the field on a
 * clump is F_c . L (x_c - o), with no term in wL for its torques. */
#ifndef DEM_SIM_CLUMPS_H
#define DEM_SIM_CLUMPS_H

#include "sim/internal/state.h"

/* A particle flag private to the simulation (never written to a frame): a clump's member. */
#define SIM_PARTICLE_MEMBER (1u << 31)
#define SIM_NO_CLUMP UINT32_MAX

struct sim_clumps {
    size_t n;               /* clumps, in the frame's order */
    uint64_t *id;
    double *m;              /* kg */
    dem_vec3 *inertia;      /* principal moments, kg m^2 */
    dem_vec3 *x, *v, *w, *L, *f, *t;
    dem_quat *q;
    size_t *start;          /* n + 1: clump c's members are slots start[c] .. start[c+1]-1, by id */
    uint32_t *pidx;         /* per member slot: the particle index (renumbered with the particles) */
    dem_vec3 *body;         /* per member slot: centre in the body frame, m */
    dem_vec3 *rw;           /* per member slot: R b at the clump's current orientation, m */
    uint32_t *of;           /* per particle: its clump's index, or SIM_NO_CLUMP */
    uint32_t *slot;         /* per particle: its member slot, or SIM_NO_CLUMP */
    double *rb;             /* per clump: its bounding radius max |b| + r, m */
    double *dk;             /* per clump: the kinetic energy the field's map of this half step gave it, J */
};

/* Whether the frame holds clumps the simulation cannot run, with the reason: the variational
 * integrator. */
DEM_MUST_CHECK dem_status dem_clumps_supported(const dem_system *s, const dem_settings *st, dem_error *err);
/* From the frame's clumps and members (after dem_particles_load). sim->cl stays NULL without clumps. */
DEM_MUST_CHECK dem_status dem_clumps_load(dem_sim *sim, const dem_system *s, dem_error *err);
void dem_clumps_free(dem_sim *sim);
/* Particles renumbered: inv[old index] = new index. */
void dem_clumps_renumber(dem_sim *sim, const uint32_t *inv);
/* A member's offset R b from its clump's centroid, or NULL for a particle in no clump. */
static inline const dem_vec3 *dem_clumps_offset(const dem_sim *sim, size_t a)
{
    const struct sim_clumps *c = sim->cl;
    return c && c->slot[a] != SIM_NO_CLUMP ? &c->rw[c->slot[a]] : NULL;
}
/* Particles a and b are members of one clump. */
static inline int dem_clumps_excluded(const dem_sim *sim, size_t a, size_t b)
{
    const uint32_t *of = sim->cl->of;
    return of[a] != SIM_NO_CLUMP && of[a] == of[b];
}
/* The half kick of every clump by its force and torque (h: the signed half step), then its
 * members' velocities. */
void dem_clumps_kick(dem_sim *sim, double h);
/* The drift of every clump over the signed step h (drag gd, forward or reversed as integrate.c's
 * particles), then its members' poses; the largest squared surface step of a member into *move2,
 * a non-finite one into *nonfinite. */
void dem_clumps_drift(dem_sim *sim, double h, double gd, int reverse, double *move2, int *nonfinite);
/* The deforming cell's map of every clump (this process's: dist.h) over a half step (cell.c's K = M
 * - I and Kinv = M^-1 - I about the origin o), after the cell's H: centroid and fluctuation velocity
 * mapped, members placed from the pose and given their velocities; the kinetic energy the map
 * changed in dk (cell.c sums it in particle order, each clump at its first member). */
void dem_clumps_affine(dem_sim *sim, dem_mat3 k, dem_mat3 kinv, dem_vec3 o);
/* A deforming cell: fails when it has become narrower along a periodic axis than a clump's extent
 * (a clump would touch its own image, which it never does). */
DEM_MUST_CHECK dem_status dem_clumps_check_cell(const dem_sim *sim, dem_error *err);
/* The members' forces and torques summed to their clumps, local damping applied to the clump. */
void dem_clumps_gather(dem_sim *sim);
/* Into the frame: the clump records (the members' clump ids are dem_particle_record's). */
void dem_clumps_write(const dem_sim *sim, dem_system *out);
/* Clump k's kinetic energy, 1/2 m v^2 + 1/2 L.w, J. */
double dem_clumps_kinetic(const dem_sim *sim, size_t k);
/* The clump whose first member (by id) particle a is, or SIM_NO_CLUMP: the sums over the
 * particles in their order count a clump there (its process moves it: dist.h). */
size_t dem_clumps_first_member(const dem_sim *sim, size_t a);
/* Clump k's members' offsets R b from its orientation (as its drift places them): for a process
 * that receives its state (dist.h). */
void dem_clumps_offsets(dem_sim *sim, size_t k);

#endif
