/* dem-step - advance a particle system in time. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dem.h"
#include "progress.h"
#ifdef DEM_MPI
#include "mpi_run.h"
#endif

/* The help: the run options here, the settings' options from their table (lib/laws/settings.c:
 * a part "@SECTION" is that section's rows, cli_help_parts). */
static const char *const usage_parts[] = {
"Usage: dem-step (-n N | --time T) [OPTIONS] [FILE] > out.dem\n"
"       dem-step --minimize [--ftol F] [--max-iter N] [OPTIONS] [FILE] > relaxed.dem\n"
"\n"
"Advance the system of the last frame of FILE (standard input if FILE is absent or '-')\n"
"in time with the discrete element method, and write frames of the dem stream to standard\n"
"output. Settings given here are stored in every frame written, so a second dem-step\n"
"continues with them: dem-step -n N | dem-step -n N gives the same bits as dem-step -n 2N.\n"
"Results are also the same bits for any --threads. Units are SI.\n"
"\n"
"On MPI: mpirun -np K dem-step-mpi [OPTIONS] -o out.dem [FILE] (built where Open MPI is installed)\n"
"gives the same bits for any number of ranks K, any --threads per rank, and across a restart\n"
"at another K; each rank reads an input file every rank can read (else rank 0 reads it and\n"
"sends it), rank 0 writes the stream (-o: mpirun's standard output is a terminal);\n"
"DEM_MPI_BALANCE=work|count|skew|shift chooses the ranks' cuts. Each rank steps its own\n"
"particles and keeps only theirs and its halo's state (with DEM_MPI_REPLICATE=1, every rank\n"
"steps the whole system; for tests, DEM_MPI_CHECK_STALE=1 fills what a rank does not keep\n"
"with NaN, and DEM_MPI_FRAME_CHUNK=N sends a frame's particles and contacts to rank 0 N at\n"
"a time).\n"
"Not yet on several ranks: --integrator variational, --minimize. README, \"Running on a\n"
"cluster (MPI)\".\n"
"\n"
"Running:\n"
"  -n, --steps N        advance N steps\n"
"      --time T         advance by T seconds: n = ceil(T/dt) steps, and unless T is a whole\n"
"                       number of steps already (to 1e-9 of a step), dt becomes T/n for the run\n"
"                       (stored in its frames, said on stderr); the last frame's time is the\n"
"                       start's plus T exactly. Not in exact mode, whose lattice is tied to dt:\n"
"                       there dt stays and the run ends at n dt >= T (said on stderr)\n"
"      --dt DT|auto     time step, s. auto: the estimate below. Default: the frame's dt, or\n"
"                       auto if the frame has none. dem-step prints the estimates on standard\n"
"                       error: the collision time tc of the smallest pair (linear spring:\n"
"                       pi sqrt(m*/kn); Hertz: 2.868 (m*^2/(R* E*^2 vc))^(1/5); dmt, jkr:\n"
"                       at most half the period of a stuck pair's vibration about zero\n"
"                       load, pi sqrt(m*/k), k = 2 E* a (dmt) or 6/5 E* a0 (jkr)), the p-wave\n"
"                       step r sqrt(rho/E) and the global-stiffness step sqrt(2m/K) (Yade\n"
"                       DEM formulation §1.5.6); auto = min(tc/50, 0.2 p-wave, 0.3 stiffness).\n"
"                       It warns when DT exceeds tc/10, the p-wave step or 0.5 stiffness step.\n"
"      --every-time DT  write a frame at the first step at or past each multiple of DT s,\n"
"                       counted from time 0 (not from the run's start), and always the last.\n"
"                       With --time T a whole multiple of DT, n is made a multiple of T/DT so\n"
"                       the frames land on the multiples (to round-off). Excludes --every\n"
"      --every K        write a frame every K steps (and always the last); default: only the\n"
"                       last frame\n"
"      --threads T      threads (default 1), at most one per 64 particles (a smaller\n"
"                       system runs faster on fewer; said on stderr); the results do not\n"
"                       depend on T\n"
"      --level L        deflate level of the output, 0..9 (default 1)\n"
"  -o, --output FILE    write the stream to FILE instead of standard output: as FILE.tmp-XXXXXX\n"
"                       beside it, renamed to FILE when the run is complete (a failed run\n"
"                       leaves no FILE and no temporary)\n"
"      --progress S     a progress log on standard error every S seconds of wall-clock time,\n"
"                       terminal or not (batch jobs; LAMMPS' thermo output): a header, then\n"
"                       progress step time[s] unbalanced overlap_max ke[J] elapsed[s] eta[s]\n"
"                       tab-separated (grep ^progress LOG | cut -f2- is a TSV), and a line\n"
"                       after the last step. unbalanced: mean |net force| / mean |contact\n"
"                       force| (--until unbalanced's ratio); overlap_max: the largest overlap\n"
"                       now, of the smaller radius; ke: the free particles' kinetic energy;\n"
"                       eta: the rest of the run at the rate so far (with --until, at most).\n"
"                       Off by default; the results are the same bits with it\n"
"  -q, --quiet          do not print the notes: the time-step estimates, the largest overlap,\n"
"                       the threads used, the exact mode's lattice, --time's step and the\n"
"                       --minimize and variational reports. Warnings are always printed\n"
"  -v, --verbose        also print how the time step depends on the stiffness and what users\n"
"                       commonly do about it (printed anyway for a run of more than 10^6\n"
"                       steps; README \"Choosing the time step\")\n"
"                       After the run dem-step prints the largest overlap it saw, relative to\n"
"                       the smaller radius (to the radius against a wall), with the pair and\n"
"                       the step: overlaps of about 1% or less keep a soft contact close to\n"
"                       the hard grains it stands in for.\n"
"\n"
"Integrator:\n",
"@integrator",
"\n"
"Contact law (a normal, a tangential and a damping sub-model):\n",
"@contact",
"\n"
"Rolling and twisting resistance (a couple at each contact; off by default; README):\n",
"@rolling",
"  A material parameter the chosen models do not use (rolling_friction with --rolling none,\n"
"  ...) is warned about, and so is an option they do not use (--kn with --normal hertz, ...).\n"
"\n"
"Other dissipation, interactions and the neighbour search:\n",
"@other",
"      --wall-velocity K=VX,VY,VZ\n"
"                       set the velocity of wall K (0-based, as dem-probe lists them), m/s\n"
"\n"
"Stability guards (a run that trips one stops with exit 1, naming the step, the particle\n"
"and the time step against the collision time; the frames written before stay readable):\n"
"      --stop-overlap F stop when an overlap exceeds F of the smaller radius (of the radius\n"
"                       against a wall) (default 0.5; settled beds stay below 0.01; 0: off).\n"
"                       Tripped with dt <= tc/20, the contacts are too soft for their load:\n"
"                       the stiffness or its units (dem-step warns, as dem-pack does, about\n"
"                       material values outside every real granular material; not with -q)\n"
"      --stop-move F    stop when a particle moves more than F neighbour skins in one step\n"
"                       (default 1; a sound step moves about 1e-3 skins; 0: off)\n"
"      --stop-dt F      refuse to start when dt exceeds F times the collision time tc of the\n"
"                       smallest pair (default 1: a step longer than a whole collision; 0: off;\n"
"                       not applied to a single particle)\n"
"\n"
"Deforming periodic cell (Šmilauer and Chareyre 2015, §1.6; the frame's periodic cell, see dem-pack --periodic):\n"
"  The cell deforms as dH/dt = L H; the particles are carried by the field L (x - o) (o the\n"
"  cell's origin) and their velocities in the frames are the FLUCTUATION u about it (spins about\n"
"  the field's spin (L - L^T)/2): the laboratory velocity is u + L (x - o), and du/dt = F/m - L u,\n"
"  so that in simple shear a free particle keeps its laboratory velocity (Lees-Edwards); a\n"
"  contact across a periodic face sees the image's velocity with L H s. Every component of L\n"
"  is either a strain rate (given here) or set by the servo from the\n"
"  Love-Weber stress of the contacts (as dem-stress, COMPRESSION POSITIVE):\n"
"    L_kk = clamp(gain (sigma_kk - target_kk), -max_rate, max_rate).\n"
"  All of it (L, targets, gain, F) is in the frames: a second dem-step continues it.\n"
"      --cell-rate IJ=R[,IJ=R...]\n"
"                       L_ij = R, 1/s (v_i = L_ij x_j; i, j in x, y, z): zz=-1e-3 shortens the\n"
"                       cell along z at 0.1%/s, xy=0.01 shears x along y; an antisymmetric pair\n"
"                       (xy=-w,yx=w) spins the whole assembly rigidly at w rad/s about z. A\n"
"                       stress-controlled diagonal component named here becomes a rate.\n"
"      --cell-stress II=S[,II=S...]\n"
"                       servo the normal stress sigma_ii to S, Pa (xx, yy, zz; compression > 0)\n"
"      --cell-still     L = 0 and no servo (before --cell-rate and --cell-stress are applied)\n",
"@cell",
"      --cell-reset-strain\n"
"                       F = I: strains (dem-stress, --until strain) count from this frame\n"
"      --cell-log FILE  write the L of every step to FILE (TSV: step, l11..l33 [1/s]; step:\n"
"                       the step that ended there): dem-reverse --replay FILE runs a servo\n"
"                       backwards with the rates it chose\n"
"  The cell flips (Šmilauer and Chareyre 2015, Fig 1.6) when a cell vector leans more than 0.55 of another along\n"
"  it: the same periodic lattice, every contact and its history kept, so simple shear runs\n"
"  without end. The cell's work, the stress power -V sigma:D per unit time (the contacts' and\n"
"  the fluctuations' momentum flux, dem-stress --kinetic), is work_cell of the energy books\n"
"  (dem-energy).\n"
"  A step maps the cell by the Cayley transform of L dt, which turns back at |L| dt = 4: a step\n"
"  whose |L| dt (Frobenius norm) passes 1, prescribed or asked for by the servo, stops the run\n"
"  with a message (exit 1).\n"
"\n"
"Stopping on a condition, checked after every step (-n/--time is then the most the run takes;\n"
"--until may be repeated: the run stops at the first step where all hold; the frames record\n"
"meta.stop: running, then the names joined by '+' (e.g. ke+unbalanced), steps or interrupted):\n"
"      --until ke=E     the kinetic energy per particle, translational plus rotational over\n"
"                       the free (not fixed) particles, below E J, once it has been at or above\n"
"                       E (in the first frame or after a step): a bed at rest before it falls\n"
"                       does not stop at step 1, and one that never moves runs its count\n"
"      --until unbalanced=U  the unbalanced-force ratio, mean |net force| over the free\n"
"                       particles / mean |contact force| (Yade's unbalancedForce), below U,\n"
"                       with at least one contact and no free particle in flight (touching\n"
"                       nothing yet pushed: the ratio is small at a cloud's first impacts)\n"
"      --until stress   every servo target met to --stress-tol (relative) and the\n"
"                       unbalanced-force ratio (mean |net force| / mean |contact force|)\n"
"                       below --unbalanced\n"
"      --until strain=IJ:E  the Hencky strain e_ij (extension positive, from F: dem-stress)\n"
"                       reaches E: strain=zz:-0.05 stops at 5% axial compression\n"
"      --stress-tol T   default 1e-3\n"
"      --unbalanced U   default 1e-3\n"
"\n"
"Quasi-static minimisation (De Klerk et al. 2022, §1: the quasi-static limit; the relaxation of jamming\n"
"studies), instead of -n/--time:\n"
"      --minimize       minimise the potential energy of the contacts (the normal law's\n"
"                       potential: hooke kn/2 delta^2, hertz 8/15 E* sqrt(R*) delta^(5/2)), the\n"
"                       bonds (kb delta^2/2), the walls and gravity over the positions of the\n"
"                       free particles, by nonlinear conjugate gradients (Polak-Ribiere+, with a\n"
"                       line search that stops where the last contact along the direction opens:\n"
"                       two overlapping spheres end touching to rounding), until every free\n"
"                       particle's net force is at most --ftol or --max-iter line searches.\n"
"                       Writes one frame: free particles at rest, fixed particles and walls where\n"
"                       they were, step and time unchanged; the energy budget restarts there\n"
"                       (e_initial = the relaxed state's energy). Needs frictionless contacts\n"
"                       (--tangential none: friction is not the gradient of an energy); the\n"
"                       dashpots and local damping do nothing at rest. Reports on standard error\n"
"                       the iterations, the final potential energy (J) and the largest unbalanced\n"
"                       force (N); a run that stops on --max-iter says so (exit status 0: the\n"
"                       frame is written).\n"
"                       SIGINT or SIGTERM: the iteration is finished and its state written.\n"
"                       Gravity with nothing below a particle (no wall, no fixed particle):\n"
"                       the energy has no minimum; refused with a message, nothing written.\n"
"      --ftol F         force tolerance, N (default: 1e-9 of the largest net force at the start,\n"
"                       but at least the round-off of the net forces: 4 eps times the sum over\n"
"                       a particle's contacts of |fn| + S_n X, S_n the normal stiffness and X\n"
"                       the largest coordinate; a relaxed packing starts there)\n"
"      --max-iter N     line searches at most (default 100000)\n"
"  Example: spheres placed at random, overlapping, in a periodic cube (dense.tsv: x y z r),\n"
"  relaxed to a jammed packing whose net forces are all below 1e-9 N:\n"
"    dem-pack --from dense.tsv --periodic 0,0,0,0.01,0.01,0.01 |\n"
"        dem-step --minimize --normal hooke --kn 1e3 --tangential none --ftol 1e-9 > jam.dem\n"
"\n"
"Exact (fixed-point) mode, for bit-exact reversal with dem-reverse --exact:\n"
"      --exact[=Q]      positions on multiples of Q m (a power of two, as a number or 2^N;\n"
"                       default: the frame's quantum, else the smallest with 2^53 Q >= 4\n"
"                       times the system's largest coordinate), velocities on multiples of\n"
"                       Q/dt; each contact's force is rounded onto the lattice and the kicks\n"
"                       summed as integers, so dem-step --exact -n N | dem-reverse -n N returns\n"
"                       to the first state bit for bit. The first --exact run puts the state\n"
"                       on the lattice (dem-step --exact -n 0 shows it). Frictionless and\n"
"                       without local damping or drag (--tangential none); no spinning\n"
"                       particles; a deforming cell in simple shear only (one off-diagonal\n"
"                       --cell-rate, its rate snapped to whole quanta of the face's step), no\n"
"                       servo. Recorded in the frames (setting exact.quantum).\n"
"      --no-exact       leave the exact mode of a frame written in it\n"
"\n"
"  -h, --help           print this help and exit\n"
"\n"
"Rigid clumps (dem-pack --clump; format 1.6; README \"Rigid clumps\"): a clump moves as one rigid\n"
"body. Its member spheres touch other spheres, clumps and walls with every contact law but never\n"
"their own clump; their forces and torques are summed to the clump in a fixed order (gravity on\n"
"the clump's mass), which is kicked (v, angular momentum L) and drifted (x, and its orientation by\n"
"the torque-free rotor at constant L, in its principal frame; Šmilauer and Chareyre 2015, §1.5.3)\n"
"with vv and vv-improved, then places its members. Local damping acts on the clump's force and\n"
"torque, drag on its velocity; the books count it as one body. In a deforming cell (--cell-rate,\n"
"--cell-stress) its centroid moves with the field like a sphere's centre (its v the fluctuation),\n"
"its members are placed rigidly, its L is the laboratory's (the field does not turn it), and the\n"
"servo's stress and work_cell count it as one body (dem-stress's branch vectors). Refused with\n"
"clumps: --integrator variational, --exact, --minimize, a periodic cell narrower than a clump.\n"
"\n"
"Examples:\n"
"  dem-pack --random 2000 --box 0,0,0,0.02,0.02,0.04 --radius 5e-4 --enclose |\n"
"      dem-step --gravity 0,0,-9.81 -n 20000 --every 1000 | dem-probe\n"
"  dem-step -n 100000 --dt 1e-7 --normal hooke --kn 1e5 --damping none run.dem > more.dem\n"
"  printf 'x\\ty\\tz\\tr\\tvx\\twy\\n0\\t0\\t0.005\\t0.005\\t0.1\\t20\\n' |\n"
"      dem-pack --from - --rolling-friction 0.05 --wall z=0 |\n"
"      dem-step --gravity 0,0,-9.81 --normal hooke --kn 1e5 --rolling epsd --time 0.4 --dt 1e-5 |\n"
"      dem-probe --particles --last   # rolled 0.01427 m = v0^2 / (2 * 5/7 mu_r g), at rest\n"
"\n"
"Progress is shown on standard error when it is a terminal (--progress S: a log, anywhere).\n"
"SIGINT or SIGTERM: the current\n"
"step is finished, a last complete frame is written, and the exit status is 130 (SIGINT) or\n"
"143 (SIGTERM).\n"
"Exit status: 0 success; 1 bad input or a failed run; 2 bad usage; 130/143 interrupted.\n",

NULL};
struct cmdline {
    cli_run_opts run;      /* -n, --time, --every, --threads, --level, -o, -q, --exact, --stop-* (cli.h) */
    double dt;             /* 0: not given; -1: auto */
    int verbose;
    const char *input;
    cli_settings_given set; /* the settings' options (lib/laws/settings.c), applied to the frame's settings */
    char **wall_velocity;
    int nwall_velocity;
    double stop_dt;        /* --stop-dt: refuse dt > stop_dt tc (0: off) */
    char **cell_rate, **cell_stress;
    int ncell_rate, ncell_stress, cell_still, cell_reset;
    const char *cell_log;
    unsigned until;        /* UNTIL_* bits: every condition given must hold at once */
    const char *until_arg[4]; /* as given, in order (the names in meta.stop) */
    int nuntil, strain_r, strain_c;
    double until_ke, until_unbalanced, strain_end;
    double every_time;     /* --every-time DT, s (0: not given) */
    double stress_tol, unbalanced;
    int minimize;          /* --minimize */
    double ftol;           /* --ftol, N (< 0: not given) */
    long long max_iter;    /* --max-iter */
};

/* The run's own options; the settings' options are numbered from CLI_SETTING_OPT (cli.h). */
enum {
    OPT_DT = 256, OPT_WALL_VELOCITY, OPT_STOP_DT, OPT_CELL_RATE, OPT_CELL_STRESS, OPT_CELL_STILL,
    OPT_CELL_RESET, OPT_CELL_LOG, OPT_UNTIL, OPT_STRESS_TOL, OPT_UNBALANCED, OPT_EVERY_TIME,
    OPT_MINIMIZE, OPT_FTOL, OPT_MAX_ITER
};

enum { UNTIL_STRESS = 1u, UNTIL_STRAIN = 2u, UNTIL_KE = 4u, UNTIL_UNBALANCED = 8u };
static const char *const until_names[] = {"stress", "strain", "ke", "unbalanced"};

static int component(const char *t, size_t n, int *r, int *col);

/* One --until COND: its kind and values (the frame-dependent checks come in check_until). */
static void parse_until(struct cmdline *c, const char *u)
{
    static const char forms[] = "stress, strain=IJ:E, ke=E or unbalanced=U (e.g. ke=1e-8)";
    unsigned kind = 0;
    if (strcmp(u, "stress") == 0) kind = UNTIL_STRESS;
    else if (strncmp(u, "strain=", 7) == 0) {
        const char *colon = strchr(u, ':');
        if (!colon || component(u + 7, (size_t)(colon - u - 7), &c->strain_r, &c->strain_c))
            cli_usage("--until: '%s' is not strain=IJ:E (e.g. strain=zz:-0.05)", u);
        c->strain_end = cli_double("--until", colon + 1);
        kind = UNTIL_STRAIN;
    } else if (strncmp(u, "ke=", 3) == 0) {
        c->until_ke = cli_double("--until", u + 3);
        if (!(c->until_ke > 0.0)) cli_usage("--until: '%s': the kinetic energy per particle E must be > 0 J", u);
        kind = UNTIL_KE;
    } else if (strncmp(u, "unbalanced=", 11) == 0) {
        c->until_unbalanced = cli_double("--until", u + 11);
        if (!(c->until_unbalanced > 0.0)) cli_usage("--until: '%s': the unbalanced-force ratio U must be > 0", u);
        kind = UNTIL_UNBALANCED;
    } else
        cli_usage("--until: '%s' is not %s", u, forms);
    if (c->until & kind) cli_usage("--until %s given twice", until_names[__builtin_ctz(kind)]);
    c->until |= kind;
    c->until_arg[c->nuntil++] = u;
}

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    static const struct option run_opts[] = {
        CLI_RUN_OPTIONS,
        {"dt", required_argument, 0, OPT_DT},
        {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'},
        {"wall-velocity", required_argument, 0, OPT_WALL_VELOCITY},
        {"stop-dt", required_argument, 0, OPT_STOP_DT},
        {"cell-rate", required_argument, 0, OPT_CELL_RATE}, {"cell-stress", required_argument, 0, OPT_CELL_STRESS},
        {"cell-still", no_argument, 0, OPT_CELL_STILL}, {"cell-reset-strain", no_argument, 0, OPT_CELL_RESET},
        {"cell-log", required_argument, 0, OPT_CELL_LOG}, {"until", required_argument, 0, OPT_UNTIL},
        {"stress-tol", required_argument, 0, OPT_STRESS_TOL}, {"unbalanced", required_argument, 0, OPT_UNBALANCED},
        {"every-time", required_argument, 0, OPT_EVERY_TIME},
        {"minimize", no_argument, 0, OPT_MINIMIZE}, {"ftol", required_argument, 0, OPT_FTOL},
        {"max-iter", required_argument, 0, OPT_MAX_ITER}};
    /* the run's options, then one per setting (lib/laws/settings.c), then the end row */
    static struct option opts[sizeof run_opts / sizeof run_opts[0] + CLI_SETTINGS_MAX + 1];
    int nopts = (int)(sizeof run_opts / sizeof run_opts[0]);
    memcpy(opts, run_opts, sizeof run_opts);
    cli_setting_options(opts, &nopts, (int)(sizeof opts / sizeof opts[0]) - 1);
    opts[nopts] = (struct option){0, 0, 0, 0};
    memset(c, 0, sizeof *c);
    cli_run_init(&c->run);
    c->ftol = -1.0;
    c->wall_velocity = calloc((size_t)argc, sizeof *c->wall_velocity);
    c->cell_rate = calloc((size_t)argc, sizeof *c->cell_rate);
    c->cell_stress = calloc((size_t)argc, sizeof *c->cell_stress);
    c->stress_tol = 1e-3;
    c->unbalanced = 1e-3;
    c->stop_dt = 1.0;
    int ch;
    opterr = 0; /* our own messages, in the cli_usage format */
    while ((ch = getopt_long(argc, argv, ":" CLI_RUN_SHORT "vh", opts, NULL)) != -1) {
        switch (ch) {
        case OPT_DT:
            if (strcmp(optarg, "auto") == 0) c->dt = -1.0;
            else {
                c->dt = cli_double("--dt", optarg);
                if (!(c->dt > 0.0)) cli_usage("--dt: '%s' must be positive (or auto)", optarg);
            }
            break;
        case 'v': c->verbose = 1; break;
        case 'h': cli_help_parts(usage_parts);
        case OPT_WALL_VELOCITY: c->wall_velocity[c->nwall_velocity++] = optarg; break;
        case OPT_STOP_DT: c->stop_dt = cli_nonneg("--stop-dt", optarg); break;
        case OPT_CELL_RATE: c->cell_rate[c->ncell_rate++] = optarg; break;
        case OPT_CELL_STRESS: c->cell_stress[c->ncell_stress++] = optarg; break;
        case OPT_CELL_STILL: c->cell_still = 1; break;
        case OPT_CELL_RESET: c->cell_reset = 1; break;
        case OPT_CELL_LOG: c->cell_log = optarg; break;
        case OPT_UNTIL: parse_until(c, optarg); break;
        case OPT_EVERY_TIME:
            c->every_time = cli_double("--every-time", optarg);
            if (!(c->every_time > 0.0)) cli_usage("--every-time: '%s' must be a positive time in s", optarg);
            break;
        case OPT_STRESS_TOL: c->stress_tol = cli_nonneg("--stress-tol", optarg); break;
        case OPT_UNBALANCED: c->unbalanced = cli_nonneg("--unbalanced", optarg); break;
        case OPT_MINIMIZE: c->minimize = 1; break;
        case OPT_FTOL: c->ftol = cli_nonneg("--ftol", optarg); break;
        case OPT_MAX_ITER: c->max_iter = cli_int("--max-iter", optarg, 1, 1000000000000LL); break;
        default:
            if (!cli_run_arg(&c->run, ch, optarg) && !cli_setting_arg(&c->set, ch, optarg)) cli_bad_option_of(ch, argv, opts);
        }
    }
    c->input = cli_one_input(argc, argv);
    if (c->minimize) {
        const char *bad = c->run.steps >= 0 ? "-n/--steps" : c->run.run_time >= 0.0 ? "--time" : c->nuntil ? "--until"
                        : c->run.every ? "--every" : c->every_time > 0.0 ? "--every-time" : c->run.exact > 0 ? "--exact"
                        : c->run.progress > 0.0 ? "--progress" : NULL;
        if (bad) cli_usage("--minimize writes one frame, the relaxed state, and takes no steps: %s does not apply (run the dynamics in a second dem-step)", bad);
        c->run.steps = 0;
    } else if (c->ftol >= 0.0 || c->max_iter) {
        cli_usage("%s applies to --minimize only", c->ftol >= 0.0 ? "--ftol" : "--max-iter");
    }
    cli_run_check(&c->run);
    if (cli_setting_given(&c->set, "model.kn") && cli_setting_given(&c->set, "model.kn_from"))
        cli_usage("--kn and --kn-from exclude each other");
    if (c->run.every && c->every_time > 0.0) cli_usage("--every and --every-time exclude each other");
    if (c->run.quiet && c->verbose) cli_usage("-q/--quiet and -v/--verbose exclude each other");
}

/* An adhesive law with no surface energy anywhere is Hertz's: say so rather than run it silently. */
static void adhesion_note(const dem_settings *st, const dem_system *s)
{
    if (!(dem_normal_models[st->normal]->pulloff > 0.0)) return;
    for (size_t k = 0; k < s->nmaterials; k++)
        if (s->materials[k].surface_energy > 0.0) return;
    fprintf(stderr, "dem-step: warning: --normal %s, but every material has surface_energy 0: no adhesion, the law is Hertz's "
                    "(set it with dem-pack --surface-energy or --set-material)\n", dem_normal_models[st->normal]->name);
}

static void apply_wall_velocities(const struct cmdline *c, dem_system *s)
{
    for (int k = 0; k < c->nwall_velocity; k++) {
        const char *arg = c->wall_velocity[k], *eq = strchr(arg, '=');
        if (!eq) cli_usage("--wall-velocity: '%s' is not K=VX,VY,VZ", arg);
        char idx[32];
        size_t n = (size_t)(eq - arg);
        if (n == 0 || n >= sizeof idx) cli_usage("--wall-velocity: '%s' is not K=VX,VY,VZ", arg);
        memcpy(idx, arg, n);
        idx[n] = 0;
        long long w = cli_int("--wall-velocity", idx, 0, 1000000);
        if ((size_t)w >= s->nwalls) cli_die("--wall-velocity: wall %lld does not exist: the frame has %zu wall(s)", w, s->nwalls);
        double v[3];
        cli_doubles("--wall-velocity", eq + 1, v, 3);
        s->walls[w].vel = dem_v3(v[0], v[1], v[2]);
    }
}

/* "xy" -> row 0, column 1; -1 if not a component name */
static int component(const char *t, size_t n, int *r, int *col)
{
    if (n != 2 || t[0] < 'x' || t[0] > 'z' || t[1] < 'x' || t[1] > 'z') return -1;
    *r = t[0] - 'x';
    *col = t[1] - 'x';
    return 0;
}

/* One "IJ=V[,IJ=V...]" list: calls set(row, col, value) for each. */
static void parse_components(const char *opt, const char *arg, int diagonal_only, dem_cell *cell,
                             void (*set)(dem_cell *, int, int, double))
{
    char *copy = strdup(arg), *save = NULL;
    if (!copy) cli_die("out of memory");
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int r, col;
        if (!eq || component(tok, (size_t)(eq - tok), &r, &col))
            cli_usage("%s: '%s' is not IJ=VALUE with I, J in x, y, z (e.g. zz=-1e-3)", opt, tok);
        if (diagonal_only && r != col) cli_usage("%s: '%s': the servo controls the normal stresses xx, yy, zz only", opt, tok);
        set(cell, r, col, cli_double(opt, eq + 1));
    }
    free(copy);
}

static void set_rate(dem_cell *cell, int r, int col, double v)
{
    cell->vgrad.m[r][col] = v;
    if (r == col) cell->stress_mask &= ~(1u << r);
}

static void set_target(dem_cell *cell, int r, int col, double v)
{
    (void)col;
    cell->target_stress.m[r][r] = v;
    cell->stress_mask |= 1u << r;
}

/* --cell-*: onto the frame's cell. */
static void apply_cell(const struct cmdline *c, dem_system *s)
{
    int any = c->cell_still || c->ncell_rate || c->ncell_stress || c->cell_reset;
    if (!any) return;
    if (!s->cell.flags) cli_die("--cell-*: the frame has no periodic cell (dem-pack --periodic makes one)");
    if (c->cell_still) {
        s->cell.vgrad = dem_m3_zero();
        s->cell.stress_mask = 0;
    }
    for (int k = 0; k < c->ncell_rate; k++) parse_components("--cell-rate", c->cell_rate[k], 0, &s->cell, set_rate);
    for (int k = 0; k < c->ncell_stress; k++) parse_components("--cell-stress", c->cell_stress[k], 1, &s->cell, set_target);
    for (int k = 0; k < 3; k++)
        if ((s->cell.stress_mask >> k & 1u) && !(s->cell.flags >> k & 1u))
            cli_die("--cell-stress: the cell is not periodic along %c: no stress can be servoed there", "xyz"[k]);
    if (c->cell_reset) s->cell.deform = dem_m3_identity();
}

/* The options' edits of the frame read: the walls' velocities, the periodic cell (again on the
 * frame read anew where the ranks could not start from their shares of it: cli_mpi_new_sim). */
static void edit_frame(void *cmdline, dem_system *s)
{
    apply_wall_velocities(cmdline, s);
    apply_cell(cmdline, s);
}

/* --until, --cell-log, --every-time and the end of a --time run: after every step. */
typedef struct {
    const struct cmdline *c;
    FILE *log;
    double strain_start;
    int ke_armed;          /* the kinetic energy per particle has been >= E (first frame or a step) */
    uint64_t last_step;    /* --time: the run's last step, whose time is set to end_time */
    double end_time;       /* NAN: leave the time as summed */
    double frame_index;    /* --every-time: floor of the last frame's time / DT */
    char why[64];          /* meta.stop: the conditions' names joined by '+' */
} run_watch;

/* --every-time: the multiple of DT a time has reached, to dt/1000 (the round-off of the summed
 * time over a step count that divides DT exactly stays far below it). */
static double frame_index(const struct cmdline *c, double t, double dt) { return floor((t + 1e-3 * dt) / c->every_time); }

static double ke_per_particle(dem_sim *sim)
{
    size_t n;
    double e = dem_sim_kinetic_energy(sim, &n);
    return n ? e / (double)n : 0.0;
}

/* The conditions that depend on the frame. */
static void check_until(run_watch *w, const dem_system *s, dem_sim *sim)
{
    const struct cmdline *c = w->c;
    if ((c->until & UNTIL_STRESS) && (!s->cell.flags || !s->cell.stress_mask))
        cli_die("--until stress: the cell has no stress targets (--cell-stress)");
    if (c->until & UNTIL_STRAIN) {
        if (!s->cell.flags) cli_die("--until strain: the frame has no periodic cell, so no strain");
        w->strain_start = dem_hencky_strain(s->cell.deform).m[c->strain_r][c->strain_c];
    }
    if (c->until & UNTIL_KE) w->ke_armed = ke_per_particle(sim) >= c->until_ke;
    w->why[0] = 0;
    for (int k = 0; k < c->nuntil; k++) {
        const char *u = c->until_arg[k];
        size_t len = strcspn(u, "=");
        snprintf(w->why + strlen(w->why), sizeof w->why - strlen(w->why), "%s%.*s", k ? "+" : "", (int)len, u);
    }
}

/* Whether the condition kind holds after this step (every kind is evaluated every step, so that
 * ke's arming follows the run). */
static int until_met(run_watch *w, dem_sim *sim, unsigned kind)
{
    const struct cmdline *c = w->c;
    switch (kind) {
    case UNTIL_STRAIN: {
        double e = dem_hencky_strain(dem_sim_cell_deform(sim)).m[c->strain_r][c->strain_c];
        return (c->strain_end >= w->strain_start && e >= c->strain_end) || (c->strain_end < w->strain_start && e <= c->strain_end);
    }
    case UNTIL_STRESS: {
        dem_mat3 sigma = dem_sim_cell_stress(sim), target = dem_sim_cell_target(sim);
        unsigned mask = dem_sim_cell_mask(sim);
        for (int k = 0; k < 3; k++)
            if ((mask >> k & 1u) && !(fabs(sigma.m[k][k] - target.m[k][k]) <= c->stress_tol * fabs(target.m[k][k])))
                return 0;
        return dem_sim_unbalanced(sim) <= c->unbalanced;
    }
    case UNTIL_KE: {
        double e = ke_per_particle(sim);
        if (e >= c->until_ke) w->ke_armed = 1;
        return w->ke_armed && e < c->until_ke;
    }
    case UNTIL_UNBALANCED: { /* the ratio is 0 without contacts; a falling particle is not balanced */
        size_t flying;
        return dem_sim_touching(sim, &flying) > 0 && flying == 0 && dem_sim_unbalanced(sim) < c->until_unbalanced;
    }
    }
    return 0;
}

static const char *watch_step(void *ctx, dem_sim *sim)
{
    run_watch *w = ctx;
    dem_error err;
    dem_vi_stats vs;
    if (w->c->verbose && dem_sim_vi_stats(sim, &vs) && vs.steps)
        fprintf(stderr, "dem-step: step %llu: Newton %u iterations, residual %.3g\n", (unsigned long long)dem_sim_steps(sim),
                vs.last_newton, vs.last_residual);
    if (dem_sim_steps(sim) == w->last_step && !isnan(w->end_time) && dem_sim_set_time(sim, w->end_time, &err)) cli_die_err(&err);
    dem_mat3 l = dem_sim_cell_rate(sim);
    if (w->log) {
        fprintf(w->log, "%llu", (unsigned long long)dem_sim_steps(sim));
        for (int r = 0; r < 3; r++)
            for (int col = 0; col < 3; col++) {
                char num[40];
                dem_format_double(num, sizeof num, l.m[r][col]);
                fprintf(w->log, "\t%s", num);
            }
        fputc('\n', w->log);
    }
    if (!w->c->until) return NULL;
    int all = 1;
    for (unsigned kind = 1u; kind <= UNTIL_UNBALANCED; kind <<= 1)
        if ((w->c->until & kind) && !until_met(w, sim, kind)) all = 0;
    return all ? w->why : NULL;
}

static int watch_frame(void *ctx, dem_sim *sim)
{
    run_watch *w = ctx;
    if (!(w->c->every_time > 0.0)) return 0;
    double i = frame_index(w->c, dem_sim_time(sim), dem_sim_dt(sim));
    if (!(i > w->frame_index)) return 0;
    w->frame_index = i;
    return 1;
}

/* --time T: n = ceil(T/dt) steps. Unless T is a whole number of steps already (to 1e-9 of a
 * step), dt becomes T/n for the run (and its frames). With --every-time DT and T a whole multiple
 * of DT (to 1e-9), n is a multiple of T/DT, so that every DT is a whole number of steps too. */
/* The steps of --time T. dt becomes T/n so that the run ends on T, except in the exact mode, whose
 * velocity lattice is tied to dt (a new dt would requantise the state, and a reversal would return
 * to that state, not to the frame's): there dt stays and the run ends at n dt >= T. */
static long long time_steps(const struct cmdline *c, double *dt, const dem_system *s, int exact)
{
    double t = c->run.run_time;
    long long n = cli_run_length(-1, t, *dt, s->time, s->step);
    if (n == 0) return 0;
    if (c->every_time > 0.0) {
        double q = t / c->every_time, qn = round(q);
        if (qn >= 1.0 && fabs(q - qn) <= 1e-9 * qn) {
            /* steps per DT: at least 1 (a DT below dt is a frame every step, not 0 steps of dt = inf) */
            double m = fmax(1.0, ceil(c->every_time / *dt - 1e-9)), nn = qn * m;
            if (nn <= (double)CLI_MAX_STEPS) n = (long long)nn;
        }
    }
    if (fabs(t / *dt - (double)n) > 1e-9 && exact) {
        if (!c->run.quiet)
            fprintf(stderr, "dem-step: --time %g s: %lld steps of dt = %.17g s end at %.17g s after the frame (the exact mode keeps dt: its lattice is tied to it)\n",
                    t, n, *dt, (double)n * *dt);
    } else if (fabs(t / *dt - (double)n) > 1e-9) {
        double d = t / (double)n;
        if (!c->run.quiet)
            fprintf(stderr, "dem-step: --time %g s: %lld steps of dt = %.17g s (T/n, not %.6g s; the frames carry it)\n", t, n, d, *dt);
        *dt = d;
    }
    return n;
}

/* What the collision time is when a rolling or twisting spring's half period is shorter. */
static const char *tc_source(const dem_dt_estimates *e)
{
    return e->rotation_time <= e->contact_time && e->rotation_time < INFINITY ? " (here the half period of the stiffest rolling or twisting spring, pi sqrt(I*/k_theta): --rolling-stiffness, --twisting-stiffness)" : "";
}

static void report_dt(const dem_dt_estimates *e, double dt, int quiet)
{
    char pw[32], gs[48];
    if (isfinite(e->pwave)) snprintf(pw, sizeof pw, "%.4g s", e->pwave);
    else snprintf(pw, sizeof pw, "n/a (kn given)");
    if (isfinite(e->stiffness)) snprintf(gs, sizeof gs, "%.4g s", e->stiffness);
    else snprintf(gs, sizeof gs, "n/a (no contacts yet)");
    if (!quiet)
        fprintf(stderr, "dem-step: dt = %.4g s; estimates: collision time tc = %.4g s at vc%s (dt = tc/%.3g), p-wave %s, global stiffness %s\n",
                dt, e->contact_time, tc_source(e), e->contact_time / dt, pw, gs);
    if (dt > e->contact_time / 10.0)
        cli_warn("dt = %g s is more than a tenth of the collision time %g s%s: collisions will be inaccurate", dt, e->contact_time, tc_source(e));
    if (isfinite(e->pwave) && dt > e->pwave)
        cli_warn("dt = %g s exceeds the p-wave time step %g s, the stability bound of dense packings (Yade DEM formulation §1.5.6)", dt, e->pwave);
    if (isfinite(e->stiffness) && dt > 0.5 * e->stiffness)
        cli_warn("dt = %g s exceeds half the global-stiffness time step %g s: the run may be unstable", dt, e->stiffness);
}

/* How dt follows the material's stiffness under the chosen law, and the common remedy. The auto dt
 * is the smallest of tc/50, 0.2 p-wave and 0.3 global stiffness (report_dt); say which one binds
 * and how each scales: the collision time of Hertz (Vyas et al. 2025, eq 1) tc ~ (m*^2 / (R* E*^2 vc))^(1/5),
 * of a spring tc = pi sqrt(m* / kn); the p-wave step r sqrt(rho / E). Printed with -v, or when the
 * run is long enough for it to matter. */
/* -v: the neighbour search at its first build. */
static void report_neighbor(const dem_sim *sim, const dem_settings *st)
{
    dem_neighbor_info ni;
    dem_sim_neighbor_info(sim, &ni);
    fprintf(stderr, "dem-step: neighbour search %s (neighbor.grid %s)", ni.multi ? "multi" : "bin", dem_neighbor_grid_name(st->grid));
    if (ni.multi) {
        fprintf(stderr, ", %d level%s by radius ratio %g:", ni.levels, ni.levels == 1 ? "" : "s", st->level_ratio);
        for (int l = 0; l < ni.levels; l++)
            fprintf(stderr, "%s r_max %g m (%zu particles)", l ? "," : "", ni.rmax[l], ni.count[l]);
    }
    fprintf(stderr, "; first build: %llu distance tests, %zu pairs within the skin\n", (unsigned long long)ni.tests, ni.pairs);
}

static void dt_guidance(const dem_settings *st, const dem_dt_estimates *e, double dt, long long steps)
{
    const char *law = dem_normal_models[st->normal]->name;
    char tc[200];
    int hooke = strcmp(law, "hooke") == 0;
    if (hooke && st->kn_rule == DEM_KN_GIVEN)
        snprintf(tc, sizeof tc, "hooke with --kn: tc = pi sqrt(m*/kn), independent of E; kn / 100 gives tc x 10");
    else if (hooke && st->kn_rule == DEM_KN_OVERLAP)
        snprintf(tc, sizeof tc, "hooke with --kn-from overlap: kn from --max-overlap at --vc, not from E; a --max-overlap 100 times larger gives tc x 10");
    else if (hooke && st->kn_rule == DEM_KN_YADE)
        snprintf(tc, sizeof tc, "hooke with --kn-from yade: kn ~ E r, tc ~ E^(-1/2); E / 100 gives tc x 10");
    else
        snprintf(tc, sizeof tc, "%s: tc ~ E^(-2/5) vc^(-1/5); E / 100 gives tc x 6.3", hooke ? "hooke with --kn-from hertz" : law);
    const char *binds = "the frame's or --dt's, not the automatic choice";
    if (dt == e->recommended) {
        if (e->recommended == e->contact_time / 50.0) binds = "tc/50";
        else if (e->recommended == 0.2 * e->pwave) binds = "0.2 of the p-wave step r sqrt(rho/E) (~ E^(-1/2): E / 100 gives dt x 10)";
        else binds = "0.3 of the global-stiffness step sqrt(2m/K)";
    }
    fprintf(stderr, "dem-step: dt = %.4g s (%s), %lld steps. The collision time follows the contact stiffness (%s).\n", dt, binds, steps, tc);
    fprintf(stderr, "dem-step: Studies of dense and quasi-static granular flow commonly soften E (100 to 1000 times below the solid's: dem-pack --young, or --set-material on a stream) while the largest overlap stays below about 1%% of the radius, which dem-step reports at the end of the run (README \"Choosing the time step\").\n");
}

static void describe_overlap(char *buf, size_t size, const dem_overlap_record *m)
{
    if (m->wall)
        snprintf(buf, size, "%.3g%% of the radius (%.4g m, particle %llu on wall %llu, step %llu)", 100.0 * m->ratio, m->overlap,
                 (unsigned long long)m->i, (unsigned long long)m->j, (unsigned long long)m->step);
    else
        snprintf(buf, size, "%.3g%% of the smaller radius (%.4g m, particles %llu and %llu, step %llu)", 100.0 * m->ratio, m->overlap,
                 (unsigned long long)m->i, (unsigned long long)m->j, (unsigned long long)m->step);
}

/* The largest overlap of the run and of its last state (lib/sim guard.c), and whether they are
 * small enough for soft contacts to stand in for hard grains: the static overlaps of the end state
 * are what a quasi-static study must keep small; an impact's may be larger for a moment. */
static void report_overlap(dem_sim *sim)
{
    dem_overlap_record most = dem_sim_largest_overlap(sim), now = dem_sim_current_overlap(sim);
    if (!(most.ratio > 0.0)) {
        fprintf(stderr, "dem-step: largest overlap: none (no contact during the run)\n");
        return;
    }
    char a[160], b[160];
    describe_overlap(a, sizeof a, &most);
    if (now.ratio > 0.0) describe_overlap(b, sizeof b, &now);
    else snprintf(b, sizeof b, "no contact");
    const char *note = "";
    if (now.ratio > 0.01)
        note = "; above about 1% at the end: the contacts are softer than the grains they stand for (a stiffer E, and a smaller dt)";
    else if (most.ratio > 0.01)
        note = "; above about 1% only during the run: impacts; a lower speed or a stiffer E keeps them smaller";
    fprintf(stderr, "dem-step: largest overlap %s; at the end %s%s\n", a, b, note);
}

static int stop_requested(void *ctx)
{
    (void)ctx;
    return cli_interrupted();
}

/* --minimize (lib/sim/minimize.c), with its report. Returns the signal that interrupted it (the
 * frame written is then the last complete iterate), else 0. */
static int minimize(const struct cmdline *c, dem_sim *sim)
{
    dem_error err;
    cli_catch_signals(); /* SIGINT, SIGTERM: stop after the iteration, write that state */
    dem_minimize_opts o = {c->ftol, c->max_iter ? (uint64_t)c->max_iter : 100000, stop_requested, NULL};
    dem_minimize_opts probe = {INFINITY, 0, NULL, NULL};
    dem_minimize_result r0;
    if (dem_sim_minimize(sim, &probe, &r0, &err)) cli_die_err(&err);
    /* the default: 1e-9 of the largest net force at the start, but never below the forces'
     * round-off, which no iteration can go under (a relaxed packing starts there) */
    if (o.ftol < 0.0) o.ftol = fmax(1e-9 * r0.fmax0, r0.fround);
    else if (o.ftol < r0.fround)
        cli_warn("--ftol %g N is below the round-off of the net forces, %.3g N (4 eps times the contact forces and stiffness times coordinates a particle carries): it may never be reached",
                 o.ftol, r0.fround);
    dem_minimize_result r;
    if (dem_sim_minimize(sim, &o, &r, &err)) cli_die_err(&err);
    if (r.interrupted) {
        fprintf(stderr, "dem-step: --minimize interrupted (%s) after %llu iterations: the frame written is the last complete iterate, largest unbalanced force %.6g N (tolerance %.6g N)\n",
                cli_interrupted() == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)r.iterations, r.fmax, o.ftol);
        return cli_interrupted();
    }
    if (!c->run.quiet || !r.converged)
        fprintf(stderr, "dem-step: --minimize: %llu iterations, %llu force evaluations: potential energy %.17g J, largest unbalanced force %.6g N (%.6g N at the start; tolerance %.6g N)%s\n",
                (unsigned long long)r.iterations, (unsigned long long)r.evaluations, r.energy, r.fmax, r.fmax0, o.ftol,
                r.converged ? "" : ": NOT converged, the iteration limit was reached");
    return 0;
}

/* No material parameter is inert without a message (issue 19): each one the chosen sub-models
 * do not read, by name (the registry's declarations, lib/laws/laws.h). */
static void warn_inert(const dem_settings *st, const dem_system *s)
{
    dem_inert_parameter list[8];
    int n = dem_inert_parameters(st, s->materials, s->nmaterials, list, 8);
    for (int k = 0; k < n; k++) { /* a warning: -q does not silence it */
        const dem_setting *row = dem_setting_find(list[k].setting);
        cli_warn("materials have %s %g (material '%s') but --%s is %s: it has no effect (only --%s %s %s it)", list[k].parameter,
                 list[k].value, list[k].material, row->option, list[k].model, row->option, list[k].readers,
                 strchr(list[k].readers, ' ') ? "read" : "reads");
    }
}

/* An --ignore given here that switches off more than can have been meant, or nothing (issue 28):
 * a warning, printed even with -q. */
static void warn_ignore(const struct cmdline *c, const dem_settings *st, const dem_system *s)
{
    char note[4][DEM_NOTE_MAX];
    if (!cli_setting_given(&c->set, "interact.ignore")) return;
    int n = dem_ignore_notes(st, s, note, 4);
    for (int k = 0; k < n; k++) cli_warn("%s", note[k]);
}

#ifdef DEM_MPI
/* DEM_MPI_BALANCE: where the ranks' cuts fall (sim.h's DEM_BALANCE_*); any gives the same bits. */
static int mpi_balance(void)
{
    static const char *const names[DEM_BALANCE_COUNT_OF] = {"work", "count", "skew", "shift"};
    const char *b = getenv("DEM_MPI_BALANCE");
    if (!b || !*b) return DEM_BALANCE_WORK;
    for (int k = 0; k < DEM_BALANCE_COUNT_OF; k++)
        if (strcmp(b, names[k]) == 0) return k;
    cli_usage("DEM_MPI_BALANCE='%s': the cuts are work (equal pairs, the default), count (equal particles), skew (uneven) or shift (moving at every rebuild; these two for tests)", b);
    return 0;
}

/* An environment switch, 0 (unset or empty: the default) or 1; what says what 1 does. */
static int mpi_switch(const char *name, const char *what)
{
    const char *v = getenv(name);
    if (!v || !*v || strcmp(v, "0") == 0) return 0;
    if (strcmp(v, "1") == 0) return 1;
    cli_usage("%s='%s': 1 (%s) or 0 (the default)", name, v, what);
    return 0;
}

/* DEM_MPI_FRAME_CHUNK: the particles and contacts each rank sends rank 0 at a time for a frame (sim.h's
 * dem_comm.frame_chunk; unset: the library's default); small ones, for tests, make many rounds. */
static int mpi_frame_chunk(void)
{
    const char *v = getenv("DEM_MPI_FRAME_CHUNK");
    if (!v || !*v) return 0;
    return (int)cli_int("DEM_MPI_FRAME_CHUNK", v, 1, 100000);
}

/* The ranks, their cuts and the pairs evaluated twice (on both sides of a cut), at the end. */
static void report_ranks(const dem_sim *sim, int threads)
{
    dem_dist_stats d;
    dem_sim_dist_stats(sim, &d);
    char how[640], clumps[120] = "";
    if (d.own && d.clumps)
        snprintf(clumps, sizeof clumps, ", moving %zu clumps (%llu received at new cuts)", d.clumps, (unsigned long long)d.clumps_migrated);
    if (d.own)
        snprintf(how, sizeof how,
                 "stepping its own particles%s, %zu of them in the halo, receiving %zu of other ranks'; %llu rebuilds from the ranks' states (%llu receiving only the %llu positions next to its cells, the others every position), %llu particles received at new cuts, %llu frames' states sent to rank 0, the whole state gathered %llu times, the stale particles' pages given back %llu times (%.6g MB)",
                 clumps, d.halo, d.halo_in, (unsigned long long)d.rebuild_gathers, (unsigned long long)d.near_rebuilds,
                 (unsigned long long)d.near_received, (unsigned long long)d.migrated,
                 (unsigned long long)d.root_gathers, (unsigned long long)d.gathers, (unsigned long long)d.drops, 1e-6 * (double)d.dropped_bytes);
    else
        snprintf(how, sizeof how, "every rank stepping every particle");
    fprintf(stderr, "dem-step: %d ranks x %d thread%s; rank %d at the last rebuild: %zu particles, %zu pairs of its blocks and %zu across its cuts (%.1f%% evaluated twice); %s; %.6g MB given and %.6g MB received in %llu exchanges, %llu sums handed from rank to rank in one process's order\n",
            cli_mpi_size(), threads, threads == 1 ? "" : "s", cli_mpi_rank(), d.particles, d.own_pairs, d.foreign_pairs,
            d.own_pairs ? 100.0 * (double)d.foreign_pairs / (double)d.own_pairs : 0.0, how, 1e-6 * (double)d.bytes, 1e-6 * (double)d.received, (unsigned long long)d.exchanges,
            (unsigned long long)d.chains);
}
#endif

int main(int argc, char **argv)
{
#ifdef DEM_MPI
    cli_mpi_start(&argc, &argv);
#endif
    cli_init("dem-step");
    struct cmdline c;
    parse_args(argc, argv, &c);
    dem_error err;
    dem_system s;
    dem_settings st;
#ifdef DEM_MPI
    int balance = mpi_balance();
    cli_mpi_read_run_frame(c.input, &s, &st); /* rank 0 reads; every rank gets the same frame */
#else
    cli_read_run_frame(c.input, &s, &st);
#endif
    cli_settings_apply(&c.set, &st); /* errors in values are usage errors */
    warn_inert(&st, &s);
    cli_warn_ranges(&s, 1); /* a slip of units (--young 70 for 70 GPa); warnings always print */
    warn_ignore(&c, &st, &s);
    edit_frame(&c, &s);
    adhesion_note(&st, &s);
#ifdef DEM_MPI
    if (cli_mpi_rank() == 0) { /* rank 0 writes the stream */
        if (cli_mpi_size() > 1 && (!c.run.output || strcmp(c.run.output, "-") == 0) && isatty(STDOUT_FILENO))
            cli_usage("mpirun relays rank 0's standard output through a terminal, which would alter a binary stream: give -o FILE (a file, or a FIFO made with mkfifo to pipe it into the next program)");
        cli_output_open(c.run.output);
    }
#else
    cli_output_open(c.run.output);
#endif

    double frame_quantum = dem_exact_quantum(&s); /* the frame's particles go in dem_sim_new_from */
#ifdef DEM_MPI
    dem_sim *sim = cli_mpi_new_sim(&s, &st, edit_frame, &c, c.run.threads, balance,
                                   /* sim.h's dem_comm: every rank stepping the whole system, and
                                    * other ranks' stale particles filled with NaN (tests); the
                                    * same bits either way */
                                   mpi_switch("DEM_MPI_REPLICATE", "every rank steps the whole system"),
                                   mpi_switch("DEM_MPI_CHECK_STALE", "other ranks' stale particles' state is NaN, not given back"),
                                   mpi_frame_chunk());
    cli_set_group(cli_mpi_rank(), cli_mpi_max);
#else
    dem_sim *sim = dem_sim_new_from(&s, &st, c.run.threads, &err);
    if (!sim) cli_die_err(&err);
#endif
    cli_note_threads(sim, c.run.threads, s.nparticles, c.run.quiet);
    dem_dt_estimates est;
    dem_sim_set_dt(sim, c.dt > 0.0 ? c.dt : s.dt > 0.0 && c.dt == 0.0 ? s.dt : 1.0);
    dem_sim_estimate_dt(sim, &est);
    double dt = c.dt > 0.0 ? c.dt : (s.dt > 0.0 && c.dt == 0.0) ? s.dt : est.recommended;
    if (!(dt > 0.0) || !isfinite(dt)) {
        if (s.nparticles == 0) cli_die("the frame has no particles, so no time step can be estimated from them: give --dt");
        cli_die("cannot choose a time step (estimate %g s): give --dt", dt);
    }
    int exact = c.run.exact > 0 || (c.run.exact == 0 && st.exact_quantum > 0.0); /* as cli_set_exact decides */
    long long steps = c.run.run_time >= 0.0 ? time_steps(&c, &dt, &s, exact) : c.run.steps;
    dem_sim_set_dt(sim, dt);
    report_dt(&est, dt, c.run.quiet);
    if (c.verbose || (!c.run.quiet && steps > 1000000)) dt_guidance(&st, &est, dt, steps);
    if (c.verbose) report_neighbor(sim, &st);
    if (c.stop_dt > 0.0 && s.nparticles > 1 && dt > c.stop_dt * est.contact_time) /* a lone particle has no pair */
        cli_die("dt = %g s is %.3g times the collision time %g s of the smallest pair%s: collisions would be skipped or blow up (--dt auto: %g s; --stop-dt %g is the limit, 0 turns it off)",
                dt, dt / est.contact_time, est.contact_time, tc_source(&est), est.recommended, c.stop_dt);
    dem_sim_set_limits(sim, &c.run.limits);
    cli_set_exact(sim, &st, frame_quantum, c.run.exact, c.run.quantum, c.run.quiet);

    int min_signal = c.minimize ? minimize(&c, sim) : 0;
    /* The energy budget's reference (formats/dem-stream.md §5.9): E + D - W - e_ahead where the
     * accounting starts, at step 0 (or in a frame that has none). E holds velocity Verlet's
     * shadow term (lib/energy.h), which needs the dt of the steps to come and the forces of
     * the first kick: dem_sim_store gives the frame both, so the dt is set above, first. */
    if (s.step == 0 || isnan(s.energy[DEM_E_INITIAL]) || c.minimize) { /* minimised: the budget restarts */
        double e0;
        if (dem_sim_energy_reference(sim, &s, &st, &e0, &err)) cli_die_err(&err); /* the contacts streamed from the store */
        dem_sim_set_energy(sim, DEM_E_INITIAL, e0);
    }

    steps = cli_run_length(steps, c.run.run_time, dt, s.time, s.step);
    run_watch watch = {&c, NULL, 0.0, 0, 0, NAN, 0.0, ""};
    check_until(&watch, &s, sim);
    double q;
    if (c.run.run_time >= 0.0 && steps > 0 && !dem_sim_exact(sim, &q)) { /* exact mode: the time is tick dt */
        watch.last_step = dem_sim_steps(sim) + (uint64_t)steps;
        watch.end_time = s.time + c.run.run_time;
    }
    if (c.every_time > 0.0) watch.frame_index = frame_index(&c, dem_sim_time(sim), dt);
#ifdef DEM_MPI
    if (c.cell_log && cli_mpi_rank() == 0) { /* rank 0 writes the log, as the stream */
#else
    if (c.cell_log) {
#endif
        if (!(watch.log = fopen(c.cell_log, "w"))) cli_die("--cell-log: cannot write '%s': %s", c.cell_log, strerror(errno));
        fputs("step\tl11[1/s]\tl12[1/s]\tl13[1/s]\tl21[1/s]\tl22[1/s]\tl23[1/s]\tl31[1/s]\tl32[1/s]\tl33[1/s]\n", watch.log);
    }
    uint64_t first_step = dem_sim_steps(sim);
    cli_run_hooks hooks = {&watch, NULL, watch_step, c.until != 0, watch_frame, c.run.progress};
    int status = cli_run_steps_hooked(sim, &s, steps, c.run.every, c.run.level, &hooks);
    if (min_signal && status == 0) status = 128 + min_signal; /* 130 or 143, as a run's */
    if (watch.log && (fclose(watch.log) != 0)) cli_die("--cell-log: writing '%s' failed: %s", c.cell_log, strerror(errno));
    if (!c.run.quiet && status == 0 && dem_sim_steps(sim) > first_step) report_overlap(sim);
    dem_vi_stats vs;
    if (!c.run.quiet && dem_sim_vi_stats(sim, &vs) && vs.steps)
        fprintf(stderr, "dem-step: variational (alpha %g): %llu steps, %llu Newton iterations (at most %u in a step), %llu Krylov iterations; largest final residual %.3g (tolerance %g)\n",
                st.vi_alpha, (unsigned long long)vs.steps, (unsigned long long)vs.newton, vs.max_newton, (unsigned long long)vs.krylov,
                vs.max_residual, st.vi_newton_tol);
#ifdef DEM_MPI
    if (!c.run.quiet && cli_mpi_size() > 1) report_ranks(sim, dem_sim_threads(sim));
#endif
    dem_sim_free(sim);
    dem_system_free(&s);
    free(c.wall_velocity);
    free(c.cell_rate);
    free(c.cell_stress);
#ifdef DEM_MPI
    cli_mpi_finish();
#endif
    return status;
}
