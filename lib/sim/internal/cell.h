/* cell.h - the deforming periodic cell (Šmilauer and Chareyre 2015, §1.6; Hanley 2019, §3.1, §3.2.3): dH/dt = L H, the
 * particles carried by the homogeneous field, the cell flip, the servo and the work of the cell.
 *
 * The field and the fluctuation. A particle's velocity is u + L (x - o) and its spin w + wL, where
 * u and w are what the particle arrays (and the frames) hold, o the cell's origin, and wL the spin
 * of the field, (L - L^T)/2 as a vector. u obeys du/dt = F/m - L u (SLLOD, Evans & Morriss 1984):
 * for L^2 = 0 at a constant rate (simple shear) a free particle keeps its laboratory velocity, as
 * in Lees-Edwards boundary conditions; otherwise the field's own acceleration (dL/dt + L^2)(x - o)
 * is imposed on every particle, the one choice that moves all periodic images of a particle alike
 * (docs/models.md). Kicks change u and w; the field carries x (and the orientation) along and
 * maps u. So a pair across a periodic face sees the image's velocity including L H s, exactly as
 * the same pair inside the cell would: its relative velocity is u_i - u_j + L d with
 * d = x_i - (x_j + H s).
 *
 * One step maps the cell and the positions by the Cayley transform
 *     M = (I - h L / 4)^-1 (I + h L / 4)     (the field over half a step, second order)
 * before and after the drift x += h u: x - o <- M (x - o), H <- M H, F <- M F, and a free
 * particle's u <- M^-1 u, M^-1 the map of -h. Each is applied as an increment, x += K (x - o) with
 * K = M - I = (I - h L / 4)^-1 h L / 2, which rounds relative to the increment: the reversed step's
 * increment undoes it bit for bit nearly always, where the product M x rounded relative to x with
 * the same bias every step at a constant rate. The map with -h is M's inverse, so the step
 * reversed is the same code with h negated (Hanley's reversed time), and a rigid spin
 * (antisymmetric L) gives an orthogonal M: the assembly turns rigidly.
 *
 * The work of the cell. The field moves the contact points of a pair apart at D d (D the
 * symmetric part of L: the field's spin moves both alike), so the cell puts the power
 *     P = -( D : sum_pairs f (x) d + L : sum_walls f (x) (x - o) + W : sum_walls f (x) (c - x) )
 * into the contacts (f the force on the particle, c the contact point); over a step, with L
 * fixed, work_cell += h/2 (P(t) + P(t + h)): in terms of the stress, -V sigma : D with sigma
 * compression positive (Šmilauer and Chareyre 2015's V sigma : L, tension positive). The map of u adds the momentum
 * flux's part, -sum m u (x) u : L: work_cell takes the kinetic energy it changed, exactly.
 *
 * A rigid clump is one body of the field (clumps.h): its centroid and fluctuation velocity are
 * mapped, its members placed from its pose, and these sums count it as one body. */
#ifndef DEM_SIM_CELL_H
#define DEM_SIM_CELL_H

#include "sim/internal/state.h"

/* Set up from the frame's cell and the settings: whether it deforms, the servo's constants. */
void dem_deform_setup(dem_sim *sim);
/* The servo decides the stress-controlled components of L from the current forces; then the
 * step's D and wL. Returns the power of the field with the current forces (W). */
double dem_deform_begin_step(dem_sim *sim);
/* The rate a step can represent: the Cayley map's factor along an eigenvalue l of L over a
 * step, ((1 + l h/4) / (1 - l h/4))^2, is monotone in l and near exp(l h) only while |l h| stays
 * well below 4 (at 4 it is singular; 2e8 and 8e8 1/s with dt = 1e-8 s gave the same cell). Fails
 * (DEM_ERR_UNSTABLE, naming the step, L and dt) when |L|_F |h| > CELL_MAX_STRAIN_STEP, after
 * dem_deform_begin_step has set the step's L (the servo's included). */
#define CELL_MAX_STRAIN_STEP 1.0
DEM_MUST_CHECK dem_status dem_deform_check_rate(const dem_sim *sim, dem_error *err);
/* The field over h (half a step each side of the drift): positions, free particles' u, H, F,
 * H^-1; the kinetic energy the map of u changed goes into work_cell. */
void dem_deform_affine(dem_sim *sim, double h);
/* The field's map over h of a free body (a sphere, a clump's centroid), K = M - I: its centre
 * goes to x + K (x - o). */
static inline dem_vec3 cell_map_point(dem_vec3 x, dem_mat3 k, dem_vec3 o) { return dem_v3_add(x, dem_m3_mulv(k, dem_v3_sub(x, o))); }
/* Its fluctuation velocity goes to u + Kinv u (Kinv = M^-1 - I); returns the kinetic energy the map
 * gave a body of mass m, J. */
static inline double cell_map_velocity(dem_vec3 *u, double m, dem_mat3 kinv)
{
    dem_vec3 du = dem_m3_mulv(kinv, *u);
    double dk = m * (dem_v3_dot(*u, du) + 0.5 * dem_v3_norm2(du));
    *u = dem_v3_add(*u, du);
    return dk;
}
/* After the step's forces: work_cell += h/2 (p0 + P(t + h)). */
void dem_deform_end_step(dem_sim *sim, double p0);
/* Flip the cell when a cell vector leans more than 0.55 of another along it (Šmilauer and Chareyre 2015, Fig 1.6):
 * the same lattice of images with cell vectors nearer to orthogonal. Images and contact shifts
 * follow, so every contact keeps its history. Returns 1 if it flipped (the neighbour list must be
 * rebuilt). */
DEM_MUST_CHECK dem_status dem_deform_flip(dem_sim *sim, int *flipped, dem_error *err);
/* The cell's sums over the contacts of the current forces, kept before a rebuild of the pair
 * list takes the contacts' results away (the sort at fixed steps): the step's P(t) must be that
 * of the forces at t whether they were computed by the step before or read from a frame, so that
 * a run split at a sorting step keeps the same bits. */
void dem_deform_keep_sums(dem_sim *sim);
/* The Love-Weber stress of the current forces (Pa, compression positive, symmetric). */
dem_mat3 dem_deform_stress(dem_sim *sim);

#endif
