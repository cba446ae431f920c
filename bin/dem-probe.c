/* dem-probe - look inside a dem stream: per-frame summary, particles or contacts as TSV, or
 * VTK files for ParaView. The measurements and writers live in lib/analysis.c and lib/vtk.c;
 * this file parses the command line, picks the frames and sends each one to the chosen output. */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "analysis/profile.h"
#include "analysis/stress.h"
#include "cli.h"
#include "dem.h"
#include "analysis/lammps_dump.h"
#include "analysis/vtk.h"

static const char help_text[] =
"Usage: dem-probe [MODE] [OPTIONS] [FILE]\n"
"\n"
"Read a dem stream from FILE (standard input if FILE is absent or '-') and print what it\n"
"holds as tab-separated values on standard output: exactly one header line, whose column\n"
"names carry their SI unit in brackets (time[s], x[m], vx[m/s]; dimensionless names are\n"
"bare), then one row per record. Doubles are printed as the shortest text that reads back\n"
"to the same value bit for bit, integers (ids, counts, flags) in decimal. Frames are\n"
"numbered from 0 in the order they arrive (across concatenated streams: cat a b | dem-probe)\n"
"and each is printed as soon as it is read. If the input is damaged or cut short, the frames\n"
"before the damage are printed, then the reason, and the exit status is 1.\n"
"\n"
"Modes (at most one; --summary is the default):\n"
"  --summary          one row per frame with the columns\n"
"                       frame step time[s] particles contacts wall_contacts coordination\n"
"                       solid_fraction vx_mean[m/s] vy_mean[m/s] vz_mean[m/s]\n"
"                       granular_temperature[m^2/s^2] ekin_t[J] ekin_r[J] volume[m^3]\n"
"                       coordination_mech rattler_fraction unbalanced\n"
"                     contacts, wall_contacts: contact records with overlap > 0 between two\n"
"                       particles, and between a particle and a wall;\n"
"                     coordination: mean coordination number Z = 2*contacts/particles (wall\n"
"                       contacts excluded, particles without contacts included);\n"
"                     solid_fraction: the solid volume over volume[m^3], the volume of: the\n"
"                       periodic cell |det H| if the frame has one, else the --box (each\n"
"                       sphere counts with the exact part of it inside the box), else the\n"
"                       box bounded by six axis-aligned plane walls, else the cylinder\n"
"                       pi R^2 h of a cylinder wall along x, y or z between two end planes\n"
"                       (cell and containers: every sphere counted whole), else nan;\n"
"                       over a container a note on standard error (one per run, of the last\n"
"                       frame) names it and how far the particles reach: a settled bed fills\n"
"                       only the bottom of its box; measure it with --box or --profile;\n"
"                     vx_mean, vy_mean, vz_mean: plain mean of the particle velocities;\n"
"                     granular_temperature: 1/(3N) sum_i |vmean - v_i|^2, N particles\n"
"                       (De Klerk et al., J. Comput. Phys. 462 (2022) 111253, eq 36);\n"
"                     ekin_t = sum 1/2 m |v|^2, ekin_r = sum 1/2 I |w|^2 (all particles);\n"
"                     coordination_mech: Z_m = 2 C_m / N_m without rattlers: every particle\n"
"                       with fewer than K contacts (--rattler-contacts, default 2; wall\n"
"                       contacts count) is removed, which lowers its neighbours' counts,\n"
"                       until all that remain have K; C_m: the particle contacts among the\n"
"                       N_m that remain (0 if none remain); rattler_fraction = (N - N_m) / N;\n"
"                     unbalanced: mean |net force| on the free particles / mean |contact\n"
"                       force|, the ratio dem-step --until unbalanced=U stops on (0 without\n"
"                       contacts).\n"
"                     With --box: particles, contacts, wall_contacts, coordination,\n"
"                     coordination_mech and rattler_fraction count the particles whose centre\n"
"                     lies in the box: Z = (sum over them of their particle contacts) / (their\n"
"                     number), so a contact between two of them counts for both, a contact\n"
"                     across a face for its inner end; contacts: those with an end in the box;\n"
"                     the means, temperature, energies and unbalanced are the whole frame's.\n"
"                     Without particles: coordination, means and temperature are nan.\n"
"  --profile AXIS     AXIS x, y or z: one row per slice per frame, --bins N slices (default\n"
"                     20) of equal thickness across the container along AXIS:\n"
"                       frame step time[s] bin lo[m] hi[m] volume[m^3] particles\n"
"                       solid_fraction coordination sxx[Pa] syy[Pa] szz[Pa] p[Pa] q[Pa]\n"
"                     the cross-section: the --box's, else the box of six axis-aligned\n"
"                     walls, else a rectangular periodic cell (a sheared cell is refused),\n"
"                     else a cylinder wall along AXIS between end planes (its disc); the\n"
"                     range along AXIS: --range LO,HI, else the same container's extent.\n"
"                     volume: cross-section x thickness; solid_fraction: the exact volume of\n"
"                     the spheres between the slice's two planes (in a periodic cell with\n"
"                     their images across its faces) over it; particles, coordination: those\n"
"                     centred in [lo, hi) (the last slice [lo, hi]), Z = their particle\n"
"                     contacts / their number; sxx syy szz p q: the Love-Weber stress (see\n"
"                     dem-stress --help) of the contacts whose contact point lies in the\n"
"                     slice, over its volume; compression positive. A bed's height is where\n"
"                     solid_fraction drops to 0; its bulk where it is flat.\n"
"  --particles        one row per selected particle per frame, in id order:\n"
"                       frame step time[s] id x[m] y[m] z[m] vx[m/s] vy[m/s] vz[m/s]\n"
"                       wx[rad/s] wy[rad/s] wz[rad/s] fx[N] fy[N] fz[N] r[m]\n"
"                     then the --fields columns.\n"
"  --contacts         one row per contact record (of a selected particle) per frame:\n"
"                       frame step time[s] i j wall sx sy sz overlap[m] nx ny nz\n"
"                       fnx[N] fny[N] fnz[N] ftx[N] fty[N] ftz[N] sliding\n"
"                       diss_friction[J] diss_damp_n[J] diss_damp_t[J] h0 .. h{K-1}\n"
"                     i, j: particle ids (j is a wall index when wall is 1); sx sy sz:\n"
"                     periodic image of j; n: unit normal from j to i; fn, ft: normal and\n"
"                     tangential force on i; sliding: 1 at the Coulomb limit; diss_*:\n"
"                     energy dissipated at the contact by sliding and by the normal and\n"
"                     tangential dashpots; h0..: model history slots, K = the slot count of\n"
"                     the first frame printed (a later frame with fewer slots is padded\n"
"                     with nan, one with more shows its first K).\n"
"  --bonds            one row per bond per frame (dem-pack --bond-gap, --bonds):\n"
"                       frame step time[s] i j flags sx sy sz kb[N/m] delta[m] fx[N] fy[N]\n"
"                       fz[N] energy[J]\n"
"                     i, j: particle ids; sx sy sz: periodic image of j; kb: stiffness;\n"
"                     delta: r_i + r_j minus the distance of the centres (negative when\n"
"                     stretched); f: the bond's force on i (j feels -f); energy: kb delta^2/2.\n"
"                     Nothing but the header for frames without bonds.\n"
"  --clumps           one row per rigid clump per frame (dem-pack --clump; format 1.6):\n"
"                       frame step time[s] id mass[kg] i1 i2 i3[kg*m^2] x y z[m] vx vy vz[m/s]\n"
"                       wx wy wz[rad/s] q0 q1 q2 q3 fx fy fz[N] tx ty tz[N*m] lx ly lz[kg*m^2/s]\n"
"                       members ekin[J]\n"
"                     i1 i2 i3: principal moments about the centre of mass x y z (never\n"
"                     wrapped into a periodic cell); q: the orientation of the principal\n"
"                     axes (body to world); f, t: force and torque about the centre of mass;\n"
"                     l: angular momentum (w = R I^-1 R^T l); members: its spheres (their\n"
"                     rows in --particles carry its id in the column clump); ekin: 1/2 m v^2\n"
"                     + 1/2 l.w. Nothing but the header for frames without clumps.\n"
"  --walls            one row per wall per frame: where it is, how it moves, what it feels:\n"
"                       frame step time[s] wall kind material flags px[m] py[m] pz[m] nx ny nz\n"
"                       radius[m] vx[m/s] vy[m/s] vz[m/s] wx[rad/s] wy[rad/s] wz[rad/s]\n"
"                       fx[N] fy[N] fz[N] tx[N*m] ty[N*m] tz[N*m] work[J]\n"
"                     wall: its index (dem-step --wall-velocity K); kind: plane or cylinder;\n"
"                     p: a point of the plane (it moves with the wall: a platen's position) or\n"
"                     of the cylinder's axis; n: the plane's normal towards the particles, or\n"
"                     the axis; v, w: its prescribed velocity and spin; f, t: the force and\n"
"                     torque (about p) the particles exert on it; work: done by it on them.\n"
"  --lammps-dump      not TSV: a LAMMPS text dump (dump custom) of the selected particles, one\n"
"                     block per frame, which OVITO reads (dem-probe --lammps-dump run.dem >\n"
"                     run.dump): ITEM: TIMESTEP (the step), NUMBER OF ATOMS, BOX BOUNDS (the\n"
"                     periodic cell, pp along its periodic vectors, as LAMMPS' restricted\n"
"                     triclinic box with xy xz yz when it is not rectangular; without a cell\n"
"                     ff ff ff, as --lammps-box says), ATOMS id type mass radius x y z vx vy vz\n"
"                     omegax omegay omegaz fx fy fz [ix iy iz: image counters, with a cell];\n"
"                     type = material index + 1; SI units (LAMMPS' units si). A cell that is\n"
"                     not rectangular is turned onto LAMMPS' form (a along x, b in the xy plane)\n"
"                     and the positions and vectors with it.\n"
"  --lammps-box walls|particles\n"
"                     (--lammps-dump, a frame without a periodic cell) the BOX BOUNDS:\n"
"                     walls (default): the container, each side at its wall (a plane along an\n"
"                     axis, a cylinder around one; dem-pack --enclose, --wall, --cylinder), a\n"
"                     side without one at the particles' extent; particles: the particles'\n"
"                     bounding box. Either is widened to hold every particle written (LAMMPS\n"
"                     drops atoms outside a fixed box). A periodic cell is always the box.\n"
"  --cell             one row per frame of its periodic cell (an error for a frame without one):\n"
"                       frame step time[s] flags stress_mask ox[m] oy[m] oz[m] h11[m] .. h33[m]\n"
"                       l11[1/s] .. l33[1/s] s11[Pa] .. s33[Pa] f11 .. f33 volume[m^3]\n"
"                     flags: bits 0..2 periodic along the cell vectors a, b, c; o: the origin;\n"
"                     h: H by rows, its columns the cell vectors (a = h11 h21 h31); l: the\n"
"                     velocity gradient L of the step that ended at the frame (dH/dt = L H);\n"
"                     stress_mask (bits 0..5: xx yy zz yz xz xy) and s: the servo's controlled\n"
"                     components and targets (compression positive); f: the deformation\n"
"                     gradient F since the strain reference (dem-step --cell-reset-strain);\n"
"                     volume: |det H|. A flip (dem-step) shows as h12/h11 jumping back.\n"
"  --vtk DIR          write VTK XML files for ParaView into DIR (created if missing; files of\n"
"                     the same names are replaced) and print nothing. For each printed frame\n"
"                     N (6 digits or more: particles_000012.vtp is frame 12):\n"
"                       DIR/particles_N.vtp  a point per selected particle at its centre, m,\n"
"                         with id, radius[m], velocity[m/s], angular_velocity[rad/s],\n"
"                         force[N], material and fixed (1 if fixed);\n"
"                       DIR/contacts_N.vtp   a line per particle-particle contact record of a\n"
"                         selected particle, from centre i to centre j (its periodic image),\n"
"                         with normal_force[N] and tangential_force[N] (magnitudes),\n"
"                         overlap[m] and sliding;\n"
"                       DIR/walls_N.vtp      the walls, from the first frame that has any:\n"
"                         a plane is a rectangle (quad), a cylinder its mantle of 48 quads;\n"
"                         each quad with wall (index), kind (1 plane, 2 cylinder), material,\n"
"                         velocity[m/s], angular_velocity[rad/s], force[N] and torque[N*m]\n"
"                         (exerted by the particles) and work[J] (done by the wall);\n"
"                       DIR/cell_N.vtp       the periodic cell, from the first frame that has\n"
"                         one: its 12 edges from the origin o along the columns a, b, c of H,\n"
"                         as it deforms, with vector (0 1 2: a b c) and periodic (1 or 0);\n"
"                     and DIR/particles.pvd, contacts.pvd, walls.pvd, cell.pvd: the series with\n"
"                     timestep = frame time in s, complete after every frame. Walls are\n"
"                     infinite; they are drawn within a box: the bounding box of the spheres,\n"
"                     of the cell, of the positions of planes normal to x, y or z and of the\n"
"                     cylinders' ends, enlarged on every side by 5% of its largest edge. A\n"
"                     plane is the rectangle in it covering that box's projection (for a\n"
"                     plane normal to x, y or z: the box's face); a cylinder ends at plane\n"
"                     walls normal to its axis, else at the spheres' extent along the axis\n"
"                     enlarged by 5%. In ParaView open particles.pvd; Glyph (Sphere, Scale\n"
"                     Array radius, Scale Factor 2) draws the spheres; open walls.pvd and\n"
"                     cell.pvd beside it (Opacity 0.3 shows the bed through the walls).\n"
"  --vtk-prefix NAME  (--vtk) begin every file name with NAME_ (NAME_particles_000012.vtp,\n"
"                     NAME_particles.pvd, ...), so that two streams probed into one DIR do\n"
"                     not replace each other's files. NAME holds no '/'.\n"
"  --salvage          write the complete frames of FILE back out as a dem stream (standard\n"
"                     output or -o OUT), with an end-of-stream marker, and say on standard\n"
"                     error how many were kept and what was dropped: the way to continue from\n"
"                     the last complete frame of a damaged file (a run killed while writing,\n"
"                     a full disk): dem-probe --salvage run.dem | dem-step -n 1000 > more.dem.\n"
"                     Exit status 1 if no frame is complete.\n"
"  -o, --output OUT   with --salvage: write OUT (via OUT.tmp-XXXXXX, renamed when complete)\n"
"\n"
"Frames (any mode; at most one of these; default every frame):\n"
"  --frame K          only frame K (0 is the first); reading stops there. Exit status 1 if the\n"
"                     stream has no frame K.\n"
"  --last             only the last complete frame (of a damaged stream: the last one before\n"
"                     the damage, then the error).\n"
"  --every K          frames 0, K, 2K, ... (K >= 1).\n"
"\n"
"Particles (--particles, --contacts, --vtk; at most one of these; default all):\n"
"  --select SEL       all | ids=LIST | box=X0,Y0,Z0,X1,Y1,Z1 | radius=RMIN,RMAX |\n"
"                     above=AXIS,H | below=AXIS,H\n"
"                     ids: ids and inclusive ranges, e.g. ids=1-10,15; box: particles whose\n"
"                     centre lies in the box, m; radius: RMIN <= r <= RMAX, m; above, below:\n"
"                     centres with AXIS (x, y or z) > H or < H, m (above=z,0.01).\n"
"                     A contact is shown when particle i or particle j is selected.\n"
"  --ids LIST         the same as --select ids=LIST\n"
"  --region X0,Y0,Z0,X1,Y1,Z1\n"
"                     the same as --select box=X0,Y0,Z0,X1,Y1,Z1\n"
"\n"
"Other options:\n"
"  --fields LIST      (--particles) append the named particle fields, comma separated, as\n"
"                     columns: mass[kg] inertia[kg*m^2] material flags group clump q0 q1 q2 q3\n"
"                     tx[N*m] ty[N*m] tz[N*m] ix iy iz, or all for every field not shown yet.\n"
"                     Integer fields print as integers (flags bit 0: fixed).\n"
"  --box X0,Y0,Z0,X1,Y1,Z1\n"
"                     (--summary) the control volume, m, for frames without a periodic cell:\n"
"                     each sphere counts with the exact volume of its part inside the box\n"
"                     (caps in closed form; edges and corners by a quadrature within 1e-13\n"
"                     of the sphere's volume), the counts with the particles centred in it;\n"
"                     (--profile) the cross-section and default range of the slices.\n"
"  --bins N           (--profile) the number of slices, N >= 1 (default 20)\n"
"  --range LO,HI      (--profile) the slices' range along the axis, m\n"
"  --rattler-contacts K\n"
"                     (--summary) the contacts a particle needs not to be a rattler (K >= 1,\n"
"                     default 2: Thornton's mechanical coordination number, for frictional\n"
"                     packings; frictionless ones use K = 4 = d + 1, which removes every\n"
"                     particle of a frictional bed near Z = 4 in its cascade).\n"
"  -h, --help         print this help and exit\n"
"\n"
"Examples:\n"
"  dem-probe run.dem\n"
"      one summary row per frame\n"
"  dem-probe --last --box 0,0,0,0.1,0.1,0.05 run.dem\n"
"      the last frame, solid fraction in a 10 cm x 10 cm x 5 cm box\n"
"  dem-probe --last --profile z --bins 30 bed.dem\n"
"      a settled bed in 30 horizontal slices: where it ends, its bulk solid fraction, szz\n"
"  dem-probe --particles --ids 1-10 --fields mass,group run.dem\n"
"      particles 1 to 10 in every frame, with their mass and interaction group\n"
"  dem-probe --contacts --frame 3 run.dem | awk -F'\\t' 'NR == 1 || $4 == 7'\n"
"      the contacts of frame 3 where particle 7 is i\n"
"  dem-pack --from spheres.tsv | dem-probe --particles --fields all\n"
"      check what dem-pack made of a table of spheres\n"
"  dem-probe --vtk out --every 10 --region 0,0,0,0.1,0.1,0.1 run.dem\n"
"      every tenth frame of the particles in a 10 cm cube, for paraview out/particles.pvd\n"
"  dem-probe --vtk out --vtk-prefix settle settle.dem\n"
"      out/settle_particles.pvd, settle_walls.pvd, ...; another run beside it with another NAME\n"
"\n"
"Exit status: 0 success; 1 unreadable, damaged or truncated input, or a failed write;\n"
"2 bad usage.\n";

enum mode { MODE_SUMMARY, MODE_PARTICLES, MODE_CONTACTS, MODE_CELL, MODE_WALLS, MODE_BONDS, MODE_CLUMPS, MODE_LAMMPS, MODE_VTK, MODE_SALVAGE,
            MODE_PROFILE };

struct cmdline {
    enum mode mode;
    const char *input;        /* NULL or "-": stdin */
    const char *vtk_dir;
    const char *vtk_prefix;   /* --vtk-prefix NAME: NAME_particles_N.vtp; NULL: no prefix */
    const char *output;       /* --salvage -o OUT */
    dem_lammps_bounds lammps_box; /* --lammps-box */
    int has_lammps_box;
    cli_frames frames;        /* --frame K, --last, --every K (cli.h) */
    int has_box;
    dem_aabb box;             /* --box */
    int has_select;
    dem_select sel;           /* --select, --ids or --region */
    dem_particle_columns columns;
    unsigned rattler_contacts;  /* --rattler-contacts K */
    int profile_axis;           /* --profile AXIS */
    long long bins;             /* --bins N */
    double range_lo, range_hi;  /* --range LO,HI; nan if not given */
};

enum { OPT_SUMMARY = 256, OPT_PARTICLES, OPT_CONTACTS, OPT_VTK,
       OPT_SELECT, OPT_IDS, OPT_REGION, OPT_FIELDS, OPT_BOX, OPT_SALVAGE, OPT_CELL, OPT_WALLS, OPT_BONDS, OPT_CLUMPS, OPT_LAMMPS,
       OPT_VTK_PREFIX, OPT_RATTLER, OPT_PROFILE, OPT_BINS, OPT_RANGE, OPT_LAMMPS_BOX };

static const struct option long_options[] = {
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"particles", no_argument, NULL, OPT_PARTICLES},
    {"contacts", no_argument, NULL, OPT_CONTACTS},
    {"vtk", required_argument, NULL, OPT_VTK},
    {"vtk-prefix", required_argument, NULL, OPT_VTK_PREFIX},
    {"salvage", no_argument, NULL, OPT_SALVAGE},
    {"cell", no_argument, NULL, OPT_CELL},
    {"walls", no_argument, NULL, OPT_WALLS},
    {"bonds", no_argument, NULL, OPT_BONDS},
    {"clumps", no_argument, NULL, OPT_CLUMPS},
    {"lammps-dump", no_argument, NULL, OPT_LAMMPS},
    {"lammps-box", required_argument, NULL, OPT_LAMMPS_BOX},
    {"output", required_argument, NULL, 'o'},
    CLI_FRAME_OPTIONS,
    {"select", required_argument, NULL, OPT_SELECT},
    {"ids", required_argument, NULL, OPT_IDS},
    {"region", required_argument, NULL, OPT_REGION},
    {"fields", required_argument, NULL, OPT_FIELDS},
    {"box", required_argument, NULL, OPT_BOX},
    {"rattler-contacts", required_argument, NULL, OPT_RATTLER},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"bins", required_argument, NULL, OPT_BINS},
    {"range", required_argument, NULL, OPT_RANGE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* How a selection was written: --select SEL, --ids LIST or --region BOX. */
enum select_form { SELECT_TEXT, SELECT_IDS, SELECT_REGION };

/* What parse_args collects before checking the combinations. */
struct raw_args {
    int modes, select_opts;
    const char *mode_opt, *select_opt, *select_text, *fields, *box, *rattler, *bins, *range;
    enum select_form select_form;
};

static void set_mode(struct cmdline *c, struct raw_args *raw, enum mode m, const char *opt)
{
    if (raw->modes++ && c->mode != m)
        cli_usage("%s and %s exclude each other: choose one mode", raw->mode_opt, opt);
    c->mode = m;
    raw->mode_opt = opt;
}

static void set_selection(struct raw_args *raw, const char *opt, const char *text, enum select_form form)
{
    if (raw->select_opts++) cli_usage("%s and %s exclude each other: give one selection", raw->select_opt, opt);
    raw->select_opt = opt;
    raw->select_text = text;
    raw->select_form = form;
}

static void parse_selection(struct cmdline *c, const struct raw_args *raw)
{
    dem_error err;
    dem_status st;
    if (raw->select_form == SELECT_IDS) {
        st = dem_select_parse_ids(&c->sel, raw->select_text, &err);
    } else if (raw->select_form == SELECT_REGION) {
        /* The library's box selection checks the numbers and their order. */
        size_t n = strlen(raw->select_text) + 5;
        char *text = malloc(n);
        if (!text) cli_die("out of memory");
        snprintf(text, n, "box=%s", raw->select_text);
        st = dem_select_parse(&c->sel, text, &err);
        free(text);
    } else {
        st = dem_select_parse(&c->sel, raw->select_text, &err);
    }
    if (st) cli_usage_err(raw->select_opt, &err);
    c->has_select = 1;
}

static void parse_box(struct cmdline *c, const char *text)
{
    double v[6];
    cli_doubles("--box", text, v, 6);
    c->box.lo = dem_v3(v[0], v[1], v[2]);
    c->box.hi = dem_v3(v[3], v[4], v[5]);
    if (!(v[0] < v[3] && v[1] < v[4] && v[2] < v[5]))
        cli_usage("--box: '%s' must have X0 < X1, Y0 < Y1 and Z0 < Z1", text);
    c->has_box = 1;
}

static void check_combinations(const struct cmdline *c, const struct raw_args *raw)
{
    cli_frames_check(&c->frames);
    if (raw->fields && c->mode != MODE_PARTICLES) cli_usage("--fields needs --particles");
    if (raw->box && c->mode != MODE_SUMMARY && c->mode != MODE_PROFILE) cli_usage("--box applies to the summary and --profile only");
    if ((raw->bins || raw->range) && c->mode != MODE_PROFILE) cli_usage("%s applies to --profile only", raw->bins ? "--bins" : "--range");
    if (raw->rattler && c->mode != MODE_SUMMARY) cli_usage("--rattler-contacts applies to the summary only");
    if (c->output && c->mode != MODE_SALVAGE) cli_usage("-o applies to --salvage only (the other modes print text on standard output)");
    if (c->mode == MODE_SALVAGE && (c->frames.given || raw->select_opts))
        cli_usage("--salvage keeps every complete frame: no frame selection or particle selection");
    if (raw->select_opts && c->mode == MODE_PROFILE) cli_usage("%s does not apply to --profile (the slices hold every particle)", raw->select_opt);
    if (raw->select_opts && c->mode == MODE_CLUMPS) cli_usage("--select, --ids, --region and --fields do not apply to --clumps");
    if (raw->select_opts && (c->mode == MODE_SUMMARY || c->mode == MODE_CELL || c->mode == MODE_WALLS || c->mode == MODE_BONDS))
        cli_usage("%s applies to --particles, --contacts, --lammps-dump and --vtk, not to %s", raw->select_opt,
                  c->mode == MODE_SUMMARY ? "the summary" : c->mode == MODE_CELL ? "--cell" : c->mode == MODE_BONDS ? "--bonds" : "--walls");
}

/* --vtk-prefix: with --vtk only; a file name part (no '/'), not empty. */
static void check_vtk_prefix(const struct cmdline *c)
{
    if (!c->vtk_prefix) return;
    if (c->mode != MODE_VTK) cli_usage("--vtk-prefix applies to --vtk only");
    if (!*c->vtk_prefix) cli_usage("--vtk-prefix: the prefix is empty");
    if (strchr(c->vtk_prefix, '/')) cli_usage("--vtk-prefix: '%s' holds a '/': give the folder with --vtk DIR", c->vtk_prefix);
    if (strlen(c->vtk_prefix) > 200) cli_usage("--vtk-prefix: longer than 200 bytes");
}

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    struct raw_args raw;
    memset(&raw, 0, sizeof raw);
    memset(c, 0, sizeof *c);
    c->mode = MODE_SUMMARY;
    cli_frames_init(&c->frames);
    c->rattler_contacts = DEM_RATTLER_CONTACTS;
    c->bins = 20;
    c->range_lo = c->range_hi = NAN;
    int opt;
    opterr = 0; /* our own messages, in the cli_usage format */
    while ((opt = getopt_long(argc, argv, ":ho:", long_options, NULL)) != -1) {
        switch (opt) {
        case 'h': cli_help(help_text);
        case OPT_SUMMARY: set_mode(c, &raw, MODE_SUMMARY, "--summary"); break;
        case OPT_PARTICLES: set_mode(c, &raw, MODE_PARTICLES, "--particles"); break;
        case OPT_CONTACTS: set_mode(c, &raw, MODE_CONTACTS, "--contacts"); break;
        case OPT_VTK: set_mode(c, &raw, MODE_VTK, "--vtk"); c->vtk_dir = optarg; break;
        case OPT_VTK_PREFIX: c->vtk_prefix = optarg; break;
        case OPT_SALVAGE: set_mode(c, &raw, MODE_SALVAGE, "--salvage"); break;
        case OPT_CELL: set_mode(c, &raw, MODE_CELL, "--cell"); break;
        case OPT_WALLS: set_mode(c, &raw, MODE_WALLS, "--walls"); break;
        case OPT_BONDS: set_mode(c, &raw, MODE_BONDS, "--bonds"); break;
        case OPT_CLUMPS: set_mode(c, &raw, MODE_CLUMPS, "--clumps"); break;
        case OPT_LAMMPS: set_mode(c, &raw, MODE_LAMMPS, "--lammps-dump"); break;
        case OPT_LAMMPS_BOX:
            if (strcmp(optarg, "walls") == 0) c->lammps_box = DEM_LAMMPS_BOUNDS_WALLS;
            else if (strcmp(optarg, "particles") == 0) c->lammps_box = DEM_LAMMPS_BOUNDS_PARTICLES;
            else cli_usage("--lammps-box: unknown '%s' (walls, particles)", optarg);
            c->has_lammps_box = 1;
            break;
        case 'o': c->output = cli_output_arg("-o", optarg); break;
        case OPT_SELECT: set_selection(&raw, "--select", optarg, SELECT_TEXT); break;
        case OPT_IDS: set_selection(&raw, "--ids", optarg, SELECT_IDS); break;
        case OPT_REGION: set_selection(&raw, "--region", optarg, SELECT_REGION); break;
        case OPT_FIELDS: raw.fields = optarg; break;
        case OPT_BOX: raw.box = optarg; break;
        case OPT_PROFILE:
            set_mode(c, &raw, MODE_PROFILE, "--profile");
            if (strlen(optarg) != 1 || !strchr("xyz", optarg[0])) cli_usage("--profile: '%s': the axis is x, y or z", optarg);
            c->profile_axis = optarg[0] - 'x';
            break;
        case OPT_BINS: raw.bins = optarg; c->bins = cli_int("--bins", optarg, 1, 1000000); break;
        case OPT_RANGE: {
            double v[2];
            raw.range = optarg;
            cli_doubles("--range", optarg, v, 2);
            if (!(v[0] < v[1])) cli_usage("--range: '%s' must have LO < HI", optarg);
            c->range_lo = v[0];
            c->range_hi = v[1];
            break;
        }
        case OPT_RATTLER: raw.rattler = optarg; c->rattler_contacts = (unsigned)cli_int("--rattler-contacts", optarg, 1, 1000); break;
        default:
            if (!cli_frames_arg(&c->frames, opt, optarg)) cli_bad_option_of(opt, argv, long_options);
        }
    }
    if (c->mode == MODE_VTK && !*c->vtk_dir) cli_usage("--vtk: the directory name is empty");
    check_vtk_prefix(c);
    if (c->has_lammps_box && c->mode != MODE_LAMMPS) cli_usage("--lammps-box applies to --lammps-dump only");
    c->input = cli_one_input(argc, argv);
    check_combinations(c, &raw);
    if (raw.select_opts) parse_selection(c, &raw);
    if (raw.box) parse_box(c, raw.box);
    dem_particle_columns_default(&c->columns);
    if (raw.fields) {
        dem_error err;
        if (dem_particle_columns_add(&c->columns, raw.fields, &err)) cli_usage_err("--fields", &err);
    }
}

/* ---- output of one frame ------------------------------------------------------------------ */
struct probe {
    const struct cmdline *cl;
    const dem_select *sel;     /* NULL: every particle */
    int header_done;
    unsigned hist_slots;       /* --contacts: the history columns, fixed by the first frame */
    int warned_box;
    char note[256];            /* the container's volume at the last frame: one note per run */
    int note_axis;
    uint64_t printed;          /* frames printed */
    dem_id_index ix;
    FILE *pvd_particles, *pvd_contacts, *pvd_walls, *pvd_cell; /* walls, cell: NULL until a frame has them */
    char *path;                /* --vtk: DIR/ + a file name */
    size_t path_size;
};

static void print_header(struct probe *pr)
{
    dem_error err;
    dem_status st = DEM_OK;
    switch (pr->cl->mode) {
    case MODE_SUMMARY: st = dem_tsv_summary_header(stdout, &err); break;
    case MODE_PARTICLES: st = dem_tsv_particles_header(stdout, &pr->cl->columns, &err); break;
    case MODE_CONTACTS: st = dem_tsv_contacts_header(stdout, pr->hist_slots, &err); break;
    case MODE_CELL: st = dem_tsv_cell_header(stdout, &err); break;
    case MODE_WALLS: st = dem_tsv_walls_header(stdout, &err); break;
    case MODE_BONDS: st = dem_tsv_bonds_header(stdout, &err); break;
    case MODE_CLUMPS: st = dem_tsv_clumps_header(stdout, &err); break;
    case MODE_PROFILE:
        dem_tsv_frame_header(stdout);
        fputs("\tbin\tlo[m]\thi[m]\tvolume[m^3]\tparticles\tsolid_fraction\tcoordination\tsxx[Pa]\tsyy[Pa]\tszz[Pa]\tp[Pa]\tq[Pa]\n", stdout);
        break;
    case MODE_VTK: case MODE_SALVAGE: case MODE_LAMMPS: break; /* no TSV header */
    }
    if (st) cli_die_err(&err);
    pr->header_done = 1;
}

/* mkdir -p: the directory and any missing parents. */
static void make_dir(const char *dir)
{
    char *p = strdup(dir);
    if (!p) cli_die("out of memory");
    for (char *q = p + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        mkdir(p, 0777); /* a parent that cannot be made makes the last mkdir fail with the reason */
        *q = '/';
    }
    struct stat sb;
    if (mkdir(p, 0777) != 0 && !(errno == EEXIST && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode)))
        cli_die("--vtk: cannot create directory '%s': %s", dir, errno == EEXIST ? "a file of that name exists" : strerror(errno));
    free(p);
}

/* DIR/[PREFIX_]name */
static const char *vtk_path(struct probe *pr, const char *name)
{
    const char *prefix = pr->cl->vtk_prefix;
    snprintf(pr->path, pr->path_size, "%s/%s%s%s", pr->cl->vtk_dir, prefix ? prefix : "", prefix ? "_" : "", name);
    return pr->path;
}

static FILE *open_output(struct probe *pr, const char *name)
{
    FILE *f = fopen(vtk_path(pr, name), "wb");
    if (!f) cli_die("cannot create '%s': %s", pr->path, strerror(errno));
    return f;
}

static FILE *start_collection(struct probe *pr, const char *name)
{
    dem_error err;
    FILE *f = open_output(pr, name);
    if (dem_pvd_begin(f, &err)) cli_die("%s: %s", pr->path, err.msg);
    return f;
}

static void vtk_start(struct probe *pr)
{
    make_dir(pr->cl->vtk_dir);
    /* file names: [PREFIX_] and at most 34 bytes */
    pr->path_size = strlen(pr->cl->vtk_dir) + (pr->cl->vtk_prefix ? strlen(pr->cl->vtk_prefix) : 0) + 64;
    pr->path = malloc(pr->path_size);
    if (!pr->path) cli_die("out of memory");
    pr->pvd_particles = start_collection(pr, "particles.pvd");
    pr->pvd_contacts = start_collection(pr, "contacts.pvd");
}

typedef dem_status (*vtk_writer)(struct probe *pr, FILE *out, const dem_system *s, dem_error *err);

static dem_status write_particles_vtp(struct probe *pr, FILE *out, const dem_system *s, dem_error *err)
{
    return dem_vtk_particles(out, s, pr->sel, err);
}

static dem_status write_contacts_vtp(struct probe *pr, FILE *out, const dem_system *s, dem_error *err)
{
    return dem_vtk_contacts(out, s, &pr->ix, pr->sel, err);
}

static dem_status write_walls_vtp(struct probe *pr, FILE *out, const dem_system *s, dem_error *err)
{
    (void)pr;
    return dem_vtk_walls(out, s, err);
}

static dem_status write_cell_vtp(struct probe *pr, FILE *out, const dem_system *s, dem_error *err)
{
    (void)pr;
    return dem_vtk_cell(out, s, err);
}

/* DIR/[PREFIX_]<kind>_NNNNNN.vtp, then its entry (the name relative to DIR) in the collection. */
static void vtk_file(struct probe *pr, const char *kind, uint64_t frame, const dem_system *s,
                     vtk_writer writer, FILE *pvd)
{
    char name[64];
    dem_error err;
    snprintf(name, sizeof name, "%s_%06llu.vtp", kind, (unsigned long long)frame);
    FILE *f = open_output(pr, name);
    const char *slash = strrchr(pr->path, '/');
    char *entry = strdup(slash ? slash + 1 : pr->path);
    if (!entry) cli_die("out of memory");
    if (writer(pr, f, s, &err)) cli_die("%s: %s", pr->path, err.msg);
    if (fclose(f) != 0) cli_die("cannot write '%s': %s", pr->path, strerror(errno));
    if (dem_pvd_add(pvd, s->time, entry, &err)) {
        snprintf(name, sizeof name, "%s.pvd", kind);
        cli_die("%s: %s", vtk_path(pr, name), err.msg);
    }
    free(entry);
}

static void emit_vtk(struct probe *pr, uint64_t frame, const dem_system *s)
{
    vtk_file(pr, "particles", frame, s, write_particles_vtp, pr->pvd_particles);
    vtk_file(pr, "contacts", frame, s, write_contacts_vtp, pr->pvd_contacts);
    /* The container from the first frame that has one on: later frames without it get an
     * empty file, so that the series says when walls were removed. */
    if (!pr->pvd_walls && s->nwalls) pr->pvd_walls = start_collection(pr, "walls.pvd");
    if (pr->pvd_walls) vtk_file(pr, "walls", frame, s, write_walls_vtp, pr->pvd_walls);
    if (!pr->pvd_cell && s->cell.flags) pr->pvd_cell = start_collection(pr, "cell.pvd");
    if (pr->pvd_cell) vtk_file(pr, "cell", frame, s, write_cell_vtp, pr->pvd_cell);
}

static dem_status emit_summary(struct probe *pr, uint64_t frame, const dem_system *s, dem_error *err)
{
    dem_summary sum;
    if (pr->cl->has_box && s->cell.flags && !pr->warned_box) {
        cli_warn("frame %llu has a periodic cell: its solid fraction uses the cell, not --box", (unsigned long long)frame);
        pr->warned_box = 1;
    }
    dem_status st = dem_summarize(s, pr->cl->has_box ? &pr->cl->box : NULL, pr->cl->rattler_contacts, &sum, err);
    if (st) return st;
    pr->note_axis = dem_container_note(s, sum.volume_source, sum.volume, pr->note, sizeof pr->note);
    return dem_tsv_summary_row(stdout, frame, s, &sum, err);
}

static void cell_out(double v)
{
    putchar('\t');
    dem_tsv_double(stdout, v);
}

static dem_status emit_profile(struct probe *pr, uint64_t frame, const dem_system *s, dem_error *err)
{
    const struct cmdline *c = pr->cl;
    dem_profile_geometry g;
    dem_status st = dem_profile_geometry_of(s, c->profile_axis, (size_t)c->bins, c->has_box ? &c->box : NULL,
                                            c->range_lo, c->range_hi, &g, err);
    if (st) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return dem_fail(err, st, "frame %llu: %s", (unsigned long long)frame, msg);
    }
    dem_profile_bin *bins = malloc((size_t)c->bins * sizeof *bins);
    if (!bins) return dem_fail(err, DEM_ERR_NOMEM, "out of memory for %lld slices", c->bins);
    st = dem_profile_measure(s, &pr->ix, &g, bins, err);
    for (size_t b = 0; !st && b < g.bins; b++) {
        const dem_profile_bin *p = &bins[b];
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                if (!isfinite(p->sigma.m[r][k]))
                    st = dem_fail(err, DEM_ERR_VALUE, "frame %llu: the stress of slice %zu is not finite: the frame's values are too large",
                                  (unsigned long long)frame, b);
        if (st) break;
        dem_tsv_frame_cells(stdout, frame, s);
        printf("\t%zu", b);
        cell_out(p->lo);
        cell_out(p->hi);
        cell_out(p->volume);
        printf("\t%zu", p->particles);
        cell_out(p->solid_fraction);
        cell_out(p->coordination);
        cell_out(p->sigma.m[0][0]);
        cell_out(p->sigma.m[1][1]);
        cell_out(p->sigma.m[2][2]);
        cell_out(dem_stress_p(p->sigma));
        cell_out(dem_stress_q(p->sigma));
        putchar('\n');
    }
    free(bins);
    if (st) return st;
    return dem_tsv_check(stdout, err);
}

static dem_status emit_rows(struct probe *pr, uint64_t frame, const dem_system *s, dem_error *err)
{
    switch (pr->cl->mode) {
    case MODE_SUMMARY: return emit_summary(pr, frame, s, err);
    case MODE_PROFILE: return emit_profile(pr, frame, s, err);
    case MODE_PARTICLES: return dem_tsv_particles_rows(stdout, frame, s, &pr->cl->columns, pr->sel, &pr->ix, err);
    case MODE_CONTACTS: return dem_tsv_contacts_rows(stdout, frame, s, pr->hist_slots, &pr->ix, pr->sel, err);
    case MODE_CELL: return dem_tsv_cell_row(stdout, frame, s, err);
    case MODE_WALLS: return dem_tsv_walls_rows(stdout, frame, s, err);
    case MODE_BONDS: return dem_tsv_bonds_rows(stdout, frame, s, err);
    case MODE_CLUMPS: return dem_tsv_clumps_rows(stdout, frame, s, err);
    case MODE_LAMMPS: return dem_lammps_dump_frame(stdout, s, pr->sel, &pr->ix, pr->cl->lammps_box, err);
    case MODE_VTK: emit_vtk(pr, frame, s); return DEM_OK;
    case MODE_SALVAGE: return DEM_OK; /* run_salvage writes the frames */
    }
    return DEM_OK;
}

static void emit_frame(struct probe *pr, uint64_t frame, const dem_system *s)
{
    dem_error err;
    if (pr->cl->mode == MODE_CONTACTS && !pr->header_done) pr->hist_slots = s->hist_slots;
    if (!pr->header_done) print_header(pr);
    /* Contacts name particles by id: finding their positions and selection needs the index. */
    int need_index = pr->cl->mode == MODE_VTK || pr->cl->mode == MODE_PROFILE || pr->cl->mode == MODE_PARTICLES || pr->cl->mode == MODE_LAMMPS ||
                     (pr->cl->mode == MODE_CONTACTS && pr->sel);
    if (need_index && dem_id_index_build(&pr->ix, s, &err)) cli_die_err(&err);
    if (emit_rows(pr, frame, s, &err)) cli_die_err(&err);
    /* Flush every frame: someone watching a running simulation through a pipe sees it now. */
    cli_check_output(stdout, "standard output");
    pr->printed++;
}

/* The header even if no frame was printed, so that every output has its columns. */
static void finish_output(struct probe *pr)
{
    if (!pr->header_done) print_header(pr);
    cli_check_output(stdout, "standard output");
}

/* The note on the container's volume, once per run, of the last frame printed (a bed has formed
 * by then); only after a run that succeeded, so that an error stays the last word. */
static void print_note(struct probe *pr)
{
    if (!pr->note[0]) return;
    if (pr->note_axis >= 0)
        fprintf(stderr, "dem-probe: solid_fraction is over %s (last frame): measure the bed with --box or --profile %c\n",
                pr->note, "xyz"[pr->note_axis]);
    else
        fprintf(stderr, "dem-probe: solid_fraction is over %s\n", pr->note);
}

/* ---- frame selection ---------------------------------------------------------------------- */
static int wanted(const struct cmdline *c, uint64_t frame)
{
    if (c->frames.frame >= 0) return frame == (uint64_t)c->frames.frame;
    return frame % (uint64_t)c->frames.every == 0;
}

static _Noreturn void fail_read(struct probe *pr, const dem_error *err)
{
    finish_output(pr);
    cli_die_err(err);
}

/* --last: keep the latest frame, print it when the input ends (or breaks). */
static void run_last(struct probe *pr, dem_reader *r)
{
    dem_system a, b, *cur = &a, *held = &b;
    dem_system_init(&a);
    dem_system_init(&b);
    dem_error err;
    int rc;
    while ((rc = dem_reader_next(r, cur, &err)) == 1) {
        dem_system *t = held;
        held = cur;
        cur = t;
    }
    uint64_t n = dem_reader_frames(r);
    if (n) emit_frame(pr, n - 1, held);
    if (rc < 0) fail_read(pr, &err);
    cli_input_end(r);
    dem_system_free(&a);
    dem_system_free(&b);
}

static void run_frames(struct probe *pr, dem_reader *r)
{
    const struct cmdline *c = pr->cl;
    dem_system s;
    dem_system_init(&s);
    dem_error err;
    int rc;
    while ((rc = dem_reader_next(r, &s, &err)) == 1) {
        uint64_t frame = dem_reader_frames(r) - 1;
        if (wanted(c, frame)) emit_frame(pr, frame, &s);
        if (c->frames.frame >= 0 && frame == (uint64_t)c->frames.frame) break;
    }
    if (rc < 0) fail_read(pr, &err);
    if (rc == 0) cli_input_end(r);
    if (c->frames.frame >= 0 && !pr->printed) {
        finish_output(pr);
        cli_die("--frame %lld: the stream has only %llu frames (0 to %llu)", c->frames.frame,
                (unsigned long long)dem_reader_frames(r), (unsigned long long)dem_reader_frames(r) - 1);
    }
    dem_system_free(&s);
}

/* --salvage: every complete frame back out, then the end marker; what was lost on stderr. */
static int run_salvage(const struct cmdline *c, dem_reader *r)
{
    dem_error err, rerr;
    dem_system s;
    dem_system_init(&s);
    cli_output_open(c->output);
    dem_writer *w = dem_writer_new(cli_output(), DEM_LEVEL_DEFAULT, &err);
    if (!w) cli_die_err(&err);
    int rc;
    uint64_t last_step = 0;
    while ((rc = dem_reader_next(r, &s, &rerr)) == 1) {
        if (dem_writer_put(w, &s, &err)) cli_die_err(&err);
        last_step = s.step;
    }
    uint64_t n = dem_reader_frames(r);
    if (n == 0) cli_die("no complete frame to salvage: %s", rc < 0 ? rerr.msg : "the input is empty");
    cli_write_end(w);
    dem_writer_free(w);
    cli_output_close();
    if (rc < 0)
        fprintf(stderr, "dem-probe: salvaged %llu complete frame%s (the last at step %llu); dropped what follows: %s\n",
                (unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)last_step, rerr.msg);
    else
        fprintf(stderr, "dem-probe: salvaged %llu complete frame%s (the last at step %llu): the input was sound%s\n",
                (unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)last_step,
                dem_reader_ended_with_marker(r) ? "" : " but had no end-of-stream marker");
    dem_system_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    cli_init("dem-probe");
    struct cmdline cl;
    parse_args(argc, argv, &cl);
    struct probe pr;
    memset(&pr, 0, sizeof pr);
    pr.cl = &cl;
    pr.sel = cl.has_select ? &cl.sel : NULL;
    dem_id_index_init(&pr.ix);
    if (cl.mode == MODE_VTK) vtk_start(&pr);

    dem_error err;
    int fd = cli_open_input(cl.input);
    dem_reader *r = dem_reader_new_fd(fd, &err);
    if (!r) cli_die_err(&err);
    if (cl.mode == MODE_SALVAGE) {
        run_salvage(&cl, r);
        dem_reader_free(r);
        return 0;
    }
    if (cl.frames.last) run_last(&pr, r);
    else run_frames(&pr, r);
    finish_output(&pr);
    print_note(&pr);

    dem_reader_free(r);
    dem_id_index_free(&pr.ix);
    dem_select_free(&cl.sel);
    if (pr.pvd_particles && fclose(pr.pvd_particles) != 0) cli_die("cannot write particles.pvd: %s", strerror(errno));
    if (pr.pvd_contacts && fclose(pr.pvd_contacts) != 0) cli_die("cannot write contacts.pvd: %s", strerror(errno));
    if (pr.pvd_walls && fclose(pr.pvd_walls) != 0) cli_die("cannot write walls.pvd: %s", strerror(errno));
    if (pr.pvd_cell && fclose(pr.pvd_cell) != 0) cli_die("cannot write cell.pvd: %s", strerror(errno));
    free(pr.path);
    return 0;
}
