/* material_ranges.h - the ranges of real granular materials, to catch a slip of units early.
 *
 * dem takes SI units everywhere, and a value given in another unit is accepted silently: --young
 * 70 (meant 70 GPa) is 70 Pa, and the run then fails much later, blaming the time step. These
 * checks compare each material parameter (and the particles' radii) with the range that real
 * granular materials span, from the softest to the hardest grain, and return a warning naming the
 * likely slip ("did you mean 70e9 Pa (GPa)?"). They never refuse: deliberately softened or
 * density-scaled models lie outside on purpose (the message says so), and the caller decides
 * whether to print. The library never prints (README "Layout and library").
 *
 * Ranges (SI), with what bounds them:
 *   young           1e4 .. 1.2e12 Pa   hydrogel beads .. diamond (DEM's usual softening of a
 *                                      glass or steel E by 1e2..1e3 stays inside)
 *   density         10 .. 2.3e4 kg/m^3 expanded polystyrene beads .. osmium
 *   radius          5e-8 .. 10 m       nanopowders .. boulders
 *   surface_energy  0 .. 10 J/m^2      0 (none) .. clean metals' work of adhesion (a few J/m^2)
 *   friction        0 .. 2             rubber on rubber reaches about 1.5
 *   rolling_friction, twisting_friction  0 .. 1  (real grains: 0.001 .. 0.5) */
#ifndef DEM_MATERIAL_RANGES_H
#define DEM_MATERIAL_RANGES_H

#include <stddef.h>

#include "io/system.h"

typedef struct {
    int material;          /* the material's index, or -1 for the particles' radii */
    const char *parameter; /* the material key ("young", "density", ...) or "radius" */
    double value;          /* the value outside the range (the smallest or largest radius) */
    double lo, hi;         /* the range of real granular materials, SI */
    char text[240];        /* "young = 70 Pa is softer than any real ...; did you mean 70e9 Pa (GPa)?" */
} dem_range_warning;

/* Checks every material used by a particle (young, surface_energy and friction also when used by
 * a wall; density only for particles) and the smallest and largest radius. Fills up to max
 * warnings, in table order, and returns how many there are (possibly more than max). */
int dem_material_range_check(const dem_system *s, dem_range_warning *out, int max);

#endif
