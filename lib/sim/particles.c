/* particles.c - the particles' arrays (see particles.h). */
#include "sim/internal/particles.h"

#include <stdlib.h>
#include <string.h>

#include "sim/internal/bonds.h"
#include "sim/internal/clumps.h"
#include "sim/internal/contacts.h"

dem_status dem_particles_alloc(dem_sim *sim, dem_error *err)
{
    sim_particles *P = &sim->p;
    size_t n = P->n ? P->n : 1;
#define A(ptr) if (!((ptr) = calloc(n, sizeof *(ptr)))) goto nomem
    A(P->x); A(P->v); A(P->w); A(P->f); A(P->t); A(P->q);
    A(P->r); A(P->m); A(P->inertia); A(P->inv_m); A(P->inv_i);
    A(P->mat); A(P->flags); A(P->group); A(P->id); A(P->image);
#undef A
    return DEM_OK;
nomem:
    return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particles", P->n);
}

void dem_particles_free(dem_sim *sim)
{
    sim_particles *P = &sim->p;
    void *ptrs[] = {P->x, P->v, P->w, P->f, P->t, P->q, P->r, P->m, P->inertia, P->inv_m, P->inv_i,
                    P->mat, P->flags, P->group, P->id, P->image};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) free(ptrs[k]);
}

void dem_particles_load(dem_sim *sim, const dem_system *s, dem_pages_reader *consume)
{
    sim_particles *P = &sim->p;
    P->rmax = 0.0;
    P->nfixed = 0;
    for (size_t a = 0; a < P->n; a++) {
        const dem_particle *p = &s->particles[a];
        P->x[a] = p->pos; P->v[a] = p->vel; P->w[a] = p->omega;
        P->f[a] = p->force; P->t[a] = p->torque; P->q[a] = p->orient;
        P->r[a] = p->radius; P->m[a] = p->mass; P->inertia[a] = p->inertia;
        P->mat[a] = p->material; P->flags[a] = p->flags; P->group[a] = p->group;
        P->id[a] = p->id;
        P->inv_m[a] = 1.0 / p->mass;
        P->inv_i[a] = 1.0 / p->inertia;
        memcpy(P->image[a], p->image, sizeof p->image);
        if (p->radius > P->rmax) P->rmax = p->radius;
        P->nfixed += (p->flags & DEM_PARTICLE_FIXED) != 0;
        if (consume) dem_pages_consume(consume, (a + 1) * sizeof *p);
    }
}

void dem_particle_record(const dem_sim *sim, size_t a, dem_particle *p)
{
    const sim_particles *P = &sim->p;
    uint32_t of = sim->cl ? sim->cl->of[a] : SIM_NO_CLUMP;
    p->id = P->id[a]; p->radius = P->r[a]; p->mass = P->m[a]; p->inertia = P->inertia[a];
    p->material = P->mat[a]; p->group = P->group[a];
    p->flags = P->flags[a] & ~SIM_PARTICLE_MEMBER; /* the sim's own mark: a frame has the clump id */
    p->clump = of == SIM_NO_CLUMP ? 0 : sim->cl->id[of];
    p->pos = P->x[a]; p->vel = P->v[a]; p->omega = P->w[a];
    p->force = P->f[a]; p->torque = P->t[a]; p->orient = P->q[a];
    memcpy(p->image, P->image[a], sizeof p->image);
}

void dem_particles_write(const dem_sim *sim, dem_system *out)
{
    for (size_t a = 0; a < sim->p.n; a++) dem_particle_record(sim, a, &out->particles[a]);
}

/* Reorder a per-particle array: new[k] = old[from[k]], elem bytes per particle. */
static void permute(void *arr, size_t elem, size_t n, const size_t *from, void *scratch)
{
    if (!arr) return; /* an array this run has not made (the exact mode's, off) */
    uint8_t *a = arr, *t = scratch;
    for (size_t k = 0; k < n; k++) memcpy(t + k * elem, a + from[k] * elem, elem);
    memcpy(a, t, n * elem);
}

dem_status dem_particles_reorder(dem_sim *sim, const size_t *from, dem_error *err)
{
    sim_particles *P = &sim->p;
    size_t n = P->n;
    size_t big = sizeof(double) * EDIS;
    if (big < sizeof(dem_quat)) big = sizeof(dem_quat);
    if (big < sizeof *sim->ex.V) big = sizeof *sim->ex.V;
    void *tmp = malloc(big * n);
    uint32_t *inv = malloc(n * sizeof *inv);
    if (!tmp || !inv) {
        free(tmp);
        free(inv);
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory reordering %zu particles", n);
    }
#define P_(arr) permute((arr), sizeof *(arr), n, from, tmp)
    P_(P->x); P_(P->v); P_(P->w); P_(P->f); P_(P->t); P_(P->q); P_(P->r); P_(P->m); P_(P->inertia);
    P_(P->mat); P_(P->flags); P_(P->group); P_(P->id); P_(P->image); P_(P->inv_m); P_(P->inv_i);
    /* the other modules' per-particle arrays */
    permute(sim->e.edis, sizeof(double) * EDIS, n, from, tmp);
    P_(sim->ex.V); P_(sim->ex.K); P_(sim->ex.kc); P_(sim->ex.kbad);
    P_(sim->nbr.x_build);
#undef P_
    for (size_t k = 0; k < n; k++) inv[from[k]] = (uint32_t)k;
    dem_store_renumber(sim, inv);
    dem_bonds_renumber(sim, inv);
    dem_clumps_renumber(sim, inv);
    free(tmp);
    free(inv);
    return DEM_OK;
}
