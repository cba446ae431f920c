/* carry.h - carrying a tangential history vector (a spring's stretch or force) from the last
 * step's contact plane into this step's, and turning it with the pair's spin: the objectivity
 * adjustments of Kuhn et al. 2020, eqs 22-23 (Hanley 2019, eqs 7-9), shared by every tangential law with
 * history. One setting, model.carry (dem-step --carry), chooses how:
 *
 *   exact         the smallest rotation of the old plane onto the new (dem_rotate_between, the old
 *                 normal from d - dt v_ij), then the twirl (default): a rigid rotation of a loaded
 *                 assembly keeps its stress to second order in the step's turn
 *   rescale       projection onto the new plane with the size restored (LAMMPS, Hanley eq 8),
 *                 then the twirl: first order
 *   project       projection (Kuhn et al. 2020, eq 22), then the twirl (eq 23): Kuhn's "both"
 *   project-only  projection, no twirl: Kuhn's "projection only"
 *   none          neither (Kuhn's Fig. 6 b): the vector is left as it was
 *
 * The last three exist to show what the adjustments do (Kuhn et al. 2020, Fig. 6, examples), not to run. */
#ifndef DEM_LAWS_CARRY_H
#define DEM_LAWS_CARRY_H

#include "core/angle.h"
#include "laws/laws.h"

/* a with its component along unit n removed (Kuhn et al. 2020, eq 22) */
static inline dem_vec3 dem_project(dem_vec3 a, dem_vec3 n) { return dem_v3_madd(a, n, -dem_v3_dot(a, n)); }

/* From the plane of the last step into the plane normal to nh (the normal the law decomposes
 * with: the half-step one for vv-improved), and twirled by the pair's spin over the step. */
static inline dem_vec3 dem_carry_in(const dem_law *law, const dem_contact_in *c, dem_vec3 nh, dem_vec3 a)
{
    double hdt = law->hdt;
    switch (law->carry) {
    case DEM_CARRY_EXACT:
        if (c->chord && hdt != 0.0) {
            dem_vec3 d0 = dem_v3_madd(c->d, c->vij, -hdt);
            a = dem_rotate_between(a, dem_v3_scale(d0, 1.0 / dem_v3_norm(d0)), nh);
        } else {
            a = dem_rotate_rescale(a, nh); /* walls: a flat wall's normal does not turn */
        }
        break;
    case DEM_CARRY_RESCALE: a = dem_rotate_rescale(a, nh); break;
    case DEM_CARRY_PROJECT: case DEM_CARRY_PROJECT_ONLY: a = dem_project(a, nh); break;
    case DEM_CARRY_NONE: return a;
    }
    if (law->carry == DEM_CARRY_PROJECT_ONLY) return a;
    return dem_twirl(a, nh, c->spin * hdt); /* Hanley 2019, eq 9; Kuhn et al. 2020, eq 23 */
}

/* vv-improved: from the half-step plane nh into the end-of-step plane n (docs/models.md §1.5 step
 * 6). The tangential velocity goes the same way (vel: 1), by the exact turn unless the carry is
 * the projection with rescaling, which the integrator used before (so rescale is the old law). */
static inline dem_vec3 dem_carry_out(const dem_law *law, dem_vec3 nh, dem_vec3 n, dem_vec3 a, int vel)
{
    switch (law->carry) {
    case DEM_CARRY_EXACT: return dem_rotate_between(a, nh, n);
    case DEM_CARRY_RESCALE: return dem_rotate_rescale(a, n);
    case DEM_CARRY_PROJECT: case DEM_CARRY_PROJECT_ONLY: return vel ? dem_rotate_between(a, nh, n) : dem_project(a, n);
    case DEM_CARRY_NONE: return vel ? dem_rotate_between(a, nh, n) : a;
    }
    return a;
}

#endif
