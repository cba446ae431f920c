/* books.h - the energy accounting by mechanism (formats/dem-stream.md §5.9): what each contact
 * dissipates (friction, normal and tangential dashpots), the tangential law's own work, local
 * damping, drag and the work of the walls, summed over fixed blocks in a fixed order, so the
 * books are the same bits for any thread count and any split of a run.
 *
 * A pair's full-step accounting of step k needs the velocities at t + dt, known only after the
 * second half kick; it is done in step k + 1's pair pass (which reads the same records anyway),
 * or by dem_books_flush before anything that changes the pairs, dt or mode, and before a store. */
#ifndef DEM_SIM_BOOKS_H
#define DEM_SIM_BOOKS_H

#include <string.h>

#include "sim/internal/boundary.h"
#include "sim/internal/state.h"

DEM_MUST_CHECK dem_status dem_books_alloc(dem_sim *sim, dem_error *err);
void dem_books_free(dem_sim *sim);

/* The velocities the pending accounting uses: saved by the first half kick, or still current. */
static inline const dem_vec3 *books_v(const dem_sim *sim) { return sim->e.acct == ACCT_SAVED ? sim->e.vf : sim->p.v; }
static inline const dem_vec3 *books_w(const dem_sim *sim) { return sim->e.acct == ACCT_SAVED ? sim->e.wf : sim->p.w; }

/* Relative velocity of a contact at the contact point (i minus j, or minus the wall), its normal
 * and tangential parts, from full-step velocities v, w. */
static inline void books_contact_velocity(const dem_sim *sim, const dem_vec3 *v, const dem_vec3 *w, uint32_t i, int wall, uint32_t j,
                             const dem_contact_out *o, double *un, dem_vec3 *ut)
{
    dem_vec3 u, wt;
    double li = sim->p.r[i] - 0.5 * o->delta;
    if (wall) {
        const dem_wall *wl = &sim->b.walls[j];
        u = dem_v3_sub(v[i], wall_velocity_at(wl, wall_contact_point(sim, i, o->n, o->delta)));
        wt = dem_v3_scale(w[i], li);
        if (sim->e.deforming) { /* the field's velocity and spin (cell.h) */
            u = dem_v3_add(u, dem_m3_mulv(sim->e.lstep, dem_v3_sub(sim->p.x[i], sim->b.cell.origin)));
            wt = dem_v3_madd(wt, sim->e.wlstep, li);
        }
    } else {
        double lj = sim->p.r[j] - 0.5 * o->delta;
        u = dem_v3_sub(v[i], v[j]);
        wt = dem_v3_add(dem_v3_scale(w[i], li), dem_v3_scale(w[j], lj));
        if (sim->e.deforming) /* the field's stretch (its spin moves no contact point against the other) */
            u = dem_v3_add(u, dem_m3_mulv(sim->e.dstep, dem_v3_scale(o->n, li + lj)));
    }
    *un = dem_v3_dot(u, o->n);
    *ut = dem_v3_sub(dem_v3_madd(u, o->n, -*un), dem_v3_cross(wt, o->n));
}

/* Energy of one contact over the step that ended at full-step velocities v, w (t + dt): the
 * normal dashpot in the kick convention (the force of this step does dt F.u over its kicks),
 * then the tangential sub-model's own terms (its work hook). Adds them to e4 (friction, damp_n,
 * damp_t, law) and to the contact's diss; setup: only remember the powers. Returns the normal
 * dashpot power (W). Inline: the pair pass (forces.c) calls it for every touching pair, in the
 * same loop that evaluates the pair, so that the records are read once. */
static inline double books_contact_energy(const dem_sim *sim, const dem_vec3 *v, const dem_vec3 *w, uint32_t i, int wall, uint32_t j,
                             const dem_contact_out *o, dem_contact_rec *h, double dt, int setup, double *e4)
{
    double un;
    dem_vec3 ut;
    books_contact_velocity(sim, v, w, i, wall, j, o, &un, &ut);
    double pn = -h->fdn * un;
    double d[4] = {0.0, pn * dt, 0.0, 0.0};
    const dem_tangential_model *tm = dem_tangential_models[sim->st.tangential];
    if (tm->work == dem_spring_work) dem_spring_work_inline(h, o, ut, dt, setup, d); /* the common case, inlined */
    else tm->work(h, o, ut, dt, setup, d);
    if (!setup) {
        for (int k = 0; k < 3; k++) h->diss[k] += d[k];
        for (int k = 0; k < 4; k++) e4[k] += d[k];
    }
    return pn;
}

/* ---- the contact pass's books: one narrow interface ---------------------------------------
 * The pair pass (forces.c) keeps one accumulator per block of particles (its pairs) and one per
 * particle (its wall slots) and books through these functions only: the pending step of a
 * touching pair (books_pending), an adhesive law's work as a contact forms (books_formed), and
 * what a lost contact gives up (books_lost); books_block and books_particle hand the sums over.
 * The lifecycle that decides when each applies is forces.c's; the law is lib/laws/. */
typedef struct {
    double s[5];   /* the pending step: friction, damp_n, damp_t, law, normal-dashpot power */
    double lost;   /* friction the contacts lost in this evaluation gave up, J */
    double adh;    /* the law's work as contacts formed or broke (adhesion, springs cut loaded), J */
} books_acc;

static inline void books_acc_zero(books_acc *a)
{
    for (int k = 0; k < 5; k++) a->s[k] = 0.0;
    a->lost = a->adh = 0.0;
}

/* The pending full-step accounting of a touching pair (before the pass evaluates it again). */
static inline void books_pending(const dem_sim *sim, books_acc *a, const dem_vec3 *v, const dem_vec3 *w, dem_contact_rec *h,
                                 const dem_contact_out *o)
{
    a->s[4] += books_contact_energy(sim, v, w, h->i, 0, h->j, o, h, sim->h, 0, a->s);
}

/* Whether the books take the law's work as contacts form and break (adhesive laws, in a step). */
static inline int books_adhesive(const dem_law *law) { return law->cap_adh != 0.0 && law->hdt != 0.0; }

/* Adhesive laws (dmt, jkr): the law's work as a contact forms or breaks, in the kick convention
 * of the books (the force of a step acts over the half steps around it, and the normal elastic
 * energy is the potential U of the frame's contacts). A contact that forms at overlap delta with
 * elastic force F has put U(delta) into the books' potential and 1/2 dt F v_n into the kinetic
 * energy (the second half kick; v_n = v_ij . n, > 0 separating): the law's work is
 * U(delta) + 1/2 dt v_n F (for jkr mostly the neck's formation, -3/5 pi gamma a_z^2, a loss;
 * for dmt, whose U is continuous, only the half kick over the step where the force jumps).
 * (The pair goes by value: its address would keep the pair pass's locals in memory.) */
static inline void books_formed(books_acc *a, const dem_law *law, dem_pair p, const dem_contact_in *c)
{
    if (!books_adhesive(law)) return;
    double fe, s;
    law->normal->eval(&p, c->delta, &fe, &s);
    a->adh += law->normal->energy(&p, c->delta) + 0.5 * law->hdt * dem_v3_dot(c->vij, c->n) * fe;
}

/* A contact lost at overlap delta (it touched at the last evaluation if touched; h, o as that
 * evaluation left them; p: its pair, filled and read only for an adhesive law). An adhesive contact that
 * breaks after its last evaluation at delta_k (force F_k): the potential U(delta_k) goes, and
 * F_k's second half kick moves F_k (delta_k - delta)/2 into the kinetic energy: the law's work is
 * -U(delta_k) - F_k (delta - delta_k)/2. Then the energy its tangential spring held
 * (dem_contact_forget: the history goes). Returns the friction the contact gave up (J), also
 * added to a->lost. */
static inline double books_lost(books_acc *a, const dem_law *law, const dem_pair *p, dem_contact_rec *h,
                                const dem_contact_out *o, double delta, int touched)
{
    if (touched && books_adhesive(law)) {
        double fk = o->fn - h->fdn; /* the elastic part */
        a->adh += -law->normal->energy(p, o->delta) - 0.5 * fk * (delta - o->delta);
    }
    if (!h->flags) return 0.0; /* touching implies flags (every law sets DEM_REC_TOUCH) */
    double f = dem_contact_forget(h, law->hdt, &a->adh);
    a->lost += f;
    return f;
}

/* Block b's sums to the books: its pairs' pending step (account) and what this evaluation's
 * contacts lost or did as they formed and broke (eval). */
static inline void books_block(dem_sim *sim, size_t b, const books_acc *a, int account, int eval)
{
    if (account) memcpy(sim->e.bsum[b], a->s, sizeof a->s);
    if (!eval) return;
    sim->e.blost[b] = a->lost;
    if (sim->e.badh) sim->e.badh[b] = a->adh;
}

/* Wall slot q's contact was lost in this evaluation, giving up friction f (J): booked with the
 * pairs' at the end of the step (dem_books_close_step, in slot order). */
static inline void books_wall_lost(dem_sim *sim, size_t q, double f) { sim->e.wlost[q] = f; }

/* Particle a's part of the step: the power of its local damping (W; J over the step once hdt is
 * set) and its wall contacts' law work as they formed and broke. */
static inline void books_particle(dem_sim *sim, size_t a, double local_power, const books_acc *acc)
{
    sim->e.edis[a * EDIS + EDIS_LOCAL] = sim->hdt != 0.0 ? -local_power * sim->hdt : -local_power; /* setup: the power */
    if (sim->e.wadh) sim->e.wadh[a] = acc->adh;
}

/* The step's totals in particle order (local damping, drag, the law's work as contacts formed or
 * broke: pairs by blocks, then walls), as they run over the particles (forces.c's totals: in a
 * group of processes each adds its own in turn, dist.h's chain): begin, run over [p0, p1) for
 * each range in particle order, then end with the drives' power (W, when some particle is
 * fixed) and the walls' work of the step (J, per wall). */
typedef struct {
    double local, drag, law;
} books_run;
void dem_books_totals_begin(const dem_sim *sim, books_run *r);
void dem_books_totals_run(const dem_sim *sim, size_t p0, size_t p1, books_run *r);
void dem_books_totals_end(dem_sim *sim, const books_run *r, double drive_power, const double *wall_work);
/* Before a setup evaluation: no drag in it (integrate.c books drag with the kicks). */
static inline void books_setup_begin(dem_sim *sim)
{
    for (size_t a = 0; a < sim->p.n; a++) sim->e.edis[a * EDIS + EDIS_DRAG] = 0.0;
}
/* A setup evaluation's powers (forces.c's dem_forces_setup): its contacts', local damping's,
 * the walls' and the drives'; booked over the first half step by dem_books_apply_setup. */
void dem_books_setup(dem_sim *sim, double wall_power, double drive_power);

/* The full-step accounting of the touching pairs p0 .. p1-1 into s (friction, damp_n, damp_t,
 * law, power), in order. */
void dem_books_account_pairs(const dem_sim *sim, size_t p0, size_t p1, const dem_vec3 *v, const dem_vec3 *w, int setup, double s[5]);
/* The wall contacts' accounting in slot order into s, with the current (full-step) velocities. */
void dem_books_account_walls(dem_sim *sim, int setup, double s[5]);
/* Book the pending step: the blocks' sums in order, then the walls'. */
void dem_books_finish(dem_sim *sim);
/* After a pair pass (account, eval: what it did): the blocks' sums in sim_books' blk_* and the
 * flagged blocks' count (sim_guard's nbbad), over every process's blocks in block order.
 * Collective in a group (dist.h). */
void dem_books_blocks(dem_sim *sim, int account, int eval);
/* Do the pending accounting now, by itself: the same blocks and order as the fused pass. */
void dem_books_flush(dem_sim *sim);
/* A setup evaluation: every contact remembers its powers; returns the normal-dashpot power. */
double dem_books_contacts_setup(dem_sim *sim);
/* The forces of a setup call act from t to t + dt/2 (kick convention): their half step. */
void dem_books_apply_setup(dem_sim *sim);
/* The end of a step: the walls' full-step accounting now, the pairs' pending; the friction of
 * the contacts lost in it; before: the accumulators before the step's forces. */
void dem_books_close_step(dem_sim *sim, size_t nlost, const double before[DEM_E_COUNT]);
/* A frame with current forces: the tangential state of each contact as the step that wrote the
 * frame left it (S_t, the dashpot flag), and the powers its next step starts from. */
void dem_books_restore(dem_sim *sim);
/* The power of the walls on the particles (W). */
double dem_books_wall_power(const dem_sim *sim);

#endif
