/* forces.c - contact forces and their sums (see forces.h).
 *
 * Every pair, in parallel by blocks of particles, writes its own result; then every particle
 * sums its contacts in the order of the (sorted) pair list, so the sums do not depend on the
 * thread count or on when the list was rebuilt; then local damping (Hanley 2019, eq 21, Šmilauer and Chareyre 2015
 * eq 1.9). Pairs that do not touch hold exact zeros and add nothing. */
#include "sim/internal/forces.h"

#include <math.h>
#include <string.h>

#include "laws/tangential_history.h"
#include "sim/internal/bonds.h"
#include "sim/internal/clumps.h"
#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/exact.h"
#include "sim/internal/integrate.h"
#include "sim/internal/par.h"
#include "sim/internal/roll.h"

/* Contacts handed to the law at once (the block entry point). */
#define LAW_CHUNK 32
/* Pairs a particle's sum gathers at once (the touching ones of up to this many). */
#define SUM_GATHER 32

typedef struct {
    size_t count;
    int bad;          /* a pair overlapped beyond the guard's limit */
    double worst;     /* the largest delta / r_min of the block's pairs in this evaluation */
    size_t worst_pair;/* and its pair index */
    dem_pair p[LAW_CHUNK];
    dem_contact_in c[LAW_CHUNK];
    dem_contact_rec *h[LAW_CHUNK];
    dem_contact_out *o[LAW_CHUNK];
} law_chunk;

static void chunk_flush(const dem_law *law, law_chunk *k)
{
    if (k->count) dem_law_eval_block(law, k->count, k->p, k->c, k->h, k->o);
    k->count = 0;
}

/* Adhesive laws (dmt, jkr): the law's work as a contact forms or breaks, in the kick convention
 * of the books (the force of a step acts over the half steps around it, and the normal elastic
 * energy is the potential U of the frame's contacts). A contact that forms at overlap delta with
 * elastic force F has put U(delta) into the books' potential and 1/2 dt F v_n into the kinetic
 * energy (the second half kick; v_n = v_ij . n, > 0 separating): the law's work is
 * U(delta) + 1/2 dt v_n F (for jkr mostly the neck's formation, -3/5 pi gamma a_z^2, a loss;
 * for dmt, whose U is continuous, only the half kick over the step where the force jumps).
 * A contact that breaks after its last evaluation at delta_k (force F_k), now at delta: the
 * potential U(delta_k) goes, and F_k's second half kick moves F_k (delta_k - delta)/2 into the
 * kinetic energy: the law's work is -U(delta_k) - F_k (delta - delta_k)/2. */
/* (The pair and the contact go by value: their addresses would keep the pair pass's locals in
 * memory for every contact.) */
static double adh_formed(const dem_law *law, dem_pair p, double delta, double vn)
{
    double fe, s;
    law->normal->eval(&p, delta, &fe, &s);
    return law->normal->energy(&p, delta) + 0.5 * law->hdt * vn * fe;
}

static double adh_broken(const dem_law *law, dem_pair p, const dem_contact_rec *h, const dem_contact_out *o, double delta)
{
    double fk = o->fn - h->fdn; /* the elastic part */
    return -law->normal->energy(&p, o->delta) - 0.5 * fk * (delta - o->delta);
}

/* Whether a JKR contact that formed still holds at overlap delta < 0 (its neck, down to delta_c). */
static int neck_holds(const dem_law *law, dem_pair p, double delta) { return delta > law->normal->neck(&p); }

/* Pair pi at the new positions: its geometry, and if it touches, its place in the chunk for the
 * law (the caller flushes it when full). Returns the friction (J) its contact gave up if it was
 * lost in this step, else 0; an adhesive law's work as the contact formed or broke goes to *adh. */
static double pair_geometry(const dem_sim *sim, size_t pi, const dem_law *law, law_chunk *k, double *adh)
{
    const sim_particles *P = &sim->p;
    dem_contact_rec *np = &sim->c.pairs[pi];
    dem_contact_out *o = &sim->c.out[pi];
    uint32_t i = np->i, j = np->j;
    dem_vec3 xj = P->x[j];
    if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
    dem_vec3 d = dem_v3_sub(P->x[i], xj);
    double rs = P->r[i] + P->r[j], d2 = dem_v3_norm2(d);
    dem_contact_in c;
    dem_pair p;
    /* apart, or touching with an overlap that rounds to 0 (d2 just under rs^2 whose root rounds up to
     * rs: an exact contact, as --minimize leaves them): no force, and a frame's contacts have overlap
     * > 0 (issue 28) */
    double dist = d2 < rs * rs ? sqrt(d2) : rs; /* most pairs are apart: no root taken */
    if (!(rs - dist > 0.0)) {
        if (!(sim->c.ptouch[pi] | np->flags)) return 0.0; /* apart, as at the last step: most pairs */
        int neck = law->normal->neck && (np->flags & DEM_REC_TOUCH); /* jkr: a neck may hold it */
        if (neck) sim_pair_properties(sim, &p, P->mat[i], P->mat[j], np);
        if (!neck || !neck_holds(law, p, rs - sqrt(d2))) {
            if (sim->c.ptouch[pi]) { /* results of the last step: now exact zeros */
                if (law->cap_adh != 0.0 && law->hdt != 0.0) {
                    if (!neck) sim_pair_properties(sim, &p, P->mat[i], P->mat[j], np);
                    *adh += adh_broken(law, p, np, o, rs - sqrt(d2));
                }
                sim->c.ptouch[pi] = 0;
                memset(o, 0, sizeof *o);
            }
            if (!np->flags) return 0.0;
            return dem_contact_forget(np, sim->hdt, adh); /* contact lost: the history goes with it */
        }
    } else {
        sim_pair_properties(sim, &p, P->mat[i], P->mat[j], np);
    }
    c.d = d;
    if (d2 >= rs * rs) dist = sqrt(d2); /* a jkr neck held apart */
    c.delta = rs - dist;
    double rmin = P->r[i] < P->r[j] ? P->r[i] : P->r[j];
    if (c.delta > sim->g.ovl * rmin) k->bad = 1; /* guard.c reports it */
    if (c.delta > k->worst * rmin) { /* the run's largest overlap (dem_guard_track_overlaps): rarely true */
        k->worst = c.delta / rmin;
        k->worst_pair = pi;
    }
    c.n = dem_v3_scale(c.d, 1.0 / dist);
    c.vij = dem_v3_sub(P->v[i], P->v[j]);
    /* lever arms to the contact point in the middle of the overlap */
    double li = P->r[i] - 0.5 * c.delta, lj = P->r[j] - 0.5 * c.delta;
    c.wterm = dem_v3_add(dem_v3_scale(P->w[i], li), dem_v3_scale(P->w[j], lj));
    c.half_normal = sim->integ->half_normal;
    c.chord = 1;
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(P->w[i], P->w[j]), c.n);
    if (sim->b.deforming) { /* the field's velocity (its chord over the step) and spin (cell.h) */
        c.vij = dem_v3_add(c.vij, dem_m3_mulv(sim->b.chord, d));
        c.wterm = dem_v3_madd(c.wterm, sim->b.wl, li + lj);
        c.spin += dem_v3_dot(sim->b.wl, c.n);
    }
    sim->c.ptouch[pi] = 1;
    if (!(np->flags & DEM_REC_TOUCH) && law->cap_adh != 0.0 && law->hdt != 0.0) *adh += adh_formed(law, p, c.delta, dem_v3_dot(c.vij, c.n));
    if (law->inline_history) { /* the common law, inline: no call per contact */
        dem_history_eval(law, &p, &c, np, o, 0.0);
        return 0.0;
    }
    size_t n = k->count++; /* any other law: in chunks, through its block entry point */
    k->p[n] = p;
    k->c[n] = c;
    k->h[n] = np;
    k->o[n] = o;
    return 0.0;
}

/* One block of pairs: each touching pair's pending accounting into bsum[b] (account), then, if
 * eval, its force at the new positions. The flush and the force pass both come here, so the
 * books are the same bits whichever of them does it. The friction of contacts lost goes to
 * blost[b] (eval). */
static void pair_block(dem_sim *sim, size_t b, int account, int eval)
{
    const dem_vec3 *v = books_v(sim), *w = books_w(sim);
    double s[5] = {0.0, 0.0, 0.0, 0.0, 0.0}, lost = 0.0, adh = 0.0;
    dem_law law;
    dem_law_init(&law, &sim->st, sim->hdt);
    law_chunk k;
    k.count = 0;
    k.bad = 0;
    k.worst = 0.0;
    k.worst_pair = 0;
    /* each pair's accounting, then its geometry, in one loop (the records are read once); the law
     * evaluates the touching ones LAW_CHUNK at a time (each pair's accounting comes before its
     * evaluation, as it must) */
    for (size_t p = sim->c.pblk[b], end = sim->c.pblk[b + 1]; p < end; p++) {
        if (account && sim->c.ptouch[p]) {
            dem_contact_rec *np = &sim->c.pairs[p];
            s[4] += books_contact_energy(sim, v, w, np->i, 0, np->j, &sim->c.out[p], np, sim->h, 0, s);
        }
        if (!eval) continue;
        lost += pair_geometry(sim, p, &law, &k, &adh);
        if (k.count == LAW_CHUNK) chunk_flush(&law, &k);
    }
    chunk_flush(&law, &k);
    if (account) memcpy(sim->e.bsum[b], s, sizeof s);
    if (eval) {
        sim->e.blost[b] = lost;
        if (sim->e.badh) sim->e.badh[b] = adh;
        sim->g.bbad[b] = (uint8_t)k.bad;
        sim->g.bworst[b] = k.worst;
        sim->g.bworst_pair[b] = k.worst_pair;
    }
}

static PAR_RANGE void pair_blocks(dem_sim *sim, size_t lo, size_t hi, int account, int eval)
{
    for (size_t b = lo; b < hi; b++) pair_block(sim, b, account, eval);
}

typedef struct {
    dem_sim *sim;
    int account, eval;
} pair_pass_args;

static void pair_pass_share(void *ctx, size_t lo, size_t hi, int t)
{
    const pair_pass_args *a = ctx;
    (void)t;
    pair_blocks(a->sim, lo, hi, a->account, a->eval);
}

/* par.h: the work of blocks [0, k): their pairs, and half a pair's worth per particle. */
static size_t pair_pass_work(const void *wctx, size_t k)
{
    const dem_sim *sim = wctx;
    return sim->c.pblk[k] + k * (PAIR_BLOCK / 2);
}

void dem_forces_pair_pass(dem_sim *sim, int account, int eval)
{
    /* rolling and twisting (roll.h): the couples' accounting before this pass re-evaluates the
     * pairs, their evaluation after it (they need the forces); passes of their own, so that the
     * default pass stays as it was */
    if (sim->c.roll && account) dem_roll_pass(sim, 1);
    pair_pass_args a = {sim, account, eval};
    dem_par_for_work(sim->pool, sim->c.nblk, pair_pass_work, sim, pair_pass_share, &a); /* par.h: shares of equal work */
    if (sim->c.roll && eval) dem_roll_pass(sim, 0);
}

/* Wall slot `slot` at the new positions. Returns 1 if the contact was lost in this step (its
 * friction is in wlost[slot]); an adhesive law's work as it formed or broke goes to *adh. */
static int eval_wall(dem_sim *sim, size_t slot, double *adh)
{
    sim_store *st = &sim->c;
    uint32_t a = st->wowner[slot], k = st->wwall[slot];
    const dem_wall *wl = &sim->b.walls[k];
    const sim_particles *P = &sim->p;
    dem_vec3 n;
    double gap;
    int lost = 0;
    dem_law law;
    dem_law_init(&law, &sim->st, sim->hdt);
    dem_pair p;
    int near = wall_geometry(wl, P->x[a], &n, &gap);
    if (!near || gap >= P->r[a]) {
        int neck = near && law.normal->neck && (st->whist[slot].flags & DEM_REC_TOUCH); /* jkr: a neck may hold it */
        if (neck) sim_pair_properties(sim, &p, P->mat[a], wl->material, &st->whist[slot]);
        if (neck && neck_holds(&law, p, P->r[a] - gap)) goto touching;
        if (st->wtouch[slot]) { /* contact lost: the history goes with it (the constants stay) */
            if (law.cap_adh != 0.0 && law.hdt != 0.0) {
                sim_pair_properties(sim, &p, P->mat[a], wl->material, &st->whist[slot]);
                const dem_contact_out *o = &st->wout[slot];
                *adh += adh_broken(&law, p, &st->whist[slot], o, near ? P->r[a] - gap : o->delta);
            }
            sim->e.wlost[slot] = dem_contact_forget(&st->whist[slot], sim->hdt, adh);
            if (st->wroll) dem_roll_wall_lost(sim, slot);
            lost = sim->hdt != 0.0;
            memset(&st->wout[slot], 0, sizeof st->wout[slot]);
            st->wtouch[slot] = 0;
        }
        return lost;
    }
touching:;
    dem_contact_rec *h = &st->whist[slot];
    st->wtouch[slot] = 1;
    sim_pair_properties(sim, &p, P->mat[a], wl->material, h);
    dem_contact_in c;
    c.n = n;
    c.delta = P->r[a] - gap;
    c.d = dem_v3_scale(n, gap);
    dem_vec3 vw = wall_velocity_at(wl, wall_contact_point(sim, a, n, c.delta));
    c.vij = dem_v3_sub(P->v[a], vw);
    c.wterm = dem_v3_scale(P->w[a], P->r[a] - 0.5 * c.delta);
    c.half_normal = 0; /* walls: no half-step normal (as LAMMPS does for flat walls) */
    c.chord = 0;
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(P->w[a], wl->omega), n);
    if (sim->b.deforming) { /* the field carries the particle, not the wall (cell.h) */
        c.vij = dem_v3_add(c.vij, dem_m3_mulv(sim->b.cell.vgrad, dem_v3_sub(P->x[a], sim->b.cell.origin)));
        c.wterm = dem_v3_madd(c.wterm, sim->b.wl, P->r[a] - 0.5 * c.delta);
        c.spin += 0.5 * dem_v3_dot(sim->b.wl, n);
    }
    if (c.delta > sim->g.ovl * P->r[a]) sim->g.pbad[a] = 1; /* guard.c reports it (and the run stops) */
    if (law.cap_adh != 0.0 && law.hdt != 0.0 && !(h->flags & DEM_REC_TOUCH)) *adh += adh_formed(&law, p, c.delta, dem_v3_dot(c.vij, c.n));
    dem_law_eval(&law, &p, &c, h, &st->wout[slot]);
    if (st->wroll) dem_roll_wall(sim, &law, slot, &c, &p);
    return 0;
}

/* Local (non-viscous) damping of the total force and torque (Hanley 2019, eq 21; Šmilauer and Chareyre 2015, eq 1.9),
 * per component. Returns the power of the damping force (W). */
static double local_damping(const dem_sim *sim, size_t a, dem_vec3 *f, dem_vec3 *t)
{
    double g = sim->st.local_damping, power = 0.0;
    if (g == 0.0) return 0.0;
    for (int which = 0; which < 2; which++) {
        dem_vec3 *F = which ? t : f;
        dem_vec3 vel = which ? sim->p.w[a] : sim->p.v[a];
        double inv = which ? sim->p.inv_i[a] : sim->p.inv_m[a];
        for (int k = 0; k < 3; k++) {
            double fk = dem_v3_get(*F, k), vk = dem_v3_get(vel, k), d;
            if (sim->st.local_form == DEM_LOCAL_YADE) {
                /* sgn(F (v + a dt/2)): v's on-step estimate (Šmilauer and Chareyre 2015, eq 1.9) */
                double u = vk + 0.5 * sim->h * fk * inv;
                d = -g * fk * (fk * u > 0.0 ? 1.0 : fk * u < 0.0 ? -1.0 : 0.0);
            } else {
                d = -g * fabs(fk) * (vk > 0.0 ? 1.0 : vk < 0.0 ? -1.0 : 0.0); /* Hanley 2019, eq 21 */
            }
            dem_v3_set(F, k, fk + d);
            power += d * (sim->hdt != 0.0 ? vk + 0.5 * sim->h * (fk + d) * inv : vk);
        }
    }
    return power;
}

/* Particle a's force and torque: its pairs in list order (first those where it is j, which
 * receive -F), then its wall slots, evaluated here. Returns the wall contacts it lost. */
static int particle_forces(dem_sim *sim, size_t a)
{
    const sim_store *c = &sim->c;
    /* Adding 0.0 turns a -0.0 of gravity into +0.0: the sums below then never hold -0.0, so the
     * exact zeros of pairs that do not touch change nothing, whatever their sign. */
    dem_vec3 f = dem_v3_add(dem_v3_scale(sim->st.gravity, sim->p.m[a]), dem_v3_zero());
    dem_vec3 t = dem_v3_zero();
    double *ed = &sim->e.edis[a * EDIS];
    int lost = 0;
    double r = sim->p.r[a], adh = 0.0;
    /* Only the touching pairs, gathered without a branch per pair (a branch on touching is
     * mispredicted): the others hold exact zeros, which change no sum that does not hold -0.0. */
    uint32_t touch[SUM_GATHER];
    for (size_t e = c->jadj_start[a], end = c->jadj_start[a + 1]; e < end;) { /* j receives -F */
        size_t n = 0;
        for (size_t stop = end - e > SUM_GATHER ? e + SUM_GATHER : end; e < stop; e++) {
            uint32_t p = c->jadj[e];
            touch[n] = p;
            n += c->ptouch[p];
        }
        for (size_t k = 0; k < n; k++) {
            const dem_contact_out *o = &c->out[touch[k]];
            f = dem_v3_madd(f, dem_contact_force(o), -1.0);
            t = dem_v3_madd(t, dem_contact_moment(o), -(r - 0.5 * o->delta)); /* Vyas et al. 2025 Step 8 torque */
        }
    }
    for (size_t p = c->istart[a], end = c->istart[a + 1]; p < end;) {
        size_t n = 0;
        for (size_t stop = end - p > SUM_GATHER ? p + SUM_GATHER : end; p < stop; p++) {
            touch[n] = (uint32_t)p;
            n += c->ptouch[p];
        }
        for (size_t k = 0; k < n; k++) {
            const dem_contact_out *o = &c->out[touch[k]];
            f = dem_v3_madd(f, dem_contact_force(o), 1.0);
            t = dem_v3_madd(t, dem_contact_moment(o), -(r - 0.5 * o->delta));
        }
    }
    for (size_t q = c->wstart[a]; q < c->wstart[a + 1]; q++) {
        lost += eval_wall(sim, q, &adh);
        if (!c->wtouch[q]) continue;
        const dem_contact_out *o = &c->wout[q];
        f = dem_v3_add(f, dem_contact_force(o));
        t = dem_v3_add(t, dem_v3_scale(dem_contact_moment(o), -(r - 0.5 * o->delta)));
    }
    if (sim->bd.n) f = dem_bonds_add(sim, a, f); /* bonds.c: after the contacts, in bond order */
    if (c->roll_on) t = dem_roll_torque(sim, a, t); /* rolling and twisting couples (roll.h) */
    /* a fixed particle is never kicked: local damping does not act on it */
    double p = sim->p.flags[a] & (DEM_PARTICLE_FIXED | SIM_PARTICLE_MEMBER) ? 0.0 : local_damping(sim, a, &f, &t); /* a member: its clump is damped */
    ed[EDIS_LOCAL] = sim->hdt != 0.0 ? -p * sim->hdt : -p; /* setup: the power */
    if (sim->e.wadh) sim->e.wadh[a] = adh;
    sim->p.f[a] = f;
    sim->p.t[a] = t;
    if (sim->ex.on) dem_exact_kick(sim, a);
    return lost;
}

/* The power of the drives of the driven particles, in particle order (W): a drive holds its
 * particle's velocities against the total force and torque on it (gravity included), so it puts
 * -(F . v + T . w) into the system; with the kinetic and potential energy of the particle that
 * closes the books like a moving wall's work. */
static double drive_power(const dem_sim *sim)
{
    const sim_particles *P = &sim->p;
    double pw = 0.0;
    for (size_t a = 0; a < P->n; a++)
        if ((P->flags[a] & DEM_PARTICLE_FIXED) && dem_particle_driven(P, a))
            pw -= dem_v3_dot(P->f[a], P->v[a]) + dem_v3_dot(P->t[a], P->w[a]);
    return pw;
}

/* The particles' local damping and drag, the work of the drives, and the walls' forces, torques and work, summed in
 * particle order (the contacts' own dissipation is booked by the full-step accounting). */
static void totals(dem_sim *sim)
{
    size_t nw = sim->b.nwalls;
    if (sim->hdt != 0.0) {
        for (size_t a = 0; a < sim->p.n; a++) {
            const double *ed = &sim->e.edis[a * EDIS];
            sim->e.energy[DEM_E_DISS_LOCAL] += ed[EDIS_LOCAL];
            sim->e.energy[DEM_E_DISS_DRAG] += ed[EDIS_DRAG];
        }
        if (sim->e.badh) { /* the law's work as contacts formed or broke (pairs by blocks, then walls) */
            double w = 0.0;
            for (size_t b = 0; b < sim->c.nblk; b++) w += sim->e.badh[b];
            for (size_t a = 0; a < sim->p.n; a++) w += sim->e.wadh[a];
            sim->e.energy[DEM_E_WORK_LAW] += w;
        }
    }
    if (sim->p.nfixed) sim->e.energy[DEM_E_WORK_EXTERNAL] += drive_power(sim) * sim->hdt;
    if (!nw) return;
    dem_wall *walls = sim->b.walls;
    for (size_t k = 0; k < nw; k++) {
        walls[k].force = dem_v3_zero();
        walls[k].torque = dem_v3_zero();
    }
    double *work = sim->b.wwork;
    for (size_t k = 0; k < nw; k++) work[k] = 0.0;
    const sim_store *c = &sim->c;
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        size_t a = c->wowner[q], k = c->wwall[q];
        dem_wall *wl = &walls[k];
        const dem_contact_out *o = &c->wout[q];
        dem_vec3 fc = dem_contact_force(o); /* on the particle */
        dem_vec3 cp = wall_contact_point(sim, a, o->n, o->delta);
        wl->force = dem_v3_sub(wl->force, fc);
        wl->torque = dem_v3_sub(wl->torque, dem_v3_cross(dem_v3_sub(cp, wl->point), fc));
        work[k] += dem_v3_dot(fc, wall_velocity_at(wl, cp)) * sim->hdt;
    }
    if (c->wroll) dem_roll_wall_totals(sim, work);
    for (size_t k = 0; k < nw; k++) {
        walls[k].work += work[k];
        sim->e.energy[DEM_E_WORK_WALLS] += work[k];
    }
}

/* The sums of particles [lo, hi): the wall contacts lost in *lost, the particles past the overlap
 * guard in *nbad (added to what they hold). */
static PAR_RANGE void particle_forces_range(dem_sim *sim, size_t lo, size_t hi, size_t *lost, size_t *nbad)
{
    size_t l = 0, b = 0;
    for (size_t a = lo; a < hi; a++) {
        l += (size_t)particle_forces(sim, a);
        b += sim->g.pbad[a];
    }
    *lost += l;
    *nbad += b;
}

/* par.h: the work of particles [0, k): the pairs each sums (as i and as j), its wall slots, and
 * two pairs' worth of its own. */
static size_t particle_forces_work(const void *wctx, size_t k)
{
    const sim_store *c = &((const dem_sim *)wctx)->c;
    return c->istart[k] + c->jadj_start[k] + c->wstart[k] + 2 * k;
}

/* par.h: thread t's share, its counts in its partial. */
static void particle_forces_share(void *ctx, size_t lo, size_t hi, int t)
{
    dem_sim *sim = ctx;
    par_partial *p = &sim->part[t];
    p->count[0] = p->count[1] = 0;
    particle_forces_range(sim, lo, hi, &p->count[0], &p->count[1]);
}

/* Every contact's force at the new positions, then every particle's sum. The pair pass first does
 * the last step's pending full-step accounting of each pair (account; it reads the same records),
 * block by block. Returns the number of wall contacts lost in this step (their friction waits in
 * wlost; the pairs' in blost). */
static size_t force_passes(dem_sim *sim, int account)
{
    size_t n = sim->p.n, lost = 0, nbad = 0;
    sim->b.fab_ok = 0; /* the cell's sums over the contacts belong to these forces (cell.c) */
    dem_forces_pair_pass(sim, account, 1);
    if (account) dem_books_finish(sim);
    if (sim->bd.n) dem_bonds_eval(sim);
    dem_par_for_work(sim->pool, n, particle_forces_work, sim, particle_forces_share, sim); /* par.h; counts add up the same in any order */
    for (int t = 0; t < sim->threads; t++) {
        lost += sim->part[t].count[0];
        nbad += sim->part[t].count[1];
    }
    sim->g.nwbad = nbad;
    if (sim->cl) dem_clumps_gather(sim); /* the members' sums to their clumps (clumps.h) */
    return lost;
}

size_t dem_forces_compute(dem_sim *sim)
{
    sim->hdt = sim->h;
    size_t lost = force_passes(sim, sim->e.acct != ACCT_NONE);
    totals(sim);
    sim->forces_current = 1;
    return lost;
}

void dem_forces_setup(dem_sim *sim)
{
    size_t n = sim->p.n;
    sim->hdt = 0.0;
    for (size_t a = 0; a < n; a++) sim->e.edis[a * EDIS + EDIS_DRAG] = 0.0;
    force_passes(sim, 0);
    totals(sim);
    sim->forces_current = 1;
    sim->hdt = sim->h;
    double pl = 0.0;
    sim->e.setup_p[0] = dem_books_contacts_setup(sim);
    for (size_t a = 0; a < n; a++) pl += sim->e.edis[a * EDIS + EDIS_LOCAL];
    sim->e.setup_p[1] = pl;
    sim->e.setup_p[2] = dem_books_wall_power(sim);
    sim->e.setup_p[3] = sim->p.nfixed ? drive_power(sim) : 0.0;
    sim->e.setup_pending = 1;
}

void dem_forces_evaluate_only(dem_sim *sim)
{
    sim->hdt = 0.0;
    force_passes(sim, 0);
    sim->hdt = sim->h;
}
