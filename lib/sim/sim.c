/* sim.c - the time integrator, contact evaluation and neighbour list of dem-step.
 *
 * One step (seed 001 Fig. 7 and §4, seed 000 eqs 1-12):
 *   1. half kick v += dt/2 F/m, w += dt/2 T/I; drag v *= gamma_d (seed 000 eq 25);
 *      drift x += dt v; orientation q <- dq(w dt) q (seed 002 §1.5.2); walls move; wrap.
 *   2. neighbour list rebuilt if a particle moved more than half the skin (seed 002 §1.1.3).
 *   3. forces at t + dt: every pair, in parallel, writes its own result; then every particle
 *      sums its contacts in the order of the (sorted) pair list, so the sums do not depend on
 *      the thread count or on when the list was rebuilt; local damping (seed 000 eq 21, seed 002
 *      eq 1.9).
 * Particles are kept in grid-cell order for memory locality, re-sorted every neighbor.sort_every
 * steps counted from step 0 (not from the start of a run), so the order — and with it every sum
 * — is the same however a run is split.
 *   4. half kick v += dt/2 F/m.
 * The improved velocity-Verlet (seed 001 §4, equations.md §1.5) evaluates the relative
 * velocity with the half-step normal and carries the tangential history through the half-step
 * plane into the full-step plane. */
#include "sim/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* flags of a contact: touching at the last evaluation, the Coulomb cap acted in it, its
 * tangential dashpot was not zero */
enum { PAIR_TOUCH = 1u, PAIR_SLIDING = 2u, PAIR_ETA_T = 4u };

/* A pair of particles within the neighbour cutoff. i has the smaller index; j is seen through
 * its periodic image x_j + H s. The history lives here between steps, and the part of the last
 * evaluation that only the energy accounting reads. Whatever follows from other fields is not
 * stored (the step is limited by memory traffic): |xi|^2, the spring energy 1/2 S_t |xi|^2,
 * the tangential dashpot force ft + S_t xi (if PAIR_ETA_T), the last step's spring energy. */
typedef struct {
    uint32_t i, j;
    int32_t s[3];
    uint32_t flags;
    double xi[3];     /* tangential spring displacement, m (seed 001 eq 14); 0 without history */
    double kn, kt;    /* hooke stiffnesses of this pair, N/m */
    double mstar, rstar; /* effective mass and radius, kg, m */
    double fdn;       /* last evaluation: normal dashpot force on i along n, N */
    double stt;       /* last evaluation: tangential stiffness S_t, N/m */
    double prev[4];   /* at the last full step (PREV_*): power of the tangential force ft . u_t and
                       * of its dashpot part (W), |xi|^2 (m^2), S_t (N/m); 0 without contact */
    double diss[3];   /* dissipated at this contact since it formed: friction, damp_n, damp_t, J */
} nbr_pair;

enum { PREV_PT = 0, PREV_PD = 1, PREV_XI2 = 2, PREV_STT = 3 };

/* What the force pass computed for one contact at this step: what the force sums read, one
 * cache line (zeros for a pair apart, so that it adds exact zeros). */
typedef struct {
    dem_vec3 n;       /* unit normal at t + dt, from j to i */
    dem_vec3 ft;      /* tangential force on i, N */
    double fn;        /* normal force on i along n, N (negative: attractive dashpot) */
    double delta;     /* overlap, m */
} contact_out;

/* The contact force on i and n x ft, whose torque on either particle is -(r - delta/2) n x ft. */
static inline dem_vec3 contact_force(const contact_out *o) { return dem_v3_madd(o->ft, o->n, o->fn); }
static inline dem_vec3 contact_moment(const contact_out *o) { return dem_v3_cross(o->n, o->ft); }

/* The derived parts of a contact's last evaluation (see nbr_pair). */
static inline double spring_xi2(const nbr_pair *h) { return dem_v3_norm2(dem_v3(h->xi[0], h->xi[1], h->xi[2])); }
static inline double spring_energy(double stt, double xi2) { return 0.5 * stt * xi2; }
static inline dem_vec3 dashpot_t(const nbr_pair *h, const contact_out *o)
{
    if (!(h->flags & PAIR_ETA_T)) return dem_v3_zero();
    return dem_v3_madd(o->ft, dem_v3(h->xi[0], h->xi[1], h->xi[2]), h->stt);
}

/* A contact lost: the friction its spring still held goes (returned, J; 0 in a setup evaluation,
 * hdt = 0, which books nothing), and the history with it. */
static double forget_contact(nbr_pair *h, double hdt)
{
    double lost = hdt != 0.0 ? -0.5 * hdt * h->prev[PREV_PT] + spring_energy(h->prev[PREV_STT], h->prev[PREV_XI2]) : 0.0;
    memset(h->prev, 0, sizeof h->prev);
    h->flags = 0;
    h->xi[0] = h->xi[1] = h->xi[2] = 0.0;
    h->diss[0] = h->diss[1] = h->diss[2] = 0.0;
    h->fdn = h->stt = 0.0;
    return lost;
}


/* Material-pair constants (index a * nmat + b). */
typedef struct {
    double estar, gstar, gstar_l, mu, beta;
} mat_pair;

struct dem_sim {
    dem_settings st;
    int threads;
    double dt;
    uint64_t step;
    double time;
    size_t n;
    /* particles */
    dem_vec3 *x, *v, *w, *f, *t;
    dem_quat *q;
    double *r, *m, *inertia;
    uint32_t *mat, *flags, *group;
    uint64_t *id;
    int32_t (*image)[3];
    /* materials */
    size_t nmat;
    dem_material *materials;
    mat_pair *mp;
    /* walls */
    size_t nwalls;
    dem_wall *walls;
    double *wwork;          /* per wall: work of this step, J */
    /* Particle-wall slots, like the neighbour list: one per particle and wall within the skin at
     * the last rebuild (no other wall can touch the particle before the next one), in particle
     * then wall order; particle a owns slots wstart[a] .. wstart[a+1]-1. */
    size_t nwslots, cap_wslots;
    size_t *wstart;         /* n + 1 */
    uint32_t *wowner;       /* per slot: the particle */
    uint32_t *wwall;        /* per slot: the wall */
    nbr_pair *whist;        /* per slot: history, same layout as pairs */
    contact_out *wout;      /* per slot: the result of the last evaluation */
    uint8_t *wtouch;        /* per slot: 1 if the particle touched the wall at the last evaluation */
    dem_vec3 *wall_build;   /* wall points at the last rebuild */
    /* periodic cell */
    dem_cell cell;
    int periodic[3];
    dem_mat3 hinv;
    /* neighbour list */
    double skin, rmax;
    nbr_pair *pairs;
    size_t npairs, cap_pairs;
    contact_out *out;       /* per pair: the last evaluation's result (64-byte aligned) */
    double (*bsum)[5];      /* per block of particles: its pairs' part of the deferred full-step accounting
                             * (friction, damp_n, damp_t, law, normal-dashpot power) */
    size_t *pblk;           /* pairs pblk[b] .. pblk[b+1]-1 have i in block b (PAIR_BLOCK particles) */
    size_t nblk;            /* blocks: ceil(n / PAIR_BLOCK) */
    uint8_t *ptouch;        /* 1 if pair p touched at the last evaluation */
    size_t cap_out;
    /* Each particle sums its pairs in list order: first those where it is j (i < j: earlier in the
     * list sorted by i), from jadj, then its own i-range of the list, pairs istart[a] ..
     * istart[a+1]-1 (read in place: sequential). i < j in every pair: no particle reaches its
     * own periodic image (dem_sim_new refuses a cell narrower than the cutoff). */
    uint32_t *jadj;
    size_t *jadj_start, *istart;
    size_t cap_adj;
    dem_vec3 *x_build;      /* positions at the last rebuild */
    int32_t (*wrapped)[3];  /* images crossed by each particle in this step's wrap */
    double *inv_m, *inv_i;  /* 1/m, 1/I */
    uint64_t sort_every;    /* steps between spatial sorts of the particles (0: never) */
    uint64_t sorted_step;   /* step of the last sort (UINT64_MAX: none yet) */
    uint64_t rebuilds;
    /* cell grid scratch */
    size_t *cell_start, *cell_items, cap_cells;
    /* energy */
    double energy[DEM_E_COUNT];
    double *edis;           /* per particle per step: local damping, drag (J); see EDIS */
    int forces_current;     /* forces in f, t belong to the current state */
    int setup_pending;      /* the setup forces' first half step is not in the accumulators yet */
    double setup_p[3];      /* their powers: normal dashpot, local damping, walls (W) */
    double *blost;          /* per block of particles: friction its pairs' contacts gave up as they were lost this step, J */
    double *wlost;          /* per particle-wall slot: the same */
    double hdt;             /* time step of history and energy updates: h, 0 in the setup call */
    /* The full-step accounting of the pairs of step k needs the velocities at t + dt, after the
     * second half kick; it is done in step k + 1's pair pass, which reads the same records anyway
     * (ACCT_SAVED), or by flush_accounting before anything that changes the pairs, dt or mode,
     * and before a store (ACCT_PENDING). Both run pair_block over the same fixed blocks of
     * particles (PAIR_BLOCK), so the books are the same bits whichever way, and however a run is
     * split. */
    int acct;               /* ACCT_NONE, ACCT_PENDING (full-step velocities in v, w) or ACCT_SAVED (in vf, wf) */
    dem_vec3 *vf, *wf;      /* full-step velocities of the last step, saved by the next first half kick */
    double pend_w[5];       /* the last step's wall contacts: friction, damp_n, damp_t, law, dashpot power */
    double pend_lost, pend_dl, pend_dw; /* its lost contacts' friction, local damping and wall work, J */
    int dir;                /* +1 forward in time; -1 reversed (Hanley eqs 17-20) */
    double h;               /* signed time step dir * dt: every update of the state uses it */
    /* exact (fixed-point) mode, Levesque and Verlet 1993: positions x = X qx and velocities
     * v = V qv (qv = qx / dt) on lattices, X and V integers, every kick an integer */
    int exact;
    double qx, qv;
    int64_t (*V)[3];        /* velocity in lattice units: X advances by V every step */
    int64_t (*K)[3];        /* the half kick of the current forces, lattice units */
    double *kc;             /* dt^2 / (2 m qx): force (N) to half kick (lattice units) */
    int64_t kg[3];          /* the half kick of gravity */
    int64_t (*wV)[3];       /* per wall: lattice steps per step */
    int64_t tick;           /* time = tick dt */
    uint8_t *kbad;          /* per particle: a kick left the lattice's range in this evaluation */
    size_t wbad;            /* 1 + the first wall whose point left the lattice's range (0: none) */
};

enum { ACCT_NONE = 0, ACCT_PENDING = 1, ACCT_SAVED = 2 };
/* Particles per block of the deferred accounting's sums. A block holds the pairs whose i is in
 * it; its touching pairs are the same, in the same (sorted) order, in any neighbour list, so the
 * sums do not depend on the thread count, on when the list was built, or on how a run is split. */
#define PAIR_BLOCK 64
#define EDIS 2 /* per particle per step: local damping, drag (J) */
#define EDIS_LOCAL 0
#define EDIS_DRAG 1

/* ================================================================ vector helpers */
/* Rotate a onto the plane normal to n, keeping its length (equations.md §0, RR). */
static inline dem_vec3 rotate_rescale(dem_vec3 a, dem_vec3 n)
{
    dem_vec3 p = dem_v3_madd(a, n, -dem_v3_dot(a, n));
    double p2 = dem_v3_norm2(p);
    if (p2 == 0.0) return dem_v3_zero();
    return dem_v3_scale(p, sqrt(dem_v3_norm2(a) / p2));
}

/* sin and cos of an angle that is almost always tiny (a rotation in one time step): the Taylor
 * series to 8th order is exact to below 1e-17 for |x| < 0.01 and avoids libm's sincos, which
 * dominated the step for dense packings. Its coefficients are multiplied, not divided: a
 * division costs as much as a dozen multiplications, and this runs for every contact. */
static inline double sinc_series(double x2) /* sin x / x from x^2 */
{
    return 1.0 - x2 * (1.0 / 6.0) * (1.0 - x2 * (1.0 / 20.0) * (1.0 - x2 * (1.0 / 42.0)));
}

static inline double cos_series(double x2) /* cos x from x^2 */
{
    return 1.0 - x2 * 0.5 * (1.0 - x2 * (1.0 / 12.0) * (1.0 - x2 * (1.0 / 30.0) * (1.0 - x2 * (1.0 / 56.0))));
}

static inline void small_sincos(double x, double *sn, double *cs)
{
    if (fabs(x) < 0.01) {
        *sn = x * sinc_series(x * x);
        *cs = cos_series(x * x);
    } else {
        *sn = sin(x);
        *cs = cos(x);
    }
}

/* Rotation by phi about unit n of a vector in the plane normal to n (seed 000 eq 9 with the R of
 * equations.md §4.3; seed 003 eq 23): cos phi f + sin phi n x f. */
static inline dem_vec3 twirl(dem_vec3 f, dem_vec3 n, double phi)
{
    if (phi == 0.0) return f;
    double sn, cs;
    small_sincos(phi, &sn, &cs);
    return dem_v3_add(dem_v3_scale(f, cs), dem_v3_scale(dem_v3_cross(n, f), sn));
}

static inline dem_vec3 cell_shift(const dem_sim *sim, const int32_t s[3])
{
    dem_vec3 d = dem_v3_zero();
    for (int a = 0; a < 3; a++)
        if (s[a]) d = dem_v3_madd(d, dem_m3_col(sim->cell.h, a), (double)s[a]);
    return d;
}

/* ================================================================ contact law */
typedef struct {
    dem_vec3 n;       /* unit normal at t + dt, from j to i */
    double delta;     /* overlap at t + dt, m */
    dem_vec3 d;       /* x_i - x_j(image) at t + dt (for the half-step normal) */
    dem_vec3 vij;     /* v_i - v_j (for walls: minus the wall's velocity at the contact), t + dt/2 */
    dem_vec3 wterm;   /* r_i' w_i + r_j' w_j: the rotation part of the contact velocity */
    double spin;      /* (w_i + w_j)/2 . n: the pair's spin rate about the normal, rad/s */
    int half_normal;  /* use the half-step normal for the velocities (improved, particle pairs) */
} contact_in;

/* Evaluate one contact at t + dt; updates the history in h, fills o. */
static void eval_contact(const dem_sim *sim, const dem_pair *p, const contact_in *c, nbr_pair *h, contact_out *o)
{
    const dem_settings *st = &sim->st;
    double hdt = sim->hdt, delta = c->delta;
    dem_vec3 n = c->n;
    o->delta = delta;
    o->n = n;
    dem_vec3 nh = n;
    if (c->half_normal && hdt != 0.0) { /* equations.md §1.5 step 3: n at t + dt/2 from x_ij(t+dt) - dt/2 v_ij */
        dem_vec3 dh = dem_v3_madd(c->d, c->vij, -0.5 * hdt);
        nh = dem_v3_scale(dh, 1.0 / dem_v3_norm(dh));
    }
    double vn = dem_v3_dot(c->vij, nh);                                          /* seed 001 eq 11 */
    dem_vec3 vt = dem_v3_sub(dem_v3_madd(c->vij, nh, -vn), dem_v3_cross(c->wterm, nh)); /* eq 12 */

    const dem_normal_model *nm = dem_normal_models[st->normal];
    const dem_damping_model *dm = dem_damping_models[st->damping];
    double fe, sn;
    nm->eval(p, delta, &fe, &sn);
    double eta_n = dm->eta_n(p, st, sn);
    double fn = fe - eta_n * vn;                                                 /* seed 001 eq 13 */
    o->fn = fn;
    h->fdn = -eta_n * vn;
    h->stt = 0.0;
    o->ft = dem_v3_zero();
    if (!dem_tangential_models[st->tangential]->uses_history) {
        h->flags = PAIR_TOUCH;
        h->xi[0] = h->xi[1] = h->xi[2] = 0.0;
        return;
    }
    double stt = dem_tangential_models[st->tangential]->stiffness(p, st->normal, delta);
    double eta_t = dm->eta_t(p, st, eta_n, sn, stt);
    dem_vec3 xi = (h->flags & PAIR_TOUCH) ? dem_v3(h->xi[0], h->xi[1], h->xi[2]) : dem_v3_zero();
    xi = rotate_rescale(xi, nh);                      /* seed 000 eqs 7-8; equations.md §1.5 step 5 */
    xi = twirl(xi, nh, c->spin * hdt);                /* seed 000 eq 9; seed 003 eq 23 */
    xi = dem_v3_madd(xi, vt, hdt);                    /* seed 001 eq 14 */
    dem_vec3 vts = vt;
    if (c->half_normal) {                             /* equations.md §1.5 step 6 */
        xi = rotate_rescale(xi, n);
        vts = rotate_rescale(vt, n);
    }
    dem_vec3 ft = dem_v3_sub(dem_v3_scale(xi, -stt), dem_v3_scale(vts, eta_t)); /* seed 001 eq 16 */
    double cap = p->mu * fabs(fn), ft2 = dem_v3_norm2(ft);
    uint32_t flags = PAIR_TOUCH;
    if (ft2 > cap * cap) { /* Coulomb: cap the force and reset the spring to match (seed 001 eqs 17-18) */
        double ftn = sqrt(ft2);                       /* only now: most contacts stick */
        flags |= PAIR_SLIDING;
        ft = ftn > 0.0 ? dem_v3_scale(ft, cap / ftn) : dem_v3_zero();
        xi = stt > 0.0 ? dem_v3_scale(dem_v3_madd(ft, vts, eta_t), -1.0 / stt) : dem_v3_zero();
    }
    o->ft = ft;
    h->xi[0] = xi.x;
    h->xi[1] = xi.y;
    h->xi[2] = xi.z;
    h->flags = flags | (eta_t != 0.0 ? PAIR_ETA_T : 0u);
    h->stt = stt;
}

static void pair_properties(const dem_sim *sim, dem_pair *p, uint32_t i, uint32_t j, const nbr_pair *np)
{
    const mat_pair *mp = &sim->mp[sim->mat[i] * sim->nmat + sim->mat[j]];
    (void)i, (void)j;
    p->mstar = np->mstar;
    p->rstar = np->rstar;
    p->estar = mp->estar;
    p->gstar = mp->gstar;
    p->gstar_l = mp->gstar_l;
    p->mu = mp->mu;
    p->beta = mp->beta;
    p->kn = np->kn;
    p->kt = np->kt;
}

/* Pair pi at the new positions. Returns the friction (J) its contact gave up if it was lost in
 * this step, else 0. */
static double eval_pair(const dem_sim *sim, size_t pi)
{
    nbr_pair *np = &sim->pairs[pi];
    contact_out *o = &sim->out[pi];
    uint32_t i = np->i, j = np->j;
    dem_vec3 xj = sim->x[j];
    if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
    contact_in c;
    c.d = dem_v3_sub(sim->x[i], xj);
    double rs = sim->r[i] + sim->r[j], d2 = dem_v3_norm2(c.d);
    if (d2 >= rs * rs) {
        if (sim->ptouch[pi]) { /* results of the last step: now exact zeros */
            sim->ptouch[pi] = 0;
            memset(o, 0, sizeof *o);
        }
        if (!np->flags) return 0.0;
        return forget_contact(np, sim->hdt); /* contact lost: the history goes with it */
    }
    dem_pair p;
    pair_properties(sim, &p, i, j, np);
    double dist = sqrt(d2);
    c.delta = rs - dist;
    c.n = dem_v3_scale(c.d, 1.0 / dist);
    c.vij = dem_v3_sub(sim->v[i], sim->v[j]);
    /* lever arms to the contact point in the middle of the overlap */
    double li = sim->r[i] - 0.5 * c.delta, lj = sim->r[j] - 0.5 * c.delta;
    c.wterm = dem_v3_add(dem_v3_scale(sim->w[i], li), dem_v3_scale(sim->w[j], lj));
    c.half_normal = sim->st.integrator == DEM_INTEGRATOR_VV_IMPROVED;
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(sim->w[i], sim->w[j]), c.n);
    eval_contact(sim, &p, &c, np, o);
    sim->ptouch[pi] = 1;
    return 0.0;
}

int dem_contact_probe(const dem_settings *st, const dem_material *a, const dem_material *b, double dt,
                      const dem_probe_state *in, double hist[3], int *sliding, dem_vec3 *fn, dem_vec3 *ft)
{
    dem_sim sim;
    memset(&sim, 0, sizeof sim);
    sim.st = *st;
    sim.dt = sim.hdt = dt;
    contact_in c;
    c.d = dem_v3_sub(in->xi, in->xj);
    double dist = dem_v3_norm(c.d);
    nbr_pair h;
    memset(&h, 0, sizeof h);
    if (dist >= in->ri + in->rj) {
        hist[0] = hist[1] = hist[2] = 0.0;
        *sliding = 0;
        *fn = *ft = dem_v3_zero();
        return 0;
    }
    dem_pair p;
    dem_pair_init(&p, st, in->ri, in->mi, a, in->rj, in->mj, b);
    h.kn = p.kn;
    h.kt = p.kt;
    h.flags = PAIR_TOUCH;
    memcpy(h.xi, hist, sizeof h.xi);
    c.delta = in->ri + in->rj - dist;
    c.n = dem_v3_scale(c.d, 1.0 / dist);
    c.vij = dem_v3_sub(in->vi, in->vj);
    c.wterm = dem_v3_add(dem_v3_scale(in->wi, in->ri - 0.5 * c.delta), dem_v3_scale(in->wj, in->rj - 0.5 * c.delta));
    c.half_normal = st->integrator == DEM_INTEGRATOR_VV_IMPROVED;
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(in->wi, in->wj), c.n);
    contact_out o;
    eval_contact(&sim, &p, &c, &h, &o);
    memcpy(hist, h.xi, sizeof h.xi);
    *sliding = (h.flags & PAIR_SLIDING) != 0;
    *fn = dem_v3_scale(o.n, o.fn);
    *ft = o.ft;
    return 1;
}

/* Signed geometry of particle a against wall k: fills the normal (from the wall to the
 * particle) and the centre's distance from the wall surface; returns 0 if no contact is
 * possible (particle on the wrong side of a cylinder axis, ...). */
static int wall_geometry(const dem_wall *wl, dem_vec3 x, dem_vec3 *n, double *gap)
{
    dem_vec3 rel = dem_v3_sub(x, wl->point);
    if (wl->kind == DEM_WALL_PLANE) {
        *n = wl->normal;
        *gap = dem_v3_dot(rel, wl->normal);
        return 1;
    }
    dem_vec3 radial = dem_v3_madd(rel, wl->normal, -dem_v3_dot(rel, wl->normal));
    double d = dem_v3_norm(radial);
    if (d == 0.0) return 0;
    dem_vec3 e = dem_v3_scale(radial, 1.0 / d);
    if (wl->flags & DEM_WALL_OUTSIDE) {
        *n = e;
        *gap = d - wl->radius;
    } else {
        *n = dem_v3_neg(e);
        *gap = wl->radius - d;
    }
    return 1;
}

/* The velocity of wall wl's surface at point x (its translation and its turn about its point). */
static inline dem_vec3 wall_velocity_at(const dem_wall *wl, dem_vec3 x)
{
    return dem_v3_add(wl->vel, dem_v3_cross(wl->omega, dem_v3_sub(x, wl->point)));
}

/* The contact point of particle a with normal n (from the wall) and overlap delta: in the middle
 * of the overlap. */
static inline dem_vec3 wall_contact_point(const dem_sim *sim, size_t a, dem_vec3 n, double delta)
{
    return dem_v3_madd(sim->x[a], n, -(sim->r[a] - 0.5 * delta));
}

/* Pair properties of particle a against wall k: the wall is rigid, infinitely heavy and large. */
static void wall_pair_properties(const dem_sim *sim, uint32_t a, uint32_t k, const nbr_pair *h, dem_pair *p)
{
    const mat_pair *mp = &sim->mp[sim->mat[a] * sim->nmat + sim->walls[k].material];
    p->mstar = sim->m[a];
    p->rstar = sim->r[a];
    p->estar = mp->estar;
    p->gstar = mp->gstar;
    p->gstar_l = mp->gstar_l;
    p->mu = mp->mu;
    p->beta = mp->beta;
    p->kn = h->kn;
    p->kt = h->kt;
}

/* Wall slot `slot` at the new positions. Returns 1 if the contact was lost in this step (its
 * friction is in wlost[slot]). */
static int eval_wall(const dem_sim *sim, size_t slot)
{
    uint32_t a = sim->wowner[slot], k = sim->wwall[slot];
    const dem_wall *wl = &sim->walls[k];
    dem_vec3 n;
    double gap;
    int lost = 0;
    if (!wall_geometry(wl, sim->x[a], &n, &gap) || gap >= sim->r[a]) {
        if (sim->wtouch[slot]) { /* contact lost: the history goes with it (the stiffnesses stay) */
            sim->wlost[slot] = forget_contact(&sim->whist[slot], sim->hdt);
            lost = sim->hdt != 0.0;
            memset(&sim->wout[slot], 0, sizeof sim->wout[slot]);
            sim->wtouch[slot] = 0;
        }
        return lost;
    }
    nbr_pair *h = &sim->whist[slot];
    contact_out *o = &sim->wout[slot];
    sim->wtouch[slot] = 1;
    dem_pair p;
    wall_pair_properties(sim, a, k, h, &p);
    contact_in c;
    c.n = n;
    c.delta = sim->r[a] - gap;
    c.d = dem_v3_scale(n, gap);
    dem_vec3 vw = wall_velocity_at(wl, wall_contact_point(sim, a, n, c.delta));
    c.vij = dem_v3_sub(sim->v[a], vw);
    c.wterm = dem_v3_scale(sim->w[a], sim->r[a] - 0.5 * c.delta);
    c.half_normal = 0; /* walls: no half-step normal (as LAMMPS does for flat walls) */
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(sim->w[a], wl->omega), n);
    eval_contact(sim, &p, &c, h, o);
    return 0;
}

/* ================================================================ neighbour list */
static int cmp_pair_key(const void *pa, const void *pb)
{
    const nbr_pair *a = pa, *b = pb;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (a->s[k] != b->s[k]) return a->s[k] < b->s[k] ? -1 : 1;
    return 0;
}

static dem_status grow_pairs(dem_sim *sim, size_t need, dem_error *err)
{
    if (need <= sim->cap_pairs) return DEM_OK;
    size_t cap = sim->cap_pairs ? sim->cap_pairs : 1024;
    while (cap < need) cap *= 2;
    nbr_pair *p = realloc(sim->pairs, cap * sizeof *p);
    if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu neighbour pairs", need);
    sim->pairs = p;
    sim->cap_pairs = cap;
    return DEM_OK;
}

/* Fractional coordinate of x along the cell (or x itself without a cell). */
/* H^-1 by cofactors */
static void cell_inverse(dem_sim *sim)
{
    const double (*h)[3] = sim->cell.h.m;
    double det = dem_m3_det(sim->cell.h);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
            sim->hinv.m[r][c] = (h[r1][c1] * h[r2][c2] - h[r1][c2] * h[r2][c1]) / det;
        }
}

static inline dem_vec3 frac(const dem_sim *sim, dem_vec3 x)
{
    if (!sim->cell.flags) return x;
    return dem_m3_mulv(sim->hinv, dem_v3_sub(x, sim->cell.origin));
}

/* Width of the cell perpendicular to face pair a (volume / area of the other two vectors). */
static double cell_width(const dem_cell *c, int a)
{
    dem_vec3 u = dem_m3_col(c->h, (a + 1) % 3), w = dem_m3_col(c->h, (a + 2) % 3);
    return fabs(dem_m3_det(c->h)) / dem_v3_norm(dem_v3_cross(u, w));
}

typedef struct {
    int n[3];         /* cells along each axis */
    double lo[3];     /* fractional (or absolute) coordinate of the grid's lower corner */
    double size[3];   /* cell size in the same coordinates */
} grid;

static void grid_setup(const dem_sim *sim, double cutoff, grid *g)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t a = 0; a < sim->n; a++) {
        dem_vec3 s = frac(sim, sim->x[a]);
        for (int k = 0; k < 3; k++) {
            double c = dem_v3_get(s, k);
            if (c < lo[k]) lo[k] = c;
            if (c > hi[k]) hi[k] = c;
        }
    }
    /* Limit the grid to a few cells per particle so that a stray particle far away does not
     * make it huge. The counts are worked out in doubles and cast only once they are that small
     * (a particle 1e12 m away must not overflow an int). */
    double max_cells = 8.0 * (double)sim->n + 27.0, nc[3];
    for (int k = 0; k < 3; k++) {
        double width = sim->cell.flags ? cell_width(&sim->cell, k) : 1.0; /* metres per unit */
        double cut = cutoff / width;                                       /* cutoff in these units */
        if (sim->periodic[k]) {
            g->lo[k] = 0.0;
            nc[k] = fmax(1.0, floor(1.0 / cut));
            g->size[k] = 1.0 / nc[k];
        } else {
            double extent = hi[k] - lo[k];
            g->lo[k] = lo[k];
            nc[k] = fmax(1.0, floor(extent / cut) + 1.0);
            g->size[k] = cut;
        }
    }
    while (nc[0] * nc[1] * nc[2] > max_cells) {
        for (int k = 0; k < 3; k++) {
            if (nc[k] <= 1.0) continue;
            /* a huge count: jump most of the way at once */
            double f = nc[k] > 2.0 * max_cells ? ceil(nc[k] / max_cells) : 2.0;
            nc[k] = ceil(nc[k] / f);
            g->size[k] = sim->periodic[k] ? 1.0 / nc[k] : g->size[k] * f;
        }
    }
    for (int k = 0; k < 3; k++) g->n[k] = (int)nc[k];
}

static inline int grid_index(const grid *g, int k, double c)
{
    int i = (int)floor((c - g->lo[k]) / g->size[k]);
    if (i < 0) i = 0;
    if (i >= g->n[k]) i = g->n[k] - 1;
    return i;
}

/* Keep the history of pairs that touch, look it up by key in the new list. */
static dem_status carry_history(dem_sim *sim, nbr_pair *old, size_t nold)
{
    qsort(old, nold, sizeof *old, cmp_pair_key);
    size_t k = 0;
    for (size_t p = 0; p < sim->npairs && k < nold; p++) {
        nbr_pair *np = &sim->pairs[p];
        while (k < nold && cmp_pair_key(&old[k], np) < 0) k++;
        if (k < nold && cmp_pair_key(&old[k], np) == 0) {
            memcpy(np->xi, old[k].xi, sizeof np->xi);
            memcpy(np->diss, old[k].diss, sizeof np->diss);
            memcpy(np->prev, old[k].prev, sizeof np->prev);
            np->fdn = old[k].fdn;
            np->stt = old[k].stt;
            np->flags = old[k].flags;
        }
    }
    return DEM_OK;
}

static void pair_constants(const dem_sim *sim, nbr_pair *np)
{
    np->mstar = sim->m[np->i] * sim->m[np->j] / (sim->m[np->i] + sim->m[np->j]);
    np->rstar = sim->r[np->i] * sim->r[np->j] / (sim->r[np->i] + sim->r[np->j]);
    np->kn = np->kt = 0.0;
    if (sim->st.normal != DEM_NORMAL_HOOKE) return;
    dem_pair p;
    dem_pair_init(&p, &sim->st, sim->r[np->i], sim->m[np->i], &sim->materials[sim->mat[np->i]],
                  sim->r[np->j], sim->m[np->j], &sim->materials[sim->mat[np->j]]);
    np->kn = p.kn;
    np->kt = p.kt;
}

/* Per particle, its pairs in the order of the sorted pair list: the order forces are summed in
 * (see jadj in dem_sim). Pairs that do not touch add exact zeros (see particle_forces), so only
 * the touching ones matter, and their order in the sorted list is the same whenever the list
 * was built. */
static dem_status build_adjacency(dem_sim *sim, dem_error *err)
{
    if (sim->npairs > sim->cap_adj) {
        uint32_t *a = realloc(sim->jadj, sim->npairs * sizeof *a);
        if (!a) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the contact adjacency");
        sim->jadj = a;
        sim->cap_adj = sim->npairs;
    }
    size_t *js = sim->jadj_start, *is = sim->istart, *fill = sim->cell_items; /* cell_items is free scratch here */
    memset(js, 0, (sim->n + 1) * sizeof *js);
    memset(is, 0, (sim->n + 1) * sizeof *is);
    for (size_t p = 0; p < sim->npairs; p++) {
        const nbr_pair *np = &sim->pairs[p];
        if (np->i >= np->j)
            return dem_fail(err, DEM_ERR_VALUE, "internal error: particle %llu reaches its own periodic image",
                            (unsigned long long)sim->id[np->i]);
        is[np->i + 1]++;
        js[np->j + 1]++;
    }
    for (size_t a = 0; a < sim->n; a++) {
        js[a + 1] += js[a];
        is[a + 1] += is[a];
    }
    memcpy(fill, js, sim->n * sizeof *fill);
    for (size_t p = 0; p < sim->npairs; p++) sim->jadj[fill[sim->pairs[p].j]++] = (uint32_t)p;
    return DEM_OK;
}

/* The pairs of each block of particles (the list is sorted by i). */
static void pair_blocks_bounds(dem_sim *sim)
{
    size_t p = 0;
    for (size_t b = 0; b < sim->nblk; b++) {
        sim->pblk[b] = p;
        while (p < sim->npairs && sim->pairs[p].i < (b + 1) * PAIR_BLOCK) p++;
    }
    sim->pblk[sim->nblk] = sim->npairs;
}

/* A slot's history and results, kept across a rebuild by (particle, wall). */
typedef struct {
    uint32_t a, k;
    nbr_pair h;
    contact_out o;
    uint8_t touch;
} wall_keep;

static int cmp_wall_keep(const void *pa, const void *pb)
{
    const wall_keep *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Whether wall k can reach particle a before the next rebuild: within the skin now (the rebuild
 * criterion counts the walls' travel too), or of undefined geometry (on a cylinder's axis). */
static int wall_near(const dem_sim *sim, size_t a, size_t k)
{
    dem_vec3 n;
    double gap;
    return !wall_geometry(&sim->walls[k], sim->x[a], &n, &gap) || gap < sim->r[a] + sim->skin;
}

/* A new slot: no history; i and j name the particle and the wall; the hooke stiffnesses of
 * the particle against the rigid wall. */
static void wall_slot_constants(const dem_sim *sim, size_t a, size_t k, nbr_pair *h)
{
    memset(h, 0, sizeof *h);
    h->i = (uint32_t)a;
    h->j = (uint32_t)k;
    if (sim->st.normal != DEM_NORMAL_HOOKE) return;
    dem_pair p;
    dem_pair_init(&p, &sim->st, sim->r[a], sim->m[a], &sim->materials[sim->mat[a]], 0.0, 0.0,
                  &sim->materials[sim->walls[k].material]);
    h->kn = p.kn;
    h->kt = p.kt;
}

static dem_status grow_wall_slots(dem_sim *sim, size_t need, dem_error *err)
{
    if (need <= sim->cap_wslots) return DEM_OK;
    size_t cap = sim->cap_wslots ? 2 * sim->cap_wslots : 256;
    while (cap < need) cap *= 2;
#define G(ptr) do { void *q = realloc((ptr), cap * sizeof *(ptr)); if (!q) goto nomem; (ptr) = q; } while (0)
    G(sim->wowner); G(sim->wwall); G(sim->whist); G(sim->wout); G(sim->wtouch); G(sim->wlost);
#undef G
    sim->cap_wslots = cap;
    return DEM_OK;
nomem:
    return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particle-wall slots", need);
}

/* The slots of the walls each particle can reach before the next rebuild. Slots that touch or
 * hold a history keep them (their owners are current indices: reorder renumbers them). */
static dem_status wall_slots(dem_sim *sim, dem_error *err)
{
    size_t nw = sim->nwalls, nkeep = 0;
    for (size_t k = 0; k < nw; k++) sim->wall_build[k] = sim->walls[k].point;
    for (size_t q = 0; q < sim->nwslots; q++) nkeep += sim->wtouch[q] || sim->whist[q].flags;
    wall_keep *keep = malloc((nkeep ? nkeep : 1) * sizeof *keep);
    if (!keep) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the particle-wall slots");
    nkeep = 0;
    for (size_t q = 0; q < sim->nwslots; q++)
        if (sim->wtouch[q] || sim->whist[q].flags)
            keep[nkeep++] = (wall_keep){sim->wowner[q], sim->wwall[q], sim->whist[q], sim->wout[q], sim->wtouch[q]};
    qsort(keep, nkeep, sizeof *keep, cmp_wall_keep);
    size_t q = 0, e = 0;
    for (size_t a = 0; a < sim->n; a++) {
        sim->wstart[a] = q;
        for (size_t k = 0; k < nw; k++) {
            if (!wall_near(sim, a, k)) continue;
            dem_status st = grow_wall_slots(sim, q + 1, err); /* the kept slots are copied out: free to move */
            if (st) { free(keep); return st; }
            sim->wowner[q] = (uint32_t)a;
            sim->wwall[q] = (uint32_t)k;
            while (e < nkeep && (keep[e].a < a || (keep[e].a == a && keep[e].k < k))) e++; /* out of reach now: gone */
            if (e < nkeep && keep[e].a == a && keep[e].k == k) {
                sim->whist[q] = keep[e].h;
                sim->whist[q].i = (uint32_t)a; /* its particle may have been renumbered */
                sim->wout[q] = keep[e].o;
                sim->wtouch[q] = keep[e].touch;
            } else {
                wall_slot_constants(sim, a, k, &sim->whist[q]);
                memset(&sim->wout[q], 0, sizeof sim->wout[q]);
                sim->wtouch[q] = 0;
            }
            sim->wlost[q] = 0.0;
            q++;
        }
    }
    sim->wstart[sim->n] = q;
    sim->nwslots = q;
    free(keep);
    return DEM_OK;
}

/* Reorder a per-particle array: new[k] = old[from[k]], elem bytes per particle. */
static void permute(void *arr, size_t elem, size_t n, const size_t *from, void *scratch)
{
    uint8_t *a = arr, *t = scratch;
    for (size_t k = 0; k < n; k++) memcpy(t + k * elem, a + from[k] * elem, elem);
    memcpy(a, t, n * elem);
}

/* Put the particles in grid-cell order (from[k]: old index of the particle that goes to k), so
 * that neighbours sit close in memory. Done at fixed steps only (see dem_sim_step): the order
 * decides the order of every sum, so it must be a function of the step and the state. */
static dem_status reorder(dem_sim *sim, const size_t *from, dem_error *err)
{
    size_t n = sim->n;
    size_t big = sizeof(double) * EDIS;
    if (big < sizeof(dem_quat)) big = sizeof(dem_quat);
    if (big < sizeof *sim->V) big = sizeof *sim->V;
    void *tmp = malloc(big * n);
    uint32_t *inv = malloc(n * sizeof *inv);
    if (!tmp || !inv) {
        free(tmp);
        free(inv);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory reordering %zu particles", n);
    }
    permute(sim->x, sizeof *sim->x, n, from, tmp);
    permute(sim->v, sizeof *sim->v, n, from, tmp);
    permute(sim->w, sizeof *sim->w, n, from, tmp);
    permute(sim->f, sizeof *sim->f, n, from, tmp);
    permute(sim->t, sizeof *sim->t, n, from, tmp);
    permute(sim->q, sizeof *sim->q, n, from, tmp);
    permute(sim->r, sizeof *sim->r, n, from, tmp);
    permute(sim->m, sizeof *sim->m, n, from, tmp);
    permute(sim->inertia, sizeof *sim->inertia, n, from, tmp);
    permute(sim->mat, sizeof *sim->mat, n, from, tmp);
    permute(sim->flags, sizeof *sim->flags, n, from, tmp);
    permute(sim->group, sizeof *sim->group, n, from, tmp);
    permute(sim->id, sizeof *sim->id, n, from, tmp);
    permute(sim->image, sizeof *sim->image, n, from, tmp);
    permute(sim->edis, sizeof(double) * EDIS, n, from, tmp);
    permute(sim->V, sizeof *sim->V, n, from, tmp);
    permute(sim->K, sizeof *sim->K, n, from, tmp);
    permute(sim->kc, sizeof *sim->kc, n, from, tmp);
    permute(sim->kbad, sizeof *sim->kbad, n, from, tmp);
    permute(sim->inv_m, sizeof *sim->inv_m, n, from, tmp);
    permute(sim->inv_i, sizeof *sim->inv_i, n, from, tmp);
    permute(sim->x_build, sizeof *sim->x_build, n, from, tmp);
    for (size_t k = 0; k < n; k++) inv[from[k]] = (uint32_t)k;
    for (size_t q = 0; q < sim->nwslots; q++) sim->wowner[q] = inv[sim->wowner[q]]; /* wall_slots re-sorts them */
    for (size_t p = 0; p < sim->npairs; p++) {
        nbr_pair *np = &sim->pairs[p];
        np->i = inv[np->i];
        np->j = inv[np->j];
        if (np->i > np->j) { /* pairs are oriented by index: turn it round (an exact negation) */
            uint32_t t = np->i;
            np->i = np->j;
            np->j = t;
            for (int k = 0; k < 3; k++) {
                np->s[k] = -np->s[k];
                np->xi[k] = -np->xi[k];
            }
        }
    }
    free(tmp);
    free(inv);
    return DEM_OK;
}

static dem_status rebuild(dem_sim *sim, int sort, dem_error *err)
{
    dem_status st;
    double cutoff = 2.0 * sim->rmax + sim->skin;
    grid g;
    grid_setup(sim, cutoff, &g);
    size_t ncells = (size_t)g.n[0] * g.n[1] * g.n[2];
    if (ncells + 1 > sim->cap_cells) {
        size_t *a = realloc(sim->cell_start, (ncells + 1) * sizeof *a);
        if (!a) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu grid cells", ncells);
        sim->cell_start = a;
        sim->cap_cells = ncells + 1;
    }
    size_t *cs = sim->cell_start, *items = sim->cell_items;
    uint32_t *cellof = malloc((sim->n ? sim->n : 1) * sizeof *cellof);
    if (!cellof) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid");
    memset(cs, 0, (ncells + 1) * sizeof *cs);
    for (size_t a = 0; a < sim->n; a++) {
        dem_vec3 s = frac(sim, sim->x[a]);
        int ix = grid_index(&g, 0, s.x), iy = grid_index(&g, 1, s.y), iz = grid_index(&g, 2, s.z);
        cellof[a] = (uint32_t)(((size_t)iz * g.n[1] + iy) * g.n[0] + ix);
        cs[cellof[a] + 1]++;
    }
    for (size_t c = 0; c < ncells; c++) cs[c + 1] += cs[c];
    {
        size_t *fill = malloc((ncells + 1) * sizeof *fill);
        if (!fill) { free(cellof); return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid"); }
        memcpy(fill, cs, (ncells + 1) * sizeof *fill);
        for (size_t a = 0; a < sim->n; a++) items[fill[cellof[a]]++] = a;
        free(fill);
    }
    /* particles into cell order; then the cell of particle k is the k-th of the sorted list */
    if (sort) {
        if ((st = reorder(sim, items, err))) { free(cellof); return st; }
        uint32_t *c2 = malloc((sim->n ? sim->n : 1) * sizeof *c2);
        if (!c2) { free(cellof); return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid"); }
        for (size_t k = 0; k < sim->n; k++) c2[k] = cellof[items[k]];
        free(cellof);
        cellof = c2;
        for (size_t k = 0; k < sim->n; k++) items[k] = k;
    }
    /* the touching pairs of the old list, whose history must survive */
    size_t nold = 0;
    for (size_t p = 0; p < sim->npairs; p++)
        if (sim->pairs[p].flags) nold++;
    nbr_pair *old = malloc((nold ? nold : 1) * sizeof *old);
    if (!old) { free(cellof); return dem_fail(err, DEM_ERR_NOMEM, "out of memory rebuilding the neighbour list"); }
    nold = 0;
    for (size_t p = 0; p < sim->npairs; p++)
        if (sim->pairs[p].flags) old[nold++] = sim->pairs[p];

    sim->npairs = 0;
    for (size_t a = 0; a < sim->n; a++) {
        int c[3] = {(int)(cellof[a] % g.n[0]), (int)(cellof[a] / g.n[0] % g.n[1]), (int)(cellof[a] / g.n[0] / g.n[1])};
        for (int oz = -1; oz <= 1; oz++)
            for (int oy = -1; oy <= 1; oy++)
                for (int ox = -1; ox <= 1; ox++) {
                    int o[3] = {ox, oy, oz}, nc[3];
                    int32_t sh[3] = {0, 0, 0};
                    int skip = 0;
                    for (int k = 0; k < 3; k++) {
                        int q = c[k] + o[k];
                        if (sim->periodic[k]) {
                            if (q < 0) { q += g.n[k]; sh[k] = -1; }
                            else if (q >= g.n[k]) { q -= g.n[k]; sh[k] = 1; }
                            /* fewer than 3 cells: offsets -1 and +1 reach the same cell through
                             * different images, both genuine */
                        } else if (q < 0 || q >= g.n[k]) skip = 1;
                        nc[k] = q;
                    }
                    if (skip) continue;
                    size_t cell = ((size_t)nc[2] * g.n[1] + nc[1]) * g.n[0] + nc[0];
                    dem_vec3 shift = cell_shift(sim, sh);
                    for (size_t e = cs[cell]; e < cs[cell + 1]; e++) {
                        size_t b = items[e];
                        int self = b == a;
                        if (a > b) continue;                            /* found from b's side */
                        if (self) {                                     /* own image: keep s > 0 */
                            if (!(sh[0] | sh[1] | sh[2])) continue;
                            int pos = sh[0] ? sh[0] > 0 : sh[1] ? sh[1] > 0 : sh[2] > 0;
                            if (!pos) continue;
                        }
                        dem_vec3 xb = dem_v3_add(sim->x[b], shift);
                        double reach = sim->r[a] + sim->r[b] + sim->skin;
                        if (dem_v3_norm2(dem_v3_sub(sim->x[a], xb)) >= reach * reach) continue;
                        if (!dem_groups_interact(&sim->st, sim->group[a], sim->group[b])) continue;
                        if ((st = grow_pairs(sim, sim->npairs + 1, err))) { free(old); free(cellof); return st; }
                        nbr_pair *np = &sim->pairs[sim->npairs++];
                        memset(np, 0, sizeof *np);
                        np->i = (uint32_t)a;
                        np->j = (uint32_t)b;
                        memcpy(np->s, sh, sizeof sh);
                        pair_constants(sim, np);
                    }
                }
    }
    free(cellof);
    if (sim->npairs) qsort(sim->pairs, sim->npairs, sizeof *sim->pairs, cmp_pair_key);
    st = carry_history(sim, old, nold);
    free(old);
    if (st) return st;
    if (sim->npairs > sim->cap_out) {
        /* one result per cache line (the list's results restart from zeros: nothing to keep) */
        free(sim->out);
        sim->cap_out = 0;
        contact_out *o = sim->out = aligned_alloc(64, sim->npairs * sizeof *o);
        uint8_t *t = realloc(sim->ptouch, sim->npairs);
        if (t) sim->ptouch = t;
        if (!o || !t) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu contact results", sim->npairs);
        sim->cap_out = sim->npairs;
    }
    if ((st = build_adjacency(sim, err))) return st;
    pair_blocks_bounds(sim);
    /* the new list's results start as exact zeros; the next force pass fills them */
    if (sim->npairs) {
        memset(sim->ptouch, 0, sim->npairs);
        memset(sim->out, 0, sim->npairs * sizeof *sim->out);
    }
    memcpy(sim->x_build, sim->x, sim->n * sizeof *sim->x);
    if ((st = wall_slots(sim, err))) return st;
    sim->rebuilds++;
    return DEM_OK;
}

/* Rebuild when the two largest displacements since the last build could close the skin. */
static int needs_rebuild(const dem_sim *sim)
{
    double m1 = 0.0, m2 = 0.0;
    for (size_t a = 0; a < sim->n; a++) {
        double d2 = dem_v3_norm2(dem_v3_sub(sim->x[a], sim->x_build[a]));
        if (d2 > m1) { m2 = m1; m1 = d2; }
        else if (d2 > m2) m2 = d2;
    }
    /* a particle and a moving wall closing the skin between them (wall_slots) */
    double w2 = 0.0;
    for (size_t k = 0; k < sim->nwalls; k++) w2 = fmax(w2, dem_v3_norm2(dem_v3_sub(sim->walls[k].point, sim->wall_build[k])));
    return sqrt(m1) + sqrt(m2) >= sim->skin || sqrt(m1) + sqrt(w2) >= sim->skin;
}

/* ================================================================ energy accounting */
/* Relative velocity of a contact at the contact point (i minus j, or minus the wall), its normal
 * and tangential parts, from full-step velocities v, w. */
static void contact_velocity(const dem_sim *sim, const dem_vec3 *v, const dem_vec3 *w, uint32_t i, int wall, uint32_t j,
                             const contact_out *o, double *un, dem_vec3 *ut)
{
    dem_vec3 u, wt;
    double li = sim->r[i] - 0.5 * o->delta;
    if (wall) {
        const dem_wall *wl = &sim->walls[j];
        u = dem_v3_sub(v[i], wall_velocity_at(wl, wall_contact_point(sim, i, o->n, o->delta)));
        wt = dem_v3_scale(w[i], li);
    } else {
        u = dem_v3_sub(v[i], v[j]);
        wt = dem_v3_add(dem_v3_scale(w[i], li), dem_v3_scale(w[j], sim->r[j] - 0.5 * o->delta));
    }
    *un = dem_v3_dot(u, o->n);
    *ut = dem_v3_sub(dem_v3_madd(u, o->n, -*un), dem_v3_cross(wt, o->n));
}

/* Energy of one contact over the step that ended at full-step velocities v, w (t + dt):
 *  - normal dashpot, kick convention: the force of this step does dt F.u over its kicks;
 *  - tangential force, trapezoid over the drift interval [t, t+dt] with the full-step powers
 *    of the last and this step: to friction if the cap acted in this step (minus the change of
 *    the spring energy), else its dashpot part to damp_t;
 *  - the contact law's own work: the spring energy 1/2 S_t |xi|^2 changes when the stiffness
 *    S_t follows the overlap (Mindlin's 8 G* a) at a given stretch, with no force doing work
 *    for it (Hertz-Mindlin's tangential spring is not a potential). The step's energy change
 *    is 1/2 S_new (|xi_new|^2 - |xi_old|^2) (the spring's, at this step's stiffness; the
 *    rotation and twirl keep |xi|) plus 1/2 (S_new - S_old) |xi_old|^2, the law's; zero for a
 *    constant stiffness (hooke).
 * Adds them to e4 (friction, damp_n, damp_t, law); setup: only remember the powers. Returns
 * the normal dashpot power (W). */
static double contact_energy(const dem_sim *sim, const dem_vec3 *v, const dem_vec3 *w, uint32_t i, int wall, uint32_t j,
                             const contact_out *o, nbr_pair *h, double dt, int setup, double *e4)
{
    double un;
    dem_vec3 ut;
    contact_velocity(sim, v, w, i, wall, j, o, &un, &ut);
    double xi2 = spring_xi2(h), stt = h->stt;
    double pn = -h->fdn * un, pt = dem_v3_dot(o->ft, ut), pd = dem_v3_dot(dashpot_t(h, o), ut);
    if (!setup) {
        /* the stiffness at the last step; this step's for a new spring */
        double s_old = h->prev[PREV_XI2] > 0.0 ? h->prev[PREV_STT] : stt, s_mid = 0.5 * (s_old + stt);
        double law = 0.25 * (stt - s_old) * (h->prev[PREV_XI2] + xi2);
        double d[4] = {0.0, pn * dt, 0.0, law};
        /* the spring's change at the step's mean stiffness; the rest (law) is the law's */
        if (h->flags & PAIR_SLIDING) d[0] = -0.5 * dt * (h->prev[PREV_PT] + pt) - 0.5 * s_mid * (xi2 - h->prev[PREV_XI2]);
        else d[2] = -0.5 * dt * (h->prev[PREV_PD] + pd);
        for (int k = 0; k < 3; k++) h->diss[k] += d[k];
        for (int k = 0; k < 4; k++) e4[k] += d[k];
    }
    h->prev[PREV_PT] = pt;
    h->prev[PREV_PD] = pd;
    h->prev[PREV_XI2] = xi2;
    h->prev[PREV_STT] = stt;
    return pn;
}

/* The full-step accounting of touching pair p into s (friction, damp_n, damp_t, law, power). */
static inline void account_pair(const dem_sim *sim, size_t p, const dem_vec3 *v, const dem_vec3 *w, int setup, double s[5])
{
    nbr_pair *np = &sim->pairs[p];
    s[4] += contact_energy(sim, v, w, np->i, 0, np->j, &sim->out[p], np, sim->h, setup, s);
}

/* The wall contacts' accounting in slot order into s (as account_pair); with the current
 * (full-step) velocities. */
static void account_walls(dem_sim *sim, int setup, double s[5])
{
    for (size_t q = 0; q < sim->nwslots; q++)
        if (sim->wtouch[q])
            s[4] += contact_energy(sim, sim->v, sim->w, sim->wowner[q], 1, sim->wwall[q], &sim->wout[q], &sim->whist[q],
                                   sim->h, setup, s);
}

/* The velocities the pending accounting uses: saved by the first half kick, or still current. */
static inline const dem_vec3 *acct_v(const dem_sim *sim) { return sim->acct == ACCT_SAVED ? sim->vf : sim->v; }
static inline const dem_vec3 *acct_w(const dem_sim *sim) { return sim->acct == ACCT_SAVED ? sim->wf : sim->w; }

/* Book the pending step: the blocks' sums in order, then the walls' (step k's, kept in pend_w). */
static void finish_accounting(dem_sim *sim)
{
    double e[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (size_t b = 0; b < sim->nblk; b++)
        for (int k = 0; k < 5; k++) e[k] += sim->bsum[b][k];
    for (int k = 0; k < 5; k++) e[k] += sim->pend_w[k];
    sim->energy[DEM_E_DISS_FRICTION] += e[0] + sim->pend_lost;
    sim->energy[DEM_E_DISS_DAMP_N] += e[1];
    sim->energy[DEM_E_DISS_DAMP_T] += e[2];
    sim->energy[DEM_E_WORK_LAW] += e[3];
    sim->energy[DEM_E_AHEAD] = 0.5 * (e[4] * sim->h + sim->pend_dl - sim->pend_dw);
    sim->acct = ACCT_NONE;
}

/* One block of pairs: each touching pair's pending accounting into bsum[b] (account), then, if
 * eval, its force at the new positions. The flush and the force pass both come here, so the
 * books are the same bits whichever of them does it. The friction of contacts lost goes to
 * blost[b] (eval). */
static void pair_block(const dem_sim *sim, size_t b, int account, int eval)
{
    const dem_vec3 *v = acct_v(sim), *w = acct_w(sim);
    double s[5] = {0.0, 0.0, 0.0, 0.0, 0.0}, lost = 0.0;
    for (size_t p = sim->pblk[b]; p < sim->pblk[b + 1]; p++) {
        if (account && sim->ptouch[p]) account_pair(sim, p, v, w, 0, s);
        if (eval) lost += eval_pair(sim, p);
    }
    if (account) memcpy(sim->bsum[b], s, sizeof s);
    if (eval) sim->blost[b] = lost;
}

/* Do the pending accounting now, by itself: the same blocks and order as the fused pass. */
static void flush_accounting(dem_sim *sim)
{
    if (sim->acct == ACCT_NONE) return;
    size_t nb = sim->nblk;
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
    for (size_t b = 0; b < nb; b++) pair_block(sim, b, 1, 0);
    finish_accounting(sim);
}

/* A setup evaluation: every contact remembers its powers; returns the normal-dashpot power. */
static double contacts_setup(dem_sim *sim)
{
    double s[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (size_t p = 0; p < sim->npairs; p++)
        if (sim->ptouch[p]) account_pair(sim, p, sim->v, sim->w, 1, s);
    account_walls(sim, 1, s);
    return s[4];
}

/* ================================================================ forces */
/* Local (non-viscous) damping of the total force and torque (seed 000 eq 21; seed 002 eq 1.9),
 * per component. Returns the power of the damping force (W). */
static double local_damping(const dem_sim *sim, size_t a, dem_vec3 *f, dem_vec3 *t)
{
    double g = sim->st.local_damping, power = 0.0;
    if (g == 0.0) return 0.0;
    for (int which = 0; which < 2; which++) {
        dem_vec3 *F = which ? t : f;
        dem_vec3 vel = which ? sim->w[a] : sim->v[a];
        double inv = which ? sim->inv_i[a] : sim->inv_m[a];
        for (int k = 0; k < 3; k++) {
            double fk = dem_v3_get(*F, k), vk = dem_v3_get(vel, k), d;
            if (sim->st.local_form == DEM_LOCAL_YADE) {
                /* sgn(F (v + a dt/2)): v's on-step estimate (seed 002 eq 1.9) */
                double u = vk + 0.5 * sim->h * fk * inv;
                d = -g * fk * (fk * u > 0.0 ? 1.0 : fk * u < 0.0 ? -1.0 : 0.0);
            } else {
                d = -g * fabs(fk) * (vk > 0.0 ? 1.0 : vk < 0.0 ? -1.0 : 0.0); /* seed 000 eq 21 */
            }
            dem_v3_set(F, k, fk + d);
            power += d * (sim->hdt != 0.0 ? vk + 0.5 * sim->h * (fk + d) * inv : vk);
        }
    }
    return power;
}

static void exact_kick(dem_sim *sim, size_t a);
/* Returns the number of wall contacts particle a lost in this step. */
static int particle_forces(dem_sim *sim, size_t a)
{
    /* Adding 0.0 turns a -0.0 of gravity into +0.0: the sums below then never hold -0.0, so the
     * exact zeros of pairs that do not touch change nothing, whatever their sign. */
    dem_vec3 f = dem_v3_add(dem_v3_scale(sim->st.gravity, sim->m[a]), dem_v3_zero());
    dem_vec3 t = dem_v3_zero();
    double *ed = &sim->edis[a * EDIS];
    int lost = 0;
    double r = sim->r[a];
    for (size_t e = sim->jadj_start[a]; e < sim->jadj_start[a + 1]; e++) { /* j receives -F */
        const contact_out *o = &sim->out[sim->jadj[e]];
        f = dem_v3_madd(f, contact_force(o), -1.0);
        t = dem_v3_madd(t, contact_moment(o), -(r - 0.5 * o->delta)); /* seed 001 Step 8 torque */
    }
    for (size_t p = sim->istart[a]; p < sim->istart[a + 1]; p++) {
        const contact_out *o = &sim->out[p];
        f = dem_v3_madd(f, contact_force(o), 1.0);
        t = dem_v3_madd(t, contact_moment(o), -(r - 0.5 * o->delta));
    }
    for (size_t q = sim->wstart[a]; q < sim->wstart[a + 1]; q++) {
        lost += eval_wall(sim, q);
        if (!sim->wtouch[q]) continue;
        const contact_out *o = &sim->wout[q];
        f = dem_v3_add(f, contact_force(o));
        t = dem_v3_add(t, dem_v3_scale(contact_moment(o), -(sim->r[a] - 0.5 * o->delta)));
    }
    double p = local_damping(sim, a, &f, &t);
    ed[EDIS_LOCAL] = sim->hdt != 0.0 ? -p * sim->hdt : -p; /* setup: the power */
    sim->f[a] = f;
    sim->t[a] = t;
    if (sim->exact) exact_kick(sim, a);
    return lost;
}

/* The particles' local damping and drag, and the walls' forces, torques and work, summed in
 * particle order (the contacts' own dissipation is booked by the full-step accounting). */
static void totals(dem_sim *sim)
{
    size_t nw = sim->nwalls;
    if (sim->hdt != 0.0) {
        for (size_t a = 0; a < sim->n; a++) {
            const double *ed = &sim->edis[a * EDIS];
            sim->energy[DEM_E_DISS_LOCAL] += ed[EDIS_LOCAL];
            sim->energy[DEM_E_DISS_DRAG] += ed[EDIS_DRAG];
        }
    }
    if (!nw) return;
    for (size_t k = 0; k < nw; k++) {
        sim->walls[k].force = dem_v3_zero();
        sim->walls[k].torque = dem_v3_zero();
    }
    double *work = sim->wwork;
    for (size_t k = 0; k < nw; k++) work[k] = 0.0;
    for (size_t q = 0; q < sim->nwslots; q++) {
        if (!sim->wtouch[q]) continue;
        size_t a = sim->wowner[q], k = sim->wwall[q];
        dem_wall *wl = &sim->walls[k];
        const contact_out *o = &sim->wout[q];
        dem_vec3 fc = contact_force(o); /* on the particle */
        dem_vec3 cp = wall_contact_point(sim, a, o->n, o->delta);
        wl->force = dem_v3_sub(wl->force, fc);
        wl->torque = dem_v3_sub(wl->torque, dem_v3_cross(dem_v3_sub(cp, wl->point), fc));
        work[k] += dem_v3_dot(fc, wall_velocity_at(wl, cp)) * sim->hdt;
    }
    for (size_t k = 0; k < nw; k++) {
        sim->walls[k].work += work[k];
        sim->energy[DEM_E_WORK_WALLS] += work[k];
    }
}

/* Every contact's force at the new positions, then every particle's sum. The pair pass first does
 * the last step's pending full-step accounting of each pair (account; it reads the same records),
 * block by block. Returns the number of wall contacts lost in this step (their friction waits in
 * wlost; the pairs' in blost). */
static size_t force_passes(dem_sim *sim, int account)
{
    size_t n = sim->n, lost = 0, nb = sim->nblk;
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
    for (size_t b = 0; b < nb; b++) pair_block(sim, b, account, 1);
    if (account) finish_accounting(sim);
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1) reduction(+ : lost)
    for (size_t a = 0; a < n; a++) lost += (size_t)particle_forces(sim, a);
    return lost;
}

/* Forces at the new positions, with the last step's pending accounting. Returns the number of
 * wall contacts lost in this step. */
static size_t compute_forces(dem_sim *sim)
{
    sim->hdt = sim->h;
    size_t lost = force_passes(sim, sim->acct != ACCT_NONE);
    totals(sim);
    sim->forces_current = 1;
    return lost;
}

/* Forces of a state no step has produced (a new system): evaluated without advancing any
 * history or energy accumulator (seed 001 §3: a_0 from a setup call). */
static double wall_power(const dem_sim *sim);
static void setup_forces(dem_sim *sim)
{
    size_t n = sim->n;
    sim->hdt = 0.0;
    for (size_t a = 0; a < n; a++) sim->edis[a * EDIS + EDIS_DRAG] = 0.0;
    force_passes(sim, 0);
    totals(sim);
    sim->forces_current = 1;
    sim->hdt = sim->h;
    double pl = 0.0;
    sim->setup_p[0] = contacts_setup(sim);
    for (size_t a = 0; a < n; a++) pl += sim->edis[a * EDIS + EDIS_LOCAL];
    sim->setup_p[1] = pl;
    sim->setup_p[2] = wall_power(sim);
    sim->setup_pending = 1;
}

/* ================================================================ exact (fixed-point) mode
 * Levesque and Verlet (1993), as Hanley (seed 000 §1) suggests for reversed-time DEM: positions
 * live on a lattice x = X qx (qx a power of two, so the doubles hold X exactly), velocities on
 * v = V qv with qv = qx / dt, so that a drift X += V and a kick V += K are integer additions, and
 * every force is turned into a kick K(X) that depends on the positions alone. Each contact's
 * force (and gravity) is rounded onto the lattice by itself and the kicks are summed as
 * integers, so K does not depend on the order of the sums, the thread count, the neighbour list
 * or the particles' order in memory. Then the step (K, X, K) has the exact inverse (-K, -X, -K):
 * dem-reverse returns to the first state bit for bit, however long the run. */
#define LATTICE_MAX 9007199254740992.0 /* 2^53: |X|, |V| stay below it (the doubles hold them exactly) */
enum { KBAD_KICK = 1, KBAD_VEL = 2, KBAD_POS = 4 };

static inline int64_t lattice_round(double y, uint8_t *bad)
{
    if (!(fabs(y) < 0.5 * LATTICE_MAX)) { /* also NaN */
        *bad |= KBAD_KICK;
        return 0;
    }
    return (int64_t)llround(y); /* round half away from zero: round(-y) = -round(y) */
}

/* k += the kick of force f (N) at c lattice units per newton, rounded by itself. */
static inline void lattice_add(int64_t k[3], dem_vec3 f, double c, uint8_t *bad)
{
    k[0] += lattice_round(f.x * c, bad);
    k[1] += lattice_round(f.y * c, bad);
    k[2] += lattice_round(f.z * c, bad);
}

/* The half kick of particle a, dt/2 F/m in lattice units, from the contacts evaluated last. */
static void exact_kick(dem_sim *sim, size_t a)
{
    uint8_t bad = 0;
    double c = sim->kc[a];
    int64_t k[3] = {sim->kg[0], sim->kg[1], sim->kg[2]};
    /* in the order of particle_forces; j receives -F: an exact negation */
    for (size_t e = sim->jadj_start[a]; e < sim->jadj_start[a + 1]; e++)
        lattice_add(k, dem_v3_neg(contact_force(&sim->out[sim->jadj[e]])), c, &bad);
    for (size_t p = sim->istart[a]; p < sim->istart[a + 1]; p++) lattice_add(k, contact_force(&sim->out[p]), c, &bad);
    for (size_t q = sim->wstart[a]; q < sim->wstart[a + 1]; q++) {
        if (sim->wtouch[q]) lattice_add(k, contact_force(&sim->wout[q]), c, &bad);
    }
    memcpy(sim->K[a], k, sizeof k);
    sim->kbad[a] |= bad;
    /* the force a frame records: the kick's, so that a frame read back gives the same kick */
    sim->f[a] = dem_v3((double)k[0] / c, (double)k[1] / c, (double)k[2] / c);
}

static inline int lattice_ok(int64_t v) { return v > -(int64_t)LATTICE_MAX && v < (int64_t)LATTICE_MAX; }

/* V += dir K (seed 000 eqs 13, 16; reversed: eqs 17, 20) */
static void exact_half_kick(dem_sim *sim)
{
    size_t n = sim->n;
    int64_t dir = sim->dir;
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
    for (size_t a = 0; a < n; a++) {
        if (sim->flags[a] & DEM_PARTICLE_FIXED) continue;
        for (int k = 0; k < 3; k++) {
            sim->V[a][k] += dir * sim->K[a][k];
            if (!lattice_ok(sim->V[a][k])) sim->kbad[a] |= KBAD_VEL;
        }
        sim->v[a] = dem_v3((double)sim->V[a][0] * sim->qv, (double)sim->V[a][1] * sim->qv, (double)sim->V[a][2] * sim->qv);
    }
}

/* X += dir V (seed 000 eq 14; reversed: eq 18); walls move by their lattice velocity. */
static void exact_drift(dem_sim *sim)
{
    size_t n = sim->n;
    int64_t dir = sim->dir;
    double qx = sim->qx, iq = 1.0 / qx;
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
    for (size_t a = 0; a < n; a++) {
        sim->edis[a * EDIS + EDIS_DRAG] = 0.0;
        if (sim->flags[a] & DEM_PARTICLE_FIXED) continue;
        double x[3] = {sim->x[a].x, sim->x[a].y, sim->x[a].z};
        for (int k = 0; k < 3; k++) {
            int64_t X = (int64_t)(x[k] * iq) + dir * sim->V[a][k]; /* x * iq: exact, a power of two */
            if (!lattice_ok(X)) sim->kbad[a] |= KBAD_POS;
            x[k] = (double)X * qx;
        }
        sim->x[a] = dem_v3(x[0], x[1], x[2]);
    }
    for (size_t k = 0; k < sim->nwalls; k++) {
        dem_vec3 *p = &sim->walls[k].point;
        int64_t X[3] = {(int64_t)(p->x * iq) + dir * sim->wV[k][0], (int64_t)(p->y * iq) + dir * sim->wV[k][1],
                        (int64_t)(p->z * iq) + dir * sim->wV[k][2]}; /* |each term| < 2^53: no overflow */
        if ((!lattice_ok(X[0]) || !lattice_ok(X[1]) || !lattice_ok(X[2])) && !sim->wbad) sim->wbad = k + 1;
        *p = dem_v3((double)X[0] * qx, (double)X[1] * qx, (double)X[2] * qx);
    }
}

/* After a step: the first particle whose kick, velocity or position left the lattice's range. */
static dem_status exact_range_check(const dem_sim *sim, dem_error *err)
{
    if (sim->wbad)
        return dem_fail(err, DEM_ERR_LIMIT,
                        "step %llu: the point of wall %zu leaves the range of the exact lattice (2^53 quanta of %g m, i.e. |x| < %g m): choose a coarser --exact quantum, or fewer steps of a moving wall",
                        (unsigned long long)sim->step, sim->wbad - 1, sim->qx, LATTICE_MAX * sim->qx);
    for (size_t a = 0; a < sim->n; a++) {
        if (!sim->kbad[a]) continue;
        uint8_t b = sim->kbad[a];
        const char *what = b & KBAD_POS ? "position" : b & KBAD_VEL ? "velocity" : "force";
        return dem_fail(err, DEM_ERR_LIMIT,
                        "step %llu: the %s of particle %llu leaves the range of the exact lattice (2^53 quanta of %g m, i.e. |x| < %g m, |v| < %g m/s): choose a coarser --exact quantum",
                        (unsigned long long)sim->step, what, (unsigned long long)sim->id[a], sim->qx, LATTICE_MAX * sim->qx,
                        LATTICE_MAX * sim->qv);
    }
    return DEM_OK;
}

/* Round x onto the lattice of quantum q; 1 if it fits (|x / q| < 2^53). */
static int snap(double x, double q, double *out, int64_t *units)
{
    double u = x / q;
    if (!(fabs(u) < LATTICE_MAX)) return 0;
    *units = (int64_t)llround(u);
    *out = (double)*units * q;
    return 1;
}

static int snap3(dem_vec3 *v, double q, int64_t units[3], int *moved)
{
    double c[3] = {v->x, v->y, v->z}, s[3];
    for (int k = 0; k < 3; k++)
        if (!snap(c[k], q, &s[k], &units[k])) return 0;
    dem_vec3 r = dem_v3(s[0], s[1], s[2]);
    if (memcmp(&r, v, sizeof r)) *moved = 1;
    *v = r;
    return 1;
}

double dem_exact_quantum(const dem_system *s)
{
    double ext = 0.0;
    for (size_t a = 0; a < s->nparticles; a++) {
        const dem_particle *p = &s->particles[a];
        ext = fmax(ext, fmax(fabs(p->pos.x), fmax(fabs(p->pos.y), fabs(p->pos.z))) + p->radius);
    }
    for (size_t k = 0; k < s->nwalls; k++) {
        dem_vec3 x = s->walls[k].point;
        ext = fmax(ext, fmax(fabs(x.x), fmax(fabs(x.y), fabs(x.z))));
    }
    if (s->cell.flags)
        for (int r = 0; r < 3; r++) {
            double e = fabs(dem_v3_get(s->cell.origin, r));
            for (int c = 0; c < 3; c++) e += fabs(s->cell.h.m[r][c]);
            ext = fmax(ext, e);
        }
    if (!(ext > 0.0) || !isfinite(ext)) ext = 1.0;
    /* room for the system to grow fourfold: 2^53 qx >= 4 ext */
    return ldexp(1.0, (int)ceil(log2(4.0 * ext)) - 53);
}

dem_status dem_sim_set_exact(dem_sim *sim, double quantum, dem_error *err)
{
    int e;
    flush_accounting(sim);
    if (!(quantum > 0.0) || !isfinite(quantum) || frexp(quantum, &e) != 0.5)
        return dem_fail(err, DEM_ERR_VALUE, "exact quantum %g m: must be a positive power of two", quantum);
    if (sim->st.tangential != 0 && dem_tangential_models[sim->st.tangential]->uses_history)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: the tangential model '%s' exerts torques, and spins have no lattice: use --tangential none",
                        dem_tangential_models[sim->st.tangential]->name);
    if (sim->st.local_damping > 0.0)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: local damping acts on the summed force, which would depend on the order of the sums: set --local-damping 0");
    if (sim->st.drag != 1.0)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: drag (v -> %g v) does not map the velocity lattice onto itself one to one: set --drag 1", sim->st.drag);
    double dt = sim->dt, qx = quantum, qv = quantum / dt;
    int moved = 0;
    int64_t u[3];
    for (size_t a = 0; a < sim->n; a++) {
        if (sim->w[a].x != 0.0 || sim->w[a].y != 0.0 || sim->w[a].z != 0.0)
            return dem_fail(err, DEM_ERR_VALUE, "exact mode: particle %llu spins; frictionless spheres never change their spin, but an orientation has no lattice: set the angular velocities to zero",
                            (unsigned long long)sim->id[a]);
        if (!snap3(&sim->x[a], qx, u, &moved))
            return dem_fail(err, DEM_ERR_LIMIT, "exact mode: particle %llu at (%g, %g, %g) m lies beyond the lattice's range |x| < %g m: choose a coarser quantum than %g m",
                            (unsigned long long)sim->id[a], sim->x[a].x, sim->x[a].y, sim->x[a].z, LATTICE_MAX * qx, qx);
        if (!snap3(&sim->v[a], qv, sim->V[a], &moved))
            return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the velocity of particle %llu lies beyond the lattice's range |v| < %g m/s", (unsigned long long)sim->id[a], LATTICE_MAX * qv);
        sim->x_build[a] = sim->x[a];
        sim->kc[a] = dt * dt / (2.0 * sim->m[a] * qx);
        sim->kbad[a] = 0;
    }
    for (size_t k = 0; k < sim->nwalls; k++) {
        dem_wall *wl = &sim->walls[k];
        if (!snap3(&wl->point, qx, u, &moved) || !snap3(&wl->vel, qv, sim->wV[k], &moved))
            return dem_fail(err, DEM_ERR_LIMIT,
                            "exact mode: wall %zu's point (%g, %g, %g) m or velocity (%g, %g, %g) m/s lies beyond the lattice's range |x| < %g m, |v| < %g m/s: choose a coarser quantum than %g m",
                            k, wl->point.x, wl->point.y, wl->point.z, wl->vel.x, wl->vel.y, wl->vel.z, LATTICE_MAX * qx,
                            LATTICE_MAX * qv, qx);
    }
    if (sim->cell.flags) {
        dem_vec3 cols[3];
        for (int c = 0; c < 3; c++) cols[c] = dem_m3_col(sim->cell.h, c);
        for (int c = 0; c < 3; c++)
            if (!snap3(&cols[c], qx, u, &moved)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the periodic cell exceeds the lattice's range");
        if (!snap3(&sim->cell.origin, qx, u, &moved)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the periodic cell exceeds the lattice's range");
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sim->cell.h.m[r][c] = dem_v3_get(cols[c], r);
        cell_inverse(sim);
    }
    for (int k = 0; k < 3; k++) {
        uint8_t bad = 0;
        sim->kg[k] = lattice_round(dem_v3_get(sim->st.gravity, k) * dt * dt / (2.0 * qx), &bad);
        if (bad) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: gravity's kick exceeds the lattice's range");
    }
    double ticks = sim->time / dt;
    if (!(fabs(ticks) < LATTICE_MAX)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the time %g s is beyond 2^53 steps", sim->time);
    sim->tick = (int64_t)llround(ticks);
    sim->time = (double)sim->tick * dt;
    sim->exact = 1;
    sim->qx = qx;
    sim->qv = qv;
    sim->st.exact_quantum = qx;
    /* The kick of these positions; the frame's forces stand only if they are that kick. */
    size_t n = sim->n;
    dem_vec3 *f0 = malloc((n ? n : 1) * sizeof *f0);
    if (!f0) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    memcpy(f0, sim->f, n * sizeof *f0);
    sim->hdt = 0.0;
    force_passes(sim, 0);
    sim->hdt = sim->h;
    if (moved || (n && memcmp(f0, sim->f, n * sizeof *f0))) sim->forces_current = 0;
    free(f0);
    return exact_range_check(sim, err);
}

/* ================================================================ integration */
static void exact_half_kick(dem_sim *sim);
static void half_kick(dem_sim *sim)
{
    double h = 0.5 * sim->h;
    size_t n = sim->n;
    /* the first half kick after a step whose accounting is pending keeps its full-step velocities */
    int save = sim->acct == ACCT_PENDING;
    if (sim->exact) {
        if (save) {
            memcpy(sim->vf, sim->v, n * sizeof *sim->vf);
            memcpy(sim->wf, sim->w, n * sizeof *sim->wf);
        }
        exact_half_kick(sim);
    } else {
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
        for (size_t a = 0; a < n; a++) {
            if (save) {
                sim->vf[a] = sim->v[a];
                sim->wf[a] = sim->w[a];
            }
            if (sim->flags[a] & DEM_PARTICLE_FIXED) continue;
            sim->v[a] = dem_v3_madd(sim->v[a], sim->f[a], h * sim->inv_m[a]);  /* seed 001 eq 8, eq 20 */
            sim->w[a] = dem_v3_madd(sim->w[a], sim->t[a], h * sim->inv_i[a]);
        }
    }
    if (save) sim->acct = ACCT_SAVED;
}

/* The rotation by the angle |w| dt about w as a unit quaternion (cos x, sin x w/|w|), x = |w| dt/2.
 * For the small angles of a time step the series of cos x and sin x / x in x^2 need neither the
 * square root |w| nor a division (exact to below 1e-17 for x < 0.01, as small_sincos). */
static dem_quat rotation_quat(dem_vec3 w, double dt)
{
    double x2 = 0.25 * dt * dt * dem_v3_norm2(w);
    if (x2 == 0.0) return dem_quat_identity();
    double cs, s; /* s = sin(x) / |w| */
    if (x2 < 1e-4) {
        cs = cos_series(x2);
        s = 0.5 * dt * sinc_series(x2);
    } else {
        double wn = dem_v3_norm(w), x = 0.5 * wn * dt; /* x >= 0.01: beyond the series */
        cs = cos(x);
        s = sin(x) / wn;
    }
    dem_quat q = {cs, w.x * s, w.y * s, w.z * s};
    return q;
}

/* q / |q|. The product of two unit quaternions is a unit one to rounding, so one Newton step
 * for 1/sqrt(|q|^2) from 1 is exact to rounding and costs neither a square root nor a division;
 * a quaternion further off (read from a frame) gets the full normalisation. */
static dem_quat quat_normalize(dem_quat q)
{
    double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    double iq = fabs(n2 - 1.0) < 1e-8 ? 0.5 * (3.0 - n2) : 1.0 / sqrt(n2);
    return (dem_quat){q.w * iq, q.x * iq, q.y * iq, q.z * iq};
}

/* Drag (seed 000 eq 25) on the half-step velocity; returns the energy it took, J. Reversed
 * (seed 000 eq 28) it divides by gamma_d and gives the energy back (negative). */
static double drag(dem_sim *sim, size_t a, double gd, int reverse)
{
    double before = dem_v3_norm2(sim->v[a]);
    sim->v[a] = reverse ? dem_v3_scale(sim->v[a], 1.0 / gd) : dem_v3_scale(sim->v[a], gd);
    return 0.5 * sim->m[a] * (before - dem_v3_norm2(sim->v[a]));
}

/* Forward: drag, then x += dt v (seed 001 eq 9; seed 000 eqs 25, 14). Reversed: x -= dt v with
 * the damped half-step velocity, then undo the drag (seed 000 eqs 27, 18, 28). */
static void exact_drift(dem_sim *sim);
static void drift(dem_sim *sim)
{
    size_t n = sim->n;
    double gd = sim->st.drag, h = sim->h;
    int reverse = sim->dir < 0;
    if (sim->exact) {
        exact_drift(sim);
        return;
    }
#pragma omp parallel for schedule(static) num_threads(sim->threads) if (sim->threads > 1)
    for (size_t a = 0; a < n; a++) {
        sim->edis[a * EDIS + EDIS_DRAG] = 0.0;
        if (sim->flags[a] & DEM_PARTICLE_FIXED) continue;
        if (gd != 1.0 && !reverse) sim->edis[a * EDIS + EDIS_DRAG] = drag(sim, a, gd, 0);
        sim->x[a] = dem_v3_madd(sim->x[a], sim->v[a], h);
        if (gd != 1.0 && reverse) sim->edis[a * EDIS + EDIS_DRAG] = drag(sim, a, gd, 1);
        sim->q[a] = quat_normalize(dem_quat_mul(rotation_quat(sim->w[a], h), sim->q[a])); /* seed 002 §1.5.2 */
    }
    for (size_t k = 0; k < sim->nwalls; k++)
        sim->walls[k].point = dem_v3_madd(sim->walls[k].point, sim->walls[k].vel, h);
}

/* Put centres that left the cell back in, counting images; pairs see their partner through an
 * image that changes with it. Done every step so that it happens at the same step in any run. */
static void wrap(dem_sim *sim)
{
    if (!sim->cell.flags) return;
    int32_t (*e)[3] = sim->wrapped;
    int any = 0;
    for (size_t a = 0; a < sim->n; a++) {
        dem_vec3 s = frac(sim, sim->x[a]);
        e[a][0] = e[a][1] = e[a][2] = 0;
        for (int k = 0; k < 3; k++) {
            double c = dem_v3_get(s, k);
            if (sim->periodic[k] && (c >= 1.0 || c < 0.0)) e[a][k] = (int32_t)floor(c);
        }
        if (!(e[a][0] | e[a][1] | e[a][2])) continue;
        dem_vec3 shift = cell_shift(sim, e[a]);
        sim->x[a] = dem_v3_sub(sim->x[a], shift);
        sim->x_build[a] = dem_v3_sub(sim->x_build[a], shift);
        for (int k = 0; k < 3; k++) sim->image[a][k] += e[a][k];
        any = 1;
    }
    if (!any) return;
    /* x_i - (x_j + H s) must not change: s' = s - e_i + e_j */
    for (size_t p = 0; p < sim->npairs; p++) {
        nbr_pair *np = &sim->pairs[p];
        for (int k = 0; k < 3; k++) np->s[k] += e[np->j][k] - e[np->i][k];
    }
}

static dem_status check_finite(const dem_sim *sim, dem_error *err)
{
    for (size_t a = 0; a < sim->n; a++)
        if (!dem_v3_isfinite(sim->x[a]) || !dem_v3_isfinite(sim->v[a]) || !dem_v3_isfinite(sim->f[a]))
            return dem_fail(err, DEM_ERR_VALUE,
                            "step %llu: particle %llu has a non-finite position, velocity or force: the time step %g s is too large for the contact stiffness, or particles overlap by more than their radius",
                            (unsigned long long)sim->step, (unsigned long long)sim->id[a], sim->dt);
    return DEM_OK;
}

static double wall_power(const dem_sim *sim)
{
    double p = 0.0;
    for (size_t q = 0; q < sim->nwslots; q++) {
        if (!sim->wtouch[q]) continue;
        size_t a = sim->wowner[q];
        const dem_wall *wl = &sim->walls[sim->wwall[q]];
        const contact_out *o = &sim->wout[q];
        p += dem_v3_dot(contact_force(o), wall_velocity_at(wl, wall_contact_point(sim, a, o->n, o->delta)));
    }
    return p;
}

/* The forces of a setup call act from t to t + dt/2 (kick convention): their half step. */
static void apply_setup(dem_sim *sim)
{
    if (!sim->setup_pending) return;
    double h = 0.5 * sim->h;
    sim->energy[DEM_E_DISS_DAMP_N] += h * sim->setup_p[0];
    sim->energy[DEM_E_DISS_LOCAL] += h * sim->setup_p[1];
    sim->energy[DEM_E_WORK_WALLS] += h * sim->setup_p[2];
    sim->energy[DEM_E_AHEAD] = h * (sim->setup_p[0] + sim->setup_p[1] - sim->setup_p[2]);
    sim->setup_pending = 0;
}

dem_status dem_sim_step(dem_sim *sim, dem_error *err)
{
    dem_status st;
    if (sim->sort_every && sim->step % sim->sort_every == 0 && sim->sorted_step != sim->step) {
        flush_accounting(sim);
        if ((st = rebuild(sim, 1, err))) return st;
        sim->sorted_step = sim->step;
    }
    if (!sim->forces_current) setup_forces(sim);
    half_kick(sim);
    drift(sim);
    wrap(sim);
    if (needs_rebuild(sim)) {
        /* a blown-up state would ask for a rebuild: say why, rather than grid it */
        if ((st = check_finite(sim, err))) return st;
        flush_accounting(sim);
        if ((st = rebuild(sim, 0, err))) return st;
    }
    apply_setup(sim);
    double before[DEM_E_COUNT];
    memcpy(before, sim->energy, sizeof before);
    size_t nlost = compute_forces(sim);
    half_kick(sim);
    /* the full-step accounting: the walls' now (their contact point moves with the next drift),
     * the pairs' in the next step's pair pass or at a flush */
    for (int k = 0; k < 5; k++) sim->pend_w[k] = 0.0;
    account_walls(sim, 0, sim->pend_w);
    /* friction of contacts lost in this step: the pairs' by blocks, then the walls' in slot order */
    double lost = 0.0;
    for (size_t b = 0; b < sim->nblk; b++) lost += sim->blost[b];
    if (nlost)
        for (size_t q = 0; q < sim->nwslots; q++) {
            lost += sim->wlost[q];
            sim->wlost[q] = 0.0;
        }
    sim->pend_lost = lost;
    sim->pend_dl = sim->energy[DEM_E_DISS_LOCAL] - before[DEM_E_DISS_LOCAL];
    sim->pend_dw = sim->energy[DEM_E_WORK_WALLS] - before[DEM_E_WORK_WALLS];
    sim->acct = ACCT_PENDING;
    sim->step++;
    if (sim->exact) sim->time = (double)(sim->tick += sim->dir) * sim->dt;
    else sim->time += sim->h;
    if (sim->exact && (st = exact_range_check(sim, err))) return st;
    if (sim->step % 64 == 0 && (st = check_finite(sim, err))) return st;
    return DEM_OK;
}

/* ================================================================ setup and store */
static dem_status alloc_all(dem_sim *sim, dem_error *err)
{
    size_t n = sim->n ? sim->n : 1, nw = sim->nwalls;
#define A(ptr, count) if (!((ptr) = calloc((count), sizeof *(ptr)))) goto nomem
    A(sim->x, n); A(sim->v, n); A(sim->w, n); A(sim->f, n); A(sim->t, n); A(sim->q, n);
    A(sim->r, n); A(sim->m, n); A(sim->inertia, n); A(sim->mat, n); A(sim->flags, n); A(sim->group, n);
    A(sim->id, n); A(sim->image, n); A(sim->x_build, n); A(sim->wrapped, n); A(sim->inv_m, n); A(sim->inv_i, n); A(sim->jadj_start, n + 1); A(sim->istart, n + 1);
    A(sim->cell_items, n); A(sim->edis, n * EDIS); A(sim->vf, n); A(sim->wf, n);
    sim->nblk = (sim->n + PAIR_BLOCK - 1) / PAIR_BLOCK;
    A(sim->bsum, sim->nblk ? sim->nblk : 1); A(sim->blost, sim->nblk ? sim->nblk : 1); A(sim->pblk, sim->nblk + 1);
    A(sim->V, n); A(sim->K, n); A(sim->kc, n); A(sim->kbad, n); A(sim->wV, nw ? nw : 1);
    A(sim->wstart, n + 1); A(sim->wall_build, nw ? nw : 1);
#undef A
    return DEM_OK;
nomem:
    return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->n);
}

typedef struct {
    uint64_t id;
    uint32_t index;
} id_slot;

static int cmp_id_slot(const void *pa, const void *pb)
{
    const id_slot *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

static long find_index(const id_slot *ids, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ids[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && ids[lo].id == id ? (long)ids[lo].index : -1;
}

/* Contacts of the frame seed the histories of the list and the walls. */
static dem_status load_contacts(dem_sim *sim, const dem_system *s, dem_error *err)
{
    id_slot *ids = malloc((sim->n ? sim->n : 1) * sizeof *ids);
    if (!ids) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    for (size_t a = 0; a < sim->n; a++) { ids[a].id = sim->id[a]; ids[a].index = (uint32_t)a; }
    qsort(ids, sim->n, sizeof *ids, cmp_id_slot);
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        long i = find_index(ids, sim->n, c->i);
        if (i < 0) continue; /* dem_system_check guarantees it exists */
        dem_vec3 xi = dem_v3(c->hist[0], c->hist[1], c->hist[2]);
        if (s->hist_slots < 3) xi = dem_v3_zero();
        contact_out o;
        memset(&o, 0, sizeof o);
        o.n = c->normal;
        o.fn = dem_v3_dot(c->fn, c->normal);
        o.ft = c->ft;
        o.delta = c->overlap;
        if (c->flags & DEM_CONTACT_WALL) {
            size_t q = sim->wstart[i];
            while (q < sim->wstart[i + 1] && sim->wwall[q] != c->j) q++;
            if (q == sim->wstart[i + 1]) continue; /* the wall is out of reach: cannot be touching */
            nbr_pair *h = &sim->whist[q];
            sim->wout[q] = o;
            sim->wtouch[q] = 1;
            h->flags = PAIR_TOUCH | (c->flags & DEM_CONTACT_SLIDING ? PAIR_SLIDING : 0);
            h->xi[0] = xi.x; h->xi[1] = xi.y; h->xi[2] = xi.z;
            h->diss[0] = c->diss_friction; h->diss[1] = c->diss_damp_n; h->diss[2] = c->diss_damp_t;
            continue;
        }
        long j = find_index(ids, sim->n, c->j);
        if (j < 0) continue;
        nbr_pair key;
        memset(&key, 0, sizeof key);
        if (i <= j) {
            key.i = (uint32_t)i; key.j = (uint32_t)j;
            memcpy(key.s, c->shift, sizeof key.s);
        } else { /* the frame names them the other way round: flip the pair */
            key.i = (uint32_t)j; key.j = (uint32_t)i;
            for (int a = 0; a < 3; a++) key.s[a] = -c->shift[a];
            xi = dem_v3_neg(xi);
            o.n = dem_v3_neg(o.n);
            o.ft = dem_v3_neg(o.ft);
        }
        nbr_pair *np = bsearch(&key, sim->pairs, sim->npairs, sizeof key, cmp_pair_key);
        if (!np) continue; /* not within the cutoff any more: cannot be touching */
        sim->out[np - sim->pairs] = o;
        sim->ptouch[np - sim->pairs] = 1;
        np->flags = PAIR_TOUCH | (c->flags & DEM_CONTACT_SLIDING ? PAIR_SLIDING : 0);
        np->xi[0] = xi.x; np->xi[1] = xi.y; np->xi[2] = xi.z;
        np->diss[0] = c->diss_friction; np->diss[1] = c->diss_damp_n; np->diss[2] = c->diss_damp_t;
    }
    free(ids);
    return DEM_OK;
}

/* A frame with current forces: the tangential spring energies, dashpot parts and powers at
 * the frame's step, computed from the frame exactly as the step that wrote it did. */
/* The tangential state of one contact as the step that wrote the frame left it. */
static void restore_contact_state(const dem_sim *sim, const dem_pair *p, nbr_pair *h, const contact_out *o)
{
    const dem_tangential_model *tm = dem_tangential_models[sim->st.tangential];
    double stt = tm->uses_history ? tm->stiffness(p, sim->st.normal, o->delta) : 0.0;
    double fe, sn;
    dem_normal_models[sim->st.normal]->eval(p, o->delta, &fe, &sn);
    const dem_damping_model *dm = dem_damping_models[sim->st.damping];
    double eta_t = dm->eta_t(p, &sim->st, dm->eta_n(p, &sim->st, sn), sn, stt);
    if (!tm->uses_history) h->xi[0] = h->xi[1] = h->xi[2] = 0.0;
    h->stt = stt;
    h->flags = (h->flags & ~PAIR_ETA_T) | (eta_t != 0.0 ? PAIR_ETA_T : 0u);
}

static void restore_energy_state(dem_sim *sim)
{
    for (size_t q = 0; q < sim->npairs; q++) {
        if (!sim->ptouch[q]) continue;
        dem_pair p;
        pair_properties(sim, &p, sim->pairs[q].i, sim->pairs[q].j, &sim->pairs[q]);
        restore_contact_state(sim, &p, &sim->pairs[q], &sim->out[q]);
    }
    for (size_t q = 0; q < sim->nwslots; q++) {
        if (!sim->wtouch[q]) continue;
        dem_pair p;
        wall_pair_properties(sim, sim->wowner[q], sim->wwall[q], &sim->whist[q], &p);
        restore_contact_state(sim, &p, &sim->whist[q], &sim->wout[q]);
    }
    contacts_setup(sim);
}

static dem_status check_supported(const dem_system *s, dem_error *err)
{
    if (s->nclumps)
        return dem_fail(err, DEM_ERR_VALUE, "the frame holds %zu rigid clumps: clumps are not supported by this dem-step yet", s->nclumps);
    for (size_t a = 0; a < s->nparticles; a++)
        if (s->particles[a].clump)
            return dem_fail(err, DEM_ERR_VALUE, "particle %llu belongs to clump %llu: clumps are not supported by this dem-step yet",
                            (unsigned long long)s->particles[a].id, (unsigned long long)s->particles[a].clump);
    if (s->cell.flags) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (s->cell.vgrad.m[r][c] != 0.0)
                    return dem_fail(err, DEM_ERR_VALUE, "the periodic cell has a velocity gradient: deforming cells are not supported by this dem-step yet");
        if (s->cell.stress_mask)
            return dem_fail(err, DEM_ERR_VALUE, "the periodic cell is stress controlled: servos are not supported by this dem-step yet");
    }
    if (s->nparticles > UINT32_MAX / 2)
        return dem_fail(err, DEM_ERR_LIMIT, "%zu particles: at most %u are supported", s->nparticles, UINT32_MAX / 2);
    return DEM_OK;
}

static double default_skin(const dem_sim *sim)
{
    double rmin = INFINITY;
    for (size_t a = 0; a < sim->n; a++)
        if (sim->r[a] < rmin) rmin = sim->r[a];
    return sim->n ? 0.2 * rmin : 0.0;
}

dem_sim *dem_sim_new(const dem_system *s, const dem_settings *st, int threads, dem_error *err)
{
    if (check_supported(s, err)) return NULL;
    dem_sim *sim = calloc(1, sizeof *sim);
    if (!sim) { dem_fail(err, DEM_ERR_NOMEM, "out of memory"); return NULL; }
    sim->st = *st;
    sim->threads = threads < 1 ? 1 : threads;
    sim->dt = s->dt;
    sim->dir = 1;
    sim->h = s->dt;
    sim->step = s->step;
    sim->time = s->time;
    sim->n = s->nparticles;
    sim->nwalls = s->nwalls;
    sim->nmat = s->nmaterials;
    sim->cell = s->cell;
    memcpy(sim->energy, s->energy, sizeof sim->energy);
    if (alloc_all(sim, err)) { dem_sim_free(sim); return NULL; }
    sim->materials = malloc((sim->nmat ? sim->nmat : 1) * sizeof *sim->materials);
    sim->mp = malloc((sim->nmat ? sim->nmat * sim->nmat : 1) * sizeof *sim->mp);
    sim->walls = malloc((sim->nwalls ? sim->nwalls : 1) * sizeof *sim->walls);
    sim->wwork = malloc((sim->nwalls ? sim->nwalls : 1) * sizeof *sim->wwork);
    if (!sim->materials || !sim->mp || !sim->walls || !sim->wwork) { dem_fail(err, DEM_ERR_NOMEM, "out of memory"); dem_sim_free(sim); return NULL; }
    if (sim->nmat) memcpy(sim->materials, s->materials, sim->nmat * sizeof *sim->materials);
    if (sim->nwalls) memcpy(sim->walls, s->walls, sim->nwalls * sizeof *sim->walls);
    for (size_t a = 0; a < sim->nmat; a++)
        for (size_t b = 0; b < sim->nmat; b++) {
            dem_pair p;
            dem_pair_init(&p, st, 1.0, 1.0, &sim->materials[a], 1.0, 1.0, &sim->materials[b]);
            mat_pair *mp = &sim->mp[a * sim->nmat + b];
            mp->estar = p.estar; mp->gstar = p.gstar; mp->gstar_l = p.gstar_l; mp->mu = p.mu; mp->beta = p.beta;
        }
    sim->rmax = 0.0;
    for (size_t a = 0; a < sim->n; a++) {
        const dem_particle *p = &s->particles[a];
        sim->x[a] = p->pos; sim->v[a] = p->vel; sim->w[a] = p->omega;
        sim->f[a] = p->force; sim->t[a] = p->torque; sim->q[a] = p->orient;
        sim->r[a] = p->radius; sim->m[a] = p->mass; sim->inertia[a] = p->inertia;
        sim->mat[a] = p->material; sim->flags[a] = p->flags; sim->group[a] = p->group;
        sim->id[a] = p->id;
        sim->inv_m[a] = 1.0 / p->mass;
        sim->inv_i[a] = 1.0 / p->inertia;
        memcpy(sim->image[a], p->image, sizeof p->image);
        if (p->radius > sim->rmax) sim->rmax = p->radius;
    }
    for (int k = 0; k < 3; k++) sim->periodic[k] = (s->cell.flags >> k) & 1;
    if (s->cell.flags) cell_inverse(sim);
    sim->skin = st->skin > 0.0 ? st->skin : default_skin(sim);
    sim->sort_every = (uint64_t)st->sort_every;
    sim->sorted_step = UINT64_MAX;
    for (int k = 0; k < 3; k++)
        if (sim->periodic[k] && cell_width(&sim->cell, k) < 2.0 * sim->rmax + sim->skin) {
            dem_fail(err, DEM_ERR_VALUE, "the periodic cell is %g m wide along cell vector %c, less than the neighbour cutoff %g m (largest diameter plus skin): a particle would touch its own image",
                     cell_width(&sim->cell, k), "abc"[k], 2.0 * sim->rmax + sim->skin);
            dem_sim_free(sim);
            return NULL;
        }
    sim->forces_current = (s->flags & DEM_HEAD_FORCES_CURRENT) != 0;
    dem_status r;
    if (sim->n && (r = rebuild(sim, 0, err))) {
        dem_sim_free(sim);
        return NULL;
    }
    for (size_t p = 0; p < sim->npairs; p++) {
        sim->ptouch[p] = 0;
        memset(&sim->out[p], 0, sizeof sim->out[p]);
    }
    /* With current forces, the frame's contacts stand for this step's results too, so that a
     * frame stored before any step equals the one read. */
    if (sim->n && (r = load_contacts(sim, s, err))) {
        dem_sim_free(sim);
        return NULL;
    }
    if (sim->forces_current) restore_energy_state(sim);
    return sim;
}

void dem_sim_free(dem_sim *sim)
{
    if (!sim) return;
    void *ptrs[] = {sim->x, sim->v, sim->w, sim->f, sim->t, sim->q, sim->r, sim->m, sim->inertia, sim->mat,
                    sim->flags, sim->group, sim->id, sim->image, sim->x_build, sim->wrapped, sim->inv_m, sim->inv_i, sim->jadj_start, sim->istart, sim->cell_items,
                    sim->edis, sim->whist, sim->wout, sim->wtouch, sim->wstart, sim->wowner, sim->wwall, sim->materials, sim->mp, sim->walls, sim->wwork, sim->pairs, sim->out, sim->bsum, sim->pblk, sim->wall_build, sim->blost, sim->vf, sim->wf, sim->wlost, sim->ptouch,
                    sim->jadj, sim->cell_start, sim->V, sim->K, sim->kc, sim->kbad, sim->wV};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) free(ptrs[k]);
    free(sim);
}

void dem_sim_set_dt(dem_sim *sim, double dt)
{
    flush_accounting(sim);
    sim->dt = dt;
    sim->h = sim->dir * dt;
}
void dem_sim_set_direction(dem_sim *sim, int dir)
{
    flush_accounting(sim);
    sim->dir = dir < 0 ? -1 : 1;
    sim->h = sim->dir * sim->dt;
}
int dem_sim_exact(const dem_sim *sim, double *quantum)
{
    if (quantum) *quantum = sim->exact ? sim->qx : 0.0;
    return sim->exact;
}
void dem_sim_set_energy(dem_sim *sim, int index, double value)
{
    flush_accounting(sim);
    sim->energy[index] = value;
}
double dem_sim_dt(const dem_sim *sim) { return sim->dt; }
uint64_t dem_sim_steps(const dem_sim *sim) { return sim->step; }
double dem_sim_time(const dem_sim *sim) { return sim->time; }
uint64_t dem_sim_rebuilds(const dem_sim *sim) { return sim->rebuilds; }

void dem_sim_estimate_dt(dem_sim *sim, dem_dt_estimates *est)
{
    const dem_settings *st = &sim->st;
    est->contact_time = INFINITY;
    est->pwave = INFINITY;
    est->stiffness = INFINITY;
    int uses_e = !(st->normal == DEM_NORMAL_HOOKE && st->kn_rule == DEM_KN_GIVEN);
    for (size_t a = 0; a < sim->n; a++) {
        const dem_material *m = &sim->materials[sim->mat[a]];
        dem_pair p;
        dem_pair_init(&p, st, sim->r[a], sim->m[a], m, sim->r[a], sim->m[a], m);
        double tc = st->normal == DEM_NORMAL_HOOKE
                        ? M_PI * sqrt(p.mstar / p.kn)                                            /* seed 001 eq 7 */
                        : DEM_HERTZ_TC * pow(p.mstar * p.mstar / (p.rstar * p.estar * p.estar * st->vc), 0.2); /* eq 30 */
        if (tc < est->contact_time) est->contact_time = tc;
        double tp = sim->r[a] * sqrt(m->density / m->young);                                 /* seed 002 §1.5.6 */
        if (tp < est->pwave) est->pwave = tp;
    }
    if (!uses_e) est->pwave = NAN;
    /* global stiffness (seed 002 eq 1.12): sum of the normal stiffnesses of each particle's
     * contacts, from the geometry alone (no force evaluation: that would fix the order of the
     * first force sums before the particles are sorted) */
    double *k = calloc(sim->n ? sim->n : 1, sizeof *k);
    if (k) {
        const dem_normal_model *nm = dem_normal_models[st->normal];
        for (size_t p = 0; p < sim->npairs; p++) {
            const nbr_pair *np = &sim->pairs[p];
            dem_vec3 xj = sim->x[np->j];
            if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
            double delta = sim->r[np->i] + sim->r[np->j] - dem_v3_norm(dem_v3_sub(sim->x[np->i], xj));
            if (!(delta > 0.0)) continue;
            dem_pair pp;
            pair_properties(sim, &pp, np->i, np->j, np);
            double s = nm->stiffness(&pp, delta);
            k[np->i] += s;
            k[np->j] += s;
        }
        for (size_t a = 0; a < sim->n; a++)
            if (k[a] > 0.0) {
                double t = sqrt(2.0 * sim->m[a] / k[a]);
                if (t < est->stiffness) est->stiffness = t;
            }
        free(k);
    }
    double rec = est->contact_time / 50.0;
    if (uses_e && 0.2 * est->pwave < rec) rec = 0.2 * est->pwave;
    if (0.3 * est->stiffness < rec) rec = 0.3 * est->stiffness;
    est->recommended = rec;
}

typedef struct {
    uint64_t i, j;
    int32_t s[3];
    uint32_t wall;
    int flip;         /* the frame names the pair the other way round: negate the vectors */
    const nbr_pair *h;
    const contact_out *o;
} out_contact;

static int cmp_out_contact(const void *pa, const void *pb)
{
    const out_contact *a = pa, *b = pb;
    if (a->wall != b->wall) return a->wall < b->wall ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (a->s[k] != b->s[k]) return a->s[k] < b->s[k] ? -1 : 1;
    return 0;
}

static dem_contact make_contact(const out_contact *oc, int history)
{
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = oc->i;
    c.j = oc->j;
    memcpy(c.shift, oc->s, sizeof c.shift);
    c.flags = (oc->wall ? DEM_CONTACT_WALL : 0) | (oc->h->flags & PAIR_SLIDING ? DEM_CONTACT_SLIDING : 0);
    double sg = oc->flip ? -1.0 : 1.0;
    c.overlap = oc->o->delta;
    c.normal = dem_v3_scale(oc->o->n, sg);
    c.fn = dem_v3_scale(c.normal, oc->o->fn);
    c.ft = dem_v3_scale(oc->o->ft, sg);
    c.diss_friction = oc->h->diss[0];
    c.diss_damp_n = oc->h->diss[1];
    c.diss_damp_t = oc->h->diss[2];
    if (history)
        for (int k = 0; k < 3; k++) c.hist[k] = sg * oc->h->xi[k];
    return c;
}

dem_status dem_sim_store(dem_sim *sim, dem_system *out, dem_error *err)
{
    dem_status st;
    flush_accounting(sim);
    if (!sim->forces_current) setup_forces(sim);
    apply_setup(sim);
    out->step = sim->step;
    out->time = sim->time;
    out->dt = sim->dt;
    out->cell = sim->cell; /* the same, or put onto the exact lattice */
    out->flags |= DEM_HEAD_FORCES_CURRENT;
    memcpy(out->energy, sim->energy, sizeof out->energy);
    for (size_t a = 0; a < sim->n; a++) {
        dem_particle *p = &out->particles[a];
        p->id = sim->id[a]; p->radius = sim->r[a]; p->mass = sim->m[a]; p->inertia = sim->inertia[a];
        p->material = sim->mat[a]; p->flags = sim->flags[a]; p->group = sim->group[a]; p->clump = 0;
        p->pos = sim->x[a]; p->vel = sim->v[a]; p->omega = sim->w[a];
        p->force = sim->f[a]; p->torque = sim->t[a]; p->orient = sim->q[a];
        memcpy(p->image, sim->image[a], sizeof p->image);
    }
    if (sim->nwalls) memcpy(out->walls, sim->walls, sim->nwalls * sizeof *sim->walls);
    int history = dem_tangential_models[sim->st.tangential]->uses_history;
    size_t count = 0;
    for (size_t p = 0; p < sim->npairs; p++) count += sim->ptouch[p];
    for (size_t q = 0; q < sim->nwslots; q++) count += sim->wtouch[q];
    out_contact *list = malloc((count ? count : 1) * sizeof *list);
    if (!list) return dem_fail(err, DEM_ERR_NOMEM, "out of memory storing %zu contacts", count);
    size_t c = 0;
    for (size_t p = 0; p < sim->npairs; p++) {
        if (!sim->ptouch[p]) continue;
        const nbr_pair *np = &sim->pairs[p];
        out_contact *oc = &list[c++];
        /* frames name each pair with the smaller id first, whatever the internal order */
        oc->flip = sim->id[np->i] > sim->id[np->j];
        oc->i = sim->id[oc->flip ? np->j : np->i];
        oc->j = sim->id[oc->flip ? np->i : np->j];
        for (int k = 0; k < 3; k++) oc->s[k] = oc->flip ? -np->s[k] : np->s[k];
        oc->wall = 0;
        oc->h = np;
        oc->o = &sim->out[p];
    }
    for (size_t q = 0; q < sim->nwslots; q++) {
        if (!sim->wtouch[q]) continue;
        out_contact *oc = &list[c++];
        oc->i = sim->id[sim->wowner[q]];
        oc->j = sim->wwall[q];
        oc->flip = 0;
        memset(oc->s, 0, sizeof oc->s);
        oc->wall = 1;
        oc->h = &sim->whist[q];
        oc->o = &sim->wout[q];
    }
    qsort(list, count, sizeof *list, cmp_out_contact);
    out->ncontacts = 0;
    out->hist_slots = history ? 3 : 0;
    if ((st = dem_system_reserve_contacts(out, count, err))) { free(list); return st; }
    for (size_t k = 0; k < count; k++) {
        dem_contact ct = make_contact(&list[k], history);
        dem_system_push_contact(out, &ct, err);
    }
    free(list);
    return dem_settings_write(&sim->st, out, err);
}
