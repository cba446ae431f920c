/* rng.h - a seeded pseudo-random generator whose output is the same on every machine.
 *
 * rand() differs between C libraries and hides its state in a global, so the toolchain carries
 * its own generator: xoshiro256** (Blackman & Vigna 2018), seeded from one 64-bit number through
 * splitmix64 as its authors recommend. The state lives in a dem_rng value owned by the caller.
 *
 * The floating-point draws (uniform, normal) and the dem_rng_log/dem_rng_exp they rely on use
 * only IEEE-754 basic operations (+ - * / sqrt, exact scaling by powers of two) in a fixed order,
 * never the C library's log or exp, whose last bit varies between libm versions: a seed gives
 * bit-identical packings on every machine with binary64 doubles and no fused multiply-add
 * contraction (gcc -std=c11 does not contract; the sources tell clang not to). */
#ifndef DEM_RNG_H
#define DEM_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];   /* xoshiro256** state, never all zero */
    int has_spare;   /* the polar method makes normals in pairs: the second waits here */
    double spare;
} dem_rng;

/* One step of splitmix64: advances *state and returns the next output. */
uint64_t dem_splitmix64(uint64_t *state);
/* Seed from one number: the state is four successive splitmix64 outputs of seed. */
void dem_rng_seed(dem_rng *r, uint64_t seed);
/* Set the raw state (for known-answer tests; an all-zero state is replaced by seed 0). */
void dem_rng_set_state(dem_rng *r, const uint64_t state[4]);
/* Next 64 random bits. */
uint64_t dem_rng_next(dem_rng *r);
/* Advance by 2^128 steps: gives a second stream from the same seed that never overlaps the
 * first in practice (so the velocities of a packing do not change its positions). */
void dem_rng_jump(dem_rng *r);
/* Uniform double in [0, 1): the top 53 bits of the next output times 2^-53. */
double dem_rng_uniform(dem_rng *r);
/* Standard normal N(0, 1) by Marsaglia's polar method. */
double dem_rng_normal(dem_rng *r);

/* Natural logarithm (x > 0) and exponential from basic operations only, accurate to a few ulp:
 * machine-independent replacements for log and exp wherever a result must be reproducible. */
double dem_rng_log(double x);
double dem_rng_exp(double x);

#endif
