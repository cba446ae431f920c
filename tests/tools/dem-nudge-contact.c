/* dem-nudge-contact - test helper: copy a dem stream from standard input to standard output with
 * one contact record of each frame altered, so that the frame no longer fits its particles.
 *
 * Usage: dem-nudge-contact K D       add D metres to record K's overlap
 *        dem-nudge-contact K twice   write record K twice (a contact named twice)
 *
 * K counts from 0 in the frame's contact table; K = -1 is its last contact between two particles
 * (the writer puts them before the wall contacts, by the lower id: the pair of the particle last
 * in the frame's order, which the last rank of a group reads). The readers downstream refuse the
 * frame (the overlap: dem-step, when it loads the contacts; twice: every reader). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"

/* The record K names in s, or -1 where it has none. */
static long pick(const dem_system *s, long k)
{
    if (k >= 0) return (size_t)k < s->ncontacts ? k : -1;
    for (size_t q = s->ncontacts; q-- > 0;)
        if (!(s->contacts[q].flags & DEM_CONTACT_WALL)) return (long)q;
    return -1;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long k = argc == 3 ? strtol(argv[1], &end, 10) : 0;
    int twice = argc == 3 && strcmp(argv[2], "twice") == 0;
    double d = argc == 3 && !twice ? strtod(argv[2], NULL) : 0.0;
    if (argc != 3 || !end || *end || k < -1) {
        fprintf(stderr, "usage: dem-nudge-contact K D|twice < stream > stream\n");
        return 2;
    }
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(0, &err);
    dem_writer *w = r ? dem_writer_new(stdout, 1, &err) : NULL;
    int st = w ? 1 : -1, rc = 0;
    while (w && (st = dem_reader_next(r, &s, &err)) == 1) {
        long q = pick(&s, k);
        if (q < 0) {
            fprintf(stderr, "dem-nudge-contact: frame %llu has no contact %ld\n", (unsigned long long)(dem_reader_frames(r) - 1), k);
            rc = 1;
            break;
        }
        if (twice) {
            dem_contact c = s.contacts[q];
            if (dem_system_push_contact(&s, &c, &err)) st = -1;
        } else {
            s.contacts[q].overlap += d;
        }
        if (st < 0 || dem_writer_put(w, &s, &err)) st = -1;
        if (st < 0) break;
    }
    if (!rc && (st < 0 || dem_writer_finish(w, &err))) {
        fprintf(stderr, "dem-nudge-contact: %s\n", err.msg);
        rc = 1;
    }
    dem_writer_free(w);
    dem_reader_free(r);
    dem_system_free(&s);
    return rc;
}
