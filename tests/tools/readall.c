/* readall - read a stream with libdem and print one line per frame ("frame K: N particles,
 * C contacts"); on error print the library's message on stderr and exit 1. Used by the tests to
 * exercise the reader without any program's own logic in between. Usage: readall [FILE|-] */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dem.h"

int main(int argc, char **argv)
{
    int fd = argc > 1 && strcmp(argv[1], "-") != 0 ? open(argv[1], O_RDONLY) : 0;
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    dem_reader *r = dem_reader_new_fd(fd, &err);
    int st;
    while ((st = dem_reader_next(r, &s, &err)) == 1)
        printf("frame %llu: %zu particles, %zu contacts\n", (unsigned long long)(dem_reader_frames(r) - 1),
               s.nparticles, s.ncontacts);
    if (st < 0) fprintf(stderr, "%s\n", err.msg);
    dem_reader_free(r);
    dem_system_free(&s);
    return st < 0 ? 1 : 0;
}
