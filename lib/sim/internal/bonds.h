/* bonds.h - harmonic bonds between particles (De Klerk et al. 2022, §3.3; formats/dem-stream.md §5.10).
 *
 * A bond between particles i and j holds the potential kb delta^2 / 2, delta = r_i + r_j -
 * |x_i - x_j'| (x_j' the bonded image of j), in compression and tension alike: the force on i is
 * kb delta n, n the unit vector from j' to i, and j receives the opposite; no torque. A bonded
 * pair interacts only through its bond: the neighbour list leaves it out (dem_nbr_rebuild asks
 * dem_bonds_excluded), so the contact law never acts between them.
 *
 * The bonds keep the frame's order; each is evaluated on its own (dem_bonds_eval, before the
 * particles' sums) and each particle adds its bonds' forces in bond order (dem_bonds_add): the sums
 * are the same bits for any thread count and any split of a run. A bond across a periodic face
 * keeps C = s + image_i - image_j, constant while its particles wrap (x_i - x_j' = u_i - u_j - H C
 * with u = x + H image the unwrapped positions), and its current shift s follows from it. Only a
 * frame with bonds allocates anything here. */
#ifndef DEM_SIM_BONDS_H
#define DEM_SIM_BONDS_H

#include "sim/internal/state.h"

/* From the frame's bonds (after dem_particles_load: particle ids to indices). */
DEM_MUST_CHECK dem_status dem_bonds_load(dem_sim *sim, const dem_system *s, dem_error *err);
void dem_bonds_free(dem_sim *sim);
/* Particles renumbered: inv[old index] = new index. */
void dem_bonds_renumber(dem_sim *sim, const uint32_t *inv);
/* Bond k's current image shift of j, s = C - image_i + image_j. */
void dem_bonds_shift(const dem_sim *sim, size_t k, int32_t s[3]);
/* Every bond's delta and force at the current positions; with own stepping (dist.h), those of
 * this process's particles (dem_bonds_eval_all: every bond's, once the state is whole). */
void dem_bonds_eval(dem_sim *sim);
void dem_bonds_eval_all(dem_sim *sim);
/* f plus the forces of particle a's bonds, in bond order. */
dem_vec3 dem_bonds_add(const dem_sim *sim, size_t a, dem_vec3 f);
/* Whether particles a and b, b seen through image shift sh (x_b' = x_b + H sh), are bonded. */
int dem_bonds_excluded(const dem_sim *sim, size_t a, size_t b, const int32_t sh[3]);
/* The bonds' elastic energy, sum kb delta^2 / 2 in bond order, J (of the last dem_bonds_eval). */
double dem_bonds_energy(const dem_sim *sim);
/* Into the frame's bonds (same count and order as loaded). */
void dem_bonds_write(const dem_sim *sim, dem_system *out);

#endif
