/* dem-set-deform - test helper: copy a dem stream from standard input to standard output with
 * the periodic cell's deformation gradient F set to the nine numbers given, row by row.
 *
 * Usage: dem-set-deform F11 F12 F13 F21 F22 F23 F31 F32 F33
 *
 * Only F changes (not H, not the particles): the tests then know exactly which F a frame holds
 * and check what dem-stress makes of it. A frame without a periodic cell has no F to set and is
 * refused; an F with det F <= 0 is written as given (the reader downstream refuses it). */
#include <stdio.h>
#include <stdlib.h>

#include "dem.h"

static int parse_matrix(char **argv, dem_mat3 *f)
{
    for (int k = 0; k < 9; k++) {
        char *end;
        f->m[k / 3][k % 3] = strtod(argv[k], &end);
        if (end == argv[k] || *end) {
            fprintf(stderr, "dem-set-deform: '%s' is not a number\n", argv[k]);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    dem_mat3 f;
    if (argc != 10) {
        fprintf(stderr, "usage: dem-set-deform F11 F12 F13 F21 F22 F23 F31 F32 F33 < stream > stream\n");
        return 2;
    }
    if (!parse_matrix(argv + 1, &f)) return 2;
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(0, &err);
    dem_writer *w = r ? dem_writer_new(stdout, 1, &err) : NULL;
    int st = w ? 1 : -1, rc = 0;
    while (w && (st = dem_reader_next(r, &s, &err)) == 1) {
        if (!s.cell.flags) {
            fprintf(stderr, "dem-set-deform: frame %llu has no periodic cell\n",
                    (unsigned long long)(dem_reader_frames(r) - 1));
            rc = 1;
            break;
        }
        s.cell.deform = f;
        if (dem_writer_put(w, &s, &err)) st = -1;
        if (st < 0) break;
    }
    if (!rc && (st < 0 || dem_writer_finish(w, &err))) {
        fprintf(stderr, "dem-set-deform: %s\n", err.msg);
        rc = 1;
    }
    dem_writer_free(w);
    dem_reader_free(r);
    dem_system_free(&s);
    return rc;
}
