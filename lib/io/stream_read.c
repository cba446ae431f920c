/* stream_read.c - the dem stream's reader: gzip members decoded incrementally, sections and record
 * tables checked as they arrive (formats/dem-stream.md §6.1), errors naming the frame, section and
 * byte offset. */
#include "io/stream.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/codec.h"
#include "core/rigid.h"
#include "io/fields.h"
#include "io/stream_format.h"

struct dem_reader {
    dem_read_fn fn;
    void *ctx;
    int fd;                 /* dem_reader_new_fd */
    const uint8_t *mem;     /* dem_reader_new_mem */
    size_t mem_len, mem_pos;
    z_stream z;
    int zinit;
    uint8_t in[IN_CAP];
    uint64_t in_total;      /* bytes obtained from the source */
    int src_eof;
    uint8_t *out;           /* decompressed window: out[out_pos .. out_len) not yet parsed */
    size_t out_cap, out_pos, out_len;
    uint64_t out_base;      /* payload offset of out[0] within the frame */
    int member_end;
    uint64_t frames;        /* frames delivered */
    uint64_t frame_start;   /* compressed offset of the frame being read */
    const char *where;      /* section being parsed, for messages */
    int after_eos;          /* the last member read was an end-of-stream marker */
    dem_status failed;
    dem_error failed_err;
    dem_contact_filter filter; /* dem_reader_filter_contacts; keep NULL: none */
};

static long read_fd(void *ctx, void *buf, size_t n, dem_error *err)
{
    dem_reader *r = ctx;
    for (;;) {
        ssize_t got = read(r->fd, buf, n);
        if (got >= 0) return (long)got;
        if (errno == EINTR) continue;
        dem_fail(err, DEM_ERR_IO, "read failed: %s", strerror(errno));
        return -1;
    }
}

static long read_mem(void *ctx, void *buf, size_t n, dem_error *err)
{
    (void)err;
    dem_reader *r = ctx;
    size_t left = r->mem_len - r->mem_pos;
    if (n > left) n = left;
    memcpy(buf, r->mem + r->mem_pos, n);
    r->mem_pos += n;
    return (long)n;
}

dem_reader *dem_reader_new(dem_read_fn fn, void *ctx, dem_error *err)
{
    dem_reader *r = calloc(1, sizeof *r);
    if (!r) {
        dem_fail(err, DEM_ERR_NOMEM, "out of memory creating a stream reader");
        return NULL;
    }
    r->fn = fn;
    r->ctx = ctx ? ctx : r;
    if (inflateInit2(&r->z, 15 + 16) != Z_OK) { /* gzip members only */
        free(r);
        dem_fail(err, DEM_ERR_NOMEM, "out of memory creating a stream reader");
        return NULL;
    }
    r->zinit = 1;
    r->z.next_in = r->in;
    r->z.avail_in = 0;
    return r;
}

dem_reader *dem_reader_new_fd(int fd, dem_error *err)
{
    dem_reader *r = dem_reader_new(read_fd, NULL, err);
    if (r) r->fd = fd;
    return r;
}

dem_reader *dem_reader_new_mem(const void *buf, size_t len, dem_error *err)
{
    dem_reader *r = dem_reader_new(read_mem, NULL, err);
    if (r) { r->mem = buf; r->mem_len = len; }
    return r;
}

void dem_reader_free(dem_reader *r)
{
    if (!r) return;
    if (r->zinit) inflateEnd(&r->z);
    free(r->out);
    free(r);
}

uint64_t dem_reader_frames(const dem_reader *r) { return r->frames; }

void dem_reader_filter_contacts(dem_reader *r, const dem_contact_filter *f)
{
    if (f && f->begin && f->keep) r->filter = *f;
    else memset(&r->filter, 0, sizeof r->filter);
}
int dem_reader_ended_with_marker(const dem_reader *r) { return r->after_eos; }
uint64_t dem_reader_offset(const dem_reader *r) { return r->in_total - r->z.avail_in; }

/* Make at least `want` compressed bytes available at z.next_in, if the source has them. */
static dem_status r_input(dem_reader *r, size_t want, dem_error *err)
{
    while (r->z.avail_in < want && !r->src_eof) {
        if (r->z.avail_in) memmove(r->in, r->z.next_in, r->z.avail_in);
        r->z.next_in = r->in;
        long got = r->fn(r->ctx, r->in + r->z.avail_in, IN_CAP - r->z.avail_in, err);
        if (got < 0) return err ? err->code : DEM_ERR_IO;
        if (got == 0) r->src_eof = 1;
        r->z.avail_in += (uInt)got;
        r->in_total += (uint64_t)got;
    }
    return DEM_OK;
}

/* Make n decompressed bytes available at out + out_pos. */
static dem_status r_need(dem_reader *r, size_t n, dem_error *err)
{
    while (r->out_len - r->out_pos < n) {
        if (r->member_end)
            return dem_fail(err, DEM_ERR_FORMAT,
                            "frame %llu (byte %llu): payload ends at offset %llu inside %s",
                            (unsigned long long)r->frames, (unsigned long long)r->frame_start,
                            (unsigned long long)(r->out_base + r->out_len), r->where);
        if (r->out_pos) {
            memmove(r->out, r->out + r->out_pos, r->out_len - r->out_pos);
            r->out_base += r->out_pos;
            r->out_len -= r->out_pos;
            r->out_pos = 0;
        }
        size_t need_cap = r->out_len + (n > ZOUT_CAP ? n : ZOUT_CAP);
        if (r->out_cap < need_cap) {
            uint8_t *p = realloc(r->out, need_cap);
            if (!p) return dem_fail(err, DEM_ERR_NOMEM, "out of memory reading frame %llu", (unsigned long long)r->frames);
            r->out = p;
            r->out_cap = need_cap;
        }
        dem_status st = r_input(r, 1, err);
        if (st) return st;
        if (r->z.avail_in == 0)
            return dem_fail(err, DEM_ERR_TRUNCATED,
                            "frame %llu (byte %llu): input ends inside the frame after %llu "
                            "compressed and %llu decompressed bytes, inside %s: truncated stream",
                            (unsigned long long)r->frames, (unsigned long long)r->frame_start,
                            (unsigned long long)(dem_reader_offset(r) - r->frame_start),
                            (unsigned long long)(r->out_base + r->out_len), r->where);
        r->z.next_out = r->out + r->out_len;
        r->z.avail_out = (uInt)(r->out_cap - r->out_len);
        int ret = inflate(&r->z, Z_NO_FLUSH);
        r->out_len = r->out_cap - r->z.avail_out;
        if (ret == Z_STREAM_END) r->member_end = 1;
        else if (ret == Z_MEM_ERROR) return dem_fail(err, DEM_ERR_NOMEM, "out of memory inflating frame %llu", (unsigned long long)r->frames);
        else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            const char *m = r->z.msg ? r->z.msg : "inflate error";
            const char *hint = strcmp(m, "incorrect data check") == 0 ? " (CRC-32 mismatch)" :
                               strcmp(m, "incorrect length check") == 0 ? " (ISIZE mismatch)" : "";
            return dem_fail(err, DEM_ERR_CORRUPT,
                            "frame %llu (byte %llu): corrupt compressed data near byte %llu: %s%s",
                            (unsigned long long)r->frames, (unsigned long long)r->frame_start,
                            (unsigned long long)dem_reader_offset(r), m, hint);
        }
    }
    return DEM_OK;
}

static const uint8_t *r_take(dem_reader *r, size_t n, dem_status *st, dem_error *err)
{
    if ((*st = r_need(r, n, err))) return NULL;
    const uint8_t *p = r->out + r->out_pos;
    r->out_pos += n;
    return p;
}

static uint64_t r_payload_offset(const dem_reader *r) { return r->out_base + r->out_pos; }

static dem_status r_skip(dem_reader *r, uint64_t n, dem_error *err)
{
    dem_status st = DEM_OK;
    while (n && !st) {
        size_t chunk = n > ZOUT_CAP ? ZOUT_CAP : (size_t)n;
        if (r_take(r, chunk, &st, err)) n -= chunk;
    }
    return st;
}

/* Printable form of a section tag for messages. */
static void tag_text(const uint8_t *t, char out[17])
{
    char *o = out;
    for (int k = 0; k < 4; k++) {
        if (t[k] >= 0x20 && t[k] < 0x7f) *o++ = (char)t[k];
        else o += sprintf(o, "\\x%02x", t[k]);
    }
    *o = 0;
}

typedef struct {
    uint64_t count;
    uint32_t recsize, extra;
} table_header;

static dem_status r_table_header(dem_reader *r, const char *tag, uint64_t len, unsigned base,
                                 table_header *th, dem_error *err)
{
    dem_status st;
    if (len < TABLE_HEADER)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s at offset %llu: length %llu is shorter than its %u-byte table header",
                        (unsigned long long)r->frames, tag, (unsigned long long)r_payload_offset(r), (unsigned long long)len, TABLE_HEADER);
    const uint8_t *p = r_take(r, TABLE_HEADER, &st, err);
    if (!p) return st;
    th->count = dem_get_u64(p);
    th->recsize = dem_get_u32(p + 8);
    th->extra = dem_get_u32(p + 12);
    if (th->recsize > RECORD_SIZE_MAX)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s: record size %u exceeds the limit of %u bytes",
                        (unsigned long long)r->frames, tag, th->recsize, RECORD_SIZE_MAX);
    if (th->recsize < base)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s: record size %u is smaller than the %u bytes of format 1.0",
                        (unsigned long long)r->frames, tag, th->recsize, base);
    uint64_t body = len - TABLE_HEADER;
    if (th->recsize == 0 ? body != 0 && th->count == 0 : (body % th->recsize != 0 || body / th->recsize != th->count))
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s: %llu records of %u bytes do not fill its %llu-byte body",
                        (unsigned long long)r->frames, tag, (unsigned long long)th->count, th->recsize, (unsigned long long)body);
    return DEM_OK;
}

/* Make room for n more elements in *arr. */
static dem_status r_grow(void **arr, size_t *cap, size_t need, size_t elem, const char *what, dem_error *err)
{
    if (need <= *cap) return DEM_OK;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need) ncap *= 2;
    void *q = realloc(*arr, ncap * elem);
    if (!q) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %zu %ss", need, what);
    *arr = q;
    *cap = ncap;
    return DEM_OK;
}

/* Records per batch: as many as fit in the decompression window. */
static size_t batch_records(uint32_t recsize, uint64_t left)
{
    size_t b = recsize ? ZOUT_CAP / recsize : 1;
    if (b == 0) b = 1;
    return left < b ? (size_t)left : b;
}

/* An invalid record found while decoding: its message as dem_system_check would give it. */
static dem_status r_bad_record(const dem_reader *r, dem_status st, dem_error *err)
{
    dem_error_prefix(err, "frame %llu (byte %llu): ", (unsigned long long)r->frames, (unsigned long long)r->frame_start);
    return st;
}

/* Decode count records into the array *arr, grown batch by batch as records arrive, so memory
 * never runs ahead of the data actually present; particles are checked batch by batch
 * (dem_particle_check_values), so an invalid one stops the frame before the rest is inflated (a
 * megabyte of zeros no longer inflates to a gigabyte of particles before it is refused). */
static dem_status r_records(dem_reader *r, const dem_record_type *rt, const table_header *th,
                            void **arr, size_t *n, size_t *cap, const void *dflt, dem_error *err)
{
    dem_status st = DEM_OK;
    size_t elem = rt->struct_size;
    *n = 0;
    for (uint64_t left = th->count; left > 0;) {
        size_t batch = batch_records(th->recsize, left);
        const uint8_t *p = r_take(r, batch * th->recsize, &st, err);
        if (!p) return st;
        if ((st = r_grow(arr, cap, *n + batch, elem, rt->name, err))) return st;
        uint8_t *rec = (uint8_t *)*arr + *n * elem;
        for (size_t k = 0; k < batch; k++) memcpy(rec + k * elem, dflt, elem);
        dem_record_decode_n(rt, p, th->recsize, batch, rec, elem);
        if (rt == &dem_rec_particle)
            for (size_t k = 0; k < batch; k++)
                if ((st = dem_particle_check_values((const dem_particle *)(const void *)(rec + k * elem), *n + k, err)))
                    return r_bad_record(r, st, err);
        if (rt == &dem_rec_bond)
            for (size_t k = 0; k < batch; k++)
                if ((st = dem_bond_check_values((const dem_bond *)(const void *)(rec + k * elem), *n + k, err)))
                    return r_bad_record(r, st, err);
        *n += batch;
        left -= batch;
    }
    return st;
}

static dem_status r_single(dem_reader *r, const dem_record_type *rt, const table_header *th,
                           void *dst, const char *tag, int allow_zero, dem_error *err)
{
    dem_status st;
    if (th->count != 1 && !(allow_zero && th->count == 0))
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s holds %llu records, expected %s",
                        (unsigned long long)r->frames, tag, (unsigned long long)th->count, allow_zero ? "0 or 1" : "1");
    if (th->count == 0) return DEM_OK;
    const uint8_t *p = r_take(r, th->recsize, &st, err);
    if (!p) return st;
    dem_record_decode(rt, p, th->recsize, dst);
    return DEM_OK;
}

static dem_status r_params(dem_reader *r, dem_system *s, uint64_t len, dem_error *err)
{
    dem_status st;
    table_header th;
    if ((st = r_table_header(r, "PARM", len, 0, &th, err))) return st;
    if (th.recsize != 0 || th.extra != 0)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section PARM: record size %u and extra %u must be 0",
                        (unsigned long long)r->frames, th.recsize, th.extra);
    uint64_t end = r_payload_offset(r) + (len - TABLE_HEADER);
    size_t first = s->nparams; /* the keys are checked for repeats once, at the end (n log n) */
    for (uint64_t k = 0; k < th.count; k++) {
        uint64_t at = r_payload_offset(r);
        const uint8_t *p = r_take(r, 2, &st, err);
        if (!p) return st;
        unsigned kl = dem_get_u16(p);
        if (kl == 0 || kl >= DEM_KEY_MAX)
            return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: PARM entry %llu at offset %llu: key length %u is not in 1..%d",
                            (unsigned long long)r->frames, (unsigned long long)k, (unsigned long long)at, kl, DEM_KEY_MAX - 1);
        char key[DEM_KEY_MAX];
        if (!(p = r_take(r, kl + 2u, &st, err))) return st;
        memcpy(key, p, kl);
        key[kl] = 0;
        if (strlen(key) != kl)
            return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: PARM entry %llu: key contains a NUL byte", (unsigned long long)r->frames, (unsigned long long)k);
        for (unsigned b = 0; b < kl; b++) /* the spec: printable ASCII keys */
            if ((unsigned char)key[b] < 0x21 || (unsigned char)key[b] > 0x7e)
                return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: PARM entry %llu: key byte %u is 0x%02x, not printable ASCII",
                                (unsigned long long)r->frames, (unsigned long long)k, b, (unsigned char)key[b]);
        uint8_t type = p[kl], count = p[kl + 1];
        dem_param e;
        memset(&e, 0, sizeof e);
        memcpy(e.key, key, kl + 1u);
        e.type = type;
        e.count = count;
        if (type != DEM_PARAM_F64 && count != 1)
            return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s': count %u, must be 1 for this type", (unsigned long long)r->frames, key, count);
        if (type == DEM_PARAM_I64) {
            if (!(p = r_take(r, 8, &st, err))) return st;
            e.v.i = dem_get_i64(p);
        } else if (type == DEM_PARAM_F64) {
            if (count < 1 || count > DEM_PARAM_F64_MAX)
                return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s': %u values (1..%d allowed)", (unsigned long long)r->frames, key, count, DEM_PARAM_F64_MAX);
            if (!(p = r_take(r, 8u * count, &st, err))) return st;
            for (unsigned c = 0; c < count; c++) e.v.f[c] = dem_get_f64(p + 8 * c);
        } else if (type == DEM_PARAM_STR) {
            if (!(p = r_take(r, 2, &st, err))) return st;
            unsigned sl = dem_get_u16(p);
            if (sl >= DEM_PARAM_STR_MAX)
                return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s': string of %u bytes (at most %d)", (unsigned long long)r->frames, key, sl, DEM_PARAM_STR_MAX - 1);
            if (!(p = r_take(r, sl, &st, err))) return st;
            memcpy(e.v.s, p, sl);
            if (strlen(e.v.s) != sl)
                return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s': string contains a NUL byte", (unsigned long long)r->frames, key);
        } else
            return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s': unknown value type %u", (unsigned long long)r->frames, key, type);
        if ((st = dem_param_append(s, &e, err))) return st;
        if (r_payload_offset(r) > end) break;
    }
    long dup = dem_params_duplicate(s, first, err);
    if (dup == -2) return err ? err->code : DEM_ERR_NOMEM;
    if (dup >= 0)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: parameter '%s' appears twice", (unsigned long long)r->frames, s->params[dup].key);
    if (r_payload_offset(r) != end)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section PARM: entries end at offset %llu, the section at %llu",
                        (unsigned long long)r->frames, (unsigned long long)r_payload_offset(r), (unsigned long long)end);
    return DEM_OK;
}

/* The contacts of c[0 .. n) that the reader's filter keeps, moved to the front; their count. */
static size_t r_keep_contacts(const dem_reader *r, dem_contact *c, size_t n)
{
    size_t kept = 0;
    for (size_t k = 0; k < n; k++)
        if (r->filter.keep(r->filter.ctx, &c[k])) {
            if (kept != k) c[kept] = c[k];
            kept++;
        }
    return kept;
}

/* particles_first: the frame's particles are decoded already (the filter may be asked). */
static dem_status r_contacts(dem_reader *r, dem_system *s, const table_header *th, int particles_first, dem_error *err)
{
    if (th->extra > DEM_HIST_MAX)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: contacts have %u history slots, this build holds at most %d",
                        (unsigned long long)r->frames, th->extra, DEM_HIST_MAX);
    unsigned fixed_min = dem_record_size(&dem_rec_contact);
    if (th->recsize < fixed_min + 8u * th->extra)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: contact record size %u is too small for %u history slots",
                        (unsigned long long)r->frames, th->recsize, th->extra);
    unsigned fixed = th->recsize - 8u * th->extra;
    s->hist_slots = th->extra;
    dem_status st = DEM_OK;
    s->ncontacts = 0;
    int filter = 0;
    size_t seen = 0; /* contacts decoded: their record numbers in messages */
    if (r->filter.keep && (filter = r->filter.begin(r->filter.ctx, particles_first ? s : NULL, th->count, err)) < 0)
        return r_bad_record(r, (dem_status)filter, err);
    for (uint64_t left = th->count; left > 0;) {
        size_t batch = batch_records(th->recsize, left);
        const uint8_t *p = r_take(r, batch * th->recsize, &st, err);
        if (!p) return st;
        if ((st = r_grow((void **)&s->contacts, &s->cap_contacts, s->ncontacts + batch, sizeof(dem_contact), "contact", err)))
            return st;
        dem_contact *c = &s->contacts[s->ncontacts];
        memset(c, 0, batch * sizeof *c);
        dem_record_decode_n(&dem_rec_contact, p, th->recsize, batch, c, sizeof *c);
        for (size_t k = 0; k < batch; k++)
            for (unsigned h = 0; h < th->extra; h++) c[k].hist[h] = dem_get_f64(p + k * th->recsize + fixed + 8u * h);
        for (size_t k = 0; k < batch; k++)
            if ((st = dem_contact_check_values(&c[k], seen + k, th->extra, err))) return r_bad_record(r, st, err);
        seen += batch;
        s->ncontacts += filter ? r_keep_contacts(r, c, batch) : batch;
        left -= batch;
    }
    return st;
}

enum { SEEN_HEAD = 1, SEEN_PARM = 2, SEEN_MATL = 4, SEEN_WALL = 8, SEEN_CELL = 16,
       SEEN_CLMP = 32, SEEN_PART = 64, SEEN_CONT = 128, SEEN_ENRG = 256, SEEN_BOND = 512, SEEN_CMBR = 1024 };

static dem_status r_section(dem_reader *r, dem_system *s, const uint8_t *tag, uint32_t flags,
                            uint64_t len, unsigned *seen, dem_error *err)
{
    static const struct { const char *tag; unsigned bit; } known[] = {
        {"HEAD", SEEN_HEAD}, {"PARM", SEEN_PARM}, {"MATL", SEEN_MATL}, {"WALL", SEEN_WALL},
        {"CELL", SEEN_CELL}, {"CLMP", SEEN_CLMP}, {"PART", SEEN_PART}, {"CONT", SEEN_CONT},
        {"ENRG", SEEN_ENRG}, {"BOND", SEEN_BOND}, {"CMBR", SEEN_CMBR}};
    char name[17];
    tag_text(tag, name);
    unsigned bit = 0;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (memcmp(tag, known[k].tag, 4) == 0) bit = known[k].bit;
    if (!(*seen & SEEN_HEAD) && bit != SEEN_HEAD)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: first section is '%s', expected HEAD", (unsigned long long)r->frames, name);
    if (!bit) {
        if (flags & SECTION_REQUIRED)
            return dem_fail(err, DEM_ERR_VERSION, "frame %llu: unknown required section '%s' (a newer minor version?): upgrade dem",
                            (unsigned long long)r->frames, name);
        r->where = "an unknown section";
        return r_skip(r, len, err);
    }
    if (*seen & bit)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s appears twice", (unsigned long long)r->frames, name);
    *seen |= bit;
    if (bit == SEEN_PARM) { r->where = "section PARM"; return r_params(r, s, len, err); }

    const dem_record_type *rt = bit == SEEN_HEAD ? &dem_rec_head : bit == SEEN_MATL ? &dem_rec_material :
                                bit == SEEN_WALL ? &dem_rec_wall : bit == SEEN_CELL ? &dem_rec_cell :
                                bit == SEEN_CLMP ? &dem_rec_clump : bit == SEEN_PART ? &dem_rec_particle :
                                bit == SEEN_CONT ? &dem_rec_contact : bit == SEEN_BOND ? &dem_rec_bond :
                                bit == SEEN_CMBR ? &dem_rec_member : &dem_rec_energy;
    static const char *const where[] = {"section HEAD", "section MATL", "section WALL", "section CELL",
                                        "section CLMP", "section PART", "section CONT", "section ENRG", "section BOND",
                                        "section CMBR"};
    r->where = where[bit == SEEN_HEAD ? 0 : bit == SEEN_MATL ? 1 : bit == SEEN_WALL ? 2 : bit == SEEN_CELL ? 3 :
                     bit == SEEN_CLMP ? 4 : bit == SEEN_PART ? 5 : bit == SEEN_CONT ? 6 : bit == SEEN_BOND ? 8 :
                     bit == SEEN_CMBR ? 9 : 7];
    table_header th;
    dem_status st = r_table_header(r, name, len, rt->base_size, &th, err);
    if (st) return st;
    switch (bit) {
    case SEEN_HEAD: return r_single(r, rt, &th, s, name, 0, err);
    case SEEN_ENRG: return r_single(r, rt, &th, s, name, 0, err);
    case SEEN_CELL: s->cell = dem_cell_default(); /* fields a 1.3 record lacks keep these */
        return r_single(r, rt, &th, &s->cell, name, 1, err);
    case SEEN_CONT: return r_contacts(r, s, &th, (*seen & SEEN_PART) != 0, err);
    case SEEN_MATL: {
        dem_material d;
        memset(&d, 0, sizeof d);
        return r_records(r, rt, &th, (void **)&s->materials, &s->nmaterials, &s->cap_materials, &d, err);
    }
    case SEEN_WALL: {
        dem_wall d;
        memset(&d, 0, sizeof d);
        return r_records(r, rt, &th, (void **)&s->walls, &s->nwalls, &s->cap_walls, &d, err);
    }
    case SEEN_BOND: {
        dem_bond d;
        memset(&d, 0, sizeof d);
        return r_records(r, rt, &th, (void **)&s->bonds, &s->nbonds, &s->cap_bonds, &d, err);
    }
    case SEEN_CLMP: {
        dem_clump d;
        memset(&d, 0, sizeof d);
        d.orient = dem_quat_identity();
        d.angmom = dem_v3(NAN, NAN, NAN);
        if ((st = r_records(r, rt, &th, (void **)&s->clumps, &s->nclumps, &s->cap_clumps, &d, err))) return st;
        if (th.recsize < dem_record_size(rt)) /* records of format 1.5 or older: L from w */
            for (size_t k = 0; k < s->nclumps; k++)
                s->clumps[k].angmom = dem_rigid_momentum(s->clumps[k].orient, s->clumps[k].inertia, s->clumps[k].omega);
        return DEM_OK;
    }
    case SEEN_CMBR: {
        dem_member d;
        memset(&d, 0, sizeof d);
        return r_records(r, rt, &th, (void **)&s->members, &s->nmembers, &s->cap_members, &d, err);
    }
    default: {
        dem_particle d = dem_particle_default();
        return r_records(r, rt, &th, (void **)&s->particles, &s->nparticles, &s->cap_particles, &d, err);
    }
    }
}

/* Whether the first bytes of a foreign input are text (a TSV, a dem-probe table, a LAMMPS data
 * file): printable ASCII, tabs, line ends or UTF-8 bytes, over the first 256 bytes at most. */
static int looks_like_text(const uint8_t *b, size_t n)
{
    if (n > 256) n = 256;
    for (size_t k = 0; k < n; k++)
        if (!((b[k] >= 0x20 && b[k] != 0x7f) || b[k] == '\t' || b[k] == '\n' || b[k] == '\r')) return 0;
    return n > 0;
}

/* The start of a text input as a message quotes it: its first line, at most 24 bytes, with
 * tabs and other unprintable bytes escaped (an input's bytes never reach a terminal raw). */
static void show_start(char *buf, size_t size, const uint8_t *b, size_t n)
{
    size_t k = 0, o = 0;
    for (; k < n && k < 24 && b[k] != '\n' && b[k] != '\r' && o + 5 < size; k++) {
        if (b[k] == '\t') o += (size_t)snprintf(buf + o, size - o, "\\t");
        else if (b[k] >= 0x20 && b[k] < 0x7f && b[k] != '"' && b[k] != '\\') buf[o++] = (char)b[k];
        else o += (size_t)snprintf(buf + o, size - o, "\\x%02x", b[k]);
    }
    if (k < n && b[k] != '\n' && b[k] != '\r' && o + 4 < size) o += (size_t)snprintf(buf + o, size - o, "...");
    buf[o] = 0;
}

/* Start of a frame: check that a gzip member begins here. Returns 1 if a member starts,
 * 0 at the clean end of input. */
static int r_member_start(dem_reader *r, dem_error *err)
{
    dem_status st;
    for (;;) { /* end-of-stream markers: skipped (one ends a stream; in a concatenation, the parts) */
        if ((st = r_input(r, DEM_EOS_BYTES, err))) return st;
        if (r->z.avail_in < DEM_EOS_BYTES || memcmp(r->z.next_in, dem_eos_marker, DEM_EOS_BYTES) != 0) break;
        r->z.next_in += DEM_EOS_BYTES;
        r->z.avail_in -= DEM_EOS_BYTES;
        r->after_eos = 1;
    }
    r->frame_start = dem_reader_offset(r);
    if (r->z.avail_in == 0) {
        if (r->frames == 0)
            return dem_fail(err, DEM_ERR_EMPTY, r->after_eos ? "empty stream: an end-of-stream marker and no frame" : "empty input: no frame (0 bytes)");
        return 0;
    }
    r->after_eos = 0;
    const uint8_t *b = r->z.next_in;
    if (r->z.avail_in < 2 || b[0] != 0x1f || b[1] != 0x8b) {
        if (r->z.avail_in < 2 && b[0] == 0x1f)
            return dem_fail(err, DEM_ERR_TRUNCATED, "frame %llu (byte %llu): input ends inside the gzip header: truncated stream",
                            (unsigned long long)r->frames, (unsigned long long)r->frame_start);
        if (r->frames == 0 && looks_like_text(b, r->z.avail_in)) {
            char shown[64];
            show_start(shown, sizeof shown, b, r->z.avail_in);
            return dem_fail(err, DEM_ERR_NOT_GZIP,
                            "not a dem stream: this looks like text (it starts \"%s\"): make a stream with dem-pack --from FILE "
                            "(a TSV table with x y z r columns; dem-pack --help)", shown);
        }
        if (r->frames == 0)
            return dem_fail(err, DEM_ERR_NOT_GZIP, "not a dem stream: input starts with bytes 0x%02x 0x%02x, not a gzip member (0x1f 0x8b)",
                            b[0], r->z.avail_in > 1 ? b[1] : 0);
        return dem_fail(err, DEM_ERR_NOT_GZIP, "after frame %llu: trailing data at byte %llu is not a gzip member (starts 0x%02x 0x%02x)",
                        (unsigned long long)(r->frames - 1), (unsigned long long)r->frame_start, b[0], r->z.avail_in > 1 ? b[1] : 0);
    }
    if (inflateReset(&r->z) != Z_OK) return dem_fail(err, DEM_ERR_IO, "inflate reset failed");
    r->member_end = 0;
    r->out_pos = r->out_len = 0;
    r->out_base = 0;
    return 1;
}

/* Nothing may follow END inside the member: the first byte after it is refused at once, without
 * inflating the rest (400 MB of zeros there were once held whole to count them). Reaching the
 * member's end makes zlib check the CRC-32 and length in the gzip trailer. */
static dem_status r_nothing_after_end(dem_reader *r, dem_error *err)
{
    r->where = "the bytes after END";
    uint64_t at = r_payload_offset(r);
    if (r->out_len == r->out_pos) {
        dem_status st = r_need(r, 1, err);
        if (st && st != DEM_ERR_FORMAT) return st; /* FORMAT: the member ended, as it must */
    }
    if (r->out_len != r->out_pos)
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: bytes follow the END section (payload offset %llu): a frame's gzip member must end there",
                        (unsigned long long)r->frames, (unsigned long long)at);
    return DEM_OK;
}

static dem_status r_frame(dem_reader *r, dem_system *s, dem_error *err)
{
    dem_status st;
    r->where = "the frame preamble";
    if ((st = r_need(r, 16, err))) {
        if (st == DEM_ERR_FORMAT)
            return dem_fail(err, DEM_ERR_MAGIC, "frame %llu (byte %llu): gzip member of %llu bytes is too short to be a dem frame",
                            (unsigned long long)r->frames, (unsigned long long)r->frame_start, (unsigned long long)r->out_len);
        return st;
    }
    const uint8_t *p = r->out + r->out_pos;
    if (memcmp(p, DEM_MAGIC, 8) != 0) {
        char shown[40];
        int k = 0;
        for (int i = 0; i < 8; i++) k += sprintf(shown + k, (p[i] >= 0x20 && p[i] < 0x7f) ? "%c" : "\\x%02x", p[i]);
        return dem_fail(err, DEM_ERR_MAGIC, "frame %llu (byte %llu): not a dem frame: payload starts with \"%s\", expected magic \"DEMSTRM\\0\"",
                        (unsigned long long)r->frames, (unsigned long long)r->frame_start, shown);
    }
    unsigned major = dem_get_u16(p + 8), minor = dem_get_u16(p + 10);
    if (major != DEM_FORMAT_MAJOR)
        return dem_fail(err, DEM_ERR_VERSION, "frame %llu: format version %u.%u is not supported: this build reads major version %d",
                        (unsigned long long)r->frames, major, minor, DEM_FORMAT_MAJOR);
    r->out_pos += 16;

    dem_system_clear(s);
    unsigned seen = 0;
    for (;;) {
        r->where = "a section header";
        uint64_t at = r_payload_offset(r);
        if (!(p = r_take(r, SECTION_HEADER, &st, err))) return st;
        uint8_t tag[4];
        memcpy(tag, p, 4);
        uint32_t flags = dem_get_u32(p + 4);
        uint64_t len = dem_get_u64(p + 8);
        if (memcmp(tag, "END ", 4) == 0) {
            if (len != 0)
                return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: END section at offset %llu has length %llu, expected 0",
                                (unsigned long long)r->frames, (unsigned long long)at, (unsigned long long)len);
            break;
        }
        uint64_t body_start = r_payload_offset(r);
        if ((st = r_section(r, s, tag, flags, len, &seen, err))) return st;
        if (r_payload_offset(r) - body_start != len) {
            char name[17];
            tag_text(tag, name);
            return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: section %s at offset %llu: declared length %llu, contents take %llu",
                            (unsigned long long)r->frames, name, (unsigned long long)at, (unsigned long long)len,
                            (unsigned long long)(r_payload_offset(r) - body_start));
        }
    }
    if (!(seen & SEEN_HEAD))
        return dem_fail(err, DEM_ERR_FORMAT, "frame %llu: no HEAD section", (unsigned long long)r->frames);
    if ((st = r_nothing_after_end(r, err))) return st;
    if ((st = dem_system_check(s, err))) {
        dem_error_prefix(err, "frame %llu (byte %llu): ", (unsigned long long)r->frames, (unsigned long long)r->frame_start);
        return st;
    }
    return DEM_OK;
}

int dem_reader_next(dem_reader *r, dem_system *s, dem_error *err)
{
    if (r->failed) {
        if (err) *err = r->failed_err;
        return r->failed;
    }
    int st = r_member_start(r, err);
    if (st == 1) st = r_frame(r, s, err);
    else if (st == 0) return 0;
    if (st < 0) {
        r->failed = (dem_status)st;
        if (err) r->failed_err = *err;
        else r->failed_err.code = (dem_status)st;
        return st;
    }
    r->frames++;
    return 1;
}
