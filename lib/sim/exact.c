/* exact.c - the exact (fixed-point) mode (see exact.h). */
#include "sim/internal/exact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/clumps.h"
#include "sim/internal/boundary.h"
#include "sim/internal/books.h"
#include "sim/internal/dist.h"
#include "sim/internal/forces.h"
#include "sim/internal/par.h"

dem_status dem_exact_alloc(dem_sim *sim, dem_error *err)
{
    sim_exact *x = &sim->ex;
    size_t nw = sim->b.nwalls ? sim->b.nwalls : 1;
    x->wV = calloc(nw, sizeof *x->wV);
    if (!x->wV) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu walls", sim->b.nwalls);
    return DEM_OK;
}

/* The particles' lattice arrays, 57 bytes a particle, made when the mode is entered: a run in
 * floating point never holds them (a re-sort would otherwise make their pages resident). */
static dem_status particles_alloc(dem_sim *sim, dem_error *err)
{
    sim_exact *x = &sim->ex;
    size_t n = sim->p.n ? sim->p.n : 1;
    if (!x->V) x->V = calloc(n, sizeof *x->V);
    if (!x->K) x->K = calloc(n, sizeof *x->K);
    if (!x->kc) x->kc = calloc(n, sizeof *x->kc);
    if (!x->kbad) x->kbad = calloc(n, sizeof *x->kbad);
    if (!x->V || !x->K || !x->kc || !x->kbad)
        return dem_fail(err, DEM_ERR_NOMEM, "exact mode: out of memory for the lattice of %zu particles", sim->p.n);
    return DEM_OK;
}

void dem_exact_free(dem_sim *sim)
{
    sim_exact *x = &sim->ex;
    free(x->V);
    free(x->K);
    free(x->kc);
    free(x->kbad);
    free(x->wV);
}

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

void dem_exact_kick(dem_sim *sim, size_t a)
{
    uint8_t bad = 0;
    double c = sim->ex.kc[a];
    int64_t k[3] = {sim->ex.kg[0], sim->ex.kg[1], sim->ex.kg[2]};
    /* in the order of particle_forces; j receives -F: an exact negation */
    for (size_t e = sim->c.jadj_start[a]; e < sim->c.jadj_start[a + 1]; e++)
        lattice_add(k, dem_v3_neg(dem_contact_force(&sim->c.out[sim->c.jadj[e]])), c, &bad);
    for (size_t p = sim->c.istart[a]; p < sim->c.istart[a + 1]; p++) lattice_add(k, dem_contact_force(&sim->c.out[p]), c, &bad);
    for (size_t q = sim->c.wstart[a]; q < sim->c.wstart[a + 1]; q++) {
        if (sim->c.wtouch[q]) lattice_add(k, dem_contact_force(&sim->c.wout[q]), c, &bad);
    }
    memcpy(sim->ex.K[a], k, sizeof k);
    sim->ex.kbad[a] |= bad;
    /* the force a frame records: the kick's, so that a frame read back gives the same kick */
    sim->p.f[a] = dem_v3((double)k[0] / c, (double)k[1] / c, (double)k[2] / c);
}

static inline int lattice_ok(int64_t v) { return v > -(int64_t)LATTICE_MAX && v < (int64_t)LATTICE_MAX; }

static inline void exact_kick_particle(dem_sim *sim, size_t a, int64_t dir)
{
    if (sim->p.flags[a] & DEM_PARTICLE_FIXED) return;
    for (int k = 0; k < 3; k++) {
        sim->ex.V[a][k] += dir * sim->ex.K[a][k];
        if (!lattice_ok(sim->ex.V[a][k])) sim->ex.kbad[a] |= KBAD_VEL;
    }
    sim->p.v[a] = dem_v3((double)sim->ex.V[a][0] * sim->ex.qv, (double)sim->ex.V[a][1] * sim->ex.qv, (double)sim->ex.V[a][2] * sim->ex.qv);
}

static PAR_RANGE void exact_kick_range(dem_sim *sim, size_t lo, size_t hi, int64_t dir)
{
    for (size_t a = lo; a < hi; a++) exact_kick_particle(sim, a, dir);
}

typedef struct {
    dem_sim *sim;
    int64_t dir;
    size_t first; /* dist.h's dist_stepped: 0 but with own stepping */
} exact_kick_args;

static void exact_kick_share(void *ctx, size_t lo, size_t hi, int t) /* par.h */
{
    const exact_kick_args *a = ctx;
    (void)t;
    exact_kick_range(a->sim, a->first + lo, a->first + hi, a->dir);
}

void dem_exact_half_kick(dem_sim *sim)
{
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1); /* dist.h: every particle, or this process's own */
    exact_kick_args a = {sim, sim->dir, p0};
    dem_par_for(sim->pool, p1 - p0, exact_kick_share, &a); /* par.h */
}

/* X += dir V on the lattice of quantum qx (iq = 1/qx, a power of two). */
static inline void exact_drift_particle(dem_sim *sim, size_t a, int64_t dir, double qx, double iq)
{
    sim->e.edis[a * EDIS + EDIS_DRAG] = 0.0;
    if ((sim->p.flags[a] & DEM_PARTICLE_FIXED) && !dem_particle_driven(&sim->p, a)) return; /* driven: X += V too */
    double x[3] = {sim->p.x[a].x, sim->p.x[a].y, sim->p.x[a].z};
    for (int k = 0; k < 3; k++) {
        int64_t X = (int64_t)(x[k] * iq) + dir * sim->ex.V[a][k]; /* x * iq: exact, a power of two */
        if (!lattice_ok(X)) sim->ex.kbad[a] |= KBAD_POS;
        x[k] = (double)X * qx;
    }
    sim->p.x[a] = dem_v3(x[0], x[1], x[2]);
}

static PAR_RANGE void exact_drift_range(dem_sim *sim, size_t lo, size_t hi, int64_t dir, double qx, double iq)
{
    for (size_t a = lo; a < hi; a++) exact_drift_particle(sim, a, dir, qx, iq);
}

typedef struct {
    dem_sim *sim;
    int64_t dir;
    double qx, iq;
    size_t first; /* as exact_kick_args' */
} exact_drift_args;

static void exact_drift_share(void *ctx, size_t lo, size_t hi, int t) /* par.h */
{
    const exact_drift_args *a = ctx;
    (void)t;
    exact_drift_range(a->sim, a->first + lo, a->first + hi, a->dir, a->qx, a->iq);
}

void dem_exact_drift(dem_sim *sim)
{
    int64_t dir = sim->dir;
    double qx = sim->ex.qx, iq = 1.0 / qx;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    exact_drift_args a = {sim, dir, qx, iq, p0};
    dem_par_for(sim->pool, p1 - p0, exact_drift_share, &a); /* par.h */
    for (size_t k = 0; k < sim->b.nwalls; k++) {
        dem_vec3 *p = &sim->b.walls[k].point;
        int64_t X[3] = {(int64_t)(p->x * iq) + dir * sim->ex.wV[k][0], (int64_t)(p->y * iq) + dir * sim->ex.wV[k][1],
                        (int64_t)(p->z * iq) + dir * sim->ex.wV[k][2]}; /* |each term| < 2^53: no overflow */
        if ((!lattice_ok(X[0]) || !lattice_ok(X[1]) || !lattice_ok(X[2])) && !sim->ex.wbad) sim->ex.wbad = k + 1;
        *p = dem_v3((double)X[0] * qx, (double)X[1] * qx, (double)X[2] * qx);
    }
}

dem_status dem_exact_range_check(dem_sim *sim, dem_error *err)
{
    if (sim->ex.wbad)
        return dem_fail(err, DEM_ERR_LIMIT,
                        "step %llu: the point of wall %zu leaves the range of the exact lattice (2^53 quanta of %g m, i.e. |x| < %g m): choose a coarser --exact quantum, or fewer steps of a moving wall",
                        (unsigned long long)sim->step, sim->ex.wbad - 1, sim->ex.qx, LATTICE_MAX * sim->ex.qx);
    if (dist_local(sim)) { /* dist.h: each process its own particles; the whole state only to report one */
        size_t p0, p1, bad[1] = {0};
        dist_stepped(sim, &p0, &p1);
        for (size_t a = p0; a < p1 && !bad[0]; a++) bad[0] = sim->ex.kbad[a] != 0;
        dem_dist_sum_counts(sim, bad, 1);
        if (!bad[0]) return DEM_OK;
        dem_dist_whole(sim);
    }
    for (size_t a = 0; a < sim->p.n; a++) {
        if (!sim->ex.kbad[a]) continue;
        uint8_t b = sim->ex.kbad[a];
        const char *what = b & KBAD_POS ? "position" : b & KBAD_VEL ? "velocity" : "force";
        return dem_fail(err, DEM_ERR_LIMIT,
                        "step %llu: the %s of particle %llu leaves the range of the exact lattice (2^53 quanta of %g m, i.e. |x| < %g m, |v| < %g m/s): choose a coarser --exact quantum",
                        (unsigned long long)sim->step, what, (unsigned long long)sim->p.id[a], sim->ex.qx, LATTICE_MAX * sim->ex.qx,
                        LATTICE_MAX * sim->ex.qv);
    }
    return DEM_OK;
}

/* round(a b / d), half away from zero (so that -a gives the negation), d > 0; 128-bit product */
static int64_t mul_div_round(int64_t a, int64_t b, int64_t d)
{
    __int128 p = (__int128)a * b, m = p < 0 ? -p : p;
    __int128 q = (2 * m + d) / (2 * (__int128)d);
    return (int64_t)(p < 0 ? -q : q);
}

/* dist.h's chain: the field's map of this process's particles (dist_stepped), in order, and the
 * kinetic energy it changed (acc: that sum, then the signed step h it runs on). */
static void field_run(dem_sim *sim, void *acc)
{
    double *dk_h = acc, dk = dk_h[0];
    sim_exact *x = &sim->ex;
    sim_particles *P = &sim->p;
    const int i = x->sh_i, j = x->sh_j;
    const int64_t n = dk_h[1] < 0.0 ? -x->sh_n : x->sh_n, hq = x->sh_hq;
    const double qx = x->qx, iq = 1.0 / qx;
    const int64_t oj = (int64_t)(dem_v3_get(sim->b.cell.origin, j) * iq);
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    for (size_t a = p0; a < p1; a++) {
        double c[3] = {P->x[a].x, P->x[a].y, P->x[a].z};
        int64_t xi = (int64_t)(c[i] * iq), xj = (int64_t)(c[j] * iq);
        c[i] = (double)(xi + mul_div_round(n, xj - oj, hq)) * qx;
        P->x[a] = dem_v3(c[0], c[1], c[2]);
        if (P->flags[a] & DEM_PARTICLE_FIXED) continue;
        double e0 = dem_v3_norm2(P->v[a]);
        x->V[a][i] -= mul_div_round(n, x->V[a][j], hq);
        P->v[a] = dem_v3((double)x->V[a][0] * x->qv, (double)x->V[a][1] * x->qv, (double)x->V[a][2] * x->qv);
        dk += 0.5 * P->m[a] * (dem_v3_norm2(P->v[a]) - e0);
    }
    dk_h[0] = dk;
}

double dem_exact_field(dem_sim *sim, double h)
{
    double dk_h[2] = {0.0, h};
    dem_dist_chain(sim, dk_h, sizeof dk_h, field_run); /* dist.h: one process's order on any number */
    /* H_i,c += n H_j,c / H_jj: n for c = j, 0 for the others (row j of H is diagonal) */
    int64_t n = h < 0.0 ? -sim->ex.sh_n : sim->ex.sh_n;
    sim->b.cell.h.m[sim->ex.sh_i][sim->ex.sh_j] += (double)n * sim->ex.qx;
    return dk_h[0];
}

/* Exact mode's deforming cell: simple shear at a fixed rate, L_ij alone (i != j, both periodic),
 * row j of H diagonal; the rate is snapped so that the face moves a whole number of quanta per
 * half step (dem_exact_field). */
static dem_status exact_shear_setup(dem_sim *sim, dem_error *err)
{
    dem_cell *c = &sim->b.cell;
    sim_exact *x = &sim->ex;
    x->shear = 0;
    if (!sim->b.deforming) return DEM_OK;
    if (c->stress_mask)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: a stress-controlled cell decides its rates from the forces each step, which the lattice cannot carry: give the rates with --cell-rate (simple shear), or run it in floating point");
    int count = 0, ni = 0, nj = 0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            if (c->vgrad.m[r][k] != 0.0) count++, ni = r, nj = k;
    if (count != 1 || ni == nj)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: the lattice can hold a deforming cell only in simple shear, one off-diagonal component of L (e.g. --cell-rate xy=10), whose map x_i += L_ij (x_j - o_j) dt is an integer shear of the lattice; a stretch (a diagonal component) maps positions by M (x - o), which does not carry the position lattice onto itself: the lattice cannot hold this deforming cell (run it in floating point)");
    if (!sim->b.periodic[ni] || !sim->b.periodic[nj])
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: simple shear %c%c needs a cell periodic along %c and %c", "xyz"[ni], "xyz"[nj], "xyz"[ni], "xyz"[nj]);
    for (int k = 0; k < 3; k++)
        if (k != nj && c->h.m[nj][k] != 0.0)
            return dem_fail(err, DEM_ERR_VALUE, "exact mode: simple shear %c%c needs row %c of the cell matrix H to be diagonal (H_%c%c = %g m): the cell's faces across %c must stay apart by H_%c%c",
                            "xyz"[ni], "xyz"[nj], "xyz"[nj], "xyz"[nj], "xyz"[k], c->h.m[nj][k], "xyz"[nj], "xyz"[nj], "xyz"[nj]);
    double hjj = c->h.m[nj][nj], qx = x->qx;
    if (!(hjj / qx >= 1.0))
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: simple shear %c%c needs H_%c%c > 0 of at least one quantum (%g m): it is %g m",
                        "xyz"[ni], "xyz"[nj], "xyz"[nj], "xyz"[nj], qx, hjj);
    double nq = round(c->vgrad.m[ni][nj] * 0.5 * sim->dt * hjj / qx);
    if (nq == 0.0 || !(fabs(nq) < LATTICE_MAX))
        return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the shear rate %g 1/s moves the cell's face by %g quanta per half step: choose a finer quantum than %g m",
                        c->vgrad.m[ni][nj], c->vgrad.m[ni][nj] * 0.5 * sim->dt * hjj / qx, qx);
    x->shear = 1;
    x->sh_i = ni;
    x->sh_j = nj;
    x->sh_n = (int64_t)nq;
    x->sh_hq = (int64_t)llround(hjj / qx);
    /* the rate the lattice carries (relative change below 1 / (2 n)): what the frames record */
    c->vgrad.m[ni][nj] = nq * qx / (0.5 * sim->dt * hjj);
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
    /* room for the system to grow fourfold: 2^53 qx >= 4 ext (4 ext past the doubles' range, from
     * a frame no sim takes: the largest power, never an int out of range) */
    int e2 = ext < 0x1p1020 ? (int)ceil(log2(4.0 * ext)) : 1023;
    return ldexp(1.0, e2 - 53);
}

dem_status dem_sim_set_exact(dem_sim *sim, double quantum, dem_error *err)
{
    int e;
    if (sim->cl)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: the frame holds %zu rigid clumps, whose rotation (rigid.h's rotor: sines and "
                        "cosines of the angular momentum) cannot be carried on the integer lattice; reverse clumps in floating point "
                        "(without --exact)", sim->cl->n);
    dem_books_flush(sim);
    if (!(quantum > 0.0) || !isfinite(quantum) || frexp(quantum, &e) != 0.5)
        return dem_fail(err, DEM_ERR_VALUE, "exact quantum %g m: must be a positive power of two", quantum);
    if (sim->st.tangential != 0 && dem_tangential_models[sim->st.tangential]->uses_history)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: the tangential model '%s' exerts torques, and spins have no lattice: use --tangential none",
                        dem_tangential_models[sim->st.tangential]->name);
    if (sim->bd.n)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: the frame holds %zu bonds, whose forces are not rounded onto the lattice one by one: run it in floating point",
                        sim->bd.n);
    if (sim->st.local_damping > 0.0)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: local damping acts on the summed force, which would depend on the order of the sums: set --local-damping 0");
    if (sim->st.drag != 1.0)
        return dem_fail(err, DEM_ERR_VALUE, "exact mode: drag (v -> %g v) does not map the velocity lattice onto itself one to one: set --drag 1", sim->st.drag);
    dem_status st = particles_alloc(sim, err);
    if (st) return st;
    double dt = sim->dt, qx = quantum, qv = quantum / dt;
    int moved = 0;
    int64_t u[3];
    for (size_t a = 0; a < sim->p.n; a++) {
        if (sim->p.w[a].x != 0.0 || sim->p.w[a].y != 0.0 || sim->p.w[a].z != 0.0)
            return dem_fail(err, DEM_ERR_VALUE, "exact mode: particle %llu spins; frictionless spheres never change their spin, but an orientation has no lattice: set the angular velocities to zero",
                            (unsigned long long)sim->p.id[a]);
        if (!snap3(&sim->p.x[a], qx, u, &moved))
            return dem_fail(err, DEM_ERR_LIMIT, "exact mode: particle %llu at (%g, %g, %g) m lies beyond the lattice's range |x| < %g m: choose a coarser quantum than %g m",
                            (unsigned long long)sim->p.id[a], sim->p.x[a].x, sim->p.x[a].y, sim->p.x[a].z, LATTICE_MAX * qx, qx);
        if (!snap3(&sim->p.v[a], qv, sim->ex.V[a], &moved))
            return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the velocity of particle %llu lies beyond the lattice's range |v| < %g m/s", (unsigned long long)sim->p.id[a], LATTICE_MAX * qv);
        sim->nbr.x_build[a] = sim->p.x[a];
        sim->ex.kc[a] = dt * dt / (2.0 * sim->p.m[a] * qx);
        sim->ex.kbad[a] = 0;
    }
    for (size_t k = 0; k < sim->b.nwalls; k++) {
        dem_wall *wl = &sim->b.walls[k];
        if (!snap3(&wl->point, qx, u, &moved) || !snap3(&wl->vel, qv, sim->ex.wV[k], &moved))
            return dem_fail(err, DEM_ERR_LIMIT,
                            "exact mode: wall %zu's point (%g, %g, %g) m or velocity (%g, %g, %g) m/s lies beyond the lattice's range |x| < %g m, |v| < %g m/s: choose a coarser quantum than %g m",
                            k, wl->point.x, wl->point.y, wl->point.z, wl->vel.x, wl->vel.y, wl->vel.z, LATTICE_MAX * qx,
                            LATTICE_MAX * qv, qx);
    }
    if (sim->b.cell.flags) {
        dem_vec3 cols[3];
        for (int c = 0; c < 3; c++) cols[c] = dem_m3_col(sim->b.cell.h, c);
        for (int c = 0; c < 3; c++)
            if (!snap3(&cols[c], qx, u, &moved)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the periodic cell exceeds the lattice's range");
        if (!snap3(&sim->b.cell.origin, qx, u, &moved)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the periodic cell exceeds the lattice's range");
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sim->b.cell.h.m[r][c] = dem_v3_get(cols[c], r);
        dem_boundary_cell_inverse(sim);
    }
    sim->ex.qx = qx; /* exact_shear_setup's quantum (set again below with the mode) */
    dem_status shst = exact_shear_setup(sim, err);
    if (shst) return shst;
    for (int k = 0; k < 3; k++) {
        uint8_t bad = 0;
        sim->ex.kg[k] = lattice_round(dem_v3_get(sim->st.gravity, k) * dt * dt / (2.0 * qx), &bad);
        if (bad) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: gravity's kick exceeds the lattice's range");
    }
    double ticks = sim->time / dt;
    if (!(fabs(ticks) < LATTICE_MAX)) return dem_fail(err, DEM_ERR_LIMIT, "exact mode: the time %g s is beyond 2^53 steps", sim->time);
    sim->ex.tick = (int64_t)llround(ticks);
    sim->time = (double)sim->ex.tick * dt;
    sim->ex.on = 1;
    sim->ex.qx = qx;
    sim->ex.qv = qv;
    sim->st.exact_quantum = qx;
    /* The kick of these positions; the frame's forces stand only if they are that kick. */
    size_t n = sim->p.n;
    dem_vec3 *f0 = malloc((n ? n : 1) * sizeof *f0);
    if (!f0) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    memcpy(f0, sim->p.f, n * sizeof *f0);
    dem_forces_evaluate_only(sim);
    if (moved || (n && memcmp(f0, sim->p.f, n * sizeof *f0))) sim->forces_current = 0;
    free(f0);
    return dem_exact_range_check(sim, err);
}

