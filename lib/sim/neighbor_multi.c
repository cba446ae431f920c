/* neighbor_multi.c - the hierarchical grid for large size ratios: the second backend of
 * dem_nbr_rebuild (neighbor.h), after Ogarko and Luding (2012) and the collections of LAMMPS'
 * `neighbor multi` (cited in Vyas et al. 2025, §1); written from their descriptions, not their code.
 *
 * Levels. The particles are put into levels by radius: with q = neighbor.level_ratio (default 2)
 * and r_max the largest radius, level L holds the radii in (r_max / q^(L+1), r_max / q^L]; empty
 * levels are dropped (a bidisperse system has two levels whatever its ratio), at most ML_MAX
 * (radii below r_max / q^(ML_MAX-1) share the last one). Level L has its own cell grid, its
 * cells at least 2 r_max,L + skin wide (r_max,L: the largest radius in it).
 *
 * Search. Each pair is searched from the level of its smaller sphere, in that level and every
 * coarser one: particle a looks at the cells of level M that meet the box of half-width
 * r_a + r_max,M + skin around it (at most 3 cells per axis, usually 2, as that box is no wider
 * than a cell), so a fine sphere tests only the coarse spheres near it, and the fines only the
 * fines of its own small cells. Within its own level a pair is taken from its smaller index.
 * Interaction masks (--ignore) prune whole levels whose every group a ignores, and every pair
 * before its distance test: fines that ignore each other cost nothing among themselves.
 *
 * Same bits. A pair is a candidate when its centres are closer than r_i + r_j + skin through
 * some image: a geometric set, which both backends find whole; dem_nbr_candidate tests each in its
 * canonical orientation (i < j), and the store sorts the list by (i, j, s). So the list, and
 * everything after it, is the same bits as the single-level grid's, for any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/boundary.h"
#include "sim/internal/neighbor.h"

#define ML_MAX DEM_NEIGHBOR_MAX_LEVELS /* levels at most */
#define ML_MASKS 8  /* distinct group masks kept per level for pruning (more: no level pruning) */

typedef struct {
    dem_vec3 x;     /* the particle's position (a copy: the scan reads the items in cell order) */
    uint32_t idx;   /* the particle */
    uint32_t grp;   /* its group mask */
} ml_item;

struct nbr_multi {
    int nlev;
    double rmax[ML_MAX];            /* the largest radius of each level */
    size_t count[ML_MAX];           /* its particles */
    nbr_grid g[ML_MAX];
    size_t *start[ML_MAX];          /* per level: cell c's items are start[c] .. start[c+1]-1 (absolute) */
    size_t cap_cells[ML_MAX];
    uint32_t masks[ML_MAX][ML_MASKS];
    int nmasks[ML_MAX];             /* > ML_MASKS: too many to prune by */
    ml_item *items;                 /* by level, then cell, then particle index */
    uint8_t *lev;                   /* per particle: its level */
    uint32_t *cell;                 /* per particle: its cell in its level's grid */
    size_t cap_n;
    double width[3];                /* metres per grid unit along each axis (the cell's widths, or 1) */
};

void dem_nbr_multi_free(dem_sim *sim)
{
    struct nbr_multi *m = sim->nbr.multi;
    if (!m) return;
    for (int l = 0; l < ML_MAX; l++) free(m->start[l]);
    free(m->items);
    free(m->lev);
    free(m->cell);
    free(m);
    sim->nbr.multi = NULL;
}

int dem_nbr_multi_levels(const dem_sim *sim, double *rmax, size_t *count, int most)
{
    const struct nbr_multi *m = sim->nbr.multi;
    if (!m) return 0;
    for (int l = 0; l < m->nlev && l < most; l++) {
        if (rmax) rmax[l] = m->rmax[l];
        if (count) count[l] = m->count[l];
    }
    return m->nlev;
}

static inline long floor_index(double c, double lo, double size)
{
    double f = floor((c - lo) / size);
    /* positions are within 2^40 radii of each other (guard.c): no overflow of a long */
    return (long)f;
}

/* Levels of every particle, each level's largest radius and count. */
static void assign_levels(dem_sim *sim, struct nbr_multi *m)
{
    const sim_particles *P = &sim->p;
    double lq = log(sim->st.level_ratio);
    size_t raw_count[ML_MAX] = {0};
    double raw_rmax[ML_MAX] = {0};
    for (size_t a = 0; a < P->n; a++) {
        int l = 0;
        if (P->r[a] < P->rmax) {
            double f = floor(log(P->rmax / P->r[a]) / lq);
            l = f >= ML_MAX - 1 ? ML_MAX - 1 : f > 0.0 ? (int)f : 0;
        }
        m->lev[a] = (uint8_t)l;
        raw_count[l]++;
        if (P->r[a] > raw_rmax[l]) raw_rmax[l] = P->r[a];
    }
    int dense[ML_MAX];
    m->nlev = 0;
    for (int l = 0; l < ML_MAX; l++) {
        dense[l] = m->nlev;
        if (!raw_count[l]) continue;
        m->rmax[m->nlev] = raw_rmax[l];
        m->count[m->nlev] = raw_count[l];
        m->nlev++;
    }
    for (size_t a = 0; a < P->n; a++) m->lev[a] = (uint8_t)dense[m->lev[a]];
}

/* Each level's grid, its cells' items and its group masks. */
static dem_status bin_levels(dem_sim *sim, struct nbr_multi *m, dem_error *err)
{
    const sim_particles *P = &sim->p;
    dem_status st;
    size_t base[ML_MAX + 1];
    base[0] = 0;
    for (int l = 0; l < m->nlev; l++) {
        if ((st = dem_nbr_grid_setup(sim, 2.0 * m->rmax[l] + sim->nbr.skin + sim->nbr.reach, m->count[l], &m->g[l], err))) return st;
        size_t ncells = (size_t)m->g[l].n[0] * m->g[l].n[1] * m->g[l].n[2];
        if (ncells + 1 > m->cap_cells[l]) {
            size_t *s = realloc(m->start[l], (ncells + 1) * sizeof *s);
            if (!s) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu grid cells", ncells);
            m->start[l] = s;
            m->cap_cells[l] = ncells + 1;
        }
        memset(m->start[l], 0, (ncells + 1) * sizeof *m->start[l]);
        base[l + 1] = base[l] + m->count[l];
        m->nmasks[l] = 0;
    }
    for (size_t a = 0; a < P->n; a++) {
        int l = m->lev[a];
        const nbr_grid *g = &m->g[l];
        dem_vec3 s = cell_frac(sim, P->x[a]);
        long c[3];
        for (int k = 0; k < 3; k++) {
            long i = floor_index(dem_v3_get(s, k), g->lo[k], g->size[k]);
            c[k] = i < 0 ? 0 : i >= g->n[k] ? g->n[k] - 1 : i;
        }
        m->cell[a] = (uint32_t)((c[2] * g->n[1] + c[1]) * g->n[0] + c[0]);
        m->start[l][m->cell[a] + 1]++;
        int nm = m->nmasks[l];
        if (nm <= ML_MASKS) {
            int seen = 0;
            for (int k = 0; k < nm; k++) seen |= m->masks[l][k] == P->group[a];
            if (!seen) {
                if (nm < ML_MASKS) m->masks[l][nm] = P->group[a];
                m->nmasks[l] = nm + 1;
            }
        }
    }
    for (int l = 0; l < m->nlev; l++) {
        size_t ncells = (size_t)m->g[l].n[0] * m->g[l].n[1] * m->g[l].n[2], *s = m->start[l];
        s[0] = base[l];
        for (size_t c = 0; c < ncells; c++) s[c + 1] += s[c];
    }
    /* fill: particles in index order within each cell (a stable counting sort) */
    for (int l = 0; l < m->nlev; l++) {
        size_t ncells = (size_t)m->g[l].n[0] * m->g[l].n[1] * m->g[l].n[2];
        memmove(m->start[l] + 1, m->start[l], ncells * sizeof *m->start[l]); /* start[c+1]: fill pointer of c */
    }
    for (size_t a = 0; a < P->n; a++) {
        int l = m->lev[a];
        size_t at = m->start[l][m->cell[a] + 1]++;
        m->items[at] = (ml_item){P->x[a], (uint32_t)a, P->group[a]};
    }
    /* start[c+1] has run to the end of c: the offsets again, start[0] the level's base */
    for (int l = 0; l < m->nlev; l++) m->start[l][0] = base[l];
    return DEM_OK;
}

/* Whether particle a (group mask ga) interacts with any group of level l. */
static int level_interacts(const dem_sim *sim, const struct nbr_multi *m, int l, uint32_t ga)
{
    if (m->nmasks[l] > ML_MASKS) return 1;
    for (int k = 0; k < m->nmasks[l]; k++)
        if (dem_groups_interact(&sim->st, ga, m->masks[l][k])) return 1;
    return 0;
}

/* The candidates of particle a among the particles of level l: the cells meeting the box of
 * half-width r_a + r_max,l + skin around it. own: l is a's level (pairs from the smaller index). */
static dem_status scan_level(dem_sim *sim, const struct nbr_multi *m, size_t a, dem_vec3 sa, int l, int own, dem_error *err)
{
    const nbr_grid *g = &m->g[l];
    double e = sim->p.r[a] + m->rmax[l] + sim->nbr.skin + sim->nbr.reach;
    double re2 = e * (1.0 + 1e-6);
    re2 *= re2; /* a prefilter: the exact test, in the pair's orientation, is dem_nbr_candidate's */
    long lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        double c = dem_v3_get(sa, k), ek = e / m->width[k];
        lo[k] = floor_index(c - ek, g->lo[k], g->size[k]);
        hi[k] = floor_index(c + ek, g->lo[k], g->size[k]);
        if (!sim->b.periodic[k]) {
            if (lo[k] < 0) lo[k] = 0;
            if (hi[k] > g->n[k] - 1) hi[k] = g->n[k] - 1;
        }
    }
    const dem_vec3 xa = sim->p.x[a];
    dem_status st;
    for (long qz = lo[2]; qz <= hi[2]; qz++)
        for (long qy = lo[1]; qy <= hi[1]; qy++)
            for (long qx = lo[0]; qx <= hi[0]; qx++) {
                long q[3] = {qx, qy, qz};
                int32_t sh[3] = {0, 0, 0};
                for (int k = 0; k < 3; k++) {
                    if (!sim->b.periodic[k]) continue;
                    long n = g->n[k], w = q[k];
                    if (w < 0) w += n;                          /* one image away: the common case */
                    else if (w >= n) w -= n;
                    if (w < 0 || w >= n) {                      /* a grid of one or two cells */
                        w = q[k] % n;
                        if (w < 0) w += n;
                    }
                    sh[k] = (int32_t)((q[k] - w) / n);
                    q[k] = w;
                }
                size_t cell = ((size_t)q[2] * g->n[1] + q[1]) * g->n[0] + q[0];
                dem_vec3 shift = (sh[0] | sh[1] | sh[2]) ? cell_shift(sim, sh) : dem_v3_zero();
                for (size_t e2 = m->start[l][cell]; e2 < m->start[l][cell + 1]; e2++) {
                    const ml_item *it = &m->items[e2];
                    size_t b = it->idx;
                    if (own && b < a) continue;                 /* found from b's side */
                    if (b == a && !(sh[0] | sh[1] | sh[2])) continue; /* itself */
                    if (!dem_groups_interact(&sim->st, sim->p.group[a], it->grp)) continue;
                    sim->nbr.tests++;
                    /* prefilter in a's orientation with the box's reach (>= the pair's) */
                    dem_vec3 xb = dem_v3_add(it->x, shift);
                    if (dem_v3_norm2(dem_v3_sub(xa, xb)) >= re2) continue;
                    if ((st = dem_nbr_candidate(sim, a, b, sh, err))) return st;
                }
            }
    return DEM_OK;
}

dem_status dem_nbr_multi_pairs(dem_sim *sim, dem_error *err)
{
    struct nbr_multi *m = sim->nbr.multi;
    dem_status st;
    if (!m) {
        m = sim->nbr.multi = calloc(1, sizeof *m);
        if (!m) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the hierarchical grid");
    }
    size_t n = sim->p.n;
    if (n > m->cap_n) {
        ml_item *it = realloc(m->items, n * sizeof *it);
        if (it) m->items = it;
        uint8_t *lv = realloc(m->lev, n);
        if (lv) m->lev = lv;
        uint32_t *ce = realloc(m->cell, n * sizeof *ce);
        if (ce) m->cell = ce;
        if (!it || !lv || !ce) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for the hierarchical grid of %zu particles", n);
        m->cap_n = n;
    }
    if (!n) return DEM_OK;
    assign_levels(sim, m);
    if ((st = bin_levels(sim, m, err))) return st;
    for (int k = 0; k < 3; k++) m->width[k] = sim->b.cell.flags ? dem_boundary_cell_width(&sim->b.cell, k) : 1.0;
    /* each level's particles in cell order (the order of the search does not matter: the store
     * sorts the list; this one reads neighbouring cells from memory that is near) */
    for (int la = 0; la < m->nlev; la++) {
        size_t ncells = (size_t)m->g[la].n[0] * m->g[la].n[1] * m->g[la].n[2];
        for (size_t e = m->start[la][0]; e < m->start[la][ncells]; e++) {
            size_t a = m->items[e].idx;
            dem_vec3 sa = cell_frac(sim, m->items[e].x);
            for (int l = 0; l <= la; l++) {
                if (!level_interacts(sim, m, l, m->items[e].grp)) continue;
                if ((st = scan_level(sim, m, a, sa, l, l == la, err))) return st;
            }
        }
    }
    return DEM_OK;
}
