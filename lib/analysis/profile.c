/* profile.c - slices along an axis: solid fraction, coordination, stress (see profile.h). */
#include "analysis/profile.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/overlap_volume.h"
#include "analysis/stress.h"

static void set_axis(dem_aabb *b, int axis, double lo, double hi)
{
    if (axis == 0) { b->lo.x = lo; b->hi.x = hi; }
    if (axis == 1) { b->lo.y = lo; b->hi.y = hi; }
    if (axis == 2) { b->lo.z = lo; b->hi.z = hi; }
}

static double cross_area(const dem_aabb *b, int axis)
{
    int u = (axis + 1) % 3, v = (axis + 2) % 3;
    return (dem_v3_get(b->hi, u) - dem_v3_get(b->lo, u)) * (dem_v3_get(b->hi, v) - dem_v3_get(b->lo, v));
}

dem_status dem_profile_geometry_of(const dem_system *s, int axis, size_t bins, const dem_aabb *box, double range_lo,
                                   double range_hi, dem_profile_geometry *g, dem_error *err)
{
    memset(g, 0, sizeof *g);
    g->axis = axis;
    g->bins = bins;
    const char *ax = axis == 0 ? "x" : axis == 1 ? "y" : "z";
    int found = 0;
    if (box) {
        g->cross = *box;
        g->what = "the --box";
        found = 1;
    } else if (dem_walls_box(s, &g->cross)) {
        g->what = "the box of the six walls";
        found = 1;
    } else if (s->cell.flags) {
        const dem_mat3 *h = &s->cell.h;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (r != c && h->m[r][c] != 0.0)
                    return dem_fail(err, DEM_ERR_VALUE,
                                    "the periodic cell is not rectangular (h%d%d = %g m): a profile needs slices across a rectangular cell",
                                    r + 1, c + 1, h->m[r][c]);
        g->cross.lo = s->cell.origin;
        g->cross.hi = dem_v3_add(s->cell.origin, dem_v3(h->m[0][0], h->m[1][1], h->m[2][2]));
        g->periodic = (s->cell.flags >> axis) & 1u;
        g->what = "the periodic cell";
        found = 1;
    } else {
        const dem_wall *c;
        int a;
        double lo, hi;
        if (dem_walls_cylinder(s, &c, &a, &lo, &hi) && a == axis) {
            /* the bounding square of the disc; the area is the disc's */
            dem_vec3 r3 = dem_v3(c->radius, c->radius, c->radius);
            g->cross.lo = dem_v3_sub(c->point, r3);
            g->cross.hi = dem_v3_add(c->point, r3);
            set_axis(&g->cross, axis, lo, hi);
            g->area = M_PI * c->radius * c->radius;
            g->what = "the cylinder wall";
            found = 1;
        }
    }
    if (!found)
        return dem_fail(err, DEM_ERR_VALUE,
                        "no cross-section for a profile along %s: the frame has no six axis-aligned walls, no periodic cell and no cylinder wall along %s between end planes (give a box)",
                        ax, ax);
    if (!(g->area > 0.0)) g->area = cross_area(&g->cross, axis);
    if (isnan(range_lo)) {
        g->lo = dem_v3_get(g->cross.lo, axis);
        g->hi = dem_v3_get(g->cross.hi, axis);
    } else {
        g->lo = range_lo;
        g->hi = range_hi;
        g->periodic = 0; /* a range of the user's: no images */
    }
    if (!(g->hi > g->lo) || !isfinite(g->hi - g->lo) || !(g->area > 0.0) || !isfinite(g->area))
        return dem_fail(err, DEM_ERR_VALUE, "the profile's range along %s (%g to %g m) or its cross-section (%g m^2) is empty",
                        ax, g->lo, g->hi, g->area);
    return DEM_OK;
}

static double bin_edge(const dem_profile_geometry *g, size_t b)
{
    return b == g->bins ? g->hi : g->lo + (g->hi - g->lo) * ((double)b / (double)g->bins);
}

/* The slice a coordinate lies in, or SIZE_MAX outside the range; the last slice is closed. */
static size_t bin_of(const dem_profile_geometry *g, double x)
{
    if (!(x >= g->lo && x <= g->hi)) return SIZE_MAX;
    double t = (x - g->lo) / (g->hi - g->lo) * (double)g->bins;
    size_t b = t >= (double)g->bins ? g->bins - 1 : (size_t)t;
    /* the edges as bin_edge writes them decide, not the rounding of t */
    while (b > 0 && x < bin_edge(g, b)) b--;
    while (b + 1 < g->bins && x >= bin_edge(g, b + 1)) b++;
    return b;
}

/* Add the slab volumes of a sphere whose centre coordinate along the axis is x. */
static void add_sphere(const dem_profile_geometry *g, dem_profile_bin *out, dem_vec3 c, double r, double x, double share)
{
    if (x + r <= g->lo || x - r >= g->hi) return;
    size_t b0 = bin_of(g, fmax(x - r, g->lo)), b1 = bin_of(g, fmin(x + r, g->hi));
    for (size_t b = b0; b <= b1 && b < g->bins; b++)
        out[b].solid_volume += share * dem_sphere_slab_volume(c, r, g->axis, out[b].lo, out[b].hi);
}

/* The stress of each slice: the Love-Weber sum of the contacts whose contact point lies in the
 * slice's box (dem_stress_assembly's rule and operations, so the same bits), over the slice's
 * volume (the box's for a rectangle, the disc's slice for a cylinder). Each contact is binned
 * once by its point's coordinate (a point on an edge counts in both slices, as the closed boxes
 * of dem_aabb_contains say): contacts + bins, where a dem_stress_assembly per slice cost
 * bins x (contacts + particles) (100 000 bins of 108 particles: over 2 minutes). */
static dem_status profile_stress(const dem_system *s, const dem_id_index *ix, const dem_profile_geometry *g,
                                 dem_profile_bin *out, int rect, dem_error *err)
{
    dem_mat3 *sum = calloc(g->bins, sizeof *sum);
    if (!sum) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu slices", g->bins);
    dem_status st = DEM_OK;
    for (size_t k = 0; k < s->ncontacts && !st; k++) {
        const dem_contact *c = &s->contacts[k];
        size_t i = dem_id_index_find(ix, c->i);
        if (i == SIZE_MAX) {
            st = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu) names a particle that is not in the frame",
                          (unsigned long long)c->i, (unsigned long long)c->j);
            break;
        }
        dem_vec3 cp = dem_contact_point(&s->particles[i], c);
        size_t b = bin_of(g, dem_v3_get(cp, g->axis));
        if (b == SIZE_MAX) continue;
        size_t first = b > 0 && dem_v3_get(cp, g->axis) <= out[b - 1].hi ? b - 1 : b;
        size_t last = b + 1 < g->bins && dem_v3_get(cp, g->axis) >= out[b + 1].lo ? b + 1 : b;
        for (size_t q = first; q <= last && !st; q++) {
            dem_aabb slice = g->cross;
            set_axis(&slice, g->axis, out[q].lo, out[q].hi);
            if (dem_aabb_contains(slice, cp)) st = dem_stress_add_contact(s, ix, c, &s->particles[i], &sum[q], err);
        }
    }
    for (size_t b = 0; b < g->bins && !st; b++) {
        dem_aabb slice = g->cross;
        set_axis(&slice, g->axis, out[b].lo, out[b].hi);
        double volume = dem_aabb_volume(slice);
        out[b].sigma = dem_stress_of_sum(sum[b], volume);
        if (!rect) {
            double f = volume / out[b].volume;
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) out[b].sigma.m[r][c] *= f;
        }
    }
    free(sum);
    return st;
}

dem_status dem_profile_measure(const dem_system *s, const dem_id_index *ix, const dem_profile_geometry *g,
                               dem_profile_bin *out, dem_error *err)
{
    int rect = g->area == cross_area(&g->cross, g->axis);
    for (size_t b = 0; b < g->bins; b++) {
        memset(&out[b], 0, sizeof out[b]);
        out[b].lo = bin_edge(g, b);
        out[b].hi = bin_edge(g, b + 1);
        out[b].volume = g->area * (out[b].hi - out[b].lo);
    }
    /* solid: the slab volumes, in particle order; periodic images across the range's ends; a clump's
     * members scaled to count its union volume once (dem_clump_volume_shares) */
    double len = g->hi - g->lo, *share = s->nclumps ? dem_clump_volume_shares(s) : NULL;
    if (s->nclumps && !share) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        double x = dem_v3_get(p->pos, g->axis), sh = share ? share[k] : 1.0;
        add_sphere(g, out, p->pos, p->radius, x, sh);
        if (g->periodic) {
            dem_vec3 shift = dem_v3(0, 0, 0);
            if (g->axis == 0) shift.x = len;
            if (g->axis == 1) shift.y = len;
            if (g->axis == 2) shift.z = len;
            add_sphere(g, out, dem_v3_sub(p->pos, shift), p->radius, x - len, sh);
            add_sphere(g, out, dem_v3_add(p->pos, shift), p->radius, x + len, sh);
        }
    }
    free(share);
    /* coordination: each particle's particle contacts, binned by its centre */
    size_t *n = calloc(s->nparticles + 1, sizeof *n);
    if (!n) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the contacts of %zu particles", s->nparticles);
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        if (!(c->overlap > 0.0) || (c->flags & DEM_CONTACT_WALL)) continue;
        size_t i = dem_id_index_find(ix, c->i), j = dem_id_index_find(ix, c->j);
        if (i == SIZE_MAX || j == SIZE_MAX) {
            free(n);
            return dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu) names a particle that is not in the frame",
                            (unsigned long long)c->i, (unsigned long long)c->j);
        }
        n[i]++;
        n[j]++;
    }
    size_t *zsum = calloc(g->bins, sizeof *zsum);
    if (!zsum) {
        free(n);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu slices", g->bins);
    }
    for (size_t k = 0; k < s->nparticles; k++) {
        size_t b = bin_of(g, dem_v3_get(s->particles[k].pos, g->axis));
        if (b == SIZE_MAX) continue;
        out[b].particles++;
        zsum[b] += n[k];
    }
    free(n);
    for (size_t b = 0; b < g->bins; b++) {
        out[b].solid_fraction = out[b].solid_volume / out[b].volume;
        out[b].coordination = out[b].particles ? (double)zsum[b] / (double)out[b].particles : NAN;
    }
    free(zsum);
    return profile_stress(s, ix, g, out, rect, err);
    return DEM_OK;
}
