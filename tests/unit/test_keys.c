/* test_keys.c - a rebuild's candidate keys packed for the other processes (lib/sim/contacts.c's
 * dem_store_keys_pack and dem_store_keys_unpack, dist.c's key exchange): every key comes back
 * bit for bit, whatever its indices and image shift (the common shifts in one byte), and bytes
 * that are not exactly the keys are refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "sim/internal/contacts.h"
#include "unit.h"

/* n keys into b: sorted by i as a scan gives them (or not: shuffled), with extreme values among them. */
static void make_keys(store_keys *b, size_t n, int sorted, dem_rng *rng)
{
    dem_error err;
    uint32_t i = 0;
    for (size_t e = 0; e + 1 < n; e++) {
        uint64_t r = dem_rng_next(rng);
        if (sorted) i += (uint32_t)(r % 3);
        else i = (uint32_t)(r % UINT32_MAX);
        uint32_t j = e % 97 == 5 ? UINT32_MAX : i + (uint32_t)(r >> 40) % 5000;
        if (j < i) j = i;
        int32_t s[3] = {(int32_t)(r >> 8) % 3 - 1, (int32_t)(r >> 16) % 3 - 1, (int32_t)(r >> 24) % 3 - 1};
        if (e % 13 == 7) s[1] = e % 2 ? INT32_MAX : INT32_MIN; /* a far image: the long form */
        if (e % 17 == 3) s[2] = 2;
        CHECK(dem_store_keys_add(b, i, j, s, &err) == DEM_OK);
    }
    const int32_t far[3] = {INT32_MIN, 0, INT32_MAX};
    if (n) CHECK(dem_store_keys_add(b, UINT32_MAX, UINT32_MAX, far, &err) == DEM_OK); /* the extremes */
}

static void test_round_trip(size_t n, int sorted)
{
    dem_rng rng;
    dem_rng_seed(&rng, 7 + n);
    store_keys a = {0}, b = {0};
    make_keys(&a, n, sorted, &rng);
    uint8_t *bytes = malloc(dem_store_keys_pack_max(n) + 1);
    CHECK(bytes != NULL);
    size_t len = dem_store_keys_pack(&a, bytes);
    CHECK(len <= dem_store_keys_pack_max(n));
    dem_error err;
    CHECK(dem_store_keys_reserve(&b, n + 3, &err) == DEM_OK);
    CHECK_MSG(dem_store_keys_unpack(&b, 3, n, bytes, len), "%zu keys (sorted %d) did not unpack", n, sorted);
    CHECK_MSG(n == 0 || memcmp(a.k, (char *)b.k + 3 * dem_store_key_size(), n * dem_store_key_size()) == 0,
              "%zu keys (sorted %d): unpacked keys differ", n, sorted);
    if (n) { /* a byte short, a byte more, a key more than given: refused */
        CHECK(!dem_store_keys_unpack(&b, 3, n, bytes, len - 1));
        bytes[len] = 0;
        CHECK(!dem_store_keys_unpack(&b, 3, n, bytes, len + 1));
        CHECK(!dem_store_keys_unpack(&b, 3, n - 1, bytes, len));
    }
    if (sorted && n >= 1000) printf("  %zu keys packed in %zu bytes (%.2f a key, 20 unpacked)\n", n, len, (double)len / (double)n);
    free(bytes);
    free(a.k);
    free(b.k);
}

int main(void)
{
    for (size_t n = 0; n <= 5; n++) {
        test_round_trip(n, 1);
        test_round_trip(n, 0);
    }
    test_round_trip(20000, 1);
    test_round_trip(20000, 0);
    UNIT_DONE();
}
