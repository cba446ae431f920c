/* typed - the typed-value corpus: every numeric field of every record of a few base frames set,
 * in turn, to the values that break arithmetic (NaN, +-Inf, +-1e308, 5e-324, 0, -1, the extremes
 * of the integer types), driven by the field tables of lib/io/fields.c.
 *
 * Usage: typed BASE.dem...            run every variant through the library in-process: written
 *                                     and read back, set up as a simulation, 3 steps forward and
 *                                     3 back, stored and checked. PASS: a clean refusal (an error
 *                                     with a message) or a run whose stored state passes
 *                                     dem_system_check; FAIL: anything else (the sanitizers of
 *                                     make check catch crashes and undefined behaviour). Prints
 *                                     the failures and "N passed, M failed".
 *        typed -o DIR BASE.dem...     write every variant to DIR/NAME.dem (for the programs:
 *                                     tests/bats/typed.bats) and list the names.
 * Variants are named BASE-TAG-RECORD-FIELD-VALUE. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"

typedef struct {
    const char *name;
    double f;          /* for f64 fields */
    int64_t i;         /* for integer fields (as the bits of the type) */
} value;

static const value f64_values[] = {{"nan", NAN, 0},    {"inf", INFINITY, 0},  {"-inf", -INFINITY, 0}, {"1e308", 1e308, 0},
                                   {"-1e308", -1e308, 0}, {"5e-324", 5e-324, 0}, {"0", 0.0, 0},           {"-1", -1.0, 0}};
static const value u32_values[] = {{"0", 0, 0}, {"max", 0, 0xffffffff}, {"2^31", 0, 0x80000000}, {"7", 0, 7}};
static const value i32_values[] = {{"intmin", 0, INT32_MIN}, {"intmax", 0, INT32_MAX}, {"-1", 0, -1}, {"0", 0, 0}};
static const value u64_values[] = {{"0", 0, 0}, {"max", 0, -1}, {"2^63", 0, INT64_MIN}, {"1", 0, 1}};

static void set_field(const dem_field *f, void *rec, const value *v)
{
    uint8_t *p = (uint8_t *)rec + f->offset;
    switch (f->type) {
    case DEM_FT_F64: memcpy(p, &v->f, 8); break;
    case DEM_FT_U32: { uint32_t x = (uint32_t)v->i; memcpy(p, &x, 4); break; }
    case DEM_FT_I32: { int32_t x = (int32_t)v->i; memcpy(p, &x, 4); break; }
    case DEM_FT_U64: { uint64_t x = (uint64_t)v->i; memcpy(p, &x, 8); break; }
    case DEM_FT_CHAR32: break;
    }
}

static const value *values_of(dem_ftype t, size_t *n)
{
    switch (t) {
    case DEM_FT_F64: *n = sizeof f64_values / sizeof *f64_values; return f64_values;
    case DEM_FT_U32: *n = sizeof u32_values / sizeof *u32_values; return u32_values;
    case DEM_FT_I32: *n = sizeof i32_values / sizeof *i32_values; return i32_values;
    case DEM_FT_U64: *n = sizeof u64_values / sizeof *u64_values; return u64_values;
    case DEM_FT_CHAR32: break;
    }
    *n = 0;
    return NULL;
}

static int read_first(const char *path, dem_system *s)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    static uint8_t buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    dem_error err;
    dem_reader *r = dem_reader_new_mem(buf, n, &err);
    int ok = r && dem_reader_next(r, s, &err) == 1;
    if (!ok) fprintf(stderr, "typed: %s: %s\n", path, err.msg);
    dem_reader_free(r);
    return ok;
}

static int encode(const dem_system *s, char **buf, size_t *len)
{
    dem_error err;
    FILE *f = open_memstream(buf, len);
    dem_writer *w = dem_writer_new(f, 1, &err);
    int st = dem_writer_put(w, s, &err) || dem_writer_finish(w, &err);
    dem_writer_free(w);
    fclose(f);
    return st;
}

/* The outcome of one variant through the library: 0 pass, 1 fail (with why). */
static int exercise(const dem_system *v, char *why, size_t size)
{
    char *buf = NULL;
    size_t len = 0;
    dem_error err;
    if (encode(v, &buf, &len)) { free(buf); return 0; } /* the writer refuses it: fine */
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_mem(buf, len, &err);
    int rc = dem_reader_next(r, &s, &err), fail = 0;
    dem_reader_free(r);
    if (rc != 1) {
        if (!err.msg[0]) { snprintf(why, size, "refused without a message"); fail = 1; }
        goto done;
    }
    dem_settings st;
    if (dem_settings_read(&st, &s, &err)) goto done;
    for (int dir = 1; dir >= -1 && !fail; dir -= 2) {
        dem_sim *sim = dem_sim_new(&s, &st, 2, &err);
        if (!sim) {
            if (!err.msg[0]) { snprintf(why, size, "dem_sim_new refused without a message"); fail = 1; }
            break;
        }
        dem_dt_estimates est;
        dem_sim_set_dt(sim, s.dt > 0.0 ? s.dt : 1e-6);
        dem_sim_estimate_dt(sim, &est);
        double dt = s.dt > 0.0 ? s.dt : est.recommended;
        if (!(dt > 0.0 && isfinite(dt))) dt = 1e-6;
        dem_sim_set_dt(sim, dt);
        dem_sim_set_direction(sim, dir);
        int ok = !(st.exact_quantum > 0.0) || dem_sim_set_exact(sim, st.exact_quantum, &err) == DEM_OK;
        for (int k = 0; k < 3 && ok; k++) ok = dem_sim_step(sim, &err) == DEM_OK;
        if (!ok && !err.msg[0]) { snprintf(why, size, "a step failed without a message"); fail = 1; }
        dem_system out;
        dem_system_init(&out);
        if (ok && dem_system_copy(&out, &s, &err) == DEM_OK && dem_sim_store(sim, &out, &err) == DEM_OK &&
            dem_system_check(&out, &err) != DEM_OK) {
            snprintf(why, size, "%s run: the stored state fails its check: %s", dir > 0 ? "forward" : "reversed", err.msg);
            fail = 1;
        }
        dem_system_free(&out);
        dem_sim_free(sim);
    }
done:
    dem_system_free(&s);
    free(buf);
    return fail;
}

/* The records of type rt in s: a pointer to the first, their count, and their stride. */
static void *records(const dem_record_type *rt, dem_system *s, size_t *count, size_t *stride)
{
    *stride = rt->struct_size;
    if (rt == &dem_rec_head || rt == &dem_rec_energy) { *count = 1; return s; }
    if (rt == &dem_rec_cell) { *count = s->cell.flags ? 1 : 0; return &s->cell; }
    if (rt == &dem_rec_material) { *count = s->nmaterials; return s->materials; }
    if (rt == &dem_rec_wall) { *count = s->nwalls; return s->walls; }
    if (rt == &dem_rec_clump) { *count = s->nclumps; return s->clumps; }
    if (rt == &dem_rec_particle) { *count = s->nparticles; return s->particles; }
    if (rt == &dem_rec_member) { *count = s->nmembers; return s->members; }
    *count = s->ncontacts;
    return s->contacts;
}

int main(int argc, char **argv)
{
    const char *outdir = NULL;
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-o") == 0) { outdir = argv[a + 1]; a += 2; }
    if (a >= argc) {
        fprintf(stderr, "usage: typed [-o DIR] BASE.dem...\n");
        return 2;
    }
    const dem_record_type *types[] = {&dem_rec_head, &dem_rec_material, &dem_rec_wall, &dem_rec_cell,
                                      &dem_rec_clump, &dem_rec_particle, &dem_rec_contact, &dem_rec_energy,
                                      &dem_rec_member};
    size_t passed = 0, failed = 0;
    for (; a < argc; a++) {
        dem_system base;
        dem_system_init(&base);
        if (!read_first(argv[a], &base)) return 1;
        const char *bn = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
            const dem_record_type *rt = types[t];
            for (size_t fi = 0; fi < rt->nfields; fi++) {
                const dem_field *f = &rt->fields[fi];
                size_t nv;
                const value *vals = values_of(f->type, &nv);
                for (size_t vi = 0; vi < nv; vi++) {
                    dem_system v;
                    dem_error err;
                    dem_system_init(&v);
                    if (dem_system_copy(&v, &base, &err)) { fprintf(stderr, "typed: %s\n", err.msg); return 1; }
                    size_t count, stride;
                    uint8_t *recs = records(rt, &v, &count, &stride);
                    if (!count) { dem_system_free(&v); break; } /* no such record in this base */
                    /* the first record, and for tables the last one too */
                    set_field(f, recs, &vals[vi]);
                    if (count > 1) set_field(f, recs + (count - 1) * stride, &vals[vi]);
                    char name[256];
                    snprintf(name, sizeof name, "%.*s-%s-%s-%s", (int)(strlen(bn) - 4), bn, rt->tag, f->name, vals[vi].name);
                    if (outdir) {
                        char path[512], *buf = NULL;
                        size_t len = 0;
                        snprintf(path, sizeof path, "%s/%s.dem", outdir, name);
                        if (!encode(&v, &buf, &len)) {
                            FILE *o = fopen(path, "wb");
                            if (!o || fwrite(buf, 1, len, o) != len || fclose(o)) { perror(path); return 1; }
                            puts(name);
                        }
                        free(buf);
                    } else {
                        char why[600] = "";
                        if (exercise(&v, why, sizeof why)) {
                            printf("FAIL %s: %s\n", name, why);
                            failed++;
                        } else {
                            passed++;
                        }
                    }
                    dem_system_free(&v);
                }
            }
        }
        dem_system_free(&base);
    }
    if (!outdir) printf("typed: %zu passed, %zu failed\n", passed, failed);
    return failed ? 1 : 0;
}
