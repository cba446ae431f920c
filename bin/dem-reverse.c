/* dem-reverse - run a particle system backwards in time (reversed-time DEM). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "dem.h"

static const char usage_text[] =
"Usage: dem-reverse (-n N | --time T) [OPTIONS] [FILE] > out.dem\n"
"\n"
"Run the system of the last frame of FILE (standard input if FILE is absent or '-')\n"
"backwards in time with the reversed-time algorithm of Hanley (reversed-time DEM, eqs\n"
"17-20): v -= dt/2 F/m, x -= dt v, F(x), v -= dt/2 F/m. The frame's settings and time step\n"
"are used as they are. Frames are written as dem-step writes them, with decreasing time;\n"
"the step counter keeps counting the steps taken. Walls move back along their prescribed\n"
"velocity; drag is undone by dividing by its factor (Hanley eqs 27-28).\n"
"\n"
"  dem-step -n N run.dem | dem-reverse -n N\n"
"returns to the first state of run.dem to round-off; with --exact on both, bit for bit.\n"
"\n"
"Only energy-conserving systems of frictionless spheres can be reversed: linear, Hertzian\n"
"or DMT-adhesive normal contacts (--tangential none), gravity, fixed or moving walls, drag.\n"
"dem-reverse refuses, before any step, a frame whose settings lose information a reversed\n"
"run would need, and names each such mechanism: tangential springs and Coulomb friction,\n"
"contact damping (viscous or from restitution < 1), local damping, rolling and twisting\n"
"resistance, a stress servo (Hanley §4-5), JKR's adhesive necks (--normal jkr: they hold\n"
"past zero overlap, and forming and breaking them loses energy).\n"
"\n"
"Options:\n"
"  -n, --steps N        reverse N steps\n"
"      --time T         reverse by T seconds (ceil(T/dt) steps)\n"
"      --every K        write a frame every K steps (and always the last); default: only the\n"
"                       last frame\n"
"      --exact[=Q]      exact (fixed-point) mode, as dem-step --exact: positions on multiples\n"
"                       of Q m (a power of two, e.g. 2^-50; default: the frame's quantum, or\n"
"                       the power of two that leaves room for coordinates 4 times the\n"
"                       system's largest), velocities on multiples of Q/dt, each contact's\n"
"                       force rounded onto the lattice and summed as integers. A frame written\n"
"                       in exact mode is reversed in exact mode unless --no-exact is given.\n"
"      --no-exact       floating-point reversal even for a frame written in exact mode\n"
"      --replay FILE    a servo-controlled cell: use the velocity gradients dem-step --cell-log\n"
"                       FILE recorded, the last first, instead of letting the servo decide\n"
"                       them (it would decide them from stresses a step out of sync, Hanley\n"
"                       §4): the reversal then retraces the forward run (examples/fcc-triaxial:\n"
"                       every position, H and F bit for bit). A cell deforming at given rates\n"
"                       needs no log: its rates are in the frame\n"
"      --force          reverse even an irreversible system (the refusal becomes a warning):\n"
"                       to see how far from its past such a run ends\n"
"      --threads T      threads (default 1), at most one per 64 particles (a smaller\n"
"                       system runs faster on fewer; said on stderr); the results do not\n"
"                       depend on T\n"
"      --level L        deflate level of the output, 0..9 (default 1)\n"
"  -o, --output FILE    write the stream to FILE instead of standard output: as FILE.tmp-XXXXXX\n"
"                       beside it, renamed to FILE when the run is complete (a failed run\n"
"                       leaves no FILE and no temporary)\n"
"      --stop-overlap F, --stop-move F\n"
"                       the stability guards of dem-step (defaults 0.5 and 1; 0: off)\n"
"      --progress S     a progress log on standard error every S seconds of wall-clock time,\n"
"                       terminal or not, as dem-step --progress: progress step time[s]\n"
"                       unbalanced overlap_max ke[J] elapsed[s] eta[s] (tab-separated)\n"
"  -q, --quiet          no notes on standard error\n"
"  -h, --help           print this help and exit\n"
"\n"
"Examples:\n"
"  dem-step --normal hooke --tangential none --damping none -n 15000 a.dem |\n"
"      dem-reverse -n 15000 | dem-probe --particles\n"
"  dem-step --exact -n 100000 gas.dem | dem-reverse --exact -n 100000 > back.dem\n"
"\n"
"Progress is shown on standard error when it is a terminal. SIGINT or SIGTERM: the current\n"
"step is finished, a last complete frame is written, and the exit status is 130 (SIGINT) or\n"
"143 (SIGTERM).\n"
"Exit status: 0 success; 1 bad input, an irreversible system or a failed run; 2 bad usage;\n"
"130/143 interrupted.\n";

struct cmdline {
    cli_run_opts run;      /* -n, --time, --every, --threads, --level, -o, -q, --exact, --stop-* (cli.h) */
    int force;
    const char *input;
    const char *replay;    /* --replay FILE: dem-step --cell-log's rates */
};

enum { OPT_FORCE = 256, OPT_REPLAY };

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    static const struct option opts[] = {
        CLI_RUN_OPTIONS, {"force", no_argument, 0, OPT_FORCE}, {"replay", required_argument, 0, OPT_REPLAY},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    memset(c, 0, sizeof *c);
    cli_run_init(&c->run);
    int ch;
    opterr = 0; /* our own messages, in the cli_usage format */
    while ((ch = getopt_long(argc, argv, ":" CLI_RUN_SHORT "h", opts, NULL)) != -1) {
        switch (ch) {
        case OPT_FORCE: c->force = 1; break;
        case OPT_REPLAY: c->replay = optarg; break;
        case 'h': cli_help(usage_text);
        default:
            if (!cli_run_arg(&c->run, ch, optarg)) cli_bad_option_of(ch, argv, opts);
        }
    }
    c->input = cli_one_input(argc, argv);
    cli_run_check(&c->run);
}

/* Refuse (or, with --force, warn about) every mechanism that cannot be reversed. */
static void check_reversible(const dem_settings *st, const dem_system *s, int force)
{
    char buf[4096];
    int n = dem_irreversibilities(st, s, buf, sizeof buf);
    if (!n) return;
    for (char *line = buf, *end; *line; line = end + 1) {
        if (!(end = strchr(line, '\n'))) end = line + strlen(line) - 1;
        fprintf(stderr, "%s: %s%.*s\n", cli_prog(), force ? "warning: irreversible: " : "cannot reverse ", (int)(end - line), line);
        if (!end[1]) break;
    }
    if (!force) cli_die("%d irreversible mechanism%s in the frame's settings; nothing was run (--force runs anyway)", n, n > 1 ? "s" : "");
}

/* --replay: the velocity gradients dem-step --cell-log wrote, by the step that ended with them. */
typedef struct {
    uint64_t *step;
    dem_mat3 *l;
    size_t n;
    uint64_t next;     /* the forward step the next reversed step undoes */
} replay_log;

static void read_replay(const char *path, replay_log *rl)
{
    FILE *f = fopen(path, "r");
    if (!f) cli_die("--replay: cannot read '%s': %s", path, strerror(errno));
    char line[1024];
    size_t cap = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "step\tl11", 8) != 0) cli_die("--replay: '%s' is not a dem-step --cell-log table (its first line is not the header)", path);
            continue;
        }
        unsigned long long st;
        double v[9];
        if (sscanf(line, "%llu %lf %lf %lf %lf %lf %lf %lf %lf %lf", &st, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) != 10)
            cli_die("--replay: '%s' line %zu is not a step and nine rates", path, lineno);
        if (rl->n == cap) {
            cap = cap ? 2 * cap : 1024;
            rl->step = realloc(rl->step, cap * sizeof *rl->step);
            rl->l = realloc(rl->l, cap * sizeof *rl->l);
            if (!rl->step || !rl->l) cli_die("out of memory for the replay log");
        }
        if (rl->n && st != rl->step[rl->n - 1] + 1) cli_die("--replay: '%s' line %zu: step %llu does not follow step %llu", path, lineno, st, (unsigned long long)rl->step[rl->n - 1]);
        rl->step[rl->n] = st;
        for (int k = 0; k < 9; k++) rl->l[rl->n].m[k / 3][k % 3] = v[k];
        rl->n++;
    }
    fclose(f);
    if (rl->n == 0) /* not "the log holds the rates of steps 0..0" at the first step */
        cli_die("--replay: '%s' holds no step: %s", path,
                lineno ? "only its header (dem-step --cell-log writes one line per step the run took)" : "the file is empty");
}

static void replay_before(void *ctx, dem_sim *sim)
{
    replay_log *rl = ctx;
    uint64_t s = rl->next--;
    if (!rl->n || s < rl->step[0] || s > rl->step[rl->n - 1])
        cli_die("--replay: the log holds the rates of steps %llu..%llu, not of step %llu that is to be undone",
                rl->n ? (unsigned long long)rl->step[0] : 0ull, rl->n ? (unsigned long long)rl->step[rl->n - 1] : 0ull, (unsigned long long)s);
    dem_sim_set_cell_rate(sim, &rl->l[s - rl->step[0]]);
}

int main(int argc, char **argv)
{
    cli_init("dem-reverse");
    struct cmdline c;
    parse_args(argc, argv, &c);
    dem_error err;
    dem_system s;
    dem_settings st;
    cli_read_run_frame(c.input, &s, &st);
    if (!(s.dt > 0.0)) cli_die("the frame has no time step (dt 0): it was never advanced, so there is no run to reverse; dem-step sets one");
    unsigned mask = s.cell.stress_mask;
    if (c.replay) s.cell.stress_mask = 0; /* replayed: the servo decides nothing */
    check_reversible(&st, &s, c.force);
    s.cell.stress_mask = mask;
    if (c.run.exact < 0) st.exact_quantum = 0.0;
    cli_output_open(c.run.output);

    double frame_quantum = dem_exact_quantum(&s); /* the frame's particles go in dem_sim_new_from */
    dem_sim *sim = dem_sim_new_from(&s, &st, c.run.threads, &err);
    if (!sim) cli_die_err(&err);
    cli_note_threads(sim, c.run.threads, s.nparticles, c.run.quiet);
    dem_sim_set_dt(sim, s.dt);
    dem_sim_set_direction(sim, -1);
    dem_sim_set_limits(sim, &c.run.limits);
    cli_set_exact(sim, &st, frame_quantum, c.run.exact, c.run.quantum, c.run.quiet);
    long long steps = cli_run_length(c.run.steps, c.run.run_time, s.dt, s.time, s.step);
    replay_log rl = {NULL, NULL, 0, s.step};
    if (c.replay) read_replay(c.replay, &rl);
    cli_run_hooks hooks = {&rl, c.replay ? replay_before : NULL, NULL, 0, NULL, c.run.progress};
    int status = cli_run_steps_hooked(sim, &s, steps, c.run.every, c.run.level, &hooks);
    free(rl.step);
    free(rl.l);
    dem_sim_free(sim);
    dem_system_free(&s);
    return status;
}
