/* wrap.h - the fuzz targets' one gzip member around an uncompressed payload: random mutations
 * of compressed data rarely survive the CRC check, so inputs whose first byte is odd are taken
 * as a payload and wrapped here, and the fuzzer reaches the parsers and the values. */
#ifndef DEM_FUZZ_WRAP_H
#define DEM_FUZZ_WRAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* One gzip member (stored blocks) holding payload. */
static inline uint8_t *wrap(const uint8_t *payload, size_t n, size_t *out_n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 0, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    size_t cap = deflateBound(&z, n) + 64;
    uint8_t *out = malloc(cap);
    z.next_in = (uint8_t *)payload;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();
    *out_n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

#endif
