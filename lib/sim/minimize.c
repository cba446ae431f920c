/* minimize.c - quasi-static energy minimisation (dem_sim_minimize, sim.h): the alpha -> quasi-
 * static limit of De Klerk et al. 2022, §1, and the relaxation of jamming studies (Hanley 2019, §6).
 *
 * The potential energy V(x) of the frictionless contacts (the normal law's potential), the bonds
 * (kb delta^2/2), the walls and gravity is minimised over the positions of the free particles by
 * the Polak-Ribiere nonlinear conjugate gradient method (PR+, restarted along the force when the
 * direction stops descending; Nocedal & Wright, Numerical Optimization, 2nd ed., §5.2), with a
 * line search on the directional derivative phi'(s) = -F(x + s d) . d alone (no energy needed).
 * Why CG and not FIRE: the contact potential is piecewise quadratic, so phi' is piecewise linear
 * in s; a secant through two points where it is negative lands where the last contact of the
 * search direction opens to rounding, so two overlapping spheres end exactly touching. FIRE's
 * inertial steps overshoot into the flat region beyond, where every force is zero too, and
 * leave a gap of the last step's length.
 *
 * Velocities play no part: every velocity is 0 while the forces are evaluated (so the dashpots
 * and local damping exert nothing), free particles end at rest and fixed ones get their
 * prescribed velocities back. Fixed particles and walls do not move. Every sum is over the
 * particles in their (fixed) order: the same bits for any thread count. */
#include "sim/sim.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/bonds.h"
#include "sim/internal/books.h"
#include "sim/internal/clumps.h"
#include "sim/internal/boundary.h"
#include "sim/internal/forces.h"
#include "sim/internal/guard.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/state.h"

#define LINE_EVALS 60      /* force evaluations per line search at most */
#define LINE_TOL 1e-10     /* the search ends where |phi'| <= LINE_TOL |phi'(0)| */

typedef struct {
    dem_sim *sim;
    dem_vec3 *d;           /* search direction (0 for fixed particles) */
    dem_vec3 *fold;        /* the forces at the previous iterate */
    double s;              /* the step the positions are at along d */
    double runaway;        /* a step beyond which the descent has no bottom (descent_unbounded) */
    int unbounded;         /* the line search passed it, still descending */
    uint64_t evals;
    dem_error *err;
} mz;

static int is_free(const dem_sim *sim, size_t a) { return !(sim->p.flags[a] & DEM_PARTICLE_FIXED); }

/* The forces at the positions as they are: wrap, rebuild the list if needed, evaluate. */
static dem_status evaluate(mz *m)
{
    dem_sim *sim = m->sim;
    dem_status st;
    if ((st = dem_boundary_cell_wrap(sim, m->err))) return st;
    if (dem_nbr_needs_rebuild(sim)) {
        if ((st = dem_guard_check_finite(sim, m->err))) return st;
        if ((st = dem_nbr_rebuild(sim, 0, m->err))) return st;
    }
    dem_forces_evaluate_only(sim);
    m->evals++;
    return DEM_OK;
}

/* Move the free particles to step s along d (from the step they are at). */
static dem_status move_to(mz *m, double s)
{
    dem_sim *sim = m->sim;
    double ds = s - m->s;
    for (size_t a = 0; a < sim->p.n; a++)
        if (is_free(sim, a)) sim->p.x[a] = dem_v3_madd(sim->p.x[a], m->d[a], ds);
    m->s = s;
    return evaluate(m);
}

/* -F . d over the free particles (phi'(s) of the current positions). */
static double slope(const mz *m)
{
    const dem_sim *sim = m->sim;
    double g = 0.0;
    for (size_t a = 0; a < sim->p.n; a++)
        if (is_free(sim, a)) g -= dem_v3_dot(sim->p.f[a], m->d[a]);
    return g;
}

double dem_sim_largest_force(const dem_sim *sim)
{
    double f2 = 0.0;
    for (size_t a = 0; a < sim->p.n; a++)
        if (is_free(sim, a)) f2 = fmax(f2, dem_v3_norm2(sim->p.f[a]));
    return sqrt(f2);
}

double dem_sim_potential_energy(const dem_sim *sim)
{
    const sim_particles *P = &sim->p;
    const sim_store *c = &sim->c;
    const dem_normal_model *nm = dem_normal_models[sim->st.normal];
    double e = 0.0;
    for (size_t q = 0; q < c->npairs; q++) {
        if (!c->ptouch[q]) continue;
        dem_pair p;
        sim_pair_properties(sim, &p, q);
        e += nm->energy(&p, c->out[q].delta);
    }
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        dem_pair p;
        sim_wall_properties(sim, &p, q);
        e += nm->energy(&p, c->wout[q].delta);
    }
    if (sim->bd.n) e += dem_bonds_energy(sim);
    dem_vec3 g = sim->st.gravity;
    if (g.x != 0.0 || g.y != 0.0 || g.z != 0.0)
        for (size_t a = 0; a < P->n; a++) {
            dem_vec3 x = P->x[a];
            if (sim->b.cell.flags && (P->image[a][0] | P->image[a][1] | P->image[a][2])) x = dem_v3_add(x, cell_shift(sim, P->image[a]));
            e -= P->m[a] * dem_v3_dot(g, x);
        }
    return e;
}

/* The line search along d from s = 0 (the current positions, slope g0 < 0): the smallest s where
 * phi' reaches 0 (or the last evaluated point after LINE_EVALS). In a piece where phi' is linear
 * (a fixed set of touching quadratic contacts) the secant through two points of negative slope
 * gives the zero at once; where the slope is 0 exactly (every contact of the direction open) the
 * point is beyond the minimum's edge, and the search goes back towards it. *step: the first
 * trial step, on return the step taken. */
static dem_status line_search(mz *m, double g0, double *step)
{
    dem_status st;
    double lo = 0.0, glo = g0, plo = NAN, gplo = NAN; /* the last two points of negative slope */
    double hi = INFINITY, ghi = NAN;
    double s = *step, g = g0;
    m->s = 0.0;
    int illinois_side = 0;
    for (int k = 0; k < LINE_EVALS; k++) {
        if ((st = move_to(m, s))) return st;
        g = slope(m);
        if (fabs(g) <= LINE_TOL * fabs(g0) && g != 0.0) break; /* on the minimum, in a contact's piece */
        if (g < 0.0) {
            plo = lo; gplo = glo;
            lo = s; glo = g;
            if (hi == INFINITY) {
                if (s > m->runaway) {
                    m->unbounded = 1;
                    break;
                }
                /* still descending: extrapolate the slope's line to 0 (at most 4 times further) */
                double t = (glo > gplo) ? lo - glo * (lo - plo) / (glo - gplo) : 2.0 * lo;
                s = fmin(fmax(t, 1.1 * lo), 4.0 * lo);
                continue;
            }
            if (illinois_side < 0 && ghi > 0.0) ghi *= 0.5;
            illinois_side = -1;
        } else {
            hi = s;
            ghi = g;
            if (illinois_side > 0) glo *= 0.5;
            illinois_side = 1;
        }
        if (hi - lo <= 4.0 * DBL_EPSILON * hi) break;
        /* inside the bracket: the secant of the two points of negative slope when it falls
         * there (exact in a linear piece), else false position, else bisection */
        double t = NAN;
        if (gplo == gplo && glo > gplo) t = lo - glo * (lo - plo) / (glo - gplo);
        if (!(t > lo && t < hi) && ghi > 0.0) t = lo - glo * (hi - lo) / (ghi - glo);
        if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);
        s = t;
    }
    /* a last point beyond the edge (slope exactly 0) while the bracket's low end is as good: back
     * to the low end, the contact side */
    if (g == 0.0 && lo > 0.0 && fabs(glo) <= 1e-6 * fabs(g0) && s != lo) {
        if ((st = move_to(m, lo))) return st;
    }
    *step = m->s;
    return DEM_OK;
}

/* The round-off of the net forces (dem_minimize_result.fround): gross[] (n, zeroed) receives per
 * particle the sum over its touching contacts of |fn| + S_n X. A relaxed packing's forces are
 * already at this level, and 1e-9 of them, the old default tolerance, was never reached. */
static double force_roundoff(const dem_sim *sim, double *gross)
{
    const sim_particles *P = &sim->p;
    const sim_store *c = &sim->c;
    const dem_normal_model *nm = dem_normal_models[sim->st.normal];
    double X = 0.0;
    for (size_t a = 0; a < P->n; a++)
        X = fmax(X, fmax(fabs(P->x[a].x), fmax(fabs(P->x[a].y), fabs(P->x[a].z))));
    for (size_t q = 0; q < c->npairs; q++) {
        if (!c->ptouch[q]) continue;
        const dem_contact_rec *np = &c->pairs[q];
        dem_pair p;
        sim_pair_properties(sim, &p, q);
        double e = fabs(c->out[q].fn) + fabs(nm->stiffness(&p, c->out[q].delta)) * X;
        gross[np->i] += e;
        gross[np->j] += e;
    }
    for (size_t q = 0; q < c->nwslots; q++) {
        if (!c->wtouch[q]) continue;
        dem_pair p;
        sim_wall_properties(sim, &p, q);
        gross[c->wowner[q]] += fabs(c->wout[q].fn) + fabs(nm->stiffness(&p, c->wout[q].delta)) * X;
    }
    double g = dem_v3_norm(sim->st.gravity), worst = 0.0;
    for (size_t a = 0; a < P->n; a++)
        if (is_free(sim, a)) worst = fmax(worst, gross[a] + P->m[a] * g);
    return 4.0 * DBL_EPSILON * worst;
}

/* A step along d beyond which the descent is called unbounded: one that moves some particle a
 * million times the system's size (the span of the particles plus the largest diameter). A
 * minimum, if there is one, is bracketed long before: contacts and walls stop every descent
 * inside the system. Only a potential falling for ever (gravity with nothing below) gets there. */
static double descent_runaway(const dem_sim *sim, double dmax)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, rmax = 0.0, size = 0.0;
    for (size_t a = 0; a < sim->p.n; a++) {
        const double x[3] = {sim->p.x[a].x, sim->p.x[a].y, sim->p.x[a].z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
        rmax = fmax(rmax, sim->p.r[a]);
    }
    for (int k = 0; k < 3; k++) size = fmax(size, hi[k] - lo[k]);
    size += 2.0 * rmax;
    return 1e6 * size / dmax;
}

static dem_status unbounded_descent(const mz *m, const dem_minimize_result *r)
{
    return dem_fail(m->err, DEM_ERR_VALUE,
                    "--minimize: the potential energy has no minimum: in iteration %llu the particles moved a million times the system's size along the search direction and the energy still fell (gravity %g m/s^2 with no wall or fixed particle below them?); nothing is written",
                    (unsigned long long)r->iterations + 1, dem_v3_norm(m->sim->st.gravity));
}

dem_status dem_sim_minimize(dem_sim *sim, const dem_minimize_opts *o, dem_minimize_result *r, dem_error *err)
{
    memset(r, 0, sizeof *r);
    if (sim->dist)
        return dem_fail(err, DEM_ERR_LIMIT, "--minimize is not yet distributed over processes: minimise in one process (dem-step without mpirun), then run the dynamics on many");
    if (sim->cl)
        return dem_fail(err, DEM_ERR_VALUE, "--minimize: the frame holds %zu rigid clumps: the minimiser moves spheres one by one, not rigid bodies",
                        sim->cl->n);
    if (sim->ex.on) return dem_fail(err, DEM_ERR_VALUE, "--minimize: exact mode has no energy to minimise (run it in floating point)");
    if (sim->b.deforming)
        return dem_fail(err, DEM_ERR_VALUE, "--minimize: the periodic cell deforms (a velocity gradient or a stress servo): minimisation moves the particles in a fixed cell");
    if (dem_tangential_models[sim->st.tangential]->uses_history)
        return dem_fail(err, DEM_ERR_VALUE, "--minimize: the tangential model '%s' has friction, whose force is not the gradient of an energy: minimise frictionless contacts (--tangential none)",
                        dem_tangential_models[sim->st.tangential]->name);
    if (!(o->ftol >= 0.0)) return dem_fail(err, DEM_ERR_ARG, "--minimize: the force tolerance %g N must be >= 0", o->ftol);
    dem_books_flush(sim);
    size_t n = sim->p.n;
    mz m = {sim, calloc(n ? n : 1, sizeof(dem_vec3)), calloc(n ? n : 1, sizeof(dem_vec3)), 0.0, INFINITY, 0, 0, err};
    dem_vec3 *v0 = malloc((n ? n : 1) * sizeof *v0), *w0 = malloc((n ? n : 1) * sizeof *w0);
    double *gross = calloc(n ? n : 1, sizeof *gross);
    dem_status st = DEM_OK;
    if (!m.d || !m.fold || !v0 || !w0 || !gross) {
        st = dem_fail(err, DEM_ERR_NOMEM, "out of memory for the minimisation of %zu particles", n);
        goto done;
    }
    /* every velocity 0 while forces are evaluated: no dashpot, no local damping */
    memcpy(v0, sim->p.v, n * sizeof *v0);
    memcpy(w0, sim->p.w, n * sizeof *w0);
    memset(sim->p.v, 0, n * sizeof *sim->p.v);
    memset(sim->p.w, 0, n * sizeof *sim->p.w);
    double local = sim->st.local_damping;
    sim->st.local_damping = 0.0;
    if ((st = evaluate(&m))) goto restore;
    double rmin = INFINITY;
    size_t nfree = 0;
    for (size_t a = 0; a < n; a++) {
        rmin = fmin(rmin, sim->p.r[a]);
        nfree += is_free(sim, a);
    }
    r->fmax0 = dem_sim_largest_force(sim);
    r->fround = force_roundoff(sim, gross);
    double step = 0.0;
    uint64_t since_restart = 0;
    while ((r->fmax = dem_sim_largest_force(sim)) > o->ftol && r->iterations < o->max_iter) {
        if (o->stop && o->stop(o->stop_ctx)) {
            r->interrupted = 1;
            break;
        }
        /* the direction: PR+ from the last one, or the force (restart) */
        double ff = 0.0, fy = 0.0, fo = 0.0;
        for (size_t a = 0; a < n; a++) {
            if (!is_free(sim, a)) continue;
            dem_vec3 f = sim->p.f[a];
            ff += dem_v3_dot(f, f);
            fy += dem_v3_dot(f, dem_v3_sub(f, m.fold[a]));
            fo += dem_v3_dot(m.fold[a], m.fold[a]);
        }
        double beta = r->iterations && fo > 0.0 && since_restart < 3 * nfree ? fmax(0.0, fy / fo) : 0.0;
        double g0 = 0.0, dmax2 = 0.0;
        for (size_t a = 0; a < n; a++) {
            if (!is_free(sim, a)) continue;
            m.d[a] = dem_v3_madd(sim->p.f[a], m.d[a], beta);
            g0 -= dem_v3_dot(sim->p.f[a], m.d[a]);
        }
        if (!(g0 < 0.0)) { /* not a descent direction: along the force */
            beta = 0.0;
            g0 = -ff;
            for (size_t a = 0; a < n; a++) m.d[a] = is_free(sim, a) ? sim->p.f[a] : dem_v3_zero();
        }
        since_restart = beta == 0.0 ? 0 : since_restart + 1;
        for (size_t a = 0; a < n; a++) {
            m.fold[a] = is_free(sim, a) ? sim->p.f[a] : dem_v3_zero();
            if (is_free(sim, a)) dmax2 = fmax(dmax2, dem_v3_norm2(m.d[a]));
        }
        /* the first trial: the last step, at most a tenth of the smallest radius for any particle */
        double smax = 0.1 * rmin / sqrt(dmax2);
        double s = step > 0.0 ? fmin(step, smax) : smax;
        m.runaway = descent_runaway(sim, sqrt(dmax2));
        if ((st = line_search(&m, g0, &s))) goto restore;
        if (m.unbounded) {
            st = unbounded_descent(&m, r);
            goto restore;
        }
        step = s;
        r->iterations++;
        if (!(s > 0.0)) break; /* no progress along a descent direction: rounding has the last word */
    }
    r->converged = r->fmax <= o->ftol;
    r->energy = dem_sim_potential_energy(sim);
restore:
    sim->st.local_damping = local;
    for (size_t a = 0; a < n; a++) { /* free particles at rest, fixed ones driven as before */
        sim->p.v[a] = is_free(sim, a) ? dem_v3_zero() : v0[a];
        sim->p.w[a] = is_free(sim, a) ? dem_v3_zero() : w0[a];
    }
    sim->forces_current = 0; /* the next store or step recomputes them with the velocities */
    r->evaluations = m.evals;
done:
    free(m.d);
    free(m.fold);
    free(v0);
    free(w0);
    free(gross);
    return st;
}
