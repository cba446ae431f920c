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
#include "sim/internal/dist.h"
#include "sim/internal/boundary.h"
#include "sim/internal/exact.h"
#include "sim/internal/guard.h"
#include "sim/internal/integrate.h"
#include "sim/internal/par.h"
#include "sim/internal/roll.h"

/* The per-contact steps of the pair pass stay in its loop: a call per contact keeps its values in
 * memory (docs/architecture.md, "What the split taught about speed"). */
#define PASS_INLINE static inline __attribute__((always_inline))
/* Contacts handed to the law at once (the block entry point). */
#define LAW_CHUNK 32

typedef struct {
    size_t count;
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

/* ---- one contact's life, the same for a particle pair and a wall slot ------------------------
 * At each evaluation the geometry (pair_contact, wall_contact) finds a contact apart or touching.
 * Apart: nothing happens to a contact that was apart (most pairs); a JKR neck may still hold one
 * that touched (then it is touching); else it is lost: its result becomes exact zeros and its
 * touch flag 0, the books take what it gave up (books_lost: an adhesive law's work as it broke,
 * the energy its spring held), and its history goes. Touching: it is marked, the books take an
 * adhesive law's work as it formed (books_formed), and the law evaluates it (the common law
 * inline, any other through its block entry point). The books see the contact only through
 * books.h's accumulator; the law only through laws.h. */
typedef struct {
    dem_contact_rec *h;
    dem_contact_out *o;
    uint8_t *touch;   /* 1 if it touched at the last evaluation */
    size_t at;        /* its place among the pairs or the wall slots */
    int wall;
} contact_ref;

/* The contact's pair properties (state.h). */
static void life_properties(const dem_sim *sim, contact_ref r, dem_pair *p)
{
    if (r.wall) sim_wall_properties(sim, p, r.at);
    else sim_pair_properties(sim, p, r.at);
}

enum { LIFE_TOUCH = 0, LIFE_APART, LIFE_LOST };

/* The geometry finds the contact apart at overlap delta <= 0 (may_neck 0: a wall out of reach,
 * delta the last evaluation's overlap). LIFE_TOUCH: a neck holds it (*p filled); LIFE_LOST: it
 * was lost now (the friction it gave up in *lost); LIFE_APART: nothing was there. */
static int life_apart(const dem_sim *sim, const dem_law *law, contact_ref r, double delta, int may_neck, dem_pair *p,
                      books_acc *acc, double *lost)
{
    if (!(*r.touch | r.h->flags)) return LIFE_APART;
    int neck = may_neck && law->normal->neck && (r.h->flags & DEM_REC_TOUCH); /* jkr: a neck may hold it */
    if (neck) {
        life_properties(sim, r, p);
        if (delta > law->normal->neck(p)) return LIFE_TOUCH;
    } else if (*r.touch && books_adhesive(law)) {
        life_properties(sim, r, p);
    }
    *lost = books_lost(acc, law, p, r.h, r.o, delta, *r.touch);
    if (*r.touch) { /* results of the last step: now exact zeros */
        *r.touch = 0;
        memset(r.o, 0, sizeof *r.o);
    }
    return LIFE_LOST;
}

/* The contact touches, with pair p and kinematics c: marked, booked if it formed now, and
 * evaluated: pairs (k, their chunk) by the common law inline or by chunks, walls (k NULL) at once
 * through the law's block entry point. */
PASS_INLINE void life_touch(const dem_law *law, contact_ref r, const dem_pair *p, const dem_contact_in *c, books_acc *acc,
                            law_chunk *k)
{
    *r.touch = 1;
    if (!(r.h->flags & DEM_REC_TOUCH)) books_formed(acc, law, *p, c);
    if (!k) { /* walls: through the registry (a second inline copy of the law would make the
               * compiler call the pairs' out of line) */
        dem_law_eval(law, p, c, r.h, r.o);
        return;
    }
    if (law->inline_history) { /* the common law, inline: no call per contact */
        dem_history_eval(law, p, c, r.h, r.o, 0.0);
        return;
    }
    size_t n = k->count++; /* any other law: in chunks, through its block entry point */
    k->p[n] = *p;
    k->c[n] = *c;
    k->h[n] = r.h;
    k->o[n] = r.o;
}

/* Pair pi at the new positions: its geometry, then its life (the caller flushes the chunk k when
 * full). */
PASS_INLINE void pair_contact(const dem_sim *sim, size_t pi, const dem_law *law, law_chunk *k, books_acc *acc, guard_acc *g)
{
    const sim_particles *P = &sim->p;
    dem_contact_rec *np = &sim->c.pairs[pi];
    uint32_t i = np->i, j = np->j;
    dem_vec3 xj = P->x[j];
    if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
    dem_vec3 d = dem_v3_sub(P->x[i], xj);
    double rs = P->r[i] + P->r[j], d2 = dem_v3_norm2(d);
    contact_ref r = {np, &sim->c.out[pi], &sim->c.ptouch[pi], pi, 0};
    dem_pair p;
    /* apart, or touching with an overlap that rounds to 0 (d2 just under rs^2 whose root rounds up to
     * rs: an exact contact, as --minimize leaves them): no force, and a frame's contacts have overlap
     * > 0 (issue 28) */
    double dist = d2 < rs * rs ? sqrt(d2) : rs; /* most pairs are apart: no root taken */
    if (!(rs - dist > 0.0)) {
        if (!(*r.touch | np->flags)) return; /* apart, as at the last step: most pairs */
        dist = sqrt(d2);
        double lost;
        if (life_apart(sim, law, r, rs - dist, 1, &p, acc, &lost) != LIFE_TOUCH) return; /* a neck holds it, or lost */
    } else {
        sim_pair_properties(sim, &p, pi);
    }
    dem_contact_in c;
    c.d = d;
    c.delta = rs - dist;
    guard_pair(sim, g, pi, c.delta, P->r[i] < P->r[j] ? P->r[i] : P->r[j]);
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
    life_touch(law, r, &p, &c, acc, k);
}

/* Pairs p0 .. p0 + n - 1, in order: each touching pair's pending accounting (account), then, if
 * eval, its force at the new positions; their books added to *acc_out, their guard to *g_out. A
 * block of the pass and a run of the pairs across a process's cuts both come here. One copy, out
 * of line: a second inline copy of the pair's evaluation (for the pairs across the cuts) made gcc
 * call the law's and the books' per-contact code out of line, 8.5% more instructions per step in
 * one process (cachegrind, the bench bed); a list of indices instead of a range cost 0.6%. */
static __attribute__((noinline)) void pass_pairs(dem_sim *sim, size_t p0, size_t n, int account, int eval, books_acc *acc_out,
                                                 guard_acc *g_out)
{
    const dem_vec3 *v = books_v(sim), *w = books_w(sim);
    books_acc acc = *acc_out; /* local while the pairs run: kept in registers */
    guard_acc g = *g_out;
    dem_law law;
    dem_law_init(&law, &sim->st, sim->hdt);
    law_chunk k;
    k.count = 0;
    /* each pair's accounting, then its geometry, in one loop (the records are read once); the law
     * evaluates the touching ones LAW_CHUNK at a time (each pair's accounting comes before its
     * evaluation, as it must) */
    for (size_t p = p0, end = p0 + n; p < end; p++) {
        if (account && sim->c.ptouch[p]) books_pending(sim, &acc, v, w, &sim->c.pairs[p], &sim->c.out[p]);
        if (!eval) continue;
        pair_contact(sim, p, &law, &k, &acc, &g);
        if (k.count == LAW_CHUNK) chunk_flush(&law, &k);
    }
    chunk_flush(&law, &k);
    *acc_out = acc;
    *g_out = g;
}

/* One block of pairs (pass_pairs). The flush and the force pass both come here, so the books are
 * the same bits whichever of them does it. */
static void pair_block(dem_sim *sim, size_t b, int account, int eval)
{
    books_acc acc;
    books_acc_zero(&acc);
    guard_acc g;
    guard_acc_zero(&g);
    pass_pairs(sim, sim->c.pblk[b], sim->c.pblk[b + 1] - sim->c.pblk[b], account, eval, &acc, &g);
    books_block(sim, b, &acc, account, eval);
    if (eval) guard_block(sim, b, &g);
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

/* In a group of processes (dist.h), the pairs of other processes' blocks whose j is one of this
 * process's particles: evaluated as their owner evaluates them, from the same inputs, so that
 * their records stay the owner's bits and this process's sums have every contact of its
 * particles; their books and guards are the owner's to count and are dropped here. */
static void foreign_pairs(dem_sim *sim, int account, int eval)
{
    books_acc acc;
    books_acc_zero(&acc);
    guard_acc g;
    guard_acc_zero(&g);
    const uint32_t *f = sim->dist->foreign;
    for (size_t e = 0, n = sim->dist->nforeign; e < n;) { /* the list (sorted) in runs of consecutive pairs */
        size_t run = 1;
        while (e + run < n && f[e + run] == f[e] + run) run++;
        pass_pairs(sim, f[e], run, account, eval, &acc, &g);
        e += run;
    }
}

void dem_forces_pair_pass(dem_sim *sim, int account, int eval)
{
    /* rolling and twisting (roll.h): the couples' accounting before this pass re-evaluates the
     * pairs, their evaluation after it (they need the forces); passes of their own, so that the
     * default pass stays as it was */
    if (sim->c.roll && account) dem_roll_pass(sim, 1);
    pair_pass_args a = {sim, account, eval};
    size_t b0, b1;
    dist_blocks(sim, &b0, &b1); /* dist.h: all blocks in one process */
    dem_par_for_work_range(sim->pool, b0, b1, pair_pass_work, sim, pair_pass_share, &a); /* par.h: shares of equal work */
    if (sim->dist) foreign_pairs(sim, account, eval);
    if (sim->c.roll && eval) dem_roll_pass(sim, 0);
    dem_books_blocks(sim, account, eval); /* books.h: the blocks' sums, over every process's (dist.h) */
}

/* Wall slot `slot` at the new positions: its geometry, then its life (the books of particle a's
 * walls in acc). Returns 1 if the contact was lost in a step (its friction is in wlost[slot]). */
static int wall_contact(dem_sim *sim, const dem_law *law, size_t slot, books_acc *acc)
{
    sim_store *st = &sim->c;
    uint32_t a = st->wowner[slot], kw = st->wwall[slot];
    const dem_wall *wl = &sim->b.walls[kw];
    const sim_particles *P = &sim->p;
    contact_ref r = {&st->whist[slot], &st->wout[slot], &st->wtouch[slot], slot, 1};
    dem_vec3 n = dem_v3_zero();
    double gap = INFINITY; /* on the axis of a cylinder: no normal, out of reach */
    dem_pair p;
    int near = wall_geometry(wl, P->x[a], &n, &gap);
    if (!near || gap >= P->r[a]) {
        double lost;
        int life = life_apart(sim, law, r, near ? P->r[a] - gap : r.o->delta, near, &p, acc, &lost);
        if (life == LIFE_APART) return 0;
        if (life == LIFE_LOST) {
            books_wall_lost(sim, slot, lost);
            if (st->wroll) dem_roll_wall_lost(sim, slot);
            return sim->hdt != 0.0;
        }
    } else {
        sim_wall_properties(sim, &p, slot);
    }
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
    guard_wall(sim, a, c.delta); /* guard.c reports it (and the run stops) */
    life_touch(law, r, &p, &c, acc, NULL);
    if (st->wroll) dem_roll_wall(sim, law, slot, &c, &p);
    return 0;
}

/* Local (non-viscous) damping of the total force and torque (Hanley 2019, eq 21; Šmilauer and Chareyre 2015, eq 1.9),
 * per component. Returns the power of the damping force (W). */
static double local_damping(const dem_sim *sim, size_t a, dem_vec3 *f, dem_vec3 *t)
{
    double power = 0.0;
    if (sim->st.local_damping == 0.0) return 0.0;
    for (int which = 0; which < 2; which++) {
        dem_vec3 *F = which ? t : f;
        dem_vec3 vel = which ? sim->p.w[a] : sim->p.v[a];
        double inv = which ? sim->p.inv_i[a] : sim->p.inv_m[a];
        for (int k = 0; k < 3; k++) {
            double fk = dem_v3_get(*F, k), vk = dem_v3_get(vel, k);
            double d = local_damping_term(&sim->st, fk, vk, vk + 0.5 * sim->h * fk * inv);
            dem_v3_set(F, k, fk + d);
            power += d * (sim->hdt != 0.0 ? vk + 0.5 * sim->h * (fk + d) * inv : vk);
        }
    }
    return power;
}

/* Particle a's force and torque: its pairs in list order (first those where it is j, which
 * receive -F), then its wall slots, evaluated here. Returns the wall contacts it lost. */
static int particle_forces(dem_sim *sim, const dem_law *law, size_t a)
{
    const sim_store *c = &sim->c;
    /* Adding 0.0 turns a -0.0 of gravity into +0.0: the sums below then never hold -0.0, so the
     * exact zeros of pairs that do not touch change nothing, whatever their sign. */
    dem_vec3 f = dem_v3_add(dem_v3_scale(sim->st.gravity, sim->p.m[a]), dem_v3_zero());
    dem_vec3 t = dem_v3_zero();
    int lost = 0;
    double r = sim->p.r[a];
    books_acc acc; /* its wall contacts' */
    books_acc_zero(&acc);
    /* Every pair in the list, touching or not: a pair apart holds exact zeros, which change no sum
     * that holds no -0.0. Gathering only the touching ones first (a branch-free compaction over the
     * touch flags, 18aa15e) executed 1% fewer instructions but ran 7.5% slower (tools/bench/ab.sh,
     * 2026-11-27): the lines are read in order and prefetched; the gathered indices are not. */
    for (size_t e = c->jadj_start[a]; e < c->jadj_start[a + 1]; e++) { /* j receives -F */
        const dem_contact_out *o = &c->out[c->jadj[e]];
        f = dem_v3_madd(f, dem_contact_force(o), -1.0);
        t = dem_v3_madd(t, dem_contact_moment(o), -(r - 0.5 * o->delta)); /* Vyas et al. 2025 Step 8 torque */
    }
    for (size_t p = c->istart[a]; p < c->istart[a + 1]; p++) {
        const dem_contact_out *o = &c->out[p];
        f = dem_v3_madd(f, dem_contact_force(o), 1.0);
        t = dem_v3_madd(t, dem_contact_moment(o), -(r - 0.5 * o->delta));
    }
    for (size_t q = c->wstart[a]; q < c->wstart[a + 1]; q++) {
        lost += wall_contact(sim, law, q, &acc);
        if (!c->wtouch[q]) continue;
        const dem_contact_out *o = &c->wout[q];
        f = dem_v3_add(f, dem_contact_force(o));
        t = dem_v3_add(t, dem_v3_scale(dem_contact_moment(o), -(r - 0.5 * o->delta)));
    }
    if (sim->bd.n) f = dem_bonds_add(sim, a, f); /* bonds.c: after the contacts, in bond order */
    if (c->roll_on) t = dem_roll_torque(sim, a, t); /* rolling and twisting couples (roll.h) */
    /* a fixed particle is never kicked: local damping does not act on it */
    double p = sim->p.flags[a] & (DEM_PARTICLE_FIXED | SIM_PARTICLE_MEMBER) ? 0.0 : local_damping(sim, a, &f, &t); /* a member: its clump is damped */
    books_particle(sim, a, p, &acc);
    sim->p.f[a] = f;
    sim->p.t[a] = t;
    if (sim->ex.on) dem_exact_kick(sim, a);
    return lost;
}

/* The power of the drives of driven particles [p0, p1), added to *pw in particle order (W): a
 * drive holds its particle's velocities against the total force and torque on it (gravity
 * included), so it puts -(F . v + T . w) into the system; with the kinetic and potential energy
 * of the particle that closes the books like a moving wall's work. */
static void drive_power_run(const dem_sim *sim, size_t p0, size_t p1, double *pw)
{
    const sim_particles *P = &sim->p;
    for (size_t a = p0; a < p1; a++)
        if ((P->flags[a] & DEM_PARTICLE_FIXED) && dem_particle_driven(P, a))
            *pw -= dem_v3_dot(P->f[a], P->v[a]) + dem_v3_dot(P->t[a], P->w[a]);
}

static double drive_power(const dem_sim *sim)
{
    double pw = 0.0;
    drive_power_run(sim, 0, sim->p.n, &pw);
    return pw;
}

/* A step's totals as they run (sim->b.tsum): the books' per-particle sums and the drives' power,
 * then per wall its force (nw vectors), torque (nw vectors) and work (nw doubles). */
typedef struct {
    books_run books;
    double drive;
} totals_head;

static dem_vec3 *totals_force(double *ts) { return (dem_vec3 *)(ts + sizeof(totals_head) / sizeof(double)); }
static dem_vec3 *totals_torque(double *ts, size_t nw) { return totals_force(ts) + nw; }
static double *totals_work(double *ts, size_t nw) { return (double *)(totals_torque(ts, nw) + nw); }

size_t dem_forces_totals_size(size_t nwalls) { return sizeof(totals_head) + nwalls * (2 * sizeof(dem_vec3) + sizeof(double)); }

/* dist.h's chain: the wall slots' forces, torques and work in slot order, then the particles'
 * drives and books in particle order, over this process's slots and particles (all of them
 * unless it steps its own). */
static void totals_run(dem_sim *sim, void *acc)
{
    size_t nw = sim->b.nwalls, q0, q1, p0, p1;
    const dem_wall *walls = sim->b.walls;
    double *ts = acc;
    totals_head *h = acc;
    dem_vec3 *force = totals_force(ts), *torque = totals_torque(ts, nw);
    double *work = totals_work(ts, nw);
    const sim_store *c = &sim->c;
    dist_stepped(sim, &p0, &p1);
    dist_stepped_slots(sim, &q0, &q1);
    for (size_t q = q0; q < q1; q++) {
        if (!c->wtouch[q]) continue;
        size_t a = c->wowner[q], k = c->wwall[q];
        const dem_wall *wl = &walls[k];
        const dem_contact_out *o = &c->wout[q];
        dem_vec3 fc = dem_contact_force(o); /* on the particle */
        dem_vec3 cp = wall_contact_point(sim, a, o->n, o->delta);
        force[k] = dem_v3_sub(force[k], fc);
        torque[k] = dem_v3_sub(torque[k], dem_v3_cross(dem_v3_sub(cp, wl->point), fc));
        work[k] += dem_v3_dot(fc, wall_velocity_at(wl, cp)) * sim->hdt;
    }
    if (sim->p.nfixed) drive_power_run(sim, p0, p1, &h->drive);
    dem_books_totals_run(sim, p0, p1, &h->books);
}

/* dist.h's chain: the rolling and twisting couples of this process's wall slots on the walls. */
static void roll_totals_run(dem_sim *sim, void *acc)
{
    size_t nw = sim->b.nwalls, q0, q1;
    double *ts = acc;
    dist_stepped_slots(sim, &q0, &q1);
    dem_roll_wall_totals(sim, q0, q1, totals_torque(ts, nw), totals_work(ts, nw));
}

/* The particles' local damping and drag, the work of the drives, and the walls' forces, torques
 * and work, summed in slot and particle order (the contacts' own dissipation is booked by the
 * full-step accounting); in a group of processes stepping their own, each adds its own in turn. */
static void totals(dem_sim *sim)
{
    size_t nw = sim->b.nwalls;
    dem_wall *walls = sim->b.walls;
    double *ts = sim->b.tsum;
    totals_head *h = sim->b.tsum;
    dem_vec3 *force = totals_force(ts), *torque = totals_torque(ts, nw);
    double *work = totals_work(ts, nw);
    for (size_t k = 0; k < nw; k++) {
        force[k] = torque[k] = dem_v3_zero();
        work[k] = 0.0;
    }
    h->drive = 0.0;
    dem_books_totals_begin(sim, &h->books);
    dem_dist_chain(sim, ts, dem_forces_totals_size(nw), totals_run); /* dist.h: one process's order on any number */
    if (sim->c.wroll) dem_dist_chain(sim, ts, dem_forces_totals_size(nw), roll_totals_run); /* the couples after every slot's force */
    for (size_t k = 0; k < nw; k++) {
        walls[k].force = force[k];
        walls[k].torque = torque[k];
        walls[k].work += work[k];
    }
    dem_books_totals_end(sim, &h->books, h->drive, work);
}

/* The sums of particles [lo, hi): the wall contacts lost in *lost, the particles past the overlap
 * guard in *nbad (added to what they hold). */
static PAR_RANGE void particle_forces_range(dem_sim *sim, size_t lo, size_t hi, size_t *lost, size_t *nbad)
{
    size_t l = 0, b = 0;
    dem_law law;
    dem_law_init(&law, &sim->st, sim->hdt);
    for (size_t a = lo; a < hi; a++) {
        l += (size_t)particle_forces(sim, &law, a);
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
    size_t lost = 0, nbad = 0;
    sim->b.fab_ok = 0; /* the cell's sums over the contacts belong to these forces (cell.c) */
    dem_forces_pair_pass(sim, account, 1);
    if (account) dem_books_finish(sim);
    if (sim->bd.n) dem_bonds_eval(sim);
    size_t p0, p1;
    dist_particles(sim, &p0, &p1); /* dist.h: all particles in one process */
    dem_par_for_work_range(sim->pool, p0, p1, particle_forces_work, sim, particle_forces_share, sim); /* par.h; counts add up the same in any order */
    for (int t = 0; t < sim->threads; t++) {
        lost += sim->part[t].count[0];
        nbad += sim->part[t].count[1];
    }
    dem_dist_share_sums(sim, &lost, &nbad); /* dist.h: every process's particles, and the counts' sums */
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
    sim->hdt = 0.0;
    dem_dist_whole(sim); /* dist.h: a setup's books read every particle */
    books_setup_begin(sim);
    force_passes(sim, 0);
    totals(sim);
    sim->forces_current = 1;
    sim->hdt = sim->h;
    dem_dist_whole(sim); /* dist.h: the forces just taken (own stepping keeps them with their owners) */
    dem_books_setup(sim, dem_books_wall_power(sim), sim->p.nfixed ? drive_power(sim) : 0.0);
}

void dem_forces_evaluate_only(dem_sim *sim)
{
    sim->hdt = 0.0;
    force_passes(sim, 0);
    sim->hdt = sim->h;
}
