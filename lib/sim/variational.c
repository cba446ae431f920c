/* variational.c - the variational integrator of De Klerk et al. 2022 (see variational.h). Equations cited
 * as "eq N" are the paper's, corrected as docs/models.md §3.1-3.2 gives them. */
#include "sim/internal/variational.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/krylov.h"
#include "sim/internal/bonds.h"
#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/forces.h"
#include "sim/internal/guard.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/rotate.h"

#define NONE UINT32_MAX

/* One interaction at the positions of an evaluation: a touching pair or plane wall, or a bond. */
typedef struct {
    uint32_t i, j;        /* particles; j = NONE for a wall */
    dem_vec3 n;           /* unit normal from j (or the wall) to i */
    double delta;         /* overlap (bonds: r_i + r_j - distance, any sign), m */
    double dist;          /* distance of the centres (0 for a wall: a plane does not turn n) */
    double k;             /* spring stiffness kn or kb, N/m */
    double cn, ct;        /* dashpots, kg/s (0 for a bond) */
    double li, lj;        /* lever arms r - delta/2 to the contact point, m */
    int kind;             /* LINK_PAIR, LINK_WALL, LINK_BOND */
    size_t src;           /* its pair, wall slot or bond */
} vi_link;

enum { LINK_PAIR, LINK_WALL, LINK_BOND };

/* Newton iterations after which the set of touching contacts is frozen for the rest of the step.
 * A dashpot's force jumps where a contact opens or closes (its velocity is not 0 there), so the
 * residual is not continuous across that surface, and Newton's iterates can cycle between the two
 * sides of a contact that opens within the step (measured: a damped gas at dt = tc/66 stalled at
 * 1e-4). Frozen, the set is that of the iterate reached: its contacts keep their springs and
 * dashpots at any overlap until the step ends (the overlap there is within the Newton update
 * of 0), and the iteration converges. */
#define FREEZE_AFTER 8

struct sim_vi {
    size_t n;                     /* particles */
    vi_link *links;
    size_t nlinks, cap;
    double *y, *dy, *r, *b, *dinv, *work, *u; /* 6n each (work: 8 x 6n) */
    double *ubar;                 /* 6n: the iterate's velocities y/h (the dashpots' position Jacobian) */
    dem_vec3 *q0, *x, *v0, *w0;   /* positions and velocities at the step's start; positions of an evaluation */
    double *qp, *qm;              /* 6n: Q(q_k, v_k) and Q(q_alpha, y/h), forces then torques per particle */
    double *qpn, *qmn;            /* 6n: their normal dashpots' part (the books) */
    double *fe;                   /* 3n: elastic forces and gravity at q_alpha */
    /* the operator's state for dem_pcg */
    dem_sim *sim;
    double h, c2;                 /* step, h alpha (1 - alpha) */
    double c3;                    /* alpha h / 2 with the full Jacobian, else 0 */
    dem_vi_stats stats;
};

static int is_free(const dem_sim *sim, size_t a) { return !(sim->p.flags[a] & DEM_PARTICLE_FIXED); }

void dem_vi_free(dem_sim *sim)
{
    struct sim_vi *v = sim->vi;
    if (!v) return;
    free(v->links);
    double *d[] = {v->y, v->dy, v->r, v->b, v->dinv, v->work, v->u, v->qp, v->qm, v->qpn, v->qmn, v->fe, v->ubar};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) free(d[k]);
    free(v->q0); free(v->x); free(v->v0); free(v->w0);
    free(v);
    sim->vi = NULL;
}

int dem_sim_vi_stats(const dem_sim *sim, dem_vi_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!sim->vi) return sim->st.integrator == DEM_INTEGRATOR_VARIATIONAL;
    *out = sim->vi->stats;
    return 1;
}

/* What the integrator cannot do, said before its first step. */
static dem_status check_supported(const dem_sim *sim, dem_error *err)
{
#define NO(...) dem_fail(err, DEM_ERR_VALUE, "the variational integrator: " __VA_ARGS__)
    const dem_settings *st = &sim->st;
    if (st->normal != DEM_NORMAL_HOOKE) return NO("needs Hookean contacts (--normal hooke), as De Klerk et al. 2022 derives it; not '%s'", dem_normal_models[st->normal]->name);
    if (dem_tangential_models[st->tangential]->uses_history)
        return NO("the tangential model '%s' has a spring and friction, which the variational form does not hold (De Klerk et al. 2022 tests mu = 0): use --tangential none (its tangential dashpot gamma_t acts)",
                  dem_tangential_models[st->tangential]->name);
    if (sim->ex.on) return NO("exact mode is for the velocity-Verlet step");
    if (sim->dir < 0) return NO("runs forward in time only");
    if (sim->b.deforming) return NO("a deforming periodic cell is not supported");
    if (st->local_damping > 0.0 || st->drag != 1.0) return NO("local damping and drag are not forces of the Lagrangian: set --local-damping 0 --drag 1");
    for (size_t k = 0; k < sim->b.nwalls; k++) {
        const dem_wall *w = &sim->b.walls[k];
        if (w->kind != DEM_WALL_PLANE) return NO("wall %zu is a cylinder: plane walls only", k);
        if (dem_v3_norm2(w->vel) != 0.0 || dem_v3_norm2(w->omega) != 0.0) return NO("wall %zu moves: walls at rest only", k);
    }
    return DEM_OK;
#undef NO
}

static dem_status vi_alloc(dem_sim *sim, dem_error *err)
{
    size_t n = sim->p.n ? sim->p.n : 1, m = 6 * n;
    struct sim_vi *v = calloc(1, sizeof *v);
    if (!v) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    sim->vi = v;
    v->n = sim->p.n;
    v->y = malloc(m * sizeof(double)); v->dy = malloc(m * sizeof(double)); v->r = malloc(m * sizeof(double));
    v->b = malloc(m * sizeof(double)); v->dinv = malloc(m * sizeof(double)); v->work = malloc(8 * m * sizeof(double));
    v->ubar = malloc(m * sizeof(double));
    v->u = malloc(m * sizeof(double)); v->qp = malloc(m * sizeof(double)); v->qm = malloc(m * sizeof(double));
    v->qpn = malloc(m * sizeof(double)); v->qmn = malloc(m * sizeof(double)); v->fe = malloc(3 * n * sizeof(double));
    v->q0 = malloc(n * sizeof(dem_vec3)); v->x = malloc(n * sizeof(dem_vec3));
    v->v0 = malloc(n * sizeof(dem_vec3)); v->w0 = malloc(n * sizeof(dem_vec3));
    if (!v->y || !v->dy || !v->r || !v->b || !v->dinv || !v->work || !v->u || !v->qp || !v->qm || !v->qpn || !v->qmn ||
        !v->fe || !v->q0 || !v->x || !v->v0 || !v->w0 || !v->ubar)
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the variational integrator (%zu particles)", sim->p.n);
    return DEM_OK;
}

static dem_status push_link(struct sim_vi *v, const vi_link *l, dem_error *err)
{
    if (v->nlinks == v->cap) {
        size_t nc = v->cap ? 2 * v->cap : 256;
        vi_link *q = realloc(v->links, nc * sizeof *q);
        if (!q) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu contacts", nc);
        v->links = q;
        v->cap = nc;
    }
    v->links[v->nlinks++] = *l;
    return DEM_OK;
}

/* The dashpots of a contact with pair properties p (docs/models.md §3.2: c_n, c_t in kg/s). */
static void dashpots(const dem_sim *sim, const dem_pair *p, double *cn, double *ct)
{
    const dem_damping_model *dm = dem_damping_models[sim->st.damping];
    *cn = dm->eta_n(p, &sim->st, p->kn);
    *ct = dm->eta_t(p, &sim->st, *cn, p->kn, 0.0);
}

/* The links at positions x (the pair list's touching pairs in list order, then the wall slots,
 * then the bonds). */
static dem_status build_links(dem_sim *sim, const dem_vec3 *x, dem_error *err)
{
    struct sim_vi *v = sim->vi;
    const sim_particles *P = &sim->p;
    const sim_store *c = &sim->c;
    dem_status st;
    v->nlinks = 0;
    for (size_t q = 0; q < c->npairs; q++) {
        const dem_contact_rec *np = &c->pairs[q];
        uint32_t i = np->i, j = np->j;
        dem_vec3 xj = x[j];
        if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
        dem_vec3 d = dem_v3_sub(x[i], xj);
        double rs = P->r[i] + P->r[j], d2 = dem_v3_norm2(d);
        if (d2 >= rs * rs || d2 == 0.0) continue;
        vi_link l;
        dem_pair p;
        sim_pair_properties(sim, &p, q);
        l.i = i; l.j = j;
        l.dist = sqrt(d2);
        l.n = dem_v3_scale(d, 1.0 / l.dist);
        l.delta = rs - l.dist;
        l.k = p.kn;
        dashpots(sim, &p, &l.cn, &l.ct);
        l.li = P->r[i] - 0.5 * l.delta;
        l.lj = P->r[j] - 0.5 * l.delta;
        l.kind = LINK_PAIR;
        l.src = q;
        if ((st = push_link(v, &l, err))) return st;
    }
    for (size_t q = 0; q < c->nwslots; q++) {
        uint32_t a = c->wowner[q];
        const dem_wall *w = &sim->b.walls[c->wwall[q]];
        double gap = dem_v3_dot(dem_v3_sub(x[a], w->point), w->normal);
        if (gap >= P->r[a]) continue;
        vi_link l;
        dem_pair p;
        sim_wall_properties(sim, &p, q);
        l.i = a; l.j = NONE;
        l.n = w->normal;
        l.delta = P->r[a] - gap;
        l.dist = 0.0;
        l.k = p.kn;
        dashpots(sim, &p, &l.cn, &l.ct);
        l.li = P->r[a] - 0.5 * l.delta;
        l.lj = 0.0;
        l.kind = LINK_WALL;
        l.src = q;
        if ((st = push_link(v, &l, err))) return st;
    }
    for (size_t k = 0; k < sim->bd.n; k++) {
        uint32_t i = sim->bd.i[k], j = sim->bd.j[k];
        int32_t s[3];
        dem_bonds_shift(sim, k, s);
        dem_vec3 xj = x[j];
        if (s[0] | s[1] | s[2]) xj = dem_v3_add(xj, cell_shift(sim, s));
        dem_vec3 d = dem_v3_sub(x[i], xj);
        double dist = dem_v3_norm(d);
        if (dist == 0.0) continue;
        vi_link l = {i, j, dem_v3_scale(d, 1.0 / dist), P->r[i] + P->r[j] - dist, dist, sim->bd.kb[k], 0.0, 0.0, 0.0, 0.0, LINK_BOND, k};
        if ((st = push_link(v, &l, err))) return st;
    }
    return DEM_OK;
}

/* The same links at new positions x, whatever their overlap (the frozen set, FREEZE_AFTER). */
static void move_links(dem_sim *sim, const dem_vec3 *x)
{
    struct sim_vi *v = sim->vi;
    const sim_particles *P = &sim->p;
    for (size_t k = 0; k < v->nlinks; k++) {
        vi_link *l = &v->links[k];
        if (l->kind == LINK_WALL) {
            const dem_wall *w = &sim->b.walls[sim->c.wwall[l->src]];
            l->delta = P->r[l->i] - dem_v3_dot(dem_v3_sub(x[l->i], w->point), w->normal);
            l->li = P->r[l->i] - 0.5 * l->delta;
            continue;
        }
        int32_t s[3];
        if (l->kind == LINK_PAIR) memcpy(s, sim->c.pairs[l->src].s, sizeof s);
        else dem_bonds_shift(sim, l->src, s);
        dem_vec3 xj = x[l->j];
        if (s[0] | s[1] | s[2]) xj = dem_v3_add(xj, cell_shift(sim, s));
        dem_vec3 d = dem_v3_sub(x[l->i], xj);
        double dist = dem_v3_norm(d);
        if (dist == 0.0) continue; /* keeps its last normal */
        l->dist = dist;
        l->n = dem_v3_scale(d, 1.0 / dist);
        l->delta = P->r[l->i] + P->r[l->j] - dist;
        if (l->kind == LINK_PAIR) {
            l->li = P->r[l->i] - 0.5 * l->delta;
            l->lj = P->r[l->j] - 0.5 * l->delta;
        }
    }
}

/* Elastic forces of the links and gravity, -grad V (3 per particle). */
static void elastic_forces(const dem_sim *sim, double *fe)
{
    const struct sim_vi *v = sim->vi;
    for (size_t a = 0; a < sim->p.n; a++) {
        dem_vec3 g = dem_v3_scale(sim->st.gravity, sim->p.m[a]);
        fe[3 * a] = g.x; fe[3 * a + 1] = g.y; fe[3 * a + 2] = g.z;
    }
    for (size_t k = 0; k < v->nlinks; k++) {
        const vi_link *l = &v->links[k];
        dem_vec3 f = dem_v3_scale(l->n, l->k * l->delta); /* on i: kn delta n (eq 20) */
        fe[3 * l->i] += f.x; fe[3 * l->i + 1] += f.y; fe[3 * l->i + 2] += f.z;
        if (l->j != NONE) { fe[3 * l->j] -= f.x; fe[3 * l->j + 1] -= f.y; fe[3 * l->j + 2] -= f.z; }
    }
}

static dem_vec3 get3(const double *u, size_t at) { return dem_v3(u[at], u[at + 1], u[at + 2]); }
static void add3(double *u, size_t at, dem_vec3 f)
{
    u[at] += f.x; u[at + 1] += f.y; u[at + 2] += f.z;
}

/* out += s Q(u): the dashpots' generalised forces (forces, then torques, 6 per particle) for the
 * generalised velocities u (eqs 20-25 with lever arms r - delta/2); outn += s (its normal part)
 * when outn is not NULL. Q is linear in u: Q(u) = -C u with C symmetric positive semidefinite. */
static void damp_apply(const struct sim_vi *v, const double *u, double s, double *out, double *outn)
{
    for (size_t k = 0; k < v->nlinks; k++) {
        const vi_link *l = &v->links[k];
        if (l->cn == 0.0 && l->ct == 0.0) continue;
        size_t i = 6 * (size_t)l->i, j = 6 * (size_t)l->j;
        dem_vec3 vr = get3(u, i), wt = dem_v3_scale(get3(u, i + 3), l->li);
        if (l->j != NONE) {
            vr = dem_v3_sub(vr, get3(u, j));
            wt = dem_v3_madd(wt, get3(u, j + 3), l->lj);
        }
        double vn = dem_v3_dot(vr, l->n);
        dem_vec3 vt = dem_v3_add(dem_v3_madd(vr, l->n, -vn), dem_v3_cross(l->n, wt)); /* P v_ij + n x (l_i w_i + l_j w_j) */
        dem_vec3 fn = dem_v3_scale(l->n, -s * l->cn * vn), ft = dem_v3_scale(vt, -s * l->ct);
        dem_vec3 m = dem_v3_cross(l->n, ft);
        add3(out, i, dem_v3_add(fn, ft));
        add3(out, i + 3, dem_v3_scale(m, -l->li)); /* torque on i: -l_i n x f_t */
        if (outn) add3(outn, i, fn);
        if (l->j != NONE) {
            add3(out, j, dem_v3_neg(dem_v3_add(fn, ft)));
            add3(out, j + 3, dem_v3_scale(m, -l->lj));
            if (outn) add3(outn, j, dem_v3_neg(fn));
        }
    }
}

/* out += s grad^2 V u (translations only: V does not depend on the angles): per link
 * k [n n^T - (delta/dist) P] (u_i - u_j) (docs/models.md §3.2), k n n^T u_i for a plane wall. */
static void hess_apply(const struct sim_vi *v, const double *u, double s, double *out)
{
    for (size_t k = 0; k < v->nlinks; k++) {
        const vi_link *l = &v->links[k];
        size_t i = 6 * (size_t)l->i, j = 6 * (size_t)l->j;
        dem_vec3 du = get3(u, i);
        if (l->j != NONE) du = dem_v3_sub(du, get3(u, j));
        double un = dem_v3_dot(du, l->n);
        dem_vec3 hu = dem_v3_scale(l->n, s * l->k * un);
        if (l->dist > 0.0) hu = dem_v3_madd(hu, dem_v3_madd(du, l->n, -un), -s * l->k * l->delta / l->dist);
        add3(out, i, hu);
        if (l->j != NONE) add3(out, j, dem_v3_neg(hu));
    }
}

/* out += s dQ/dq u for the normal dashpots of the pairs (docs/models.md §3.2: dF_i/dr_i =
 * -(c_n/l) [(n.v_ij) P + n (P v_ij)^T] = -dF_i/dr_j), v_ij the iterate's relative velocity. The
 * tangential dashpot's and the lever arms' position dependence are left out. */
static void damp_q_apply(const struct sim_vi *v, const double *u, double s, double *out)
{
    for (size_t k = 0; k < v->nlinks; k++) {
        const vi_link *l = &v->links[k];
        if (l->kind != LINK_PAIR || l->cn == 0.0) continue;
        size_t i = 6 * (size_t)l->i, j = 6 * (size_t)l->j;
        dem_vec3 vr = dem_v3_sub(get3(v->ubar, i), get3(v->ubar, j)), du = dem_v3_sub(get3(u, i), get3(u, j));
        double vn = dem_v3_dot(vr, l->n), dn = dem_v3_dot(du, l->n);
        dem_vec3 pv = dem_v3_madd(vr, l->n, -vn), pd = dem_v3_madd(du, l->n, -dn);
        dem_vec3 f = dem_v3_scale(dem_v3_madd(dem_v3_scale(pd, vn), l->n, dem_v3_dot(pv, du)), -s * l->cn / l->dist);
        add3(out, i, f);
        add3(out, j, dem_v3_neg(f));
    }
}

/* y = -K x = M/h x + h alpha (1 - alpha) grad^2 V x + 1/2 C x [- alpha h/2 dQ/dq x] on the free
 * particles' entries (eq 30 corrected; the bracket with the full Jacobian only); the identity on
 * fixed ones. */
static void apply_k(void *ctx, const double *x, double *y)
{
    struct sim_vi *v = ctx;
    const dem_sim *sim = v->sim;
    size_t n = sim->p.n;
    double *u = v->u;
    for (size_t a = 0; a < n; a++)
        for (int c = 0; c < 6; c++) u[6 * a + c] = is_free(sim, a) ? x[6 * a + c] : 0.0;
    for (size_t a = 0; a < n; a++) {
        double m = sim->p.m[a] / v->h, in = sim->p.inertia[a] / v->h;
        for (int c = 0; c < 3; c++) {
            y[6 * a + c] = m * u[6 * a + c];
            y[6 * a + 3 + c] = in * u[6 * a + 3 + c];
        }
    }
    if (v->c2 != 0.0) hess_apply(v, u, v->c2, y);
    damp_apply(v, u, -0.5, y, NULL); /* + 1/2 C u = -1/2 Q(u) */
    if (v->c3 != 0.0) damp_q_apply(v, u, -v->c3, y);
    for (size_t a = 0; a < n; a++)
        if (!is_free(sim, a))
            for (int c = 0; c < 6; c++) y[6 * a + c] = x[6 * a + c];
}

/* |z|_{M^-1} over the free particles (6 per particle). */
static double norm_minv(const dem_sim *sim, const double *z)
{
    double s = 0.0;
    for (size_t a = 0; a < sim->p.n; a++) {
        if (!is_free(sim, a)) continue;
        const double *q = z + 6 * a;
        s += (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) * sim->p.inv_m[a] + (q[3] * q[3] + q[4] * q[4] + q[5] * q[5]) * sim->p.inv_i[a];
    }
    return sqrt(s);
}

/* Positions q_k + f y (translations of y) into v->x. */
static void positions(dem_sim *sim, double f)
{
    struct sim_vi *v = sim->vi;
    for (size_t a = 0; a < sim->p.n; a++) v->x[a] = dem_v3_madd(v->q0[a], get3(v->y, 6 * a), f);
}

/* The residual R (eq 29 corrected) of the current y into v->r, with the links, elastic forces and
 * Q(q_alpha, y/h) of q_alpha = q_k + alpha y. */
static dem_status residual(dem_sim *sim, double alpha, int frozen, dem_error *err)
{
    struct sim_vi *v = sim->vi;
    size_t n = sim->p.n;
    double h = v->h;
    dem_status st;
    positions(sim, alpha);
    if (frozen) move_links(sim, v->x);
    else if ((st = build_links(sim, v->x, err))) return st;
    elastic_forces(sim, v->fe);
    for (size_t k = 0; k < 6 * n; k++) v->ubar[k] = v->y[k] / h;
    memset(v->qm, 0, 6 * n * sizeof *v->qm);
    memset(v->qmn, 0, 6 * n * sizeof *v->qmn);
    damp_apply(v, v->ubar, 1.0, v->qm, v->qmn);
    for (size_t a = 0; a < n; a++) {
        double *r = v->r + 6 * a;
        if (!is_free(sim, a)) {
            memset(r, 0, 6 * sizeof *r);
            continue;
        }
        double m = sim->p.m[a], in = sim->p.inertia[a];
        for (int c = 0; c < 3; c++) {
            r[c] = m * dem_v3_get(v->v0[a], c) - m * v->y[6 * a + c] / h + h * (1.0 - alpha) * v->fe[3 * a + c] +
                   0.5 * h * (v->qm[6 * a + c] + v->qp[6 * a + c]);
            r[3 + c] = in * dem_v3_get(v->w0[a], c) - in * v->y[6 * a + 3 + c] / h + 0.5 * h * (v->qm[6 * a + 3 + c] + v->qp[6 * a + 3 + c]);
        }
    }
    return DEM_OK;
}

/* The neighbour list for the step: sorted at the same steps as velocity Verlet's, rebuilt when the
 * predictor q_k + h v_k would need it (the Newton iterates stay near the predictor). */
static dem_status neighbours(dem_sim *sim, dem_error *err)
{
    dem_status st;
    if (sim->nbr.sort_every && sim->step % sim->nbr.sort_every == 0 && sim->nbr.sorted_step != sim->step) {
        if ((st = dem_nbr_rebuild(sim, 1, err))) return st;
        sim->nbr.sorted_step = sim->step;
    }
    struct sim_vi *v = sim->vi;
    size_t n = sim->p.n;
    memcpy(v->q0, sim->p.x, n * sizeof *v->q0);
    for (size_t a = 0; a < n; a++) sim->p.x[a] = dem_v3_madd(sim->p.x[a], sim->p.v[a], sim->h);
    int rebuild = dem_nbr_needs_rebuild(sim);
    memcpy(sim->p.x, v->q0, n * sizeof *v->q0);
    if (rebuild && (st = dem_nbr_rebuild(sim, 0, err))) return st;
    return DEM_OK;
}

dem_status dem_vi_step(dem_sim *sim, dem_error *err)
{
    dem_status st;
    if (sim->step == UINT64_MAX)
        return dem_fail(err, DEM_ERR_LIMIT, "the step counter is at its largest value, 2^64 - 1: no further step can be counted");
    if (!sim->vi) {
        if ((st = check_supported(sim, err)) || (st = vi_alloc(sim, err))) return st;
        dem_books_flush(sim); /* a pending velocity-Verlet accounting first; this integrator books each step at once */
        dem_books_apply_setup(sim);
        sim->e.acct = ACCT_NONE;
    }
    struct sim_vi *v = sim->vi;
    v->sim = sim;
    size_t n = sim->p.n;
    const double h = sim->h, alpha = sim->st.vi_alpha;
    v->h = h;
    v->c2 = h * alpha * (1.0 - alpha);
    v->c3 = sim->st.vi_full_jacobian != 0.0 ? 0.5 * alpha * h : 0.0;
    if ((st = neighbours(sim, err))) return st;
    memcpy(v->q0, sim->p.x, n * sizeof *v->q0);
    memcpy(v->v0, sim->p.v, n * sizeof *v->v0);
    memcpy(v->w0, sim->p.w, n * sizeof *v->w0);
    /* Q(q_k, M^-1 p_k), once per step */
    if ((st = build_links(sim, v->q0, err))) return st;
    for (size_t a = 0; a < n; a++) {
        double *u = v->u + 6 * a;
        u[0] = v->v0[a].x; u[1] = v->v0[a].y; u[2] = v->v0[a].z;
        u[3] = v->w0[a].x; u[4] = v->w0[a].y; u[5] = v->w0[a].z;
    }
    memset(v->qp, 0, 6 * n * sizeof *v->qp);
    memset(v->qpn, 0, 6 * n * sizeof *v->qpn);
    damp_apply(v, v->u, 1.0, v->qp, v->qpn);
    /* the predictor q_k + h M^-1 p_k (fixed particles: their prescribed motion) */
    for (size_t k = 0; k < 6 * n; k++) v->y[k] = h * v->u[k];
    /* the preconditioner: the inverse of M/h */
    for (size_t a = 0; a < n; a++)
        for (int c = 0; c < 6; c++) v->dinv[6 * a + c] = is_free(sim, a) ? h / (c < 3 ? sim->p.m[a] : sim->p.inertia[a]) : 1.0;
    /* the scale of the residual: |p_k| and h |F| (M^-1 norm), and |R| at the predictor */
    double pscale, fscale = 0.0;
    {
        double s = 0.0;
        for (size_t a = 0; a < n; a++)
            if (is_free(sim, a))
                s += sim->p.m[a] * dem_v3_norm2(v->v0[a]) + sim->p.inertia[a] * dem_v3_norm2(v->w0[a]);
        pscale = sqrt(s);
    }
    unsigned it = 0, maxit = (unsigned)sim->st.vi_newton_max;
    double rn = 0.0, scale = 0.0;
    int converged = 0;
    for (;;) {
        if ((st = residual(sim, alpha, it > FREEZE_AFTER, err))) return st;
        rn = norm_minv(sim, v->r);
        if (it == 0) {
            double s = 0.0;
            for (size_t a = 0; a < n; a++)
                if (is_free(sim, a)) s += h * h * (v->fe[3 * a] * v->fe[3 * a] + v->fe[3 * a + 1] * v->fe[3 * a + 1] + v->fe[3 * a + 2] * v->fe[3 * a + 2]) * sim->p.inv_m[a];
            fscale = sqrt(s);
            scale = fmax(rn, fmax(pscale, fscale));
        }
        if (rn <= sim->st.vi_newton_tol * scale || scale == 0.0) { converged = 1; break; }
        if (it == maxit) break;
        /* -K dy = R (eq 17), by CG */
        dem_krylov_info info;
        /* -K is symmetric without the dashpots' position Jacobian (CG), not with it (BiCGSTAB) */
        st = v->c3 != 0.0 ? dem_bicgstab(6 * n, apply_k, v, v->dinv, v->r, v->dy, sim->st.vi_krylov_tol, 20 * 6 * n + 100, v->work, &info, err)
                          : dem_pcg(6 * n, apply_k, v, v->dinv, v->r, v->dy, sim->st.vi_krylov_tol, 20 * 6 * n + 100, v->work, &info, err);
        if (st) {
            dem_error_prefix(err, "step %llu, Newton iteration %u: ", (unsigned long long)sim->step + 1, it + 1);
            return st;
        }
        v->stats.krylov += info.iterations;
        double dn = 0.0, yn = 0.0;
        for (size_t a = 0; a < n; a++) {
            if (!is_free(sim, a)) continue;
            for (int c = 0; c < 6; c++) {
                double w = c < 3 ? sim->p.m[a] : sim->p.inertia[a];
                v->y[6 * a + c] += v->dy[6 * a + c];
                dn += w * v->dy[6 * a + c] * v->dy[6 * a + c];
                yn += w * v->y[6 * a + c] * v->y[6 * a + c];
            }
        }
        it++;
        v->stats.newton++;
        /* Algorithm 1's second test: the update vanished against the step (it is not what is
         * reported: the residual is evaluated once more below) */
        if (sqrt(dn) <= 1e-3 * sim->st.vi_newton_tol * sqrt(yn) && it < maxit) {
            if ((st = residual(sim, alpha, it > FREEZE_AFTER, err))) return st;
            rn = norm_minv(sim, v->r);
            converged = 1;
            break;
        }
    }
    double rel = scale > 0.0 ? rn / scale : 0.0;
    if (!converged)
        return dem_fail(err, DEM_ERR_UNSTABLE,
                        "step %llu: the variational integrator's Newton iteration did not converge: residual %.3g of its scale after %u iterations (variational.newton_tol %g): a smaller --dt, or --newton-max",
                        (unsigned long long)sim->step + 1, rel, it, sim->st.vi_newton_tol);
    /* books: the dashpots' impulse I = h/2 (Q(q_alpha, y/h) + Q(q_k, v_k)) changes the kinetic energy
     * by I.(p_k + I/2)/m (exactly, for alpha = 1/2 and a quadratic V): booked as dissipated, normal
     * and tangential parts apart */
    double dn_ = 0.0, dt_ = 0.0;
    for (size_t a = 0; a < n; a++) {
        if (!is_free(sim, a)) continue;
        double m = sim->p.m[a], in = sim->p.inertia[a];
        for (int c = 0; c < 3; c++) {
            double it_ = 0.5 * h * (v->qm[6 * a + c] + v->qp[6 * a + c]), in_ = 0.5 * h * (v->qmn[6 * a + c] + v->qpn[6 * a + c]);
            double mid = (m * dem_v3_get(v->v0[a], c) + 0.5 * it_) / m;
            dn_ -= in_ * mid;
            dt_ -= (it_ - in_) * mid;
            double ir = 0.5 * h * (v->qm[6 * a + 3 + c] + v->qp[6 * a + 3 + c]);
            dt_ -= ir * (in * dem_v3_get(v->w0[a], c) + 0.5 * ir) / in;
        }
    }
    sim->e.energy[DEM_E_DISS_DAMP_N] += dn_;
    sim->e.energy[DEM_E_DISS_DAMP_T] += dt_;
    /* the new state: p_{k+1} = M y/h - h alpha grad V(q_alpha) (eq 31), with the last residual's
     * elastic forces (those of the final q_alpha) */
    double move2 = 0.0;
    int nonfinite = 0;
    for (size_t a = 0; a < n; a++) {
        dem_vec3 dx = get3(v->y, 6 * a), dth = get3(v->y, 6 * a + 3);
        double m2 = dem_v3_norm2(dx) + dem_v3_norm2(dth) * sim->p.r[a] * sim->p.r[a];
        if (m2 > move2) move2 = m2;
        if (!(m2 <= DBL_MAX)) nonfinite = 1;
        sim->p.x[a] = dem_v3_add(v->q0[a], dx);
        dem_vec3 wbar = dem_v3_scale(dth, 1.0 / h);
        sim->p.q[a] = quat_normalize(dem_quat_mul(rotation_quat(wbar, h), sim->p.q[a]));
        if (!is_free(sim, a)) continue; /* driven: keeps its velocities */
        sim->p.v[a] = dem_v3_madd(dem_v3_scale(dx, 1.0 / h), get3(v->fe, 3 * a), h * alpha * sim->p.inv_m[a]);
        sim->p.w[a] = wbar;
    }
    sim->g.move2 = move2;
    sim->g.nonfinite = nonfinite;
    if ((st = dem_guard_check_move(sim, err)) || (st = dem_boundary_cell_wrap(sim, err))) return st;
    v->stats.steps++;
    v->stats.last_newton = it;
    v->stats.last_residual = rel;
    if (it > v->stats.max_newton) v->stats.max_newton = it;
    if (rel > v->stats.max_residual) v->stats.max_residual = rel;
    sim->step++;
    sim->time += h;
    /* the frame's forces and the overlap guards: the force module's evaluation of the new state
     * (nothing booked: this integrator books its own) */
    if (dem_nbr_needs_rebuild(sim)) {
        if ((st = dem_guard_check_finite(sim, err))) return st;
        if ((st = dem_nbr_rebuild(sim, 0, err))) return st;
    }
    dem_forces_setup(sim);
    sim->e.setup_pending = 0;
    if ((st = dem_guard_check_overlaps(sim, err))) return st;
    dem_guard_track_overlaps(sim);
    if (sim->step % 64 == 0 && (st = dem_guard_check_finite(sim, err))) return st;
    return DEM_OK;
}
