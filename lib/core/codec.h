/* codec.h - explicit little-endian encoding of the stream's scalar types.
 *
 * Never fwrite a struct: the stream's byte order and layout are fixed by formats/dem-stream.md,
 * whatever the host. Doubles travel as their IEEE-754 binary64 bit pattern, so every value,
 * -0.0, subnormals, infinities and NaN payloads included, round-trips bit for bit. */
#ifndef DEM_CODEC_H
#define DEM_CODEC_H

#include <stdint.h>
#include <string.h>

static inline void dem_put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void dem_put_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}
static inline void dem_put_u64(uint8_t *p, uint64_t v)
{
    for (int k = 0; k < 8; k++) p[k] = (uint8_t)(v >> (8 * k));
}
static inline void dem_put_i32(uint8_t *p, int32_t v) { dem_put_u32(p, (uint32_t)v); }
static inline void dem_put_i64(uint8_t *p, int64_t v) { dem_put_u64(p, (uint64_t)v); }
static inline void dem_put_f64(uint8_t *p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    dem_put_u64(p, bits);
}

static inline uint16_t dem_get_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t dem_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t dem_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | p[k];
    return v;
}
static inline int32_t dem_get_i32(const uint8_t *p) { return (int32_t)dem_get_u32(p); }
static inline int64_t dem_get_i64(const uint8_t *p) { return (int64_t)dem_get_u64(p); }
static inline double dem_get_f64(const uint8_t *p)
{
    uint64_t bits = dem_get_u64(p);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

#endif
