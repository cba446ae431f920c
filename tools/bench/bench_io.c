/* bench_io - time writing and reading one large frame of the dem stream.
 *
 * Usage: bench_io [N_PARTICLES [CONTACTS_PER_PARTICLE [LEVEL...]]]
 * Defaults: 10^6 particles, 3 contacts per particle (coordination 6) with 3 history slots, levels
 * 0 1 6. Prints one TSV row per level: payload and file size (MB = 10^6 bytes), seconds to
 * encode+compress+write and to read+decompress+decode+check, and throughput of the payload. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "dem.h"

/* A library failure ends the benchmark with its message. */
static void must(dem_status st, const dem_error *err)
{
    if (st) {
        fprintf(stderr, "%s\n", err->msg);
        exit(1);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Deterministic pseudo-random doubles in [0,1). */
static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) * 0x1.0p-53;
}

static void build(dem_system *s, size_t n, int cpp)
{
    dem_error err;
    uint64_t rng = 42;
    dem_system_init(s);
    dem_material m = dem_material_default();
    must(dem_system_push_material(s, &m, &err), &err);
    must(dem_system_reserve_particles(s, n, &err), &err);
    for (size_t k = 0; k < n; k++) {
        dem_particle p = dem_particle_default();
        p.id = k + 1;
        p.radius = 1e-3 * (0.8 + 0.4 * uniform(&rng));
        dem_sphere_mass(p.radius, m.density, &p.mass, &p.inertia);
        p.pos = dem_v3(uniform(&rng), uniform(&rng), uniform(&rng));
        p.vel = dem_v3(uniform(&rng) - 0.5, uniform(&rng) - 0.5, uniform(&rng) - 0.5);
        p.omega = dem_v3(uniform(&rng), uniform(&rng), uniform(&rng));
        p.force = dem_v3(uniform(&rng), uniform(&rng), -9.81 * p.mass);
        must(dem_system_push_particle(s, &p, &err), &err);
    }
    s->hist_slots = 3;
    must(dem_system_reserve_contacts(s, n * (size_t)cpp, &err), &err);
    /* Partner j = i + d around the ring of ids, d random in [1, (n-1)/2] and distinct for one i:
     * no pair appears twice, in either order (readers refuse duplicate contacts). */
    size_t half = (n - 1) / 2, picked[64];
    for (size_t k = 0; k < n * (size_t)cpp; k++) {
        dem_contact c = {0};
        size_t i0 = k / (size_t)cpp, slot = k % (size_t)cpp, d;
        int again;
        do {
            d = 1 + (size_t)(uniform(&rng) * half);
            again = 0;
            for (size_t q = 0; q < slot; q++) again |= picked[q] == d;
        } while (again);
        picked[slot] = d;
        c.i = i0 + 1;
        c.j = (i0 + d) % n + 1;
        c.overlap = 1e-6 * uniform(&rng);
        c.normal = dem_v3(0, 0, 1);
        c.fn = dem_v3(0, 0, uniform(&rng));
        c.ft = dem_v3(uniform(&rng), uniform(&rng), 0);
        for (int h = 0; h < 3; h++) c.hist[h] = 1e-7 * uniform(&rng);
        must(dem_system_push_contact(s, &c, &err), &err);
    }
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    int cpp = argc > 2 ? atoi(argv[2]) : 3;
    if (cpp < 0 || cpp > 64 || (cpp > 0 && (size_t)cpp > (n - 1) / 2)) {
        fprintf(stderr, "bench_io: %d contacts per particle: 0 to 64, and at most (particles - 1) / 2\n", cpp);
        return 2;
    }
    int levels[10] = {0, 1, 6}, nlevels = 3;
    if (argc > 3) {
        nlevels = 0;
        for (int k = 3; k < argc && nlevels < 10; k++) levels[nlevels++] = atoi(argv[k]);
    }
    dem_system s, t;
    dem_error err;
    build(&s, n, cpp);
    dem_system_init(&t);
    char path[] = "/tmp/dem-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    double payload_mb = (16.0 + 16 * 10 + 28 + 96 + 80 + n * 216.0 + n * cpp * (136.0 + 24)) / 1e6;
    printf("particles\tcontacts\tlevel\tpayload[MB]\tfile[MB]\twrite[s]\tread[s]\twrite[MB/s]\tread[MB/s]\n");
    for (int l = 0; l < nlevels; l++) {
        FILE *f = fopen(path, "wb");
        dem_writer *w = dem_writer_new(f, levels[l], &err);
        double t0 = now();
        if (dem_writer_put(w, &s, &err)) { fprintf(stderr, "bench_io: %s\n", err.msg); return 1; }
        fclose(f);
        double tw = now() - t0;
        double file_mb = (double)dem_writer_bytes(w) / 1e6;
        dem_writer_free(w);
        fd = open(path, O_RDONLY);
        dem_reader *r = dem_reader_new_fd(fd, &err);
        t0 = now();
        if (dem_reader_next(r, &t, &err) != 1) { fprintf(stderr, "bench_io: %s\n", err.msg); return 1; }
        double tr = now() - t0;
        dem_reader_free(r);
        close(fd);
        printf("%zu\t%zu\t%d\t%.1f\t%.1f\t%.2f\t%.2f\t%.0f\t%.0f\n", n, s.ncontacts, levels[l], payload_mb, file_mb, tw, tr,
               payload_mb / tw, payload_mb / tr);
        fflush(stdout);
    }
    if (getenv("BENCH_KEEP")) fprintf(stderr, "kept %s\n", path); else unlink(path);
    dem_system_free(&s);
    dem_system_free(&t);
    return 0;
}
