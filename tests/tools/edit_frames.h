/* edit_frames.h - the test helpers' common loop: copy a dem stream from standard input to
 * standard output, each frame changed by edit before it is written again. */
#ifndef DEM_TEST_EDIT_FRAMES_H
#define DEM_TEST_EDIT_FRAMES_H

#include <stdio.h>

#include "dem.h"

/* Change frame s (numbered from 0); DEM_OK, or a status with err's message. */
typedef dem_status (*frame_edit_fn)(dem_system *s, uint64_t frame, void *ctx, dem_error *err);

/* The exit status: 0, or 1 after "prog: message" on standard error (a damaged input, a frame
 * edit refused, a failed write). */
static inline int edit_frames(const char *prog, frame_edit_fn edit, void *ctx)
{
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(0, &err);
    dem_writer *w = r ? dem_writer_new(stdout, 1, &err) : NULL;
    int st = w ? 1 : -1;
    while (w && (st = dem_reader_next(r, &s, &err)) == 1)
        if (edit(&s, dem_reader_frames(r) - 1, ctx, &err) || dem_writer_put(w, &s, &err)) {
            st = -1;
            break;
        }
    int rc = st < 0 || dem_writer_finish(w, &err);
    if (rc) fprintf(stderr, "%s: %s\n", prog, err.msg);
    dem_writer_free(w);
    dem_reader_free(r);
    dem_system_free(&s);
    return rc;
}

#endif
