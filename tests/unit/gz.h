/* gz.h - test helpers: gzip a payload into one member, and inflate one member back, so tests can
 * build frames byte by byte (foreign sections, damaged structures) that the writer never makes. */
#ifndef DEM_TEST_GZ_H
#define DEM_TEST_GZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    uint8_t *p;
    size_t n;
} bytes;

static inline void bytes_add(bytes *b, const void *p, size_t n)
{
    b->p = realloc(b->p, b->n + n + 1);
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

/* One gzip member holding payload. */
static inline bytes gz_member(const uint8_t *payload, size_t n)
{
    bytes out = {0, 0};
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&z, n) + 64;
    out.p = malloc(cap);
    z.next_in = (uint8_t *)payload;
    z.avail_in = (uInt)n;
    z.next_out = out.p;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    out.n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* The payload of the first gzip member of data. */
static inline bytes gz_payload(const uint8_t *data, size_t n)
{
    bytes out = {0, 0};
    z_stream z;
    memset(&z, 0, sizeof z);
    inflateInit2(&z, 31);
    uint8_t buf[65536];
    z.next_in = (uint8_t *)data;
    z.avail_in = (uInt)n;
    int ret;
    do {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        ret = inflate(&z, Z_NO_FLUSH);
        bytes_add(&out, buf, sizeof buf - z.avail_out);
    } while (ret == Z_OK);
    inflateEnd(&z);
    return out;
}

/* Offset of the section with this tag in a frame payload, or (size_t)-1. */
static inline size_t payload_section(const bytes *pl, const char *tag)
{
    size_t at = 16;
    while (at + 16 <= pl->n) {
        uint64_t len = 0;
        for (int k = 7; k >= 0; k--) len = len << 8 | pl->p[at + 8 + k];
        if (memcmp(pl->p + at, tag, 4) == 0) return at;
        at += 16 + len;
    }
    return (size_t)-1;
}

#endif
