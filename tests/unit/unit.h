/* unit.h - a minimal unit-test harness: CHECK records a failure and goes on; each test binary
 * ends with UNIT_DONE(), which prints "<name>: N passed, N failed" and sets the exit status. */
#ifndef DEM_UNIT_H
#define DEM_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(cond)                                                                              \
    do {                                                                                         \
        if (cond) unit_passed++;                                                                 \
        else {                                                                                   \
            unit_failed++;                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);            \
        }                                                                                        \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                     \
    do {                                                                                         \
        if (cond) unit_passed++;                                                                 \
        else {                                                                                   \
            unit_failed++;                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);            \
            fprintf(stderr, __VA_ARGS__);                                                        \
            fputc('\n', stderr);                                                                 \
        }                                                                                        \
    } while (0)

/* Bitwise equality of doubles: -0.0 differs from 0.0, NaN payloads compare. */
static inline int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define UNIT_DONE()                                                                              \
    do {                                                                                         \
        printf("%s: %d passed, %d failed\n", __FILE__, unit_passed, unit_failed);               \
        return unit_failed ? 1 : 0;                                                              \
    } while (0)

#endif
