/* energy.c - mechanical energies of a frame and its energy budget (see energy.h). */
#include "energy.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis.h"

/* Unwrapped position x + H image. */
static dem_vec3 unwrapped(const dem_system *s, const dem_particle *p)
{
    if (!s->cell.flags || !(p->image[0] | p->image[1] | p->image[2])) return p->pos;
    dem_vec3 im = dem_v3((double)p->image[0], (double)p->image[1], (double)p->image[2]);
    return dem_v3_add(p->pos, dem_m3_mulv(s->cell.h, im));
}

dem_status dem_energy_terms_compute(const dem_system *s, const dem_settings *st, dem_energy_terms *e,
                                    dem_error *err)
{
    e->ekin_t = dem_kinetic_energy_t(s);
    e->ekin_r = dem_kinetic_energy_r(s);
    e->epot_g = 0.0;
    e->eel_n = e->eel_t = 0.0;
    dem_vec3 g = st->gravity;
    if (g.x != 0.0 || g.y != 0.0 || g.z != 0.0)
        for (size_t k = 0; k < s->nparticles; k++)
            e->epot_g -= s->particles[k].mass * dem_v3_dot(g, unwrapped(s, &s->particles[k]));
    if (!s->ncontacts) return DEM_OK;

    dem_id_index ix;
    dem_id_index_init(&ix);
    dem_status rc = dem_id_index_build(&ix, s, err);
    if (rc) return rc;
    const dem_normal_model *nm = dem_normal_models[st->normal];
    const dem_tangential_model *tm = dem_tangential_models[st->tangential];
    int spring = tm->uses_history && s->hist_slots >= 3;
    for (size_t k = 0; k < s->ncontacts && !rc; k++) {
        const dem_contact *c = &s->contacts[k];
        if (!(c->overlap > 0.0)) continue;
        size_t i = dem_id_index_find(&ix, c->i);
        if (i == SIZE_MAX) {
            rc = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu): no particle %llu", (unsigned long long)c->i,
                          (unsigned long long)c->j, (unsigned long long)c->i);
            break;
        }
        const dem_particle *pi = &s->particles[i];
        if (pi->material >= s->nmaterials) {
            rc = dem_fail(err, DEM_ERR_VALUE, "particle %llu: no material %u", (unsigned long long)pi->id, pi->material);
            break;
        }
        dem_pair p;
        if (c->flags & DEM_CONTACT_WALL) {
            if (c->j >= s->nwalls || s->walls[c->j].material >= s->nmaterials) {
                rc = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, wall %llu): no such wall or wall material",
                              (unsigned long long)c->i, (unsigned long long)c->j);
                break;
            }
            /* a wall is rigid, infinitely heavy and large: rj = mj = 0 (as dem-step) */
            dem_pair_init(&p, st, pi->radius, pi->mass, &s->materials[pi->material], 0.0, 0.0,
                          &s->materials[s->walls[c->j].material]);
        } else {
            size_t j = dem_id_index_find(&ix, c->j);
            if (j == SIZE_MAX || s->particles[j].material >= s->nmaterials) {
                rc = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu): no particle %llu or its material",
                              (unsigned long long)c->i, (unsigned long long)c->j, (unsigned long long)c->j);
                break;
            }
            const dem_particle *pj = &s->particles[j];
            dem_pair_init(&p, st, pi->radius, pi->mass, &s->materials[pi->material], pj->radius, pj->mass,
                          &s->materials[pj->material]);
        }
        e->eel_n += nm->energy(&p, c->overlap);
        if (spring) {
            double xi2 = c->hist[0] * c->hist[0] + c->hist[1] * c->hist[1] + c->hist[2] * c->hist[2];
            if (xi2 > 0.0) e->eel_t += 0.5 * tm->stiffness(&p, st->normal, c->overlap) * xi2;
        }
    }
    dem_id_index_free(&ix);
    return rc;
}

double dem_energy_mechanical(const dem_energy_terms *e)
{
    return e->ekin_t + e->ekin_r + e->epot_g + e->eel_n + e->eel_t;
}

double dem_energy_dissipated(const dem_system *s)
{
    return s->energy[DEM_E_DISS_FRICTION] + s->energy[DEM_E_DISS_DAMP_N] + s->energy[DEM_E_DISS_DAMP_T] +
           s->energy[DEM_E_DISS_LOCAL] + s->energy[DEM_E_DISS_DRAG] + s->energy[DEM_E_DISS_ROLLING] +
           s->energy[DEM_E_DISS_TWISTING];
}

double dem_energy_work(const dem_system *s)
{
    return s->energy[DEM_E_WORK_WALLS] + s->energy[DEM_E_WORK_CELL] + s->energy[DEM_E_WORK_EXTERNAL];
}

dem_status dem_energy_reference(const dem_system *s, const dem_settings *st, double *ref, dem_error *err)
{
    dem_energy_terms e;
    dem_status rc = dem_energy_terms_compute(s, st, &e, err);
    if (rc) return rc;
    *ref = dem_energy_mechanical(&e) + dem_energy_dissipated(s) - dem_energy_work(s) - s->energy[DEM_E_AHEAD];
    return DEM_OK;
}

double dem_energy_residual(double ref, const dem_energy_terms *e, const dem_system *s)
{
    return ref + dem_energy_work(s) - (dem_energy_mechanical(e) + dem_energy_dissipated(s)) + s->energy[DEM_E_AHEAD];
}
