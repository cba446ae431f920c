/* dem-energy - the energy budget of every frame of a dem stream: kinetic, gravitational and
 * elastic energy, the energy dissipated by each mechanism and the work of the boundaries, and
 * the residual that closes the budget. The physics is in lib/energy.c; this file parses the
 * command line, picks the frames and prints the rows. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dem.h"

static const char help_text[] =
"Usage: dem-energy [OPTIONS] [FILE]\n"
"\n"
"Read a dem stream from FILE (standard input if FILE is absent or '-') and print the energy\n"
"budget of each frame as tab-separated values: one header line (units in brackets), then one\n"
"row per frame, doubles as the shortest text that reads back bit for bit. All energies in J.\n"
"\n"
"Columns:\n"
"  frame step time[s]\n"
"  ekin_t[J]          sum 1/2 m |v|^2 over every particle (fixed ones included); a rigid clump\n"
"                     (format 1.6) is one body: its mass and centre velocity, never its members'\n"
"  ekin_r[J]          sum 1/2 I |w|^2; a clump's 1/2 L.w (w = R I^-1 R^T L, I its principal moments)\n"
"  epot_g[J]          -sum m g.x: gravity g from the frame's settings (dem-step --gravity),\n"
"                     zero at the origin (a clump: its mass at its centre of mass); in a\n"
"                     periodic cell x is the unwrapped position\n"
"                     x + H (ix,iy,iz), so a particle falling through periodic faces keeps\n"
"                     losing potential energy as it gains kinetic energy\n"
"  eel_n[J]           elastic energy of the normal springs: the contact law's potential at\n"
"                     each contact's overlap, with the pair's properties as dem-step derives\n"
"                     them: hooke kn/2 delta^2, hertz 8/15 E* sqrt(R*) delta^(5/2)\n"
"  eel_t[J]           elastic energy of the tangential springs, 1/2 S_t |xi|^2 with xi the\n"
"                     spring stretch (contact history slots 0..2) and S_t the tangential\n"
"                     stiffness at the current overlap: exact for hooke (constant kt); for\n"
"                     hertz (Mindlin, S_t = 8 G* sqrt(R* delta)) the stiffness changes with\n"
"                     the overlap at fixed stretch, which the law does without work: this\n"
"                     term is then the spring's energy but not a potential; dem-step books\n"
"                     what the law adds or takes as work_law (below), so the budget closes.\n"
"                     --tangential incremental keeps the spring's force f_s in the slots:\n"
"                     |f_s|^2 / (2 S_t), with the same S_t\n"
"  ediss_friction[J] ediss_damp_n[J] ediss_damp_t[J] ediss_local[J] ediss_drag[J]\n"
"                     energy dissipated since the system was created by sliding friction,\n"
"                     the normal and tangential contact dashpots, local (Cundall) damping\n"
"                     and drag, as dem-step accumulates them in the frame (ENRG section)\n"
"  work_walls[J]      work done on the particles by the walls since the system was created\n"
"  e_shadow[J]        velocity Verlet's shadow-energy term: the integrator does not conserve\n"
"                     the energy above but a nearby one, and this is the difference, to order\n"
"                     dt^2 (lib/energy.h derives it):\n"
"                       dt^2/12 sum over contacts of v.U''.v - dt^2/24 sum (|F|^2/m + |T|^2/I)\n"
"                     with the frame's dt, velocities, forces F and torques T (the second sum\n"
"                     over the particles that are not fixed). v.U''.v of a contact, v its\n"
"                     relative velocity: S_n vn^2 (vn along the normal, S_n and fe the normal\n"
"                     law's stiffness and force), - fe/d |v - vn n|^2 for a pair d apart (the\n"
"                     normal turns), +- fe/rho (v along the circumference)^2 against a\n"
"                     cylinder wall rho from its axis (+ inside),\n"
"                     + S_t |vt|^2 for a tangential spring that does not slide (vt at the\n"
"                     contact point); a bond (below) adds kb vn^2 - kb delta/d |v - vn n|^2.\n"
"                     Without it E swings by up to (w dt)^2/4 of a contact's\n"
"                     energy (w^2 = k/m) while the contact lasts, no energy made or lost.\n"
"                     0 when the frame's forces are not current (HEAD flags bit 0 clear, as in\n"
"                     dem-pack's output) or dt is 0: such a frame has no shadow energy\n"
"  total[J]           E = ekin_t + ekin_r + epot_g + eel_n + eel_t + eel_b + e_shadow, the\n"
"                     mechanical\n"
"                     energy as velocity Verlet conserves it\n"
"  residual[J]        e_initial + W - (E + D) + e_ahead, with D the sum of every ediss_*\n"
"                     accumulator and W the sum of the work accumulators (walls, cell,\n"
"                     external, law): the energy the integration created (< 0) or lost (> 0) that\n"
"                     no mechanism accounts for. Exact arithmetic and an exact integrator\n"
"                     give 0.\n"
"  ediss_rolling[J] ediss_twisting[J] work_cell[J] work_external[J]\n"
"                     the other accumulators of the ENRG section (part of D and W)\n"
"  e_initial[J]       the budget's reference: E + D - W - e_ahead at the state where the\n"
"                     accounting began, that is E of the initial state at step 0. Taken from\n"
"                     the frame (field e_initial, format 1.1, set by the program that stepped\n"
"                     the system from step 0). When a frame has none (NaN: dem-pack output,\n"
"                     format 1.0 frames), the first such frame read gives it, E + D - W of\n"
"                     that frame, a warning says so, and the residual then only shows the\n"
"                     errors made after that frame. Put the initial state in front to see\n"
"                     them all: dem-step -n 0 writes it with its forces and contacts.\n"
"                     A frame whose step is lower than the one before starts a new run\n"
"                     (cat a.dem b.dem) and takes a new reference the same way.\n"
"  e_ahead[J]         the part of D - W that belongs to the half step after the frame's\n"
"                     time (format 1.1): a force evaluated at a step acts on the velocities\n"
"                     half a step before and half a step after it, and dem-step counts its\n"
"                     work at that step; 0 from writers that count up to the frame's time\n""  work_law[J]        work of the contact law itself (part of W, format 1.2): the energy a\n"
"                     tangential spring gains or loses as Mindlin's stiffness follows the\n"
"                     overlap at a given stretch (hertz; 0 for hooke), per contact and step\n"
"                     1/4 (S_t,new - S_t,old)(|xi_old|^2 + |xi_new|^2); with\n"
"                     --tangential incremental the force is kept and the energy follows:\n"
"                     1/2 (1/S_t,new - 1/S_t,old) |f_s,old|^2. Also minus the energy a\n"
"                     tangential spring still holds when its contact opens while it sticks\n"
"                     (cut loaded: the law's loss, not friction; a contact sliding at its\n"
"                     last step gives it to ediss_friction)\n"
"  eel_b[J]           elastic energy of the bonds (format 1.5; dem-pack --bond-gap, --bonds):\n"
"                     sum kb delta^2/2, delta = r_i + r_j - |x_i - x_j| from the positions, in\n"
"                     tension (delta < 0) as in compression (De Klerk et al. 2022, §3.3); 0 without bonds\n"
"\n"
"Reading the residual: compare it with the energies that move, for instance the largest\n"
"kinetic energy or the energy dissipated. With e_shadow in E, elastic contacts no longer\n"
"make it oscillate; what is left of an elastic collision comes from the step in which the\n"
"contact closes or opens: with hooke up to (w dt)^2/6 of the collision's energy, held while\n"
"the contact lasts and mostly given back when it opens, with hertz much less. It shrinks at\n"
"least as dt^2 when dt is halved (measured: README.md, dem-energy). A residual that grows\n"
"steadily, or that does not shrink with dt, means that dt is too large, or that a mechanism\n"
"does not report its energy exactly; one that jumps means that the settings or dt changed\n"
"between two stages of a pipeline (e.g. --gravity given to a later dem-step).\n"
"\n"
"Frames (at most one of these; default every frame):\n"
"  --frame K          only frame K (0 is the first)\n"
"  --last             only the last complete frame\n"
"  --every K          frames 0, K, 2K, ... (K >= 1)\n"
"The reference of a frame without e_initial is always taken from the first frame read,\n"
"printed or not.\n"
"\n"
"  -h, --help         print this help and exit\n"
"\n"
"Examples:\n"
"  dem-pack --random 500 --box 0,0,0,0.01,0.01,0.03 --radius 4e-4 --young 5e6 --enclose |\n"
"      dem-step --gravity 0,0,-9.81 --time 0.05 --every 2000 --local-damping 0.2 | dem-energy\n"
"      the budget of a settling packing: potential energy turned into dissipation\n"
"  dem-energy run.dem | awk -F'\\t' 'NR > 1 { r = $17 < 0 ? -$17 : $17; if (r > m) m = r }\n"
"      END { print \"largest |residual|:\", m, \"J\" }'\n"
"  dem-energy run.dem > e.tsv; gnuplot -p -e 'set datafile separator \"\\t\";\n"
"      set key autotitle columnhead; plot \"e.tsv\" using 3:4 w l, \"\" using 3:17 w l'\n"
"      kinetic energy and residual against time\n"
"\n"
"Exit status: 0 success; 1 unreadable, damaged or truncated input (the frames before the\n"
"damage are printed first), a frame whose settings cannot be read, or a failed write;\n"
"2 bad usage.\n";

struct cmdline {
    const char *input;
    cli_frames sel;  /* --frame, --last, --every (cli.h) */
};

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    static const struct option opts[] = {
        CLI_FRAME_OPTIONS, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(c, 0, sizeof *c);
    cli_frames_init(&c->sel);
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': cli_help(help_text);
        default:
            if (!cli_frames_arg(&c->sel, opt, optarg)) cli_bad_option_of(opt, argv, opts);
        }
    }
    cli_frames_check(&c->sel);
    c->input = cli_one_input(argc, argv);
}

/* ---- the budget ---------------------------------------------------------------------------- */
struct budget {
    int have_ref;      /* a fallback reference is known for the current run */
    double ref;        /* E + D - W of the first frame of the run without e_initial */
    uint64_t prev_step;
    int seen;          /* frames read */
    int header_done;
    double last_ref;   /* the reference of the frame last read */
};

static const char *const energy_columns[] = {"ekin_t", "ekin_r", "epot_g", "eel_n", "eel_t", "ediss_friction",
                                             "ediss_damp_n", "ediss_damp_t", "ediss_local", "ediss_drag", "work_walls",
                                             "e_shadow", "total", "residual", "ediss_rolling", "ediss_twisting", "work_cell",
                                             "work_external", "e_initial", "e_ahead", "work_law", "eel_b"};

static void print_header(struct budget *b)
{
    dem_tsv_frame_header(stdout);
    for (size_t k = 0; k < sizeof energy_columns / sizeof energy_columns[0]; k++) printf("\t%s[J]", energy_columns[k]);
    putchar('\n');
    b->header_done = 1;
}

static void cell(double v)
{
    putchar('\t');
    dem_tsv_double(stdout, v);
}

static void read_settings(uint64_t frame, const dem_system *s, dem_settings *st)
{
    dem_error err;
    if (dem_settings_read(st, s, &err)) cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
}

/* The reference of this frame; called for every frame read, in order. */
static double reference(struct budget *b, uint64_t frame, const dem_system *s)
{
    double e0 = s->energy[DEM_E_INITIAL];
    int new_run = b->seen && s->step < b->prev_step;
    b->seen = 1;
    b->prev_step = s->step;
    if (new_run) b->have_ref = 0;
    if (isfinite(e0)) return e0;
    if (!b->have_ref) {
        dem_settings st;
        dem_error err;
        read_settings(frame, s, &st);
        if (dem_energy_reference(s, &st, &b->ref, &err)) cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
        b->have_ref = 1;
        cli_warn("frame %llu (step %llu) has no e_initial, the energy at step 0 (its writer did not set it): "
                 "residuals are relative to this frame, errors before step %llu are not seen",
                 (unsigned long long)frame, (unsigned long long)s->step, (unsigned long long)s->step);
    }
    return b->ref;
}

static void emit(struct budget *b, uint64_t frame, const dem_system *s, double ref)
{
    dem_settings st;
    dem_energy_terms e;
    dem_error err;
    read_settings(frame, s, &st);
    if (dem_energy_terms_compute(s, &st, &e, &err)) cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
    double v[] = {e.ekin_t, e.ekin_r, e.epot_g, e.eel_n, e.eel_t, s->energy[DEM_E_DISS_FRICTION],
                  s->energy[DEM_E_DISS_DAMP_N], s->energy[DEM_E_DISS_DAMP_T], s->energy[DEM_E_DISS_LOCAL],
                  s->energy[DEM_E_DISS_DRAG], s->energy[DEM_E_WORK_WALLS], e.e_shadow, dem_energy_mechanical(&e),
                  dem_energy_residual(ref, &e, s), s->energy[DEM_E_DISS_ROLLING], s->energy[DEM_E_DISS_TWISTING],
                  s->energy[DEM_E_WORK_CELL], s->energy[DEM_E_WORK_EXTERNAL], ref, s->energy[DEM_E_AHEAD],
                  s->energy[DEM_E_WORK_LAW], e.eel_b};
    /* every column is a number for finite input; one that overflows (dt = 1e300 in a header
     * squares to inf in the shadow term) is refused, naming it */
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) cli_need_finite(frame, energy_columns[k], v[k]);
    if (!b->header_done) print_header(b);
    dem_tsv_frame_cells(stdout, frame, s);
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) cell(v[k]);
    putchar('\n');
    cli_check_output(stdout, "standard output");
}

/* The reference of the frame last read: dem-energy's emit always concerns it (with --last the
 * held frame is the last one read). */
static void seen_frame(void *ctx, uint64_t frame, const dem_system *s)
{
    struct budget *b = ctx;
    b->last_ref = reference(b, frame, s);
}

static void emit_frame(void *ctx, uint64_t frame, const dem_system *s)
{
    struct budget *b = ctx;
    emit(b, frame, s, b->last_ref);
}

static void finish(void *ctx)
{
    struct budget *b = ctx;
    if (!b->header_done) print_header(b);
    cli_check_output(stdout, "standard output");
}

int main(int argc, char **argv)
{
    cli_init("dem-energy");
    struct cmdline cl;
    parse_args(argc, argv, &cl);
    struct budget b;
    memset(&b, 0, sizeof b);
    cli_frame_handlers h = {&b, seen_frame, emit_frame, finish};
    cli_run_frames(cl.input, &cl.sel, &h);
    return 0;
}
