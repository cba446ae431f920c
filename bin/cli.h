/* cli.h - what every dem program shares: exit codes, messages, input and output conventions.
 *
 * Exit status: 0 success; 1 data or I/O error ("prog: message"); 2 bad usage (message plus a
 * pointer to --help); 130 interrupted. Help goes to stdout with status 0. */
#ifndef DEM_CLI_H
#define DEM_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "core/error.h"
#include "sim/sim.h"
#include "io/stream.h"
#include "io/system.h"

#define CLI_EXIT_DATA 1
#define CLI_EXIT_USAGE 2

/* Set the program name used in messages (call first in main). */
void cli_init(const char *prog);
const char *cli_prog(void);
/* "prog: message" on stderr, exit 1. */
_Noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: <libdem message>" on stderr, exit 1. */
_Noreturn void cli_die_err(const dem_error *err);
/* "prog: message" and "Try 'prog --help' for more information." on stderr, exit 2. */
_Noreturn void cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The usage error of a getopt_long result that is no option of the program: ':' (an option
 * without its value) or '?' (an unknown option). The programs call getopt_long with opterr = 0
 * and an optstring starting with ':', so that these are the only messages. */
_Noreturn void cli_bad_option(int ch, char *const argv[]);
/* The same, for a program whose getopt rows are opts: an unknown long option is answered with
 * the nearest known one ("did you mean --gravity?") when one is close enough. */
_Noreturn void cli_bad_option_of(int ch, char *const argv[], const struct option *opts);

/* ---- the settings' options (lib/laws/settings.h: one row per setting) ----------------------
 * getopt rows for every setting with a long option, with val CLI_SETTING_OPT + its row's index,
 * appended to rows[*n] (the caller's table ends with a {0} row after it). */
#define CLI_SETTING_OPT 0x1000
#define CLI_SETTINGS_MAX 64
void cli_setting_options(struct option *rows, int *n, int max);
/* What the command line gave for each setting row (NULL: not given). */
typedef struct {
    const char *text[CLI_SETTINGS_MAX];
} cli_settings_given;
/* A getopt result that is a setting option: check its value (a usage error naming the option if
 * the setting refuses it) and remember it. Returns 0 if ch is no setting option. */
int cli_setting_arg(cli_settings_given *g, int ch, const char *arg);
/* Apply what was given to st (the frame's settings) in the table's order, then: an option that
 * the chosen models cannot take is a usage error, one they do not use a warning ("it has no
 * effect"); the combination is checked as a frame's is (usage error). */
void cli_settings_apply(const cli_settings_given *g, dem_settings *st);
/* Whether the option of key was given. */
int cli_setting_given(const cli_settings_given *g, const char *key);
/* The help of one section of the settings' options, as --help shows them. */
void cli_settings_help(FILE *out, const char *section);
/* Print a help built of parts: a part starting with '@' is the settings' section of that name,
 * any other part is printed as it is; then exit 0 (as cli_help). */
_Noreturn void cli_help_parts(const char *const parts[]);
/* Usage error from a libdem parse failure of option --opt. */
_Noreturn void cli_usage_err(const char *opt, const dem_error *err);
/* A warning on stderr: "prog: warning: message". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Open a file argument for reading as a file descriptor; NULL or "-" is stdin (said on stderr
 * when stdin is a terminal: the program waits for input there). */
int cli_open_input(const char *path);
/* Refuse to write the binary stream to a terminal (exit 2). */
void cli_refuse_binary_tty(void);
/* Where the binary stream goes: path NULL or "-" is stdout (refused if a terminal); otherwise
 * -o FILE, written as FILE.tmp-XXXXXX beside it and renamed to FILE by cli_output_close, so a
 * FILE never holds a partial run; a failed run (cli_die) removes the temporary, and so does a
 * SIGINT, SIGTERM or SIGHUP that ends the program (one that is not ignored or caught). */
void cli_output_open(const char *path);
/* The value of -o FILE as parsed: an empty name is a usage error at once, before any input is
 * read or step taken (it would otherwise fail at the rename after the run). Returns path. */
const char *cli_output_arg(const char *opt, const char *path);
FILE *cli_output(void);
/* Flush (and for -o: fsync, close, rename). */
void cli_output_close(void);
/* Write the end-of-stream marker after the last frame (dies on a write error). */
void cli_write_end(dem_writer *w);
/* At the clean end of an input: warn if it has no end-of-stream marker. */
void cli_input_end(const dem_reader *r);
/* Parse an option value: a finite double, an integer in [lo, hi]. Usage error otherwise. */
double cli_double(const char *opt, const char *text);
/* Print a help text on stdout and exit 0, or exit 1 if it cannot be written (a full disk). */
void cli_help(const char *text) __attribute__((noreturn));
/* What cli_help calls before it exits 0 (NULL: nothing): dem-step on MPI ends MPI there, since
 * every rank reads the same options and so every rank asks for the help (bin/mpi_run.c). */
void cli_set_help_done(void (*fn)(void));
/* What cli_die and cli_usage call after the message, before they exit with status (NULL:
 * nothing): dem-step on MPI holds the ranks above 0 back there a while, so that where every rank
 * fails alike rank 0 has written its message before mpirun ends the job (bin/mpi_run.c). */
void cli_set_before_exit(void (*fn)(int status));
/* The most steps one run may take (-n and --time alike). */
#define CLI_MAX_STEPS 1000000000000000LL
/* The steps of a run: steps if >= 0, else ceil(run_time / dt); dies if that passes
 * CLI_MAX_STEPS, if dt does not advance the frame's time, or if the step counter would wrap. */
long long cli_run_length(long long steps, double run_time, double dt, double time, uint64_t step);
/* Die unless v is finite: "frame F: WHAT is V: the frame's values are too large ...". For the
 * measures that finite inputs can overflow (never print nan or inf where a number is meant). */
void cli_need_finite(uint64_t frame, const char *what, double v);
/* Warn ("prog: warning: material K 'name': young = 70 Pa is below ...; did you mean 70e9 Pa
 * (GPa)?") about each material parameter and radius of s outside the range of real granular
 * materials (lib/laws/material_ranges.h): a slip of units, said before a run fails on it. remedy:
 * add how to change the value in a stream (dem-pack --set-material). */
void cli_warn_ranges(const dem_system *s, int remedy);
/* A finite number >= 0, or a usage error naming opt. */
double cli_nonneg(const char *opt, const char *text);
long long cli_int(const char *opt, const char *text, long long lo, long long hi);
/* Parse a positive power of two, given as a number or as 2^N. */
double cli_quantum(const char *opt, const char *text);
/* Parse n comma-separated doubles. */
void cli_doubles(const char *opt, const char *text, double *v, int n);

/* Flush out and die with "cannot write WHAT: reason" (exit 1) if writing failed. */
void cli_check_output(FILE *out, const char *what);

/* Frame selection shared by the programs that read a stream and print TSV: --frame K (only
 * frame K, reading stops there), --last (the last complete frame), --every K (0, K, 2K, ...). */
typedef struct {
    long long frame; /* -1: not given */
    int last;
    long long every; /* >= 1 */
    int given;       /* how many of the three options were given */
} cli_frames;

/* ---- option groups: what several programs take, written once -------------------------------
 * A program puts a group's getopt rows into its table, hands each getopt result to the group's
 * _arg function first (it returns 1 when the option was the group's), and calls the group's
 * _check after the loop. */
/* Frame selection (dem-probe, dem-energy, dem-stress): --frame K, --last, --every K. */
enum { CLI_OPT_FRAME = 0x2000, CLI_OPT_LAST, CLI_OPT_EVERY };
#define CLI_FRAME_OPTIONS                                                                          \
    {"frame", required_argument, NULL, CLI_OPT_FRAME}, {"last", no_argument, NULL, CLI_OPT_LAST}, \
        {"every", required_argument, NULL, CLI_OPT_EVERY}
void cli_frames_init(cli_frames *sel);
int cli_frames_arg(cli_frames *sel, int ch, const char *arg);
/* At most one of them (usage error). */
void cli_frames_check(const cli_frames *sel);
/* One input (every reading program): the operand left after the options, NULL (standard input)
 * if none; more than one is a usage error. */
const char *cli_one_input(int argc, char *const argv[]);

/* The run options (dem-step, dem-reverse): -n/--steps N or --time T (exactly one), --every K,
 * --threads T, --level L, -o FILE, -q, --exact[=Q], --no-exact, --stop-overlap F, --stop-move F. */
enum { CLI_OPT_TIME = 0x2100, CLI_OPT_RUN_EVERY, CLI_OPT_THREADS, CLI_OPT_LEVEL, CLI_OPT_EXACT, CLI_OPT_NO_EXACT,
       CLI_OPT_STOP_OVERLAP, CLI_OPT_STOP_MOVE, CLI_OPT_PROGRESS };
#define CLI_RUN_OPTIONS                                                                                        \
    {"steps", required_argument, 0, 'n'}, {"time", required_argument, 0, CLI_OPT_TIME},                        \
        {"output", required_argument, 0, 'o'}, {"every", required_argument, 0, CLI_OPT_RUN_EVERY},             \
        {"threads", required_argument, 0, CLI_OPT_THREADS}, {"level", required_argument, 0, CLI_OPT_LEVEL},    \
        {"quiet", no_argument, 0, 'q'}, {"exact", optional_argument, 0, CLI_OPT_EXACT},                        \
        {"no-exact", no_argument, 0, CLI_OPT_NO_EXACT}, {"stop-overlap", required_argument, 0, CLI_OPT_STOP_OVERLAP}, \
        {"stop-move", required_argument, 0, CLI_OPT_STOP_MOVE}, {"progress", required_argument, 0, CLI_OPT_PROGRESS}
/* Their short letters, for getopt_long's optstring. */
#define CLI_RUN_SHORT "n:o:q"
typedef struct {
    long long steps;       /* -n; -1: not given */
    double run_time;       /* --time, s; < 0: not given */
    long long every;       /* --every; 0: only the last frame */
    int threads, level, quiet;
    const char *output;    /* -o FILE (NULL: standard output) */
    int exact;             /* 1: --exact, -1: --no-exact, 0: as the frame says */
    double quantum;        /* --exact=Q, m (0: the frame's or the default) */
    dem_sim_limits limits; /* --stop-overlap, --stop-move */
    double progress;       /* --progress S (0: off; bin/progress.h) */
} cli_run_opts;
void cli_run_init(cli_run_opts *r);
int cli_run_arg(cli_run_opts *r, int ch, const char *arg);
/* Exactly one of -n/--steps and --time (usage error). */
void cli_run_check(const cli_run_opts *r);

typedef struct {
    void *ctx;
    /* Every frame read, in order, selected or not (may be NULL). */
    void (*seen)(void *ctx, uint64_t frame, const dem_system *s);
    /* The selected frames. */
    void (*emit)(void *ctx, uint64_t frame, const dem_system *s);
    /* Make sure the header line is out (and stdout is sound): called before any error exit and
     * at the end, so a table always has its header. */
    void (*finish)(void *ctx);
} cli_frame_handlers;

/* Read the stream at path ('-' or NULL: stdin) and hand the frames to h as sel says. Damaged
 * input: the frames before the damage are handled, then "prog: message", exit 1; --frame past
 * the end: exit 1 naming the frame count. */
void cli_run_frames(const char *path, const cli_frames *sel, const cli_frame_handlers *h);

/* The last complete frame of the stream at path ('-' or NULL: stdin) into s; exit 1 if the
 * stream is damaged or empty. */
void cli_read_last_frame(const char *path, dem_system *s);
/* The same, and the run's settings from it into st (a run continues the last frame: dem-step,
 * dem-reverse); exit 1 if they are damaged. */
void cli_read_run_frame(const char *path, dem_system *s, dem_settings *st);
/* cli_read_run_frame of the file at path with its contacts read through f (stream.h), printing
 * nothing: 1 when s and st hold the frame, 0 when it could not be read (the caller then reads
 * it with cli_read_run_frame, which says why). */
int cli_try_read_run_frame(const char *path, const dem_contact_filter *f, dem_system *s, dem_settings *st);
/* Frame `frame` of r (0 the first; -1 the last complete one) into s, then free r. Exit 1 if the
 * stream is damaged (saying how many complete frames precede the damage), has no frame, or has
 * no such frame; messages begin with "name: " unless name is NULL. */
void cli_read_frame(dem_reader *r, const char *name, long long frame, dem_system *s);
/* SIGINT and SIGTERM from now on only set a flag, which cli_interrupted returns (the signal's
 * number, 0 while none came): the program finishes its work unit and writes a last frame. */
void cli_catch_signals(void);
int cli_interrupted(void);
/* Advance sim by steps (0: write the state as it is), writing a frame to stdout every `every`
 * steps (0: none) and after the last, at deflate level `level`. s is the frame the sim was built
 * from (its tables receive each frame). Progress on stderr when it is a terminal. SIGINT or
 * SIGTERM: the step is finished, a last frame written; returns 130. Returns 0 when done; a
 * failed step exits 1 with the library's message. */
int cli_run_steps(dem_sim *sim, dem_system *s, long long steps, long long every, int level);
/* Hooks of a run (any may be NULL): before each step (dem-reverse's replay of the cell's
 * rates), after each (a log; a stop condition: return a reason, e.g. "stress", to end the run
 * with a frame; the reason goes into the frames as meta.stop, "running" before, "steps" if the
 * run ends by its count). */
typedef struct {
    void *ctx;
    void (*before)(void *ctx, dem_sim *sim);
    const char *(*after)(void *ctx, dem_sim *sim);
    int record_stop;       /* write meta.stop into the frames */
    /* After each step (after `after`): nonzero writes a frame there, beside those of `every`. */
    int (*frame)(void *ctx, dem_sim *sim);
    /* --progress SECONDS: the progress log (bin/progress.h) instead of the terminal's line; 0: off */
    double progress;
} cli_run_hooks;
int cli_run_steps_hooked(dem_sim *sim, dem_system *s, long long steps, long long every, int level, const cli_run_hooks *hk);
/* A run on several ranks (dem-step's MPI build, bin/mpi_run.h): a rank other than 0 writes no
 * stream (it takes part in each frame's exchange); agree(v) gives every rank the largest of their
 * v, so that a signal stops every rank after the same step. */
void cli_set_group(int rank, int (*agree)(int v));
/* The largest of the ranks' v (v itself in one process): a decision every rank must take alike. */
int cli_group_agree(int v);
/* Enter the exact mode if exact > 0 (--exact[=quantum]) or, with exact == 0, if the frame's
 * settings st say so (exact < 0: --no-exact). quantum 0: the frame's, else frame_quantum (the
 * frame's dem_exact_quantum, taken before dem_sim_new_from freed its particles). Call after the
 * last dem_sim_set_dt. Exit 1 with the library's message if the sim cannot. */
void cli_set_exact(dem_sim *sim, const dem_settings *st, double frame_quantum, int exact, double quantum, int quiet);
/* Say on stderr (unless quiet) when the sim runs fewer threads than --threads asked for. */
void cli_note_threads(const dem_sim *sim, int asked, size_t particles, int quiet);
#endif
