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

/* The full-step accounting of the touching pairs p0 .. p1-1 into s (friction, damp_n, damp_t,
 * law, power), in order. */
void dem_books_account_pairs(const dem_sim *sim, size_t p0, size_t p1, const dem_vec3 *v, const dem_vec3 *w, int setup, double s[5]);
/* The wall contacts' accounting in slot order into s, with the current (full-step) velocities. */
void dem_books_account_walls(dem_sim *sim, int setup, double s[5]);
/* Book the pending step: the blocks' sums in order, then the walls'. */
void dem_books_finish(dem_sim *sim);
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
