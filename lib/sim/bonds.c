/* bonds.c - harmonic bonds (see bonds.h). */
#include "sim/internal/bonds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal/boundary.h"
#include "sim/internal/dist.h"

/* The adjacency: particle a's bonds are list[start[a] .. start[a+1]-1], each 2 k + side (side 0:
 * a is the bond's i, 1: its j), in bond order. */
static dem_status build_adjacency(dem_sim *sim, dem_error *err)
{
    sim_bonds *B = &sim->bd;
    size_t n = sim->p.n;
    if (!B->start) B->start = calloc(n + 1, sizeof *B->start);
    if (!B->list) B->list = malloc(2 * B->n * sizeof *B->list);
    if (!B->start || !B->list) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu bonds", B->n);
    memset(B->start, 0, (n + 1) * sizeof *B->start);
    for (size_t k = 0; k < B->n; k++) {
        B->start[B->i[k] + 1]++;
        B->start[B->j[k] + 1]++;
    }
    for (size_t a = 0; a < n; a++) B->start[a + 1] += B->start[a];
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!fill) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu bonds", B->n);
    memcpy(fill, B->start, n * sizeof *fill);
    for (size_t k = 0; k < B->n; k++) {
        B->list[fill[B->i[k]]++] = 2 * k;
        B->list[fill[B->j[k]]++] = 2 * k + 1;
    }
    free(fill);
    return DEM_OK;
}

static int cmp_idx(const void *pa, const void *pb)
{
    const uint64_t *x = pa, *y = pb;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

dem_status dem_bonds_load(dem_sim *sim, const dem_system *s, dem_error *err)
{
    sim_bonds *B = &sim->bd;
    size_t nb = s->nbonds, n = sim->p.n;
    B->n = nb;
    if (!nb) return DEM_OK;
    B->i = malloc(nb * sizeof *B->i);
    B->j = malloc(nb * sizeof *B->j);
    B->c = malloc(nb * sizeof *B->c);
    B->kb = malloc(nb * sizeof *B->kb);
    B->delta = calloc(nb, sizeof *B->delta);
    B->f = calloc(nb, sizeof *B->f);
    uint64_t (*ix)[2] = malloc((n ? n : 1) * sizeof *ix); /* (id, index) sorted by id */
    if (!B->i || !B->j || !B->c || !B->kb || !B->delta || !B->f || !ix) {
        free(ix);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu bonds", nb);
    }
    for (size_t a = 0; a < n; a++) {
        ix[a][0] = sim->p.id[a];
        ix[a][1] = a;
    }
    qsort(ix, n, sizeof *ix, cmp_idx);
    for (size_t k = 0; k < nb; k++) {
        const dem_bond *b = &s->bonds[k];
        uint64_t key[2] = {b->i, 0}, key2[2] = {b->j, 0};
        const uint64_t *pi = bsearch(key, ix, n, sizeof *ix, cmp_idx), *pj = bsearch(key2, ix, n, sizeof *ix, cmp_idx);
        if (!pi || !pj) {
            free(ix);
            return dem_fail(err, DEM_ERR_VALUE, "bond record %zu: particle %llu does not exist", k,
                            (unsigned long long)(pi ? b->j : b->i));
        }
        B->i[k] = (uint32_t)pi[1];
        B->j[k] = (uint32_t)pj[1];
        B->kb[k] = b->kb;
        for (int d = 0; d < 3; d++) /* C = s + image_i - image_j (bonds.h) */
            B->c[k][d] = (int64_t)b->shift[d] + sim->p.image[B->i[k]][d] - sim->p.image[B->j[k]][d];
    }
    free(ix);
    return build_adjacency(sim, err);
}

void dem_bonds_free(dem_sim *sim)
{
    sim_bonds *B = &sim->bd;
    free(B->i); free(B->j); free(B->c); free(B->kb); free(B->delta); free(B->f);
    free(B->start); free(B->list);
    memset(B, 0, sizeof *B);
}

void dem_bonds_renumber(dem_sim *sim, const uint32_t *inv)
{
    sim_bonds *B = &sim->bd;
    if (!B->n) return;
    for (size_t k = 0; k < B->n; k++) {
        B->i[k] = inv[B->i[k]];
        B->j[k] = inv[B->j[k]];
    }
    dem_error e;
    build_adjacency(sim, &e); /* the arrays exist already: it cannot fail */
}

/* Bond k's current shift s = C - image_i + image_j. */
void dem_bonds_shift(const dem_sim *sim, size_t k, int32_t s[3])
{
    const sim_bonds *B = &sim->bd;
    for (int d = 0; d < 3; d++)
        s[d] = (int32_t)(B->c[k][d] - sim->p.image[B->i[k]][d] + sim->p.image[B->j[k]][d]);
}

/* Bond k's delta and force at the current positions. */
static void eval_bond(dem_sim *sim, size_t k)
{
    sim_bonds *B = &sim->bd;
    const sim_particles *P = &sim->p;
    uint32_t i = B->i[k], j = B->j[k];
    int32_t s[3];
    dem_bonds_shift(sim, k, s);
    dem_vec3 xj = P->x[j];
    if (s[0] | s[1] | s[2]) xj = dem_v3_add(xj, cell_shift(sim, s));
    dem_vec3 d = dem_v3_sub(P->x[i], xj);
    double dist = dem_v3_norm(d);
    double delta = P->r[i] + P->r[j] - dist;
    B->delta[k] = delta;
    /* coincident centres: no direction, no force (the potential is stationary there only in
     * the sense that every direction is alike) */
    B->f[k] = dist > 0.0 ? dem_v3_add(dem_v3_scale(d, B->kb[k] * delta / dist), dem_v3_zero()) : dem_v3_zero(); /* kb delta n (+ 0: no -0) */
}

void dem_bonds_eval_all(dem_sim *sim)
{
    for (size_t k = 0; k < sim->bd.n; k++) eval_bond(sim, k);
}

void dem_bonds_eval(dem_sim *sim)
{
    if (!dist_local(sim)) {
        dem_bonds_eval_all(sim);
        return;
    }
    /* dist.h: the bonds of this process's particles, once each (a bond across a cut on both
     * sides, from the same positions: the same bits); the halo holds their partners */
    const sim_bonds *B = &sim->bd;
    size_t p0 = sim->dist->p0, p1 = sim->dist->p1;
    for (size_t a = p0; a < p1; a++)
        for (size_t e = B->start[a]; e < B->start[a + 1]; e++) {
            size_t k = B->list[e] >> 1;
            if (!(B->list[e] & 1) || B->i[k] < p0 || B->i[k] >= p1) eval_bond(sim, k); /* a is i, or i is not this process's */
        }
}

dem_vec3 dem_bonds_add(const dem_sim *sim, size_t a, dem_vec3 f)
{
    const sim_bonds *B = &sim->bd;
    for (size_t e = B->start[a]; e < B->start[a + 1]; e++) {
        size_t k = B->list[e] >> 1;
        f = dem_v3_madd(f, B->f[k], (B->list[e] & 1) ? -1.0 : 1.0);
    }
    return f;
}

int dem_bonds_excluded(const dem_sim *sim, size_t a, size_t b, const int32_t sh[3])
{
    const sim_bonds *B = &sim->bd;
    for (size_t e = B->start[a]; e < B->start[a + 1]; e++) {
        size_t k = B->list[e] >> 1;
        int32_t s[3];
        dem_bonds_shift(sim, k, s);
        /* (i, j, s) and (j, i, -s) are the same pair */
        if (B->i[k] == a && B->j[k] == b && s[0] == sh[0] && s[1] == sh[1] && s[2] == sh[2]) return 1;
        if (B->j[k] == a && B->i[k] == b && s[0] == -sh[0] && s[1] == -sh[1] && s[2] == -sh[2]) return 1;
    }
    return 0;
}

double dem_bonds_energy(const dem_sim *sim)
{
    const sim_bonds *B = &sim->bd;
    double e = 0.0;
    for (size_t k = 0; k < B->n; k++) e += 0.5 * B->kb[k] * B->delta[k] * B->delta[k];
    return e;
}

void dem_bonds_write(const dem_sim *sim, dem_system *out)
{
    const sim_bonds *B = &sim->bd;
    for (size_t k = 0; k < B->n && k < out->nbonds; k++) {
        dem_bond *b = &out->bonds[k];
        b->i = sim->p.id[B->i[k]];
        b->j = sim->p.id[B->j[k]];
        dem_bonds_shift(sim, k, b->shift);
        b->kb = B->kb[k];
        b->delta = B->delta[k];
        b->f = B->f[k];
    }
}
