/* rigid.h - rigid bodies made of spheres (clumps): mass properties of a template of member spheres,
 * its principal frame, the angular velocity <-> momentum conversion and the torque-free rotation step.
 *
 * Pure mathematics: no stream, no simulation state. Every function depends on its arguments alone
 * and sums in a fixed order, so the same template and the same state give the same bits on every
 * build (docs/models.md "Rigid clumps"). Frames: the template's frame is the one the members are
 * given in; the body frame is the principal frame through the centroid; the world frame is the
 * simulation's. A quaternion q is always "body -> outer frame": v_outer = R(q) v_body. */
#ifndef DEM_RIGID_H
#define DEM_RIGID_H

#include <stddef.h>

#include "core/error.h"
#include "core/vec.h"

/* A member sphere of a clump template: centre (m) and radius (m) in the template's frame. */
typedef struct {
    dem_vec3 x;
    double r;
} dem_rigid_member;

/* A rigid body's mass properties. */
typedef struct {
    double mass, volume;  /* kg, m^3 (the union of the members) */
    dem_vec3 centroid;    /* the centre of mass in the template's frame, m */
    dem_vec3 inertia;     /* principal moments about the centroid, kg m^2, ascending x <= y <= z */
    dem_quat q;           /* rotation taking the principal (body) frame to the template's frame */
    double inertia_err;   /* estimated relative error of the moments (0: exact, members apart) */
} dem_rigid_props;

/* The grid resolutions dem_rigid_props_of accepts for overlapping members (cells across the
 * clump: see dem_rigid_props_of). */
#define DEM_RIGID_GRID_MIN 8u
#define DEM_RIGID_GRID_MAX 4096u

/* Mass properties of the union of n members of one density (kg/m^3): exact (parallel axes) when no
 * two members overlap (touching is apart); otherwise integrated over a grid of cells in the bounding
 * box (Šmilauer and Chareyre 2015, §1.5.4): columns of cells along the box's longest side, each
 * integrated exactly along its length, `grid` cells across the longer of the box's two other sides
 * (so a rod of many members is resolved as finely as a dimer; docs/models.md "Rigid clumps"). inertia_err is then the
 * larger of the moments' relative change from the grid grid/2 (divided by 2^1.5 - 1) and from the
 * same grid shifted by half a cell: an estimate, not a bound (1.0 to 10 times the true error on the
 * verification's dimers and rods, docs/verification.md). Cost: at most about 2.3 grid^2 n chords.
 * The principal axes are sorted by ascending moment with a fixed sign convention, so one template
 * always gives the same q.
 * Errors (DEM_ERR_ARG, naming the member): n = 0, a radius <= 0, a non-finite centre, radius or
 * density, density <= 0; overlapping members with grid outside [DEM_RIGID_GRID_MIN, _MAX].
 * DEM_ERR_NOMEM when the column buffer cannot be allocated. */
DEM_MUST_CHECK dem_status dem_rigid_props_of(const dem_rigid_member *m, size_t n, double density,
                                             unsigned grid, dem_rigid_props *out, dem_error *err);

/* The members moved into the body frame: x_body = R^T (x - centroid), R the rotation of p->q. */
void dem_rigid_to_body(const dem_rigid_props *p, dem_rigid_member *m, size_t n);

/* v turned by the unit quaternion q (R(q) v), and back (R(q)^T v). */
dem_vec3 dem_rigid_rotate(dem_quat q, dem_vec3 v);
dem_vec3 dem_rigid_unrotate(dem_quat q, dem_vec3 v);

/* Angular velocity <-> angular momentum, world frame, for a body of principal moments I (body
 * frame) at orientation q (body -> world): w = R I^-1 R^T L and L = R I R^T w. A state kept as w
 * between steps (w -> L, step, L -> w) loses about 4e-17 of |L| a step to the conversions' rounding
 * (docs/verification.md); kept as L, none. */
dem_vec3 dem_rigid_omega(dem_quat q, dem_vec3 I, dem_vec3 L);
dem_vec3 dem_rigid_momentum(dem_quat q, dem_vec3 I, dem_vec3 w);
/* Rotational kinetic energy 1/2 L.w = 1/2 sum_i (R^T L)_i^2 / I_i, J. */
double dem_rigid_kinetic(dem_quat q, dem_vec3 I, dem_vec3 L);

/* The torque-free drift of the orientation q (body -> world, unit) over a signed time h at constant
 * world angular momentum L, for principal moments I: the rotation half of the aspherical step of
 * Šmilauer and Chareyre 2015, §1.5.3. A step is kick (L += h/2 T, the torque T in the world frame),
 * drift (this), kick again, so that both velocity-Verlet forms (the plain one and Vyas et al. 2025's
 * improved one) call the pieces in their own order.
 *
 * The drift is the symmetric splitting of the free rotor's energy into the three rotations about
 * the principal axes, each exact (Dullweber, Leimkuhler and McLachlan 1997; the NO_SQUISH
 * scheme of Miller et al. 2002): rotations about axes 1, 2 for h/2, about 3 for h, about 2, 1 for
 * h/2. Unlike the Fincham leapfrog of §1.5.3 it is symplectic and time-reversible: the drift by -h
 * undoes the drift by h to rounding, |L| and |q| are kept to rounding, the energy error stays bounded
 * and of order h^2 (docs/models.md "Rigid clumps" gives the equations, the measured comparison, and
 * the more precise variants the paper names: Omelyan 1999, Johnson et al. 2008). q is renormalised. */
void dem_rigid_drift(dem_quat *q, dem_vec3 I, dem_vec3 L, double h);

#endif
