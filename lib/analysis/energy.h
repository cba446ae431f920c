/* energy.h - the energy budget of one frame (dem-energy).
 *
 * A frame holds everything the budget needs: the state, from which the kinetic, gravitational
 * and elastic energies follow, and the ENRG accumulators dem-step keeps since the system was
 * created: energy dissipated by each mechanism (D) and work done on the particles by walls, the
 * cell and other prescribed motions (W). With E the mechanical energy of the frame, as velocity
 * Verlet conserves it (below),
 *
 *     residual = e_initial + W - (E + D) + e_ahead
 *
 * is the energy the integration created (negative) or lost (positive) without any mechanism
 * accounting for it: zero for exact arithmetic and an exact integrator, so the number that says
 * whether a run can be trusted. e_initial is the budget's reference (ENRG field of format 1.1):
 * E + D - W - e_ahead at the state where the accounting started, i.e. the mechanical energy of
 * the initial state at step 0. e_ahead (format 1.1) is the part of D - W that belongs to the
 * half step after the frame's time: a writer that counts the work of the forces of a step over
 * both of its half kicks at that step is that much ahead of the frame's velocities
 * (formats/dem-stream.md §5.9).
 *
 * Energies (J):
 *   ekin_t = sum 1/2 m |v|^2,  ekin_r = sum 1/2 I |w|^2 (every particle, fixed ones included);
 *   epot_g = -sum m g . x with x the unwrapped position x + H image in a periodic cell (so the
 *            potential keeps falling as particles fall through periodic faces along g, as their
 *            kinetic energy keeps rising), zero at the origin, g the frame's gravity setting;
 *   a rigid clump counts as one body in these three: 1/2 m v^2 and 1/2 L.w (w = R I^-1 R^T L) of
 *            the clump, -m g . x_c at its (never wrapped) centre of mass; its members' own masses
 *            and velocities are not summed;
 *   eel_n  = sum over contact records with overlap > 0 of the normal law's potential U(delta)
 *            (hooke: kn/2 delta^2; hertz: 8/15 E* sqrt(R*) delta^(5/2)), with the pair's
 *            properties from dem_pair_init as dem-step computes them;
 *   eel_t  = sum of 1/2 S_t |xi|^2, xi the tangential spring (history slots 0..2) and S_t the
 *            tangential stiffness at the current overlap (hooke: kt, exact: the spring is
 *            linear; hertz: Mindlin's 8 G* sqrt(R* delta), which varies with the overlap while
 *            the spring keeps its stretch, so 1/2 S_t |xi|^2 is the energy of the spring now
 *            but not a potential: changing the overlap at fixed xi changes it without work.
 *            dem-step books that change as the law's work, work_law (format 1.2), part of W,
 *            so the residual is left with the integration error); for a tangential model
 *            whose slots hold the spring force f_s (DEM_HISTORY_FORCE: `incremental`),
 *            |f_s|^2 / (2 S_t) with the same S_t;
 *   eel_b  = sum over the bonds (format 1.5) of kb delta^2 / 2, the bond's delta recomputed from
 *            the positions (De Klerk et al. 2022, §3.3: in tension and compression alike);
 *   e_shadow = dt^2/12 sum_contacts v.U''.v - dt^2/24 sum (|F|^2/m + |T|^2/I), velocity
 *            Verlet's shadow-energy term, with the frame's dt, velocities, forces F and torques T
 *            (those the kicks use: gravity and local damping included); the second sum over the
 *            particles that are not fixed (the kicks skip them). v.U''.v is the quadratic form
 *            of the contact's elastic springs' Hessian in the velocities: with S_n = dF/d delta
 *            and fe = F(delta) of the normal law, n the normal, vr the velocity of i relative to
 *            j (to a wall: relative to the wall's velocity at the contact point) and vr_perp its
 *            part normal to n,
 *                S_n (vr.n)^2 - fe/|x_i - x_j| |vr_perp|^2     (pair; the second term: n turns)
 *                S_n (vr.n)^2 +- fe/rho (vr.(a x n))^2          (cylinder wall of axis a, rho the
 *                                                                centre's distance to the axis,
 *                                                                + inside, - outside; 0 for planes)
 *              + S_t |vt|^2 for a tangential spring that is not sliding, vt the contact point's
 *                tangential relative velocity (lever arms r - delta/2, as dem-step).
 *            Not for the variational integrator (settings integrator variational), which has
 *            no such term: it conserves E itself (exactly for alpha = 1/2 and quadratic V).
 *            Only when the frame's forces are current (HEAD flags bit 0, formats/dem-stream.md
 *            §5.1), i.e. they are the forces the next kick uses; 0 otherwise (dem-pack output).
 *
 * Why e_shadow. Velocity Verlet (half kick, drift, half kick: Vyas et al. 2025, eqs 8, 9, 20) does not
 * conserve H = E - e_shadow, the kinetic, gravitational and elastic energy: while springs are
 * loaded, H computed from full-step velocities swings by up to w^2 dt^2 / 4 of the energy in the
 * contact (w^2 = k/m; 2.5e-4 at dt = tc/100), although no energy is made or lost. What it
 * conserves is a nearby "shadow" energy. For forces -K x of a quadratic potential U = 1/2 x.K.x
 * (any number of linear springs), with M the masses,
 *     Q(n) = 1/2 v(n-1/2).M.v(n+1/2) + U(x(n)),   v(n +- 1/2) = v(n) +- dt/2 M^-1 F(n),
 * is invariant exactly: x(n+1) - x(n) = dt v(n+1/2) and v(n+3/2) - v(n-1/2) = -dt M^-1 K
 * (x(n+1) + x(n)) give Q(n+1) - Q(n) = -dt/2 v(n+1/2).K.(x(n+1) + x(n)) + 1/2 (x(n+1) -
 * x(n)).K.(x(n+1) + x(n)) = 0, and Q = H - dt^2/8 F.M^-1.F (one oscillator: 1/2 m v^2 + 1/2 k
 * x^2 (1 - w^2 dt^2 / 4)). For non-linear forces (hertz) Q is not invariant: each step changes it
 * by the trapezoidal rule's error on the step's work, which accumulates over the loading of a
 * contact and exceeds H's own swing. The invariant of velocity Verlet for any smooth potential,
 * to order dt^2, is the modified Hamiltonian of backward error analysis (the h^2 term of the
 * Baker-Campbell-Hausdorff formula for kick-drift-kick; e.g. Hairer, Lubich & Wanner, Acta
 * Numerica 12 (2003) 399-450):
 *     H + dt^2/12 v.U''.v - dt^2/24 F.M^-1.F,
 * whose change over a run is O(dt^4) where the forces are smooth. That is H + e_shadow = E. For
 * one linear spring it is Q + (w^2 dt^2 / 6) H: not exactly invariant as Q is, but to O(dt^4),
 * and unlike Q it holds for hertz as well (measured, tests/unit/test_energy.c).
 *
 * What remains in the residual: dissipation that the accumulators do not count exactly; the
 * step in which a contact closes or opens, where the force law is not smooth. For hooke the
 * stiffness jumps there and that step changes the shadow energy by k (s (s - d)/2 + d^2/12), d
 * the step's approach and s the overlap at its end: up to w^2 dt^2 / 6 of the collision's
 * energy, depending on where the contact begins within a step, and given back, mostly, when it
 * opens; no correction computed from one frame can remove it. For hertz (stiffness 0 at
 * delta = 0) the onset costs far less, falling as dt^2.5 (measured). A change of dt between
 * stages of a run shifts the residual by the change of e_shadow, since the shadow energy is
 * defined with one dt. e_initial is computed with the same E (dem_energy_reference), so the
 * residual compares like with like. */
#ifndef DEM_ENERGY_H
#define DEM_ENERGY_H

#include "core/error.h"
#include "laws/settings.h"
#include "laws/laws.h"
#include "io/stream.h"
#include "io/system.h"

typedef struct {
    double ekin_t, ekin_r; /* J */
    double epot_g;         /* J */
    double eel_n, eel_t;   /* J */
    double eel_b;          /* J: the bonds' elastic energy */
    double e_shadow;       /* J: velocity Verlet's shadow-energy term (above) */
} dem_energy_terms;

/* The mechanical energies of a frame with settings st (dem_settings_read of the frame). Fails
 * only if a contact names a particle or wall that the frame does not have. */
DEM_MUST_CHECK dem_status dem_energy_terms_compute(const dem_system *s, const dem_settings *st, dem_energy_terms *e,
                                    dem_error *err);
/* E = ekin_t + ekin_r + epot_g + eel_n + eel_t + eel_b + e_shadow: the mechanical energy that velocity
 * Verlet conserves. */
double dem_energy_mechanical(const dem_energy_terms *e);
/* D: the sum of the frame's ediss_* accumulators (friction, damp_n, damp_t, local, drag,
 * rolling, twisting). */
double dem_energy_dissipated(const dem_system *s);
/* W: work_walls + work_cell + work_external + work_law. */
double dem_energy_work(const dem_system *s);
/* The reference E + D - W - e_ahead of this frame: the e_initial of a budget that starts here. */
DEM_MUST_CHECK dem_status dem_energy_reference(const dem_system *s, const dem_settings *st, double *ref, dem_error *err);
/* The same two with the frame's particles from psrc and its contacts from src (io/stream.h's
 * sources; either NULL: the frame's table) instead of its tables, in the same order: the same
 * bits, without a frame-sized table (dem_sim_energy_reference). psrc's count must be the frame's
 * nparticles; its records are read one or two at a time, by index. */
DEM_MUST_CHECK dem_status dem_energy_terms_source(const dem_system *s, const dem_settings *st, const dem_particle_source *psrc,
                                   const dem_contact_source *src, dem_energy_terms *e, dem_error *err);
DEM_MUST_CHECK dem_status dem_energy_reference_source(const dem_system *s, const dem_settings *st, const dem_particle_source *psrc,
                                       const dem_contact_source *src, double *ref, dem_error *err);
/* ref + W - (E + D) + e_ahead */
double dem_energy_residual(double ref, const dem_energy_terms *e, const dem_system *s);

#endif
