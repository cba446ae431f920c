/* roll.c - rolling and twisting resistance in the simulation (see roll.h). */
#include "sim/internal/roll.h"

#include <string.h>

#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/contacts.h"
#include "sim/internal/dist.h"
#include "sim/internal/cell.h"
#include "sim/internal/integrate.h"
#include "sim/internal/par.h"

/* The inputs every contact shares: coefficients, S_t, eta_t, F_n. */
static void roll_common(const dem_sim *sim, dem_roll_in *in, const dem_pair *pp, uint32_t mi, uint32_t mj, const dem_contact_out *o)
{
    const dem_settings *st = &sim->st;
    const mat_pair *mp = &sim->mp[mi * sim->nmat + mj];
    const double *mr = sim->mroll[mi * sim->nmat + mj];
    in->n = o->n;
    in->delta = o->delta;
    in->fn = o->fn > 0.0 ? o->fn : 0.0;
    in->rstar = pp->rstar;
    in->mu = mp->mu;
    in->mu_r = mr[0];
    in->mu_o = mr[1];
    in->stt = dem_tangential_models[st->tangential]->stiffness(pp, st->normal, o->delta);
    in->eta_t = 0.0;
    if (st->twisting == dem_model_find(DEM_MODEL_TWISTING, "marshall")) {
        double fe, sn;
        dem_normal_models[st->normal]->eval(pp, o->delta, &fe, &sn);
        const dem_damping_model *dm = dem_damping_models[st->damping];
        in->eta_t = dm->eta_t(pp, st, dm->eta_n(pp, st, sn), sn, in->stt);
    }
}

void dem_roll_pair(dem_sim *sim, const dem_law *law, size_t p, double lost[2])
{
    dem_roll_rec *r = &sim->c.roll[p];
    if (!sim->c.ptouch[p]) {
        if (r->flags) dem_roll_forget(r, sim->hdt, lost);
        return;
    }
    const sim_particles *P = &sim->p;
    const dem_contact_rec *np = &sim->c.pairs[p];
    const dem_contact_out *o = &sim->c.out[p];
    uint32_t i = np->i, j = np->j;
    dem_contact_in c;
    memset(&c, 0, sizeof c);
    dem_vec3 xj = P->x[j];
    if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
    c.d = dem_v3_sub(P->x[i], xj);
    c.n = o->n;
    c.delta = o->delta;
    c.vij = dem_v3_sub(P->v[i], P->v[j]);
    c.chord = 1;
    c.half_normal = sim->integ->half_normal; /* walls: 0 (memset), as their tangential law */
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(P->w[i], P->w[j]), c.n);
    if (sim->b.deforming) {
        c.vij = dem_v3_add(c.vij, dem_m3_mulv(sim->b.chord, c.d));
        c.spin += dem_v3_dot(sim->b.wl, c.n);
    }
    dem_pair pp;
    sim_pair_properties(sim, &pp, p);
    dem_roll_in in;
    in.law = law;
    in.c = &c;
    roll_common(sim, &in, &pp, P->mat[i], P->mat[j], o);
    in.wrel = dem_v3_sub(P->w[i], P->w[j]); /* the field's spin is the same for both */
    double ai = P->inertia[i] + P->m[i] * P->r[i] * P->r[i], aj = P->inertia[j] + P->m[j] * P->r[j] * P->r[j];
    in.inertia_r = ai * aj / (ai + aj); /* Ai et al. 2011 eq 14 */
    in.inertia_o = P->inertia[i] * P->inertia[j] / (P->inertia[i] + P->inertia[j]);
    dem_roll_eval(&sim->st, &in, r);
}

/* Pairs idx[0 .. n) (idx NULL: pairs p0 .. p0 + n - 1): their couples (account 0), or the last
 * step's accounting of the touching ones (account 1), their books into e. A block of the pass and
 * the pairs across a process's cuts (dist.h) both come here. */
static void roll_pairs(dem_sim *sim, size_t p0, const uint32_t *idx, size_t n, int account, double e[3])
{
    const dem_vec3 *w = books_w(sim);
    dem_law law;
    dem_law_init(&law, &sim->st, sim->hdt);
    for (size_t k = 0; k < n; k++) {
        size_t p = idx ? idx[k] : p0 + k;
        if (!account) dem_roll_pair(sim, &law, p, e);
        else if (sim->c.ptouch[p]) dem_roll_account_pair(sim, w, p, 0, e);
    }
}

static PAR_RANGE void roll_blocks(dem_sim *sim, size_t lo, size_t hi, int account)
{
    for (size_t b = lo; b < hi; b++) {
        double e[3] = {0.0, 0.0, 0.0};
        roll_pairs(sim, sim->c.pblk[b], NULL, sim->c.pblk[b + 1] - sim->c.pblk[b], account, e);
        if (account) memcpy(sim->e.rsum[b], e, sizeof e);
        else memcpy(sim->e.rlost[b], e, 2 * sizeof e[0]);
    }
}

typedef struct {
    dem_sim *sim;
    int account;
    size_t first;   /* the first block (a process's share, dist.h; 0 in one process) */
} roll_pass_args;

static void roll_pass_share(void *ctx, size_t lo, size_t hi, int t) /* par.h */
{
    const roll_pass_args *a = ctx;
    (void)t;
    roll_blocks(a->sim, a->first + lo, a->first + hi, a->account);
}

void dem_roll_pass(dem_sim *sim, int account)
{
    size_t b0, b1;
    dist_blocks(sim, &b0, &b1); /* dist.h: all blocks in one process */
    roll_pass_args a = {sim, account, b0};
    dem_par_for(sim->pool, b1 - b0, roll_pass_share, &a);
    if (sim->dist) { /* the pairs across this process's cuts, as their owner does them; their books are the owner's */
        double e[3] = {0.0, 0.0, 0.0};
        roll_pairs(sim, 0, sim->dist->foreign, sim->dist->nforeign, account, e);
    }
}

void dem_roll_wall_lost(dem_sim *sim, size_t q)
{
    sim->e.wrlost[q][0] = sim->e.wrlost[q][1] = 0.0;
    dem_roll_forget(&sim->c.wroll[q], sim->hdt, sim->e.wrlost[q]);
}

/* A particle's spin as the wall sees it: relative to the field's in a deforming cell. */
static dem_vec3 wall_wrel(dem_vec3 w, const dem_wall *wl, int deforming, dem_vec3 field)
{
    if (deforming) w = dem_v3_add(w, field);
    return dem_v3_sub(w, wl->omega);
}

void dem_roll_wall(dem_sim *sim, const dem_law *law, size_t q, const dem_contact_in *c, const dem_pair *pp)
{
    const sim_particles *P = &sim->p;
    size_t a = sim->c.wowner[q];
    const dem_wall *wl = &sim->b.walls[sim->c.wwall[q]];
    dem_roll_in in;
    in.law = law;
    in.c = c;
    roll_common(sim, &in, pp, P->mat[a], wl->material, &sim->c.wout[q]);
    in.wrel = wall_wrel(P->w[a], wl, sim->b.deforming, sim->b.wl);
    in.inertia_r = P->inertia[a] + P->m[a] * P->r[a] * P->r[a]; /* the wall: infinitely heavy */
    in.inertia_o = P->inertia[a];
    dem_roll_eval(&sim->st, &in, &sim->c.wroll[q]);
}

dem_vec3 dem_roll_torque(const dem_sim *sim, size_t a, dem_vec3 t)
{
    const sim_store *c = &sim->c;
    for (size_t e = c->jadj_start[a]; e < c->jadj_start[a + 1]; e++) {
        const double *m = c->roll[c->jadj[e]].m;
        t = dem_v3_sub(t, dem_v3(m[0], m[1], m[2]));
    }
    for (size_t p = c->istart[a]; p < c->istart[a + 1]; p++) {
        const double *m = c->roll[p].m;
        t = dem_v3_add(t, dem_v3(m[0], m[1], m[2]));
    }
    for (size_t q = c->wstart[a]; q < c->wstart[a + 1]; q++) {
        if (!c->wtouch[q]) continue;
        const double *m = c->wroll[q].m;
        t = dem_v3_add(t, dem_v3(m[0], m[1], m[2]));
    }
    return t;
}

void dem_roll_account_pair(const dem_sim *sim, const dem_vec3 *w, size_t p, int setup, double e[3])
{
    const dem_contact_rec *np = &sim->c.pairs[p];
    dem_roll_work(&sim->c.roll[p], sim->c.out[p].n, sim_rstar(&sim->p, np->i, np->j), dem_v3_sub(w[np->i], w[np->j]), sim->h, setup, e);
}

void dem_roll_account_walls(const dem_sim *sim, size_t q0, size_t q1, int setup, double e[3])
{
    const sim_store *c = &sim->c;
    for (size_t q = q0; q < q1; q++) {
        if (!c->wtouch[q]) continue;
        size_t a = c->wowner[q];
        dem_vec3 wrel = wall_wrel(sim->p.w[a], &sim->b.walls[c->wwall[q]], sim->e.deforming, sim->e.wlstep);
        dem_roll_work(&c->wroll[q], c->wout[q].n, sim->p.r[a], wrel, sim->h, setup, e);
    }
}

double dem_roll_wall_power(const dem_sim *sim)
{
    const sim_store *c = &sim->c;
    double pw = 0.0;
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        const double *m = c->wroll[q].m;
        pw += dem_v3_dot(dem_v3(m[0], m[1], m[2]), sim->b.walls[c->wwall[q]].omega);
    }
    return pw;
}

void dem_roll_wall_totals(const dem_sim *sim, size_t q0, size_t q1, dem_vec3 *torque, double *work)
{
    const sim_store *c = &sim->c;
    for (size_t q = q0; q < q1; q++) {
        if (!c->wtouch[q]) continue;
        size_t k = c->wwall[q];
        const double *m = c->wroll[q].m;
        dem_vec3 mv = dem_v3(m[0], m[1], m[2]); /* on the particle; the wall receives -m */
        torque[k] = dem_v3_sub(torque[k], mv);
        work[k] += dem_v3_dot(mv, sim->b.walls[k].omega) * sim->hdt;
    }
}

/* One contact's stiffnesses and couple from its loaded history and forces. */
static void restore_one(const dem_sim *sim, const dem_pair *pp, const dem_contact_out *o, dem_roll_rec *r)
{
    const dem_settings *st = &sim->st;
    double stt = dem_tangential_models[st->tangential]->stiffness(pp, st->normal, o->delta);
    r->kr = dem_rolling_models[st->rolling]->stiffness(st, pp->rstar, o->delta, stt);
    r->ko = dem_twisting_models[st->twisting]->stiffness(st, pp->rstar, o->delta, stt);
    dem_vec3 m = dem_roll_couple(r, o->n, pp->rstar);
    r->m[0] = m.x; r->m[1] = m.y; r->m[2] = m.z;
    r->flags |= DEM_ROLL_ACTIVE;
}

static void restore_touching(dem_sim *sim, const dem_pair *p, size_t q, int wall)
{
    sim_store *c = &sim->c;
    if (wall) restore_one(sim, p, &c->wout[q], &c->wroll[q]);
    else restore_one(sim, p, &c->out[q], &c->roll[q]);
}

void dem_roll_restore(dem_sim *sim)
{
    dem_store_each_touching(sim, restore_touching);
}
