/* neighbor.c - the cell grid, the Verlet list and the spatial sort (see neighbor.h). The list is
 * rebuilt when a particle moved more than half the skin (Šmilauer and Chareyre 2015, §1.1.3). */
#include "sim/internal/neighbor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/bonds.h"
#include "sim/internal/clumps.h"
#include "sim/internal/boundary.h"
#include "sim/internal/contacts.h"
#include "sim/internal/dist.h"
#include "sim/internal/par.h"
#include "sim/internal/particles.h"

dem_status dem_nbr_alloc(dem_sim *sim, dem_error *err)
{
    size_t n = sim->p.n ? sim->p.n : 1, nw = sim->b.nwalls ? sim->b.nwalls : 1;
    sim->nbr.x_build = calloc(n, sizeof *sim->nbr.x_build);
    sim->nbr.cell_items = calloc(n, sizeof *sim->nbr.cell_items);
    sim->nbr.wall_build = calloc(nw, sizeof *sim->nbr.wall_build);
    if (!sim->nbr.x_build || !sim->nbr.cell_items || !sim->nbr.wall_build)
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", sim->p.n);
    return DEM_OK;
}

void dem_nbr_free(dem_sim *sim)
{
    free(sim->nbr.x_build);
    free(sim->nbr.cell_items);
    free(sim->nbr.wall_build);
    free(sim->nbr.cell_start);
    dem_nbr_multi_free(sim);
}

double dem_nbr_default_skin(const dem_sim *sim)
{
    double rmin = INFINITY;
    for (size_t a = 0; a < sim->p.n; a++)
        if (sim->p.r[a] < rmin) rmin = sim->p.r[a];
    return sim->p.n ? 0.2 * rmin : 0.0;
}

typedef nbr_grid grid;

/* A system without particles (a frame emptied by dem-pack --delete, a periodic cell waiting for
 * --insert): one cell, nothing in it. Its cutoff (no radius, no skin) would make a grid of
 * 0-wide or NaN cells ("internal error: a neighbour grid of -nan cells"). */
static dem_status empty_grid(grid *g)
{
    for (int k = 0; k < 3; k++) {
        g->lo[k] = 0.0;
        g->size[k] = 1.0;
        g->n[k] = 1;
    }
    return DEM_OK;
}

/* The extent of particles [p0, p1) in the grid's coordinates (the cell's fractional ones, or
 * metres), lo and hi (+inf and -inf for none). */
static void grid_extent(const dem_sim *sim, size_t p0, size_t p1, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (size_t a = p0; a < p1; a++) {
        dem_vec3 s = cell_frac(sim, sim->p.x[a]);
        for (int k = 0; k < 3; k++) {
            double c = dem_v3_get(s, k);
            if (c < lo[k]) lo[k] = c;
            if (c > hi[k]) hi[k] = c;
        }
    }
}

static dem_status grid_over(const dem_sim *sim, double cutoff, size_t nitems, const double lo[3], const double hi[3], grid *g,
                            dem_error *err);

dem_status dem_nbr_grid_setup(const dem_sim *sim, double cutoff, size_t nitems, grid *g, dem_error *err)
{
    if (sim->p.n == 0) return empty_grid(g);
    double lo[3], hi[3];
    grid_extent(sim, 0, sim->p.n, lo, hi);
    return grid_over(sim, cutoff, nitems, lo, hi, g, err);
}

/* The grid over the extent lo, hi (dem_nbr_grid_setup). */
static dem_status grid_over(const dem_sim *sim, double cutoff, size_t nitems, const double lo[3], const double hi[3], grid *g,
                            dem_error *err)
{
    /* Limit the grid to a few cells per particle so that a stray particle far away does not
     * make it huge. The counts are worked out in doubles and cast only once they are that small
     * (a particle 1e12 m away must not overflow an int). */
    double max_cells = 8.0 * (double)nitems + 27.0, nc[3];
    for (int k = 0; k < 3; k++) {
        double width = sim->b.cell.flags ? dem_boundary_cell_width(&sim->b.cell, k) : 1.0; /* metres per unit */
        double cut = cutoff / width;                                           /* cutoff in these units */
        if (sim->b.periodic[k]) {
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
            g->size[k] = sim->b.periodic[k] ? 1.0 / nc[k] : g->size[k] * f;
        }
    }
    for (int k = 0; k < 3; k++) {
        /* guard.c keeps every coordinate within 2^40 radii, so these are finite and small; a
         * count that is not would be a bug here, never an overflow */
        if (!(nc[k] >= 1.0 && nc[k] <= max_cells && g->size[k] > 0.0 && isfinite(g->size[k])))
            return dem_fail(err, DEM_ERR_LIMIT, "internal error: a neighbour grid of %g cells of %g along axis %d", nc[k], g->size[k], k);
        g->n[k] = (int)nc[k];
    }
    return DEM_OK;
}

static inline int grid_index(const grid *g, int k, double c)
{
    int i = (int)floor((c - g->lo[k]) / g->size[k]);
    if (i < 0) i = 0;
    if (i >= g->n[k]) i = g->n[k] - 1;
    return i;
}

static uint32_t grid_cell(const dem_sim *sim, const grid *g, size_t a)
{
    dem_vec3 s = cell_frac(sim, sim->p.x[a]);
    int ix = grid_index(g, 0, s.x), iy = grid_index(g, 1, s.y), iz = grid_index(g, 2, s.z);
    return (uint32_t)(((size_t)iz * g->n[1] + iy) * g->n[0] + ix);
}

/* Bin particles [p0, p1) and the nmore of more (or every particle: p1 = n, nmore 0), whose
 * cells cellof[a] are set (grid_cells): cell_start (counts, then offsets) and cell_items
 * (particles by cell, each cell's in the order given). */
static dem_status grid_bin_some(dem_sim *sim, const grid *g, uint32_t *cellof, size_t p0, size_t p1, const uint32_t *more, size_t nmore,
                                dem_error *err)
{
    size_t ncells = (size_t)g->n[0] * g->n[1] * g->n[2];
    if (ncells + 1 > sim->nbr.cap_cells) {
        size_t *a = realloc(sim->nbr.cell_start, (ncells + 1) * sizeof *a);
        if (!a) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu grid cells", ncells);
        sim->nbr.cell_start = a;
        sim->nbr.cap_cells = ncells + 1;
    }
    size_t *cs = sim->nbr.cell_start, *items = sim->nbr.cell_items;
    memset(cs, 0, (ncells + 1) * sizeof *cs);
    for (size_t a = p0; a < p1; a++) cs[cellof[a] + 1]++;
    for (size_t e = 0; e < nmore; e++) cs[cellof[more[e]] + 1]++;
    for (size_t c = 0; c < ncells; c++) cs[c + 1] += cs[c];
    size_t *fill = malloc((ncells + 1) * sizeof *fill);
    if (!fill) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid");
    memcpy(fill, cs, (ncells + 1) * sizeof *fill);
    for (size_t a = p0; a < p1; a++) items[fill[cellof[a]]++] = a;
    for (size_t e = 0; e < nmore; e++) items[fill[cellof[more[e]]]++] = more[e];
    free(fill);
    return DEM_OK;
}

/* cellof[a] for particles [p0, p1) and the nmore of more. */
static void grid_cells(const dem_sim *sim, const grid *g, uint32_t *cellof, size_t p0, size_t p1, const uint32_t *more, size_t nmore)
{
    for (size_t a = p0; a < p1; a++) cellof[a] = grid_cell(sim, g, a);
    for (size_t e = 0; e < nmore; e++) cellof[more[e]] = grid_cell(sim, g, more[e]);
}

/* Bin every particle (grid_bin_some), its cell in cellof[a]. */
static dem_status grid_bin(dem_sim *sim, const grid *g, uint32_t *cellof, dem_error *err)
{
    grid_cells(sim, g, cellof, 0, sim->p.n, NULL, 0);
    return grid_bin_some(sim, g, cellof, 0, sim->p.n, NULL, 0, err);
}

/* A group's grid, over its extent (the smallest lo and the largest hi of its processes), and the
 * cells of this process's particles [p0, p1) in it. */
static dem_status group_grid(dem_sim *sim, double cutoff, grid *g, uint32_t *cellof, size_t p0, size_t p1, dem_error *err)
{
    double lo[3], hi[3];
    grid_extent(sim, p0, p1, lo, hi);
    dem_dist_extent(sim, lo, hi);
    dem_status st = grid_over(sim, cutoff, sim->p.n, lo, hi, g, err);
    if (!st) grid_cells(sim, g, cellof, p0, p1, NULL, 0);
    return st;
}

/* A group of processes' rebuild without a re-sort (dist.h's dem_dist_near): the group's grid,
 * this process's particles binned, and those of the others that lie in cells next to its own,
 * received and binned: all that its particles' scan reaches. */
static dem_status grid_bin_near(dem_sim *sim, double cutoff, grid *g, uint32_t *cellof, dem_error *err)
{
    if (sim->p.n == 0) return empty_grid(g);
    size_t p0, p1, nnear = 0;
    dist_particles(sim, &p0, &p1);
    dem_status st = group_grid(sim, cutoff, g, cellof, p0, p1, err);
    if (st) return st;
    const uint32_t *near = NULL;
    if ((st = dem_dist_near(sim, g, cellof, &near, &nnear, err))) return st;
    grid_cells(sim, g, cellof, 0, 0, near, nnear);
    return grid_bin_some(sim, g, cellof, p0, p1, near, nnear, err);
}

/* A group's re-sort that gathered no position (dist.h's dem_dist_sort_pending): the group's grid,
 * this process's particles' cells, every particle's from its process, and every particle binned
 * by them (the sort reads the order; the scan reads no position through it). */
static dem_status grid_bin_sorting(dem_sim *sim, double cutoff, grid *g, uint32_t *cellof, dem_error *err)
{
    if (sim->p.n == 0) return empty_grid(g);
    size_t p0, p1;
    dist_particles(sim, &p0, &p1);
    dem_status st = group_grid(sim, cutoff, g, cellof, p0, p1, err);
    if (st) return st;
    dem_dist_sort_cells(sim, cellof);
    return grid_bin_some(sim, g, cellof, 0, sim->p.n, NULL, 0, err);
}

/* After that re-sort (the cells in the new numbers): the positions this process's scan reaches,
 * received, and the grid binned anew with them and its own particles alone. */
static dem_status grid_bin_sorted(dem_sim *sim, const grid *g, uint32_t *cellof, dem_error *err)
{
    size_t p0, p1, nmore = 0;
    const uint32_t *more = NULL;
    dist_particles(sim, &p0, &p1);
    dem_status st = dem_dist_near_sorted(sim, g, cellof, &more, &nmore, err);
    return st ? st : grid_bin_some(sim, g, cellof, p0, p1, more, nmore, err);
}

dem_status dem_nbr_candidate(dem_sim *sim, size_t a, size_t b, const int32_t sh[3], dem_error *err)
{
    return dem_nbr_candidate_to(sim, &sim->c.keys, a, b, sh, err);
}

dem_status dem_nbr_candidate_to(const dem_sim *sim, store_keys *keys, size_t a, size_t b, const int32_t sh[3], dem_error *err)
{
    int32_t s[3] = {sh[0], sh[1], sh[2]};
    if (a == b) { /* own image: keep s > 0 */
        int pos = s[0] ? s[0] > 0 : s[1] ? s[1] > 0 : s[2] > 0;
        if (!pos) return DEM_OK;
    } else if (a > b) { /* canonical orientation: i < j, x_j + H s near x_i */
        size_t t = a;
        a = b;
        b = t;
        for (int k = 0; k < 3; k++) s[k] = -s[k];
    }
    if (sim->cl && dem_clumps_excluded(sim, a, b)) return DEM_OK; /* a clump never touches itself (clumps.h) */
    dem_vec3 xb = sim->p.x[b];
    if (s[0] | s[1] | s[2]) xb = dem_v3_add(xb, cell_shift(sim, s));
    double reach = sim->p.r[a] + sim->p.r[b] + sim->nbr.skin + sim->nbr.reach; /* reach: a JKR neck's */
    double d2 = dem_v3_norm2(dem_v3_sub(sim->p.x[a], xb));
    if (d2 >= reach * reach) return DEM_OK;
    if (d2 == 0.0) /* no normal: the contact law is undefined */
        return dem_fail(err, DEM_ERR_VALUE, "particles %llu and %llu have the same centre (%g, %g, %g) m: no contact normal is defined",
                        (unsigned long long)sim->p.id[a], (unsigned long long)sim->p.id[b], xb.x, xb.y, xb.z);
    if (sim->bd.n && dem_bonds_excluded(sim, a, b, s)) return DEM_OK; /* bonded: the bond alone acts */
    return dem_store_keys_add(keys, (uint32_t)a, (uint32_t)b, s, err);
}

int dem_nbr_uses_multi(const dem_sim *sim)
{
    if (sim->st.grid != DEM_NEIGHBOR_AUTO) return sim->st.grid == DEM_NEIGHBOR_MULTI;
    double rmin = INFINITY;
    for (size_t a = 0; a < sim->p.n; a++)
        if (sim->p.r[a] < rmin) rmin = sim->p.r[a];
    return sim->p.n && sim->p.rmax > DEM_NEIGHBOR_AUTO_RATIO * rmin;
}

/* The candidate pairs of particle a (in cell c) with the particles of the 27 cells around it,
 * each pair found once (from its smaller index), into keys; the distance tests counted in *tests. */
static dem_status scan_neighbours(const dem_sim *sim, const grid *g, size_t a, const int c[3], store_keys *keys, uint64_t *tests,
                                  dem_error *err)
{
    const size_t *cs = sim->nbr.cell_start, *items = sim->nbr.cell_items;
    dem_status st;
    for (int oz = -1; oz <= 1; oz++)
        for (int oy = -1; oy <= 1; oy++)
            for (int ox = -1; ox <= 1; ox++) {
                int o[3] = {ox, oy, oz}, nc[3];
                int32_t sh[3] = {0, 0, 0};
                int skip = 0;
                for (int k = 0; k < 3; k++) {
                    int q = c[k] + o[k];
                    if (sim->b.periodic[k]) {
                        if (q < 0) { q += g->n[k]; sh[k] = -1; }
                        else if (q >= g->n[k]) { q -= g->n[k]; sh[k] = 1; }
                        /* fewer than 3 cells: offsets -1 and +1 reach the same cell through
                         * different images, both genuine */
                    } else if (q < 0 || q >= g->n[k]) skip = 1;
                    nc[k] = q;
                }
                if (skip) continue;
                size_t cell = ((size_t)nc[2] * g->n[1] + nc[1]) * g->n[0] + nc[0];
                for (size_t e = cs[cell]; e < cs[cell + 1]; e++) {
                    size_t b = items[e];
                    if (a > b) continue;                            /* found from b's side */
                    if (a == b && !(sh[0] | sh[1] | sh[2])) continue; /* itself */
                    if (!dem_groups_interact(&sim->st, sim->p.group[a], sim->p.group[b])) continue; /* before any distance */
                    (*tests)++;
                    if ((st = dem_nbr_candidate_to(sim, keys, a, b, sh, err))) return st;
                }
            }
    return DEM_OK;
}

/* The grid's scan on the sim's threads: each scans its share of the particles into keys of its
 * own and sorts them; the shares are appended in order, so the keys, the count of tests and the
 * first error (in particle order) are those of one thread's scan. */
typedef struct {
    store_keys keys;
    uint64_t tests;
    dem_status st;
    dem_error err;
} scan_part;

typedef struct {
    const dem_sim *sim;
    const grid *g;
    const uint32_t *cellof;
    scan_part *part; /* one per thread */
    size_t first;    /* the first particle scanned (a process's share, dist.h; 0 in one process) */
} scan_args;

static PAR_RANGE void scan_share(void *ctx, size_t lo, size_t hi, int t)
{
    scan_args *sa = ctx;
    const grid *g = sa->g;
    scan_part *p = &sa->part[t];
    for (size_t a = sa->first + lo; a < sa->first + hi && !p->st; a++) {
        uint32_t ca = sa->cellof[a];
        int c[3] = {(int)(ca % g->n[0]), (int)(ca / g->n[0] % g->n[1]), (int)(ca / g->n[0] / g->n[1])};
        p->st = scan_neighbours(sa->sim, g, a, c, &p->keys, &p->tests, &p->err);
    }
    dem_store_keys_sort(&p->keys);
}

static dem_status scan_all(dem_sim *sim, const grid *g, const uint32_t *cellof, dem_error *err)
{
    size_t p0, p1;
    dist_particles(sim, &p0, &p1); /* dist.h: a process scans its own particles, then they exchange the keys */
    scan_args sa = {sim, g, cellof, calloc((size_t)sim->threads, sizeof(scan_part)), p0};
    if (!sa.part) return dem_dist_gather_keys(sim, dem_fail(err, DEM_ERR_NOMEM, "out of memory for the neighbour search"), err);
    dem_par_for(sim->pool, p1 - p0, scan_share, &sa);
    dem_status st = DEM_OK;
    for (int t = 0; t < sim->threads; t++) {
        scan_part *p = &sa.part[t];
        sim->nbr.tests += p->tests;
        if (!st && p->st) {
            st = p->st;
            *err = p->err;
        }
        if (!st) st = dem_store_keys_append(sim, &p->keys, err);
        free(p->keys.k);
    }
    free(sa.part);
    return dem_dist_gather_keys(sim, st, err); /* dist.h: in one process, st */
}

dem_status dem_nbr_rebuild(dem_sim *sim, int sort, dem_error *err)
{
    dem_status st;
    double cutoff = 2.0 * sim->p.rmax + sim->nbr.skin + sim->nbr.reach;
    int multi = dem_nbr_uses_multi(sim);
    dem_dist_keep_own(sim); /* dist.h: each process keeps its own records, and hands them on after the new cuts */
    grid g = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    uint32_t *cellof = NULL;
    /* the single-level grid orders the particles for either backend (the sort decides the order
     * of every sum, so both must sort alike to give the same bits); multi needs it only then */
    int sorting = sort && !multi && dem_dist_sort_pending(sim); /* dist.h: a re-sort from the owners' cells */
    if (!multi || sort) {
        int near = dem_dist_near_pending(sim); /* dist.h: the positions of the cells next to this process's alone */
        if (!near && !sorting && (st = dem_nbr_grid_setup(sim, cutoff, sim->p.n, &g, err))) return st;
        cellof = malloc((sim->p.n ? sim->p.n : 1) * sizeof *cellof);
        if (!cellof) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid");
        st = sorting ? grid_bin_sorting(sim, cutoff, &g, cellof, err) : near ? grid_bin_near(sim, cutoff, &g, cellof, err) : grid_bin(sim, &g, cellof, err);
        if (st) { free(cellof); return st; }
    }
    size_t *items = sim->nbr.cell_items;
    /* particles into cell order; then the cell of particle k is the k-th of the sorted list.
     * Done at fixed steps only (see the integrators): the order decides the order of every sum,
     * so it must be a function of the step and the state. */
    if (sort) {
        if ((st = dem_particles_reorder(sim, items, err)) || (st = dem_dist_renumbered(sim, items, err))) { free(cellof); return st; }
        uint32_t *c2 = malloc((sim->p.n ? sim->p.n : 1) * sizeof *c2);
        if (!c2) { free(cellof); return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the grid"); }
        for (size_t k = 0; k < sim->p.n; k++) c2[k] = cellof[items[k]];
        free(cellof);
        cellof = c2;
        for (size_t k = 0; k < sim->p.n; k++) items[k] = k;
        if (sorting && (st = grid_bin_sorted(sim, &g, cellof, err))) { free(cellof); return st; }
    }
    if ((st = dem_store_begin_pairs(sim, err))) { free(cellof); return st; }
    sim->nbr.tests = 0;
    sim->nbr.used_multi = multi;
    if (multi) {
        if ((st = dem_nbr_multi_pairs(sim, err)) || (st = dem_dist_scanned_all(sim, err))) { free(cellof); return st; } /* dist.h */
    } else if ((st = scan_all(sim, &g, cellof, err))) {
        free(cellof);
        return st;
    }
    free(cellof);
    if ((st = dem_store_end_pairs(sim, err))) return st;
    sim->nbr.h_build = sim->b.cell.h;
    for (size_t k = 0; k < sim->b.nwalls; k++) sim->nbr.wall_build[k] = sim->b.walls[k].point;
    size_t p0 = 0, p1 = sim->p.n, nheld;
    const uint32_t *held;
    int own = dem_dist_slots_own(sim); /* dist.h: each process lays out its own particles' slots, */
    if (own) dist_particles(sim, &p0, &p1);
    int was_held = dem_dist_slots_held(sim, &held, &nheld); /* or, after a re-sort, those it held */
    /* the build's positions of the particles whose positions this process has (every one, or
     * its own, or those it held: they go with the particles that change process, and the rest
     * of its copy is stale, dist.h) */
    if (was_held) {
        for (size_t k = 0; k < nheld; k++) sim->nbr.x_build[held[k]] = sim->p.x[held[k]];
        st = dem_store_wall_slots_of(sim, held, nheld, dem_dist_share_held_counts, err);
    } else {
        memcpy(sim->nbr.x_build + p0, sim->p.x + p0, (p1 - p0) * sizeof *sim->p.x);
        st = dem_store_wall_slots(sim, p0, p1, own ? dem_dist_share_slot_counts : NULL, err);
    }
    if (st) return st;
    sim->nbr.rebuilds++;
    return dem_dist_decompose(sim, err); /* dist.h: new cuts on the new list */
}

/* d2 into the two largest so far, m1 >= m2. */
static inline void top_two(double d2, double *m1, double *m2)
{
    if (d2 > *m1) {
        *m2 = *m1;
        *m1 = d2;
    } else if (d2 > *m2) {
        *m2 = d2;
    }
}

/* The field's map of the build's positions since the rebuild, G = H H_build^-1 (a deforming cell). */
static dem_mat3 field_since_build(const dem_sim *sim) { return dem_m3_mul(sim->b.cell.h, dem_m3_inverse(sim->nbr.h_build)); }

typedef struct {
    const dem_sim *sim;
    size_t first;
    dem_mat3 g;
} moves_args;

/* par.h: thread t's share, its two largest displacements and its largest total one (a deforming
 * cell's walls) in its partial's maxima. */
static void moves_share(void *ctx, size_t lo, size_t hi, int t)
{
    const moves_args *a = ctx;
    const dem_sim *sim = a->sim;
    double m1 = 0.0, m2 = 0.0, t1 = 0.0;
    if (sim->b.deforming) {
        const dem_vec3 o = sim->b.cell.origin;
        for (size_t k = a->first + lo; k < a->first + hi; k++) {
            dem_vec3 xa = dem_v3_sub(sim->p.x[k], o), xb = dem_v3_sub(sim->nbr.x_build[k], o);
            top_two(dem_v3_norm2(dem_v3_sub(xa, dem_m3_mulv(a->g, xb))), &m1, &m2);
            t1 = fmax(t1, dem_v3_norm2(dem_v3_sub(xa, xb)));
        }
    } else {
        for (size_t k = a->first + lo; k < a->first + hi; k++) top_two(dem_v3_norm2(dem_v3_sub(sim->p.x[k], sim->nbr.x_build[k])), &m1, &m2);
    }
    sim->part[t].max[0] = m1;
    sim->part[t].max[1] = m2;
    sim->part[t].max[2] = t1;
}

/* On the sim's threads: a serial pass over every particle at every step kept the other threads
 * waiting past their spin, asleep when the next loop came (par.c). The two largest of the
 * threads' two largest, and the largest of their largest: exact in any split. */
void dem_nbr_largest_moves(const dem_sim *sim, size_t p0, size_t p1, double m[3])
{
    moves_args a = {sim, p0, sim->b.deforming ? field_since_build(sim) : dem_m3_identity()};
    dem_par_for(sim->pool, p1 - p0, moves_share, &a);
    for (int t = 0; t < sim->threads; t++) dem_nbr_merge_moves(m, sim->part[t].max);
}

void dem_nbr_merge_moves(double m[3], const double add[3])
{
    top_two(add[0], &m[0], &m[1]);
    top_two(add[1], &m[0], &m[1]);
    m[2] = fmax(m[2], add[2]);
}

/* The rebuild test. A deforming cell: the two largest displacements relative to the field since
 * the rebuild, x - o - G (x_build - o), and the field's own change of a pair's distance, at most
 * |G - I| (Frobenius) times the cutoff; the largest total displacement for the walls. */
int dem_nbr_needs_rebuild(const dem_sim *sim)
{
    double m[3] = {0.0, 0.0, 0.0};
    if (dist_local(sim)) /* dist.h: the group's, gathered with the halo after the drift */
        memcpy(m, sim->dist->moved, sizeof m);
    else
        dem_nbr_largest_moves(sim, 0, sim->p.n, m);
    double m1 = m[0], m2 = m[1];
    /* a particle and a moving wall closing the skin between them (dem_store_wall_slots) */
    double w2 = 0.0;
    for (size_t k = 0; k < sim->b.nwalls; k++)
        w2 = fmax(w2, dem_v3_norm2(dem_v3_sub(sim->b.walls[k].point, sim->nbr.wall_build[k])));
    if (!sim->b.deforming) return sqrt(m1) + sqrt(m2) >= sim->nbr.skin || sqrt(m1) + sqrt(w2) >= sim->nbr.skin;
    dem_mat3 g = field_since_build(sim);
    double gi = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) gi += (g.m[r][c] - (r == c)) * (g.m[r][c] - (r == c));
    double cutoff = 2.0 * sim->p.rmax + sim->nbr.skin + sim->nbr.reach;
    return sqrt(m1) + sqrt(m2) + sqrt(gi) * cutoff >= sim->nbr.skin || (sim->b.nwalls && sqrt(m[2]) + sqrt(w2) >= sim->nbr.skin);
}

int dem_nbr_wall_near(const dem_sim *sim, size_t a, size_t k)
{
    dem_vec3 n;
    double gap;
    return !wall_geometry(&sim->b.walls[k], sim->p.x[a], &n, &gap) || gap < sim->p.r[a] + sim->nbr.skin + sim->nbr.reach;
}
