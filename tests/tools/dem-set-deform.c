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
#include "edit_frames.h"

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

static dem_status set_deform(dem_system *s, uint64_t frame, void *f, dem_error *err)
{
    if (!s->cell.flags) return dem_fail(err, DEM_ERR_VALUE, "frame %llu has no periodic cell", (unsigned long long)frame);
    s->cell.deform = *(const dem_mat3 *)f;
    return DEM_OK;
}

int main(int argc, char **argv)
{
    dem_mat3 f;
    if (argc != 10) {
        fprintf(stderr, "usage: dem-set-deform F11 F12 F13 F21 F22 F23 F31 F32 F33 < stream > stream\n");
        return 2;
    }
    if (!parse_matrix(argv + 1, &f)) return 2;
    return edit_frames("dem-set-deform", set_deform, &f);
}
