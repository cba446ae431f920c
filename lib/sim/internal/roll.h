/* roll.h - rolling and twisting resistance in the simulation (lib/laws/rolling.h): a side array
 * of dem_roll_rec beside the pair records (store.roll) and the wall slots (store.wroll), allocated
 * only when a rolling or twisting model is on, so the default contact record and path do not
 * change. The couples are evaluated after the contact forces (they need F_n and S_t), summed into
 * the torques after the particle's contact moments, and booked with the pairs' and walls'
 * full-step accounting (ediss_rolling, ediss_twisting, work_law). */
#ifndef DEM_SIM_ROLL_H
#define DEM_SIM_ROLL_H

#include "laws/rolling.h"
#include "sim/internal/state.h"

/* The pairs' part of the pair pass (forces.c), block by block over the threads: account (1), the
 * pending step's accounting into e.rsum[b] with the full-step spins, before the pair pass
 * re-evaluates the pairs; else (0) their couples after their forces, the springs of the contacts
 * lost into e.rlost[b]. */
void dem_roll_pass(dem_sim *sim, int account);
/* Wall slot q's contact was lost: its springs' energy into e.wrlost[q]. */
void dem_roll_wall_lost(dem_sim *sim, size_t q);
/* Pair p after its force at the new positions: its couple if it touches, else its state lost
 * (the springs' energy into lost[2]). */
void dem_roll_pair(dem_sim *sim, const dem_law *law, size_t p, double lost[2]);
/* Wall slot q after its force (c, pp: the contact's kinematics and pair properties). */
void dem_roll_wall(dem_sim *sim, const dem_law *law, size_t q, const dem_contact_in *c, const dem_pair *pp);
/* Particle a's couples, added to t in the order of its force sums. */
dem_vec3 dem_roll_torque(const dem_sim *sim, size_t a, dem_vec3 t);
/* Pair p's energy over the step that ended at full-step spins w into e (rolling, twisting, law). */
void dem_roll_account_pair(const dem_sim *sim, const dem_vec3 *w, size_t p, int setup, double e[3]);
/* Wall slots [q0, q1)'s energy in slot order, with the current spins, added to e. */
void dem_roll_account_walls(const dem_sim *sim, size_t q0, size_t q1, int setup, double e[3]);
/* The wall couples: power only (setup); and wall slots [q0, q1)'s couples on the walls, added
 * to the walls' torques and works of the step (per wall; forces.c's totals). */
double dem_roll_wall_power(const dem_sim *sim);
void dem_roll_wall_totals(const dem_sim *sim, size_t q0, size_t q1, dem_vec3 *torque, double *work);
/* A frame's contacts read: stiffnesses and couples of the touching contacts as the step that wrote
 * the frame left them (dem_books_restore). */
void dem_roll_restore(dem_sim *sim);

#endif
