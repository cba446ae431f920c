/* mkcorrupt - write the corrupt-input corpus of tests/corrupt/ (one file per failure class of
 * formats/dem-stream.md section 6). Usage: mkcorrupt DIR, or mkcorrupt --valid FILE for a valid
 * two-frame stream (the fuzzer's seed)
 * The corpus is committed together with the message each file must produce (NAME.expected);
 * tests/bats/corrupt.bats checks both, and that this program still writes the same bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/gz.h"
#include "dem.h"

/* the corpus pushes records the checks would refuse: a status is not wanted here */
#define IGNORE_STATUS(x) do { if (x) {} } while (0)

static const char *dir;

static void save(const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dem", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* A small valid system: 4 particles, 2 contacts, one wall. */
static void base_system(dem_system *s)
{
    dem_error err;
    dem_system_init(s);
    s->dt = 1e-6;
    dem_material m = dem_material_default();
    IGNORE_STATUS(dem_system_push_material(s, &m, &err));
    dem_wall w = {0};
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    IGNORE_STATUS(dem_system_push_wall(s, &w, &err));
    for (int k = 0; k < 4; k++) {
        dem_particle p = dem_particle_default();
        p.id = (uint64_t)k + 1;
        p.radius = 1e-3;
        dem_sphere_mass(p.radius, m.density, &p.mass, &p.inertia);
        p.pos = dem_v3(2e-3 * k, 0, 1e-3);
        IGNORE_STATUS(dem_system_push_particle(s, &p, &err));
    }
    s->hist_slots = 3;
    dem_contact c = {0};
    c.i = 2;
    c.j = 1;
    c.normal = dem_v3(1, 0, 0);
    IGNORE_STATUS(dem_system_push_contact(s, &c, &err));
    c.i = 3;
    c.j = 0;
    c.flags = DEM_CONTACT_WALL;
    c.normal = dem_v3(0, 0, 1);
    IGNORE_STATUS(dem_system_push_contact(s, &c, &err));
}

static bytes encode(const dem_system *s, int nframes)
{
    char *buf = NULL;
    size_t len = 0;
    dem_error err;
    FILE *f = open_memstream(&buf, &len);
    dem_writer *w = dem_writer_new(f, 6, &err);
    for (int k = 0; k < nframes; k++) IGNORE_STATUS(dem_writer_put(w, s, &err));
    dem_writer_free(w);
    fclose(f);
    bytes b = {(uint8_t *)buf, len};
    return b;
}

static void save_system(const char *name, const dem_system *s)
{
    bytes b = encode(s, 1);
    save(name, b.p, b.n);
    free(b.p);
}

static void save_payload(const char *name, const bytes *pl)
{
    bytes g = gz_member(pl->p, pl->n);
    save(name, g.p, g.n);
    free(g.p);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--valid") == 0) { /* a valid 2-frame seed for the fuzzer */
        dem_system v;
        base_system(&v);
        bytes b = encode(&v, 2);
        FILE *f = fopen(argv[2], "wb");
        if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f)) return 1;
        free(b.p);
        dem_system_free(&v);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: mkcorrupt DIR | mkcorrupt --valid FILE\n");
        return 2;
    }
    dir = argv[1];
    dem_system s;
    base_system(&s);
    bytes one = encode(&s, 1), three = encode(&s, 3), pl = gz_payload(one.p, one.n);

    save("empty", (const uint8_t *)"", 0);
    const char *tsv = "x\ty\tz\tr\n0\t0\t0\t0.001\n";
    save("not-gzip", (const uint8_t *)tsv, strlen(tsv));
    const char *txt = "this gzip member holds text, not a dem frame\n";
    bytes g = gz_member((const uint8_t *)txt, strlen(txt));
    save("wrong-magic", g.p, g.n);
    free(g.p);
    g = gz_member((const uint8_t *)"DEM", 3);
    save("short-member", g.p, g.n);
    free(g.p);

    bytes v = {0, 0};
    bytes_add(&v, pl.p, pl.n);
    v.p[8] = 2; /* major version 2 */
    save_payload("major-version", &v);
    free(v.p);

    save("truncated-member", one.p, one.n / 2);
    save("truncated-after-2-frames", three.p, 2 * one.n + one.n / 2);
    save("truncated-gzip-trailer", one.p, one.n - 3);

    v.p = malloc(one.n);
    v.n = one.n;
    memcpy(v.p, one.p, one.n);
    v.p[one.n - 8] ^= 0x01; /* first byte of the CRC-32 */
    save("crc-mismatch", v.p, v.n);
    memcpy(v.p, one.p, one.n);
    v.p[one.n - 4] ^= 0x01; /* ISIZE */
    save("length-mismatch", v.p, v.n);
    memcpy(v.p, one.p, one.n);
    v.p[10] = 0xff; /* first deflate block header: reserved block type */
    save("deflate-error", v.p, v.n);
    free(v.p);

    /* Trailing bytes that are not a frame. */
    v.p = NULL;
    v.n = 0;
    bytes_add(&v, one.p, one.n);
    bytes_add(&v, "garbage\n", 8);
    save("trailing-garbage", v.p, v.n);
    free(v.p);

    /* Structure: a section length that disagrees with its records. */
    v.p = NULL;
    v.n = 0;
    bytes_add(&v, pl.p, pl.n);
    size_t part = payload_section(&v, "PART");
    dem_put_u64(v.p + part + 16, 5); /* count 5, but 4 records follow */
    save_payload("section-length", &v);
    dem_put_u64(v.p + part + 16, 4);
    memcpy(v.p + part, "PARX", 4);
    save_payload("unknown-required-section", &v);
    memcpy(v.p + part, "PART", 4);
    bytes_add(&v, "XY", 2); /* after END */
    save_payload("bytes-after-end", &v);
    free(v.p);

    /* Impossible values. */
    s.particles[2].radius = -1e-3;
    save_system("negative-radius", &s);
    s.particles[2].radius = 1e-3;
    s.particles[1].mass = -1;
    save_system("negative-mass", &s);
    s.particles[1].mass = s.particles[0].mass;
    s.particles[3].pos.z = INFINITY;
    save_system("nonfinite-position", &s);
    s.particles[3].pos.z = NAN;
    save_system("nan-position", &s);
    s.particles[3].pos.z = 1e-3;
    s.contacts[0].j = 99;
    save_system("contact-missing-particle", &s);
    s.contacts[0].j = 1;
    s.contacts[1].j = 5;
    save_system("contact-missing-wall", &s);
    s.contacts[1].j = 0;
    s.particles[3].id = 2;
    save_system("duplicate-id", &s);
    s.particles[3].id = 4;
    s.particles[0].material = 3;
    save_system("material-index", &s);
    s.particles[0].material = 0;
    s.particles[0].orient.w = 0.5;
    save_system("orientation-not-unit", &s);
    s.particles[0].orient.w = 1;
    dem_contact dup = s.contacts[0]; /* the same pair again, named the other way round */
    dup.i = s.contacts[0].j;
    dup.j = s.contacts[0].i;
    dem_error e2;
    IGNORE_STATUS(dem_system_push_contact(&s, &dup, &e2));
    save_system("duplicate-contact", &s);
    s.ncontacts--;
    s.cell.flags = 7;
    s.cell.h = dem_m3_diag(0.01, -0.01, 0.01);
    save_system("cell-left-handed", &s);
    s.cell.h = dem_m3_diag(0.01, 0.01, 0.01);
    s.cell.deform = dem_m3_diag(1.0, 0.0, 1.0); /* format 1.4: F singular */
    save_system("cell-deform-singular", &s);
    s.cell.deform = dem_m3_identity();
    s.cell.flags = 0;
    s.particles[1].clump = 9;
    save_system("missing-clump", &s);
    /* Clumps (format 1.6): particles 1 and 2 in clump 9, each with its member record. */
    dem_clump cl;
    memset(&cl, 0, sizeof cl);
    cl.id = 9;
    cl.mass = 2 * s.particles[1].mass;
    cl.inertia = dem_v3(1e-9, 2e-9, 2e-9);
    cl.orient = dem_quat_identity();
    if (dem_system_push_clump(&s, &cl, &e2)) return 1;
    s.particles[2].clump = 9;
    dem_member mb1 = {s.particles[1].id, 9, dem_v3(-1e-3, 0, 0)}, mb2 = {s.particles[2].id, 9, dem_v3(1e-3, 0, 0)};
    if (dem_system_push_member(&s, &mb1, &e2)) return 1;
    save_system("clump-member-missing", &s); /* particle 2 has no member record */
    if (dem_system_push_member(&s, &mb2, &e2)) return 1;
    s.members[1].clump = 8;
    save_system("clump-member-wrong-clump", &s);
    s.members[1].clump = 9;
    s.members[0].body.y = NAN;
    save_system("clump-member-nonfinite", &s);
    s.members[0].body.y = 0;
    s.particles[2].flags = DEM_PARTICLE_FIXED;
    save_system("clump-member-fixed", &s);
    s.particles[2].flags = 0;
    s.clumps[0].angmom.z = INFINITY;
    save_system("clump-nonfinite-momentum", &s);
    s.clumps[0].angmom.z = 0;
    s.particles[1].clump = s.particles[2].clump = 0;
    s.nmembers = 0;
    save_system("clump-without-members", &s);
    s.nclumps = 0;

    /* A settings key twice. */
    v.p = NULL;
    v.n = 0;
    bytes_add(&v, pl.p, pl.n);
    size_t parm = payload_section(&v, "PARM");
    uint8_t entry[2 + 1 + 2 + 8] = {1, 0, 'k', 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    bytes two = {0, 0};
    bytes_add(&two, v.p, parm);
    uint8_t hdr[32];
    memcpy(hdr, v.p + parm, 32);
    dem_put_u64(hdr + 8, 16 + 2 * sizeof entry);
    dem_put_u64(hdr + 16, 2);
    bytes_add(&two, hdr, 32);
    bytes_add(&two, entry, sizeof entry);
    bytes_add(&two, entry, sizeof entry);
    uint64_t old_len = dem_get_u64(v.p + parm + 8);
    bytes_add(&two, v.p + parm + 16 + old_len, v.n - parm - 16 - old_len);
    save_payload("duplicate-setting", &two);
    free(two.p);
    free(v.p);

    free(one.p);
    free(three.p);
    free(pl.p);
    dem_system_free(&s);
    return 0;
}
