/* variational.h - the implicit variational integrator of De Klerk et al. (De Klerk et al. 2022, §2), with the
 * corrections of docs/models.md §3: the integrator registry's row "variational" (integrate.c).
 *
 * One step from (q_k, p_k) solves R(q_{k+1}) = 0, eq 29 corrected,
 *     R = p_k - M (q_{k+1} - q_k)/h - h (1 - alpha) grad V(q_{k+alpha})
 *             + h/2 [Q(q_{k+alpha}, (q_{k+1} - q_k)/h) + Q(q_k, M^-1 p_k)],
 * by Newton's method with -K = M/h + h alpha (1 - alpha) grad^2 V(q_{k+alpha}) + 1/2 C(q_{k+alpha})
 * (eq 30 corrected, C = -dQ/dqdot the dashpots' velocity Jacobian), each linear system by
 * preconditioned conjugate gradients (core/krylov.c), then p_{k+1} = M (q_{k+1} - q_k)/h
 * - h alpha grad V(q_{k+alpha}) (eq 31). q holds each sphere's position and rotation angles;
 * V the Hookean normal springs kn delta^2/2 of touching pairs and plane walls, the bonds
 * kb delta^2/2, and gravity; Q the normal dashpot -c_n v_n n and the tangential dashpot -c_t v_t
 * (De Klerk et al. 2022, eqs 20-21 without the tangential spring, c from the damping model: viscous c_n =
 * gamma_n, c_t = gamma_t in kg/s). The frame's velocities are p/m and L/I.
 *
 * Matrix-free: K is applied contact by contact (the per-pair blocks of docs/models.md §3.2) and
 * never assembled. A step's matrix changes with every Newton iteration (alpha = 1/2) and has one
 * 6x6 block pair per contact; CG needs only products, so storing it would cost memory and a
 * sparse format without saving work. The dashpots' position Jacobian (alpha h/2 dQ/dq) is left
 * out, which keeps -K symmetric for CG: a quasi-Newton method that converges linearly instead of
 * quadratically when a damped contact is active at alpha = 1/2, and exactly as Newton otherwise.
 * Every sum runs in a fixed order on one thread: the same bits for any thread count and split. */
#ifndef DEM_SIM_VARIATIONAL_H
#define DEM_SIM_VARIATIONAL_H

#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_vi_step(dem_sim *sim, dem_error *err);
void dem_vi_free(dem_sim *sim);

#endif
