/* energy.c - mechanical energies of a frame and its energy budget (see energy.h). */
#include "analysis/energy.h"

#include "laws/rolling.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "core/rigid.h"

/* Unwrapped position x + H image. */
static dem_vec3 unwrapped(const dem_system *s, const dem_particle *p)
{
    if (!s->cell.flags || !(p->image[0] | p->image[1] | p->image[2])) return p->pos;
    dem_vec3 im = dem_v3((double)p->image[0], (double)p->image[1], (double)p->image[2]);
    return dem_v3_add(p->pos, dem_m3_mulv(s->cell.h, im));
}

/* The shadow term's force part (energy.h): sum over the particles the kicks move of
 * |F|^2/m + |T|^2/I, with the forces and torques the kicks use (gravity and local damping
 * included, as dem-step stores them). */
static double kick_sum(dem_particle_reader *r)
{
    const dem_system *s = r->s;
    double sum = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = dem_particle_read(r, k, 0);
        if ((p->flags & DEM_PARTICLE_FIXED) || p->clump) continue; /* never kicked; a member: its clump is */
        sum += dem_v3_norm2(p->force) / p->mass + dem_v3_norm2(p->torque) / p->inertia;
    }
    for (size_t k = 0; k < s->nclumps; k++) { /* |F|^2/m + T.I^-1 T */
        const dem_clump *c = &s->clumps[k];
        sum += dem_v3_norm2(c->force) / c->mass + dem_v3_dot(c->torque, dem_rigid_omega(c->orient, c->inertia, c->torque));
    }
    return sum;
}

/* The shadow term's stiffness part for one touching contact (energy.h): v.U''.v over the
 * contact's elastic springs, v the frame's velocities. n is the unit normal from j to i, delta
 * the overlap, vrel the velocity of i relative to j (for a wall: to the wall at the contact
 * point), wterm = l_i w_i + l_j w_j with l the lever arms r - delta/2 (as dem-step), dist the
 * distance of the centres (pairs) or 0 (walls), curv (walls) the curvature part of delta's
 * Hessian applied to vrel twice: 0 for a plane. */
static double contact_hessian(const dem_pair *p, const dem_settings *st, const dem_contact *c, dem_vec3 n,
                              dem_vec3 vrel, dem_vec3 wterm, double dist, double curv, int spring)
{
    const dem_normal_model *nm = dem_normal_models[st->normal];
    double fe, sn;
    nm->eval(p, c->overlap, &fe, &sn);
    double vn = dem_v3_dot(vrel, n);
    dem_vec3 vperp = dem_v3_madd(vrel, n, -vn);
    /* normal spring: U(delta), delta = ri + rj - |xi - xj| has Hessian U'' n n - U'/|x| (1 - n n)
     * in the relative position (U' = fe); against a wall curv carries the cylinder's curvature */
    double h = sn * vn * vn + (dist > 0.0 ? -fe / dist * dem_v3_norm2(vperp) : fe * curv);
    if (spring && !(c->flags & DEM_CONTACT_SLIDING)) {
        /* tangential spring 1/2 S_t |xi|^2 with xi' = the contact point's tangential velocity
         * (Vyas et al. 2025, eqs 12, 14): in the velocities a quadratic form S_t |vt|^2; a sliding
         * contact's force is mu fn whatever the stretch, no stiffness */
        dem_vec3 vt = dem_v3_sub(vperp, dem_v3_cross(wterm, n));
        h += dem_tangential_models[st->tangential]->stiffness(p, st->normal, c->overlap) * dem_v3_norm2(vt);
    }
    return h;
}

/* The bonds' energy kb delta^2 / 2 into e->eel_b, and (shadow) their v.U''.v into *hess: the
 * pair Hessian of energy.h with S_n = kb and fe = kb delta, which holds in tension too. */
static dem_status bond_terms(dem_particle_reader *r, const dem_id_index *ix, int shadow, dem_energy_terms *e, double *hess,
                             dem_error *err)
{
    const dem_system *s = r->s;
    for (size_t k = 0; k < s->nbonds; k++) {
        const dem_bond *b = &s->bonds[k];
        size_t i = dem_id_index_find(ix, b->i), j = dem_id_index_find(ix, b->j);
        if (i == SIZE_MAX || j == SIZE_MAX)
            return dem_fail(err, DEM_ERR_VALUE, "bond (%llu, %llu): no particle %llu", (unsigned long long)b->i,
                            (unsigned long long)b->j, (unsigned long long)(i == SIZE_MAX ? b->i : b->j));
        const dem_particle *pi = dem_particle_read(r, i, 0), *pj = dem_particle_read(r, j, 1);
        dem_vec3 xj = pj->pos;
        if (s->cell.flags && (b->shift[0] | b->shift[1] | b->shift[2]))
            xj = dem_v3_add(xj, dem_m3_mulv(s->cell.h, dem_v3((double)b->shift[0], (double)b->shift[1], (double)b->shift[2])));
        dem_vec3 d = dem_v3_sub(pi->pos, xj);
        double dist = dem_v3_norm(d), delta = pi->radius + pj->radius - dist;
        e->eel_b += 0.5 * b->kb * delta * delta;
        if (shadow && dist > 0.0) {
            dem_vec3 n = dem_v3_scale(d, 1.0 / dist), vr = dem_v3_sub(pi->vel, pj->vel);
            double vn = dem_v3_dot(vr, n);
            *hess += b->kb * vn * vn - b->kb * delta / dist * dem_v3_norm2(dem_v3_madd(vr, n, -vn));
        }
    }
    return DEM_OK;
}

/* The rolling and twisting springs' part of v.U''.v (rolling.h): k_r |v_r|^2 with v_r = R* wrel x n,
 * and k_o (wrel . n)^2, for a spring below its cap (slot 11); a capped one's moment does not
 * depend on its stretch. */
static double roll_hessian(const dem_pair *p, const dem_settings *st, const dem_contact *c, dem_vec3 wrel)
{
    double stt = dem_tangential_models[st->tangential]->stiffness(p, st->normal, c->overlap), h = 0.0;
    uint32_t flags = dem_roll_slot_flags(c->hist[11]);
    if (!(flags & DEM_ROLL_CAPPED)) {
        dem_vec3 vr = dem_v3_scale(dem_v3_cross(wrel, c->normal), p->rstar);
        h += dem_rolling_models[st->rolling]->stiffness(st, p->rstar, c->overlap, stt) * dem_v3_norm2(vr);
    }
    if (!(flags & DEM_TWIST_CAPPED)) {
        double wo = dem_v3_dot(wrel, c->normal);
        h += dem_twisting_models[st->twisting]->stiffness(st, p->rstar, c->overlap, stt) * wo * wo;
    }
    return h;
}

dem_status dem_energy_terms_compute(const dem_system *s, const dem_settings *st, dem_energy_terms *e,
                                    dem_error *err)
{
    return dem_energy_terms_source(s, st, NULL, NULL, e, err);
}

/* The terms over the reader's particles; its source's failure is the caller's to read. */
static dem_status terms_read(dem_particle_reader *r, const dem_settings *st, const dem_contact_source *src, dem_energy_terms *e,
                             dem_error *err);

dem_status dem_energy_terms_source(const dem_system *s, const dem_settings *st, const dem_particle_source *psrc,
                                   const dem_contact_source *src, dem_energy_terms *e, dem_error *err)
{
    if (psrc && psrc->count != s->nparticles)
        return dem_fail(err, DEM_ERR_ARG, "a particle source of %zu particles for a frame of %zu", psrc->count, s->nparticles);
    dem_particle_reader r;
    dem_particle_reader_init(&r, s, psrc, err);
    dem_status rc = terms_read(&r, st, src, e, err);
    return r.st ? r.st : rc; /* *err: the source's message (the reader's) */
}

static dem_status terms_read(dem_particle_reader *r, const dem_settings *st, const dem_contact_source *src, dem_energy_terms *e,
                             dem_error *err)
{
    const dem_system *s = r->s;
    size_t ncontacts = src ? src->count : s->ncontacts;
    uint32_t slots = src ? src->hist_slots : s->hist_slots;
    e->ekin_t = dem_kinetic_energy_t_read(r);
    e->ekin_r = dem_kinetic_energy_r_read(r);
    e->epot_g = 0.0;
    e->eel_n = e->eel_t = e->eel_b = 0.0;
    e->e_shadow = 0.0;
    dem_vec3 g = st->gravity;
    if (g.x != 0.0 || g.y != 0.0 || g.z != 0.0) {
        for (size_t k = 0; k < s->nparticles; k++) { /* a clump's members: the clump's mass at its centre (unwrapped) */
            const dem_particle *p = dem_particle_read(r, k, 0);
            if (!p->clump) e->epot_g -= p->mass * dem_v3_dot(g, unwrapped(s, p));
        }
        for (size_t k = 0; k < s->nclumps; k++) e->epot_g -= s->clumps[k].mass * dem_v3_dot(g, s->clumps[k].pos);
    }
    /* the shadow term needs the forces the kicks use: only a frame whose forces are current has
     * them (dem-pack writes zeros; dem-step then computes them before its first kick) */
    /* velocity Verlet's: the variational integrator (De Klerk et al. 2022) conserves E itself, exactly for
     * alpha = 1/2 and a quadratic V (the implicit midpoint rule), and books its dashpots so */
    int shadow = (s->flags & DEM_HEAD_FORCES_CURRENT) && s->dt > 0.0 && st->integrator != DEM_INTEGRATOR_VARIATIONAL;
    double hess = 0.0; /* sum over contacts of v.U''.v */
    if (shadow) e->e_shadow = -s->dt * s->dt / 24.0 * kick_sum(r);
    if (!ncontacts && !s->nbonds) return DEM_OK;

    dem_id_index ix;
    dem_id_index_init(&ix);
    dem_status rc = dem_id_index_build_read(&ix, r, err);
    if (rc) return rc;
    if (s->nbonds && (rc = bond_terms(r, &ix, shadow, e, &hess, err))) {
        dem_id_index_free(&ix);
        return rc;
    }
    const dem_normal_model *nm = dem_normal_models[st->normal];
    const dem_tangential_model *tm = dem_tangential_models[st->tangential];
    int spring = tm->uses_history && slots >= 3;
    int roll = dem_roll_on(st) && slots >= 12;
    dem_contact one;
    for (size_t k = 0; k < ncontacts && !rc; k++) {
        const dem_contact *c = &s->contacts[k];
        if (src) { /* one at a time from the source (a simulator's store), in the frame's order */
            if ((rc = src->next(src->ctx, &one, err))) break;
            c = &one;
        }
        if (!(c->overlap > 0.0) && !(c->flags & DEM_CONTACT_NECK)) continue; /* a jkr neck holds energy at overlap <= 0 */
        size_t i = dem_id_index_find(&ix, c->i);
        if (i == SIZE_MAX) {
            rc = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu): no particle %llu", (unsigned long long)c->i,
                          (unsigned long long)c->j, (unsigned long long)c->i);
            break;
        }
        const dem_particle *pi = dem_particle_read(r, i, 0);
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
            const dem_wall *w = &s->walls[c->j];
            dem_pair_init(&p, st, pi->radius, pi->mass, &s->materials[pi->material], 0.0, 0.0,
                          &s->materials[w->material]);
            if (shadow) {
                double li = pi->radius - 0.5 * c->overlap, curv = 0.0;
                dem_vec3 cp = dem_v3_madd(pi->pos, c->normal, -li);
                dem_vec3 vw = dem_v3_add(w->vel, dem_v3_cross(w->omega, dem_v3_sub(cp, w->point)));
                dem_vec3 vrel = dem_v3_sub(pi->vel, vw);
                if (w->kind == DEM_WALL_CYLINDER) {
                    /* delta = r - R + rho inside, r + R - rho outside (rho: distance to the axis)
                     * has the Hessian +-(1/rho) e e along the circumference e = axis x n */
                    int out = (w->flags & DEM_WALL_OUTSIDE) != 0;
                    double gap = pi->radius - c->overlap, rho = out ? w->radius + gap : w->radius - gap;
                    double ve = dem_v3_dot(vrel, dem_v3_cross(w->normal, c->normal));
                    if (rho > 0.0) curv = (out ? -1.0 : 1.0) * ve * ve / rho;
                }
                hess += contact_hessian(&p, st, c, c->normal, vrel, dem_v3_scale(pi->omega, li), 0.0, curv, spring);
                if (roll) hess += roll_hessian(&p, st, c, dem_v3_sub(pi->omega, w->omega));
            }
        } else {
            size_t j = dem_id_index_find(&ix, c->j);
            const dem_particle *pj = j == SIZE_MAX ? NULL : dem_particle_read(r, j, 1);
            if (!pj || pj->material >= s->nmaterials) {
                rc = dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu): no particle %llu or its material",
                              (unsigned long long)c->i, (unsigned long long)c->j, (unsigned long long)c->j);
                break;
            }
            dem_pair_init(&p, st, pi->radius, pi->mass, &s->materials[pi->material], pj->radius, pj->mass,
                          &s->materials[pj->material]);
            if (shadow) {
                double li = pi->radius - 0.5 * c->overlap, lj = pj->radius - 0.5 * c->overlap;
                dem_vec3 wterm = dem_v3_add(dem_v3_scale(pi->omega, li), dem_v3_scale(pj->omega, lj));
                if (roll) hess += roll_hessian(&p, st, c, dem_v3_sub(pi->omega, pj->omega));
                hess += contact_hessian(&p, st, c, c->normal, dem_v3_sub(pi->vel, pj->vel), wterm,
                                        pi->radius + pj->radius - c->overlap, 0.0, spring);
            }
        }
        e->eel_n += nm->energy(&p, c->overlap);
        if (roll) { /* rolling and twisting springs (lib/laws/rolling.h): 1/2 k_r |xi_r|^2 + 1/2 k_o theta_o^2 */
            double stt = tm->stiffness(&p, st->normal, c->overlap);
            double xr2 = c->hist[3] * c->hist[3] + c->hist[4] * c->hist[4] + c->hist[5] * c->hist[5];
            e->eel_t += 0.5 * dem_rolling_models[st->rolling]->stiffness(st, p.rstar, c->overlap, stt) * xr2 +
                        0.5 * dem_twisting_models[st->twisting]->stiffness(st, p.rstar, c->overlap, stt) * c->hist[6] * c->hist[6];
        }
        if (spring) {
            double xi2 = c->hist[0] * c->hist[0] + c->hist[1] * c->hist[1] + c->hist[2] * c->hist[2];
            if (xi2 > 0.0) {
                double stt = tm->stiffness(&p, st->normal, c->overlap);
                if (tm->uses_history == DEM_HISTORY_FORCE) { /* the slots hold the force f_s: |f_s|^2 / (2 S_t) */
                    if (stt > 0.0) e->eel_t += 0.5 * xi2 / stt;
                } else {
                    e->eel_t += 0.5 * stt * xi2;
                }
            }
        }
    }
    dem_id_index_free(&ix);
    if (shadow) e->e_shadow += s->dt * s->dt / 12.0 * hess;
    return rc;
}

double dem_energy_mechanical(const dem_energy_terms *e)
{
    return e->ekin_t + e->ekin_r + e->epot_g + e->eel_n + e->eel_t + e->eel_b + e->e_shadow;
}

double dem_energy_dissipated(const dem_system *s)
{
    return s->energy[DEM_E_DISS_FRICTION] + s->energy[DEM_E_DISS_DAMP_N] + s->energy[DEM_E_DISS_DAMP_T] +
           s->energy[DEM_E_DISS_LOCAL] + s->energy[DEM_E_DISS_DRAG] + s->energy[DEM_E_DISS_ROLLING] +
           s->energy[DEM_E_DISS_TWISTING];
}

double dem_energy_work(const dem_system *s)
{
    return s->energy[DEM_E_WORK_WALLS] + s->energy[DEM_E_WORK_CELL] + s->energy[DEM_E_WORK_EXTERNAL] +
           s->energy[DEM_E_WORK_LAW];
}

dem_status dem_energy_reference(const dem_system *s, const dem_settings *st, double *ref, dem_error *err)
{
    return dem_energy_reference_source(s, st, NULL, NULL, ref, err);
}

dem_status dem_energy_reference_source(const dem_system *s, const dem_settings *st, const dem_particle_source *psrc,
                                       const dem_contact_source *src, double *ref, dem_error *err)
{
    dem_energy_terms e;
    dem_status rc = dem_energy_terms_source(s, st, psrc, src, &e, err);
    if (rc) return rc;
    *ref = dem_energy_mechanical(&e) + dem_energy_dissipated(s) - dem_energy_work(s) - s->energy[DEM_E_AHEAD];
    return DEM_OK;
}

double dem_energy_residual(double ref, const dem_energy_terms *e, const dem_system *s)
{
    return ref + dem_energy_work(s) - (dem_energy_mechanical(e) + dem_energy_dissipated(s)) + s->energy[DEM_E_AHEAD];
}
