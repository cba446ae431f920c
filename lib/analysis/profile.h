/* profile.h - a profile of a frame along x, y or z: N slices across the container, each with
 * its solid fraction (exact partial volumes of the spheres, overlap_volume.h), the coordination
 * of the particles centred in it and the Love-Weber stress of the contacts whose contact point
 * lies in it (dem_stress_assembly, stress.h). From it a bed's height and bulk region are read.
 *
 * The cross-section of the slices, in this order: the user's box (its extent across the axis);
 * the box of six axis-aligned plane walls; a rectangular periodic cell (a sheared cell is
 * refused); a cylinder wall along the axis between end planes (its disc, pi R^2). The range
 * along the axis defaults to the same container's extent (for a cylinder, between its end
 * planes). In a periodic cell, a sphere that crosses the cell's faces along the axis counts
 * with its periodic images, so the slices hold all the solid. */
#ifndef DEM_PROFILE_H
#define DEM_PROFILE_H

#include <stddef.h>

#include "analysis/analysis.h"
#include "core/error.h"
#include "io/system.h"

typedef struct {
    int axis;       /* 0, 1, 2 */
    size_t bins;
    double lo, hi;  /* the range along axis, m */
    dem_aabb cross; /* a box whose extent across the axis bounds the cross-section */
    double area;    /* of the cross-section, m^2 */
    int periodic;   /* the range is a periodic cell's extent along a periodic axis */
    const char *what; /* the cross-section, in words */
} dem_profile_geometry;

typedef struct {
    double lo, hi;          /* m */
    double volume;          /* area (hi - lo), m^3 */
    double solid_volume;    /* m^3 */
    double solid_fraction;
    size_t particles;       /* centred in [lo, hi) (the last slice: [lo, hi]) */
    double coordination;    /* their particle contacts / particles; nan without particles */
    dem_mat3 sigma;         /* Pa, compression positive, symmetric */
} dem_profile_bin;

/* The geometry for a frame: box the user's (or NULL); range_lo < range_hi the user's range, or
 * both nan for the default. DEM_ERR_VALUE naming what is missing when there is no
 * cross-section (a sheared cell, a cylinder across the axis, no container). */
DEM_MUST_CHECK dem_status dem_profile_geometry_of(const dem_system *s, int axis, size_t bins, const dem_aabb *box, double range_lo,
                                   double range_hi, dem_profile_geometry *g, dem_error *err);

/* out[g->bins]; ix built for s. */
DEM_MUST_CHECK dem_status dem_profile_measure(const dem_system *s, const dem_id_index *ix, const dem_profile_geometry *g,
                               dem_profile_bin *out, dem_error *err);

#endif
