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
 * slot of the per-particle dissipation (EDIS), which the books sum in particle order. */
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
};

/* Whether the frame holds clumps the simulation cannot run, with the reason: the variational
 * integrator, a deforming or stress-controlled cell. */
DEM_MUST_CHECK dem_status dem_clumps_supported(const dem_system *s, const dem_settings *st, dem_error *err);
/* From the frame's clumps and members (after dem_particles_load). sim->cl stays NULL without clumps. */
DEM_MUST_CHECK dem_status dem_clumps_load(dem_sim *sim, const dem_system *s, dem_error *err);
void dem_clumps_free(dem_sim *sim);
/* Particles renumbered: inv[old index] = new index. */
void dem_clumps_renumber(dem_sim *sim, const uint32_t *inv);
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
/* The members' forces and torques summed to their clumps, local damping applied to the clump. */
void dem_clumps_gather(dem_sim *sim);
/* Into the frame: the clump records (the members' clump ids are dem_particle_record's). */
void dem_clumps_write(const dem_sim *sim, dem_system *out);
/* The clumps' kinetic energy, 1/2 m v^2 + 1/2 L.w, in clump order, J; their count in *n. */
double dem_clumps_kinetic(const dem_sim *sim, size_t *n);

#endif
