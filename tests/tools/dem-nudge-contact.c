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
#include "edit_frames.h"

typedef struct {
    long k;    /* the record, or -1: the last pair contact */
    int twice; /* write it twice; else add d to its overlap */
    double d;
} nudge;

/* The record K names in s, or -1 where it has none. */
static long pick(const dem_system *s, long k)
{
    if (k >= 0) return (size_t)k < s->ncontacts ? k : -1;
    for (size_t q = s->ncontacts; q-- > 0;)
        if (!(s->contacts[q].flags & DEM_CONTACT_WALL)) return (long)q;
    return -1;
}

static dem_status nudge_frame(dem_system *s, uint64_t frame, void *ctx, dem_error *err)
{
    const nudge *n = ctx;
    long q = pick(s, n->k);
    if (q < 0) return dem_fail(err, DEM_ERR_VALUE, "frame %llu has no contact %ld", (unsigned long long)frame, n->k);
    if (!n->twice) {
        s->contacts[q].overlap += n->d;
        return DEM_OK;
    }
    dem_contact c = s->contacts[q];
    return dem_system_push_contact(s, &c, err);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    nudge n = {argc == 3 ? strtol(argv[1], &end, 10) : 0, argc == 3 && strcmp(argv[2], "twice") == 0, 0.0};
    if (argc == 3 && !n.twice) n.d = strtod(argv[2], NULL);
    if (argc != 3 || !end || *end || n.k < -1) {
        fprintf(stderr, "usage: dem-nudge-contact K D|twice < stream > stream\n");
        return 2;
    }
    return edit_frames("dem-nudge-contact", nudge_frame, &n);
}
