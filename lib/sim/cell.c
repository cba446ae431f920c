/* cell.c - the deforming periodic cell, its flip, servo and work (see cell.h). */
#include "sim/internal/cell.h"

#include <math.h>

#include "sim/internal/boundary.h"
#include "sim/internal/clumps.h"
#include "sim/internal/dist.h"
#include "sim/internal/exact.h"
#include "sim/internal/par.h"

/* a : b = sum_ab a_ab b_ab */
static double m3_ddot(dem_mat3 a, dem_mat3 b)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) s += a.m[i][j] * b.m[i][j];
    return s;
}

static void m3_add_outer(dem_mat3 *a, dem_vec3 u, dem_vec3 v)
{
    double uu[3] = {u.x, u.y, u.z}, vv[3] = {v.x, v.y, v.z};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a->m[i][j] += uu[i] * vv[j];
}

/* The mean diameter and density of the bodies, a clump counted once: the diameter of the sphere of
 * its volume (its mass over its first member's density). Without clumps, the spheres' means. */
static void mean_body_size(const dem_sim *sim, double *d, double *rho)
{
    const struct sim_clumps *c = sim->cl;
    size_t nclumps = c ? c->n : 0;
    const sim_particles *P = &sim->p;
    double dsum = 0.0, rsum = 0.0;
    size_t n = 0;
    for (size_t a = 0; a < P->n; a++) {
        if (P->flags[a] & SIM_PARTICLE_MEMBER) continue;
        double r = P->r[a];
        dsum += 2.0 * r;
        rsum += P->m[a] / (4.0 / 3.0 * M_PI * r * r * r);
        n++;
    }
    for (size_t k = 0; k < nclumps; k++) {
        size_t a = c->pidx[c->start[k]];
        double r = P->r[a], density = P->m[a] / (4.0 / 3.0 * M_PI * r * r * r);
        dsum += 2.0 * cbrt(3.0 * c->m[k] / (4.0 * M_PI * density));
        rsum += density;
        n++;
    }
    *d = dsum / (double)n;
    *rho = rsum / (double)n;
}

/* The servo's constants: the settings, or the automatic ones of sim.h. */
static void servo_constants(dem_sim *sim)
{
    const dem_cell *c = &sim->b.cell;
    double ptarget = 0.0, pmax = 0.0;
    int nt = 0;
    for (int k = 0; k < 3; k++)
        if (c->stress_mask >> k & 1u) {
            double t = fabs(c->target_stress.m[k][k]);
            ptarget += t;
            pmax = fmax(pmax, t);
            nt++;
        }
    ptarget = nt ? ptarget / nt : 0.0;
    double rate = sim->st.cell_max_rate;
    if (rate == 0.0 && sim->p.n && ptarget > 0.0) { /* inertial number 1e-3 (quasi-static) */
        double d, rho;
        mean_body_size(sim, &d, &rho);
        rate = 1e-3 / (d * sqrt(rho / ptarget));
    }
    sim->b.max_rate = rate;
    sim->b.gain = sim->st.cell_gain > 0.0 ? sim->st.cell_gain : pmax > 0.0 ? rate / pmax : 0.0;
}

/* The step's D = (L + L^T)/2 and the field's spin: (L - L^T)/2 is the cross product with wl. */
static void field_of(dem_sim *sim)
{
    const dem_mat3 l = sim->b.cell.vgrad;
    sim->b.lsym = dem_m3_scale(dem_m3_add(l, dem_m3_transpose(l)), 0.5);
    sim->b.wl = dem_v3(0.5 * (l.m[2][1] - l.m[1][2]), 0.5 * (l.m[0][2] - l.m[2][0]), 0.5 * (l.m[1][0] - l.m[0][1]));
}

void dem_deform_setup(dem_sim *sim)
{
    dem_cell *c = &sim->b.cell;
    c->stress_mask &= c->flags ? 7u : 0u; /* diagonal components only (dem_sim_new refuses others) */
    sim->b.deforming = c->flags && (!dem_m3_is_zero(c->vgrad) || c->stress_mask);
    sim->b.servo = c->stress_mask != 0;
    sim->b.fab_ok = 0;
    servo_constants(sim);
    field_of(sim);
    /* a setup evaluation's books see the frame's field */
    sim->e.deforming = sim->b.deforming;
    sim->e.lstep = c->vgrad;
    sim->e.dstep = sim->b.lsym;
    sim->e.wlstep = sim->b.wl;
}

/* A clump is one body (clumps.h): what its members' contacts add to the sums counted for spheres
 * at their own centres. clumps: sum f (x) R b over the members' contacts (f on the member), which
 * turns the branch vectors d between the members' centres into those between the centroids, d - R
 * b_i + R b_j; torque: the members' torques, whose power against the field's spin a sphere's sums
 * take (a clump's spin is the laboratory's, not relative to the field); gravity: the clump's weight
 * at its centroid (the image of its first member's) less its members' weights at their centres. */
/* Pairs [lo, hi)'s part of clump_fabric's sum, added to *acc (a dem_mat3) in list order. */
static void clump_fabric_pairs(const dem_sim *sim, size_t lo, size_t hi, void *acc)
{
    const sim_store *c = &sim->c;
    dem_mat3 *m = acc;
    for (size_t q = lo; q < hi; q++) {
        if (!c->ptouch[q]) continue;
        const dem_contact_rec *np = &c->pairs[q];
        const dem_vec3 *bi = dem_clumps_offset(sim, np->i), *bj = dem_clumps_offset(sim, np->j);
        if (!bi && !bj) continue;
        dem_vec3 f = dem_contact_force(&c->out[q]);
        if (bi) m3_add_outer(m, f, *bi);
        if (bj) m3_add_outer(m, dem_v3_scale(f, -1.0), *bj);
    }
}

/* dist.h's chain: the members' wall contacts of this process's slots (clump_fabric). */
static void clump_fabric_walls(dem_sim *sim, void *acc)
{
    const sim_store *c = &sim->c;
    size_t q0, q1;
    dist_stepped_slots(sim, &q0, &q1);
    for (size_t q = q0; q < q1; q++) {
        const dem_vec3 *b = dem_clumps_offset(sim, c->wowner[q]);
        if (c->wtouch[q] && b) m3_add_outer(acc, dem_contact_force(&c->wout[q]), *b);
    }
}

/* clump_fabric's torque and gravity parts. */
typedef struct {
    dem_vec3 torque;
    dem_mat3 gravity;
} clump_body_sums;

/* dist.h's chain: the members among the particles a process steps, in particle order: their
 * torques and weights, and at a clump's first member (whose process moves it, clumps.h) the
 * clump's weight at its centroid. */
static void clump_fabric_members(dem_sim *sim, void *acc)
{
    const sim_particles *P = &sim->p;
    const struct sim_clumps *cl = sim->cl;
    clump_body_sums *b = acc;
    dem_vec3 g = sim->st.gravity, o = sim->b.cell.origin;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    for (size_t a = p0; a < p1; a++) {
        if (!(P->flags[a] & SIM_PARTICLE_MEMBER)) continue;
        b->torque = dem_v3_add(b->torque, P->t[a]);
        if (dem_v3_is_zero(g)) continue;
        m3_add_outer(&b->gravity, dem_v3_scale(g, -P->m[a]), dem_v3_sub(P->x[a], o));
        size_t k = dem_clumps_first_member(sim, a);
        if (k == SIM_NO_CLUMP) continue;
        dem_vec3 centre = dem_v3_sub(P->x[a], cl->rw[cl->start[k]]);
        m3_add_outer(&b->gravity, dem_v3_scale(g, cl->m[k]), dem_v3_sub(centre, o));
    }
}

static void clump_fabric(dem_sim *sim)
{
    sim_fabric *fb = &sim->b.fab;
    fb->clumps = dem_m3_zero();
    dem_dist_chain_pairs(sim, &fb->clumps, sizeof fb->clumps, clump_fabric_pairs); /* dist.h: in list order on any ranks */
    dem_dist_chain(sim, &fb->clumps, sizeof fb->clumps, clump_fabric_walls); /* then the wall slots', in slot order */
    clump_body_sums b = {dem_v3_zero(), dem_m3_zero()};
    dem_dist_chain(sim, &b, sizeof b, clump_fabric_members); /* then the members', in particle order */
    fb->torque = b.torque;
    fb->gravity = b.gravity;
}

/* The sums of the current forces over the contacts, in list order (then the wall slots'). */
/* Pairs [lo, hi)'s part of the sum f (x) d, added to *acc (a dem_mat3) in list order. */
static void fabric_pairs(const dem_sim *sim, size_t lo, size_t hi, void *acc)
{
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    dem_mat3 *m = acc;
    for (size_t q = lo; q < hi; q++) {
        if (!c->ptouch[q]) continue;
        const dem_contact_out *o = &c->out[q];
        const dem_contact_rec *np = &c->pairs[q];
        dem_vec3 d = dem_v3_scale(o->n, P->r[np->i] + P->r[np->j] - o->delta);
        m3_add_outer(m, dem_contact_force(o), d);
    }
}

/* dist.h's chain: the wall contacts of this process's slots, into acc's w[0] (f (x) (x - o)) and
 * w[1] (f (x) (c - x)). */
static void fabric_walls(dem_sim *sim, void *acc)
{
    dem_mat3 *w = acc;
    const sim_store *c = &sim->c;
    const sim_particles *P = &sim->p;
    size_t q0, q1;
    dist_stepped_slots(sim, &q0, &q1);
    for (size_t q = q0; q < q1; q++) {
        if (!c->wtouch[q]) continue;
        const dem_contact_out *o = &c->wout[q];
        size_t a = c->wowner[q];
        dem_vec3 f = dem_contact_force(o), cp = wall_contact_point(sim, a, o->n, o->delta);
        m3_add_outer(&w[0], f, dem_v3_sub(P->x[a], sim->b.cell.origin));
        m3_add_outer(&w[1], f, dem_v3_sub(cp, P->x[a]));
    }
}

/* dist.h's chain: gravity on this process's free particles, a force the field carries them
 * against, like a wall's. */
static void fabric_gravity(dem_sim *sim, void *acc)
{
    const sim_particles *P = &sim->p;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    for (size_t a = p0; a < p1; a++)
        if (!(P->flags[a] & DEM_PARTICLE_FIXED))
            m3_add_outer(acc, dem_v3_scale(sim->st.gravity, P->m[a]), dem_v3_sub(P->x[a], sim->b.cell.origin));
}

static void fabric(dem_sim *sim)
{
    sim_fabric *fb = &sim->b.fab;
    fb->pairs = dem_m3_zero();
    /* dist.h: each process its blocks' pairs, in turn: the sum in list order on any number of them */
    dem_dist_chain_pairs(sim, &fb->pairs, sizeof fb->pairs, fabric_pairs);
    /* the wall slots' and then gravity's, likewise in slot and particle order (dist.h's chains) */
    dem_mat3 w[2] = {dem_m3_zero(), dem_m3_zero()};
    dem_dist_chain(sim, w, sizeof w, fabric_walls);
    if (!dem_v3_is_zero(sim->st.gravity)) dem_dist_chain(sim, &w[0], sizeof w[0], fabric_gravity);
    fb->wall_x = w[0];
    fb->wall_r = w[1];
    if (sim->cl) clump_fabric(sim);
    sim->b.fab_ok = 1;
}

void dem_deform_keep_sums(dem_sim *sim)
{
    if (sim->b.deforming && sim->forces_current && !sim->b.fab_ok) fabric(sim);
}

dem_mat3 dem_deform_stress(dem_sim *sim)
{
    if (!sim->b.fab_ok) fabric(sim);
    /* sigma = (1/V) sym(sum_pairs d (x) f - sum_walls (c - x) (x) f): the transposes of the sums;
     * a clump's branch vectors join the centroids (clump_fabric), as dem-stress's */
    double v = dem_cell_volume(&sim->b.cell);
    dem_mat3 s = dem_m3_add(sim->b.fab.pairs, dem_m3_scale(sim->b.fab.wall_r, -1.0));
    if (sim->cl) s = dem_m3_add(s, dem_m3_scale(sim->b.fab.clumps, -1.0));
    return dem_m3_scale(dem_m3_add(s, dem_m3_transpose(s)), 0.5 / v);
}

/* The power the field of L puts into the contacts with the current forces (cell.h). */
static double field_power(dem_sim *sim)
{
    if (!sim->b.fab_ok) fabric(sim);
    const dem_mat3 l = sim->b.cell.vgrad, d = sim->b.lsym;
    dem_mat3 w = dem_m3_add(l, dem_m3_scale(d, -1.0));
    double p = -(m3_ddot(d, sim->b.fab.pairs) + m3_ddot(l, sim->b.fab.wall_x) + m3_ddot(w, sim->b.fab.wall_r));
    if (!sim->cl) return p;
    /* a clump: -F_c . L (x_c - o) in place of its members' sums as spheres (clump_fabric) */
    const sim_fabric *fb = &sim->b.fab;
    return p + m3_ddot(l, fb->clumps) + dem_v3_dot(sim->b.wl, fb->torque) - m3_ddot(l, fb->gravity);
}

/* The servo (sim.h): the stress-controlled diagonal components of L from the current stress. */
static void servo(dem_sim *sim)
{
    dem_cell *c = &sim->b.cell;
    dem_mat3 sigma = dem_deform_stress(sim);
    for (int k = 0; k < 3; k++) {
        if (!(c->stress_mask >> k & 1u)) continue;
        double r = sim->b.gain * (sigma.m[k][k] - c->target_stress.m[k][k]);
        c->vgrad.m[k][k] = fmax(-sim->b.max_rate, fmin(sim->b.max_rate, r));
    }
}

/* The Cayley map of the field over h: (I - h L / 2)^-1 (I + h L / 2). */
static dem_mat3 cayley(dem_mat3 l, double h)
{
    dem_mat3 a = dem_m3_scale(l, 0.5 * h), i = dem_m3_identity();
    return dem_m3_mul(dem_m3_inverse(dem_m3_add(i, dem_m3_scale(a, -1.0))), dem_m3_add(i, a));
}

/* The same map less the identity, K = M - I = (I - h L / 2)^-1 h L, computed as such: the field
 * moves a point by the increment K (x - o), whose rounding is relative to the increment, not to
 * x. Adding it, and adding the increment of the map of -h (which is -K (x - o) to within the
 * increment's rounding) in the reversed step, returns x bit for bit nearly always; the product
 * M (x - o) rounds relative to x, and the same L every step (a constant rate) biases that
 * rounding the same way every step, so that M(-h) M(h) x drifted by an ulp of x per step
 * (README of examples/fcc-triaxial). */
static dem_mat3 cayley_step(dem_mat3 l, double h)
{
    dem_mat3 i = dem_m3_identity();
    return dem_m3_mul(dem_m3_inverse(dem_m3_add(i, dem_m3_scale(l, -0.5 * h))), dem_m3_scale(l, h));
}

double dem_deform_begin_step(dem_sim *sim)
{
    if (sim->b.servo) servo(sim);
    field_of(sim);
    /* the step's map is cayley(h/2)^2; its inverse is cayley(-h/2)^2 */
    dem_mat3 back = cayley(sim->b.cell.vgrad, -0.5 * sim->h);
    back = dem_m3_mul(back, back);
    sim->b.chord = dem_m3_scale(dem_m3_add(dem_m3_identity(), dem_m3_scale(back, -1.0)), 1.0 / sim->h);
    return field_power(sim);
}

dem_status dem_deform_check_rate(const dem_sim *sim, dem_error *err)
{
    const dem_mat3 l = sim->b.cell.vgrad;
    double big = 0.0, sum = 0.0; /* |L|_F scaled by its largest component: 1e300 does not overflow */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) big = fmax(big, fabs(l.m[i][j]));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) sum += big > 0.0 ? (l.m[i][j] / big) * (l.m[i][j] / big) : 0.0;
    double norm = big * sqrt(sum), strain = norm * fabs(sim->h);
    if (strain <= CELL_MAX_STRAIN_STEP) return DEM_OK; /* NaN fails too */
    if (sim->b.servo)
        return dem_fail(err, DEM_ERR_UNSTABLE,
                        "step %llu: the stress servo asks for |L| = %.3g 1/s, a strain of %.3g per step of %g s, beyond the %g per step the cell's map (the Cayley transform of L dt, which turns back at 4) represents: the servo's largest rate %.3g 1/s is too fast for this time step (give --cell-max-rate below %.3g 1/s; an unreachable --cell-stress asks for it at once)",
                        (unsigned long long)sim->step, norm, strain, sim->dt, CELL_MAX_STRAIN_STEP, sim->b.max_rate,
                        CELL_MAX_STRAIN_STEP / (sqrt(3.0) * fabs(sim->h)));
    return dem_fail(err, DEM_ERR_UNSTABLE,
                    "step %llu: the cell's velocity gradient |L| = %.3g 1/s is a strain of %.3g per step of %g s, beyond the %g per step the cell's map (the Cayley transform of L dt, which turns back at 4) represents: lower --cell-rate or --dt",
                    (unsigned long long)sim->step, norm, strain, sim->dt, CELL_MAX_STRAIN_STEP);
}

/* Particles [lo, hi): x <- x + K (x - o) (K = M - I); a free particle's fluctuation velocity
 * u <- u + Kinv u (Kinv = M^-1 - I), dk[a] the kinetic energy that gave it (cell.h). A fixed
 * particle keeps its prescribed velocity; a clump's member is left to its clump. */
static PAR_RANGE void affine_range(sim_particles *P, double *dk, size_t lo, size_t hi, dem_mat3 k, dem_mat3 kinv, dem_vec3 o)
{
    for (size_t a = lo; a < hi; a++) {
        dk[a] = 0.0;
        if (P->flags[a] & SIM_PARTICLE_MEMBER) continue; /* its clump places it (clumps.h) */
        P->x[a] = cell_map_point(P->x[a], k, o);
        if (P->flags[a] & DEM_PARTICLE_FIXED) continue;
        dk[a] = cell_map_velocity(&P->v[a], P->m[a], kinv);
    }
}

typedef struct {
    sim_particles *p;
    double *dk;
    dem_mat3 k, kinv;
    dem_vec3 o;
    size_t first; /* dist.h's dist_stepped: 0 but with own stepping */
} affine_args;

static void affine_share(void *ctx, size_t lo, size_t hi, int t) /* par.h */
{
    const affine_args *a = ctx;
    (void)t;
    affine_range(a->p, a->dk, a->first + lo, a->first + hi, a->k, a->kinv, a->o);
}

/* dist.h's chain: the kinetic part of the stress power of this process's particles, in order. */
static void dkin_run(dem_sim *sim, void *acc)
{
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    double dk = *(double *)acc;
    for (size_t q = p0; q < p1; q++) dk += sim->b.dkin[q];
    *(double *)acc = dk;
}

/* dist.h's chain: the kinetic change of the map of each clump whose first member is among the
 * particles a process steps, in particle order (its process moves it). */
static void clump_dkin_run(dem_sim *sim, void *acc)
{
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    double dk = *(double *)acc;
    for (size_t a = p0; a < p1; a++) {
        size_t k = dem_clumps_first_member(sim, a);
        if (k != SIM_NO_CLUMP) dk += sim->cl->dk[k];
    }
    *(double *)acc = dk;
}

void dem_deform_affine(dem_sim *sim, double h)
{
    dem_cell *c = &sim->b.cell;
    /* M^-1 - I as the map of -h: the same bits as the position map of the step reversed */
    dem_mat3 k = cayley_step(c->vgrad, h), kinv = cayley_step(c->vgrad, -h);
    if (sim->ex.on) { /* simple shear on the lattice (exact.h); F as in floating point */
        sim->e.energy[DEM_E_WORK_CELL] += dem_exact_field(sim, h);
        c->deform = dem_m3_add(c->deform, dem_m3_mul(k, c->deform));
        dem_boundary_cell_inverse(sim);
        return;
    }
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1); /* dist.h: every particle, or this process's own */
    affine_args a = {&sim->p, sim->b.dkin, k, kinv, c->origin, p0};
    dem_par_for(sim->pool, p1 - p0, affine_share, &a); /* par.h */
    /* the kinetic part of the stress power, in particle order (the same for any thread count and,
     * dist.h's chain, any number of processes) */
    double dk = 0.0;
    dem_dist_chain(sim, &dk, sizeof dk, dkin_run);
    sim->e.energy[DEM_E_WORK_CELL] += dk;
    c->h = dem_m3_add(c->h, dem_m3_mul(k, c->h));
    c->deform = dem_m3_add(c->deform, dem_m3_mul(k, c->deform));
    dem_boundary_cell_inverse(sim);
    /* clumps: their centroids and velocities, then their members in the mapped cell (clumps.h);
     * their kinetic change summed in particle order at their first members (dist.h's chain) */
    if (sim->cl) {
        dem_clumps_affine(sim, k, kinv, c->origin);
        double dc = 0.0;
        dem_dist_chain(sim, &dc, sizeof dc, clump_dkin_run);
        sim->e.energy[DEM_E_WORK_CELL] += dc;
    }
}

void dem_deform_end_step(dem_sim *sim, double p0)
{
    double p1 = field_power(sim);
    sim->e.energy[DEM_E_WORK_CELL] += 0.5 * sim->h * (p0 + p1);
}

/* s_i += k s_j on every image counter and contact shift: H s = H' s' for H' = H with column j
 * less k times column i. Fails before changing anything if a counter would leave +-2^30. */
static dem_status reindex(dem_sim *sim, int i, int j, int k, dem_error *err)
{
    dem_dist_whole(sim); /* dist.h: every particle's counters (a flip is rare; every process flips at once) */
    for (size_t a = 0; a < sim->p.n; a++) {
        double v = (double)sim->p.image[a][i] + k * (double)sim->p.image[a][j];
        if (fabs(v) > DEM_IMAGE_MAX)
            return dem_fail(err, DEM_ERR_LIMIT, "step %llu: flipping the cell takes the image counter of particle %llu beyond +-2^30 cells",
                            (unsigned long long)sim->step, (unsigned long long)sim->p.id[a]);
    }
    for (size_t a = 0; a < sim->p.n; a++) sim->p.image[a][i] += k * sim->p.image[a][j];
    for (size_t q = 0; q < sim->c.npairs; q++) sim->c.pairs[q].s[i] += k * sim->c.pairs[q].s[j];
    return DEM_OK;
}

dem_status dem_deform_flip(dem_sim *sim, int *flipped, dem_error *err)
{
    dem_cell *c = &sim->b.cell;
    *flipped = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            if (i == j || !sim->b.periodic[i] || !sim->b.periodic[j]) continue;
            dem_vec3 hi = dem_m3_col(c->h, i), hj = dem_m3_col(c->h, j);
            double t = dem_v3_dot(hj, hi) / dem_v3_norm2(hi);
            int k;
            if (sim->ex.on) { /* the one representation with t in [-1/2, 1/2): the same going back;
                                * only the sheared vector leans (dem_exact_field keeps row j of H diagonal) */
                if (j != sim->ex.sh_j || i != sim->ex.sh_i || (t >= -0.5 && t < 0.5)) continue;
                k = (int)floor(t + 0.5);
            } else {
                if (!(fabs(t) > 0.55)) continue;
                k = (int)lround(t);
            }
            dem_status st = reindex(sim, i, j, k, err);
            if (st) return st;
            for (int r = 0; r < 3; r++) c->h.m[r][j] -= k * c->h.m[r][i];
            dem_boundary_cell_inverse(sim);
            sim->b.flips++;
            *flipped = 1;
        }
    return DEM_OK;
}
