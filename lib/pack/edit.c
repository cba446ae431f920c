/* edit.c - editing a system read from a frame: removing walls and particles with the contact
 * records that name them, and restarting the energy budget after an edit. What is not edited
 * stays as it was, bit for bit and in its order. */
#include "pack/pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GONE SIZE_MAX

dem_status dem_pack_remove_walls(dem_system *s, const size_t *walls, size_t n, size_t *contacts_removed, dem_error *err)
{
    if (contacts_removed) *contacts_removed = 0;
    if (n == 0) return DEM_OK;
    size_t *map = malloc(s->nwalls ? s->nwalls * sizeof *map : 1);
    if (!map) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu walls", s->nwalls);
    for (size_t k = 0; k < s->nwalls; k++) map[k] = 0;
    for (size_t q = 0; q < n; q++) {
        if (walls[q] >= s->nwalls) {
            free(map);
            return dem_fail(err, DEM_ERR_ARG, "wall %zu does not exist: the frame has %zu wall(s), 0 to %zu", walls[q], s->nwalls,
                            s->nwalls ? s->nwalls - 1 : 0);
        }
        if (map[walls[q]] == GONE) {
            free(map);
            return dem_fail(err, DEM_ERR_ARG, "wall %zu is named twice", walls[q]);
        }
        map[walls[q]] = GONE;
    }
    size_t kept = 0;
    for (size_t k = 0; k < s->nwalls; k++) {
        if (map[k] == GONE) continue;
        map[k] = kept;
        s->walls[kept++] = s->walls[k];
    }
    s->nwalls = kept;
    size_t nc = 0;
    for (size_t k = 0; k < s->ncontacts; k++) {
        dem_contact c = s->contacts[k];
        if (c.flags & DEM_CONTACT_WALL) {
            if (map[c.j] == GONE) continue; /* a valid frame names only existing walls */
            c.j = map[c.j];
        }
        s->contacts[nc++] = c;
    }
    if (contacts_removed) *contacts_removed = s->ncontacts - nc;
    s->ncontacts = nc;
    free(map);
    return DEM_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

dem_status dem_pack_delete(dem_system *s, const dem_select *sel, size_t *particles_removed, size_t *contacts_removed,
                           dem_error *err)
{
    if (particles_removed) *particles_removed = 0;
    if (contacts_removed) *contacts_removed = 0;
    size_t nr = 0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        if (!dem_select_match(sel, p)) continue;
        if (p->clump)
            return dem_fail(err, DEM_ERR_VALUE, "particle id %llu belongs to clump %llu: deleting part of a rigid clump is not supported",
                            (unsigned long long)p->id, (unsigned long long)p->clump);
        nr++;
    }
    if (nr == 0) return DEM_OK;
    uint64_t *ids = malloc(nr * sizeof *ids);
    if (!ids) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu particle ids", nr);
    size_t kept = 0, m = 0;
    for (size_t k = 0; k < s->nparticles; k++) {
        if (dem_select_match(sel, &s->particles[k])) ids[m++] = s->particles[k].id;
        else s->particles[kept++] = s->particles[k];
    }
    s->nparticles = kept;
    qsort(ids, nr, sizeof *ids, cmp_u64);
    size_t nc = 0;
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        if (bsearch(&c->i, ids, nr, sizeof *ids, cmp_u64)) continue;
        if (!(c->flags & DEM_CONTACT_WALL) && bsearch(&c->j, ids, nr, sizeof *ids, cmp_u64)) continue;
        s->contacts[nc++] = *c;
    }
    size_t nb = 0; /* the bonds of a removed particle go with it */
    for (size_t k = 0; k < s->nbonds; k++) {
        const dem_bond *b = &s->bonds[k];
        if (bsearch(&b->i, ids, nr, sizeof *ids, cmp_u64) || bsearch(&b->j, ids, nr, sizeof *ids, cmp_u64)) continue;
        s->bonds[nb++] = *b;
    }
    s->nbonds = nb;
    free(ids);
    if (particles_removed) *particles_removed = nr;
    if (contacts_removed) *contacts_removed = s->ncontacts - nc;
    s->ncontacts = nc;
    return DEM_OK;
}

void dem_pack_restart_budget(dem_system *s)
{
    s->flags &= ~(uint32_t)DEM_HEAD_FORCES_CURRENT;
    s->energy[DEM_E_INITIAL] = NAN;
}
