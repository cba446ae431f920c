/* sim.c - a simulation's life: built from a frame, stepped by its integrator, stored back into a
 * frame (see sim.h). The modules it composes are drawn in state.h and the README. */
#include "sim/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/energy.h"
#include "analysis/unbalanced.h"
#include "sim/internal/bonds.h"
#include "laws/rolling.h"
#include "sim/internal/books.h"
#include "sim/internal/boundary.h"
#include "sim/internal/cell.h"
#include "sim/internal/clumps.h"
#include "sim/internal/dist.h"
#include "sim/internal/contacts.h"
#include "sim/internal/exact.h"
#include "sim/internal/forces.h"
#include "sim/internal/guard.h"
#include "sim/internal/integrate.h"
#include "sim/internal/neighbor.h"
#include "sim/internal/particles.h"
#include "sim/internal/state.h"
#include "sim/internal/variational.h"

static dem_status check_supported(const dem_system *s, dem_error *err)
{
    if (s->cell.flags && (s->cell.stress_mask & ~7u))
        return dem_fail(err, DEM_ERR_VALUE, "the periodic cell's stress mask 0x%x controls shear stresses (bits 3-5): the servo controls the normal stresses xx, yy, zz only (bits 0-2)",
                        s->cell.stress_mask);
    if (s->cell.flags && s->cell.stress_mask && (s->cell.stress_mask & ~s->cell.flags & 7u))
        return dem_fail(err, DEM_ERR_VALUE, "the periodic cell is stress controlled along an axis it is not periodic along (stress mask 0x%x, periodic 0x%x)",
                        s->cell.stress_mask, s->cell.flags);
    if (!s->cell.flags && (s->cell.stress_mask || !dem_m3_is_zero(s->cell.vgrad)))
        return dem_fail(err, DEM_ERR_VALUE, "a velocity gradient or stress targets without a periodic cell (cell flags 0)");
    if (s->nparticles > UINT32_MAX / 2)
        return dem_fail(err, DEM_ERR_LIMIT, "%zu particles: at most %u are supported", s->nparticles, UINT32_MAX / 2);
    return DEM_OK;
}

/* The materials, their pair constants (index a * nmat + b) and the walls. */
static dem_status load_materials_walls(dem_sim *sim, const dem_system *s, dem_error *err)
{
    size_t nm = sim->nmat, nw = sim->b.nwalls;
    sim->materials = malloc((nm ? nm : 1) * sizeof *sim->materials);
    sim->mp = malloc((nm ? nm * nm : 1) * sizeof *sim->mp);
    sim->b.walls = malloc((nw ? nw : 1) * sizeof *sim->b.walls);
    sim->b.tsum = malloc(dem_forces_totals_size(nw));
    if (!sim->materials || !sim->mp || !sim->b.walls || !sim->b.tsum) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    if (dem_roll_on(&sim->st)) { /* rolling and twisting coefficients (roll.h) */
        sim->c.roll_on = 1;
        if (!(sim->mroll = malloc((nm ? nm * nm : 1) * sizeof *sim->mroll))) return dem_fail(err, DEM_ERR_NOMEM, "out of memory");
    }
    if (nm) memcpy(sim->materials, s->materials, nm * sizeof *sim->materials);
    if (nw) memcpy(sim->b.walls, s->walls, nw * sizeof *sim->b.walls);
    for (size_t a = 0; a < nm; a++)
        for (size_t b = 0; b < nm; b++) {
            dem_pair p;
            dem_pair_init(&p, &sim->st, 1.0, 1.0, &sim->materials[a], 1.0, 1.0, &sim->materials[b]);
            mat_pair *mp = &sim->mp[a * nm + b];
            mp->estar = p.estar; mp->gstar = p.gstar; mp->gstar_l = p.gstar_l; mp->mu = p.mu; mp->beta = p.beta; mp->gamma = p.gamma;
            if (sim->mroll) {
                const dem_material *ma = &sim->materials[a], *mb = &sim->materials[b];
                double *mr = sim->mroll[a * nm + b];
                mr[0] = ma->rolling_friction < mb->rolling_friction ? ma->rolling_friction : mb->rolling_friction;
                mr[1] = ma->twisting_friction < mb->twisting_friction ? ma->twisting_friction : mb->twisting_friction;
            }
        }
    return DEM_OK;
}

/* An adhesive law's neck (jkr): the largest |delta_c| over the material pairs at the largest R*
 * (|delta_c| grows as R*^(1/3); a wall's R* is the radius, a pair's at most half of it). */
static double adhesive_reach(const dem_sim *sim)
{
    const dem_normal_model *nm = dem_normal_models[sim->st.normal];
    double reach = 0.0;
    if (!nm->neck) return 0.0;
    for (size_t a = 0; a < sim->nmat; a++)
        for (size_t b = 0; b < sim->nmat; b++) {
            dem_pair p;
            dem_pair_init(&p, &sim->st, sim->p.rmax, 1.0, &sim->materials[a], 0.0, 0.0, &sim->materials[b]);
            double d = -nm->neck(&p);
            if (d > reach) reach = d;
        }
    return reach;
}

/* Every module's arrays. */
static dem_status alloc_all(dem_sim *sim, dem_error *err)
{
    dem_status st;
    if ((st = dem_particles_alloc(sim, err)) || (st = dem_nbr_alloc(sim, err)) || (st = dem_store_alloc(sim, err)) ||
        (st = dem_books_alloc(sim, err)) || (st = dem_exact_alloc(sim, err)) || (st = dem_guard_alloc(sim, err)))
        return st;
    sim->b.wrapped = calloc(sim->p.n ? sim->p.n : 1, sizeof *sim->b.wrapped);
    sim->b.dkin = calloc(sim->p.n ? sim->p.n : 1, sizeof *sim->b.dkin);
    if (!sim->b.wrapped || !sim->b.dkin) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    return DEM_OK;
}

static void drop_particles(dem_system *frame);
static void drop_contacts(dem_system *frame);

/* The frame s loaded into the sim, up to the first neighbour list. take: the frame s itself,
 * whose tables go as soon as the sim holds what they held (the particles before the first
 * neighbour list, the contacts after they are loaded); NULL: kept. comm: in a group, this
 * process's share of the frame's pair contacts (dem_dist_join_range). */
static dem_status sim_load(dem_sim *sim, const dem_system *s, const dem_settings *st, int threads, dem_system *take, const dem_comm *comm,
                           dem_error *err)
{
    dem_status r;
    sim->st = *st;
    sim->integ = dem_integrate_get(st->integrator);
    size_t most = s->nparticles / DEM_SIM_PARTICLES_PER_THREAD; /* sim.h: threads pay only with work */
    sim->threads = threads < 1 || most < 2 ? 1 : (size_t)threads < most ? threads : (int)most;
    if ((r = dem_par_pool_new(sim->threads, &sim->pool, err))) return r;
    if (!(sim->part = aligned_alloc(64, (size_t)sim->threads * sizeof *sim->part)))
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %d threads", sim->threads);
    sim->dt = s->dt;
    sim->dir = 1;
    sim->h = s->dt;
    sim->step = s->step;
    sim->time = s->time;
    sim->p.n = s->nparticles;
    sim->b.nwalls = s->nwalls;
    sim->nmat = s->nmaterials;
    sim->b.cell = s->cell;
    memcpy(sim->e.energy, s->energy, sizeof sim->e.energy);
    if ((r = alloc_all(sim, err)) || (r = load_materials_walls(sim, s, err))) return r;
    /* a frame the sim takes gives back its particles' pages as they are loaded, unless its
     * clumps' load reads them after (dem_clumps_load: each particle's clump) */
    dem_pages_reader pt = {take && !s->nclumps ? (char *)take->particles : NULL, 0};
    dem_particles_load(sim, s, &pt);
    if ((r = dem_bonds_load(sim, s, err)) || (r = dem_clumps_load(sim, s, err))) return r;
    if (take) drop_particles(take); /* the list's build below is the start's peak: without the table (216 bytes a sphere) */
    for (int k = 0; k < 3; k++) sim->b.periodic[k] = (s->cell.flags >> k) & 1;
    if (s->cell.flags) dem_boundary_cell_inverse(sim);
    dem_deform_setup(sim);
    sim->nbr.skin = st->skin > 0.0 ? st->skin : dem_nbr_default_skin(sim);
    sim->nbr.reach = adhesive_reach(sim);
    sim->nbr.sort_every = (uint64_t)st->sort_every;
    sim->nbr.sorted_step = UINT64_MAX;
    if ((r = dem_guard_check_cell(sim, err)) || (r = dem_guard_check_system(sim, err))) return r;
    sim->forces_current = (s->flags & DEM_HEAD_FORCES_CURRENT) != 0;
    /* The frame's contacts as the kept histories the first build carries (with current forces
     * they stand for this step's results too, so that a frame stored before any step equals the
     * one read); the frame's table need not be held through the build. */
    size_t keep_lo = 0, keep_hi = sim->p.n;
    dem_dist_join_range(sim, comm, &keep_lo, &keep_hi); /* dist.h: in a group, this process's particles' records */
    dem_pages_reader ct = {take ? (char *)take->contacts : NULL, 0}; /* likewise the contacts', as they are loaded */
    if (sim->p.n && (r = dem_store_load(sim, s, keep_lo, keep_hi, &ct, err))) return r;
    if (take) drop_contacts(take);
    return DEM_OK;
}

static dem_status sim_init(dem_sim *sim, const dem_system *s, const dem_settings *st, int threads, dem_system *take, const dem_comm *comm,
                           dem_error *err)
{
    dem_status r = sim_load(sim, s, st, threads, take, comm, err);
    /* in a group, what follows is collective: every process stops if one did (its share of the
     * frame's contacts, read alone, may fail its checks where the others' pass) */
    if ((r = dem_dist_agree(comm, r, err))) return r;
    if (comm && (r = dem_dist_join(sim, comm, err))) return r; /* dist.h: in a group before the first list */
    r = sim->p.n ? dem_nbr_rebuild(sim, 0, err) : DEM_OK; /* the frame's results placed with their records */
    dem_store_kept_results_done(sim);
    if (r) return r;
    if (sim->forces_current) dem_books_restore(sim);
    return DEM_OK;
}

static dem_sim *sim_new(const dem_system *s, const dem_settings *st, int threads, dem_system *take, const dem_comm *comm, dem_error *err)
{
    if (check_supported(s, err) || dem_clumps_supported(s, st, err)) return NULL;
    dem_sim *sim = calloc(1, sizeof *sim);
    if (!sim) { dem_fail(err, DEM_ERR_NOMEM, "out of memory"); return NULL; }
    if (sim_init(sim, s, st, threads, take, comm, err)) {
        dem_sim_free(sim);
        return NULL;
    }
    return sim;
}

dem_sim *dem_sim_new(const dem_system *s, const dem_settings *st, int threads, dem_error *err)
{
    return sim_new(s, st, threads, NULL, NULL, err);
}

dem_sim *dem_sim_new_from(dem_system *frame, const dem_settings *st, int threads, dem_error *err)
{
    return sim_new(frame, st, threads, frame, NULL, err);
}

dem_sim *dem_sim_new_group(dem_system *frame, const dem_settings *st, int threads, const dem_comm *comm, dem_error *err)
{
    return sim_new(frame, st, threads, frame, comm, err);
}

int dem_sim_threads(const dem_sim *sim) { return sim->threads; }

void dem_sim_free(dem_sim *sim)
{
    if (!sim) return;
    dem_dist_free(sim); /* first: a frame's list swapped in goes back into the store, which frees it */
    dem_par_pool_free(sim->pool);
    free(sim->part);
    dem_particles_free(sim);
    dem_nbr_free(sim);
    dem_store_free(sim);
    dem_books_free(sim);
    dem_exact_free(sim);
    dem_guard_free(sim);
    dem_bonds_free(sim);
    dem_clumps_free(sim);
    dem_vi_free(sim);
    free(sim->b.wrapped);
    free(sim->b.dkin);
    free(sim->b.walls);
    free(sim->b.tsum);
    free(sim->materials);
    free(sim->mp);
    free(sim->mroll);
    free(sim);
}

void dem_sim_set_dt(dem_sim *sim, double dt)
{
    dem_books_flush(sim);
    sim->dt = dt;
    sim->h = sim->dir * dt;
}

void dem_sim_set_direction(dem_sim *sim, int dir)
{
    dem_books_flush(sim);
    sim->dir = dir < 0 ? -1 : 1;
    sim->h = sim->dir * sim->dt;
}

int dem_sim_exact(const dem_sim *sim, double *quantum)
{
    if (quantum) *quantum = sim->ex.on ? sim->ex.qx : 0.0;
    return sim->ex.on;
}

void dem_sim_set_energy(dem_sim *sim, int index, double value)
{
    dem_books_flush(sim);
    sim->e.energy[index] = value;
}

double dem_sim_dt(const dem_sim *sim) { return sim->dt; }
uint64_t dem_sim_steps(const dem_sim *sim) { return sim->step; }
double dem_sim_time(const dem_sim *sim) { return sim->time; }

dem_status dem_sim_set_time(dem_sim *sim, double time, dem_error *err)
{
    if (!isfinite(time)) return dem_fail(err, DEM_ERR_ARG, "the time %g s is not finite", time);
    if (sim->ex.on) return dem_fail(err, DEM_ERR_ARG, "exact mode: the time is the tick times dt and cannot be set");
    sim->time = time;
    return DEM_OK;
}
uint64_t dem_sim_rebuilds(const dem_sim *sim) { return sim->nbr.rebuilds; }

void dem_sim_neighbor_info(const dem_sim *sim, dem_neighbor_info *info)
{
    memset(info, 0, sizeof *info);
    info->multi = sim->nbr.used_multi;
    if (info->multi) info->levels = dem_nbr_multi_levels(sim, info->rmax, info->count, DEM_NEIGHBOR_MAX_LEVELS);
    info->tests = sim->nbr.tests;
    info->pairs = sim->c.npairs;
}

dem_status dem_sim_step(dem_sim *sim, dem_error *err)
{
    dem_status st = dem_dist_slim(sim, err); /* dist.h: a group's processes keep their own pairs from the first step */
    return st ? st : sim->integ->step(sim, err);
}

/* Particles alike for the collision time: radius, mass, material, group mask, fixed. */
typedef struct {
    double r, m;
    uint32_t mat, group, fixed;
    size_t count;
} tc_class;

static int cmp_tc_class(const void *pa, const void *pb)
{
    const tc_class *a = pa, *b = pb;
    if (a->group != b->group) return a->group < b->group ? -1 : 1;
    if (a->mat != b->mat) return a->mat < b->mat ? -1 : 1;
    if (a->fixed != b->fixed) return a->fixed < b->fixed ? -1 : 1;
    if (a->r != b->r) return a->r < b->r ? -1 : 1;
    if (a->m != b->m) return a->m < b->m ? -1 : 1;
    return 0;
}

static double pair_rotation_time(const dem_sim *sim, const dem_pair *p, const tc_class *a, const tc_class *b);

/* The collision time of a pair of classes; *trot (when not NULL) takes the smaller of itself and
 * the pair's pair_rotation_time. */
static double pair_tc(const dem_sim *sim, const tc_class *a, const tc_class *b, double *trot)
{
    const dem_settings *st = &sim->st;
    dem_pair p;
    dem_pair_init(&p, st, a->r, a->m, &sim->materials[a->mat], b->r, b->m, &sim->materials[b->mat]);
    double tc = st->normal == DEM_NORMAL_HOOKE
                    ? M_PI * sqrt(p.mstar / p.kn)                                                      /* Vyas et al. 2025, eq 7 */
                    : DEM_HERTZ_TC * pow(p.mstar * p.mstar / (p.rstar * p.estar * p.estar * st->vc), 0.2); /* eq 30 */
    if (dem_normal_models[st->normal]->pulloff > 0.0 && p.gamma > 0.0) {
        /* adhesion binds touching pairs: half the period of their vibration about the
         * equilibrium at zero load (jkr: a0^3 = 9 pi gamma R*^2 / (2 E*), dF/d delta =
         * 6/5 E* a0; dmt: 4/3 E* a^3 / R* = 2 pi gamma R*, dF/d delta = 2 E* a) */
        double k = st->normal == DEM_NORMAL_JKR ? 1.2 * p.estar * cbrt(4.5 * M_PI * p.gamma * p.rstar * p.rstar / p.estar)
                                                : 2.0 * p.estar * cbrt(1.5 * M_PI * p.gamma * p.rstar * p.rstar / p.estar);
        tc = fmin(tc, M_PI * sqrt(p.mstar / k));
    }
    if (trot) *trot = fmin(*trot, pair_rotation_time(sim, &p, a, b));
    return tc;
}

/* Half the period of the stiffer of a pair's rolling and twisting springs (issue 29: a rolling
 * stiffness of 1e4 was not in any estimate, and the spins blew up at the normal law's dt): the
 * relative rotation obeys I* theta'' = -k_theta theta, I* = I_a I_b / (I_a + I_b) with the
 * spheres' 2/5 m r^2. S_t (which k_theta follows) is taken at the largest overlap of a
 * collision at model.vc: v sqrt(m* / kn) (hooke), (15 m* v^2 / (16 E* sqrt(R*)))^(2/5) (hertz). */
static double pair_rotation_time(const dem_sim *sim, const dem_pair *p, const tc_class *a, const tc_class *b)
{
    const dem_settings *st = &sim->st;
    if (!dem_roll_on(st)) return INFINITY;
    double v = st->vc > 0.0 ? st->vc : 1.0;
    double delta = st->normal == DEM_NORMAL_HOOKE ? v * sqrt(p->mstar / p->kn)
                                                  : pow(15.0 * p->mstar * v * v / (16.0 * p->estar * sqrt(p->rstar)), 0.4);
    double stt = dem_tangential_models[st->tangential]->stiffness(p, st->normal, delta);
    double k = fmax(dem_rolling_models[st->rolling]->stiffness(st, p->rstar, delta, stt) * p->rstar * p->rstar,
                    dem_twisting_models[st->twisting]->stiffness(st, p->rstar, delta, stt));
    double ia = 0.4 * a->m * a->r * a->r, ib = 0.4 * b->m * b->r * b->r;
    if (!(k > 0.0) || !(ia > 0.0) || !(ib > 0.0)) return INFINITY;
    return M_PI * sqrt(ia * ib / (ia + ib) / k);
}

/* The collision time of the pairs that can collide: not two fixed particles, not groups that
 * ignore each other (--ignore), not a particle with itself. The particles fall into classes of
 * equal radius, mass, material, group and fixedness; up to TC_ALL classes every pair of classes
 * is tried; beyond (a continuous size distribution), the TC_FEW smallest of each material, group
 * and fixedness with the TC_FEW smallest of every other (the smallest spheres collide fastest).
 * Without such a pair (or memory), each particle against its like, as before. */
#define TC_ALL 512
#define TC_FEW 16
static double contact_time(const dem_sim *sim, double *trot)
{
    size_t n = sim->p.n;
    double tc = INFINITY;
    tc_class *c = malloc((n ? n : 1) * sizeof *c);
    if (!c) {
        for (size_t a = 0; a < n; a++) {
            tc_class one = {sim->p.r[a], sim->p.m[a], sim->p.mat[a], sim->p.group[a], 0, 2};
            tc = fmin(tc, pair_tc(sim, &one, &one, trot));
        }
        return tc;
    }
    for (size_t a = 0; a < n; a++)
        c[a] = (tc_class){sim->p.r[a], sim->p.m[a], sim->p.mat[a], sim->p.group[a],
                          (sim->p.flags[a] & DEM_PARTICLE_FIXED) != 0, 1};
    qsort(c, n, sizeof *c, cmp_tc_class);
    size_t nc = 0;
    for (size_t a = 0; a < n; a++) {
        if (nc && cmp_tc_class(&c[nc - 1], &c[a]) == 0) c[nc - 1].count++;
        else c[nc++] = c[a];
    }
    /* sorted by radius within each (group, material, fixed): keep the TC_FEW smallest of each */
    if (nc > TC_ALL) {
        size_t k = 0, run = 0;
        for (size_t a = 0; a < nc; a++) {
            int same = a && c[a].group == c[a - 1].group && c[a].mat == c[a - 1].mat && c[a].fixed == c[a - 1].fixed;
            run = same ? run + 1 : 0;
            if (run < TC_FEW) c[k++] = c[a];
        }
        nc = k;
    }
    for (size_t a = 0; a < nc; a++)
        for (size_t b = a; b < nc; b++) {
            if (c[a].fixed && c[b].fixed) continue;                          /* neither moves */
            if (a == b && c[a].count < 2) continue;                           /* only itself */
            if (!dem_groups_interact(&sim->st, c[a].group, c[b].group)) continue; /* --ignore */
            tc = fmin(tc, pair_tc(sim, &c[a], &c[b], trot));
        }
    /* no pair can collide (one particle; every group ignoring the others): as before, each
     * particle against its like, so that a time step can still be chosen */
    if (!(tc < INFINITY))
        for (size_t a = 0; a < nc; a++) tc = fmin(tc, pair_tc(sim, &c[a], &c[a], trot));
    free(c);
    return tc;
}

void dem_sim_estimate_dt(dem_sim *sim, dem_dt_estimates *est)
{
    const dem_settings *st = &sim->st;
    est->rotation_time = INFINITY;
    est->contact_time = contact_time(sim, &est->rotation_time);
    est->contact_time = fmin(est->contact_time, est->rotation_time); /* the rolling spring's, where shorter */
    est->pwave = INFINITY;
    est->stiffness = INFINITY;
    int uses_e = !(st->normal == DEM_NORMAL_HOOKE && st->kn_rule == DEM_KN_GIVEN);
    for (size_t a = 0; a < sim->p.n; a++) {
        const dem_material *m = &sim->materials[sim->p.mat[a]];
        double tp = sim->p.r[a] * sqrt(m->density / m->young);                                 /* Šmilauer and Chareyre 2015, §1.5.6 */
        if (tp < est->pwave) est->pwave = tp;
    }
    if (!uses_e) est->pwave = NAN;
    /* global stiffness (Šmilauer and Chareyre 2015, eq 1.12): sum of the normal stiffnesses of each particle's
     * contacts, from the geometry alone (no force evaluation: that would fix the order of the
     * first force sums before the particles are sorted) */
    double *k = calloc(sim->p.n ? sim->p.n : 1, sizeof *k);
    if (k) {
        const dem_normal_model *nm = dem_normal_models[st->normal];
        for (size_t p = 0; p < sim->c.npairs; p++) {
            const dem_contact_rec *np = &sim->c.pairs[p];
            dem_vec3 xj = sim->p.x[np->j];
            if (np->s[0] | np->s[1] | np->s[2]) xj = dem_v3_add(xj, cell_shift(sim, np->s));
            double delta = sim->p.r[np->i] + sim->p.r[np->j] - dem_v3_norm(dem_v3_sub(sim->p.x[np->i], xj));
            if (!(delta > 0.0)) continue;
            dem_pair pp;
            sim_pair_properties(sim, &pp, p);
            double s = nm->stiffness(&pp, delta);
            k[np->i] += s;
            k[np->j] += s;
        }
        for (size_t b = 0; b < sim->bd.n; b++) { /* a bond is a spring at any length */
            k[sim->bd.i[b]] += sim->bd.kb[b];
            k[sim->bd.j[b]] += sim->bd.kb[b];
        }
        /* dist.h: a slim store holds every pair of this process's particles, and of no other
         * whole; each process takes its own, then the least of the processes' (exact) */
        size_t a0 = 0, a1 = sim->p.n;
        if (dist_slim(sim)) dist_particles(sim, &a0, &a1);
        for (size_t a = a0; a < a1; a++)
            if (k[a] > 0.0) {
                double t = sqrt(2.0 * sim->p.m[a] / k[a]);
                if (t < est->stiffness) est->stiffness = t;
            }
        free(k);
    }
    if (dist_slim(sim)) {
        const double *each = dem_dist_gather_each(sim, &est->stiffness, sizeof est->stiffness);
        for (int r = 0; r < sim->dist->comm.size; r++) est->stiffness = fmin(est->stiffness, each[r]);
    }
    double rec = est->contact_time / 50.0;
    if (uses_e && 0.2 * est->pwave < rec) rec = 0.2 * est->pwave;
    if (0.3 * est->stiffness < rec) rec = 0.3 * est->stiffness;
    est->recommended = rec;
}

/* What a frame reads, complete: the last step's books, the forces of the current state and, in a
 * group of processes (dist.h), at every process (every) every particle's state and every pair's
 * record and result from the process that owns it; else at process 0, which writes the frame or
 * takes the energy's reference, what the particles and pairs streaming to it do not bring
 * (dem_dist_to_root; every process calls it once per frame, the ones that write none too). A
 * frame never holds a non-finite state. */
static dem_status complete_state(dem_sim *sim, int every, dem_error *err)
{
    if (every) dem_dist_whole(sim); /* dist.h: with own stepping, every process's particles */
    dem_books_flush(sim);
    if (!sim->forces_current) dem_forces_setup(sim);
    dem_status st = DEM_OK;
    if (every) st = dem_dist_every_pair(sim, err); /* dem_dist_frame_done after */
    else dem_dist_to_root(sim);
    return st ? st : dem_guard_check_finite(sim, err);
}

/* The frame's state but its contacts, from a complete state; its particle table too if
 * particles. */
static dem_status fill_state(dem_sim *sim, dem_system *out, int particles, dem_error *err)
{
    dem_books_apply_setup(sim);
    out->step = sim->step;
    out->time = sim->time;
    out->dt = sim->dt;
    out->cell = sim->b.cell; /* the same, or put onto the exact lattice */
    out->flags |= DEM_HEAD_FORCES_CURRENT;
    memcpy(out->energy, sim->e.energy, sizeof out->energy);
    out->nparticles = sim->p.n;
    if (particles) dem_particles_write(sim, out);
    if (sim->cl) dem_clumps_write(sim, out);
    if (sim->b.nwalls) memcpy(out->walls, sim->b.walls, sim->b.nwalls * sizeof *sim->b.walls);
    dem_bonds_write(sim, out);
    return dem_settings_write(&sim->st, out, err);
}

/* complete_state and fill_state (the particle table allocated if the frame has none). */
static dem_status store_state(dem_sim *sim, dem_system *out, int particles, int every, dem_error *err)
{
    dem_status st;
    if (particles && !out->particles && sim->p.n) {
        if (!(out->particles = malloc(sim->p.n * sizeof *out->particles)))
            return dem_fail(err, DEM_ERR_NOMEM, "out of memory for a frame of %zu particles", sim->p.n);
        out->cap_particles = sim->p.n;
    }
    if ((st = complete_state(sim, every, err))) return st;
    return fill_state(sim, out, particles, err);
}

dem_status dem_sim_store(dem_sim *sim, dem_system *out, dem_error *err)
{
    dem_status st = store_state(sim, out, 1, 1, err);
    if (!st) st = dem_store_write(sim, out, err);
    dem_dist_frame_done(sim); /* dist.h: this process's own pairs again */
    return st;
}

/* The frame's contact table goes: its contacts are the store's now. */
static void drop_contacts(dem_system *frame)
{
    free(frame->contacts);
    frame->contacts = NULL;
    frame->ncontacts = frame->cap_contacts = 0;
}

/* The frame's particle table goes: its particles are the sim's now. */
static void drop_particles(dem_system *frame)
{
    free(frame->particles);
    frame->particles = NULL;
    frame->cap_particles = 0;
}

void dem_sim_release_frame(dem_system *frame)
{
    drop_particles(frame);
    drop_contacts(frame);
}

/* dem_particle_source: the sim's particles, in its order. */
static dem_status fill_particles(void *ctx, size_t first, size_t n, dem_particle *out, dem_error *err)
{
    (void)err;
    const dem_sim *sim = ctx;
    for (size_t k = 0; k < n; k++) dem_particle_record(sim, first + k, &out[k]);
    return DEM_OK;
}

/* A frame's particles and contacts as sources (psrc, src), from the complete state: in one
 * process from the sim (close ss after use); in a group of processes (dist.h), streaming to
 * process 0 from their owners: there psrc and src give them, and the other processes take part
 * in the rounds until process 0 ends them (frame_end), and only then return. The same status at
 * every process. */
static dem_status frame_begin(dem_sim *sim, store_stream **ss, dem_particle_source *psrc, dem_contact_source *src, dem_error *err)
{
    *ss = NULL;
    dem_status st = complete_state(sim, 0, err);
    if (st) return st;
    if (sim->dist) return dem_dist_frame_sources(sim, psrc, src, err);
    *psrc = (dem_particle_source){sim->p.n, fill_particles, sim};
    return dem_store_stream_open(sim, ss, src, err);
}

/* The frame's head from the complete state, without its particles and contacts, which the sources
 * give: the frame's tables (the input's, or an earlier store's) go. The checks that need no
 * records are made where the frame is used (process 0): a writer checks each record it encodes,
 * and the sim's state is finite (complete_state). */
static dem_status frame_head(dem_sim *sim, dem_system *frame, const dem_contact_source *src, dem_error *err)
{
    dem_sim_release_frame(frame);
    dem_status st = fill_state(sim, frame, 0, err);
    if (sim->dist && sim->dist->comm.rank != 0) return st;
    frame->hist_slots = src->hist_slots;
    return st ? st : dem_system_check_head(frame, err);
}

/* After frame_begin: process 0 ends the rounds, the frame used or not; every process has its own
 * pairs again. */
static void frame_end(dem_sim *sim, store_stream *ss)
{
    dem_store_stream_close(ss);
    dem_dist_frame_sources_end(sim);
    dem_dist_frame_done(sim);
}

dem_status dem_sim_put(dem_sim *sim, dem_system *frame, dem_writer *w, dem_error *err)
{
    int root = !sim->dist || sim->dist->comm.rank == 0; /* dist.h: process 0 writes, the others take part */
    store_stream *ss;
    dem_contact_source src;
    dem_particle_source psrc;
    dem_status st = frame_begin(sim, &ss, &psrc, &src, err);
    if (!st && root && w && !(st = frame_head(sim, frame, &src, err))) st = dem_writer_put_sources(w, frame, &psrc, &src, err);
    frame_end(sim, ss);
    if (!st && w && !root) st = dem_fail(err, DEM_ERR_ARG, "in a group of processes, process 0 writes the frames (process %d was given a writer)", sim->dist->comm.rank);
    return st;
}

/* In a group of processes: process 0's status and value *ref at every process (a failure here
 * first); collective. */
static dem_status reference_from_root(dem_sim *sim, dem_status st, double *ref, dem_error *err)
{
    struct {
        double ref;
        int32_t st;
    } mine = {*ref, (int32_t)st}, root;
    memcpy(&root, dem_dist_gather_each(sim, &mine, sizeof mine), sizeof root);
    if (st) return st;
    *ref = root.ref;
    if (root.st) return dem_fail(err, (dem_status)root.st, "process 0 could not take the energy reference");
    return DEM_OK;
}

dem_status dem_sim_energy_reference(dem_sim *sim, dem_system *frame, const dem_settings *settings, double *ref, dem_error *err)
{
    store_stream *ss;
    dem_contact_source src;
    dem_particle_source psrc;
    /* the particles and contacts streamed from the sim, as for a frame: no table. dist.h: in a
     * group, process 0 takes it as they stream to it and gives the others its value (the frame's
     * head is made at every process) */
    *ref = NAN;
    dem_status st = frame_begin(sim, &ss, &psrc, &src, err);
    if (!st && !(st = frame_head(sim, frame, &src, err)) && (!sim->dist || sim->dist->comm.rank == 0))
        st = dem_energy_reference_source(frame, settings, &psrc, &src, ref, err);
    frame_end(sim, ss);
    return sim->dist ? reference_from_root(sim, st, ref, err) : st;
}

void dem_sim_set_cell_rate(dem_sim *sim, const dem_mat3 *l)
{
    dem_books_flush(sim);
    sim->b.cell.vgrad = *l;
    sim->b.servo = 0;
    sim->b.deforming = sim->b.cell.flags != 0;
}

dem_mat3 dem_sim_cell_rate(const dem_sim *sim) { return sim->b.cell.vgrad; }
int dem_sim_cell_flips(const dem_sim *sim) { return sim->b.flips; }
dem_mat3 dem_sim_cell_deform(const dem_sim *sim) { return sim->b.cell.deform; }
dem_mat3 dem_sim_cell_target(const dem_sim *sim) { return sim->b.cell.target_stress; }
unsigned dem_sim_cell_mask(const dem_sim *sim) { return sim->b.cell.stress_mask; }

dem_mat3 dem_sim_cell_stress(dem_sim *sim)
{
    if (!sim->b.cell.flags) return dem_m3_zero();
    if (!sim->forces_current) dem_forces_setup(sim);
    return dem_deform_stress(sim);
}

/* Pairs [lo, hi)'s contact forces, added to *acc (a dem_unbalanced_sum) in list order. */
static void unbalanced_pairs(const dem_sim *sim, size_t lo, size_t hi, void *acc)
{
    const sim_store *c = &sim->c;
    for (size_t q = lo; q < hi; q++)
        if (c->ptouch[q]) dem_unbalanced_add_contact(acc, dem_contact_force(&c->out[q]));
}

/* dist.h's chains: the net forces of the particles a process steps, in particle order (a
 * clump's members: its net force instead, at its first member); the contact forces of its wall slots, in slot order. */
static void unbalanced_particles(dem_sim *sim, void *acc)
{
    const sim_particles *P = &sim->p;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    for (size_t a = p0; a < p1; a++) {
        if (P->flags[a] & SIM_PARTICLE_MEMBER) { /* a clump counted at its first member (clumps.h) */
            size_t k = dem_clumps_first_member(sim, a);
            if (k != SIM_NO_CLUMP) dem_unbalanced_add_particle(acc, sim->cl->f[k]);
        } else if (!(P->flags[a] & DEM_PARTICLE_FIXED)) {
            dem_unbalanced_add_particle(acc, P->f[a]); /* gravity included */
        }
    }
}

static void unbalanced_slots(dem_sim *sim, void *acc)
{
    const sim_store *c = &sim->c;
    size_t q0, q1;
    dist_stepped_slots(sim, &q0, &q1);
    for (size_t q = q0; q < q1; q++)
        if (c->wtouch[q]) dem_unbalanced_add_contact(acc, dem_contact_force(&c->wout[q]));
}

double dem_sim_unbalanced(dem_sim *sim)
{
    if (!sim->forces_current) dem_forces_setup(sim);
    dem_unbalanced_sum u = {0.0, 0.0, 0, 0}; /* the one definition, shared with dem-probe */
    /* dist.h: each sum in one process's order on any number of processes (the particles, the
     * clumps among them, the pairs in list order, the wall slots) */
    dem_dist_chain(sim, &u, sizeof u, unbalanced_particles);
    dem_dist_chain_pairs(sim, &u, sizeof u, unbalanced_pairs);
    dem_dist_chain(sim, &u, sizeof u, unbalanced_slots);
    return dem_unbalanced_ratio(&u);
}

/* Particle a touches a particle or a wall in the current forces. */
static int particle_touches(const dem_sim *sim, size_t a)
{
    const sim_store *c = &sim->c;
    int touch = 0;
    for (size_t q = c->istart[a]; q < c->istart[a + 1] && !touch; q++) touch = c->ptouch[q];
    for (size_t e = c->jadj_start[a]; e < c->jadj_start[a + 1] && !touch; e++) touch = c->ptouch[c->jadj[e]];
    for (size_t q = c->wstart[a]; q < c->wstart[a + 1] && !touch; q++) touch = c->wtouch[q];
    return touch;
}

size_t dem_sim_touching(dem_sim *sim, size_t *flying)
{
    if (!sim->forces_current) dem_forces_setup(sim);
    const sim_particles *P = &sim->p;
    const sim_store *c = &sim->c;
    /* dist.h: each process counts its own pairs, wall slots and particles, and the counts are
     * summed (integers: exact). A clump's members may lie on several processes: each process
     * counts the clumps whose members are all its own, and the others (dem_dist_clumps_flying)
     * once, from every process's flags; every process stepping every particle counts them all */
    int whole = sim->dist && sim->cl && !dist_local(sim);
    size_t p0 = 0, p1 = P->n, b0 = 0, b1 = c->nblk;
    if (whole) {
        dem_dist_share_pairs(sim, 0);
    } else {
        dist_particles(sim, &p0, &p1);
        dist_blocks(sim, &b0, &b1);
    }
    size_t w[2] = {0, 0}; /* touching pairs and wall slots, particles and clumps touching nothing */
    for (size_t q = c->pblk[b0]; q < c->pblk[b1]; q++) w[0] += c->ptouch[q] != 0;
    for (size_t q = c->wstart[p0]; q < c->wstart[p1]; q++) w[0] += c->wtouch[q] != 0; /* its particles' slots */
    for (size_t a = p0; a < p1 && flying; a++) {
        if ((P->flags[a] & (DEM_PARTICLE_FIXED | SIM_PARTICLE_MEMBER)) || dem_v3_norm2(P->f[a]) == 0.0) continue;
        w[1] += !particle_touches(sim, a);
    }
    if (flying && sim->cl) {
        const struct sim_clumps *cl = sim->cl;
        if (whole || !sim->dist) { /* a clump flies when none of its members touches */
            for (size_t k = 0; k < cl->n; k++) {
                if (dem_v3_norm2(cl->f[k]) == 0.0) continue;
                int touch = 0;
                for (size_t j = cl->start[k]; j < cl->start[k + 1] && !touch; j++) touch = particle_touches(sim, cl->pidx[j]);
                w[1] += !touch;
            }
        } else {
            w[1] += dem_dist_clumps_flying(sim, particle_touches);
        }
    }
    if (sim->dist && !whole) dem_dist_sum_counts(sim, w, 2);
    if (flying) *flying = w[1];
    return w[0];
}

/* dist.h's chain: the kinetic energy of the particles a process steps, in particle order (a
 * clump's at its first member: its process moves it). */
typedef struct {
    double e;
    size_t n;
} kinetic_sum;

static void kinetic_particles(dem_sim *sim, void *acc)
{
    const sim_particles *P = &sim->p;
    kinetic_sum *k = acc;
    size_t p0, p1;
    dist_stepped(sim, &p0, &p1);
    for (size_t a = p0; a < p1; a++) {
        if (P->flags[a] & SIM_PARTICLE_MEMBER) { /* a clump's members: the clump's, at its first member */
            size_t c = dem_clumps_first_member(sim, a);
            if (c != SIM_NO_CLUMP) {
                k->e += dem_clumps_kinetic(sim, c);
                k->n++;
            }
            continue;
        }
        if (P->flags[a] & DEM_PARTICLE_FIXED) continue;
        k->e += 0.5 * P->m[a] * dem_v3_norm2(P->v[a]) + 0.5 * P->inertia[a] * dem_v3_norm2(P->w[a]);
        k->n++;
    }
}

double dem_sim_kinetic_energy(dem_sim *sim, size_t *nfree)
{
    kinetic_sum k = {0.0, 0};
    dem_dist_chain(sim, &k, sizeof k, kinetic_particles); /* dist.h: in particle order on any number of processes */
    if (nfree) *nfree = k.n;
    return k.e;
}
