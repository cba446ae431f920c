/* fuzz_reader.c - libFuzzer target for the stream reader.
 *
 * Any input must either yield frames or a clean error, never a crash, a leak, undefined
 * behaviour or an unbounded allocation. Each frame that is read is also written again and read
 * back, and the second encoding must equal the first: the codec is its own oracle.
 *
 * Random mutations of compressed data rarely survive the CRC check, so inputs whose first byte is
 * odd are taken as an uncompressed frame payload and wrapped in a gzip member first: that way the
 * fuzzer reaches the section and record parsers.
 *
 * The same input is read again as process 1 of a group of 3 reads it (dem_group_contacts_new: its
 * share of the pair contacts): every frame the whole read yields, this read yields too, with the
 * same particles and a subsequence of the contacts (a subset of sound contacts is sound). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "dem.h"
#include "wrap.h"

static int encode(const dem_system *s, char **buf, size_t *len)
{
    dem_error err;
    FILE *f = open_memstream(buf, len);
    dem_writer *w = dem_writer_new(f, 1, &err);
    int st = dem_writer_put(w, s, &err);
    dem_writer_free(w);
    fclose(f);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dem_error err;
    dem_system s, t;
    dem_system_init(&s);
    dem_system_init(&t);
    uint8_t *wrapped = NULL;
    if (size > 0 && (data[0] & 1)) {
        wrapped = wrap(data + 1, size - 1, &size);
        data = wrapped;
    }
    dem_reader *r = dem_reader_new_mem(data, size, &err), *rs = dem_reader_new_mem(data, size, &err);
    dem_group_contacts *g = dem_group_contacts_new(1, 3, &err);
    dem_contact_filter f;
    dem_group_contacts_filter(g, &f);
    dem_reader_filter_contacts(rs, &f);
    dem_system share;
    dem_system_init(&share);
    int frames = 0;
    while (frames < 64 && dem_reader_next(r, &s, &err) == 1) {
        frames++;
        if (dem_reader_next(rs, &share, &err) != 1 || share.nparticles != s.nparticles || share.ncontacts > s.ncontacts) abort();
        for (size_t k = 0, q = 0; q < share.ncontacts; k++) { /* in the whole frame's order */
            if (k == s.ncontacts) abort();
            if (memcmp(&s.contacts[k], &share.contacts[q], sizeof *s.contacts) == 0) q++;
        }
        char *b1 = NULL, *b2 = NULL;
        size_t n1 = 0, n2 = 0;
        if (encode(&s, &b1, &n1) != DEM_OK) abort();
        dem_reader *r2 = dem_reader_new_mem(b1, n1, &err);
        if (dem_reader_next(r2, &t, &err) != 1) abort(); /* what we wrote must read back */
        if (encode(&t, &b2, &n2) != DEM_OK || n1 != n2 || memcmp(b1, b2, n1) != 0) abort();
        dem_reader_free(r2);
        free(b1);
        free(b2);
    }
    dem_reader_free(r);
    dem_reader_free(rs);
    dem_group_contacts_free(g);
    dem_system_free(&share);
    dem_system_free(&s);
    dem_system_free(&t);
    free(wrapped);
    return 0;
}
