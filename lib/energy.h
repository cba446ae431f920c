/* energy.h - the energy budget of one frame (dem-energy).
 *
 * A frame holds everything the budget needs: the state, from which the kinetic, gravitational
 * and elastic energies follow, and the ENRG accumulators dem-step keeps since the system was
 * created: energy dissipated by each mechanism (D) and work done on the particles by walls, the
 * cell and other prescribed motions (W). With E the mechanical energy of the frame,
 *
 *     residual = e_initial + W - (E + D) + e_ahead
 *
 * is the energy the integration created (negative) or lost (positive) without any mechanism
 * accounting for it: zero for exact arithmetic and an exact integrator, O(dt^2) for velocity
 * Verlet on smooth forces, so the number that says whether a run can be trusted.
 * e_initial is the budget's reference (ENRG field of format 1.1): E + D - W - e_ahead at the
 * state where the accounting started, i.e. the mechanical energy of the initial state at step
 * 0. e_ahead (format 1.1) is the part of D - W that belongs to the half step after the frame's
 * time: a writer that counts the work of the forces of a step over both of its half kicks at
 * that step is that much ahead of the frame's velocities (formats/dem-stream.md §5.9).
 *
 * Energies (J):
 *   ekin_t = sum 1/2 m |v|^2,  ekin_r = sum 1/2 I |w|^2 (every particle, fixed ones included);
 *   epot_g = -sum m g . x with x the unwrapped position x + H image in a periodic cell (so the
 *            potential keeps falling as particles fall through periodic faces along g, as their
 *            kinetic energy keeps rising), zero at the origin, g the frame's gravity setting;
 *   eel_n  = sum over contact records with overlap > 0 of the normal law's potential U(delta)
 *            (hooke: kn/2 delta^2; hertz: 8/15 E* sqrt(R*) delta^(5/2)), with the pair's
 *            properties from dem_pair_init as dem-step computes them;
 *   eel_t  = sum of 1/2 S_t |xi|^2, xi the tangential spring (history slots 0..2) and S_t the
 *            tangential stiffness at the current overlap (hooke: kt, exact: the spring is
 *            linear; hertz: Mindlin's 8 G* sqrt(R* delta), which varies with the overlap while
 *            the spring keeps its stretch, so 1/2 S_t |xi|^2 is the energy of the spring now
 *            but not a potential: changing the overlap at fixed xi changes it without work,
 *            and the budget carries that model error into the residual). */
#ifndef DEM_ENERGY_H
#define DEM_ENERGY_H

#include "error.h"
#include "model.h"
#include "system.h"

typedef struct {
    double ekin_t, ekin_r; /* J */
    double epot_g;         /* J */
    double eel_n, eel_t;   /* J */
} dem_energy_terms;

/* The mechanical energies of a frame with settings st (dem_settings_read of the frame). Fails
 * only if a contact names a particle or wall that the frame does not have. */
dem_status dem_energy_terms_compute(const dem_system *s, const dem_settings *st, dem_energy_terms *e,
                                    dem_error *err);
/* E = ekin_t + ekin_r + epot_g + eel_n + eel_t */
double dem_energy_mechanical(const dem_energy_terms *e);
/* D: the sum of the frame's ediss_* accumulators (friction, damp_n, damp_t, local, drag,
 * rolling, twisting). */
double dem_energy_dissipated(const dem_system *s);
/* W: work_walls + work_cell + work_external. */
double dem_energy_work(const dem_system *s);
/* The reference E + D - W - e_ahead of this frame: the e_initial of a budget that starts here. */
dem_status dem_energy_reference(const dem_system *s, const dem_settings *st, double *ref, dem_error *err);
/* ref + W - (E + D) + e_ahead */
double dem_energy_residual(double ref, const dem_energy_terms *e, const dem_system *s);

#endif
