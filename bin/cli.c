/* cli.c - shared command-line conventions of the dem programs. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select.h"
#include "stream.h"

static const char *prog_name = "dem";

void cli_init(const char *prog) { prog_name = prog; }
const char *cli_prog(void) { return prog_name; }

_Noreturn void cli_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(CLI_EXIT_DATA);
}

_Noreturn void cli_die_err(const dem_error *err) { cli_die("%s", err->msg); }

_Noreturn void cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog_name);
    va_end(ap);
    exit(CLI_EXIT_USAGE);
}

_Noreturn void cli_usage_err(const char *opt, const dem_error *err) { cli_usage("%s: %s", opt, err->msg); }

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: warning: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_open_input(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return STDIN_FILENO;
    int fd = open(path, O_RDONLY);
    if (fd < 0) cli_die("cannot open '%s': %s", path, strerror(errno));
    return fd;
}

void cli_refuse_binary_tty(void)
{
    if (isatty(STDOUT_FILENO))
        cli_usage("refusing to write a binary stream to a terminal; redirect stdout or pipe it into another dem program");
}

double cli_double(const char *opt, const char *text)
{
    dem_error err;
    double v;
    if (dem_parse_double(text, &v, &err)) cli_usage_err(opt, &err);
    return v;
}

long long cli_int(const char *opt, const char *text, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno == ERANGE || v < lo || v > hi)
        cli_usage("%s: '%s' is not an integer in %lld..%lld", opt, text, lo, hi);
    return v;
}

void cli_doubles(const char *opt, const char *text, double *v, int n)
{
    dem_error err;
    if (dem_parse_doubles(text, v, n, &err)) cli_usage_err(opt, &err);
}

void cli_check_output(FILE *out, const char *what)
{
    if (fflush(out) != 0 || ferror(out)) cli_die("cannot write %s: %s", what, strerror(errno));
}

void cli_run_frames(const char *path, const cli_frames *sel, const cli_frame_handlers *h)
{
    dem_error err;
    int fd = cli_open_input(path);
    dem_reader *r = dem_reader_new_fd(fd, &err);
    if (!r) cli_die_err(&err);
    dem_system a, b, *cur = &a, *held = &b;
    dem_system_init(&a);
    dem_system_init(&b);
    int rc, printed = 0;
    while ((rc = dem_reader_next(r, cur, &err)) == 1) {
        uint64_t frame = dem_reader_frames(r) - 1;
        if (h->seen) h->seen(h->ctx, frame, cur);
        if (sel->last) { /* keep it until the input ends */
            dem_system *t = held;
            held = cur;
            cur = t;
            continue;
        }
        if (sel->frame >= 0 ? frame == (uint64_t)sel->frame : frame % (uint64_t)sel->every == 0) {
            h->emit(h->ctx, frame, cur);
            printed++;
        }
        if (sel->frame >= 0 && frame == (uint64_t)sel->frame) break;
    }
    if (sel->last && dem_reader_frames(r)) h->emit(h->ctx, dem_reader_frames(r) - 1, held);
    h->finish(h->ctx);
    if (rc < 0) cli_die_err(&err);
    if (sel->frame >= 0 && !printed)
        cli_die("--frame %lld: the stream has only %llu frames (0 to %llu)", sel->frame,
                (unsigned long long)dem_reader_frames(r), (unsigned long long)dem_reader_frames(r) - 1);
    dem_reader_free(r);
    if (fd != 0) close(fd);
    dem_system_free(&a);
    dem_system_free(&b);
}
