/* test_codec.c - the stream codec: scalar encodings, every record type and a whole frame round
 * trip bit for bit; forward compatibility (larger records, unknown sections, newer minor
 * versions); every failure class with its message. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "gz.h"
#include "unit.h"

static const double specials[] = {0.0, -0.0, 1.0, -1.0, M_PI, 0.1, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
                                  DBL_MIN / 3.0, DBL_MAX, -DBL_MAX, DBL_EPSILON, 1e-300, -2.5e-310};

static void test_scalars(void)
{
    uint8_t b[8];
    dem_put_u64(b, 0x0102030405060708ull);
    CHECK(b[0] == 0x08 && b[7] == 0x01);
    CHECK(dem_get_u64(b) == 0x0102030405060708ull);
    dem_put_u32(b, 0xdeadbeefu);
    CHECK(b[0] == 0xef && b[3] == 0xde && dem_get_u32(b) == 0xdeadbeefu);
    dem_put_i32(b, -2);
    CHECK(b[0] == 0xfe && b[3] == 0xff && dem_get_i32(b) == -2);
    dem_put_u16(b, 0xabcd);
    CHECK(b[0] == 0xcd && dem_get_u16(b) == 0xabcd);
    dem_put_i64(b, INT64_MIN);
    CHECK(dem_get_i64(b) == INT64_MIN);
    /* 1.0 is 0x3ff0000000000000: the last byte carries the sign and exponent. */
    dem_put_f64(b, 1.0);
    CHECK(b[7] == 0x3f && b[6] == 0xf0 && b[0] == 0);
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
        dem_put_f64(b, specials[k]);
        CHECK_MSG(same_bits(dem_get_f64(b), specials[k]), "value %a", specials[k]);
    }
    double inf = INFINITY, nan_payload;
    uint64_t bits = 0x7ff8000000012345ull;
    memcpy(&nan_payload, &bits, 8);
    dem_put_f64(b, inf);
    CHECK(same_bits(dem_get_f64(b), inf));
    dem_put_f64(b, -inf);
    CHECK(same_bits(dem_get_f64(b), -inf));
    dem_put_f64(b, nan_payload);
    CHECK(same_bits(dem_get_f64(b), nan_payload));
}

/* Fill every field of a record with a distinct bit pattern drawn from seed. */
static void fill_record(const dem_record_type *rt, void *rec, uint64_t seed)
{
    for (size_t k = 0; k < rt->nfields; k++) {
        const dem_field *f = &rt->fields[k];
        uint8_t *v = (uint8_t *)rec + f->offset;
        uint64_t x = seed * 0x9e3779b97f4a7c15ull + k * 0xbf58476d1ce4e5b9ull;
        x ^= x >> 31;
        if (f->type == DEM_FT_CHAR32) {
            memset(v, 0, 32);
            snprintf((char *)v, 32, "name-%llu", (unsigned long long)(x % 1000));
        } else if (f->type == DEM_FT_F64) {
            double d = specials[x % (sizeof specials / sizeof specials[0])] * (1 + (double)(k % 7));
            memcpy(v, &d, 8);
        } else {
            memcpy(v, &x, dem_ftype_size(f->type));
        }
    }
}

static int record_equal(const dem_record_type *rt, const void *a, const void *b)
{
    for (size_t k = 0; k < rt->nfields; k++) {
        const dem_field *f = &rt->fields[k];
        if (memcmp((const uint8_t *)a + f->offset, (const uint8_t *)b + f->offset, dem_ftype_size(f->type)) != 0) {
            fprintf(stderr, "  %s.%s differs\n", rt->name, f->name);
            return 0;
        }
    }
    return 1;
}

static void test_records(void)
{
    const dem_record_type *all[] = {&dem_rec_head, &dem_rec_material, &dem_rec_wall, &dem_rec_cell,
                                    &dem_rec_clump, &dem_rec_particle, &dem_rec_contact, &dem_rec_energy,
                                    &dem_rec_member};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        const dem_record_type *rt = all[k];
        /* format 1.1 appended e_initial, e_ahead to ENRG; 1.2 work_law; 1.4 F to CELL; 1.6 L to CLMP */
        unsigned appended = rt == &dem_rec_energy ? 24 : rt == &dem_rec_cell ? 72 : rt == &dem_rec_clump ? 24 : 0;
        CHECK_MSG(rt->base_size + appended == dem_record_size(rt), "%s: base %u, size %u", rt->tag, rt->base_size, dem_record_size(rt));
        void *a = calloc(1, rt->struct_size), *b = calloc(1, rt->struct_size);
        uint8_t *buf = calloc(1, dem_record_size(rt) + 8);
        for (uint64_t seed = 1; seed <= 20; seed++) {
            fill_record(rt, a, seed);
            memset(b, 0xa5, rt->struct_size);
            dem_record_encode(rt, a, buf);
            dem_record_decode(rt, buf, dem_record_size(rt), b);
            CHECK_MSG(record_equal(rt, a, b), "%s seed %llu", rt->tag, (unsigned long long)seed);
        }
        /* A record from an older writer (shorter) leaves the later fields untouched. */
        memset(b, 0, rt->struct_size);
        dem_record_decode(rt, buf, 0, b);
        uint8_t *zero = calloc(1, rt->struct_size);
        CHECK(memcmp(b, zero, rt->struct_size) == 0);
        free(zero);
        free(a);
        free(b);
        free(buf);
        for (size_t f = 0; f < rt->nfields; f++) CHECK(dem_record_field(rt, rt->fields[f].name) == &rt->fields[f]);
    }
    CHECK(dem_record_field(&dem_rec_particle, "nonsense") == NULL);
}

/* A valid system using every section, with extreme (but physically possible) values. */
static void make_system(dem_system *s)
{
    dem_error err;
    dem_system_init(s);
    s->step = 0xffffffffffffull;
    s->time = 1.0 / 3.0;
    s->dt = DBL_TRUE_MIN;
    dem_material m = dem_material_default();
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    strcpy(m.name, "glass \xc3\xa9"); /* UTF-8 */
    m.friction = -0.0;
    m.surface_energy = DBL_MAX;
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    dem_wall w;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.normal = dem_v3(0, 0, 1);
    w.vel = dem_v3(-0.0, DBL_TRUE_MIN, -DBL_MAX);
    w.work = -1e-300;
    CHECK(dem_system_push_wall(s, &w, &err) == DEM_OK);
    w.kind = DEM_WALL_CYLINDER;
    w.material = 1;
    w.radius = 0.25;
    w.flags = DEM_WALL_OUTSIDE;
    CHECK(dem_system_push_wall(s, &w, &err) == DEM_OK);
    s->cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_C;
    s->cell.h = dem_m3_diag(1, 2, 3);
    s->cell.h.m[0][1] = 0.125;
    s->cell.vgrad.m[0][1] = 1e-3;
    s->cell.stress_mask = 7;
    s->cell.target_stress = dem_m3_diag(1e5, 1e5, 2e5);
    s->cell.deform = dem_m3_diag(1.0, 0.75, 1.25);
    s->cell.deform.m[0][1] = 0.5;
    dem_clump c;
    memset(&c, 0, sizeof c);
    c.id = 7;
    c.mass = 1;
    c.inertia = dem_v3(1e-3, 2e-3, 3e-3);
    c.orient = dem_quat_identity();
    c.angmom = dem_v3(0.0, -0.0, 1e-300);
    CHECK(dem_system_push_clump(s, &c, &err) == DEM_OK);
    for (uint64_t k = 0; k < 300; k++) {
        dem_particle p = dem_particle_default();
        p.id = 1000 - 3 * k;
        p.radius = 1e-3 * (1 + k % 5);
        dem_sphere_mass(p.radius, 2500, &p.mass, &p.inertia);
        p.pos = dem_v3(specials[k % 15], -specials[(k + 3) % 15], (double)k);
        p.vel = dem_v3(-0.0, DBL_TRUE_MIN, 1e308);
        p.force = dem_v3(DBL_MAX, -DBL_MAX, 0.1);
        p.material = (uint32_t)(k % 2);
        p.flags = k % 3 == 0 && k % 4 != 0 ? DEM_PARTICLE_FIXED : 0; /* a clump's member is never fixed */
        p.group = 1u << (k % 32);
        p.clump = k % 4 == 0 ? 7 : 0;
        p.image[0] = -(int32_t)k;
        p.image[2] = DEM_IMAGE_MAX; /* the largest image counter a frame may hold (format 1.3) */
        CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
        if (p.clump) {
            dem_member mb = {p.id, p.clump, dem_v3(-0.0, 1e-3 * (double)k, DBL_TRUE_MIN)};
            CHECK(dem_system_push_member(s, &mb, &err) == DEM_OK);
        }
    }
    s->hist_slots = 7;
    for (uint64_t k = 0; k + 1 < 300; k++) {
        dem_contact ct;
        memset(&ct, 0, sizeof ct);
        ct.i = s->particles[k].id;
        ct.j = k % 10 == 0 ? k % 2 : s->particles[k + 1].id;
        ct.flags = k % 10 == 0 ? DEM_CONTACT_WALL : (k % 3 == 0 ? DEM_CONTACT_SLIDING : 0);
        ct.shift[0] = -1;
        ct.shift[2] = 1;
        ct.overlap = 1e-9 * (double)k;
        ct.normal = dem_v3(0, 0, -1);
        ct.fn = dem_v3(-0.0, 0, 1e-320);
        for (int h = 0; h < 7; h++) ct.hist[h] = specials[(k + (uint64_t)h) % 15];
        ct.diss_friction = 1e-15;
        CHECK(dem_system_push_contact(s, &ct, &err) == DEM_OK);
    }
    for (int k = 0; k < DEM_E_COUNT; k++) s->energy[k] = specials[k % 15];
    double g[3] = {0, 0, -9.81}, h9[9] = {1, 2, 3, 4, 5, 6, 7, 8, -0.0};
    CHECK(dem_param_set_f64(s, "gravity", g, 3, &err) == DEM_OK);
    CHECK(dem_param_set_f64(s, "x-matrix", h9, 9, &err) == DEM_OK);
    CHECK(dem_param_set_i64(s, "x-count", INT64_MIN, &err) == DEM_OK);
    CHECK(dem_param_set_str(s, "meta.creator", "test_codec \xe2\x9c\x93", &err) == DEM_OK);
    CHECK(dem_param_set_str(s, "x-empty", "", &err) == DEM_OK);
}

static bytes write_frames(const dem_system *s, int nframes, int level)
{
    bytes b = {0, 0};
    dem_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dem_writer *w = dem_writer_new(f, level, &err);
    for (int k = 0; k < nframes; k++) CHECK(dem_writer_put(w, s, &err) == DEM_OK);
    dem_writer_free(w);
    fclose(f);
    b.p = (uint8_t *)buf;
    b.n = len;
    return b;
}

static int systems_equal(const dem_system *a, const dem_system *b)
{
    int ok = record_equal(&dem_rec_head, a, b) && record_equal(&dem_rec_energy, a, b) &&
             a->nmaterials == b->nmaterials && a->nwalls == b->nwalls && a->nclumps == b->nclumps &&
             a->nparticles == b->nparticles && a->ncontacts == b->ncontacts && a->hist_slots == b->hist_slots &&
             a->nparams == b->nparams && record_equal(&dem_rec_cell, &a->cell, &b->cell) && a->nmembers == b->nmembers;
    for (size_t k = 0; ok && k < a->nmembers; k++) ok = record_equal(&dem_rec_member, &a->members[k], &b->members[k]);
    for (size_t k = 0; ok && k < a->nmaterials; k++) ok = record_equal(&dem_rec_material, &a->materials[k], &b->materials[k]);
    for (size_t k = 0; ok && k < a->nwalls; k++) ok = record_equal(&dem_rec_wall, &a->walls[k], &b->walls[k]);
    for (size_t k = 0; ok && k < a->nclumps; k++) ok = record_equal(&dem_rec_clump, &a->clumps[k], &b->clumps[k]);
    for (size_t k = 0; ok && k < a->nparticles; k++) ok = record_equal(&dem_rec_particle, &a->particles[k], &b->particles[k]);
    for (size_t k = 0; ok && k < a->ncontacts; k++)
        ok = record_equal(&dem_rec_contact, &a->contacts[k], &b->contacts[k]) &&
             memcmp(a->contacts[k].hist, b->contacts[k].hist, a->hist_slots * sizeof(double)) == 0;
    for (size_t k = 0; ok && k < a->nparams; k++) {
        const dem_param *p = &a->params[k], *q = dem_param_get(b, p->key);
        ok = q && p->type == q->type && p->count == q->count && memcmp(&p->v, &q->v, sizeof p->v) == 0;
    }
    return ok;
}

static void test_frame_round_trip(void)
{
    dem_system s, t;
    dem_error err;
    make_system(&s);
    CHECK(dem_system_check(&s, &err) == DEM_OK);
    /* beyond +-2^30 an image counter is refused (a shift of INT32_MIN has no negation) */
    s.particles[0].image[1] = INT32_MIN;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE && strstr(err.msg, "image counter y = -2147483648 is beyond +-2^30"));
    s.particles[0].image[1] = 0;
    dem_system_init(&t);
    for (int level = 0; level <= 9; level += 3) {
        bytes b = write_frames(&s, 2, level);
        dem_reader *r = dem_reader_new_mem(b.p, b.n, &err);
        int st1 = dem_reader_next(r, &t, &err);
        CHECK_MSG(st1 == 1, "level %d: %s", level, err.msg);
        CHECK(systems_equal(&s, &t));
        CHECK(dem_reader_next(r, &t, &err) == 1 && systems_equal(&s, &t));
        CHECK(dem_reader_next(r, &t, &err) == 0);
        CHECK(dem_reader_frames(r) == 2 && dem_reader_offset(r) == b.n);
        dem_reader_free(r);
        free(b.p);
    }
    /* Determinism: the same system gives the same bytes. */
    bytes b1 = write_frames(&s, 1, 1), b2 = write_frames(&s, 1, 1);
    CHECK(b1.n == b2.n && memcmp(b1.p, b2.p, b1.n) == 0);
    /* Re-encoding what was read gives the same bytes again. */
    dem_reader *r = dem_reader_new_mem(b1.p, b1.n, &err);
    CHECK(dem_reader_next(r, &t, &err) == 1);
    bytes b3 = write_frames(&t, 1, 1);
    CHECK(b3.n == b1.n && memcmp(b3.p, b1.p, b1.n) == 0);
    dem_reader_free(r);
    free(b1.p);
    free(b2.p);
    free(b3.p);
    dem_system_free(&s);
    dem_system_free(&t);
}

/* dem_particle_source over a table, with one record that can be spoiled (bad) or a failure (fail). */
typedef struct {
    const dem_particle *p;
    size_t calls, bad, fail;
} table_source;

static dem_status fill_from_table(void *ctx, size_t first, size_t n, dem_particle *out, dem_error *err)
{
    table_source *t = ctx;
    t->calls++;
    for (size_t k = 0; k < n; k++) {
        if (first + k == t->fail) return dem_fail(err, DEM_ERR_IO, "source failed at %zu", first + k);
        out[k] = t->p[first + k];
        if (first + k == t->bad) out[k].radius = NAN;
    }
    return DEM_OK;
}

static bytes write_frame_sourced(const dem_system *s, table_source *t, dem_status *st, dem_error *err)
{
    bytes b = {0, 0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dem_writer *w = dem_writer_new(f, 1, err);
    dem_particle_source src = {s->nparticles, fill_from_table, t};
    dem_system head = *s; /* the writer must not read the frame's own table */
    head.particles = NULL;
    *st = dem_writer_put_sources(w, &head, &src, NULL, err);
    dem_writer_free(w);
    fclose(f);
    b.p = (uint8_t *)buf;
    b.n = len;
    return b;
}

/* Particles from a source: the same bytes as from the frame's table, a batch at a time; a record the
 * source spoils is refused naming it, and a source's failure stops the frame. */
static void test_particle_source(void)
{
    dem_system s;
    dem_error err;
    dem_status st;
    make_system(&s);
    CHECK(s.nparticles > 2 * DEM_PARTICLE_BATCH);
    bytes ref = write_frames(&s, 1, 1);
    table_source t = {s.particles, 0, SIZE_MAX, SIZE_MAX};
    bytes b = write_frame_sourced(&s, &t, &st, &err);
    CHECK_MSG(st == DEM_OK, "%s", err.msg);
    CHECK(b.n == ref.n && memcmp(b.p, ref.p, b.n) == 0);
    CHECK(t.calls == (s.nparticles + DEM_PARTICLE_BATCH - 1) / DEM_PARTICLE_BATCH);
    free(b.p);
    t = (table_source){s.particles, 0, 131, SIZE_MAX};
    b = write_frame_sourced(&s, &t, &st, &err);
    CHECK(st == DEM_ERR_VALUE && strstr(err.msg, "particle record 131 ") && strstr(err.msg, "radius"));
    free(b.p);
    t = (table_source){s.particles, 0, SIZE_MAX, 200};
    b = write_frame_sourced(&s, &t, &st, &err);
    CHECK(st == DEM_ERR_IO && strstr(err.msg, "source failed at 200"));
    free(b.p);
    free(ref.p);
    dem_system_free(&s);
}

/* Read the first frame of data: returns the status, message in err. */
static int read_one(const bytes *data, dem_system *t, dem_error *err)
{
    dem_reader *r = dem_reader_new_mem(data->p, data->n, err);
    int st = dem_reader_next(r, t, err);
    dem_reader_free(r);
    return st;
}

static bytes splice(const bytes *pl, size_t at, size_t cut, const void *ins, size_t n)
{
    bytes out = {0, 0};
    bytes_add(&out, pl->p, at);
    bytes_add(&out, ins, n);
    bytes_add(&out, pl->p + at + cut, pl->n - at - cut);
    return out;
}

static void test_forward_compatibility(void)
{
    dem_system s, t;
    dem_error err;
    make_system(&s);
    dem_system_init(&t);
    bytes frame = write_frames(&s, 1, 1), pl = gz_payload(frame.p, frame.n);

    /* A newer minor version is read. */
    bytes v = splice(&pl, 0, 0, "", 0);
    v.p[10] = 7;
    bytes g = gz_member(v.p, v.n);
    CHECK(read_one(&g, &t, &err) == 1 && systems_equal(&s, &t));
    /* A newer major version is refused by name. */
    v.p[8] = 2;
    v.p[10] = 0;
    free(g.p);
    g = gz_member(v.p, v.n);
    CHECK(read_one(&g, &t, &err) == DEM_ERR_VERSION && strstr(err.msg, "version 2.0 is not supported"));
    free(g.p);
    free(v.p);

    /* An unknown optional section is skipped; an unknown required one is refused. */
    uint8_t sec[16 + 5] = {'X', 'T', 'R', 'A', 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5};
    size_t part = payload_section(&pl, "PART");
    v = splice(&pl, part, 0, sec, sizeof sec);
    g = gz_member(v.p, v.n);
    CHECK(read_one(&g, &t, &err) == 1 && systems_equal(&s, &t));
    free(g.p);
    v.p[part + 4] = 1;
    g = gz_member(v.p, v.n);
    CHECK(read_one(&g, &t, &err) == DEM_ERR_VERSION && strstr(err.msg, "unknown required section 'XTRA'"));
    free(g.p);
    free(v.p);

    /* Particle records with 8 more bytes (fields appended by a newer minor version). */
    bytes wide = {0, 0};
    bytes_add(&wide, pl.p, part);
    uint32_t rs = dem_record_size(&dem_rec_particle);
    uint8_t hdr[32];
    memcpy(hdr, pl.p + part, 32);
    dem_put_u64(hdr + 8, 16 + s.nparticles * (rs + 8));
    dem_put_u32(hdr + 24, rs + 8);
    bytes_add(&wide, hdr, 32);
    for (size_t k = 0; k < s.nparticles; k++) {
        bytes_add(&wide, pl.p + part + 32 + k * rs, rs);
        bytes_add(&wide, "NEWFIELD", 8);
    }
    size_t after = part + 32 + s.nparticles * rs;
    bytes_add(&wide, pl.p + after, pl.n - after);
    g = gz_member(wide.p, wide.n);
    CHECK(read_one(&g, &t, &err) == 1 && systems_equal(&s, &t));
    free(g.p);
    free(wide.p);
    free(pl.p);
    free(frame.p);
    dem_system_free(&s);
    dem_system_free(&t);
}

static void test_stream_failures(void)
{
    dem_system s, t;
    dem_error err;
    make_system(&s);
    dem_system_init(&t);
    bytes empty = {(uint8_t *)"", 0};
    CHECK(read_one(&empty, &t, &err) == DEM_ERR_EMPTY);
    bytes text = {(uint8_t *)"x\ty\tz\tr\n", 8};
    CHECK(read_one(&text, &t, &err) == DEM_ERR_NOT_GZIP && strstr(err.msg, "this looks like text (it starts \"x\\ty\\tz\\tr\")") &&
          strstr(err.msg, "dem-pack --from"));
    bytes binary = {(uint8_t *)"\x01\x02\x03\x04", 4};
    CHECK(read_one(&binary, &t, &err) == DEM_ERR_NOT_GZIP && strstr(err.msg, "0x01 0x02"));

    /* Truncation after K whole frames: the K frames come first, then the error. */
    bytes three = write_frames(&s, 3, 1);
    size_t one = three.n / 3;
    for (size_t cut = 2 * one + 1; cut < three.n; cut += (three.n - 2 * one) / 7) {
        dem_reader *r = dem_reader_new_mem(three.p, cut, &err);
        int n = 0, st;
        while ((st = dem_reader_next(r, &t, &err)) == 1) n++;
        CHECK_MSG(n == 2 && st == DEM_ERR_TRUNCATED, "cut %zu: %d frames, status %d", cut, n, st);
        CHECK(strstr(err.msg, "frame 2 (byte") != NULL);
        /* The reader stays failed. */
        CHECK(dem_reader_next(r, &t, &err) == DEM_ERR_TRUNCATED);
        dem_reader_free(r);
    }
    /* A damaged CRC. */
    three.p[one - 6] ^= 0x40;
    dem_reader *r = dem_reader_new_mem(three.p, three.n, &err);
    CHECK(dem_reader_next(r, &t, &err) == DEM_ERR_CORRUPT && strstr(err.msg, "CRC-32"));
    dem_reader_free(r);
    free(three.p);

    /* Impossible values, each named. */
    s.particles[5].radius = -1;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE && strstr(err.msg, "particle record 5 (id 985): radius -1"));
    s.particles[5].radius = 1e-3;
    s.particles[6].pos.y = NAN;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE && strstr(err.msg, "particle record 6 (id 982): y = nan is not finite"));
    s.particles[6].pos.y = 0;
    s.particles[7].id = s.particles[8].id;
    CHECK(dem_system_check(&s, &err) == DEM_ERR_VALUE && strstr(err.msg, "appears more than once"));
    bytes b = write_frames(&s, 1, 1);
    CHECK(read_one(&b, &t, &err) == DEM_ERR_VALUE && strncmp(err.msg, "frame 0 (byte 0): particle id", 29) == 0);
    free(b.p);
    dem_system_free(&s);
    dem_system_free(&t);
}

static void test_params(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    double v[10] = {0};
    CHECK(dem_param_set_f64(&s, "a", v, 10, &err) == DEM_ERR_ARG);
    CHECK(dem_param_set_f64(&s, "", v, 1, &err) == DEM_ERR_ARG);
    char longkey[64];
    memset(longkey, 'k', 63);
    longkey[63] = 0;
    CHECK(dem_param_set_i64(&s, longkey, 1, &err) == DEM_ERR_ARG);
    CHECK(dem_param_set_i64(&s, "n", 1, &err) == DEM_OK);
    CHECK(dem_param_set_i64(&s, "n", 2, &err) == DEM_OK);
    CHECK(s.nparams == 1 && dem_param_get(&s, "n")->v.i == 2);
    CHECK(dem_param_get(&s, "m") == NULL);
    dem_system_free(&s);
}

int main(void)
{
    test_scalars();
    test_records();
    test_frame_round_trip();
    test_particle_source();
    test_forward_compatibility();
    test_stream_failures();
    test_params();
    UNIT_DONE();
}
