/* contact.c - evaluating one contact, or a block of them, with the settings' sub-models; losing
 * a contact; and one contact driven kinematically (dem_contact_probe). */
#include <math.h>
#include <string.h>

#include "laws/laws.h"

void dem_law_init(dem_law *law, const dem_settings *st, double hdt)
{
    law->st = st;
    law->normal = dem_normal_models[st->normal];
    law->damping = dem_damping_models[st->damping];
    law->tangential = dem_tangential_models[st->tangential];
    law->carry = st->carry;
    law->hdt = hdt;
    law->cap_adh = 2.0 * M_PI * law->normal->pulloff;
    law->inline_history = law->tangential == &dem_law_tangential_history && law->cap_adh == 0.0;
}

double dem_contact_forget(dem_contact_rec *h, double hdt, double *law_work)
{
    double lost = hdt != 0.0 ? -0.5 * hdt * h->prev[DEM_PREV_PT] + 0.5 * h->prev[DEM_PREV_STT] * h->prev[DEM_PREV_XI2] : 0.0;
    if (!(h->flags & DEM_REC_SLIDING)) { /* a spring cut while it stuck: the law's work, not friction (laws.h) */
        *law_work -= lost;
        lost = 0.0;
    }
    memset(h->prev, 0, sizeof h->prev);
    h->flags = 0;
    h->xi[0] = h->xi[1] = h->xi[2] = 0.0;
    h->diss[0] = h->diss[1] = h->diss[2] = 0.0;
    h->fdn = h->stt = h->lwork = 0.0;
    return lost;
}

int dem_contact_probe(const dem_settings *st, const dem_material *a, const dem_material *b, double dt,
                      const dem_probe_state *in, double hist[3], int *sliding, dem_vec3 *fn, dem_vec3 *ft)
{
    dem_contact_in c;
    c.d = dem_v3_sub(in->xi, in->xj);
    double dist = dem_v3_norm(c.d);
    dem_contact_rec h;
    memset(&h, 0, sizeof h);
    if (dist >= in->ri + in->rj) {
        hist[0] = hist[1] = hist[2] = 0.0;
        *sliding = 0;
        *fn = *ft = dem_v3_zero();
        return 0;
    }
    dem_pair p;
    dem_pair_init(&p, st, in->ri, in->mi, a, in->rj, in->mj, b);
    h.flags = DEM_REC_TOUCH;
    memcpy(h.xi, hist, sizeof h.xi);
    c.delta = in->ri + in->rj - dist;
    c.n = dem_v3_scale(c.d, 1.0 / dist);
    c.vij = dem_v3_sub(in->vi, in->vj);
    c.wterm = dem_v3_add(dem_v3_scale(in->wi, in->ri - 0.5 * c.delta), dem_v3_scale(in->wj, in->rj - 0.5 * c.delta));
    c.half_normal = st->integrator == DEM_INTEGRATOR_VV_IMPROVED;
    c.chord = 1;
    c.spin = 0.5 * dem_v3_dot(dem_v3_add(in->wi, in->wj), c.n);
    dem_law law;
    dem_law_init(&law, st, dt);
    dem_contact_out o;
    dem_law_eval(&law, &p, &c, &h, &o);
    memcpy(hist, h.xi, sizeof h.xi);
    *sliding = (h.flags & DEM_REC_SLIDING) != 0;
    *fn = dem_v3_scale(o.n, o.fn);
    *ft = o.ft;
    return 1;
}
