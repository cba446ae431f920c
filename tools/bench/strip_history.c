/* strip_history - the last frame of a dem stream without its contacts and forces.
 *
 * Usage: strip_history < in.dem > out.dem
 *
 * Drops every contact record (and so every tangential-spring history), zeroes the particle
 * forces and torques, the wall loads and the energy accumulators, and marks the forces stale
 * (HEAD flag bit 0 cleared) so that dem-step evaluates them afresh before its first step. What
 * is left is what a LAMMPS data file made from `dem-probe --particles` holds: positions,
 * velocities, angular velocities, radii, masses, materials, walls and the run settings. The
 * benchmark starts dem-step and LAMMPS from this same state (tools/bench/compare.sh). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dem.h"

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: strip_history < in.dem > out.dem\n");
        return 2;
    }
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(STDIN_FILENO, &err);
    if (!r) goto fail;
    int got;
    while ((got = dem_reader_next(r, &s, &err)) == 1) {
    }
    if (got < 0) goto fail;
    dem_reader_free(r);
    s.ncontacts = 0;
    s.flags &= ~1u;
    memset(s.energy, 0, sizeof s.energy);
    for (size_t k = 0; k < s.nparticles; k++) {
        s.particles[k].force = dem_v3_zero();
        s.particles[k].torque = dem_v3_zero();
    }
    for (size_t k = 0; k < s.nwalls; k++) {
        s.walls[k].force = dem_v3_zero();
        s.walls[k].torque = dem_v3_zero();
        s.walls[k].work = 0.0;
    }
    dem_writer *w = dem_writer_new(stdout, DEM_LEVEL_DEFAULT, &err);
    if (!w || dem_system_check(&s, &err) || dem_writer_put(w, &s, &err) || dem_writer_finish(w, &err)) goto fail;
    dem_writer_free(w);
    dem_system_free(&s);
    return 0;
fail:
    fprintf(stderr, "strip_history: %s\n", err.msg);
    return 1;
}
