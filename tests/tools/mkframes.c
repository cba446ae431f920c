/* mkframes - test helper: write a small, fully known dem stream to stdout with the library.
 *
 * Usage: mkframes [-n FRAMES] [-m open|walls|cell] [-H SLOTS] [-V] [-p N] [-s STEP0]
 *   -n FRAMES  frames to write (default 3)
 *   -m MODE    walls (default): six plane walls bounding [0,1]x[0,1]x[0,2] plus a cylinder, a
 *              particle-wall contact; cell: a sheared periodic cell with det H = 2 and a
 *              contact across the boundary; open: neither walls nor cell
 *   -H SLOTS   contact history slots of frame 0 (default 2)
 *   -V         vary the slots: frame k uses SLOTS, SLOTS-1, SLOTS+1 for k % 3 = 0, 1, 2
 *   -p N       instead of the three hand-made particles, N particles in a row, no contacts
 *   -s STEP0   step of frame 0 (default 0); frame k has step STEP0 + 100 k, time step / 1e5 s
 *   -k KEYS    KEYS parameters meta.k000000, meta.k000001, ... in every frame (issue 29: a
 *              reader quadratic in the keys took 17 s for 40,000)
 *
 * The hand-made frame: particles 1 and 2 (r 0.1 m, glass) touch with overlap 0.005 m, particle
 * 9007199254740993 (2^53 + 1, r 0.2 m, steel, fixed) has a record with particle 2 at overlap
 * -0.01 m; particle 1 touches wall 0 (x = 0) with overlap 0.005 m. The bats tests rely on these
 * numbers: change them together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dem.h"

#define BIG_ID 9007199254740993ull /* 2^53 + 1: not a double, so a test sees any conversion */

struct opts {
    int frames, slots, vary, row, step0, keys;
    const char *mode;
};

static void die(const char *msg)
{
    fprintf(stderr, "mkframes: %s\n", msg);
    exit(2);
}

static void check(dem_status st, const dem_error *err)
{
    if (st) die(err->msg);
}

static void add_particle(dem_system *s, uint64_t id, dem_vec3 pos, double r, uint32_t mat, dem_error *err)
{
    dem_particle p = dem_particle_default();
    p.id = id;
    p.pos = pos;
    p.radius = r;
    p.material = mat;
    dem_sphere_mass(r, s->materials[mat].density, &p.mass, &p.inertia);
    check(dem_system_push_particle(s, &p, err), err);
}

static void add_plane(dem_system *s, dem_vec3 point, dem_vec3 normal, dem_error *err)
{
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.point = point;
    w.normal = normal;
    check(dem_system_push_wall(s, &w, err), err);
}

static void add_walls(dem_system *s, dem_error *err)
{
    add_plane(s, dem_v3(0, 0, 0), dem_v3(1, 0, 0), err); /* wall 0: the one particle 1 touches */
    add_plane(s, dem_v3(1, 0, 0), dem_v3(-1, 0, 0), err);
    add_plane(s, dem_v3(0, 0, 0), dem_v3(0, 1, 0), err);
    add_plane(s, dem_v3(0, 1, 0), dem_v3(0, -1, 0), err);
    add_plane(s, dem_v3(0, 0, 0), dem_v3(0, 0, 1), err);
    add_plane(s, dem_v3(0, 0, 2), dem_v3(0, 0, -1), err);
    dem_wall cyl; /* ignored by the walls box */
    memset(&cyl, 0, sizeof cyl);
    cyl.kind = DEM_WALL_CYLINDER;
    cyl.point = dem_v3(0.5, 0.5, 0);
    cyl.normal = dem_v3(0, 0, 1);
    cyl.radius = 5;
    check(dem_system_push_wall(s, &cyl, err), err);
}

static void add_cell(dem_system *s)
{
    s->cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
    s->cell.h = dem_m3_diag(1, 1, 2);
    s->cell.h.m[0][1] = 0.25; /* sheared: the volume is still det H = 2 */
}

static dem_contact contact(uint64_t i, uint64_t j, double overlap, unsigned slots)
{
    dem_contact c;
    memset(&c, 0, sizeof c);
    c.i = i;
    c.j = j;
    c.overlap = overlap;
    c.normal = dem_v3(1, 0, 0);
    for (unsigned h = 0; h < slots; h++) c.hist[h] = 0.1 * (h + 1);
    return c;
}

static void hand_made(dem_system *s, const struct opts *o, unsigned slots, dem_error *err)
{
    add_particle(s, 1, dem_v3(0.095, 0.5, 0.5), 0.1, 0, err);
    add_particle(s, 2, dem_v3(0.285, 0.5, 0.5), 0.1, 0, err);
    add_particle(s, BIG_ID, dem_v3(0.595, 0.5, 0.5), 0.2, 1, err);
    dem_particle *p = s->particles;
    p[0].vel = dem_v3(1, 0, 0);
    p[0].omega = dem_v3(0, 0, 2);
    p[0].force = dem_v3(0.5, 0, -1);
    p[1].vel = dem_v3(-0.1, 2.5e-05, 1e-3);
    p[1].force = dem_v3(-0.5, 0, -1);
    p[2].flags = DEM_PARTICLE_FIXED;
    p[2].group = 2;
    p[2].orient = (dem_quat){0, 1, 0, 0};
    p[2].torque = dem_v3(0, 0, 0.25);

    dem_contact c = contact(2, 1, 0.005, slots);
    c.flags = DEM_CONTACT_SLIDING;
    c.fn = dem_v3(1.5, 0, 0);
    c.ft = dem_v3(0, 0.25, 0);
    c.diss_friction = 1e-3;
    c.diss_damp_n = 2e-3;
    c.diss_damp_t = 3e-3;
    check(dem_system_push_contact(s, &c, err), err);
    c = contact(BIG_ID, 2, -0.01, slots);
    check(dem_system_push_contact(s, &c, err), err);
    if (strcmp(o->mode, "walls") == 0) {
        c = contact(1, 0, 0.005, slots);
        c.flags = DEM_CONTACT_WALL;
        c.fn = dem_v3(2, 0, 0);
        check(dem_system_push_contact(s, &c, err), err);
    } else if (strcmp(o->mode, "cell") == 0) {
        p[2].image[0] = 1;
        p[2].image[1] = -1;
        c = contact(1, BIG_ID, -0.2, slots); /* particle 3's image at x - 1 */
        c.shift[0] = -1;
        check(dem_system_push_contact(s, &c, err), err);
    }
}

static void row(dem_system *s, int n, dem_error *err)
{
    for (int k = 0; k < n; k++) {
        add_particle(s, (uint64_t)k + 1, dem_v3(0.05 + 0.1 * k, 0.5, 0.5), 0.04, 0, err);
        s->particles[k].vel = dem_v3(0, 0, -0.01 * k);
    }
}

static unsigned slots_of_frame(const struct opts *o, int k)
{
    int v = o->slots;
    if (o->vary) v += (k % 3 == 1) ? -1 : (k % 3 == 2) ? 1 : 0;
    return v < 0 ? 0 : v > DEM_HIST_MAX ? DEM_HIST_MAX : (unsigned)v;
}

static void build_frame(dem_system *s, const struct opts *o, int k, dem_error *err)
{
    dem_system_clear(s);
    s->step = (uint64_t)(o->step0 + 100 * k);
    s->time = (double)s->step / 1e5;
    s->dt = 1e-5;
    dem_material glass = dem_material_default(), steel = dem_material_default();
    strcpy(steel.name, "steel");
    steel.density = 7800;
    check(dem_system_push_material(s, &glass, err), err);
    check(dem_system_push_material(s, &steel, err), err);
    if (strcmp(o->mode, "walls") == 0) add_walls(s, err);
    else if (strcmp(o->mode, "cell") == 0) add_cell(s);
    else if (strcmp(o->mode, "open") != 0) die("-m: expected open, walls or cell");
    s->hist_slots = o->row >= 0 ? 0 : slots_of_frame(o, k);
    if (o->row >= 0) row(s, o->row, err);
    else hand_made(s, o, s->hist_slots, err);
    s->energy[DEM_E_DISS_FRICTION] = 1e-3 * k;
    for (int n = 0; n < o->keys; n++) {
        dem_param p;
        memset(&p, 0, sizeof p);
        snprintf(p.key, sizeof p.key, "meta.k%06d", n);
        p.type = DEM_PARAM_F64;
        p.count = 1;
        p.v.f[0] = n;
        check(dem_param_append(s, &p, err), err);
    }
}

int main(int argc, char **argv)
{
    struct opts o = {3, 2, 0, -1, 0, 0, "walls"};
    int c;
    while ((c = getopt(argc, argv, "n:m:H:Vp:s:k:")) != -1) {
        switch (c) {
        case 'n': o.frames = atoi(optarg); break;
        case 'm': o.mode = optarg; break;
        case 'H': o.slots = atoi(optarg); break;
        case 'V': o.vary = 1; break;
        case 'p': o.row = atoi(optarg); break;
        case 's': o.step0 = atoi(optarg); break;
        case 'k': o.keys = atoi(optarg); break;
        default: die("usage: mkframes [-n FRAMES] [-m open|walls|cell] [-H SLOTS] [-V] [-p N] [-s STEP0] [-k KEYS]");
        }
    }
    dem_error err;
    dem_writer *w = dem_writer_new(stdout, 1, &err);
    if (!w) die(err.msg);
    dem_system s;
    dem_system_init(&s);
    for (int k = 0; k < o.frames; k++) {
        build_frame(&s, &o, k, &err);
        check(dem_system_check(&s, &err), &err);
        check(dem_writer_put(w, &s, &err), &err);
    }
    check(dem_writer_finish(w, &err), &err); /* the end-of-stream marker */
    dem_writer_free(w);
    dem_system_free(&s);
    return 0;
}
