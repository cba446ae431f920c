/* material_ranges.c - the ranges of real granular materials (material_ranges.h). */
#include "laws/material_ranges.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A unit someone may have meant: the value times factor, written VALUE<suffix> unit (name). */
typedef struct {
    double factor;
    const char *suffix; /* "e9" */
    const char *name;   /* "GPa" */
} unit_slip;

typedef struct {
    const char *key;
    const char *unit;
    double lo, hi;
    const char *low_what, *high_what;  /* what bounds the range below and above */
    double typical_lo, typical_hi;     /* where a corrected value should land */
    unit_slip low[3], high[3];         /* slips that make a value too small / too large */
    const char *high_note;             /* said when nothing explains a value too large */
} range_rule;

#define NONE {{0.0, NULL, NULL}}
static const range_rule rules[] = {
    {"young", "Pa", 1e4, 1.2e12, "hydrogel beads", "diamond", 1e6, 1.2e12,
     {{1e9, "e9", "GPa"}, {1e6, "e6", "MPa"}, {1e3, "e3", "kPa"}}, NONE, NULL},
    {"density", "kg/m^3", 10.0, 2.3e4, "expanded polystyrene beads", "osmium", 100.0, 2.3e4,
     {{1e3, "e3", "g/cm^3"}}, NONE,
     "if the density is scaled on purpose (a larger time step), ignore this"},
    {"surface_energy", "J/m^2", 0.0, 10.0, "none", "clean metals", 1e-4, 10.0,
     NONE, {{1e-3, "e-3", "mJ/m^2"}}, NULL},
    {"friction", "", 0.0, 2.0, "frictionless", "rubber", 0.0, 2.0, NONE, NONE,
     "if sliding is to be suppressed on purpose, ignore this"},
    {"rolling_friction", "", 0.0, 1.0, "none", "about 0.5 for angular grains", 0.0, 1.0, NONE, NONE, NULL},
    {"twisting_friction", "", 0.0, 1.0, "none", "about 0.5 for angular grains", 0.0, 1.0, NONE, NONE, NULL},
    {"radius", "m", 5e-8, 10.0, "nanopowders", "boulders", 1e-6, 1.0,
     NONE, {{1e-3, "e-3", "mm"}, {1e-6, "e-6", "um"}}, NULL},
};

static double material_value(const dem_material *m, const char *key)
{
    if (strcmp(key, "young") == 0) return m->young;
    if (strcmp(key, "density") == 0) return m->density;
    if (strcmp(key, "surface_energy") == 0) return m->surface_energy;
    if (strcmp(key, "friction") == 0) return m->friction;
    if (strcmp(key, "rolling_friction") == 0) return m->rolling_friction;
    return m->twisting_friction;
}

/* "; did you mean 70e9 Pa (GPa)?" for the slips that bring v into the typical range, or the
 * rule's note, or nothing. */
static void suggest(char *buf, size_t size, const range_rule *r, double v, const unit_slip *slips)
{
    buf[0] = 0;
    int n = 0;
    for (int k = 0; k < 3 && slips[k].factor > 0.0; k++) {
        double w = v * slips[k].factor;
        if (!(w >= r->typical_lo && w <= r->typical_hi)) continue;
        snprintf(buf, size, "; did you mean %.6g%s %s (%s)", v, slips[k].suffix, r->unit, slips[k].name);
        n++;
        break; /* the slips are in order of likelihood: the first that fits */
    }
    size_t len = strlen(buf);
    if (n) snprintf(buf + len, size - len, "?");
}

static void describe(dem_range_warning *w, const range_rule *r, int material, double v)
{
    w->material = material;
    w->parameter = r->key;
    w->value = v;
    w->lo = r->lo;
    w->hi = r->hi;
    int low = v < r->lo;
    char hint[128];
    suggest(hint, sizeof hint, r, v, low ? r->low : r->high);
    if (!hint[0] && !low && strcmp(r->key, "friction") == 0 && v < 90.0) /* an angle of friction given for its tangent */
        snprintf(hint, sizeof hint, "; if %.6g is the friction angle in degrees, mu = tan(%.6g deg) = %.3g", v, v, tan(v * (3.14159265358979323846 / 180.0)));
    else if (!hint[0] && !low && r->high_note)
        snprintf(hint, sizeof hint, "; %s", r->high_note);
    const char *sp = r->unit[0] ? " " : "";
    snprintf(w->text, sizeof w->text, "%s = %.6g%s%s is %s any real granular material (%g%s%s, %s, to %g%s%s, %s)%s", r->key, v, sp,
             r->unit, low ? "below" : "beyond", r->lo, sp, r->unit, r->low_what, r->hi, sp, r->unit, r->high_what, hint);
}

static int outside(const range_rule *r, double v) { return isfinite(v) && (v < r->lo || v > r->hi); }

int dem_material_range_check(const dem_system *s, dem_range_warning *out, int max)
{
    int n = 0;
    unsigned char *used = calloc(s->nmaterials ? s->nmaterials : 1, 1); /* bit 0: a particle's, bit 1: a wall's */
    if (!used) return 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].material < s->nmaterials) used[s->particles[k].material] |= 1u;
    for (size_t k = 0; k < s->nwalls; k++)
        if (s->walls[k].material < s->nmaterials) used[s->walls[k].material] |= 2u;
    size_t nrules = sizeof rules / sizeof rules[0] - 1; /* the last rule is the radius */
    for (size_t m = 0; m < s->nmaterials; m++) {
        for (size_t k = 0; k < nrules; k++) {
            const range_rule *r = &rules[k];
            unsigned need = strcmp(r->key, "density") == 0 ? 1u : 3u;
            double v = material_value(&s->materials[m], r->key);
            if (!(used[m] & need) || !outside(r, v)) continue;
            if (n < max) describe(&out[n], r, (int)m, v);
            n++;
        }
    }
    free(used);
    const range_rule *rr = &rules[nrules];
    double rmin = INFINITY, rmax = -INFINITY;
    for (size_t k = 0; k < s->nparticles; k++) {
        rmin = fmin(rmin, s->particles[k].radius);
        rmax = fmax(rmax, s->particles[k].radius);
    }
    if (outside(rr, rmin) && rmin < rr->lo) {
        if (n < max) describe(&out[n], rr, -1, rmin);
        n++;
    }
    if (outside(rr, rmax) && rmax > rr->hi) {
        if (n < max) describe(&out[n], rr, -1, rmax);
        n++;
    }
    return n;
}
