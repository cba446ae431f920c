/* lammps_dump.c - frames as a LAMMPS text dump (lammps_dump.h). */
#include "analysis/lammps_dump.h"

#include <inttypes.h>
#include <math.h>

#include "core/text.h"

static void num(FILE *out, double v, char sep)
{
    char buf[DEM_DOUBLE_TEXT_MAX];
    dem_format_double(buf, sizeof buf, v + 0.0); /* + 0.0: no -0 */
    fputs(buf, out);
    fputc(sep, out);
}

/* Two or three numbers separated by spaces, then end. */
static void pair(FILE *out, double a, double b, char end)
{
    num(out, a, ' ');
    num(out, b, end);
}

static void triple(FILE *out, double a, double b, double c, char end)
{
    num(out, a, ' ');
    pair(out, b, c, end);
}

/* The box in LAMMPS' restricted triclinic form and the rotation onto it: rows of q are the unit
 * vectors of LAMMPS' x, y, z in dem's frame (Gram-Schmidt on the cell vectors a, b, c). */
typedef struct {
    double lx, ly, lz, xy, xz, yz;
    dem_vec3 q[3];
    dem_vec3 origin;
    int rect; /* the cell is rectangular and aligned: no rotation, no tilts */
} lammps_box;

static dem_status cell_box(const dem_cell *c, lammps_box *b, dem_error *err)
{
    dem_vec3 a = dem_m3_col(c->h, 0), bb = dem_m3_col(c->h, 1), cc = dem_m3_col(c->h, 2);
    b->origin = c->origin;
    b->lx = dem_v3_norm(a);
    if (!(b->lx > 0.0)) return dem_fail(err, DEM_ERR_VALUE, "the cell vector a has no length");
    b->q[0] = dem_v3_scale(a, 1.0 / b->lx);
    b->xy = dem_v3_dot(bb, b->q[0]);
    dem_vec3 by = dem_v3_madd(bb, b->q[0], -b->xy);
    b->ly = dem_v3_norm(by);
    if (!(b->ly > 0.0)) return dem_fail(err, DEM_ERR_VALUE, "the cell vectors a and b are parallel");
    b->q[1] = dem_v3_scale(by, 1.0 / b->ly);
    b->q[2] = dem_v3_cross(b->q[0], b->q[1]);
    b->xz = dem_v3_dot(cc, b->q[0]);
    b->yz = dem_v3_dot(cc, b->q[1]);
    b->lz = dem_v3_dot(cc, b->q[2]);
    if (!(b->lz > 0.0)) return dem_fail(err, DEM_ERR_VALUE, "the cell is left-handed or flat (LAMMPS needs a right-handed box)");
    const dem_mat3 *h = &c->h;
    b->rect = h->m[1][0] == 0.0 && h->m[2][0] == 0.0 && h->m[0][1] == 0.0 && h->m[2][1] == 0.0 && h->m[0][2] == 0.0 &&
              h->m[1][2] == 0.0 && h->m[0][0] > 0.0 && h->m[1][1] > 0.0 && h->m[2][2] > 0.0;
    if (b->rect) { /* exactly the cell's numbers: no rounding through the rotation */
        b->lx = h->m[0][0], b->ly = h->m[1][1], b->lz = h->m[2][2];
        b->xy = b->xz = b->yz = 0.0;
    }
    return DEM_OK;
}

static dem_vec3 turn(const lammps_box *b, dem_vec3 v)
{
    if (b->rect) return v;
    return dem_v3(dem_v3_dot(b->q[0], v), dem_v3_dot(b->q[1], v), dem_v3_dot(b->q[2], v));
}

static dem_vec3 place(const lammps_box *b, dem_vec3 x)
{
    if (b->rect) return x;
    return dem_v3_add(b->origin, turn(b, dem_v3_sub(x, b->origin)));
}

/* The selected particles' bounding box (lo > hi: none selected). */
static void particle_box(const dem_system *s, const dem_select *sel, dem_vec3 *lo, dem_vec3 *hi)
{
    *lo = dem_v3(INFINITY, INFINITY, INFINITY);
    *hi = dem_v3(-INFINITY, -INFINITY, -INFINITY);
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        if (sel && !dem_select_match(sel, p)) continue;
        *lo = dem_v3(fmin(lo->x, p->pos.x - p->radius), fmin(lo->y, p->pos.y - p->radius), fmin(lo->z, p->pos.z - p->radius));
        *hi = dem_v3(fmax(hi->x, p->pos.x + p->radius), fmax(hi->y, p->pos.y + p->radius), fmax(hi->z, p->pos.z + p->radius));
    }
}

/* The axis (0, 1, 2) a unit vector lies along, or -1. */
static int axis_of(dem_vec3 n)
{
    for (int k = 0; k < 3; k++)
        if (fabs(dem_v3_get(n, k)) >= 1.0 - 1e-12) return k;
    return -1;
}

/* The container of the walls, side by side: a plane whose normal lies along an axis bounds that
 * side (the innermost of several), a cylinder holding the particles inside bounds the two axes
 * across its own; a side no wall bounds stays open (+-inf). Planes at an angle, and cylinders
 * the particles are outside, bound nothing. */
static void wall_box(const dem_system *s, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) lo[k] = -INFINITY, hi[k] = INFINITY;
    for (size_t w = 0; w < s->nwalls; w++) {
        const dem_wall *wl = &s->walls[w];
        int k = axis_of(wl->normal);
        if (k < 0) continue;
        double at = dem_v3_get(wl->point, k);
        if (wl->kind == DEM_WALL_PLANE) {
            if (dem_v3_get(wl->normal, k) > 0.0) lo[k] = fmax(lo[k], at);
            else hi[k] = fmin(hi[k], at);
        } else if (wl->kind == DEM_WALL_CYLINDER && !(wl->flags & DEM_WALL_OUTSIDE)) {
            for (int j = 0; j < 3; j++) {
                if (j == k) continue;
                lo[j] = fmax(lo[j], dem_v3_get(wl->point, j) - wl->radius);
                hi[j] = fmin(hi[j], dem_v3_get(wl->point, j) + wl->radius);
            }
        }
    }
}

static void write_box(FILE *out, const dem_system *s, const dem_select *sel, const lammps_box *b, int cell, dem_lammps_bounds bounds)
{
    static const char *const pf[2] = {"ff", "pp"};
    if (!cell) { /* the walls' container where they bound a side, the particles' extent elsewhere */
        dem_vec3 plo, phi;
        particle_box(s, sel, &plo, &phi);
        double lo[3], hi[3];
        wall_box(s, lo, hi);
        int any = plo.x <= phi.x;
        for (int k = 0; k < 3; k++) {
            if (bounds == DEM_LAMMPS_BOUNDS_PARTICLES || !(lo[k] < hi[k])) lo[k] = -INFINITY, hi[k] = INFINITY;
            /* an open side: the particles' extent; every selected particle inside the box (LAMMPS'
             * read_dump drops atoms outside a fixed box) */
            if (any) {
                lo[k] = isfinite(lo[k]) ? fmin(lo[k], dem_v3_get(plo, k)) : dem_v3_get(plo, k);
                hi[k] = isfinite(hi[k]) ? fmax(hi[k], dem_v3_get(phi, k)) : dem_v3_get(phi, k);
            } else if (!(isfinite(lo[k]) && isfinite(hi[k]))) {
                lo[k] = hi[k] = 0.0; /* nothing to bound */
            }
        }
        fputs("ITEM: BOX BOUNDS ff ff ff\n", out);
        for (int k = 0; k < 3; k++) pair(out, lo[k], hi[k], '\n');
        return;
    }
    uint32_t f = s->cell.flags;
    const char *pa = pf[(f & DEM_CELL_PERIODIC_A) != 0], *pb = pf[(f & DEM_CELL_PERIODIC_B) != 0], *pc = pf[(f & DEM_CELL_PERIODIC_C) != 0];
    dem_vec3 o = b->origin;
    if (b->rect) {
        fprintf(out, "ITEM: BOX BOUNDS %s %s %s\n", pa, pb, pc);
        pair(out, o.x, o.x + b->lx, '\n');
        pair(out, o.y, o.y + b->ly, '\n');
        pair(out, o.z, o.z + b->lz, '\n');
        return;
    }
    /* the bounding box of the tilted box, with the tilts (LAMMPS' dump convention) */
    double xlo = o.x + fmin(fmin(0.0, b->xy), fmin(b->xz, b->xy + b->xz));
    double xhi = o.x + b->lx + fmax(fmax(0.0, b->xy), fmax(b->xz, b->xy + b->xz));
    double ylo = o.y + fmin(0.0, b->yz), yhi = o.y + b->ly + fmax(0.0, b->yz);
    fprintf(out, "ITEM: BOX BOUNDS xy xz yz %s %s %s\n", pa, pb, pc);
    triple(out, xlo, xhi, b->xy, '\n');
    triple(out, ylo, yhi, b->xz, '\n');
    triple(out, o.z, o.z + b->lz, b->yz, '\n');
}

dem_status dem_lammps_dump_frame(FILE *out, const dem_system *s, const dem_select *sel, const dem_id_index *order,
                                 dem_lammps_bounds bounds, dem_error *err)
{
    int cell = s->cell.flags != 0;
    lammps_box b;
    b.rect = 1;
    b.origin = dem_v3_zero();
    if (cell) {
        dem_status st = cell_box(&s->cell, &b, err);
        if (st) return st;
    }
    size_t n = 0;
    for (size_t k = 0; k < s->nparticles; k++)
        if (!sel || dem_select_match(sel, &s->particles[k])) n++;
    fprintf(out, "ITEM: TIMESTEP\n%" PRIu64 "\nITEM: NUMBER OF ATOMS\n%zu\n", s->step, n);
    write_box(out, s, sel, &b, cell, bounds);
    fprintf(out, "ITEM: ATOMS id type mass radius x y z vx vy vz omegax omegay omegaz fx fy fz%s\n", cell ? " ix iy iz" : "");
    for (size_t r = 0; r < s->nparticles; r++) {
        const dem_particle *p = &s->particles[order ? order->slots[r].index : r];
        if (sel && !dem_select_match(sel, p)) continue;
        dem_vec3 x = place(&b, p->pos), v = turn(&b, p->vel), w = turn(&b, p->omega), f = turn(&b, p->force);
        fprintf(out, "%" PRIu64 " %" PRIu32 " ", p->id, p->material + 1);
        pair(out, p->mass, p->radius, ' ');
        triple(out, x.x, x.y, x.z, ' ');
        triple(out, v.x, v.y, v.z, ' ');
        triple(out, w.x, w.y, w.z, ' ');
        triple(out, f.x, f.y, f.z, cell ? ' ' : '\n');
        if (cell) fprintf(out, "%" PRId32 " %" PRId32 " %" PRId32 "\n", p->image[0], p->image[1], p->image[2]);
    }
    return dem_tsv_check(out, err);
}
