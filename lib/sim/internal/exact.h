/* exact.h - the exact (fixed-point) mode of Levesque and Verlet (1993), as Hanley 2019 (§1)
 * suggests for reversed-time DEM: positions on a lattice x = X qx (qx a power of two, so the
 * doubles hold X exactly), velocities on v = V qv with qv = qx / dt, so that a drift X += V and a
 * kick V += K are integer additions, and every force is turned into a kick K(X) that depends on
 * the positions alone. Each contact's force (and gravity) is rounded onto the lattice by itself
 * and the kicks are summed as integers, so K does not depend on the order of the sums, the
 * thread count, the neighbour list or the particles' order in memory. Then the step (K, X, K)
 * has the exact inverse (-K, -X, -K): dem-reverse returns to the first state bit for bit. */
#ifndef DEM_SIM_EXACT_H
#define DEM_SIM_EXACT_H

#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_exact_alloc(dem_sim *sim, dem_error *err);
void dem_exact_free(dem_sim *sim);
/* The half kick of particle a, dt/2 F/m in lattice units, from the contacts evaluated last. */
void dem_exact_kick(dem_sim *sim, size_t a);
/* V += dir K (Hanley 2019, eqs 13, 16; reversed: eqs 17, 20) */
void dem_exact_half_kick(dem_sim *sim);
/* X += dir V (Hanley 2019, eq 14; reversed: eq 18); walls move by their lattice velocity. */
void dem_exact_drift(dem_sim *sim);
/* A sheared periodic cell on the lattice (simple shear, L_ij alone, i != j): over half a step
 * (h, signed) x_i += round(n (x_j - o_j) / H_jj), u_i -= round(n V_j / H_jj), H_i. += n e_j,
 * all in quanta: an integer shear of the lattice that the same map with -h undoes exactly, and
 * the same for every image of a particle (n (x_j + H_jj) / H_jj adds exactly n). Returns the
 * kinetic energy the map of the velocities changed (J). */
double dem_exact_field(dem_sim *sim, double h);
/* After a step: the first particle whose kick, velocity or position left the lattice's range. */
DEM_MUST_CHECK dem_status dem_exact_range_check(dem_sim *sim, dem_error *err);

#endif
