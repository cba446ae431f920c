/* stress.c - Love-Weber stress, particle stresses, principal values, wall loads (see stress.h). */
#include "analysis/stress.h"

#include "analysis/coordination.h"
#include "analysis/overlap_volume.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ============================== symmetric 3x3 tensors ============================== */
dem_mat3 dem_hencky_strain(dem_mat3 f)
{
    dem_mat3 b = dem_m3_mul(f, dem_m3_transpose(f)), v, e = dem_m3_zero();
    double ev[3];
    dem_sym3_eigen(b, ev, &v);
    for (int k = 0; k < 3; k++) {
        double l = ev[k] > 0.0 ? 0.5 * log(ev[k]) : NAN;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) e.m[r][c] += l * v.m[r][k] * v.m[c][k];
    }
    return e;
}

void dem_cell_strain(const dem_cell *c, dem_strain *out)
{
    if (!c->flags) {
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) out->e.m[r][k] = NAN;
        out->ev = NAN;
        return;
    }
    out->e = dem_hencky_strain(c->deform);
    double det = dem_m3_det(c->deform);
    out->ev = det > 0.0 ? log(det) : NAN;
}

dem_mat3 dem_m3_sym(dem_mat3 a)
{
    dem_mat3 s;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) s.m[r][c] = 0.5 * (a.m[r][c] + a.m[c][r]);
    return s;
}

/* One Jacobi rotation in the (p, q) plane that zeroes a[p][q] (Numerical Recipes' jacobi, the
 * rotation written with tau = s / (1 + c) to limit round-off). v accumulates the rotations. */
static void jacobi_rotate(double a[3][3], double v[3][3], int p, int q, int late)
{
    double apq = a[p][q];
    if (apq == 0.0) return;
    double g = 100.0 * fabs(apq);
    /* After a few sweeps an off-diagonal element below the diagonal's last bit is zero. */
    if (late && fabs(a[p][p]) + g == fabs(a[p][p]) && fabs(a[q][q]) + g == fabs(a[q][q])) {
        a[p][q] = a[q][p] = 0.0;
        return;
    }
    double h = a[q][q] - a[p][p], t;
    if (fabs(h) + g == fabs(h)) {
        t = apq / h; /* theta = h / (2 apq) so large that t = 1 / (2 theta) */
    } else {
        double theta = 0.5 * h / apq;
        t = 1.0 / (fabs(theta) + sqrt(1.0 + theta * theta));
        if (theta < 0.0) t = -t;
    }
    double c = 1.0 / sqrt(1.0 + t * t), s = t * c, tau = s / (1.0 + c);
    a[p][p] -= t * apq;
    a[q][q] += t * apq;
    a[p][q] = a[q][p] = 0.0;
    for (int r = 0; r < 3; r++) {
        if (r != p && r != q) {
            double arp = a[r][p], arq = a[r][q];
            a[r][p] = a[p][r] = arp - s * (arq + tau * arp);
            a[r][q] = a[q][r] = arq + s * (arp - tau * arq);
        }
        double vrp = v[r][p], vrq = v[r][q];
        v[r][p] = vrp - s * (vrq + tau * vrp);
        v[r][q] = vrq + s * (vrp - tau * vrq);
    }
}

void dem_sym3_eigen(dem_mat3 a0, double ev[3], dem_mat3 *vecs)
{
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double amax = 0.0;
    int finite = 1;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            a[r][c] = 0.5 * (a0.m[r][c] + a0.m[c][r]);
            if (!isfinite(a[r][c])) finite = 0;
            else if (fabs(a[r][c]) > amax) amax = fabs(a[r][c]);
        }
    if (vecs) *vecs = dem_m3_identity();
    if (!finite) {
        ev[0] = ev[1] = ev[2] = NAN;
        return;
    }
    if (amax == 0.0) {
        ev[0] = ev[1] = ev[2] = 0.0;
        return;
    }
    /* Scale by a power of two (exact) so that no product in the rotations over- or underflows. */
    int e;
    frexp(amax, &e);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a[r][c] = ldexp(a[r][c], -e);
    for (int sweep = 0; sweep < 64; sweep++) {
        if (a[0][1] == 0.0 && a[0][2] == 0.0 && a[1][2] == 0.0) break;
        jacobi_rotate(a, v, 0, 1, sweep > 3);
        jacobi_rotate(a, v, 0, 2, sweep > 3);
        jacobi_rotate(a, v, 1, 2, sweep > 3);
    }
    double d[3] = {a[0][0], a[1][1], a[2][2]};
    int order[3] = {0, 1, 2};
    for (int i = 1; i < 3; i++) /* descending */
        for (int k = i; k > 0 && d[order[k]] > d[order[k - 1]]; k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    for (int k = 0; k < 3; k++) ev[k] = ldexp(d[order[k]], e);
    if (vecs) {
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) vecs->m[r][k] = v[r][order[k]];
        if (dem_m3_det(*vecs) < 0.0)
            for (int r = 0; r < 3; r++) vecs->m[r][2] = -vecs->m[r][2];
    }
}

double dem_stress_p(dem_mat3 s) { return (s.m[0][0] + s.m[1][1] + s.m[2][2]) / 3.0; }

double dem_stress_q(dem_mat3 sigma)
{
    dem_mat3 s = dem_m3_sym(sigma);
    double p = dem_stress_p(s);
    double dx = s.m[0][0] - p, dy = s.m[1][1] - p, dz = s.m[2][2] - p;
    double j2 = 0.5 * (dx * dx + dy * dy + dz * dz) + s.m[0][1] * s.m[0][1] + s.m[0][2] * s.m[0][2] +
                s.m[1][2] * s.m[1][2];
    return sqrt(3.0 * j2);
}

void dem_stress_invariants_of(dem_mat3 sigma, dem_stress_invariants *inv)
{
    double ev[3];
    dem_sym3_eigen(sigma, ev, NULL);
    inv->p = dem_stress_p(sigma);
    inv->q = dem_stress_q(sigma);
    inv->s1 = ev[0];
    inv->s2 = ev[1];
    inv->s3 = ev[2];
}

/* ============================== contact sums ============================== */
dem_vec3 dem_contact_point(const dem_particle *pi, const dem_contact *c)
{
    return dem_v3_madd(pi->pos, c->normal, -(pi->radius - 0.5 * c->overlap));
}

/* a += s u (x) w */
static void add_outer(dem_mat3 *a, dem_vec3 u, dem_vec3 w, double s)
{
    double uu[3] = {u.x * s, u.y * s, u.z * s}, ww[3] = {w.x, w.y, w.z};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a->m[r][c] += uu[r] * ww[c];
}

static dem_mat3 m3_scale(dem_mat3 a, double s)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a.m[r][c] *= s;
    return a;
}

/* Position of j's image seen by i. */
static dem_vec3 partner_pos(const dem_system *s, const dem_particle *pj, const dem_contact *c)
{
    if (!s->cell.flags || !(c->shift[0] | c->shift[1] | c->shift[2])) return pj->pos;
    dem_vec3 sh = dem_v3((double)c->shift[0], (double)c->shift[1], (double)c->shift[2]);
    return dem_v3_add(pj->pos, dem_m3_mulv(s->cell.h, sh));
}

static dem_status missing(const dem_contact *c, dem_error *err)
{
    return dem_fail(err, DEM_ERR_VALUE, "contact (%llu, %llu) names a particle that is not in the frame",
                    (unsigned long long)c->i, (unsigned long long)c->j);
}

dem_status dem_stress_add_contact(const dem_system *s, const dem_id_index *ix, const dem_contact *c,
                                  const dem_particle *pi, dem_mat3 *sum, dem_error *err)
{
    dem_vec3 f = dem_v3_add(c->fn, c->ft);
    /* a clump is one body: the branch vectors join the bodies' centres (Christoffersen, Mehrabadi and
     * Nemat-Nasser 1981; Bagi 1996): a member's offset from its clump's centre (ix->body) joins them */
    dem_vec3 bi = ix->body ? ix->body[pi - s->particles] : dem_v3_zero();
    if (c->flags & DEM_CONTACT_WALL) {
        add_outer(sum, dem_v3_add(bi, dem_v3_scale(c->normal, -(pi->radius - 0.5 * c->overlap))), f, -1.0);
        return DEM_OK;
    }
    size_t j = dem_id_index_find(ix, c->j);
    if (j == SIZE_MAX) return missing(c, err);
    dem_vec3 l = dem_v3_sub(pi->pos, partner_pos(s, &s->particles[j], c));
    if (ix->body) l = dem_v3_sub(l, dem_v3_sub(bi, ix->body[j]));
    add_outer(sum, l, f, 1.0);
    return DEM_OK;
}

dem_mat3 dem_stress_of_sum(dem_mat3 sum, double volume) { return dem_m3_sym(m3_scale(sum, 1.0 / volume)); }

dem_status dem_stress_assembly(const dem_system *s, const dem_id_index *ix, const dem_aabb *box, int kinetic,
                               dem_stress *out, dem_error *err)
{
    memset(out, 0, sizeof *out);
    dem_aabb region;
    if (box) {
        region = *box;
        out->volume = dem_aabb_volume(region);
        out->source = DEM_VOLUME_BOX;
    } else if (s->cell.flags) {
        out->volume = dem_cell_volume(&s->cell);
        out->source = DEM_VOLUME_CELL;
    } else if (dem_walls_box(s, &region)) {
        out->volume = dem_aabb_volume(region);
        out->source = DEM_VOLUME_WALLS;
    } else {
        return dem_fail(err, DEM_ERR_VALUE,
                        "no volume to average over: the frame has no periodic cell and no six axis-aligned plane walls around a box (give a box)");
    }
    dem_mat3 sum = dem_m3_zero();
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        size_t i = dem_id_index_find(ix, c->i);
        if (i == SIZE_MAX) return missing(c, err);
        const dem_particle *pi = &s->particles[i];
        if (box && !dem_aabb_contains(region, dem_contact_point(pi, c))) continue;
        dem_status st = dem_stress_add_contact(s, ix, c, pi, &sum, err);
        if (st) return st;
        if (c->overlap > 0.0) {
            if (c->flags & DEM_CONTACT_WALL) out->wall_contacts++;
            else out->contacts++;
        }
    }
    /* the particles counted, and their mass-weighted mean velocity (a clump's members: the clump's,
     * below) */
    double mass = 0.0;
    dem_vec3 mom = dem_v3_zero();
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        if (box && !dem_aabb_contains(region, p->pos)) continue;
        out->particles++;
        if (p->clump) continue;
        mass += p->mass;
        mom = dem_v3_madd(mom, p->vel, p->mass);
    }
    for (size_t k = 0; k < s->nclumps; k++) {
        const dem_clump *c = &s->clumps[k];
        if (box && !dem_aabb_contains(region, c->pos)) continue;
        mass += c->mass;
        mom = dem_v3_madd(mom, c->vel, c->mass);
    }
    double *share = NULL; /* a member's sphere volume times this: its part of its clump's union volume */
    if (s->nclumps && !(share = dem_clump_volume_shares(s)))
        return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    for (size_t k = 0; k < s->nparticles; k++) { /* the parts of the spheres inside the box */
        const dem_particle *p = &s->particles[k];
        double v = box ? dem_sphere_box_volume(p->pos, p->radius, region.lo, region.hi) : dem_sphere_volume(p->radius);
        out->solid_volume += share ? v * share[k] : v;
    }
    free(share);
    dem_coordination_stats z; /* the one definition of Z (coordination.h) */
    dem_status st = dem_coordination_measure(s, ix, box, DEM_RATTLER_CONTACTS, &z, err);
    if (st) return st;
    out->coordination = z.coordination;
    out->void_ratio = out->solid_volume > 0.0 ? out->volume / out->solid_volume - 1.0 : NAN;
    if (kinetic && mass > 0.0) {
        dem_vec3 mean = dem_v3_scale(mom, 1.0 / mass);
        dem_mat3 kin = dem_m3_zero();
        for (size_t k = 0; k < s->nparticles; k++) {
            const dem_particle *p = &s->particles[k];
            if (p->clump || (box && !dem_aabb_contains(region, p->pos))) continue;
            dem_vec3 d = dem_v3_sub(p->vel, mean);
            add_outer(&kin, d, d, p->mass);
        }
        for (size_t k = 0; k < s->nclumps; k++) { /* a clump: its centre's velocity and its mass */
            const dem_clump *c = &s->clumps[k];
            if (box && !dem_aabb_contains(region, c->pos)) continue;
            dem_vec3 d = dem_v3_sub(c->vel, mean);
            add_outer(&kin, d, d, c->mass);
        }
        out->sigma_kinetic = m3_scale(kin, 1.0 / out->volume);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum.m[r][c] += kin.m[r][c];
    }
    out->sigma = dem_stress_of_sum(sum, out->volume);
    return DEM_OK;
}

dem_status dem_stress_particles(const dem_system *s, const dem_id_index *ix, dem_mat3 *sig, dem_error *err)
{
    for (size_t k = 0; k < s->nparticles; k++) sig[k] = dem_m3_zero();
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        size_t i = dem_id_index_find(ix, c->i);
        if (i == SIZE_MAX) return missing(c, err);
        const dem_particle *pi = &s->particles[i];
        dem_vec3 f = dem_v3_add(c->fn, c->ft);
        dem_vec3 xri = dem_v3_scale(c->normal, -(pi->radius - 0.5 * c->overlap)); /* centre of i to contact */
        add_outer(&sig[i], xri, f, -1.0);
        if (c->flags & DEM_CONTACT_WALL) continue;
        size_t j = dem_id_index_find(ix, c->j);
        if (j == SIZE_MAX) return missing(c, err);
        /* centre of j (its image) to the same contact point; j feels -f */
        dem_vec3 l = dem_v3_sub(pi->pos, partner_pos(s, &s->particles[j], c));
        add_outer(&sig[j], dem_v3_add(l, xri), f, 1.0);
    }
    for (size_t k = 0; k < s->nparticles; k++)
        sig[k] = dem_m3_sym(m3_scale(sig[k], 1.0 / dem_sphere_volume(s->particles[k].radius)));
    return DEM_OK;
}

/* ============================== walls ============================== */
/* The axis of a plane wall's normal, or -1 if tilted (same tolerance as dem_walls_box). */
static int wall_axis(const dem_wall *w)
{
    if (w->kind != DEM_WALL_PLANE) return -1;
    for (int a = 0; a < 3; a++) {
        int b = (a + 1) % 3, c = (a + 2) % 3;
        if (fabs(dem_v3_get(w->normal, b)) <= 1e-12 && fabs(dem_v3_get(w->normal, c)) <= 1e-12) return a;
    }
    return -1;
}

void dem_wall_loads(const dem_system *s, dem_wall_load *out)
{
    dem_aabb box;
    int have_box = dem_walls_box(s, &box);
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *w = &s->walls[k];
        out[k].force = w->force;
        out[k].area = NAN;
        out[k].pressure = NAN;
        int a = wall_axis(w);
        if (!have_box || a < 0) continue;
        double at = dem_v3_get(w->point, a);
        double face = dem_v3_get(w->normal, a) > 0.0 ? dem_v3_get(box.lo, a) : dem_v3_get(box.hi, a);
        if (at != face) continue; /* a wall outside the box */
        int b = (a + 1) % 3, c = (a + 2) % 3;
        out[k].area = (dem_v3_get(box.hi, b) - dem_v3_get(box.lo, b)) * (dem_v3_get(box.hi, c) - dem_v3_get(box.lo, c));
        /* + 0.0: an unloaded wall reads 0, not -0 */
        out[k].pressure = -dem_v3_dot(w->force, w->normal) / out[k].area + 0.0;
    }
}

/* ============================== element tests ============================== */
/* The innermost axis-aligned plane walls on each side of every axis: lo[k] faces +e_k (a floor),
 * hi[k] faces -e_k (a lid); -1 where there is none. */
static void wall_pairs(const dem_system *s, int lo[3], int hi[3])
{
    for (int k = 0; k < 3; k++) lo[k] = hi[k] = -1;
    for (size_t w = 0; w < s->nwalls; w++) {
        const dem_wall *wl = &s->walls[w];
        int a = wall_axis(wl);
        if (a < 0) continue;
        double at = dem_v3_get(wl->point, a);
        if (dem_v3_get(wl->normal, a) > 0.0) {
            if (lo[a] < 0 || at > dem_v3_get(s->walls[lo[a]].point, a)) lo[a] = (int)w;
        } else if (hi[a] < 0 || at < dem_v3_get(s->walls[hi[a]].point, a)) {
            hi[a] = (int)w;
        }
    }
}

/* Whether a cylinder wall holding the particles inside lies along axis a (its radius fixes the
 * two widths across it). */
static int cylinder_along(const dem_system *s, int a)
{
    for (size_t w = 0; w < s->nwalls; w++) {
        const dem_wall *wl = &s->walls[w];
        if (wl->kind == DEM_WALL_CYLINDER && !(wl->flags & DEM_WALL_OUTSIDE) && fabs(dem_v3_get(wl->normal, a)) >= 1.0 - 1e-12)
            return 1;
    }
    return 0;
}

void dem_element_reference(const dem_system *s, dem_element_ref *ref)
{
    wall_pairs(s, ref->lo, ref->hi);
    for (int k = 0; k < 3; k++) {
        int l = ref->lo[k], h = ref->hi[k];
        ref->gap[k] = l >= 0 && h >= 0 ? dem_v3_get(s->walls[h].point, k) - dem_v3_get(s->walls[l].point, k) : NAN;
        ref->lo_point[k] = l >= 0 ? s->walls[l].point : dem_v3(NAN, NAN, NAN);
        ref->hi_point[k] = h >= 0 ? s->walls[h].point : dem_v3(NAN, NAN, NAN);
    }
    ref->nwalls = s->nwalls;
}

/* The walls of the reference, if the frame still has them (same count: dem-step never adds any). */
static int same_walls(const dem_system *s, const dem_element_ref *ref, int k)
{
    return s->nwalls == ref->nwalls && ref->lo[k] >= 0 && ref->hi[k] >= 0;
}

/* The normal strain along axis k, compression positive: from the cell's F where the cell is
 * periodic along k (-e_kk, Hencky), else from the gap between the walls across k against the
 * reference (-ln(gap / gap_ref)); 0 across an inner cylinder along another axis (its radius is
 * fixed); nan otherwise. */
static double normal_strain(const dem_system *s, const dem_strain *e, const dem_element_ref *ref, int k)
{
    if (s->cell.flags >> k & 1u) return -e->e.m[k][k] + 0.0; /* + 0.0: no -0 */
    if (same_walls(s, ref, k)) {
        double gap = dem_v3_get(s->walls[ref->hi[k]].point, k) - dem_v3_get(s->walls[ref->lo[k]].point, k);
        return gap > 0.0 && ref->gap[k] > 0.0 ? -log(gap / ref->gap[k]) + 0.0 : NAN;
    }
    for (int a = 0; a < 3; a++)
        if (a != k && cylinder_along(s, a)) return 0.0;
    return NAN;
}

/* The shear strain gamma_ij, the displacement along i per height along j: F_ij / F_jj of the
 * cell where it is periodic along i and j; else from the walls across j, the displacement along i
 * of the upper one relative to the lower since the reference, over their gap now. */
static double shear_strain(const dem_system *s, const dem_element_ref *ref, int i, int j)
{
    if ((s->cell.flags >> i & 1u) && (s->cell.flags >> j & 1u)) return s->cell.deform.m[i][j] / s->cell.deform.m[j][j];
    if (!same_walls(s, ref, j)) return NAN;
    const dem_wall *lo = &s->walls[ref->lo[j]], *hi = &s->walls[ref->hi[j]];
    double du = (dem_v3_get(hi->point, i) - dem_v3_get(ref->hi_point[j], i)) - (dem_v3_get(lo->point, i) - dem_v3_get(ref->lo_point[j], i));
    double gap = dem_v3_get(hi->point, j) - dem_v3_get(lo->point, j);
    return gap > 0.0 ? du / gap : NAN;
}

void dem_element_measure(const dem_system *s, dem_mat3 sigma, const dem_element_test *t, const dem_element_ref *ref,
                         dem_element *out)
{
    dem_strain e;
    dem_cell_strain(&s->cell, &e);
    double eps[3];
    for (int k = 0; k < 3; k++) eps[k] = normal_strain(s, &e, ref, k);
    /* the whole cell periodic: ln det F itself, exact for any F */
    out->eps_v = (s->cell.flags & 7u) == 7u ? -e.ev + 0.0 : eps[0] + eps[1] + eps[2];
    double ev[3];
    dem_sym3_eigen(sigma, ev, NULL);
    out->sin_phi = ev[0] + ev[2] > 0.0 ? (ev[0] - ev[2]) / (ev[0] + ev[2]) : NAN;
    out->phi_mob = out->sin_phi >= 0.0 && out->sin_phi <= 1.0 ? asin(out->sin_phi) * (180.0 / 3.14159265358979323846) : NAN;
    out->sa = out->sr = out->q_axial = out->eps_a = out->eps_q = NAN;
    if (t->axis >= 0) {
        int a = t->axis, b = (a + 1) % 3, c = (a + 2) % 3;
        out->sa = sigma.m[a][a];
        out->sr = 0.5 * (sigma.m[b][b] + sigma.m[c][c]);
        out->q_axial = out->sa - out->sr;
        out->eps_a = eps[a];
        out->eps_q = 2.0 / 3.0 * (eps[a] - 0.5 * (eps[b] + eps[c]));
    }
    out->tau = out->sigma_n = out->tau_sigma = out->gamma = NAN;
    if (t->shear_i >= 0) {
        int i = t->shear_i, j = t->shear_j;
        out->tau = -0.5 * (sigma.m[i][j] + sigma.m[j][i]) + 0.0;
        out->sigma_n = sigma.m[j][j];
        out->tau_sigma = out->tau / out->sigma_n;
        out->gamma = shear_strain(s, ref, i, j);
    }
}
