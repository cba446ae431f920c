/* books.c - the energy accounting (see books.h). */
#include "sim/internal/books.h"

#include <stdlib.h>
#include <string.h>

#include "sim/internal/boundary.h"
#include "sim/internal/contacts.h"
#include "sim/internal/dist.h"
#include "sim/internal/forces.h"
#include "sim/internal/roll.h"

dem_status dem_books_alloc(dem_sim *sim, dem_error *err)
{
    sim_books *e = &sim->e;
    size_t n = sim->p.n ? sim->p.n : 1, nb = sim->c.nblk ? sim->c.nblk : 1;
    e->edis = calloc(n * EDIS, sizeof *e->edis);
    e->vf = calloc(n, sizeof *e->vf);
    e->wf = calloc(n, sizeof *e->wf);
    e->bsum = calloc(nb, sizeof *e->bsum);
    e->blost = calloc(nb, sizeof *e->blost);
    /* the law's work as contacts form or break: adhesive laws, and tangential springs cut loaded */
    if (dem_normal_models[sim->st.normal]->pulloff > 0.0 || dem_tangential_models[sim->st.tangential]->uses_history) {
        e->badh = calloc(nb, sizeof *e->badh);
        e->wadh = calloc(n, sizeof *e->wadh);
        if (!e->badh || !e->wadh) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    }
    if (!e->edis || !e->vf || !e->wf || !e->bsum || !e->blost)
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    if (dem_roll_on(&sim->st)) { /* roll.h */
        e->rsum = calloc(nb, sizeof *e->rsum);
        e->rlost = calloc(nb, sizeof *e->rlost);
        if (!e->rsum || !e->rlost) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    }
    return DEM_OK;
}

void dem_books_free(dem_sim *sim)
{
    sim_books *e = &sim->e;
    free(e->edis);
    free(e->vf);
    free(e->wf);
    free(e->bsum);
    free(e->blost);
    free(e->badh);
    free(e->wadh);
    free(e->rsum);
    free(e->rlost);
    /* wlost grows with the wall slots: dem_store_free frees it */
}

void dem_books_account_pairs(const dem_sim *sim, size_t p0, size_t p1, const dem_vec3 *v, const dem_vec3 *w, int setup, double s[5])
{
    for (size_t p = p0; p < p1; p++) {
        if (!sim->c.ptouch[p]) continue;
        dem_contact_rec *np = &sim->c.pairs[p];
        s[4] += books_contact_energy(sim, v, w, np->i, 0, np->j, &sim->c.out[p], np, sim->h, setup, s);
        if (sim->c.roll) { /* only setup calls this for the whole list: nothing to add */
            double e[3] = {0.0, 0.0, 0.0};
            dem_roll_account_pair(sim, w, p, setup, e);
        }
    }
}

/* The wall slots [q0, q1)'s accounting (dem_books_account_walls). */
static void account_walls_run(dem_sim *sim, size_t q0, size_t q1, int setup, double s[5])
{
    const sim_store *c = &sim->c;
    for (size_t q = q0; q < q1; q++)
        if (c->wtouch[q])
            s[4] += books_contact_energy(sim, sim->p.v, sim->p.w, c->wowner[q], 1, c->wwall[q], &c->wout[q], &c->whist[q],
                                   sim->h, setup, s);
}

void dem_books_account_walls(dem_sim *sim, int setup, double s[5])
{
    account_walls_run(sim, 0, sim->c.nwslots, setup, s);
}

/* The end of a step's running sums over the wall slots in slot order (dem_books_close_step; in
 * a group of processes stepping their own, each adds its slots in turn, dist.h's chain): the
 * slots' full-step accounting, and the friction of the contacts lost in the step. */
typedef struct {
    double w[5], lost;
    double roll[3], rlost[2]; /* rolling and twisting: the slots' accounting, the springs lost */
    int nlost;
} close_run;

static void close_step_run(dem_sim *sim, void *acc)
{
    close_run *r = acc;
    sim_books *b = &sim->e;
    size_t q0, q1;
    dist_stepped_slots(sim, &q0, &q1);
    account_walls_run(sim, q0, q1, 0, r->w);
    if (r->nlost)
        for (size_t q = q0; q < q1; q++) {
            r->lost += b->wlost[q];
            b->wlost[q] = 0.0;
        }
    if (!b->rsum) return;
    dem_roll_account_walls(sim, q0, q1, 0, r->roll);
    if (r->nlost)
        for (size_t q = q0; q < q1; q++)
            for (int m = 0; m < 2; m++) {
                r->rlost[m] += b->wrlost[q][m];
                b->wrlost[q][m] = 0.0;
            }
}

/* The running sums over blocks [k0, k1) (dem_books_blocks): per accumulator, the blocks in order. */
typedef struct {
    double s[5], lost, adh, roll[3], rlost[2];
    size_t nbad;            /* integers: the guard's flagged blocks ride along (any order) */
    int account, eval;      /* what the pass did: the same on every process */
} blocks_run;

static void blocks_run_range(const dem_sim *sim, size_t k0, size_t k1, void *acc)
{
    blocks_run *r = acc;
    const sim_books *b = &sim->e;
    for (size_t k = k0; k < k1; k++) {
        if (r->account) {
            for (int m = 0; m < 5; m++) r->s[m] += b->bsum[k][m];
            if (b->rsum)
                for (int m = 0; m < 3; m++) r->roll[m] += b->rsum[k][m];
        }
        if (r->eval) {
            r->lost += b->blost[k];
            if (b->badh) r->adh += b->badh[k];
            if (b->rsum)
                for (int m = 0; m < 2; m++) r->rlost[m] += b->rlost[k][m];
            r->nbad += sim->g.bbad[k];
        }
    }
}

void dem_books_blocks(dem_sim *sim, int account, int eval)
{
    sim_books *b = &sim->e;
    blocks_run r = {{0.0, 0.0, 0.0, 0.0, 0.0}, 0.0, 0.0, {0.0, 0.0, 0.0}, {0.0, 0.0}, 0, account, eval};
    dem_dist_chain_blocks(sim, &r, sizeof r, blocks_run_range); /* dist.h: one process's order on any number */
    if (account) {
        memcpy(b->blk_sum, r.s, sizeof r.s);
        memcpy(b->blk_roll, r.roll, sizeof r.roll);
    }
    if (eval) {
        b->blk_lost = r.lost;
        b->blk_adh = r.adh;
        memcpy(b->blk_rlost, r.rlost, sizeof r.rlost);
        sim->g.nbbad = r.nbad;
    }
}

void dem_books_finish(dem_sim *sim)
{
    sim_books *b = &sim->e;
    double e[5];
    memcpy(e, b->blk_sum, sizeof e); /* the blocks' in order (dem_books_blocks), then the walls' */
    for (int k = 0; k < 5; k++) e[k] += b->pend_w[k];
    b->energy[DEM_E_DISS_FRICTION] += e[0] + b->pend_lost;
    b->energy[DEM_E_DISS_DAMP_N] += e[1];
    b->energy[DEM_E_DISS_DAMP_T] += e[2];
    b->energy[DEM_E_WORK_LAW] += e[3];
    b->energy[DEM_E_AHEAD] = 0.5 * (e[4] * sim->h + b->pend_dl - b->pend_dw);
    if (b->rsum) { /* rolling and twisting (roll.h): the blocks in order, then the walls */
        double r[3];
        memcpy(r, b->blk_roll, sizeof r);
        for (int m = 0; m < 3; m++) r[m] += b->pend_r[m];
        b->energy[DEM_E_DISS_ROLLING] += r[0] + b->pend_rlost[0];
        b->energy[DEM_E_DISS_TWISTING] += r[1] + b->pend_rlost[1];
        b->energy[DEM_E_WORK_LAW] += r[2];
    }
    b->acct = ACCT_NONE;
}

void dem_books_flush(dem_sim *sim)
{
    if (sim->e.acct == ACCT_NONE) return;
    /* the full-step velocities are the particles' own now: with own stepping, the halo's from its
     * processes (dist.h; the halo's exchange in the step brought the half-step ones) */
    if (sim->e.acct == ACCT_PENDING) dem_dist_refresh_halo(sim);
    dem_forces_pair_pass(sim, 1, 0);
    dem_books_finish(sim);
}

/* dist.h's chain: the setup's accounting of pairs [p0, p1). */
static void setup_pairs_run(const dem_sim *sim, size_t p0, size_t p1, void *acc)
{
    dem_books_account_pairs(sim, p0, p1, sim->p.v, sim->p.w, 1, acc);
}

double dem_books_contacts_setup(dem_sim *sim)
{
    double s[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    dem_dist_chain_pairs(sim, s, sizeof s, setup_pairs_run); /* dist.h: in list order, each pair at its owner */
    dem_books_account_walls(sim, 1, s);
    if (sim->e.rsum) {
        double e[3] = {0.0, 0.0, 0.0};
        dem_roll_account_walls(sim, 0, sim->c.nwslots, 1, e);
    }
    return s[4];
}

void dem_books_totals_begin(const dem_sim *sim, books_run *r)
{
    const sim_books *e = &sim->e;
    r->local = e->energy[DEM_E_DISS_LOCAL];
    r->drag = e->energy[DEM_E_DISS_DRAG];
    /* the law's work as contacts formed or broke: the pairs by blocks, then the walls' by particles */
    r->law = e->badh ? e->blk_adh : 0.0;
}

void dem_books_totals_run(const dem_sim *sim, size_t p0, size_t p1, books_run *r)
{
    const sim_books *e = &sim->e;
    if (sim->hdt == 0.0) return;
    double local = r->local, drag = r->drag, law = r->law; /* in registers while the loops run */
    for (size_t a = p0; a < p1; a++) {
        const double *ed = &e->edis[a * EDIS];
        local += ed[EDIS_LOCAL];
        drag += ed[EDIS_DRAG];
    }
    if (e->badh)
        for (size_t a = p0; a < p1; a++) law += e->wadh[a];
    r->local = local;
    r->drag = drag;
    r->law = law;
}

void dem_books_totals_end(dem_sim *sim, const books_run *r, double drive_power, const double *wall_work)
{
    sim_books *e = &sim->e;
    if (sim->hdt != 0.0) {
        e->energy[DEM_E_DISS_LOCAL] = r->local;
        e->energy[DEM_E_DISS_DRAG] = r->drag;
        if (e->badh) e->energy[DEM_E_WORK_LAW] += r->law;
    }
    if (sim->p.nfixed) e->energy[DEM_E_WORK_EXTERNAL] += drive_power * sim->hdt;
    for (size_t k = 0; k < sim->b.nwalls; k++) e->energy[DEM_E_WORK_WALLS] += wall_work[k];
}

void dem_books_setup(dem_sim *sim, double wall_power, double drive_power)
{
    sim_books *e = &sim->e;
    double pl = 0.0;
    e->setup_p[0] = dem_books_contacts_setup(sim);
    for (size_t a = 0; a < sim->p.n; a++) pl += e->edis[a * EDIS + EDIS_LOCAL];
    e->setup_p[1] = pl;
    e->setup_p[2] = wall_power;
    e->setup_p[3] = drive_power;
    e->setup_pending = 1;
}

void dem_books_apply_setup(dem_sim *sim)
{
    sim_books *b = &sim->e;
    if (!b->setup_pending) return;
    double h = 0.5 * sim->h;
    b->energy[DEM_E_DISS_DAMP_N] += h * b->setup_p[0];
    b->energy[DEM_E_DISS_LOCAL] += h * b->setup_p[1];
    b->energy[DEM_E_WORK_WALLS] += h * b->setup_p[2];
    b->energy[DEM_E_WORK_EXTERNAL] += h * b->setup_p[3];
    b->energy[DEM_E_AHEAD] = h * (b->setup_p[0] + b->setup_p[1] - b->setup_p[2] - b->setup_p[3]);
    b->setup_pending = 0;
}

void dem_books_close_step(dem_sim *sim, size_t nlost, const double before[DEM_E_COUNT])
{
    sim_books *b = &sim->e;
    b->deforming = sim->b.deforming;
    b->lstep = sim->b.cell.vgrad;
    b->dstep = sim->b.lsym;
    b->wlstep = sim->b.wl;
    /* the walls' accounting now, and the friction of contacts lost in this step: the pairs' by
     * blocks, then the walls' in slot order */
    close_run r = {{0.0, 0.0, 0.0, 0.0, 0.0}, b->blk_lost, {0.0, 0.0, 0.0}, {0.0, 0.0}, nlost != 0};
    if (b->rsum) memcpy(r.rlost, b->blk_rlost, sizeof r.rlost); /* rolling and twisting: the springs lost in this step, the blocks' first */
    dem_dist_chain(sim, &r, sizeof r, close_step_run); /* dist.h: one process's order on any number */
    memcpy(b->pend_w, r.w, sizeof r.w);
    b->pend_lost = r.lost;
    if (b->rsum) {
        memcpy(b->pend_r, r.roll, sizeof r.roll);
        memcpy(b->pend_rlost, r.rlost, sizeof r.rlost);
    }
    b->pend_dl = b->energy[DEM_E_DISS_LOCAL] - before[DEM_E_DISS_LOCAL];
    b->pend_dw = (b->energy[DEM_E_WORK_WALLS] - before[DEM_E_WORK_WALLS]) +
                 (b->energy[DEM_E_WORK_EXTERNAL] - before[DEM_E_WORK_EXTERNAL]);
    b->acct = ACCT_PENDING;
}

/* The tangential state of one contact as the step that wrote the frame left it. */
static void restore_contact_state(const dem_sim *sim, const dem_pair *p, dem_contact_rec *h, const dem_contact_out *o)
{
    const dem_tangential_model *tm = dem_tangential_models[sim->st.tangential];
    double stt = tm->uses_history ? tm->stiffness(p, sim->st.normal, o->delta) : 0.0;
    double fe, sn;
    dem_normal_models[sim->st.normal]->eval(p, o->delta, &fe, &sn);
    const dem_damping_model *dm = dem_damping_models[sim->st.damping];
    double eta_t = dm->eta_t(p, &sim->st, dm->eta_n(p, &sim->st, sn), sn, stt);
    if (!tm->uses_history) h->xi[0] = h->xi[1] = h->xi[2] = 0.0;
    h->stt = stt;
    h->flags = (h->flags & ~DEM_REC_ETA_T) | (eta_t != 0.0 ? DEM_REC_ETA_T : 0u);
}

static void restore_touching(dem_sim *sim, const dem_pair *p, size_t q, int wall)
{
    sim_store *c = &sim->c;
    if (wall) restore_contact_state(sim, p, &c->whist[q], &c->wout[q]);
    else restore_contact_state(sim, p, &c->pairs[q], &c->out[q]);
}

void dem_books_restore(dem_sim *sim)
{
    dem_store_each_touching(sim, restore_touching);
    if (sim->e.rsum) dem_roll_restore(sim);
    dem_books_contacts_setup(sim);
}

double dem_books_wall_power(const dem_sim *sim)
{
    const sim_store *c = &sim->c;
    double p = 0.0;
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        size_t a = c->wowner[q];
        const dem_wall *wl = &sim->b.walls[c->wwall[q]];
        const dem_contact_out *o = &c->wout[q];
        p += dem_v3_dot(dem_contact_force(o), wall_velocity_at(wl, wall_contact_point(sim, a, o->n, o->delta)));
    }
    if (c->wroll) p += dem_roll_wall_power(sim);
    return p;
}
