/* coordination.c - coordination numbers with and without rattlers (see coordination.h). */
#include "analysis/coordination.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ends {
    size_t i, j; /* particle indices; j = SIZE_MAX for a wall */
};

typedef struct {
    uint64_t clump;
    size_t at;
} member_key;

static int cmp_member_key(const void *pa, const void *pb)
{
    const member_key *a = pa, *b = pb;
    if (a->clump != b->clump) return a->clump < b->clump ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* body[p]: the particle that stands for p's body, p itself for a sphere not in a clump, the first
 * member (by index) of p's clump: a clump is one body, its members' contacts its contacts. */
static dem_status clump_bodies(const dem_system *s, size_t *body, dem_error *err)
{
    size_t n = s->nparticles, nm = 0;
    for (size_t p = 0; p < n; p++) body[p] = p;
    if (!s->nclumps) return DEM_OK;
    member_key *k = malloc((n + 1) * sizeof *k);
    if (!k) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clump members", n);
    for (size_t p = 0; p < n; p++)
        if (s->particles[p].clump) k[nm++] = (member_key){s->particles[p].clump, p};
    qsort(k, nm, sizeof *k, cmp_member_key);
    for (size_t a = 0; a < nm; a++) body[k[a].at] = a && k[a - 1].clump == k[a].clump ? body[k[a - 1].at] : k[a].at;
    free(k);
    return DEM_OK;
}

dem_status dem_coordination_measure(const dem_system *s, const dem_id_index *ix, const dem_aabb *box, unsigned k,
                                    dem_coordination_stats *out, dem_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = s->nparticles, nc = 0;
    for (size_t c = 0; c < s->ncontacts; c++) nc += s->contacts[c].overlap > 0.0;
    /* count[p]: contacts (particle and wall); start/adj: the particle neighbours of each */
    size_t *count = calloc(n + 1, sizeof *count), *start = calloc(n + 2, sizeof *start);
    size_t *adj = malloc((2 * nc + 1) * sizeof *adj), *queue = malloc((n + 1) * sizeof *queue);
    struct ends *e = malloc((nc + 1) * sizeof *e);
    unsigned char *gone = calloc(n + 1, 1), *in = calloc(n + 1, 1);
    size_t *body = malloc((n + 1) * sizeof *body);
    dem_status st = DEM_OK;
    if (!count || !start || !adj || !queue || !e || !gone || !in || !body) {
        st = dem_fail(err, DEM_ERR_NOMEM, "out of memory counting the contacts of %zu particles", n);
        goto done;
    }
    if ((st = clump_bodies(s, body, err))) goto done;
    size_t m = 0;
    for (size_t c = 0; c < s->ncontacts; c++) {
        const dem_contact *ct = &s->contacts[c];
        if (!(ct->overlap > 0.0)) continue;
        size_t i = dem_id_index_find(ix, ct->i);
        size_t j = (ct->flags & DEM_CONTACT_WALL) ? SIZE_MAX : dem_id_index_find(ix, ct->j);
        if (i == SIZE_MAX || (!(ct->flags & DEM_CONTACT_WALL) && j == SIZE_MAX)) {
            st = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu) names a particle that is not in the frame",
                          (unsigned long long)ct->i, (unsigned long long)ct->j);
            goto done;
        }
        i = body[i]; /* a clump's member: its clump (member pairs of two clumps are its contacts) */
        if (j != SIZE_MAX) j = body[j];
        if (i == j) continue; /* within one clump (dem-step never has one) */
        e[m].i = i;
        e[m].j = j;
        m++;
        count[i]++;
        if (j != SIZE_MAX) {
            count[j]++;
            start[i + 1]++;
            start[j + 1]++;
        }
    }
    for (size_t p = 0; p < n; p++) start[p + 1] += start[p];
    {
        size_t *fill = queue; /* reused as the fill pointers before the queue runs */
        for (size_t p = 0; p < n; p++) fill[p] = start[p];
        for (size_t c = 0; c < m; c++)
            if (e[c].j != SIZE_MAX) {
                adj[fill[e[c].i]++] = e[c].j;
                adj[fill[e[c].j]++] = e[c].i;
            }
    }
    /* the counts, over the counted particles */
    size_t sum_z = 0;
    for (size_t p = 0; p < n; p++) {
        in[p] = body[p] == p && (!box || dem_aabb_contains(*box, s->particles[p].pos)); /* one per body */
        if (!in[p]) continue;
        out->particles++;
        sum_z += start[p + 1] - start[p];
    }
    for (size_t c = 0; c < m; c++) {
        if (e[c].j == SIZE_MAX) out->wall_contacts += in[e[c].i];
        else out->contacts += in[e[c].i] || in[e[c].j];
    }
    out->coordination = out->particles ? (double)sum_z / (double)out->particles : NAN;
    /* rattlers: remove every particle below k, in index order, then their neighbours as their
     * counts fall (the result does not depend on the order: the set removed is the complement
     * of the largest subset in which every particle has k contacts, the k-core) */
    size_t head = 0, tail = 0;
    for (size_t p = 0; p < n; p++)
        if (body[p] != p) gone[p] = 1; /* not a body: no count, no neighbour */
        else if (count[p] < k) {
            gone[p] = 1;
            queue[tail++] = p;
        }
    while (head < tail) {
        size_t p = queue[head++];
        for (size_t a = start[p]; a < start[p + 1]; a++) {
            size_t q = adj[a];
            if (gone[q]) continue;
            if (--count[q] < k) {
                gone[q] = 1;
                queue[tail++] = q;
            }
        }
    }
    size_t sum_m = 0;
    for (size_t p = 0; p < n; p++) {
        if (!in[p] || gone[p]) continue;
        out->mech_particles++;
        for (size_t a = start[p]; a < start[p + 1]; a++) sum_m += !gone[adj[a]];
    }
    /* every particle a rattler: no mechanical network, Z_m = 0 (nan only without particles) */
    out->coordination_mech = out->mech_particles ? (double)sum_m / (double)out->mech_particles
                                                 : out->particles ? 0.0 : NAN;
    out->rattler_fraction = out->particles ? (double)(out->particles - out->mech_particles) / (double)out->particles : NAN;
done:
    free(count);
    free(start);
    free(adj);
    free(queue);
    free(e);
    free(gone);
    free(in);
    free(body);
    return st;
}
