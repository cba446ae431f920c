/* pack_setup.c - what turns a heap of spheres into a system ready to simulate: materials and
 * their assignment, fixed particles, initial velocities, the periodic cell and walls. */
#include "pack/pack.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The velocity fluctuations must not depend on whether the compiler fuses a*b+c (see rng.c). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

static const char axis_names[] = "xyz";

/* ==== materials ============================================================================= */
typedef struct {
    const char *key;
    size_t offset; /* of the double in dem_material */
} material_key;

static const material_key material_keys[] = {
    {"density", offsetof(dem_material, density)},
    {"young", offsetof(dem_material, young)},
    {"poisson", offsetof(dem_material, poisson)},
    {"friction", offsetof(dem_material, friction)},
    {"restitution", offsetof(dem_material, restitution)},
    {"rolling_friction", offsetof(dem_material, rolling_friction)},
    {"twisting_friction", offsetof(dem_material, twisting_friction)},
    {"surface_energy", offsetof(dem_material, surface_energy)},
};
#define NKEYS (sizeof material_keys / sizeof material_keys[0])
#define KEY_LIST "name, density, young, poisson, friction, restitution, rolling_friction, twisting_friction, surface_energy"

/* key (length n, '-' read as '_') equals name? */
static int key_is(const char *key, size_t n, const char *name)
{
    if (strlen(name) != n) return 0;
    for (size_t k = 0; k < n; k++)
        if ((key[k] == '-' ? '_' : key[k]) != name[k]) return 0;
    return 1;
}

static int all_digits(const char *t)
{
    if (!*t) return 0;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t)) return 0;
    return 1;
}

/* A valid name for a material, used by no material other than material skip. */
static dem_status check_name(const dem_system *s, const char *name, const char *spec, size_t skip, dem_error *err)
{
    size_t n = strlen(name);
    if (n == 0) return dem_fail(err, DEM_ERR_ARG, "material '%s': the name is empty", spec);
    if (n >= DEM_NAME_MAX) return dem_fail(err, DEM_ERR_ARG, "material '%s': name '%s' is longer than %d bytes", spec, name, DEM_NAME_MAX - 1);
    if (strchr(name, '=')) return dem_fail(err, DEM_ERR_ARG, "material '%s': name '%s' contains '='", spec, name);
    if (all_digits(name)) return dem_fail(err, DEM_ERR_ARG, "material '%s': name '%s' is a number, which would read as a material index", spec, name);
    for (size_t k = 0; k < s->nmaterials; k++)
        if (k != skip && strcmp(s->materials[k].name, name) == 0)
            return dem_fail(err, DEM_ERR_ARG, "material '%s': name '%s' is already used by material %zu", spec, name, k);
    return DEM_OK;
}

/* Apply one "key=value" item (length n) of spec to m; *seen has bit k set once key k was given. */
static dem_status apply_item(dem_material *m, const char *item, size_t n, const char *spec, unsigned *seen, dem_error *err)
{
    const char *eq = memchr(item, '=', n);
    if (!eq) return dem_fail(err, DEM_ERR_ARG, "material '%s': '%.*s' is not key=value", spec, (int)n, item);
    size_t klen = (size_t)(eq - item), vlen = n - klen - 1;
    char value[128];
    if (vlen >= sizeof value) return dem_fail(err, DEM_ERR_ARG, "material '%s': value of '%.*s' is too long", spec, (int)klen, item);
    memcpy(value, eq + 1, vlen);
    value[vlen] = 0;
    int slot = -1;
    if (key_is(item, klen, "name")) slot = (int)NKEYS;
    for (size_t k = 0; k < NKEYS && slot < 0; k++)
        if (key_is(item, klen, material_keys[k].key)) slot = (int)k;
    if (slot < 0) return dem_fail(err, DEM_ERR_ARG, "material '%s': unknown key '%.*s' (keys: " KEY_LIST ")", spec, (int)klen, item);
    if (*seen & (1u << slot)) return dem_fail(err, DEM_ERR_ARG, "material '%s': key '%.*s' given twice", spec, (int)klen, item);
    *seen |= 1u << slot;
    if (slot == (int)NKEYS) {
        if (vlen >= DEM_NAME_MAX) return dem_fail(err, DEM_ERR_ARG, "material '%s': name '%s' is longer than %d bytes", spec, value, DEM_NAME_MAX - 1);
        memset(m->name, 0, sizeof m->name);
        memcpy(m->name, value, vlen);
        return DEM_OK;
    }
    double v;
    if (dem_parse_double(value, &v, NULL))
        return dem_fail(err, DEM_ERR_ARG, "material '%s': %s = '%s' is not a finite number", spec, material_keys[slot].key, value);
    memcpy((char *)m + material_keys[slot].offset, &v, sizeof v);
    return DEM_OK;
}

/* Every key=value item of spec ("density=7800,young=2e11") applied to m; *seen collects the keys. */
static dem_status apply_spec(dem_material *m, const char *spec, unsigned *seen, dem_error *err)
{
    const char *p = spec;
    dem_status st;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if ((st = apply_item(m, p, n, spec, seen, err))) return st;
        if (!end) break;
        p = end + 1;
    }
    return DEM_OK;
}

dem_status dem_pack_add_material(dem_system *s, const char *spec, dem_error *err)
{
    if (s->nmaterials == 0) return dem_fail(err, DEM_ERR_ARG, "material '%s': there is no material 0 to copy", spec);
    dem_material m = s->materials[0];
    memset(m.name, 0, sizeof m.name);
    snprintf(m.name, sizeof m.name, "material%zu", s->nmaterials);
    unsigned seen = 0;
    dem_status st;
    if ((st = apply_spec(&m, spec, &seen, err))) return st;
    if ((st = check_name(s, m.name, spec, SIZE_MAX, err))) return st;
    return dem_system_push_material(s, &m, err);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The clumps whose members are of material mat: mass, principal moments and angular momentum times
 * ratio (the new density over the old; the angular velocity stays). */
static dem_status scale_clumps(dem_system *s, uint32_t mat, double ratio, dem_error *err)
{
    uint64_t *ids = malloc((s->nparticles ? s->nparticles : 1) * sizeof *ids);
    if (!ids) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (s->particles[k].clump && s->particles[k].material == mat) ids[n++] = s->particles[k].clump;
    qsort(ids, n, sizeof *ids, cmp_u64);
    for (size_t c = 0; c < s->nclumps; c++) {
        dem_clump *cl = &s->clumps[c];
        if (!bsearch(&cl->id, ids, n, sizeof *ids, cmp_u64)) continue;
        cl->mass *= ratio;
        cl->inertia = dem_v3_scale(cl->inertia, ratio);
        cl->angmom = dem_v3_scale(cl->angmom, ratio);
    }
    free(ids);
    return DEM_OK;
}

dem_status dem_pack_set_material(dem_system *s, uint32_t mat, const char *spec, size_t *count, dem_error *err)
{
    if (count) *count = 0;
    if (mat >= s->nmaterials)
        return dem_fail(err, DEM_ERR_ARG, "material %u does not exist (%zu materials)", mat, s->nmaterials);
    dem_material m = s->materials[mat];
    unsigned seen = 0;
    dem_status st;
    if ((st = apply_spec(&m, spec, &seen, err))) return st;
    if ((seen & (1u << NKEYS)) && (st = check_name(s, m.name, spec, mat, err))) return st;
    dem_material old = s->materials[mat];
    s->materials[mat] = m;
    if ((st = dem_pack_check_materials(s, err))) {
        s->materials[mat] = old;
        return st;
    }
    if (!(seen & 1u)) return DEM_OK; /* key 0, density: masses and inertias follow it */
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++) {
        dem_particle *q = &s->particles[k];
        if (q->material != mat) continue;
        dem_sphere_mass(q->radius, m.density, &q->mass, &q->inertia);
        n++;
    }
    if (count) *count = n;
    return s->nclumps ? scale_clumps(s, mat, m.density / old.density, err) : DEM_OK;
}

dem_status dem_pack_find_material(const dem_system *s, const char *text, uint32_t *index, dem_error *err)
{
    if (all_digits(text)) {
        errno = 0;
        unsigned long long k = strtoull(text, NULL, 10);
        if (errno == 0 && k < s->nmaterials) {
            *index = (uint32_t)k;
            return DEM_OK;
        }
    } else {
        for (size_t k = 0; k < s->nmaterials; k++)
            if (strcmp(s->materials[k].name, text) == 0) {
                *index = (uint32_t)k;
                return DEM_OK;
            }
    }
    char list[256] = "";
    size_t used = 0;
    for (size_t k = 0; k < s->nmaterials && used < sizeof list; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%zu %s", k ? ", " : "", k, s->materials[k].name);
    return dem_fail(err, DEM_ERR_ARG, "material '%s' does not exist (materials: %s)", text, s->nmaterials ? list : "none");
}

dem_status dem_pack_check_materials(const dem_system *s, dem_error *err)
{
    /* A system that borrows only the materials table: dem_system_check stays the one place that
     * says what a valid material is. Nothing is freed, nothing is written. */
    dem_system view;
    dem_system_init(&view);
    view.materials = s->materials;
    view.nmaterials = s->nmaterials;
    return dem_system_check(&view, err);
}

dem_status dem_pack_assign(dem_system *s, uint32_t mat, const dem_select *sel, size_t *count, dem_error *err)
{
    if (mat >= s->nmaterials)
        return dem_fail(err, DEM_ERR_ARG, "material %u does not exist (%zu materials)", mat, s->nmaterials);
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++) { /* first: nothing changes when a member is selected */
        const dem_particle *p = &s->particles[k];
        if (p->clump && dem_select_match(sel, p))
            return dem_fail(err, DEM_ERR_ARG, "particle %llu is a member of clump %llu: a clump's members share its material (change it "
                            "with --set-material)", (unsigned long long)p->id, (unsigned long long)p->clump);
    }
    for (size_t k = 0; k < s->nparticles; k++) {
        dem_particle *p = &s->particles[k];
        if (!dem_select_match(sel, p)) continue;
        p->material = mat;
        dem_sphere_mass(p->radius, s->materials[mat].density, &p->mass, &p->inertia);
        n++;
    }
    if (count) *count = n;
    return DEM_OK;
}

size_t dem_pack_fix(dem_system *s, const dem_select *sel)
{
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (dem_select_match(sel, &s->particles[k])) {
            s->particles[k].flags |= DEM_PARTICLE_FIXED;
            n++;
        }
    return n;
}

size_t dem_pack_group(dem_system *s, int group, const dem_select *sel)
{
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (dem_select_match(sel, &s->particles[k])) {
            s->particles[k].group = 1u << (group - 1);
            n++;
        }
    return n;
}

/* ==== velocities ============================================================================ */
static int is_fixed(const dem_particle *p) { return (p->flags & DEM_PARTICLE_FIXED) != 0; }

void dem_pack_set_velocity_from(dem_system *s, size_t first, dem_vec3 v)
{
    for (size_t k = first; k < s->nparticles; k++)
        if (!is_fixed(&s->particles[k])) s->particles[k].vel = v;
}

void dem_pack_set_omega_from(dem_system *s, size_t first, dem_vec3 w)
{
    for (size_t k = first; k < s->nparticles; k++)
        if (!is_fixed(&s->particles[k])) s->particles[k].omega = w;
}

void dem_pack_set_velocity(dem_system *s, dem_vec3 v) { dem_pack_set_velocity_from(s, 0, v); }
void dem_pack_set_omega(dem_system *s, dem_vec3 w) { dem_pack_set_omega_from(s, 0, w); }

dem_status dem_pack_random_velocity_from(dem_system *s, size_t first, double sigma, uint64_t seed, dem_error *err)
{
    if (!(sigma >= 0.0) || !isfinite(sigma))
        return dem_fail(err, DEM_ERR_ARG, "velocity spread %g m/s must be >= 0", sigma);
    dem_rng rng;
    dem_rng_seed(&rng, seed);
    dem_rng_jump(&rng);
    dem_vec3 momentum = dem_v3_zero();
    double mass = 0.0;
    for (size_t k = first; k < s->nparticles; k++) {
        dem_particle *p = &s->particles[k];
        if (is_fixed(p)) continue;
        double a = dem_rng_normal(&rng), b = dem_rng_normal(&rng), c = dem_rng_normal(&rng);
        dem_vec3 dv = dem_v3_scale(dem_v3(a, b, c), sigma);
        p->vel = dem_v3_add(p->vel, dv);
        momentum = dem_v3_madd(momentum, dv, p->mass);
        mass += p->mass;
    }
    if (mass > 0.0) {
        dem_vec3 mean = dem_v3_scale(momentum, 1.0 / mass);
        for (size_t k = first; k < s->nparticles; k++)
            if (!is_fixed(&s->particles[k])) s->particles[k].vel = dem_v3_sub(s->particles[k].vel, mean);
    }
    return DEM_OK;
}

dem_status dem_pack_random_velocity(dem_system *s, double sigma, uint64_t seed, dem_error *err)
{
    return dem_pack_random_velocity_from(s, 0, sigma, seed, err);
}

/* ==== periodic cell ========================================================================= */
dem_status dem_pack_parse_axes(const char *text, uint32_t *flags, dem_error *err)
{
    uint32_t f = 0;
    if (!*text) return dem_fail(err, DEM_ERR_ARG, "no periodic axes given: expected letters x, y, z such as 'xyz' or 'xy'");
    for (const char *p = text; *p; p++) {
        int a = dem_axis_index(*p);
        if (a < 0) return dem_fail(err, DEM_ERR_ARG, "axes '%s': '%c' is not x, y or z", text, *p);
        if (f & (1u << a)) return dem_fail(err, DEM_ERR_ARG, "axes '%s': %c appears twice", text, *p);
        f |= 1u << a;
    }
    *flags = f;
    return DEM_OK;
}

dem_status dem_pack_set_cell(dem_system *s, dem_vec3 lo, dem_vec3 hi, uint32_t flags, dem_error *err)
{
    if (!flags || (flags & ~7u)) return dem_fail(err, DEM_ERR_ARG, "periodic flags %u: need a nonempty subset of x, y, z", flags);
    for (int a = 0; a < 3; a++) {
        double l = dem_v3_get(lo, a), h = dem_v3_get(hi, a);
        if (!isfinite(l) || !isfinite(h) || !(l < h))
            return dem_fail(err, DEM_ERR_ARG, "periodic cell: %c0 = %g must be less than %c1 = %g", axis_names[a], l, axis_names[a], h);
    }
    s->cell = dem_cell_default();
    s->cell.flags = flags;
    s->cell.origin = lo;
    s->cell.h = dem_m3_diag(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
    return DEM_OK;
}

void dem_pack_wrap_into_cell(dem_system *s)
{
    const dem_cell *c = &s->cell;
    for (int a = 0; a < 3; a++) {
        if (!((c->flags >> a) & 1u)) continue;
        double lo = dem_v3_get(c->origin, a), len = c->h.m[a][a];
        for (size_t k = 0; k < s->nparticles; k++) {
            double x = dem_v3_get(s->particles[k].pos, a);
            x -= len * floor((x - lo) / len);
            if (x >= lo + len) x -= len; /* rounding can leave x on the far face... */
            if (x < lo) x = lo;          /* ...or a hair below the near one */
            dem_v3_set(&s->particles[k].pos, a, x);
        }
    }
}

dem_status dem_pack_check_in_cell(const dem_system *s, dem_error *err)
{
    const dem_cell *c = &s->cell;
    if (!c->flags) return DEM_OK;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        for (int a = 0; a < 3; a++) {
            double lo = dem_v3_get(c->origin, a), hi = lo + c->h.m[a][a], x = dem_v3_get(p->pos, a);
            int periodic = (c->flags >> a) & 1u;
            if (x >= lo && (periodic ? x < hi : x <= hi)) continue;
            return dem_fail(err, DEM_ERR_VALUE, "particle id %llu: centre %c = %.17g m lies outside the periodic cell [%.17g, %.17g%c m",
                            (unsigned long long)p->id, axis_names[a], x, lo, hi, periodic ? ')' : ']');
        }
    }
    return DEM_OK;
}

/* ==== ranges ================================================================================ */
typedef struct {
    dem_vec3 pos;
    uint64_t id;
} centre_key;

static int cmp_centre(const void *pa, const void *pb)
{
    const centre_key *x = pa, *y = pb;
    if (x->pos.x != y->pos.x) return x->pos.x < y->pos.x ? -1 : 1;
    if (x->pos.y != y->pos.y) return x->pos.y < y->pos.y ? -1 : 1;
    if (x->pos.z != y->pos.z) return x->pos.z < y->pos.z ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

dem_status dem_pack_check_ranges(const dem_system *s, dem_error *err)
{
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        unsigned long long id = (unsigned long long)p->id;
        if (!(p->radius >= DEM_RADIUS_MIN && p->radius <= DEM_RADIUS_MAX))
            return dem_fail(err, DEM_ERR_VALUE, "particle id %llu: radius %g m is outside [%g, %g] m, the range the toolchain simulates", id,
                            p->radius, DEM_RADIUS_MIN, DEM_RADIUS_MAX);
        double m = fmax(fabs(p->pos.x), fmax(fabs(p->pos.y), fabs(p->pos.z)));
        if (!(m <= DEM_COORD_MAX_RADII * p->radius))
            return dem_fail(err, DEM_ERR_VALUE,
                            "particle id %llu at (%g, %g, %g) m lies more than 2^40 of its radii (%g m) from the origin: the doubles could not resolve its contacts",
                            id, p->pos.x, p->pos.y, p->pos.z, p->radius);
    }
    if (s->nparticles < 2) return DEM_OK;
    /* two equal centres: sorted by (x, y, z), they are neighbours (n log n, for 10^6 particles) */
    centre_key *keys = malloc(s->nparticles * sizeof *keys);
    if (!keys) return dem_fail(err, DEM_ERR_NOMEM, "out of memory checking %zu particles", s->nparticles);
    for (size_t k = 0; k < s->nparticles; k++) keys[k] = (centre_key){s->particles[k].pos, s->particles[k].id};
    qsort(keys, s->nparticles, sizeof *keys, cmp_centre);
    dem_status st = DEM_OK;
    for (size_t k = 1; k < s->nparticles && !st; k++) {
        const centre_key *a = &keys[k - 1], *b = &keys[k];
        if (a->pos.x == b->pos.x && a->pos.y == b->pos.y && a->pos.z == b->pos.z)
            st = dem_fail(err, DEM_ERR_VALUE, "particles %llu and %llu have the same centre (%g, %g, %g) m", (unsigned long long)a->id,
                          (unsigned long long)b->id, a->pos.x, a->pos.y, a->pos.z);
    }
    free(keys);
    return st;
}

/* ==== walls ================================================================================= */
double dem_pack_largest_wall_overlap(const dem_system *s, uint64_t *id, size_t *wall, double *radius)
{
    double worst = 0.0;
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *wl = &s->walls[k];
        for (size_t a = 0; a < s->nparticles; a++) {
            const dem_particle *p = &s->particles[a];
            dem_vec3 rel = dem_v3_sub(p->pos, wl->point);
            double gap;
            if (wl->kind == DEM_WALL_PLANE) gap = dem_v3_dot(rel, wl->normal);
            else {
                double d = dem_v3_norm(dem_v3_madd(rel, wl->normal, -dem_v3_dot(rel, wl->normal)));
                gap = wl->flags & DEM_WALL_OUTSIDE ? d - wl->radius : wl->radius - d;
            }
            double overlap = p->radius - gap;
            if (overlap > worst) {
                worst = overlap;
                if (id) *id = p->id;
                if (wall) *wall = k;
                if (radius) *radius = p->radius;
            }
        }
    }
    return worst;
}

dem_status dem_plane_parse(const char *text, dem_plane_spec *p, dem_error *err)
{
    int axis = dem_axis_index(text[0]);
    if (axis < 0 || text[1] != '=')
        return dem_fail(err, DEM_ERR_ARG, "wall '%s': expected AXIS=POS or AXIS=POS@VX,VY,VZ with AXIS x, y or z", text);
    const char *at = strchr(text + 2, '@');
    char pos[64];
    size_t n = at ? (size_t)(at - text - 2) : strlen(text + 2);
    if (n >= sizeof pos) return dem_fail(err, DEM_ERR_ARG, "wall '%s': position too long", text);
    memcpy(pos, text + 2, n);
    pos[n] = 0;
    memset(p, 0, sizeof *p);
    p->axis = axis;
    if (dem_parse_double(pos, &p->pos, NULL))
        return dem_fail(err, DEM_ERR_ARG, "wall '%s': position '%s' is not a finite number", text, pos);
    if (at) {
        double v[3];
        if (dem_parse_doubles(at + 1, v, 3, NULL))
            return dem_fail(err, DEM_ERR_ARG, "wall '%s': velocity '%s' is not 3 comma-separated numbers VX,VY,VZ", text, at + 1);
        p->vel = dem_v3(v[0], v[1], v[2]);
    }
    return DEM_OK;
}

static dem_wall plane_wall(int axis, double pos, double sign, dem_vec3 vel, uint32_t mat)
{
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.material = mat;
    dem_v3_set(&w.point, axis, pos);
    dem_v3_set(&w.normal, axis, sign);
    w.vel = vel;
    return w;
}

static dem_status check_wall_material(const dem_system *s, uint32_t mat, dem_error *err)
{
    if (mat < s->nmaterials) return DEM_OK;
    return dem_fail(err, DEM_ERR_ARG, "wall material %u does not exist (%zu materials)", mat, s->nmaterials);
}

/* Which side of the plane the particles are on: +1 above, -1 below. */
static dem_status plane_side(const dem_system *s, const dem_plane_spec *w, double *sign, dem_error *err)
{
    char c = axis_names[w->axis];
    const dem_particle *above = NULL, *below = NULL;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        double d = dem_v3_get(p->pos, w->axis) - w->pos;
        if (d == 0.0)
            return dem_fail(err, DEM_ERR_VALUE, "the centre of particle id %llu lies on the plane %c = %g m",
                            (unsigned long long)p->id, c, w->pos);
        if (d > 0.0 && !above) above = p;
        if (d < 0.0 && !below) below = p;
    }
    if (above && below)
        return dem_fail(err, DEM_ERR_VALUE, "particle centres lie on both sides of the plane %c = %g m (id %llu at %c = %g m, id %llu at %c = %g m)",
                        c, w->pos, (unsigned long long)below->id, c, dem_v3_get(below->pos, w->axis),
                        (unsigned long long)above->id, c, dem_v3_get(above->pos, w->axis));
    *sign = above ? 1.0 : -1.0;
    return DEM_OK;
}

dem_status dem_pack_add_plane(dem_system *s, const dem_plane_spec *w, uint32_t mat, dem_error *err)
{
    char c = axis_names[w->axis];
    dem_status st = check_wall_material(s, mat, err);
    if (st) return st;
    if ((s->cell.flags >> w->axis) & 1u)
        return dem_fail(err, DEM_ERR_ARG, "the cell is periodic along %c: a wall across %c would cut through the periodic images", c, c);
    if (s->nparticles == 0)
        return dem_fail(err, DEM_ERR_VALUE, "no particles to tell which side of the plane %c = %g m faces", c, w->pos);
    double sign = 1.0;
    /* Every centre on one side: a sphere that reaches through the plane overlaps it by less than
     * its radius, a contact that dem-step resolves (a sphere resting at its equilibrium overlap,
     * a state settled by another code); only a centre on the other side is refused. */
    if ((st = plane_side(s, w, &sign, err))) return st;
    dem_wall wall = plane_wall(w->axis, w->pos, sign, w->vel, mat);
    return dem_system_push_wall(s, &wall, err);
}

dem_status dem_pack_enclose_box(dem_system *s, dem_vec3 lo, dem_vec3 hi, uint32_t mat, dem_error *err)
{
    dem_status st = check_wall_material(s, mat, err);
    if (st) return st;
    for (int a = 0; a < 3; a++) {
        if ((s->cell.flags >> a) & 1u) continue; /* periodic: no face to wall off */
        dem_wall lower = plane_wall(a, dem_v3_get(lo, a), 1.0, dem_v3_zero(), mat);
        dem_wall upper = plane_wall(a, dem_v3_get(hi, a), -1.0, dem_v3_zero(), mat);
        if ((st = dem_system_push_wall(s, &lower, err)) || (st = dem_system_push_wall(s, &upper, err))) return st;
    }
    return DEM_OK;
}

dem_status dem_pack_enclose_cylinder(dem_system *s, const dem_region *r, uint32_t mat, dem_error *err)
{
    dem_status st = check_wall_material(s, mat, err);
    if (st) return st;
    if (r->kind != DEM_REGION_CYLINDER) return dem_fail(err, DEM_ERR_ARG, "the region is not a cylinder");
    int t1 = r->axis == 0 ? 1 : 0, t2 = r->axis == 2 ? 1 : 2;
    dem_wall mantle;
    memset(&mantle, 0, sizeof mantle);
    mantle.kind = DEM_WALL_CYLINDER;
    mantle.material = mat;
    mantle.flags = 0; /* particles inside */
    dem_v3_set(&mantle.point, t1, r->c1);
    dem_v3_set(&mantle.point, t2, r->c2);
    dem_v3_set(&mantle.point, r->axis, r->axlo);
    dem_v3_set(&mantle.normal, r->axis, 1.0);
    mantle.radius = r->radius;
    if ((st = dem_system_push_wall(s, &mantle, err))) return st;
    if ((s->cell.flags >> r->axis) & 1u) return DEM_OK;
    dem_wall bottom = plane_wall(r->axis, r->axlo, 1.0, dem_v3_zero(), mat);
    dem_wall top = plane_wall(r->axis, r->axhi, -1.0, dem_v3_zero(), mat);
    if ((st = dem_system_push_wall(s, &bottom, err))) return st;
    return dem_system_push_wall(s, &top, err);
}
