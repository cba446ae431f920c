/* cli.c - shared command-line conventions of the dem programs. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/text.h"
#include "io/select.h"
#include "io/stream.h"
#include "laws/material_ranges.h"
#include "progress.h"

static const char *prog_name = "dem";
/* The stream output: stdout, or -o FILE written under a temporary name until it is complete. */
static FILE *out_file;
static char out_tmp[4096], out_final[4096];

void cli_init(const char *prog)
{
    prog_name = prog;
#ifdef __GLIBC__
    /* Every block of 128 KiB or more in a mapping of its own, given back to the system when it is
     * freed. glibc otherwise raises that threshold to the size of each such block freed: once the
     * frame's particle table goes (dem_sim_new_from), the arrays of the neighbour list and the
     * contact store would come from the heap, where what is freed stays resident (a start of
     * 108 000 spheres peaked 10% higher). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
const char *cli_prog(void) { return prog_name; }

/* A run that fails leaves no FILE of -o FILE, and no temporary either. */
static void drop_output(void)
{
    if (out_tmp[0]) unlink(out_tmp);
    out_tmp[0] = 0;
}

/* A message to stderr, "prog: " pre, the message, then post, with every byte a terminal could act
 * on escaped (dem_text_printable: the messages quote options, file names and values read from the
 * input), in one write: a process killed while it writes (mpirun ends the ranks when one fails)
 * leaves the whole line or none. */
static void put_message(const char *pre, const char *post, const char *fmt, va_list ap)
{
    char raw[4096], safe[4096], line[4096 + 512];
    vsnprintf(raw, sizeof raw, fmt, ap);
    dem_text_printable(safe, sizeof safe, raw);
    snprintf(line, sizeof line, "%s: %s%s%s", prog_name, pre, safe, post);
    fputs(line, stderr);
    fflush(stderr);
}

static void (*before_exit)(int status); /* cli_set_before_exit */

void cli_set_before_exit(void (*fn)(int status)) { before_exit = fn; }

_Noreturn void cli_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_message("", "\n", fmt, ap);
    va_end(ap);
    drop_output();
    if (before_exit) before_exit(CLI_EXIT_DATA);
    exit(CLI_EXIT_DATA);
}

_Noreturn void cli_die_err(const dem_error *err) { cli_die("%s", err->msg); }

_Noreturn void cli_usage(const char *fmt, ...)
{
    va_list ap;
    char post[256];
    snprintf(post, sizeof post, "\nTry '%s --help' for more information.\n", prog_name);
    va_start(ap, fmt);
    put_message("", post, fmt, ap);
    va_end(ap);
    drop_output(); /* a usage error found after -o FILE was opened leaves no temporary */
    if (before_exit) before_exit(CLI_EXIT_USAGE);
    exit(CLI_EXIT_USAGE);
}

_Noreturn void cli_usage_err(const char *opt, const dem_error *err) { cli_usage("%s: %s", opt, err->msg); }

/* Levenshtein distance of a and b (short strings: option names), capped at 9. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40) return 9;
    int d[41][41];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1; /* a transposition: --gravtiy */
        }
    return d[la][lb] > 9 ? 9 : d[la][lb];
}

_Noreturn void cli_bad_option_of(int ch, char *const argv[], const struct option *opts)
{
    const char *arg = argv[optind - 1];
    if (ch == '?' && !(optopt > 0 && optopt < 256) && strncmp(arg, "--", 2) == 0) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
        const char *best = NULL;
        int bd = 9, ambiguous = 0;
        for (const struct option *o = opts; o && o->name; o++) {
            int dd = edit_distance(name, o->name);
            if (strncmp(o->name, name, strlen(name)) == 0 && strlen(name) >= 3) dd = dd < 2 ? dd : 2; /* a prefix getopt found ambiguous */
            if (dd < bd) { bd = dd; best = o->name; ambiguous = 0; }
            else if (dd == bd) ambiguous = 1;
        }
        /* close enough: at most a third of the name's letters wrong, and one nearest */
        if (best && !ambiguous && bd >= 1 && (size_t)bd * 3 <= strlen(name) + 1)
            cli_usage("unknown option '%s': did you mean --%s?", arg, best);
    }
    cli_bad_option(ch, argv);
}

_Noreturn void cli_bad_option(int ch, char *const argv[])
{
    if (ch == ':') cli_usage("%s needs a value", argv[optind - 1]);
    if (optopt > 0 && optopt < 256) cli_usage("unknown option '-%c'", optopt);
    cli_usage("unknown option '%s'", argv[optind - 1]);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_message("warning: ", "\n", fmt, ap);
    va_end(ap);
}

int cli_open_input(const char *path)
{
    if (!path || strcmp(path, "-") == 0) {
        /* a program started without input waits on the terminal: say so, or it looks hung */
        if (isatty(STDIN_FILENO))
            fprintf(stderr, "%s: reading standard input, which is a terminal: waiting for input (give a FILE or pipe a stream in; "
                            "Ctrl-D ends the input, Ctrl-C quits)\n", prog_name);
        return STDIN_FILENO;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) cli_die("cannot open '%s': %s", path, strerror(errno));
    return fd;
}

void cli_refuse_binary_tty(void)
{
    if (!out_tmp[0] && isatty(STDOUT_FILENO))
        cli_usage("refusing to write a binary stream to a terminal; redirect stdout, pipe it into another dem program, or give -o FILE");
}

/* The process's umask (mkstemp creates 0600: -o FILE gets the mode a shell redirection would). */
static mode_t current_umask(void)
{
    mode_t m = umask(0);
    umask(m);
    return m;
}

const char *cli_output_arg(const char *opt, const char *path)
{
    if (!path[0]) cli_usage("%s '': an empty file name (give a FILE, or '-' or no %s for standard output)", opt, opt);
    return path;
}

/* A signal that ends the program while -o FILE is being written: the temporary goes with it
 * (unlink is async-signal-safe), then the signal's default action, so the shell sees the kill. */
static void drop_output_and_die(int sig)
{
    if (out_tmp[0]) unlink(out_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void drop_output_on_signals(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) {
        struct sigaction old, sa;
        if (sigaction(sigs[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue; /* ignored (nohup, &) or caught */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = drop_output_and_die;
        sigaction(sigs[k], &sa, NULL);
    }
}

void cli_output_open(const char *path)
{
    if (!path || strcmp(path, "-") == 0) {
        out_file = stdout;
        cli_refuse_binary_tty();
        return;
    }
    if (strlen(path) + 16 > sizeof out_tmp) cli_usage("-o: the file name '%s' is too long", path);
    snprintf(out_final, sizeof out_final, "%s", path);
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        /* a device, pipe or socket (-o /dev/null, a FIFO): written in place; the temporary and
         * rename of a regular file would replace the device node by a file */
        if (S_ISDIR(sb.st_mode)) cli_die("-o %s: is a directory", path);
        if (!(out_file = fopen(path, "wb"))) cli_die("cannot open '%s': %s", path, strerror(errno));
        if (isatty(fileno(out_file)))
            cli_usage("refusing to write a binary stream to a terminal (-o %s); give a file, or pipe stdout into another dem program", path);
        return;
    }
    snprintf(out_tmp, sizeof out_tmp, "%s.tmp-XXXXXX", path); /* beside FILE: rename stays on one file system */
    int fd = mkstemp(out_tmp);
    if (fd < 0) {
        int e = errno;
        out_tmp[0] = 0; /* nothing to remove */
        cli_die("cannot create '%s.tmp-XXXXXX' (the temporary of -o %s): %s", path, path, strerror(e));
    }
    drop_output_on_signals();
    fchmod(fd, 0666 & ~current_umask());
    out_file = fdopen(fd, "wb");
    if (!out_file) cli_die("cannot open '%s': %s", out_tmp, strerror(errno));
}

FILE *cli_output(void) { return out_file ? out_file : stdout; }

void cli_output_close(void)
{
    FILE *f = cli_output();
    if (fflush(f) != 0 || ferror(f))
        cli_die("cannot write %s: %s", out_tmp[0] ? out_tmp : out_final[0] ? out_final : "standard output", strerror(errno));
    if (!out_tmp[0]) return;
    if (fsync(fileno(f)) != 0) cli_die("cannot write %s: %s", out_tmp, strerror(errno));
    if (fclose(f) != 0) {
        out_file = NULL;
        cli_die("cannot write %s: %s", out_tmp, strerror(errno));
    }
    out_file = NULL;
    if (rename(out_tmp, out_final) != 0) cli_die("cannot rename %s to %s: %s", out_tmp, out_final, strerror(errno));
    out_tmp[0] = 0;
}

void cli_write_end(dem_writer *w)
{
    dem_error err;
    if (dem_writer_finish(w, &err)) cli_die_err(&err);
}

void cli_input_end(const dem_reader *r)
{
    if (!dem_reader_ended_with_marker(r))
        cli_warn("the input ends after frame %llu without an end-of-stream marker: it may have been cut short (a killed "
                 "writer, a full disk; 'dem-probe --salvage' keeps the complete frames of a damaged file), or was written "
                 "before format 1.3",
                 (unsigned long long)dem_reader_frames(r) - 1);
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
    if (rc == 0) cli_input_end(r);
    if (sel->frame >= 0 && !printed)
        cli_die("--frame %lld: the stream has only %llu frames (0 to %llu)", sel->frame,
                (unsigned long long)dem_reader_frames(r), (unsigned long long)dem_reader_frames(r) - 1);
    dem_reader_free(r);
    if (fd != 0) close(fd);
    dem_system_free(&a);
    dem_system_free(&b);
}

/* ---------------------------------------------------------------- running a simulation */
/* Frame `frame` of r (-1: the last) into s, as far as r goes: the reader's last status (1 at the
 * frame asked for, 0 at the input's end, < 0 with err), and in *got whether s holds a frame. */
static int read_frames(dem_reader *r, long long frame, dem_system *s, int *got, dem_error *err)
{
    dem_system next;
    dem_system_init(&next);
    int st;
    *got = 0;
    while ((st = dem_reader_next(r, &next, err)) == 1) {
        dem_system t = *s;
        *s = next;
        next = t;
        *got = 1;
        if (frame >= 0 && dem_reader_frames(r) == (uint64_t)frame + 1) break;
    }
    dem_system_free(&next);
    if (st == 0 && *got) cli_input_end(r);
    return st;
}

void cli_read_frame(dem_reader *r, const char *name, long long frame, dem_system *s)
{
    dem_error err;
    int got, st = read_frames(r, frame, s, &got, &err);
    unsigned long long frames = (unsigned long long)dem_reader_frames(r);
    dem_reader_free(r); /* before any message: a failed read leaks nothing */
    const char *pre = name ? name : "", *sep = name ? ": " : "";
    if (st < 0 || !got) dem_system_free(s);
    if (st < 0 && got && frame < 0)
        cli_die("%s%s%s (the %llu complete frame%s before it: 'dem-probe --salvage' writes them out, to continue from the last)",
                pre, sep, err.msg, frames, frames == 1 ? "" : "s");
    if (st < 0) cli_die("%s%s%s", pre, sep, err.msg);
    if (!got) cli_die("%s%sno frame in the input", pre, sep);
    if (frame >= 0 && frames != (unsigned long long)frame + 1) {
        dem_system_free(s);
        cli_die("--frame %lld: %s has only %llu frame%s (0 to %llu)", frame, name ? name : "the input", frames,
                frames == 1 ? "" : "s", frames - 1);
    }
}

void cli_read_last_frame(const char *path, dem_system *s)
{
    dem_error err;
    int fd = cli_open_input(path);
    dem_reader *r = dem_reader_new_fd(fd, &err);
    if (!r) cli_die_err(&err);
    cli_read_frame(r, NULL, -1, s);
    if (fd != 0) close(fd);
}

int cli_try_read_run_frame(const char *path, const dem_contact_filter *f, dem_system *s, dem_settings *st)
{
    dem_error err;
    dem_system_init(s);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    dem_reader *r = dem_reader_new_fd(fd, &err);
    int got = 0, rc = r ? 1 : -1;
    if (r) {
        dem_reader_filter_contacts(r, f);
        rc = read_frames(r, -1, s, &got, &err);
    }
    dem_reader_free(r);
    close(fd);
    if (rc >= 0 && got && !dem_settings_read(st, s, &err)) return 1;
    dem_system_free(s);
    return 0;
}

void cli_read_run_frame(const char *path, dem_system *s, dem_settings *st)
{
    dem_error err;
    dem_system_init(s);
    cli_read_last_frame(path, s);
    if (dem_settings_read(st, s, &err)) cli_die("%s", err.msg);
}

static volatile sig_atomic_t interrupted; /* the signal's number */
static void on_signal(int sig) { interrupted = sig; }

void cli_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_interrupted(void) { return interrupted; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A frame of the run; why (NULL: none) goes into it as meta.stop. */
static void write_frame(dem_writer *w, dem_sim *sim, dem_system *s, const char *why)
{
    dem_error err;
    if (why && dem_param_set_str(s, "meta.stop", why, &err)) cli_die_err(&err);
    /* the contacts go from the store to the writer: no frame-sized table */
    if (dem_sim_put(sim, s, w, &err)) {
        if (strncmp(err.msg, "step ", 5) == 0) cli_die_err(&err); /* the guards name the step already */
        cli_die("step %llu: %s", (unsigned long long)dem_sim_steps(sim), err.msg);
    }
}

/* The meta.stop a frame records, if the run records one (--until): why. */
static const char *stop_note(const cli_run_hooks *hk, const char *why) { return hk && hk->record_stop ? why : NULL; }

int cli_run_steps(dem_sim *sim, dem_system *s, long long steps, long long every, int level)
{
    return cli_run_steps_hooked(sim, s, steps, every, level, NULL);
}

static int group_rank;              /* cli_set_group: this rank (0: the one that writes) */
static int (*group_agree)(int v);   /* the largest v over the ranks; NULL in one process */

void cli_set_group(int rank, int (*agree)(int v))
{
    group_rank = rank;
    group_agree = agree;
}

/* The signal that stops the run after this step, the same on every rank. */
int cli_group_agree(int v) { return group_agree ? group_agree(v) : v; }
static int stop_signal(void) { return cli_group_agree(interrupted); }

int cli_run_steps_hooked(dem_sim *sim, dem_system *s, long long steps, long long every, int level, const cli_run_hooks *hk)
{
    dem_error err;
    dem_writer *w = NULL;
    if (group_rank == 0 && !(w = dem_writer_new(cli_output(), level, &err))) cli_die_err(&err);
    dem_sim_release_frame(s); /* the sim holds the particles and contacts now: not twice */
    cli_catch_signals();
    cli_progress log;
    cli_progress_start(&log, hk ? hk->progress : 0.0, steps);
    int progress = isatty(STDERR_FILENO) && !(log.interval > 0.0), status = 0; /* the log replaces the terminal's line */
    long long written = 0, done = 0;
    double t0 = now(), last_report = t0;
    for (long long k = 1; k <= steps; k++) {
        done = k;
        if (hk && hk->before) hk->before(hk->ctx, sim);
        if (dem_sim_step(sim, &err)) cli_die_err(&err);
        const char *why = hk && hk->after ? hk->after(hk->ctx, sim) : NULL;
        if (why) {
            write_frame(w, sim, s, stop_note(hk, why));
            written++;
            if (progress) fputc('\n', stderr);
            break;
        }
        int sig = stop_signal();
        if (sig) {
            write_frame(w, sim, s, stop_note(hk, "interrupted"));
            written++;
            if (progress) fputc('\n', stderr);
            fprintf(stderr, "%s: interrupted (%s) after %lld of %lld steps; the last frame is step %llu\n", prog_name,
                    sig == SIGTERM ? "SIGTERM" : "SIGINT", k, steps, (unsigned long long)dem_sim_steps(sim));
            status = 128 + sig; /* 130 for SIGINT, 143 for SIGTERM, as the shell reports a kill */
            break;
        }
        int want = hk && hk->frame ? hk->frame(hk->ctx, sim) : 0;
        if (k == steps) {
            write_frame(w, sim, s, stop_note(hk, "steps"));
            written++;
        } else if (want || (every && k % every == 0)) {
            write_frame(w, sim, s, stop_note(hk, "running"));
            written++;
        }
        cli_progress_step(&log, sim, k);
        if (progress && now() - last_report > 0.5) {
            double el = now() - t0;
            fprintf(stderr, "\r%s: step %lld/%lld (%.0f%%), t = %.6g s, %.0f s left   ", prog_name, k, steps,
                    100.0 * k / steps, dem_sim_time(sim), el / k * (steps - k));
            last_report = now();
        }
    }
    if (steps == 0) {
        write_frame(w, sim, s, stop_note(hk, "steps"));
        written++;
    }
    cli_progress_end(&log, sim, done);
    if (!written) cli_die("internal error: no frame written for %lld steps", steps); /* never exit 0 without output */
    if (progress && steps > 0 && !status) fprintf(stderr, "\r%60s\r", "");
    if (w) { /* rank 0 (or one process) */
        cli_write_end(w); /* the frames are complete (interrupted or not): the stream is closed properly */
        dem_writer_free(w);
        cli_output_close();
    }
    return status;
}

void cli_warn_ranges(const dem_system *s, int remedy)
{
    dem_range_warning w[16];
    int n = dem_material_range_check(s, w, 16);
    for (int k = 0; k < n && k < 16; k++) {
        if (w[k].material < 0)
            cli_warn("particle %s", w[k].text);
        else if (remedy)
            cli_warn("material %d '%s': %s (dem-pack --from FILE --set-material %d:%s=VALUE changes it)", w[k].material,
                     s->materials[w[k].material].name, w[k].text, w[k].material, w[k].parameter);
        else
            cli_warn("material %d '%s': %s", w[k].material, s->materials[w[k].material].name, w[k].text);
    }
    if (n > 16) cli_warn("%d more material parameters outside the ranges of real granular materials", n - 16);
}

void cli_need_finite(uint64_t frame, const char *what, double v)
{
    if (!isfinite(v))
        cli_die("frame %llu: %s is %g: the frame's values are too large for it to be computed", (unsigned long long)frame, what, v);
}

static void (*help_done)(void); /* cli_set_help_done */

void cli_set_help_done(void (*fn)(void)) { help_done = fn; }

void cli_help(const char *text)
{
    if (fputs(text, stdout) == EOF || fflush(stdout) == EOF || ferror(stdout))
        cli_die("writing the help: %s", strerror(errno ? errno : EIO));
    if (help_done) help_done();
    exit(0);
}

long long cli_run_length(long long steps, double run_time, double dt, double time, uint64_t step)
{
    if (steps < 0) {
        double n = ceil(run_time / dt - 1e-9);
        if (!(n <= CLI_MAX_STEPS))
            cli_die("--time %g s at dt = %g s is %.3g steps, more than the %g a run may take (as -n)", run_time, dt, n, (double)CLI_MAX_STEPS);
        steps = n > 0.0 ? (long long)n : 0;
    }
    if (steps > 0 && time + dt == time)
        cli_die("dt = %g s does not advance the frame's time %.17g s (it is below half its last digit): time would stand still", dt, time);
    if ((uint64_t)steps > UINT64_MAX - step)
        cli_die("the frame is at step %llu: %lld more steps would pass the step counter's largest value 2^64 - 1", (unsigned long long)step, steps);
    return steps;
}

double cli_nonneg(const char *opt, const char *text)
{
    double v = cli_double(opt, text);
    if (!(v >= 0.0)) cli_usage("%s: '%s' must be >= 0", opt, text);
    return v;
}

double cli_quantum(const char *opt, const char *text)
{
    double q;
    if (text[0] == '2' && text[1] == '^') q = ldexp(1.0, (int)cli_int(opt, text + 2, -1000, 1000));
    else q = cli_double(opt, text);
    int e;
    if (!(q > 0.0) || frexp(q, &e) != 0.5)
        cli_usage("%s: '%s' must be a positive power of two in metres, such as %.17g or 2^-50", opt, text,
                  q > 0.0 && isfinite(q) ? ldexp(1.0, ilogb(q)) : ldexp(1.0, -50));
    return q;
}

void cli_set_exact(dem_sim *sim, const dem_settings *st, double frame_quantum, int exact, double quantum, int quiet)
{
    dem_error err;
    if (exact < 0 || (exact == 0 && !(st->exact_quantum > 0.0))) return;
    double q = quantum > 0.0 ? quantum : st->exact_quantum > 0.0 ? st->exact_quantum : frame_quantum;
    if (st->exact_quantum > 0.0 && q != st->exact_quantum)
        cli_warn("--exact=%g replaces the quantum %g m of the frame's run: a reversal across this frame will not retrace that run exactly",
                 q, st->exact_quantum);
    if (dem_sim_set_exact(sim, q, &err)) cli_die_err(&err);
    if (!quiet)
        fprintf(stderr, "%s: exact mode: positions on multiples of %.17g m (2^%d), velocities of %.6g m/s\n", prog_name, q,
                ilogb(q), q / dem_sim_dt(sim));
}

void cli_note_threads(const dem_sim *sim, int asked, size_t particles, int quiet)
{
    int used = dem_sim_threads(sim);
    if (quiet || used >= asked) return;
    fprintf(stderr, "%s: --threads %d: running %d for %zu particles (at most one thread per %d: a smaller system is faster on fewer; the results are the same bits)\n",
            prog_name, asked, used, particles, DEM_SIM_PARTICLES_PER_THREAD);
}

/* ---- the settings' options -------------------------------------------------------------------- */
void cli_setting_options(struct option *rows, int *n, int max)
{
    for (int k = 0; k < dem_setting_count && k < CLI_SETTINGS_MAX; k++) {
        const dem_setting *row = &dem_setting_table[k];
        if (!row->option) continue;
        if (*n >= max) cli_die("internal error: too many options");
        rows[(*n)++] = (struct option){row->option, required_argument, 0, CLI_SETTING_OPT + k};
    }
}

int cli_setting_arg(cli_settings_given *g, int ch, const char *arg)
{
    if (ch < CLI_SETTING_OPT || ch >= CLI_SETTING_OPT + dem_setting_count) return 0;
    const dem_setting *row = &dem_setting_table[ch - CLI_SETTING_OPT];
    dem_settings scratch;
    dem_error err;
    dem_settings_default(&scratch);
    if (dem_settings_set(&scratch, row->key, arg, &err)) cli_usage("--%s: %s", row->option, err.msg);
    g->text[ch - CLI_SETTING_OPT] = arg;
    return 1;
}

int cli_setting_given(const cli_settings_given *g, const char *key)
{
    const dem_setting *row = dem_setting_find(key);
    return row && g->text[row - dem_setting_table] != NULL;
}

void cli_settings_apply(const cli_settings_given *g, dem_settings *st)
{
    dem_error err;
    for (int k = 0; k < dem_setting_count && k < CLI_SETTINGS_MAX; k++)
        if (g->text[k] && dem_settings_set(st, dem_setting_table[k].key, g->text[k], &err))
            cli_usage("--%s: %s", dem_setting_table[k].option, err.msg);
    /* a parameter given is never ignored: the chosen models must take it, or are said not to use it */
    for (int k = 0; k < dem_setting_count && k < CLI_SETTINGS_MAX; k++) {
        char why[200];
        const dem_setting *row = &dem_setting_table[k];
        if (!g->text[k] || dem_setting_used(st, row, why, sizeof why)) continue;
        if (row->given_error) cli_usage("--%s: %s", row->option, why);
        cli_warn("--%s: %s: it has no effect", row->option, why);
    }
    if (dem_settings_check(st, &err)) cli_usage("%s", err.msg);
}

/* One option's help: "      --opt ARG" with the text from column 24 (on the next line if the
 * option is wider), each further line of the text indented to it. The text's own line breaks are
 * kept, and a line longer than the 70 columns left is broken at a space (a citation renamed to
 * a longer key must not run past the terminal's edge). */
#define HELP_TEXT_WIDTH 70
static void option_help(FILE *out, const dem_setting *row)
{
    char arg[200];
    if (row->arg) snprintf(arg, sizeof arg, "%s", row->arg);
    else if (row->type == DEM_SETTING_CHOICE || row->type == DEM_SETTING_MODEL || row->names) dem_setting_names(row, "|", arg, sizeof arg);
    else snprintf(arg, sizeof arg, "X");
    int w = fprintf(out, "      --%s %s", row->option, arg);
    const char *t = row->help;
    if (w > 22) fprintf(out, "\n%23s", "");
    else fprintf(out, "%*s", 23 - w, "");
    for (;;) {
        size_t n = strcspn(t, "\n");
        while (n > HELP_TEXT_WIDTH) { /* the last space that keeps the line within the width */
            size_t cut = HELP_TEXT_WIDTH;
            while (cut > 0 && t[cut] != ' ') cut--;
            if (cut == 0) break;
            fprintf(out, "%.*s\n%23s", (int)cut, t, "");
            t += cut + 1;
            n -= cut + 1;
        }
        fprintf(out, "%.*s\n", (int)n, t);
        if (!t[n]) break;
        t += n + 1;
        fprintf(out, "%23s", "");
    }
}

void cli_settings_help(FILE *out, const char *section)
{
    for (int k = 0; k < dem_setting_count; k++)
        if (dem_setting_table[k].option && dem_setting_table[k].section && strcmp(dem_setting_table[k].section, section) == 0)
            option_help(out, &dem_setting_table[k]);
}

_Noreturn void cli_help_parts(const char *const parts[])
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) cli_die("writing the help: %s", strerror(errno));
    for (int k = 0; parts[k]; k++) {
        if (parts[k][0] == '@') cli_settings_help(out, parts[k] + 1);
        else fputs(parts[k], out);
    }
    if (fclose(out) != 0) cli_die("writing the help: %s", strerror(errno));
    cli_help(text);
}

/* ---- option groups ---------------------------------------------------------------------------- */
void cli_frames_init(cli_frames *sel)
{
    sel->frame = -1;
    sel->last = 0;
    sel->every = 1;
    sel->given = 0;
}

int cli_frames_arg(cli_frames *sel, int ch, const char *arg)
{
    switch (ch) {
    case CLI_OPT_FRAME: sel->frame = cli_int("--frame", arg, 0, INT64_MAX); break;
    case CLI_OPT_LAST: sel->last = 1; break;
    case CLI_OPT_EVERY: sel->every = cli_int("--every", arg, 1, INT64_MAX); break;
    default: return 0;
    }
    sel->given++;
    return 1;
}

void cli_frames_check(const cli_frames *sel)
{
    if (sel->given > 1) cli_usage("--frame, --last and --every exclude each other");
}

const char *cli_one_input(int argc, char *const argv[])
{
    if (argc - optind > 1)
        cli_usage("one input at most: '%s' and '%s' given (concatenate streams with cat)", argv[optind], argv[optind + 1]);
    return optind < argc ? argv[optind] : NULL;
}

void cli_run_init(cli_run_opts *r)
{
    memset(r, 0, sizeof *r);
    r->steps = -1;
    r->run_time = -1.0;
    r->threads = 1;
    r->level = DEM_LEVEL_DEFAULT;
    dem_sim_limits_default(&r->limits);
}

int cli_run_arg(cli_run_opts *r, int ch, const char *arg)
{
    switch (ch) {
    case 'n': r->steps = cli_int("--steps", arg, 0, CLI_MAX_STEPS); break;
    case CLI_OPT_TIME:
        r->run_time = cli_double("--time", arg);
        if (!(r->run_time >= 0.0)) cli_usage("--time: '%s' must be >= 0", arg);
        break;
    case CLI_OPT_RUN_EVERY: r->every = cli_int("--every", arg, 1, 1000000000000000LL); break;
    case CLI_OPT_THREADS: r->threads = (int)cli_int("--threads", arg, 1, 1024); break;
    case CLI_OPT_LEVEL: r->level = (int)cli_int("--level", arg, 0, 9); break;
    case 'o': r->output = cli_output_arg("-o", arg); break;
    case 'q': r->quiet = 1; break;
    case CLI_OPT_PROGRESS: r->progress = cli_progress_interval("--progress", arg); break;
    case CLI_OPT_EXACT: r->exact = 1; if (arg) r->quantum = cli_quantum("--exact", arg); break;
    case CLI_OPT_NO_EXACT: r->exact = -1; break;
    case CLI_OPT_STOP_OVERLAP: r->limits.overlap = cli_nonneg("--stop-overlap", arg); break;
    case CLI_OPT_STOP_MOVE: r->limits.move = cli_nonneg("--stop-move", arg); break;
    default: return 0;
    }
    return 1;
}

void cli_run_check(const cli_run_opts *r)
{
    if ((r->steps >= 0) == (r->run_time >= 0.0)) cli_usage("give exactly one of -n/--steps and --time");
}
