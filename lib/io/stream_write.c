/* stream_write.c - the dem stream's writer: a frame as one gzip member of length-prefixed sections,
 * the end-of-stream marker after the last. Layout: formats/dem-stream.md. */
#include "io/stream.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/codec.h"
#include "io/fields.h"
#include "io/stream_format.h"

struct dem_writer {
    FILE *out;
    z_stream z;
    uint8_t *stage;
    size_t stage_len;
    uint8_t *zout;
    uint64_t bytes;
};

dem_writer *dem_writer_new(FILE *out, int level, dem_error *err)
{
    if (level < 0 || level > 9) {
        dem_fail(err, DEM_ERR_ARG, "compression level %d is not in 0..9", level);
        return NULL;
    }
    dem_writer *w = calloc(1, sizeof *w);
    if (!w) goto nomem;
    w->out = out;
    w->stage = malloc(STAGE_CAP);
    w->zout = malloc(ZOUT_CAP);
    if (!w->stage || !w->zout) goto nomem;
    /* windowBits 15 + 16: a gzip wrapper, so every frame is a standard gzip member. Level 1 uses
     * run-length matching only (Z_RLE): on binary64 data it is twice as fast as zlib's level 1 for
     * a few percent more bytes (measured by tools/bench). */
    int strategy = level == 1 ? Z_RLE : Z_DEFAULT_STRATEGY;
    if (deflateInit2(&w->z, level, Z_DEFLATED, 15 + 16, 8, strategy) != Z_OK) goto nomem;
    return w;
nomem:
    if (w) { free(w->stage); free(w->zout); free(w); }
    dem_fail(err, DEM_ERR_NOMEM, "out of memory creating a stream writer");
    return NULL;
}

void dem_writer_free(dem_writer *w)
{
    if (!w) return;
    deflateEnd(&w->z);
    free(w->stage);
    free(w->zout);
    free(w);
}

uint64_t dem_writer_bytes(const dem_writer *w) { return w->bytes; }

dem_status dem_writer_finish(dem_writer *w, dem_error *err)
{
    if (fwrite(dem_eos_marker, 1, sizeof dem_eos_marker, w->out) != sizeof dem_eos_marker || fflush(w->out) != 0)
        return dem_fail(err, DEM_ERR_IO, "write failed after %llu bytes (the end-of-stream marker): %s", (unsigned long long)w->bytes,
                        strerror(errno));
    w->bytes += sizeof dem_eos_marker;
    return DEM_OK;
}

/* Compress what is staged; flush is Z_NO_FLUSH or Z_FINISH. */
static dem_status w_deflate(dem_writer *w, int flush, dem_error *err)
{
    w->z.next_in = w->stage;
    w->z.avail_in = (uInt)w->stage_len;
    for (;;) {
        w->z.next_out = w->zout;
        w->z.avail_out = ZOUT_CAP;
        int ret = deflate(&w->z, flush);
        if (ret == Z_STREAM_ERROR) return dem_fail(err, DEM_ERR_IO, "deflate failed");
        size_t have = ZOUT_CAP - w->z.avail_out;
        if (have && fwrite(w->zout, 1, have, w->out) != have)
            return dem_fail(err, DEM_ERR_IO, "write failed after %llu bytes: %s",
                            (unsigned long long)w->bytes, strerror(errno));
        w->bytes += have;
        if (flush == Z_FINISH ? ret == Z_STREAM_END : w->z.avail_out != 0) break;
    }
    w->stage_len = 0;
    return DEM_OK;
}

/* Room for n (<= STAGE_CAP) contiguous bytes in the stage. */
static uint8_t *w_room(dem_writer *w, size_t n, dem_status *st, dem_error *err)
{
    if (w->stage_len + n > STAGE_CAP && (*st = w_deflate(w, Z_NO_FLUSH, err))) return NULL;
    uint8_t *p = w->stage + w->stage_len;
    w->stage_len += n;
    return p;
}

static dem_status w_section_header(dem_writer *w, const char *tag, uint64_t len, dem_error *err)
{
    dem_status st = DEM_OK;
    uint8_t *p = w_room(w, SECTION_HEADER, &st, err);
    if (!p) return st;
    memcpy(p, tag, 4);
    dem_put_u32(p + 4, SECTION_REQUIRED);
    dem_put_u64(p + 8, len);
    return DEM_OK;
}

static dem_status w_table_header(dem_writer *w, const char *tag, uint64_t count, uint32_t recsize,
                                 uint32_t extra, dem_error *err)
{
    dem_status st = w_section_header(w, tag, TABLE_HEADER + count * recsize, err);
    if (st) return st;
    uint8_t *p = w_room(w, TABLE_HEADER, &st, err);
    if (!p) return st;
    dem_put_u64(p, count);
    dem_put_u32(p + 8, recsize);
    dem_put_u32(p + 12, extra);
    return DEM_OK;
}

/* A table section of count records of type rt stored stride bytes apart from base. */
static dem_status w_table(dem_writer *w, const dem_record_type *rt, const void *base, size_t count,
                          size_t stride, dem_error *err)
{
    uint32_t rs = dem_record_size(rt);
    /* an empty clump table keeps format 1.5's record size: a frame without clumps is laid out as in
     * 1.5, byte for byte (formats/dem-stream.md §5.6) */
    if (rt == &dem_rec_clump && count == 0) rs = rt->base_size;
    dem_status st = w_table_header(w, rt->tag, count, rs, 0, err);
    size_t batch_max = STAGE_CAP / rs;
    for (size_t k = 0; k < count && !st; k += batch_max) {
        size_t batch = count - k < batch_max ? count - k : batch_max;
        uint8_t *p = w_room(w, batch * rs, &st, err);
        if (p) dem_record_encode_n(rt, (const uint8_t *)base + k * stride, stride, batch, p, rs);
    }
    return st;
}

/* The contacts table: from src when given, else from the frame's table. */
static dem_status w_contacts(dem_writer *w, const dem_system *s, const dem_contact_source *src, dem_error *err)
{
    size_t count = src ? src->count : s->ncontacts;
    uint32_t slots = src ? src->hist_slots : s->hist_slots;
    uint32_t fixed = dem_record_size(&dem_rec_contact), rs = fixed + 8u * slots;
    dem_status st = w_table_header(w, dem_rec_contact.tag, count, rs, slots, err);
    size_t batch_max = STAGE_CAP / rs;
    dem_contact one;
    for (size_t k = 0; k < count && !st; k += batch_max) {
        size_t batch = count - k < batch_max ? count - k : batch_max;
        uint8_t *p = w_room(w, batch * rs, &st, err);
        if (!p) break;
        if (!src) {
            dem_record_encode_n(&dem_rec_contact, &s->contacts[k], sizeof(dem_contact), batch, p, rs);
            for (size_t c = 0; c < batch; c++)
                for (uint32_t h = 0; h < slots; h++) dem_put_f64(p + c * rs + fixed + 8u * h, s->contacts[k + c].hist[h]);
            continue;
        }
        for (size_t c = 0; c < batch; c++) { /* each as the source gives it: no table */
            if ((st = src->next(src->ctx, &one, err)) || (st = dem_contact_check_values(&one, k + c, slots, err))) return st;
            dem_record_encode_n(&dem_rec_contact, &one, sizeof one, 1, p + c * rs, rs);
            for (uint32_t h = 0; h < slots; h++) dem_put_f64(p + c * rs + fixed + 8u * h, one.hist[h]);
        }
    }
    return st;
}

/* The particles table: from src when given, else from the frame's table. */
static dem_status w_particles(dem_writer *w, const dem_system *s, const dem_particle_source *src, dem_error *err)
{
    if (!src) return w_table(w, &dem_rec_particle, s->particles, s->nparticles, sizeof(dem_particle), err);
    uint32_t rs = dem_record_size(&dem_rec_particle);
    dem_status st = w_table_header(w, dem_rec_particle.tag, src->count, rs, 0, err);
    size_t batch_max = STAGE_CAP / rs < DEM_PARTICLE_BATCH ? STAGE_CAP / rs : DEM_PARTICLE_BATCH;
    dem_particle buf[DEM_PARTICLE_BATCH];
    for (size_t k = 0; k < src->count && !st; k += batch_max) {
        size_t batch = src->count - k < batch_max ? src->count - k : batch_max;
        if ((st = src->fill(src->ctx, k, batch, buf, err))) return st;
        for (size_t c = 0; c < batch; c++)
            if ((st = dem_particle_check_values(&buf[c], k + c, err))) return st;
        uint8_t *p = w_room(w, batch * rs, &st, err);
        if (p) dem_record_encode_n(&dem_rec_particle, buf, sizeof *buf, batch, p, rs);
    }
    return st;
}

static size_t param_size(const dem_param *p)
{
    size_t n = 2 + strlen(p->key) + 2;
    switch (p->type) {
    case DEM_PARAM_I64: return n + 8;
    case DEM_PARAM_F64: return n + 8u * p->count;
    default: return n + 2 + strlen(p->v.s);
    }
}

static dem_status w_params(dem_writer *w, const dem_system *s, dem_error *err)
{
    uint64_t len = TABLE_HEADER;
    for (size_t k = 0; k < s->nparams; k++) len += param_size(&s->params[k]);
    dem_status st = w_section_header(w, "PARM", len, err);
    uint8_t *p = st ? NULL : w_room(w, TABLE_HEADER, &st, err);
    if (!p) return st;
    dem_put_u64(p, s->nparams);
    dem_put_u32(p + 8, 0);
    dem_put_u32(p + 12, 0);
    for (size_t k = 0; k < s->nparams; k++) {
        const dem_param *q = &s->params[k];
        size_t kl = strlen(q->key);
        if (!(p = w_room(w, param_size(q), &st, err))) return st;
        dem_put_u16(p, (uint16_t)kl);
        memcpy(p + 2, q->key, kl);
        p += 2 + kl;
        p[0] = q->type;
        p[1] = q->count;
        p += 2;
        if (q->type == DEM_PARAM_I64) dem_put_i64(p, q->v.i);
        else if (q->type == DEM_PARAM_F64)
            for (int c = 0; c < q->count; c++) dem_put_f64(p + 8 * c, q->v.f[c]);
        else {
            size_t sl = strlen(q->v.s);
            dem_put_u16(p, (uint16_t)sl);
            memcpy(p + 2, q->v.s, sl);
        }
    }
    return DEM_OK;
}

dem_status dem_writer_put(dem_writer *w, const dem_system *s, dem_error *err)
{
    return dem_writer_put_source(w, s, NULL, err);
}

dem_status dem_writer_put_source(dem_writer *w, const dem_system *s, const dem_contact_source *src, dem_error *err)
{
    return dem_writer_put_sources(w, s, NULL, src, err);
}

dem_status dem_writer_put_sources(dem_writer *w, const dem_system *s, const dem_particle_source *psrc, const dem_contact_source *src,
                                  dem_error *err)
{
    dem_status st = DEM_OK;
    uint32_t slots = src ? src->hist_slots : s->hist_slots;
    if (slots > DEM_HIST_MAX)
        return dem_fail(err, DEM_ERR_ARG, "%u history slots, at most %d", slots, DEM_HIST_MAX);
    for (size_t k = 0; k < s->nparams; k++)
        if (s->params[k].type < DEM_PARAM_I64 || s->params[k].type > DEM_PARAM_STR ||
            (s->params[k].type == DEM_PARAM_F64 && (s->params[k].count < 1 || s->params[k].count > DEM_PARAM_F64_MAX)))
            return dem_fail(err, DEM_ERR_ARG, "parameter '%s' has an invalid type", s->params[k].key);
    if (deflateReset(&w->z) != Z_OK) return dem_fail(err, DEM_ERR_IO, "deflate reset failed");
    w->stage_len = 0;
    uint8_t *p = w_room(w, 16, &st, err);
    memcpy(p, DEM_MAGIC, 8);
    dem_put_u16(p + 8, DEM_FORMAT_MAJOR);
    dem_put_u16(p + 10, s->nclumps || s->nmembers ? DEM_FORMAT_MINOR : DEM_FORMAT_MINOR_NO_CLUMPS);
    dem_put_u32(p + 12, 0);
    if ((st = w_table(w, &dem_rec_head, s, 1, 0, err)) ||
        (st = w_params(w, s, err)) ||
        (st = w_table(w, &dem_rec_material, s->materials, s->nmaterials, sizeof(dem_material), err)) ||
        (st = w_table(w, &dem_rec_wall, s->walls, s->nwalls, sizeof(dem_wall), err)) ||
        (st = w_table(w, &dem_rec_cell, &s->cell, s->cell.flags ? 1 : 0, 0, err)) ||
        (st = w_table(w, &dem_rec_clump, s->clumps, s->nclumps, sizeof(dem_clump), err)) ||
        (st = w_particles(w, s, psrc, err)) ||
        (s->nmembers && (st = w_table(w, &dem_rec_member, s->members, s->nmembers, sizeof(dem_member), err))) ||
        (st = w_contacts(w, s, src, err)) ||
        (s->nbonds && (st = w_table(w, &dem_rec_bond, s->bonds, s->nbonds, sizeof(dem_bond), err))) ||
        (st = w_table(w, &dem_rec_energy, s, 1, 0, err)) ||
        (st = w_section_header(w, "END ", 0, err)) ||
        (st = w_deflate(w, Z_FINISH, err)))
        return st;
    if (fflush(w->out) != 0)
        return dem_fail(err, DEM_ERR_IO, "write failed after %llu bytes: %s", (unsigned long long)w->bytes, strerror(errno));
    return DEM_OK;
}

