/* rng.c - xoshiro256** seeded by splitmix64, and reproducible uniform and normal draws. */
#include "core/rng.h"

#include <math.h>

/* A fused multiply-add rounds once where a*b+c rounds twice: allowing the compiler to fuse
 * would make the draws depend on the target CPU. gcc does not fuse in ISO C mode (-std=c11) and
 * does not know this pragma; clang fuses by default, so tell it not to. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

uint64_t dem_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void dem_rng_seed(dem_rng *r, uint64_t seed)
{
    uint64_t sm = seed;
    for (int k = 0; k < 4; k++) r->s[k] = dem_splitmix64(&sm);
    r->has_spare = 0;
    r->spare = 0.0;
}

void dem_rng_set_state(dem_rng *r, const uint64_t state[4])
{
    if (!(state[0] | state[1] | state[2] | state[3])) {
        dem_rng_seed(r, 0); /* the all-zero state is a fixed point of xoshiro */
        return;
    }
    for (int k = 0; k < 4; k++) r->s[k] = state[k];
    r->has_spare = 0;
    r->spare = 0.0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t dem_rng_next(dem_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void dem_rng_jump(dem_rng *r)
{
    /* The polynomial of the 2^128-step jump, from the reference implementation. */
    static const uint64_t jump[4] = {0x180ec6d33cfd0abau, 0xd5a61266f0c9392cu,
                                     0xa9582618e03fc9aau, 0x39abdc4529b1661cu};
    uint64_t acc[4] = {0, 0, 0, 0};
    for (int w = 0; w < 4; w++)
        for (int b = 0; b < 64; b++) {
            if (jump[w] & (UINT64_C(1) << b))
                for (int k = 0; k < 4; k++) acc[k] ^= r->s[k];
            dem_rng_next(r);
        }
    for (int k = 0; k < 4; k++) r->s[k] = acc[k];
    r->has_spare = 0;
}

double dem_rng_uniform(dem_rng *r)
{
    return (double)(dem_rng_next(r) >> 11) * 0x1.0p-53;
}

double dem_rng_normal(dem_rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * dem_rng_uniform(r) - 1.0;
        v = 2.0 * dem_rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * dem_rng_log(s) / s);
    r->spare = v * f;
    r->has_spare = 1;
    return u * f;
}

/* ln 2 split so that k * LN2_HI is exact for |k| < 2^20 (its low 32 bits are zero). */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define INV_LN2 1.44269504088896338700e+00

double dem_rng_log(double x)
{
    if (isnan(x) || x < 0.0) return NAN;
    if (x == 0.0) return -INFINITY;
    if (isinf(x)) return x;
    int e;
    double m = frexp(x, &e); /* exact: x = m 2^e with m in [0.5, 1) */
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    /* m in [sqrt(1/2), sqrt(2)): ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), |s| < 0.172,
     * so 12 terms of the series in s^2 < 0.0295 reach below 2^-53. */
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, p = 0.0;
    for (int k = 12; k >= 1; k--) p = s2 * (1.0 / (2 * k + 1) + p);
    double lnm = 2.0 * s + 2.0 * s * p;
    return (double)e * LN2_HI + (lnm + (double)e * LN2_LO);
}

double dem_rng_exp(double x)
{
    if (isnan(x)) return x;
    if (x > 709.782712893384) return INFINITY;
    if (x < -745.2) return 0.0;
    /* exp x = 2^k exp r with |r| <= ln2/2: the Taylor series of exp r to degree 16 is exact to
     * below 2^-53, and the scaling by 2^k is exact. */
    double k = floor(x * INV_LN2 + 0.5);
    double r = (x - k * LN2_HI) - k * LN2_LO;
    double p = 1.0;
    for (int n = 16; n >= 1; n--) p = 1.0 + r * p / n;
    return ldexp(p, (int)k);
}
