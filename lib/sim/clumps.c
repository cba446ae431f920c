/* clumps.c - rigid clumps of spheres (see clumps.h). */
#include "sim/internal/clumps.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rigid.h"
#include "sim/internal/boundary.h"
#include "sim/internal/cell.h"
#include "sim/internal/dist.h"
#include "sim/internal/forces.h"
#include "sim/internal/par.h"

dem_status dem_clumps_supported(const dem_system *s, const dem_settings *st, dem_error *err)
{
    if (!s->nclumps) return DEM_OK;
    if (st->integrator == DEM_INTEGRATOR_VARIATIONAL)
        return dem_fail(err, DEM_ERR_VALUE, "the frame holds %zu rigid clumps: the variational integrator does not move clumps (its "
                        "Newton solve has no rigid-body rotation); use --integrator vv or vv-improved", s->nclumps);
    return DEM_OK;
}

void dem_clumps_free(dem_sim *sim)
{
    struct sim_clumps *c = sim->cl;
    if (!c) return;
    void *ptrs[] = {c->id, c->m, c->inertia, c->x, c->v, c->w, c->L, c->f, c->t, c->q, c->start, c->pidx, c->body, c->rw, c->of,
                    c->slot, c->rb, c->dk};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) free(ptrs[k]);
    free(c);
    sim->cl = NULL;
}

typedef struct {
    uint64_t key;  /* clump id, then particle id */
    uint64_t id;
    size_t at;     /* particle index, or clump index */
} load_key;

static int cmp_load_key(const void *pa, const void *pb)
{
    const load_key *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Member slots: the particles of each clump in the order of their ids. */
static dem_status load_members(struct sim_clumps *c, const dem_system *s, dem_error *err)
{
    size_t nm = s->nmembers;
    load_key *cl = malloc((c->n ? c->n : 1) * sizeof *cl), *mb = malloc((nm ? nm : 1) * sizeof *mb), *bd = malloc((nm ? nm : 1) * sizeof *bd);
    dem_status st = DEM_OK;
    if (!cl || !mb || !bd) st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clump members", nm);
    for (size_t k = 0; !st && k < c->n; k++) cl[k] = (load_key){s->clumps[k].id, 0, k};
    if (!st) qsort(cl, c->n, sizeof *cl, cmp_load_key);
    size_t m = 0;
    for (size_t a = 0; !st && a < s->nparticles; a++) {
        const dem_particle *p = &s->particles[a];
        if (!p->clump) continue;
        load_key key = {p->clump, 0, 0};
        const load_key *k = bsearch(&key, cl, c->n, sizeof *cl, cmp_load_key); /* dem_system_check: it exists */
        if (!k || m == nm) { st = dem_fail(err, DEM_ERR_VALUE, "particle %llu: its clump or member record is missing", (unsigned long long)p->id); break; }
        mb[m++] = (load_key){k->at, p->id, a};
    }
    if (!st && m != nm) st = dem_fail(err, DEM_ERR_VALUE, "%zu member records for %zu particles in clumps", nm, m);
    for (size_t k = 0; !st && k < nm; k++) bd[k] = (load_key){s->members[k].id, 0, k};
    if (!st) {
        qsort(mb, nm, sizeof *mb, cmp_load_key); /* by clump index, then particle id */
        qsort(bd, nm, sizeof *bd, cmp_load_key);
        memset(c->start, 0, (c->n + 1) * sizeof *c->start);
        for (size_t k = 0; k < nm; k++) {
            c->pidx[k] = (uint32_t)mb[k].at;
            c->of[mb[k].at] = (uint32_t)mb[k].key;
            c->slot[mb[k].at] = (uint32_t)k;
            c->start[mb[k].key + 1]++;
            load_key key = {mb[k].id, 0, 0};
            const load_key *b = bsearch(&key, bd, nm, sizeof *bd, cmp_load_key);
            c->body[k] = s->members[b->at].body;
            c->rw[k] = dem_rigid_rotate(c->q[mb[k].key], c->body[k]);
        }
        for (size_t k = 0; k < c->n; k++) c->start[k + 1] += c->start[k];
    }
    free(cl);
    free(mb);
    free(bd);
    return st;
}

/* A clump never touches itself (dem_clumps_excluded), nor therefore its own periodic image: refuse a
 * cell in which it could, one narrower than the clump's extent 2 max(|b| + r). A deforming cell
 * (during) is checked every step against the largest clump. */
static dem_status check_cell_width(const dem_sim *sim, int during, dem_error *err)
{
    const struct sim_clumps *c = sim->cl;
    if (!sim->b.cell.flags || !c->n) return DEM_OK;
    size_t big = 0;
    for (size_t k = 1; k < c->n; k++)
        if (c->rb[k] > c->rb[big]) big = k;
    for (int a = 0; a < 3; a++) {
        double w = dem_boundary_cell_width(&sim->b.cell, a);
        if (!((sim->b.cell.flags >> a) & 1u) || !(w < 2.0 * c->rb[big])) continue;
        if (during)
            return dem_fail(err, DEM_ERR_UNSTABLE, "step %llu: the deforming cell became %g m wide along %c, narrower than clump %llu, "
                            "%g m across (twice its bounding radius): it could touch its own image, which a clump never does; "
                            "stop the deformation earlier or start from a larger cell",
                            (unsigned long long)sim->step + 1, w, "abc"[a], (unsigned long long)c->id[big], 2.0 * c->rb[big]);
        for (size_t k = 0; k < c->n; k++) /* the first clump in the frame's order that does not fit */
            if (w < 2.0 * c->rb[k])
                return dem_fail(err, DEM_ERR_VALUE, "clump %llu is %g m across (twice its bounding radius), and the periodic cell only %g m "
                                "wide along %c: it could touch its own image, which a clump never does; widen the cell",
                                (unsigned long long)c->id[k], 2.0 * c->rb[k], w, "abc"[a]);
    }
    return DEM_OK;
}

dem_status dem_clumps_check_cell(const dem_sim *sim, dem_error *err)
{
    return check_cell_width(sim, 1, err);
}

dem_status dem_clumps_load(dem_sim *sim, const dem_system *s, dem_error *err)
{
    if (!s->nclumps) return DEM_OK;
    struct sim_clumps *c = calloc(1, sizeof *c);
    if (!c) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    sim->cl = c;
    size_t n = c->n = s->nclumps, nm = s->nmembers ? s->nmembers : 1, np = sim->p.n ? sim->p.n : 1;
#define A(ptr, count) if (!((ptr) = calloc((count), sizeof *(ptr)))) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", n)
    A(c->id, n); A(c->m, n); A(c->inertia, n); A(c->x, n); A(c->v, n); A(c->w, n); A(c->L, n); A(c->f, n); A(c->t, n); A(c->q, n);
    A(c->start, n + 1); A(c->pidx, nm); A(c->body, nm); A(c->rw, nm); A(c->of, np); A(c->slot, np); A(c->rb, n); A(c->dk, n);
#undef A
    for (size_t k = 0; k < n; k++) {
        const dem_clump *r = &s->clumps[k];
        c->id[k] = r->id; c->m[k] = r->mass; c->inertia[k] = r->inertia;
        c->x[k] = r->pos; c->v[k] = r->vel; c->L[k] = r->angmom; c->f[k] = r->force; c->t[k] = r->torque; c->q[k] = r->orient;
        c->w[k] = dem_rigid_omega(r->orient, r->inertia, r->angmom);
    }
    for (size_t a = 0; a < sim->p.n; a++) c->of[a] = c->slot[a] = SIM_NO_CLUMP;
    dem_status st = load_members(c, s, err);
    if (st) return st;
    for (size_t k = 0; k < s->nmembers; k++) sim->p.flags[c->pidx[k]] |= SIM_PARTICLE_MEMBER;
    for (size_t k = 0; k < n; k++) {
        c->rb[k] = 0.0;
        for (size_t j = c->start[k]; j < c->start[k + 1]; j++) c->rb[k] = fmax(c->rb[k], dem_v3_norm(c->body[j]) + sim->p.r[c->pidx[j]]);
    }
    return check_cell_width(sim, 0, err);
}

void dem_clumps_renumber(dem_sim *sim, const uint32_t *inv)
{
    struct sim_clumps *c = sim->cl;
    if (!c) return;
    size_t nm = c->start[c->n];
    for (size_t k = 0; k < nm; k++) c->pidx[k] = inv[c->pidx[k]];
    for (size_t a = 0; a < sim->p.n; a++) c->of[a] = c->slot[a] = SIM_NO_CLUMP;
    for (size_t k = 0; k < c->n; k++)
        for (size_t j = c->start[k]; j < c->start[k + 1]; j++) {
            c->of[c->pidx[j]] = (uint32_t)k;
            c->slot[c->pidx[j]] = (uint32_t)j;
        }
}

/* Clump k's members' velocities and spins from its own; in a deforming cell about the field at
 * each member's centre (clumps.h): v_c + w x R b - C R b and w - wL. */
static void members_velocities(dem_sim *sim, size_t k)
{
    struct sim_clumps *c = sim->cl;
    sim_particles *P = &sim->p;
    int field = sim->b.deforming;
    dem_vec3 w = field ? dem_v3_sub(c->w[k], sim->b.wl) : c->w[k];
    for (size_t j = c->start[k]; j < c->start[k + 1]; j++) {
        uint32_t a = c->pidx[j];
        dem_vec3 v = dem_v3_add(c->v[k], dem_v3_cross(c->w[k], c->rw[j]));
        P->v[a] = field ? dem_v3_sub(v, dem_m3_mulv(sim->b.chord, c->rw[j])) : v;
        P->w[a] = w;
    }
}

typedef struct {
    dem_sim *sim;
    double h, gd;
    int reverse;
    const uint32_t *moved; /* the clumps this process moves (dist.h), or NULL: every one */
} clump_ctx;

/* The clumps this process moves, into x (their count returned): every one but in a group of
 * processes (dist.h: those with a member of its own). */
static size_t moved_clumps(const dem_sim *sim, clump_ctx *x)
{
    size_t n;
    x->moved = dist_clumps_moved(sim, sim->cl->n, &n);
    return n;
}

static void kick_share(void *ctx, size_t lo, size_t hi, int t)
{
    const clump_ctx *x = ctx;
    struct sim_clumps *c = x->sim->cl;
    (void)t;
    for (size_t e = lo; e < hi; e++) {
        size_t k = x->moved ? x->moved[e] : e;
        c->v[k] = dem_v3_madd(c->v[k], c->f[k], x->h / c->m[k]);
        c->L[k] = dem_v3_madd(c->L[k], c->t[k], x->h);
        c->w[k] = dem_rigid_omega(c->q[k], c->inertia[k], c->L[k]);
        members_velocities(x->sim, k);
    }
}

void dem_clumps_kick(dem_sim *sim, double h)
{
    clump_ctx x = {sim, h, 1.0, 0, NULL};
    dem_par_for(sim->pool, moved_clumps(sim, &x), kick_share, &x); /* each clump on its own: the same bits in any share */
}

/* Clump k's members placed from its pose: x = x_c + R b less H times the image counters. */
static void members_poses(dem_sim *sim, size_t k)
{
    struct sim_clumps *c = sim->cl;
    sim_particles *P = &sim->p;
    int cell = sim->b.cell.flags != 0;
    for (size_t j = c->start[k]; j < c->start[k + 1]; j++) {
        uint32_t a = c->pidx[j];
        c->rw[j] = dem_rigid_rotate(c->q[k], c->body[j]);
        dem_vec3 x = dem_v3_add(c->x[k], c->rw[j]);
        if (cell && (P->image[a][0] | P->image[a][1] | P->image[a][2]))
            x = dem_v3_sub(x, cell_shift(sim, P->image[a]));
        P->x[a] = x;
        P->q[a] = c->q[k];
    }
}

static void drift_share(void *ctx, size_t lo, size_t hi, int t)
{
    const clump_ctx *x = ctx;
    dem_sim *sim = x->sim;
    struct sim_clumps *c = sim->cl;
    sim_particles *P = &sim->p;
    double m2 = 0.0;
    int nf = 0;
    for (size_t e = lo; e < hi; e++) {
        size_t k = x->moved ? x->moved[e] : e;
        double *ed = &sim->e.edis[c->pidx[c->start[k]] * EDIS]; /* the first member's slot */
        if (x->gd != 1.0 && !x->reverse) { /* drag (Hanley 2019, eq 25), as integrate.c's particles */
            double before = dem_v3_norm2(c->v[k]);
            c->v[k] = dem_v3_scale(c->v[k], x->gd);
            ed[EDIS_DRAG] = 0.5 * c->m[k] * (before - dem_v3_norm2(c->v[k]));
        }
        c->x[k] = dem_v3_madd(c->x[k], c->v[k], x->h);
        if (x->gd != 1.0 && x->reverse) { /* reversed (Hanley 2019, eq 28): after the drift, given back */
            double before = dem_v3_norm2(c->v[k]);
            c->v[k] = dem_v3_scale(c->v[k], 1.0 / x->gd);
            ed[EDIS_DRAG] = 0.5 * c->m[k] * (before - dem_v3_norm2(c->v[k]));
        }
        dem_rigid_drift(&c->q[k], c->inertia[k], c->L[k], x->h); /* Šmilauer and Chareyre 2015, §1.5.3 (rigid.h) */
        c->w[k] = dem_rigid_omega(c->q[k], c->inertia[k], c->L[k]);
        members_poses(sim, k);
        members_velocities(sim, k);
        for (size_t j = c->start[k]; j < c->start[k + 1]; j++) { /* the guard's step of each member's surface */
            double s2 = surface_step2(P, c->pidx[j], x->h);
            if (s2 > m2) m2 = s2;
            if (!(s2 <= DBL_MAX)) nf = 1;
        }
    }
    sim->part[t].max[1] = m2;
    sim->part[t].count[1] = (size_t)nf;
}

void dem_clumps_drift(dem_sim *sim, double h, double gd, int reverse, double *move2, int *nonfinite)
{
    clump_ctx x = {sim, h, gd, reverse, NULL};
    for (int t = 0; t < sim->threads; t++) {
        sim->part[t].max[1] = 0.0;
        sim->part[t].count[1] = 0;
    }
    dem_par_for(sim->pool, moved_clumps(sim, &x), drift_share, &x);
    for (int t = 0; t < sim->threads; t++) { /* maxima: the same in any order */
        if (sim->part[t].max[1] > *move2) *move2 = sim->part[t].max[1];
        if (sim->part[t].count[1]) *nonfinite = 1;
    }
}

typedef struct {
    dem_sim *sim;
    dem_mat3 k, kinv;
    dem_vec3 o;
    const uint32_t *moved; /* the clumps this process moves (dist.h), or NULL: every one */
} affine_ctx;

/* Clumps [lo, hi) under the field's map (cell.h: the centroid and fluctuation velocity as a free
 * sphere's), then their members from the pose in the mapped cell. */
static void affine_share(void *ctx, size_t lo, size_t hi, int t)
{
    const affine_ctx *x = ctx;
    struct sim_clumps *c = x->sim->cl;
    (void)t;
    for (size_t e = lo; e < hi; e++) {
        size_t k = x->moved ? x->moved[e] : e;
        c->x[k] = cell_map_point(c->x[k], x->k, x->o);
        c->dk[k] = cell_map_velocity(&c->v[k], c->m[k], x->kinv);
        members_poses(x->sim, k);
        members_velocities(x->sim, k);
    }
}

void dem_clumps_affine(dem_sim *sim, dem_mat3 k, dem_mat3 kinv, dem_vec3 o)
{
    size_t n;
    affine_ctx x = {sim, k, kinv, o, dist_clumps_moved(sim, sim->cl->n, &n)};
    dem_par_for(sim->pool, n, affine_share, &x);
}

/* Local (non-viscous) damping of a clump's force and torque, per component (Hanley 2019, eq 21;
 * Šmilauer and Chareyre 2015, eq 1.9), as forces.c damps a sphere's: the rotation's against the
 * angular velocity, its on-step estimate w + h/2 I^-1 T for the Yade form. Returns the power (W). */
static double clump_damping(const dem_sim *sim, size_t k, dem_vec3 *f, dem_vec3 *t)
{
    const struct sim_clumps *c = sim->cl;
    double power = 0.0, h = sim->h;
    if (sim->st.local_damping == 0.0) return 0.0;
    for (int which = 0; which < 2; which++) {
        dem_vec3 *F = which ? t : f, vel = which ? c->w[k] : c->v[k];
        dem_vec3 acc = which ? dem_rigid_omega(c->q[k], c->inertia[k], *F) : dem_v3_scale(*F, 1.0 / c->m[k]);
        dem_vec3 d = dem_v3_zero();
        for (int a = 0; a < 3; a++) {
            double fk = dem_v3_get(*F, a), vk = dem_v3_get(vel, a);
            dem_v3_set(&d, a, local_damping_term(&sim->st, fk, vk, vk + 0.5 * h * dem_v3_get(acc, a)));
        }
        *F = dem_v3_add(*F, d);
        /* the power at the on-step velocity, as forces.c books a sphere's */
        dem_vec3 after = which ? dem_rigid_omega(c->q[k], c->inertia[k], *F) : dem_v3_scale(*F, 1.0 / c->m[k]);
        dem_vec3 u = sim->hdt != 0.0 ? dem_v3_madd(vel, after, 0.5 * h) : vel;
        power += dem_v3_dot(d, u);
    }
    return power;
}

static void gather_share(void *ctx, size_t lo, size_t hi, int t)
{
    const clump_ctx *x = ctx;
    dem_sim *sim = x->sim;
    struct sim_clumps *c = sim->cl;
    const sim_particles *P = &sim->p;
    dem_vec3 g = sim->st.gravity;
    (void)t;
    for (size_t e = lo; e < hi; e++) {
        size_t k = x->moved ? x->moved[e] : e;
        /* + 0.0: no -0.0 in the sums (forces.c) */
        dem_vec3 f = dem_v3_add(dem_v3_scale(g, c->m[k]), dem_v3_zero()), tq = dem_v3_zero();
        for (size_t j = c->start[k]; j < c->start[k + 1]; j++) {
            uint32_t a = c->pidx[j];
            dem_vec3 fc = dem_v3_madd(P->f[a], g, -P->m[a]); /* the member's gravity is the clump's */
            f = dem_v3_add(f, fc);
            tq = dem_v3_add(tq, dem_v3_add(P->t[a], dem_v3_cross(c->rw[j], fc)));
        }
        double p = clump_damping(sim, k, &f, &tq);
        sim->e.edis[c->pidx[c->start[k]] * EDIS + EDIS_LOCAL] = sim->hdt != 0.0 ? -p * sim->hdt : -p;
        c->f[k] = f;
        c->t[k] = tq;
    }
}

void dem_clumps_gather(dem_sim *sim)
{
    clump_ctx x = {sim, sim->h, 1.0, 0, NULL};
    dem_par_for(sim->pool, moved_clumps(sim, &x), gather_share, &x);
}

void dem_clumps_write(const dem_sim *sim, dem_system *out)
{
    const struct sim_clumps *c = sim->cl;
    if (!c) return;
    for (size_t k = 0; k < c->n; k++) { /* the members' clump ids: dem_particle_record */
        dem_clump *r = &out->clumps[k];
        r->id = c->id[k]; r->mass = c->m[k]; r->inertia = c->inertia[k];
        r->pos = c->x[k]; r->vel = c->v[k]; r->omega = c->w[k]; r->orient = c->q[k];
        r->force = c->f[k]; r->torque = c->t[k]; r->angmom = c->L[k];
    }
}

double dem_clumps_kinetic(const dem_sim *sim, size_t k)
{
    const struct sim_clumps *c = sim->cl;
    return 0.5 * c->m[k] * dem_v3_norm2(c->v[k]) + dem_rigid_kinetic(c->q[k], c->inertia[k], c->L[k]);
}

size_t dem_clumps_first_member(const dem_sim *sim, size_t a)
{
    const struct sim_clumps *c = sim->cl;
    uint32_t k = c ? c->of[a] : SIM_NO_CLUMP;
    return k != SIM_NO_CLUMP && c->slot[a] == c->start[k] ? k : SIM_NO_CLUMP;
}

void dem_clumps_offsets(dem_sim *sim, size_t k)
{
    struct sim_clumps *c = sim->cl;
    for (size_t j = c->start[k]; j < c->start[k + 1]; j++) c->rw[j] = dem_rigid_rotate(c->q[k], c->body[j]);
}
