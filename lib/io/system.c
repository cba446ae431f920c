/* system.c - ownership, defaults and physical checks of a dem_system. */
#include "io/system.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dem_system_init(dem_system *s)
{
    memset(s, 0, sizeof *s);
    s->energy[DEM_E_INITIAL] = NAN; /* not known until a program that steps the system sets it */
}

void dem_system_free(dem_system *s)
{
    free(s->params);
    free(s->materials);
    free(s->walls);
    free(s->clumps);
    free(s->particles);
    free(s->contacts);
    free(s->bonds);
    free(s->members);
    dem_system_init(s);
}

void dem_system_clear(dem_system *s)
{
    s->step = 0;
    s->time = s->dt = 0.0;
    s->flags = 0;
    s->nparams = s->nmaterials = s->nwalls = s->nclumps = s->nparticles = s->ncontacts = 0;
    s->nbonds = 0;
    s->nmembers = 0;
    s->cell = dem_cell_default();
    s->hist_slots = 0;
    memset(s->energy, 0, sizeof s->energy);
    s->energy[DEM_E_INITIAL] = NAN;
}

/* Grow *arr (of element size elem) so that it holds at least need elements. */
static dem_status grow(void **arr, size_t *cap, size_t need, size_t elem, const char *what,
                       dem_error *err)
{
    if (need <= *cap) return DEM_OK;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem) return dem_fail(err, DEM_ERR_NOMEM, "too many %s: %zu", what, need);
        ncap *= 2;
    }
    void *p = realloc(*arr, ncap * elem);
    if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu %s", need, what);
    *arr = p;
    *cap = ncap;
    return DEM_OK;
}

#define DEFINE_PUSH(fn, type, arr, n, cap, what)                                                 \
    dem_status fn(dem_system *s, const type *x, dem_error *err)                                  \
    {                                                                                            \
        dem_status st = grow((void **)&s->arr, &s->cap, s->n + 1, sizeof(type), what, err);      \
        if (st) return st;                                                                       \
        s->arr[s->n++] = *x;                                                                     \
        return DEM_OK;                                                                           \
    }
DEFINE_PUSH(dem_system_push_particle, dem_particle, particles, nparticles, cap_particles, "particles")
DEFINE_PUSH(dem_system_push_contact, dem_contact, contacts, ncontacts, cap_contacts, "contacts")
DEFINE_PUSH(dem_system_push_material, dem_material, materials, nmaterials, cap_materials, "materials")
DEFINE_PUSH(dem_system_push_wall, dem_wall, walls, nwalls, cap_walls, "walls")
DEFINE_PUSH(dem_system_push_clump, dem_clump, clumps, nclumps, cap_clumps, "clumps")
DEFINE_PUSH(dem_system_push_bond, dem_bond, bonds, nbonds, cap_bonds, "bonds")
DEFINE_PUSH(dem_system_push_member, dem_member, members, nmembers, cap_members, "clump members")

dem_status dem_system_reserve_particles(dem_system *s, size_t n, dem_error *err)
{
    return grow((void **)&s->particles, &s->cap_particles, n, sizeof(dem_particle), "particles", err);
}

dem_status dem_system_reserve_contacts(dem_system *s, size_t n, dem_error *err)
{
    return grow((void **)&s->contacts, &s->cap_contacts, n, sizeof(dem_contact), "contacts", err);
}

static dem_status copy_array(void **dst, size_t *dcap, const void *src, size_t n, size_t elem,
                             const char *what, dem_error *err)
{
    dem_status st = grow(dst, dcap, n, elem, what, err);
    if (st) return st;
    if (n) memcpy(*dst, src, n * elem);
    return DEM_OK;
}

dem_status dem_system_copy(dem_system *d, const dem_system *s, dem_error *err)
{
    dem_status st;
    if ((st = copy_array((void **)&d->params, &d->cap_params, s->params, s->nparams, sizeof(dem_param), "parameters", err)) ||
        (st = copy_array((void **)&d->materials, &d->cap_materials, s->materials, s->nmaterials, sizeof(dem_material), "materials", err)) ||
        (st = copy_array((void **)&d->walls, &d->cap_walls, s->walls, s->nwalls, sizeof(dem_wall), "walls", err)) ||
        (st = copy_array((void **)&d->clumps, &d->cap_clumps, s->clumps, s->nclumps, sizeof(dem_clump), "clumps", err)) ||
        (st = copy_array((void **)&d->particles, &d->cap_particles, s->particles, s->nparticles, sizeof(dem_particle), "particles", err)) ||
        (st = copy_array((void **)&d->contacts, &d->cap_contacts, s->contacts, s->ncontacts, sizeof(dem_contact), "contacts", err)) ||
        (st = copy_array((void **)&d->bonds, &d->cap_bonds, s->bonds, s->nbonds, sizeof(dem_bond), "bonds", err)) ||
        (st = copy_array((void **)&d->members, &d->cap_members, s->members, s->nmembers, sizeof(dem_member), "clump members", err)))
        return st;
    d->nbonds = s->nbonds;
    d->nmembers = s->nmembers;
    d->nparams = s->nparams;
    d->nmaterials = s->nmaterials;
    d->nwalls = s->nwalls;
    d->nclumps = s->nclumps;
    d->nparticles = s->nparticles;
    d->ncontacts = s->ncontacts;
    d->step = s->step;
    d->time = s->time;
    d->dt = s->dt;
    d->flags = s->flags;
    d->cell = s->cell;
    d->hist_slots = s->hist_slots;
    memcpy(d->energy, s->energy, sizeof d->energy);
    return DEM_OK;
}

dem_particle dem_particle_default(void)
{
    dem_particle p;
    memset(&p, 0, sizeof p);
    p.orient = dem_quat_identity();
    p.group = 1;
    return p;
}

dem_material dem_material_default(void)
{
    /* Soda-lime glass beads: the material of most granular-physics experiments. */
    dem_material m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "default");
    m.density = 2500.0;
    m.young = 7.0e10;
    m.poisson = 0.25;
    m.friction = 0.5;
    m.restitution = 0.9;
    return m;
}

void dem_sphere_mass(double radius, double density, double *mass, double *inertia)
{
    double m = 4.0 / 3.0 * M_PI * radius * radius * radius * density;
    *mass = m;
    *inertia = 0.4 * m * radius * radius;
}

/* ---- parameters ---------------------------------------------------------------------------- */
static dem_param *param_slot(dem_system *s, const char *key, dem_error *err)
{
    if (strlen(key) == 0 || strlen(key) >= DEM_KEY_MAX) {
        dem_fail(err, DEM_ERR_ARG, "parameter key '%s' must have 1 to %d bytes", key, DEM_KEY_MAX - 1);
        return NULL;
    }
    for (size_t k = 0; k < s->nparams; k++)
        if (strcmp(s->params[k].key, key) == 0) return &s->params[k];
    if (grow((void **)&s->params, &s->cap_params, s->nparams + 1, sizeof(dem_param), "parameters", err))
        return NULL;
    dem_param *p = &s->params[s->nparams++];
    memset(p, 0, sizeof *p);
    strcpy(p->key, key);
    return p;
}

dem_status dem_param_set_f64(dem_system *s, const char *key, const double *v, int count, dem_error *err)
{
    if (count < 1 || count > DEM_PARAM_F64_MAX)
        return dem_fail(err, DEM_ERR_ARG, "parameter '%s': %d values (1 to %d allowed)", key, count, DEM_PARAM_F64_MAX);
    dem_param *p = param_slot(s, key, err);
    if (!p) return err ? err->code : DEM_ERR_ARG;
    memset(&p->v, 0, sizeof p->v);
    p->type = DEM_PARAM_F64;
    p->count = (uint8_t)count;
    memcpy(p->v.f, v, (size_t)count * sizeof(double));
    return DEM_OK;
}

dem_status dem_param_set_i64(dem_system *s, const char *key, int64_t v, dem_error *err)
{
    dem_param *p = param_slot(s, key, err);
    if (!p) return err ? err->code : DEM_ERR_ARG;
    memset(&p->v, 0, sizeof p->v);
    p->type = DEM_PARAM_I64;
    p->count = 1;
    p->v.i = v;
    return DEM_OK;
}

dem_status dem_param_set_str(dem_system *s, const char *key, const char *v, dem_error *err)
{
    if (strlen(v) >= DEM_PARAM_STR_MAX)
        return dem_fail(err, DEM_ERR_ARG, "parameter '%s': string longer than %d bytes", key, DEM_PARAM_STR_MAX - 1);
    dem_param *p = param_slot(s, key, err);
    if (!p) return err ? err->code : DEM_ERR_ARG;
    memset(&p->v, 0, sizeof p->v);
    p->type = DEM_PARAM_STR;
    p->count = 1;
    strcpy(p->v.s, v);
    return DEM_OK;
}

const dem_param *dem_param_get(const dem_system *s, const char *key)
{
    for (size_t k = 0; k < s->nparams; k++)
        if (strcmp(s->params[k].key, key) == 0) return &s->params[k];
    return NULL;
}

dem_status dem_param_append(dem_system *s, const dem_param *p, dem_error *err)
{
    dem_status st = grow((void **)&s->params, &s->cap_params, s->nparams + 1, sizeof(dem_param), "parameters", err);
    if (st) return st;
    s->params[s->nparams++] = *p;
    return DEM_OK;
}

static int by_key_then_index(const void *a, const void *b)
{
    const dem_param *const *x = a, *const *y = b;
    int c = strcmp((*x)->key, (*y)->key);
    return c ? c : (*x < *y ? -1 : *x > *y);
}

long dem_params_duplicate(const dem_system *s, size_t from, dem_error *err)
{
    size_t n = s->nparams > from ? s->nparams - from : 0;
    if (n < 2) return -1;
    const dem_param **order = malloc(n * sizeof *order);
    if (!order) {
        dem_fail(err, DEM_ERR_NOMEM, "out of memory sorting %zu parameter keys", n);
        return -2;
    }
    for (size_t k = 0; k < n; k++) order[k] = &s->params[from + k];
    qsort(order, n, sizeof *order, by_key_then_index);
    long dup = -1; /* the earliest second occurrence in the frame's order, as a linear search finds it */
    for (size_t k = 1; k < n; k++)
        if (strcmp(order[k]->key, order[k - 1]->key) == 0) {
            long at = (long)(order[k] - s->params);
            if (dup < 0 || at < dup) dup = at;
        }
    free(order);
    return dup;
}

dem_cell dem_cell_default(void)
{
    dem_cell c;
    memset(&c, 0, sizeof c);
    c.deform = dem_m3_identity();
    return c;
}

double dem_cell_volume(const dem_cell *c)
{
    return c->flags ? fabs(dem_m3_det(c->h)) : 0.0;
}

/* ---- physical checks ----------------------------------------------------------------------- */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int has_id(const uint64_t *sorted, size_t n, uint64_t id)
{
    return bsearch(&id, sorted, n, sizeof *sorted, cmp_u64) != NULL;
}

dem_status dem_particle_check_values(const dem_particle *p, size_t k, dem_error *err)
{
#define BAD(...) dem_fail(err, DEM_ERR_VALUE, __VA_ARGS__)
    if (!(p->radius > 0.0) || !isfinite(p->radius))
        return BAD("particle record %zu (id %llu): radius %g must be positive and finite", k, (unsigned long long)p->id, p->radius);
    if (!(p->mass > 0.0) || !isfinite(p->mass))
        return BAD("particle record %zu (id %llu): mass %g must be positive and finite", k, (unsigned long long)p->id, p->mass);
    if (!(p->inertia > 0.0) || !isfinite(p->inertia))
        return BAD("particle record %zu (id %llu): inertia %g must be positive and finite", k, (unsigned long long)p->id, p->inertia);
    static const char *const names[5][3] = {{"x", "y", "z"}, {"vx", "vy", "vz"}, {"wx", "wy", "wz"},
                                            {"fx", "fy", "fz"}, {"tx", "ty", "tz"}};
    const dem_vec3 vecs[5] = {p->pos, p->vel, p->omega, p->force, p->torque};
    for (int v = 0; v < 5; v++)
        for (int a = 0; a < 3; a++)
            if (!isfinite(dem_v3_get(vecs[v], a)))
                return BAD("particle record %zu (id %llu): %s = %g is not finite", k, (unsigned long long)p->id,
                           names[v][a], dem_v3_get(vecs[v], a));
    double qn = dem_quat_norm(p->orient);
    if (!isfinite(qn) || fabs(qn - 1.0) > 1e-6)
        return BAD("particle record %zu (id %llu): orientation quaternion has norm %.17g, not 1", k, (unsigned long long)p->id, qn);
    for (int a = 0; a < 3; a++)
        if (p->image[a] > DEM_IMAGE_MAX || p->image[a] < -DEM_IMAGE_MAX)
            return BAD("particle record %zu (id %llu): image counter %c = %d is beyond +-2^30", k, (unsigned long long)p->id, "xyz"[a],
                       (int)p->image[a]);
    return DEM_OK;
}

static dem_status check_particle(const dem_system *s, size_t k, dem_error *err)
{
    const dem_particle *p = &s->particles[k];
    dem_status st = dem_particle_check_values(p, k, err);
    if (st) return st;
    if (p->material >= s->nmaterials)
        return BAD("particle record %zu (id %llu): material %u does not exist: the frame has %zu material(s)", k, (unsigned long long)p->id, p->material, s->nmaterials);
    return DEM_OK;
}

static dem_status check_material(const dem_system *s, size_t k, dem_error *err)
{
    const dem_material *m = &s->materials[k];
    if (memchr(m->name, 0, DEM_NAME_MAX) == NULL)
        return BAD("material record %zu: name is not NUL terminated within %d bytes", k, DEM_NAME_MAX);
    if (!(m->density > 0.0) || !isfinite(m->density)) return BAD("material record %zu (%s): density %g must be positive", k, m->name, m->density);
    if (!(m->young > 0.0) || !isfinite(m->young)) return BAD("material record %zu (%s): young %g must be positive", k, m->name, m->young);
    if (!(m->poisson > -1.0 && m->poisson < 0.5)) return BAD("material record %zu (%s): poisson %.17g must lie in (-1, 0.5)", k, m->name, m->poisson);
    if (!(m->friction >= 0.0) || !isfinite(m->friction)) return BAD("material record %zu (%s): friction %g must be >= 0", k, m->name, m->friction);
    if (!(m->restitution > 0.0 && m->restitution <= 1.0)) return BAD("material record %zu (%s): restitution %.17g must lie in (0, 1]", k, m->name, m->restitution);
    if (!(m->rolling_friction >= 0.0) || !isfinite(m->rolling_friction)) return BAD("material record %zu (%s): rolling_friction %g must be >= 0", k, m->name, m->rolling_friction);
    if (!(m->twisting_friction >= 0.0) || !isfinite(m->twisting_friction)) return BAD("material record %zu (%s): twisting_friction %g must be >= 0", k, m->name, m->twisting_friction);
    if (!(m->surface_energy >= 0.0) || !isfinite(m->surface_energy)) return BAD("material record %zu (%s): surface_energy %g must be >= 0", k, m->name, m->surface_energy);
    return DEM_OK;
}

static dem_status check_wall(const dem_system *s, size_t k, dem_error *err)
{
    const dem_wall *w = &s->walls[k];
    if (w->kind != DEM_WALL_PLANE && w->kind != DEM_WALL_CYLINDER) return BAD("wall record %zu: unknown kind %u", k, w->kind);
    if (w->material >= s->nmaterials) return BAD("wall record %zu: material %u does not exist: the frame has %zu material(s)", k, w->material, s->nmaterials);
    if (!dem_v3_isfinite(w->point) || !dem_v3_isfinite(w->vel) || !dem_v3_isfinite(w->omega) ||
        !dem_v3_isfinite(w->force) || !dem_v3_isfinite(w->torque) || !isfinite(w->work))
        return BAD("wall record %zu: a value is not finite", k);
    double nn = dem_v3_norm(w->normal);
    if (!isfinite(nn) || fabs(nn - 1.0) > 1e-9) return BAD("wall record %zu: normal has length %.17g, not 1", k, nn);
    if (w->kind == DEM_WALL_CYLINDER && !(w->radius > 0.0 && isfinite(w->radius)))
        return BAD("wall record %zu: cylinder radius %g must be positive", k, w->radius);
    return DEM_OK;
}

dem_status dem_contact_check_values(const dem_contact *c, size_t k, uint32_t hist_slots, dem_error *err)
{
    for (int a = 0; a < 3; a++) /* (i, j, s) and (j, i, -s) are one pair: -s must exist */
        if (c->shift[a] > DEM_IMAGE_MAX || c->shift[a] < -DEM_IMAGE_MAX)
            return BAD("contact record %zu (%llu-%llu): image shift %c = %d is beyond +-2^30", k, (unsigned long long)c->i,
                       (unsigned long long)c->j, "xyz"[a], (int)c->shift[a]);
    if (!isfinite(c->overlap) || !dem_v3_isfinite(c->normal) || !dem_v3_isfinite(c->fn) || !dem_v3_isfinite(c->ft) ||
        !isfinite(c->diss_friction) || !isfinite(c->diss_damp_n) || !isfinite(c->diss_damp_t))
        return BAD("contact record %zu (%llu-%llu): a value is not finite", k, (unsigned long long)c->i, (unsigned long long)c->j);
    for (uint32_t h = 0; h < hist_slots; h++)
        if (!isfinite(c->hist[h])) return BAD("contact record %zu (%llu-%llu): history slot %u is not finite", k, (unsigned long long)c->i, (unsigned long long)c->j, h);
    return DEM_OK;
}

static dem_status check_contact(const dem_system *s, size_t k, const uint64_t *ids, dem_error *err)
{
    const dem_contact *c = &s->contacts[k];
    if (!has_id(ids, s->nparticles, c->i))
        return BAD("contact record %zu: particle i = %llu does not exist", k, (unsigned long long)c->i);
    if (c->flags & DEM_CONTACT_WALL) {
        if (c->j >= s->nwalls) return BAD("contact record %zu: wall j = %llu does not exist: the frame has %zu wall(s)", k, (unsigned long long)c->j, s->nwalls);
    } else {
        if (!has_id(ids, s->nparticles, c->j))
            return BAD("contact record %zu: particle j = %llu does not exist", k, (unsigned long long)c->j);
        if (c->i == c->j && !c->shift[0] && !c->shift[1] && !c->shift[2])
            return BAD("contact record %zu: particle %llu in contact with itself", k, (unsigned long long)c->i);
    }
    return dem_contact_check_values(c, k, s->hist_slots, err);
}

dem_status dem_bond_check_values(const dem_bond *b, size_t k, dem_error *err)
{
    for (int a = 0; a < 3; a++)
        if (b->shift[a] > DEM_IMAGE_MAX || b->shift[a] < -DEM_IMAGE_MAX)
            return BAD("bond record %zu (%llu-%llu): image shift %c = %d is beyond +-2^30", k, (unsigned long long)b->i,
                       (unsigned long long)b->j, "xyz"[a], (int)b->shift[a]);
    if (!(b->kb > 0.0) || !isfinite(b->kb))
        return BAD("bond record %zu (%llu-%llu): stiffness kb = %g N/m must be positive and finite", k, (unsigned long long)b->i,
                   (unsigned long long)b->j, b->kb);
    if (!isfinite(b->delta) || !dem_v3_isfinite(b->f))
        return BAD("bond record %zu (%llu-%llu): a value is not finite", k, (unsigned long long)b->i, (unsigned long long)b->j);
    return DEM_OK;
}

static dem_status check_bond(const dem_system *s, size_t k, const uint64_t *ids, dem_error *err)
{
    const dem_bond *b = &s->bonds[k];
    if (!has_id(ids, s->nparticles, b->i))
        return BAD("bond record %zu: particle i = %llu does not exist", k, (unsigned long long)b->i);
    if (!has_id(ids, s->nparticles, b->j))
        return BAD("bond record %zu: particle j = %llu does not exist", k, (unsigned long long)b->j);
    if (b->i == b->j && !b->shift[0] && !b->shift[1] && !b->shift[2])
        return BAD("bond record %zu: particle %llu bonded to itself", k, (unsigned long long)b->i);
    return dem_bond_check_values(b, k, err);
}

#define BAD2(...) dem_fail(err, DEM_ERR_VALUE, __VA_ARGS__)

/* A pair (or particle and wall) named twice, in either order, would have two histories. */
typedef struct {
    uint64_t a, b;
    int32_t s[3];
    uint32_t wall;
} contact_key;

static int cmp_contact_key(const void *pa, const void *pb)
{
    const contact_key *x = pa, *y = pb;
    if (x->wall != y->wall) return x->wall < y->wall ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (x->s[k] != y->s[k]) return x->s[k] < y->s[k] ? -1 : 1;
    return 0;
}

static dem_status check_duplicate_contacts(const dem_system *s, dem_error *err)
{
    if (s->ncontacts < 2) return DEM_OK;
    contact_key *keys = malloc(s->ncontacts * sizeof *keys);
    if (!keys) return dem_fail(err, DEM_ERR_NOMEM, "out of memory checking %zu contacts", s->ncontacts);
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        contact_key *q = &keys[k];
        q->wall = c->flags & DEM_CONTACT_WALL;
        int flip = !q->wall && c->j < c->i; /* (i, j, s) and (j, i, -s) are the same pair */
        q->a = flip ? c->j : c->i;
        q->b = flip ? c->i : c->j;
        for (int d = 0; d < 3; d++) q->s[d] = flip ? -c->shift[d] : c->shift[d];
    }
    qsort(keys, s->ncontacts, sizeof *keys, cmp_contact_key);
    dem_status st = DEM_OK;
    for (size_t k = 1; k < s->ncontacts && !st; k++)
        if (cmp_contact_key(&keys[k - 1], &keys[k]) == 0)
            st = BAD2("contact between %s %llu and %s %llu (image %d,%d,%d) appears more than once", "particle",
                      (unsigned long long)keys[k].a, keys[k].wall ? "wall" : "particle", (unsigned long long)keys[k].b,
                      keys[k].s[0], keys[k].s[1], keys[k].s[2]);
    free(keys);
    return st;
}

/* A pair bonded twice, in either order. */
static dem_status check_duplicate_bonds(const dem_system *s, dem_error *err)
{
    if (s->nbonds < 2) return DEM_OK;
    contact_key *keys = malloc(s->nbonds * sizeof *keys);
    if (!keys) return dem_fail(err, DEM_ERR_NOMEM, "out of memory checking %zu bonds", s->nbonds);
    for (size_t k = 0; k < s->nbonds; k++) {
        const dem_bond *b = &s->bonds[k];
        contact_key *q = &keys[k];
        q->wall = 0;
        int flip = b->j < b->i;
        q->a = flip ? b->j : b->i;
        q->b = flip ? b->i : b->j;
        for (int d = 0; d < 3; d++) q->s[d] = flip ? -b->shift[d] : b->shift[d];
    }
    qsort(keys, s->nbonds, sizeof *keys, cmp_contact_key);
    dem_status st = DEM_OK;
    for (size_t k = 1; k < s->nbonds && !st; k++)
        if (cmp_contact_key(&keys[k - 1], &keys[k]) == 0)
            st = BAD2("bond between particles %llu and %llu (image %d,%d,%d) appears more than once", (unsigned long long)keys[k].a,
                      (unsigned long long)keys[k].b, keys[k].s[0], keys[k].s[1], keys[k].s[2]);
    free(keys);
    return st;
}

/* F (det F > 0 checked) and F^-1 within +-DEM_DEFORM_MAX, component by component. */
static dem_status check_deformation(const dem_cell *c, dem_error *err)
{
    dem_mat3 f = c->deform, g = dem_m3_inverse(f);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) {
            if (!(fabs(f.m[r][k]) <= DEM_DEFORM_MAX))
                return BAD("periodic cell: f%d%d = %.17g: the deformation gradient F must keep its components within +-%g (a stretch or shear beyond that has no finite strain in doubles)",
                           r + 1, k + 1, f.m[r][k], DEM_DEFORM_MAX);
            if (!(fabs(g.m[r][k]) <= DEM_DEFORM_MAX))
                return BAD("periodic cell: det F = %.3g: F^-1 has a component %.3g beyond +-%g, a compression beyond a millionth (no finite strain in doubles)",
                           dem_m3_det(f), g.m[r][k], DEM_DEFORM_MAX);
        }
    return DEM_OK;
}

/* ---- clumps -------------------------------------------------------------------------------- */
static dem_status check_clump_values(const dem_clump *c, size_t k, dem_error *err)
{
    if (c->id == 0) return BAD("clump record %zu: id 0 is reserved for 'no clump'", k);
    if (!(c->mass > 0.0 && isfinite(c->mass)) || !(c->inertia.x > 0.0 && c->inertia.y > 0.0 && c->inertia.z > 0.0) ||
        !dem_v3_isfinite(c->inertia))
        return BAD("clump record %zu (id %llu): mass and principal moments must be positive and finite", k, (unsigned long long)c->id);
    if (!dem_v3_isfinite(c->pos) || !dem_v3_isfinite(c->vel) || !dem_v3_isfinite(c->omega) ||
        !dem_v3_isfinite(c->force) || !dem_v3_isfinite(c->torque) || !dem_v3_isfinite(c->angmom))
        return BAD("clump record %zu (id %llu): a value is not finite", k, (unsigned long long)c->id);
    double qn = dem_quat_norm(c->orient);
    if (!isfinite(qn) || fabs(qn - 1.0) > 1e-6)
        return BAD("clump record %zu (id %llu): orientation quaternion has norm %.17g, not 1", k, (unsigned long long)c->id, qn);
    return DEM_OK;
}

typedef struct {
    uint64_t key, val; /* clumps: id, index; members: particle id, record index */
} id_pair;

static int cmp_id_pair(const void *pa, const void *pb)
{
    const id_pair *x = pa, *y = pb;
    return x->key < y->key ? -1 : x->key > y->key;
}

static const id_pair *find_pair(const id_pair *sorted, size_t n, uint64_t key)
{
    id_pair k = {key, 0};
    return bsearch(&k, sorted, n, sizeof *sorted, cmp_id_pair);
}

/* The clumps and their members (format 1.6): unique ids, every clump particle's clump exists and
 * has exactly one member record that names the same clump, every clump has a member, no member is
 * fixed (its clump moves it). n log n in all. */
static dem_status check_clump_links(const dem_system *s, id_pair *cl, id_pair *mb, uint32_t *count, dem_error *err)
{
    for (size_t k = 0; k < s->nclumps; k++) cl[k] = (id_pair){s->clumps[k].id, k};
    qsort(cl, s->nclumps, sizeof *cl, cmp_id_pair);
    for (size_t k = 1; k < s->nclumps; k++)
        if (cl[k].key == cl[k - 1].key) return BAD("clump id %llu appears more than once", (unsigned long long)cl[k].key);
    for (size_t k = 0; k < s->nmembers; k++) {
        const dem_member *m = &s->members[k];
        if (!dem_v3_isfinite(m->body)) return BAD("clump member record %zu (particle %llu): body-frame position is not finite", k, (unsigned long long)m->id);
        mb[k] = (id_pair){m->id, k};
    }
    qsort(mb, s->nmembers, sizeof *mb, cmp_id_pair);
    for (size_t k = 1; k < s->nmembers; k++)
        if (mb[k].key == mb[k - 1].key) return BAD("clump member records name particle %llu more than once", (unsigned long long)mb[k].key);
    size_t members = 0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        if (!p->clump) continue;
        members++;
        const id_pair *c = find_pair(cl, s->nclumps, p->clump);
        if (!c) return BAD("particle record %zu (id %llu): clump %llu does not exist", k, (unsigned long long)p->id, (unsigned long long)p->clump);
        if (p->flags & DEM_PARTICLE_FIXED)
            return BAD("particle record %zu (id %llu): a member of clump %llu cannot be fixed (its clump moves it)", k, (unsigned long long)p->id,
                       (unsigned long long)p->clump);
        const id_pair *m = find_pair(mb, s->nmembers, p->id);
        if (!m)
            return BAD("particle record %zu (id %llu): it belongs to clump %llu but has no member record (section CMBR, format 1.6, holds its "
                       "body-frame position)", k, (unsigned long long)p->id, (unsigned long long)p->clump);
        if (s->members[m->val].clump != p->clump)
            return BAD("clump member record %llu (particle %llu): names clump %llu, the particle record clump %llu", (unsigned long long)m->val,
                       (unsigned long long)p->id, (unsigned long long)s->members[m->val].clump, (unsigned long long)p->clump);
        count[c->val]++;
    }
    if (members != s->nmembers) { /* a member record whose particle is not in a clump, or absent */
        for (size_t k = 0; k < s->nmembers; k++) {
            const dem_member *m = &s->members[k];
            size_t j = 0;
            while (j < s->nparticles && s->particles[j].id != m->id) j++;
            if (j == s->nparticles) return BAD("clump member record %zu: particle %llu does not exist", k, (unsigned long long)m->id);
            if (!s->particles[j].clump)
                return BAD("clump member record %zu: particle %llu is not in a clump (its clump field is 0)", k, (unsigned long long)m->id);
        }
    }
    for (size_t k = 0; k < s->nclumps; k++)
        if (!count[k]) return BAD("clump record %zu (id %llu): no particle belongs to it", k, (unsigned long long)s->clumps[k].id);
    return DEM_OK;
}

static dem_status check_clumps(const dem_system *s, dem_error *err)
{
    dem_status st;
    for (size_t k = 0; k < s->nclumps; k++)
        if ((st = check_clump_values(&s->clumps[k], k, err))) return st;
    id_pair *cl = malloc((s->nclumps + 1) * sizeof *cl), *mb = malloc((s->nmembers + 1) * sizeof *mb);
    uint32_t *count = calloc(s->nclumps + 1, sizeof *count);
    if (!cl || !mb || !count) st = dem_fail(err, DEM_ERR_NOMEM, "out of memory checking %zu clumps", s->nclumps);
    else st = check_clump_links(s, cl, mb, count, err);
    free(cl);
    free(mb);
    free(count);
    return st;
}

dem_status dem_system_check_head(const dem_system *s, dem_error *err)
{
    dem_status st;
    if (!isfinite(s->time)) return BAD("time %g is not finite", s->time);
    if (!(s->dt >= 0.0) || !isfinite(s->dt)) return BAD("dt %g must be >= 0 and finite", s->dt);
    if (s->hist_slots > DEM_HIST_MAX) return BAD("%u contact history slots, at most %d supported", s->hist_slots, DEM_HIST_MAX);
    for (size_t k = 0; k < s->nmaterials; k++)
        if ((st = check_material(s, k, err))) return st;
    for (size_t k = 0; k < s->nwalls; k++)
        if ((st = check_wall(s, k, err))) return st;
    if (s->cell.flags) {
        double det = dem_m3_det(s->cell.h);
        if (!(det > 0.0) || !isfinite(det)) return BAD("periodic cell: det H = %.17g must be positive (right-handed cell vectors)", det);
        if (!dem_v3_isfinite(s->cell.origin)) return BAD("periodic cell: origin is not finite");
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (!isfinite(s->cell.vgrad.m[r][c]) || !isfinite(s->cell.target_stress.m[r][c]))
                    return BAD("periodic cell: l%d%d or s%d%d is not finite", r + 1, c + 1, r + 1, c + 1);
        double detf = dem_m3_det(s->cell.deform);
        if (!(detf > 0.0) || !isfinite(detf))
            return BAD("periodic cell: det F = %.17g must be positive and finite (F: the deformation gradient f11..f33)", detf);
        if ((st = check_deformation(&s->cell, err))) return st;
    }
    for (size_t k = 0; k < DEM_E_COUNT; k++)
        if (!isfinite(s->energy[k]) && !(k == DEM_E_INITIAL && isnan(s->energy[k])))
            return BAD("energy accumulator %zu is not finite", k); /* e_initial: NaN = not known */
    return DEM_OK;
}

dem_status dem_system_check(const dem_system *s, dem_error *err)
{
    dem_status st = dem_system_check_head(s, err);
    if (st) return st;
    int in_clumps = s->nclumps || s->nmembers;
    for (size_t k = 0; k < s->nparticles; k++) {
        if ((st = check_particle(s, k, err))) return st;
        in_clumps |= s->particles[k].clump != 0;
    }
    if (in_clumps && (st = check_clumps(s, err))) return st;

    uint64_t *ids = malloc((s->nparticles ? s->nparticles : 1) * sizeof *ids);
    if (!ids) return dem_fail(err, DEM_ERR_NOMEM, "out of memory checking %zu particle ids", s->nparticles);
    for (size_t k = 0; k < s->nparticles; k++) ids[k] = s->particles[k].id;
    qsort(ids, s->nparticles, sizeof *ids, cmp_u64);
    st = DEM_OK;
    for (size_t k = 1; k < s->nparticles && !st; k++)
        if (ids[k] == ids[k - 1]) st = BAD("particle id %llu appears more than once", (unsigned long long)ids[k]);
    for (size_t k = 0; k < s->ncontacts && !st; k++) st = check_contact(s, k, ids, err);
    for (size_t k = 0; k < s->nbonds && !st; k++) st = check_bond(s, k, ids, err);
    free(ids);
    if (!st) st = check_duplicate_contacts(s, err);
    if (!st) st = check_duplicate_bonds(s, err);
    return st;
#undef BAD
}
