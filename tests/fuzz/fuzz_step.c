/* fuzz_step.c - libFuzzer target past the reader: decode a frame, set the simulation up, take a
 * few steps, store the state and check it.
 *
 * Any frame the reader accepts must either be refused by dem_sim_new (a clear error) or run:
 * the steps may stop with an error (a guard, the lattice's range) but never crash, overflow,
 * leak or read out of bounds, and a stored state must pass dem_system_check. As in fuzz_reader,
 * inputs whose first byte is odd are an uncompressed payload wrapped in a gzip member here, so
 * that mutations reach the values rather than die at the CRC. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "dem.h"
#include "wrap.h"

/* The frame the sim writes, in bytes (open_memstream): streamed (dem_sim_put: the particles and
 * contacts encoded from the sim as the writer goes, the frame's own tables freed), or stored into
 * the frame's tables, checked and written from them. NULL if it was refused. */
static char *frame_bytes(dem_sim *sim, dem_system *s, int streamed, size_t *len)
{
    dem_error err;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    dem_writer *w = dem_writer_new(f, 0, &err);
    int ok = w && (streamed ? dem_sim_put(sim, s, w, &err) == DEM_OK
                            : dem_sim_store(sim, s, &err) == DEM_OK && dem_system_check(s, &err) == DEM_OK &&
                                  dem_writer_put(w, s, &err) == DEM_OK);
    dem_writer_free(w);
    fclose(f);
    if (ok) return buf;
    free(buf);
    return NULL;
}

/* A few steps of the frame's system; every outcome but a crash is fine, a stored state must be
 * sound, and the frame streamed from the sim must be the stored frame's bytes. */
static void run(dem_system *s)
{
    dem_error err;
    dem_settings st;
    if (dem_settings_read(&st, s, &err)) return;
    if (s->nparticles > 2000) return; /* time, not safety: the fuzzer's inputs are small anyway */
    dem_sim *sim = dem_sim_new(s, &st, 1, &err);
    if (!sim) return;
    dem_dt_estimates est;
    dem_sim_set_dt(sim, s->dt > 0.0 ? s->dt : 1e-6);
    dem_sim_estimate_dt(sim, &est);
    double dt = s->dt > 0.0 ? s->dt : est.recommended;
    if (!(dt > 0.0 && isfinite(dt))) dt = 1e-6;
    dem_sim_set_dt(sim, dt);
    if (st.exact_quantum > 0.0 && dem_sim_set_exact(sim, st.exact_quantum, &err)) {
        dem_sim_free(sim);
        return;
    }
    int ok = 1;
    for (int k = 0; k < 3 && ok; k++) ok = dem_sim_step(sim, &err) == DEM_OK;
    if (ok) {
        dem_system c;
        dem_system_init(&c);
        size_t ls = 0, lt = 0;
        char *streamed = dem_system_copy(&c, s, &err) == DEM_OK ? frame_bytes(sim, &c, 1, &ls) : NULL;
        if (dem_sim_store(sim, s, &err) == DEM_OK && dem_system_check(s, &err) != DEM_OK) {
            fprintf(stderr, "fuzz_step: a stored state fails its check: %s\n", err.msg);
            abort();
        }
        char *table = frame_bytes(sim, s, 0, &lt);
        if (streamed && table && (ls != lt || memcmp(streamed, table, ls) != 0)) {
            fprintf(stderr, "fuzz_step: the streamed frame (%zu bytes) differs from the stored one (%zu bytes)\n", ls, lt);
            abort();
        }
        if (!streamed != !table) {
            fprintf(stderr, "fuzz_step: the %s frame was refused, the %s one written\n", streamed ? "stored" : "streamed",
                    streamed ? "streamed" : "stored");
            abort();
        }
        free(streamed);
        free(table);
        dem_system_free(&c);
    }
    dem_sim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    uint8_t *wrapped = NULL;
    if (size > 0 && (data[0] & 1)) {
        wrapped = wrap(data + 1, size - 1, &size);
        data = wrapped;
    }
    dem_reader *r = dem_reader_new_mem(data, size, &err);
    if (dem_reader_next(r, &s, &err) == 1) run(&s);
    dem_reader_free(r);
    dem_system_free(&s);
    free(wrapped);
    return 0;
}
