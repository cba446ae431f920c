/* analysis.c - per-frame measurements and their TSV form (see analysis.h). */
#include "analysis/analysis.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/coordination.h"
#include "analysis/overlap_volume.h"
#include "analysis/unbalanced.h"
#include "core/rigid.h"
#include "core/text.h"

/* ============================== control volumes ============================== */
double dem_aabb_volume(dem_aabb b)
{
    return (b.hi.x - b.lo.x) * (b.hi.y - b.lo.y) * (b.hi.z - b.lo.z);
}

int dem_aabb_contains(dem_aabb b, dem_vec3 x)
{
    return x.x >= b.lo.x && x.x <= b.hi.x && x.y >= b.lo.y && x.y <= b.hi.y && x.z >= b.lo.z &&
           x.z <= b.hi.z;
}

/* The axis a plane's normal lies along (0, 1, 2), or -1 if it is tilted. The tolerance only
 * forgives rounding in normals written as text: a wall tilted by 1e-12 rad is still a face. */
static int plane_axis(const dem_wall *w)
{
    for (int a = 0; a < 3; a++) {
        int b = (a + 1) % 3, c = (a + 2) % 3;
        if (fabs(dem_v3_get(w->normal, b)) <= 1e-12 && fabs(dem_v3_get(w->normal, c)) <= 1e-12)
            return a;
    }
    return -1;
}

int dem_walls_box(const dem_system *s, dem_aabb *box)
{
    double lo[3] = {-INFINITY, -INFINITY, -INFINITY}, hi[3] = {INFINITY, INFINITY, INFINITY};
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *w = &s->walls[k];
        int a = w->kind == DEM_WALL_PLANE ? plane_axis(w) : -1;
        if (a < 0) continue;
        double at = dem_v3_get(w->point, a);
        /* The normal points towards the particles: +e bounds from below, -e from above. */
        if (dem_v3_get(w->normal, a) > 0.0) lo[a] = fmax(lo[a], at);
        else hi[a] = fmin(hi[a], at);
    }
    for (int a = 0; a < 3; a++)
        if (!isfinite(lo[a]) || !isfinite(hi[a]) || !(hi[a] > lo[a])) return 0;
    box->lo = dem_v3(lo[0], lo[1], lo[2]);
    box->hi = dem_v3(hi[0], hi[1], hi[2]);
    return 1;
}

int dem_walls_cylinder(const dem_system *s, const dem_wall **cyl, int *axis, double *lo, double *hi)
{
    for (size_t k = 0; k < s->nwalls; k++) {
        const dem_wall *c = &s->walls[k];
        if (c->kind != DEM_WALL_CYLINDER || (c->flags & DEM_WALL_OUTSIDE) || !(c->radius > 0.0)) continue;
        int a = plane_axis(c); /* the cylinder's axis, stored in its normal */
        if (a < 0) continue;
        double l = -INFINITY, h = INFINITY;
        for (size_t m = 0; m < s->nwalls; m++) {
            const dem_wall *w = &s->walls[m];
            if (w->kind != DEM_WALL_PLANE || plane_axis(w) != a) continue;
            double at = dem_v3_get(w->point, a);
            if (dem_v3_get(w->normal, a) > 0.0) l = fmax(l, at);
            else h = fmin(h, at);
        }
        if (isfinite(l) && isfinite(h) && h > l) {
            *cyl = c;
            *axis = a;
            *lo = l;
            *hi = h;
            return 1;
        }
    }
    return 0;
}

/* The volume pi R^2 h of the cylinder container (dem_walls_cylinder); 0 if there is none. */
static double walls_cylinder_volume(const dem_system *s)
{
    const dem_wall *c;
    int a;
    double lo, hi;
    return dem_walls_cylinder(s, &c, &a, &lo, &hi) ? M_PI * c->radius * c->radius * (hi - lo) : 0.0;
}

/* ============================== measurements ============================== */
double dem_sphere_volume(double r) { return 4.0 / 3.0 * M_PI * r * r * r; }

void dem_count_contacts(const dem_system *s, size_t *particle_contacts, size_t *wall_contacts)
{
    size_t pp = 0, pw = 0;
    for (size_t k = 0; k < s->ncontacts; k++) {
        const dem_contact *c = &s->contacts[k];
        if (!(c->overlap > 0.0)) continue;
        if (c->flags & DEM_CONTACT_WALL) pw++;
        else pp++;
    }
    *particle_contacts = pp;
    *wall_contacts = pw;
}

double dem_coordination(size_t particle_contacts, size_t particles)
{
    /* Each contact adds one neighbour to both of its particles. */
    return particles ? 2.0 * (double)particle_contacts / (double)particles : NAN;
}

dem_vec3 dem_mean_velocity(const dem_system *s)
{
    if (s->nparticles == 0) return dem_v3(NAN, NAN, NAN);
    dem_vec3 sum = dem_v3_zero();
    for (size_t k = 0; k < s->nparticles; k++) sum = dem_v3_add(sum, s->particles[k].vel);
    return dem_v3_scale(sum, 1.0 / (double)s->nparticles);
}

double dem_granular_temperature(const dem_system *s)
{
    /* De Klerk et al. (2022), eq 36: dv = 1/(3 N_P) sum_i [(vbar_x - v_x^i)^2 + (vbar_y - v_y^i)^2
     * + (vbar_z - v_z^i)^2]. Two passes (mean first) keep the fluctuation accurate when it is
     * small compared with the mean flow. */
    if (s->nparticles == 0) return NAN;
    dem_vec3 mean = dem_mean_velocity(s);
    double sum = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) sum += dem_v3_norm2(dem_v3_sub(mean, s->particles[k].vel));
    return sum / (3.0 * (double)s->nparticles);
}

/* A clump is one body: its members' own masses and velocities are not summed (their spheres
 * overlap, and their motion is the clump's), the clump's 1/2 m v^2 and 1/2 L.w are. */
void dem_particle_reader_init(dem_particle_reader *r, const dem_system *s, const dem_particle_source *src, dem_error *err)
{
    r->s = s;
    r->src = src;
    r->st = DEM_OK;
    r->err = err;
}

const dem_particle *dem_particle_read(dem_particle_reader *r, size_t k, int slot)
{
    if (!r->src) return &r->s->particles[k];
    dem_particle *p = &r->buf[slot];
    dem_error ignored; /* a reader without err keeps only the status */
    if (!r->st) r->st = r->src->fill(r->src->ctx, k, 1, p, r->err ? r->err : &ignored);
    if (r->st) memset(p, 0, sizeof *p); /* after a failure, zeros: the caller reads st */
    return p;
}

double dem_kinetic_energy_t_read(dem_particle_reader *r)
{
    const dem_system *s = r->s;
    double e = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = dem_particle_read(r, k, 0);
        if (!p->clump) e += 0.5 * p->mass * dem_v3_norm2(p->vel);
    }
    for (size_t k = 0; k < s->nclumps; k++) e += 0.5 * s->clumps[k].mass * dem_v3_norm2(s->clumps[k].vel);
    return e;
}

double dem_kinetic_energy_r_read(dem_particle_reader *r)
{
    const dem_system *s = r->s;
    double e = 0.0;
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = dem_particle_read(r, k, 0);
        if (!p->clump) e += 0.5 * p->inertia * dem_v3_norm2(p->omega);
    }
    for (size_t k = 0; k < s->nclumps; k++) e += dem_rigid_kinetic(s->clumps[k].orient, s->clumps[k].inertia, s->clumps[k].angmom);
    return e;
}

double dem_kinetic_energy_t(const dem_system *s)
{
    dem_particle_reader r;
    dem_particle_reader_init(&r, s, NULL, NULL);
    return dem_kinetic_energy_t_read(&r);
}

double dem_kinetic_energy_r(const dem_system *s)
{
    dem_particle_reader r;
    dem_particle_reader_init(&r, s, NULL, NULL);
    return dem_kinetic_energy_r_read(&r);
}

static int cmp_clump_id(const void *a, const void *b)
{
    uint64_t x = ((const dem_clump *)a)->id, y = ((const dem_clump *)b)->id;
    return x < y ? -1 : x > y;
}

/* A copy of the frame's clumps sorted by id, for clump_find (free it); NULL if out of memory. */
static dem_clump *clumps_by_id(const dem_system *s)
{
    dem_clump *sorted = malloc((s->nclumps ? s->nclumps : 1) * sizeof *sorted);
    if (!sorted) return NULL;
    memcpy(sorted, s->clumps, s->nclumps * sizeof *sorted);
    qsort(sorted, s->nclumps, sizeof *sorted, cmp_clump_id);
    return sorted;
}

/* Clump `id` in the copy clumps_by_id made of s's clumps, or NULL (id 0: not a member). */
static const dem_clump *clump_find(const dem_clump *sorted, const dem_system *s, uint64_t id)
{
    dem_clump key = {.id = id};
    return id ? bsearch(&key, sorted, s->nclumps, sizeof *sorted, cmp_clump_id) : NULL;
}

/* Per particle index: 1 for a free sphere; for a clump's member, the clump's union volume (its mass
 * over the members' density) over the sum of its members' sphere volumes, so that the members'
 * spheres count their clump's volume once (their overlaps not twice). */
double *dem_clump_volume_shares(const dem_system *s)
{
    size_t nc = s->nclumps ? s->nclumps : 1;
    double *share = malloc((s->nparticles ? s->nparticles : 1) * sizeof *share);
    double *sum = calloc(nc, sizeof *sum), *rho = calloc(nc, sizeof *rho);
    dem_clump *sorted = clumps_by_id(s);
    if (!share || !sum || !rho || !sorted) {
        free(share);
        share = NULL;
    } else {
        for (size_t k = 0; k < s->nparticles; k++) {
            const dem_particle *p = &s->particles[k];
            const dem_clump *c = clump_find(sorted, s, p->clump);
            if (!c) continue;
            double v = dem_sphere_volume(p->radius);
            sum[c - sorted] += v;
            rho[c - sorted] = p->mass / v;
        }
        for (size_t k = 0; k < s->nparticles; k++) {
            const dem_clump *c = clump_find(sorted, s, s->particles[k].clump);
            size_t q = c ? (size_t)(c - sorted) : 0;
            share[k] = c && rho[q] > 0.0 ? c->mass / rho[q] / sum[q] : 1.0;
        }
    }
    free(rho);
    free(sum);
    free(sorted);
    return share;
}

/* Sum of the sphere volumes, of every particle or (box not NULL) of their parts inside the box; a
 * clump's members share its union volume (dem_clump_volume_shares). */
static double solid_volume(const dem_system *s, const dem_aabb *box)
{
    double v = 0.0, *share = s->nclumps ? dem_clump_volume_shares(s) : NULL;
    if (s->nclumps && !share) return NAN;
    for (size_t k = 0; k < s->nparticles; k++) {
        double vk = box ? dem_sphere_box_volume(s->particles[k].pos, s->particles[k].radius, box->lo, box->hi)
                        : dem_sphere_volume(s->particles[k].radius);
        v += share ? vk * share[k] : vk;
    }
    free(share);
    return v;
}

double dem_solid_fraction(const dem_system *s, const dem_aabb *box, double *volume,
                          dem_volume_source *source)
{
    dem_volume_source src = DEM_VOLUME_NONE;
    double vol = NAN, solid = NAN;
    dem_aabb walls;
    if (s->cell.flags) {
        src = DEM_VOLUME_CELL;
        vol = dem_cell_volume(&s->cell);
        solid = solid_volume(s, NULL);
    } else if (box) {
        src = DEM_VOLUME_BOX;
        vol = dem_aabb_volume(*box);
        solid = solid_volume(s, box);
    } else if (dem_walls_box(s, &walls)) {
        src = DEM_VOLUME_WALLS;
        vol = dem_aabb_volume(walls);
        solid = solid_volume(s, NULL);
    } else if (walls_cylinder_volume(s) != 0.0) {
        src = DEM_VOLUME_CYLINDER;
        vol = walls_cylinder_volume(s);
        solid = solid_volume(s, NULL);
    }
    if (volume) *volume = vol;
    if (source) *source = src;
    return src == DEM_VOLUME_NONE ? NAN : solid / vol;
}

dem_status dem_summarize(const dem_system *s, const dem_aabb *box, unsigned rattler_contacts, dem_summary *out,
                         dem_error *err)
{
    memset(out, 0, sizeof *out);
    out->solid_fraction = dem_solid_fraction(s, box, &out->volume, &out->volume_source);
    dem_id_index ix;
    dem_id_index_init(&ix);
    dem_coordination_stats z;
    dem_status st = dem_id_index_build(&ix, s, err);
    if (!st) st = dem_coordination_measure(s, &ix, out->volume_source == DEM_VOLUME_BOX ? box : NULL, rattler_contacts, &z, err);
    dem_id_index_free(&ix);
    if (st) return st;
    out->particles = z.particles;
    out->contacts = z.contacts;
    out->wall_contacts = z.wall_contacts;
    out->coordination = z.coordination;
    out->coordination_mech = z.coordination_mech;
    out->rattler_fraction = z.rattler_fraction;
    out->vel_mean = dem_mean_velocity(s);
    out->granular_temperature = dem_granular_temperature(s);
    out->ekin_t = dem_kinetic_energy_t(s);
    out->ekin_r = dem_kinetic_energy_r(s);
    out->unbalanced = dem_unbalanced_frame(s);
    return DEM_OK;
}

int dem_container_note(const dem_system *s, dem_volume_source source, double volume, char *buf, size_t size)
{
    buf[0] = 0;
    if (source != DEM_VOLUME_WALLS && source != DEM_VOLUME_CYLINDER) return -1;
    int n = snprintf(buf, size, "%s, %.3g m^3", source == DEM_VOLUME_WALLS ? "the box enclosed by the six walls"
                                                                         : "the cylinder wall between its end planes",
                     volume);
    dem_aabb box;
    if (source != DEM_VOLUME_WALLS || !dem_walls_box(s, &box) || s->nparticles == 0 || n < 0 || (size_t)n >= size) return -1;
    /* the axis along which the particles fill the smallest part of the box, from its lower face */
    int best = -1;
    double best_frac = 0.9, best_top = 0.0;
    for (int a = 0; a < 3; a++) {
        double top = -INFINITY;
        for (size_t k = 0; k < s->nparticles; k++)
            top = fmax(top, dem_v3_get(s->particles[k].pos, a) + s->particles[k].radius);
        double lo = dem_v3_get(box.lo, a), hi = dem_v3_get(box.hi, a);
        double frac = (top - lo) / (hi - lo);
        if (frac < best_frac) {
            best = a;
            best_frac = frac;
            best_top = top;
        }
    }
    if (best < 0) return -1;
    snprintf(buf + n, size - (size_t)n, "; the particles reach %c = %.3g of the box's %.3g to %.3g", "xyz"[best],
             best_top, dem_v3_get(box.lo, best), dem_v3_get(box.hi, best));
    return best;
}

/* ============================== lookup by id ============================== */
void dem_id_index_init(dem_id_index *ix) { memset(ix, 0, sizeof *ix); }

void dem_id_index_free(dem_id_index *ix)
{
    free(ix->slots);
    free(ix->body);
    dem_id_index_init(ix);
}

/* ix->body: each member's offset from its clump's centre of mass, R(q_c) b. */
static dem_status build_body_offsets(dem_id_index *ix, const dem_system *s, dem_error *err)
{
    if (s->nparticles > ix->cap_body) {
        dem_vec3 *p = realloc(ix->body, s->nparticles * sizeof *p);
        if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clump members", s->nparticles);
        ix->body = p;
        ix->cap_body = s->nparticles;
    }
    for (size_t k = 0; k < s->nparticles; k++) ix->body[k] = dem_v3_zero();
    dem_clump *sorted = clumps_by_id(s);
    if (!sorted) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    for (size_t k = 0; k < s->nmembers; k++) {
        const dem_member *m = &s->members[k];
        const dem_clump *c = clump_find(sorted, s, m->clump);
        size_t a = dem_id_index_find(ix, m->id);
        if (c && a != SIZE_MAX) ix->body[a] = dem_rigid_rotate(c->orient, m->body);
    }
    free(sorted);
    return DEM_OK;
}

static int cmp_slot(const void *a, const void *b)
{
    uint64_t x = ((const dem_id_slot *)a)->id, y = ((const dem_id_slot *)b)->id;
    return x < y ? -1 : x > y;
}

dem_status dem_id_index_build(dem_id_index *ix, const dem_system *s, dem_error *err)
{
    dem_particle_reader r;
    dem_particle_reader_init(&r, s, NULL, NULL);
    return dem_id_index_build_read(ix, &r, err);
}

dem_status dem_id_index_build_read(dem_id_index *ix, dem_particle_reader *r, dem_error *err)
{
    const dem_system *s = r->s;
    if (s->nparticles > ix->cap) {
        dem_id_slot *p = realloc(ix->slots, s->nparticles * sizeof *p);
        if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory indexing %zu particle ids", s->nparticles);
        ix->slots = p;
        ix->cap = s->nparticles;
    }
    for (size_t k = 0; k < s->nparticles; k++) {
        ix->slots[k].id = dem_particle_read(r, k, 0)->id;
        ix->slots[k].index = k;
    }
    if (r->st) {
        if (err && r->err && r->err != err) *err = *r->err;
        return r->st;
    }
    ix->n = s->nparticles;
    if (ix->n) qsort(ix->slots, ix->n, sizeof *ix->slots, cmp_slot);
    if (!s->nclumps) {
        free(ix->body);
        ix->body = NULL;
        ix->cap_body = 0;
        return DEM_OK;
    }
    return build_body_offsets(ix, s, err);
}

size_t dem_id_index_find(const dem_id_index *ix, uint64_t id)
{
    dem_id_slot key = {id, 0};
    const dem_id_slot *hit = ix->n ? bsearch(&key, ix->slots, ix->n, sizeof key, cmp_slot) : NULL;
    return hit ? hit->index : SIZE_MAX;
}

static int particle_selected(const dem_system *s, const dem_id_index *ix, const dem_select *sel, uint64_t id)
{
    size_t k = dem_id_index_find(ix, id);
    return k != SIZE_MAX && dem_select_match(sel, &s->particles[k]);
}

int dem_contact_selected(const dem_system *s, const dem_id_index *ix, const dem_select *sel,
                         const dem_contact *c)
{
    if (!sel || sel->kind == DEM_SEL_ALL) return 1;
    if (particle_selected(s, ix, sel, c->i)) return 1;
    return !(c->flags & DEM_CONTACT_WALL) && particle_selected(s, ix, sel, c->j);
}

dem_vec3 dem_contact_partner_pos(const dem_system *s, const dem_id_index *ix, const dem_contact *c)
{
    size_t k = dem_id_index_find(ix, c->j);
    if (k == SIZE_MAX) return dem_v3(NAN, NAN, NAN);
    dem_vec3 x = s->particles[k].pos;
    if (!s->cell.flags) return x;
    dem_vec3 shift = dem_v3((double)c->shift[0], (double)c->shift[1], (double)c->shift[2]);
    return dem_v3_add(x, dem_m3_mulv(s->cell.h, shift));
}

/* ============================== TSV ============================== */
void dem_column_name(char *buf, size_t size, const char *name, const char *unit)
{
    if (!unit || !*unit || strcmp(unit, "-") == 0) {
        snprintf(buf, size, "%s", name);
        return;
    }
    int n = snprintf(buf, size, "%s[", name);
    if (n < 0 || (size_t)n >= size) return;
    for (const char *u = unit; *u && (size_t)n + 2 < size; u++) buf[n++] = *u == ' ' ? '*' : *u;
    buf[n++] = ']';
    buf[n] = 0;
}

void dem_tsv_double(FILE *out, double v)
{
    char buf[DEM_DOUBLE_TEXT_MAX];
    dem_format_double(buf, sizeof buf, v);
    fputs(buf, out);
}

void dem_tsv_field(FILE *out, const dem_field *f, const void *rec)
{
    const uint8_t *v = (const uint8_t *)rec + f->offset;
    switch (f->type) {
    case DEM_FT_U32: { uint32_t x; memcpy(&x, v, 4); fprintf(out, "%" PRIu32, x); return; }
    case DEM_FT_I32: { int32_t x; memcpy(&x, v, 4); fprintf(out, "%" PRId32, x); return; }
    case DEM_FT_U64: { uint64_t x; memcpy(&x, v, 8); fprintf(out, "%" PRIu64, x); return; }
    case DEM_FT_F64: { double x; memcpy(&x, v, 8); dem_tsv_double(out, x); return; }
    case DEM_FT_CHAR32: fprintf(out, "%.32s", (const char *)v); return;
    }
}

dem_status dem_tsv_check(FILE *out, dem_error *err)
{
    if (ferror(out)) return dem_fail(err, DEM_ERR_IO, "write failed: %s", strerror(errno ? errno : EIO));
    return DEM_OK;
}

/* A header cell: tab first unless it opens the line. */
static void head_cell(FILE *out, const char *name, const char *unit, int first)
{
    char col[DEM_COLUMN_NAME_MAX];
    dem_column_name(col, sizeof col, name, unit);
    if (!first) fputc('\t', out);
    fputs(col, out);
}

static void cell_double(FILE *out, double v)
{
    fputc('\t', out);
    dem_tsv_double(out, v);
}

static void cell_uint(FILE *out, uint64_t v) { fprintf(out, "\t%" PRIu64, v); }
static void cell_int(FILE *out, int64_t v) { fprintf(out, "\t%" PRId64, v); }

static void cell_vec(FILE *out, dem_vec3 v)
{
    cell_double(out, v.x);
    cell_double(out, v.y);
    cell_double(out, v.z);
}

static void head_vec(FILE *out, const char *prefix, const char *unit)
{
    static const char *const axis[] = {"x", "y", "z"};
    char name[DEM_COLUMN_NAME_MAX];
    for (int a = 0; a < 3; a++) {
        snprintf(name, sizeof name, "%s%s", prefix, axis[a]);
        head_cell(out, name, unit, 0);
    }
}

void dem_tsv_frame_header(FILE *out) { fputs("frame\tstep\ttime[s]", out); }

void dem_tsv_frame_cells(FILE *out, uint64_t frame, const dem_system *s)
{
    fprintf(out, "%" PRIu64 "\t%" PRIu64 "\t", frame, s->step);
    dem_tsv_double(out, s->time);
}

/* ---- summary ---- */
dem_status dem_tsv_summary_header(FILE *out, dem_error *err)
{
    dem_tsv_frame_header(out);
    fputs("\tparticles\tcontacts\twall_contacts\tcoordination\tsolid_fraction"
          "\tvx_mean[m/s]\tvy_mean[m/s]\tvz_mean[m/s]\tgranular_temperature[m^2/s^2]"
          "\tekin_t[J]\tekin_r[J]\tvolume[m^3]\tcoordination_mech\trattler_fraction\tunbalanced\n", out);
    return dem_tsv_check(out, err);
}

/* A measure that finite inputs made non-finite (the sums of a frame with values near the largest
 * doubles overflow): refused, never printed. nan is printed only where it means "not defined":
 * the solid fraction without a volume, the means of no particle. */
static dem_status check_summary(uint64_t frame, const dem_summary *sum, dem_error *err)
{
    const char *names[] = {"vx_mean", "vy_mean", "vz_mean", "granular_temperature", "ekin_t", "ekin_r", "unbalanced"};
    double v[] = {sum->vel_mean.x, sum->vel_mean.y, sum->vel_mean.z, sum->granular_temperature, sum->ekin_t, sum->ekin_r, sum->unbalanced};
    if (sum->volume_source != DEM_VOLUME_NONE && !(isfinite(sum->volume) && sum->volume > 0.0 && isfinite(sum->solid_fraction)))
        return dem_fail(err, DEM_ERR_VALUE, "frame %llu: the volume the solid fraction refers to is %g m^3: the frame's coordinates are too %s to measure it%s",
                        (unsigned long long)frame, sum->volume, sum->volume == 0.0 ? "small" : "large",
                        sum->volume == 0.0 ? " (the product of its extents underflows)" : "");
    for (size_t k = 0; k < sizeof v / sizeof v[0] && sum->particles; k++)
        if (!isfinite(v[k]))
            return dem_fail(err, DEM_ERR_VALUE, "frame %llu: %s is %g: the frame's values are too large for it to be computed",
                            (unsigned long long)frame, names[k], v[k]);
    return DEM_OK;
}

dem_status dem_tsv_summary_row(FILE *out, uint64_t frame, const dem_system *s, const dem_summary *sum,
                               dem_error *err)
{
    dem_status st = check_summary(frame, sum, err);
    if (st) return st;
    dem_tsv_frame_cells(out, frame, s);
    cell_uint(out, sum->particles);
    cell_uint(out, sum->contacts);
    cell_uint(out, sum->wall_contacts);
    cell_double(out, sum->coordination);
    cell_double(out, sum->solid_fraction);
    cell_vec(out, sum->vel_mean);
    cell_double(out, sum->granular_temperature);
    cell_double(out, sum->ekin_t);
    cell_double(out, sum->ekin_r);
    cell_double(out, sum->volume);
    cell_double(out, sum->coordination_mech);
    cell_double(out, sum->rattler_fraction);
    cell_double(out, sum->unbalanced);
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

/* ---- the walls ---- */
dem_status dem_tsv_walls_header(FILE *out, dem_error *err)
{
    dem_tsv_frame_header(out);
    fputs("\twall", out);
    for (size_t k = 0; k < dem_rec_wall.nfields; k++)
        head_cell(out, dem_rec_wall.fields[k].name, dem_rec_wall.fields[k].unit, 0);
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

dem_status dem_tsv_walls_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err)
{
    for (size_t w = 0; w < s->nwalls; w++) {
        const dem_wall *wl = &s->walls[w];
        dem_tsv_frame_cells(out, frame, s);
        fprintf(out, "\t%zu", w);
        for (size_t k = 0; k < dem_rec_wall.nfields; k++) {
            const dem_field *f = &dem_rec_wall.fields[k];
            fputc('\t', out);
            if (strcmp(f->name, "kind") == 0) /* a name, as dem-stress --walls prints it */
                fputs(wl->kind == DEM_WALL_PLANE ? "plane" : wl->kind == DEM_WALL_CYLINDER ? "cylinder" : "?", out);
            else
                dem_tsv_field(out, f, wl);
        }
        fputc('\n', out);
    }
    return dem_tsv_check(out, err);
}

/* ---- the bonds ---- */
dem_status dem_tsv_bonds_header(FILE *out, dem_error *err)
{
    dem_tsv_frame_header(out);
    for (size_t k = 0; k < dem_rec_bond.nfields; k++)
        head_cell(out, dem_rec_bond.fields[k].name, dem_rec_bond.fields[k].unit, 0);
    fputs("	energy[J]\n", out);
    return dem_tsv_check(out, err);
}

dem_status dem_tsv_bonds_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err)
{
    for (size_t b = 0; b < s->nbonds; b++) {
        const dem_bond *bd = &s->bonds[b];
        dem_tsv_frame_cells(out, frame, s);
        for (size_t k = 0; k < dem_rec_bond.nfields; k++) {
            fputc('\t', out);
            dem_tsv_field(out, &dem_rec_bond.fields[k], bd);
        }
        fputc('\t', out);
        dem_tsv_double(out, 0.5 * bd->kb * bd->delta * bd->delta);
        fputc('\n', out);
    }
    return dem_tsv_check(out, err);
}

/* ---- rigid clumps ---- */
dem_status dem_tsv_clumps_header(FILE *out, dem_error *err)
{
    dem_tsv_frame_header(out);
    for (size_t k = 0; k < dem_rec_clump.nfields; k++)
        head_cell(out, dem_rec_clump.fields[k].name, dem_rec_clump.fields[k].unit, 0);
    fputs("\tmembers\tekin[J]\n", out);
    return dem_tsv_check(out, err);
}

static int cmp_u64_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The members of each clump of s: count[k] for clump k (n log n). */
static dem_status clump_member_counts(const dem_system *s, size_t *count, dem_error *err)
{
    uint64_t *ids = malloc((s->nmembers ? s->nmembers : 1) * sizeof *ids);
    if (!ids) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clump members", s->nmembers);
    for (size_t k = 0; k < s->nmembers; k++) ids[k] = s->members[k].clump;
    qsort(ids, s->nmembers, sizeof *ids, cmp_u64_id);
    for (size_t k = 0; k < s->nclumps; k++) {
        size_t lo = 0, hi = s->nmembers; /* the first id >= the clump's */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ids[mid] < s->clumps[k].id) lo = mid + 1;
            else hi = mid;
        }
        size_t e = lo;
        while (e < s->nmembers && ids[e] == s->clumps[k].id) e++;
        count[k] = e - lo;
    }
    free(ids);
    return DEM_OK;
}

dem_status dem_tsv_clumps_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err)
{
    size_t *count = malloc((s->nclumps ? s->nclumps : 1) * sizeof *count);
    if (!count) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu clumps", s->nclumps);
    dem_status st = clump_member_counts(s, count, err);
    for (size_t c = 0; c < s->nclumps && !st; c++) {
        const dem_clump *cl = &s->clumps[c];
        dem_tsv_frame_cells(out, frame, s);
        for (size_t k = 0; k < dem_rec_clump.nfields; k++) {
            fputc('\t', out);
            dem_tsv_field(out, &dem_rec_clump.fields[k], cl);
        }
        fprintf(out, "\t%zu\t", count[c]);
        dem_tsv_double(out, 0.5 * cl->mass * dem_v3_norm2(cl->vel) + dem_rigid_kinetic(cl->orient, cl->inertia, cl->angmom));
        fputc('\n', out);
    }
    free(count);
    return st ? st : dem_tsv_check(out, err);
}

/* ---- the periodic cell ---- */
dem_status dem_tsv_cell_header(FILE *out, dem_error *err)
{
    dem_tsv_frame_header(out);
    for (size_t k = 0; k < dem_rec_cell.nfields; k++)
        head_cell(out, dem_rec_cell.fields[k].name, dem_rec_cell.fields[k].unit, 0);
    head_cell(out, "volume", "m^3", 0);
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

dem_status dem_tsv_cell_row(FILE *out, uint64_t frame, const dem_system *s, dem_error *err)
{
    if (!s->cell.flags)
        return dem_fail(err, DEM_ERR_VALUE, "frame %llu has no periodic cell (dem-pack --periodic makes one)", (unsigned long long)frame);
    dem_tsv_frame_cells(out, frame, s);
    for (size_t k = 0; k < dem_rec_cell.nfields; k++) {
        fputc('\t', out);
        dem_tsv_field(out, &dem_rec_cell.fields[k], &s->cell);
    }
    cell_double(out, fabs(dem_m3_det(s->cell.h)));
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

/* ---- particles ---- */
static const char *const default_particle_columns[] = {"id", "x", "y", "z", "vx", "vy", "vz",
                                                       "wx", "wy", "wz", "fx", "fy", "fz", "r"};

static int has_column(const dem_particle_columns *c, const dem_field *f)
{
    for (size_t k = 0; k < c->n; k++)
        if (c->fields[k] == f) return 1;
    return 0;
}

static void add_column(dem_particle_columns *c, const dem_field *f)
{
    if (!has_column(c, f) && c->n < DEM_PARTICLE_COLUMNS_MAX) c->fields[c->n++] = f;
}

void dem_particle_columns_default(dem_particle_columns *c)
{
    c->n = 0;
    size_t n = sizeof default_particle_columns / sizeof default_particle_columns[0];
    for (size_t k = 0; k < n; k++) add_column(c, dem_record_field(&dem_rec_particle, default_particle_columns[k]));
}

static dem_status unknown_field(const char *name, size_t len, dem_error *err)
{
    char names[DEM_ERROR_MSG_MAX / 2];
    size_t at = 0;
    names[0] = 0;
    for (size_t k = 0; k < dem_rec_particle.nfields && at < sizeof names; k++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", k ? " " : "", dem_rec_particle.fields[k].name);
    return dem_fail(err, DEM_ERR_ARG, "unknown particle field '%.*s'; fields: %s, or all", (int)len, name, names);
}

dem_status dem_particle_columns_add(dem_particle_columns *c, const char *list, dem_error *err)
{
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char name[DEM_COLUMN_NAME_MAX];
        if (len == 0 || len >= sizeof name)
            return dem_fail(err, DEM_ERR_ARG, "field list '%s': expected names separated by single commas", list);
        memcpy(name, p, len);
        name[len] = 0;
        if (strcmp(name, "all") == 0) {
            for (size_t k = 0; k < dem_rec_particle.nfields; k++) add_column(c, &dem_rec_particle.fields[k]);
        } else {
            const dem_field *f = dem_record_field(&dem_rec_particle, name);
            if (!f) return unknown_field(p, len, err);
            add_column(c, f);
        }
        if (!p[len]) return DEM_OK;
        p += len + 1;
    }
}

dem_status dem_tsv_particles_header(FILE *out, const dem_particle_columns *c, dem_error *err)
{
    dem_tsv_frame_header(out);
    for (size_t k = 0; k < c->n; k++) head_cell(out, c->fields[k]->name, c->fields[k]->unit, 0);
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

dem_status dem_tsv_particles_rows(FILE *out, uint64_t frame, const dem_system *s,
                                  const dem_particle_columns *c, const dem_select *sel, const dem_id_index *order,
                                  dem_error *err)
{
    for (size_t r = 0; r < s->nparticles; r++) {
        const dem_particle *p = &s->particles[order ? order->slots[r].index : r];
        if (sel && !dem_select_match(sel, p)) continue;
        dem_tsv_frame_cells(out, frame, s);
        for (size_t f = 0; f < c->n; f++) {
            fputc('\t', out);
            dem_tsv_field(out, c->fields[f], p);
        }
        fputc('\n', out);
    }
    return dem_tsv_check(out, err);
}

/* ---- contacts ---- */
dem_status dem_tsv_contacts_header(FILE *out, unsigned hist_slots, dem_error *err)
{
    dem_tsv_frame_header(out);
    fputs("\ti\tj\twall\tsx\tsy\tsz\toverlap[m]", out);
    head_vec(out, "n", NULL);
    head_vec(out, "fn", "N");
    head_vec(out, "ft", "N");
    fputs("\tsliding\tdiss_friction[J]\tdiss_damp_n[J]\tdiss_damp_t[J]", out);
    for (unsigned h = 0; h < hist_slots; h++) fprintf(out, "\th%u", h);
    fputc('\n', out);
    return dem_tsv_check(out, err);
}

static void contact_row(FILE *out, uint64_t frame, const dem_system *s, const dem_contact *c, unsigned hist_slots)
{
    dem_tsv_frame_cells(out, frame, s);
    cell_uint(out, c->i);
    cell_uint(out, c->j);
    cell_uint(out, (c->flags & DEM_CONTACT_WALL) ? 1 : 0);
    for (int a = 0; a < 3; a++) cell_int(out, c->shift[a]);
    cell_double(out, c->overlap);
    cell_vec(out, c->normal);
    cell_vec(out, c->fn);
    cell_vec(out, c->ft);
    cell_uint(out, (c->flags & DEM_CONTACT_SLIDING) ? 1 : 0);
    cell_double(out, c->diss_friction);
    cell_double(out, c->diss_damp_n);
    cell_double(out, c->diss_damp_t);
    /* The columns were fixed by the first frame printed: pad or cut to keep every row aligned. */
    for (unsigned h = 0; h < hist_slots; h++) cell_double(out, h < s->hist_slots ? c->hist[h] : NAN);
    fputc('\n', out);
}

dem_status dem_tsv_contacts_rows(FILE *out, uint64_t frame, const dem_system *s, unsigned hist_slots,
                                 const dem_id_index *ix, const dem_select *sel, dem_error *err)
{
    for (size_t k = 0; k < s->ncontacts; k++)
        if (dem_contact_selected(s, ix, sel, &s->contacts[k])) contact_row(out, frame, s, &s->contacts[k], hist_slots);
    return dem_tsv_check(out, err);
}
