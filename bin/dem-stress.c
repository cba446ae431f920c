/* dem-stress - the stress carried by the contacts of every frame of a dem stream: Love-Weber
 * average stress with its principal values and invariants (and the periodic cell's strain and
 * the void ratio), the stress of each particle, or the forces on the walls. The mechanics is in
 * lib/analysis/stress.c; this file parses the command line, picks the frames and prints the rows. */
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
"Usage: dem-stress [MODE] [OPTIONS] [FILE]\n"
"\n"
"Read a dem stream from FILE (standard input if FILE is absent or '-') and print the stress\n"
"that the contact forces carry, as tab-separated values: one header line (units in\n"
"brackets), then one row per frame (or per particle, or per wall), doubles as the shortest\n"
"text that reads back bit for bit. Stresses are in Pa and COMPRESSION IS POSITIVE; strains\n"
"(default mode) are dimensionless and EXTENSION IS POSITIVE.\n"
"\n"
"Modes (at most one; the assembly stress is the default):\n"
"  (default)          one row per frame:\n"
"                       frame step time[s] volume[m^3] sxx[Pa] syy[Pa] szz[Pa] sxy[Pa]\n"
"                       sxz[Pa] syz[Pa] p[Pa] q[Pa] s1[Pa] s2[Pa] s3[Pa] s1_s3 coordination\n"
"                       exx[-] eyy[-] ezz[-] exy[-] exz[-] eyz[-] ev[-] void_ratio[-]\n"
"                       coordination_mech rattler_fraction\n"
"                     the Love-Weber average stress over a volume V (Hanley eq 23):\n"
"                       sigma = (1/V) [ sum over particle pairs   l (x) f\n"
"                                     - sum over wall contacts   xr (x) f ]\n"
"                     f: the contact force on particle i (the contact record's fn + ft);\n"
"                     l = x_i - (x_j + H s): the branch vector from the centre of j (its\n"
"                     periodic image) to the centre of i; xr: from the centre of the particle\n"
"                     to the contact point, the middle of the overlap on the line of centres,\n"
"                     where dem-step applies the force; f then is the force the wall exerts\n"
"                     on the particle. Why these signs: the stress of one particle is\n"
"                     -(1/Vp) sum xr (x) f over its contacts (Hanley eq 22 turned to\n"
"                     compression positive: a particle squeezed from both sides has xr and f\n"
"                     pointing against each other). Summed over the two particles of a pair\n"
"                     the xr terms combine into l (x) f; a wall contact has one particle only\n"
"                     and keeps its xr term. So sigma is exactly (1/V) sum Vp sigma_p over\n"
"                     all particles (--per-particle), and in equilibrium it equals the\n"
"                     platen stress: a box squeezed by a force F on a wall of area A has\n"
"                     szz = F/A. Every contact record is summed. The tensor printed is the\n"
"                     symmetric part (torque balance makes the sum symmetric in equilibrium).\n"
"                     p = (sxx + syy + szz)/3; q = sqrt(3 J2), J2 = 1/2 s:s with s = sigma - p I,\n"
"                     the von Mises measure of the deviator (q = s1 - s3 when s2 = s3);\n"
"                     s1 >= s2 >= s3: principal stresses (Jacobi rotations); s1_s3 = s1/s3\n"
"                     (inf or nan when s3 = 0); coordination: 2 contacts / particles (contact\n"
"                     records with overlap > 0 between particles; walls excluded); with --box\n"
"                     the particles centred in it, Z = their particle contacts / their number\n"
"                     (as dem-probe --box); coordination_mech, rattler_fraction: the same\n"
"                     without rattlers, particles with fewer than K contacts removed\n"
"                     iteratively (--rattler-contacts; see dem-probe --help).\n"
"                     The volume V, in this order:\n"
"                       --box: a box; only contacts whose contact point lies in it are\n"
"                         summed, and only particles whose centre lies in it count (for\n"
"                         coordination and --kinetic). Contacts cut by the faces make an\n"
"                         error of order (box surface x particle size) / (box volume);\n"
"                       a periodic cell: V = |det H|, every contact;\n"
"                       six axis-aligned plane walls: the box they enclose, every contact;\n"
"                         a note on standard error (one per run) names it and how far the\n"
"                         particles reach: a bed settled in a tall box fills its bottom\n"
"                         only, and its stress is that of the bed times its share of V.\n"
"                     Without any of them the frame is refused: give --box.\n"
"                     The strain of the periodic cell, EXTENSION POSITIVE (like the velocity\n"
"                     gradient L and F; the opposite of the stresses): the logarithmic\n"
"                     (Hencky) strain e = 1/2 ln(F F^T) in the lab frame, F the cell's\n"
"                     deformation gradient since its strain reference (H = F H_ref; F = I\n"
"                     there). dem-step keeps F while it deforms the cell (--cell-rate,\n"
"                     --cell-stress) and dem-step --cell-reset-strain sets it back to I. A\n"
"                     rigid rotation gives 0; a stretch by 1 + d along x gives exx = ln(1 + d).\n"
"                     ev = ln det F: the volumetric strain, the log of the cell's volume over\n"
"                     its volume at the reference (= exx + eyy + ezz up to round-off; negative\n"
"                     when the cell shrinks). With --box both are still the whole cell's.\n"
"                     nan: no periodic cell, strain not defined.\n"
"                     void_ratio = V / Vs - 1: V the volume above, Vs = sum 4/3 pi r^3 over the\n"
"                     particles counted, with --box the exact parts of every sphere inside\n"
"                     the box (as dem-probe's solid fraction); overlaps are ignored (a lens\n"
"                     shared by two spheres counts twice in Vs); nan without particles.\n"
"  --per-particle     one row per particle per frame:\n"
"                       frame step time[s] id volume[m^3] sxx[Pa] syy[Pa] szz[Pa] sxy[Pa]\n"
"                       sxz[Pa] syz[Pa] p[Pa] q[Pa]\n"
"                     sigma_p = -(1/Vp) sum over the particle's contacts of xr (x) f_p, with\n"
"                     Vp = 4/3 pi r^3, xr from its centre to the contact point and f_p the\n"
"                     force on it (walls included); symmetric part. With --box, the particles\n"
"                     whose centre lies in the box.\n"
"  --walls            one row per wall per frame:\n"
"                       frame step time[s] wall kind fx[N] fy[N] fz[N] pressure[Pa]\n"
"                     wall: index (0-based, as dem-step --wall-velocity counts); kind: plane\n"
"                     or cylinder; f: the force the particles exert on the wall at the\n"
"                     frame's time, as dem-step records it (Hanley's platen forces);\n"
"                     pressure = -f.n / A for a plane that is a face of the box of six\n"
"                     axis-aligned walls (A the area of that face, n the wall's normal,\n"
"                     which faces the particles): compression positive; nan otherwise.\n"
"\n"
"Options:\n"
"  --box X0,Y0,Z0,X1,Y1,Z1\n"
"                     the averaging volume, m (see above)\n"
"  --kinetic          (default mode) add the kinetic stress (1/V) sum m v' (x) v' over the\n"
"                     counted particles, v' = v minus their mass-weighted mean velocity (the\n"
"                     momentum flux of the velocity fluctuations, De Klerk et al. 2022\n"
"                     Fig. 12b; compression positive, so a gas of free particles has\n"
"                     p = 2/3 E'kin / V). Quasi-static packings have a negligible one.\n"
"  --rattler-contacts K\n"
"                     (default mode) the contacts a particle needs not to be a rattler\n"
"                     (K >= 1, default 2; frictionless packings: 4; see dem-probe --help)\n"
"  --triaxial AXIS    (default mode) append the columns of a triaxial test along AXIS (x, y\n"
"                     or z; the other two are lateral):\n"
"                       sa[Pa] sr[Pa] q_axial[Pa] eps_a[-] eps_q[-]\n"
"                     sa: the axial stress; sr: the mean of the two lateral ones; q_axial =\n"
"                     sa - sr (negative in extension; q above is its size, sqrt(3 J2));\n"
"                     eps_a: the axial strain; eps_q = 2/3 (eps_a - eps_r): the deviatoric\n"
"                     strain conjugate to q (eps_r the mean lateral strain). p is column p.\n"
"  --shear IJ         (default mode) append the columns of a shear test moving along I on\n"
"                     the planes normal to J (as dem-step --cell-rate IJ=R: xy shears x along\n"
"                     y):\n"
"                       tau[Pa] sigma_n[Pa] tau_sigma[-] gamma[-]\n"
"                     tau = -s_IJ, of the sign of the shear it resists (positive while gamma\n"
"                     grows), sigma_n = s_JJ, tau_sigma = tau/sigma_n (the stress ratio of a\n"
"                     simple-shear test), gamma: the displacement along I per height along J.\n"
"                     With --triaxial, --shear or both, then:\n"
"                       eps_v[-] sin_phi[-] phi_mob[deg]\n"
"                     eps_v: the volumetric strain (negative when the sample dilates); sin_phi\n"
"                     = (s1 - s3)/(s1 + s3), the mobilised friction angle phi_mob of a\n"
"                     cohesionless material (nan when s1 + s3 <= 0).\n"
"                     Their STRAINS ARE COMPRESSION POSITIVE, as the stresses and soil\n"
"                     mechanics (eps = -e of the columns exx..ev). Along an axis the periodic\n"
"                     cell spans they come from its F since its strain reference (Hencky;\n"
"                     eps_v = -ln det F; gamma = F_IJ/F_JJ); along another from the innermost\n"
"                     pair of axis-aligned plane walls across it, against their places in the\n"
"                     first frame of the input (eps = -ln(gap/gap_0); gamma: the walls'\n"
"                     relative displacement along I since then over their gap now); across an\n"
"                     inner cylinder wall 0; nan where there is neither.\n"
"  --frame K          only frame K (0 is the first)\n"
"  --last             only the last complete frame\n"
"  --every K          frames 0, K, 2K, ... (K >= 1)\n"
"                     (at most one of --frame, --last, --every; default every frame)\n"
"  -h, --help         print this help and exit\n"
"\n"
"A rigid clump (dem-pack --clump, format 1.6) is one body: the branch vectors join the bodies'\n"
"centres of mass (Christoffersen et al. 1981; Bagi 1996), its union volume counts once in the\n"
"void ratio, its contacts are its members' contacts with other bodies in the coordination.\n"
"\n"
"Contact forces are those of the frame's time: frames written by dem-step carry them (dem-pack\n"
"frames have no contacts yet: run dem-step -n 0 to compute them without moving anything).\n"
"\n"
"Examples:\n"
"  dem-pack --random 150 --box 0,0,0,0.005,0.005,0.015 --radius 5e-4 --young 1e7 --enclose |\n"
"      dem-step --time 0.06 --every 5000 --wall-velocity 5=0,0,-0.15 --local-damping 0.3 |\n"
"      tee squeeze.dem | dem-stress\n"
"      squeeze a packing with a moving lid (wall 5, the top face): p and q rise\n"
"  dem-stress --walls --last squeeze.dem\n"
"      the force on each wall and its pressure, to compare with szz\n"
"  dem-stress --per-particle --last squeeze.dem | sort -t$'\\t' -g -k12 | tail -5\n"
"      the five most loaded particles (largest p)\n"
"  dem-stress --box 0,0,0.002,0.005,0.005,0.004 --every 2 squeeze.dem\n"
"      the stress in a horizontal slice 2 mm thick, every other frame\n"
"  dem-stress --triaxial z triaxial.dem | cut -f1,3,11,30,31,33,35\n"
"      a triaxial curve, no awk: frame, time, p, q_axial, eps_a, eps_v, phi_mob\n"
"\n"
"Exit status: 0 success; 1 unreadable, damaged or truncated input (the frames before the\n"
"damage are printed first), a frame without a volume, or a failed write; 2 bad usage.\n";

enum mode { MODE_ASSEMBLY, MODE_PARTICLES, MODE_WALLS };

struct cmdline {
    enum mode mode;
    const char *input;
    cli_frames sel;  /* --frame, --last, --every (cli.h) */
    int has_box;
    dem_aabb box;
    int kinetic;
    unsigned rattler_contacts;
    dem_element_test element; /* --triaxial, --shear (-1: not given) */
};

enum { OPT_PER_PARTICLE = 256, OPT_WALLS, OPT_BOX, OPT_KINETIC, OPT_RATTLER, OPT_TRIAXIAL, OPT_SHEAR };

/* --triaxial AXIS: x, y or z */
static void parse_triaxial(struct cmdline *c, const char *arg)
{
    if (strlen(arg) != 1 || !strchr("xyz", arg[0])) cli_usage("--triaxial: '%s': the axis is x, y or z", arg);
    c->element.axis = arg[0] - 'x';
}

/* --shear IJ: two different axes */
static void parse_shear(struct cmdline *c, const char *arg)
{
    if (strlen(arg) != 2 || !strchr("xyz", arg[0]) || !strchr("xyz", arg[1]) || arg[0] == arg[1])
        cli_usage("--shear: '%s' is not IJ, two different axes of x, y, z (xy: moving along x on the planes normal to y)", arg);
    c->element.shear_i = arg[0] - 'x';
    c->element.shear_j = arg[1] - 'x';
}

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    static const struct option opts[] = {
        {"per-particle", no_argument, NULL, OPT_PER_PARTICLE}, {"walls", no_argument, NULL, OPT_WALLS},
        {"box", required_argument, NULL, OPT_BOX}, {"kinetic", no_argument, NULL, OPT_KINETIC},
        CLI_FRAME_OPTIONS, {"help", no_argument, NULL, 'h'},
        {"rattler-contacts", required_argument, NULL, OPT_RATTLER},
        {"triaxial", required_argument, NULL, OPT_TRIAXIAL}, {"shear", required_argument, NULL, OPT_SHEAR},
        {NULL, 0, NULL, 0}};
    memset(c, 0, sizeof *c);
    cli_frames_init(&c->sel);
    c->rattler_contacts = DEM_RATTLER_CONTACTS;
    c->element = (dem_element_test){-1, -1, -1};
    int modes = 0, opt, rattler = 0;
    const char *mode_opt = NULL, *box = NULL;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': cli_help(help_text);
        case OPT_PER_PARTICLE:
        case OPT_WALLS: {
            enum mode m = opt == OPT_WALLS ? MODE_WALLS : MODE_PARTICLES;
            const char *name = opt == OPT_WALLS ? "--walls" : "--per-particle";
            if (modes++ && c->mode != m) cli_usage("%s and %s exclude each other: choose one mode", mode_opt, name);
            c->mode = m;
            mode_opt = name;
            break;
        }
        case OPT_BOX: box = optarg; break;
        case OPT_KINETIC: c->kinetic = 1; break;
        case OPT_TRIAXIAL: parse_triaxial(c, optarg); break;
        case OPT_SHEAR: parse_shear(c, optarg); break;
        case OPT_RATTLER: rattler = 1; c->rattler_contacts = (unsigned)cli_int("--rattler-contacts", optarg, 1, 1000); break;
        default:
            if (!cli_frames_arg(&c->sel, opt, optarg)) cli_bad_option_of(opt, argv, opts);
        }
    }
    cli_frames_check(&c->sel);
    c->input = cli_one_input(argc, argv);
    if (c->kinetic && c->mode != MODE_ASSEMBLY) cli_usage("--kinetic applies to the assembly stress only, not to %s", mode_opt);
    if (box && c->mode == MODE_WALLS) cli_usage("--box does not apply to --walls");
    if ((c->element.axis >= 0 || c->element.shear_i >= 0) && c->mode != MODE_ASSEMBLY)
        cli_usage("%s applies to the assembly stress only, not to %s", c->element.axis >= 0 ? "--triaxial" : "--shear", mode_opt);
    if (rattler && c->mode != MODE_ASSEMBLY) cli_usage("--rattler-contacts applies to the assembly stress only, not to %s", mode_opt);
    if (box) {
        double v[6];
        cli_doubles("--box", box, v, 6);
        if (!(v[0] < v[3] && v[1] < v[4] && v[2] < v[5]))
            cli_usage("--box: '%s' must have X0 < X1, Y0 < Y1 and Z0 < Z1", box);
        c->box.lo = dem_v3(v[0], v[1], v[2]);
        c->box.hi = dem_v3(v[3], v[4], v[5]);
        c->has_box = 1;
    }
}

/* ---- output --------------------------------------------------------------------------------- */
struct out {
    const struct cmdline *cl;
    int header_done;
    dem_id_index ix;
    dem_mat3 *sig;
    size_t cap_sig;
    dem_wall_load *loads;
    size_t cap_loads;
    char note[256]; /* the container's volume at the last frame: one note per run */
    int note_axis;
    dem_element_ref ref; /* the walls of the input's first frame (--triaxial, --shear) */
};

static void print_header(struct out *o)
{
    dem_tsv_frame_header(stdout);
    switch (o->cl->mode) {
    case MODE_ASSEMBLY:
        fputs("\tvolume[m^3]\tsxx[Pa]\tsyy[Pa]\tszz[Pa]\tsxy[Pa]\tsxz[Pa]\tsyz[Pa]\tp[Pa]\tq[Pa]"
              "\ts1[Pa]\ts2[Pa]\ts3[Pa]\ts1_s3\tcoordination"
              "\texx[-]\teyy[-]\tezz[-]\texy[-]\texz[-]\teyz[-]\tev[-]\tvoid_ratio[-]\tcoordination_mech\trattler_fraction", stdout);
        if (o->cl->element.axis >= 0) fputs("\tsa[Pa]\tsr[Pa]\tq_axial[Pa]\teps_a[-]\teps_q[-]", stdout);
        if (o->cl->element.shear_i >= 0) fputs("\ttau[Pa]\tsigma_n[Pa]\ttau_sigma[-]\tgamma[-]", stdout);
        if (o->cl->element.axis >= 0 || o->cl->element.shear_i >= 0) fputs("\teps_v[-]\tsin_phi[-]\tphi_mob[deg]", stdout);
        putchar('\n');
        break;
    case MODE_PARTICLES:
        fputs("\tid\tvolume[m^3]\tsxx[Pa]\tsyy[Pa]\tszz[Pa]\tsxy[Pa]\tsxz[Pa]\tsyz[Pa]\tp[Pa]\tq[Pa]\n", stdout);
        break;
    case MODE_WALLS: fputs("\twall\tkind\tfx[N]\tfy[N]\tfz[N]\tpressure[Pa]\n", stdout); break;
    }
    o->header_done = 1;
}

static void cell(double v)
{
    putchar('\t');
    dem_tsv_double(stdout, v);
}

static void tensor_cells(dem_mat3 s)
{
    cell(s.m[0][0]);
    cell(s.m[1][1]);
    cell(s.m[2][2]);
    cell(s.m[0][1]);
    cell(s.m[0][2]);
    cell(s.m[1][2]);
}

/* The stress of finite input is finite unless a sum overflows (a particle at 1e306 m): refused. */
static void need_tensor(uint64_t frame, const char *what, dem_mat3 m)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) cli_need_finite(frame, what, m.m[r][c]);
}

/* The cell's strain (nan without a cell: no reference to measure it from) and the void ratio. */
static void strain_cells(uint64_t frame, const dem_system *s, const dem_stress *st)
{
    dem_strain e;
    dem_cell_strain(&s->cell, &e);
    if (s->cell.flags) { /* finite for any F the reader accepts, unless F F^T overflows */
        need_tensor(frame, "the strain", e.e);
        cli_need_finite(frame, "the volumetric strain", e.ev);
    }
    tensor_cells(e.e);
    cell(e.ev);
    cell(st->void_ratio);
}

/* --triaxial, --shear: the element test's columns (lib/analysis/stress.h). */
static void element_cells(const struct out *o, const dem_system *s, dem_mat3 sigma)
{
    const dem_element_test *t = &o->cl->element;
    if (t->axis < 0 && t->shear_i < 0) return;
    dem_element el;
    dem_element_measure(s, sigma, t, &o->ref, &el);
    if (t->axis >= 0) {
        cell(el.sa);
        cell(el.sr);
        cell(el.q_axial);
        cell(el.eps_a);
        cell(el.eps_q);
    }
    if (t->shear_i >= 0) {
        cell(el.tau);
        cell(el.sigma_n);
        cell(el.tau_sigma);
        cell(el.gamma);
    }
    cell(el.eps_v);
    cell(el.sin_phi);
    cell(el.phi_mob);
}

static void emit_assembly(struct out *o, uint64_t frame, const dem_system *s)
{
    dem_stress st;
    dem_error err;
    if (dem_stress_assembly(s, &o->ix, o->cl->has_box ? &o->cl->box : NULL, o->cl->kinetic, &st, &err))
        cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
    dem_stress_invariants inv;
    dem_stress_invariants_of(st.sigma, &inv);
    need_tensor(frame, "the stress", st.sigma);
    cli_need_finite(frame, "the volume", st.volume);
    dem_tsv_frame_cells(stdout, frame, s);
    cell(st.volume);
    tensor_cells(st.sigma);
    cell(inv.p);
    cell(inv.q);
    cell(inv.s1);
    cell(inv.s2);
    cell(inv.s3);
    cell(inv.s1 / inv.s3);
    cell(st.coordination);
    strain_cells(frame, s, &st);
    dem_coordination_stats z;
    if (dem_coordination_measure(s, &o->ix, st.source == DEM_VOLUME_BOX ? &o->cl->box : NULL, o->cl->rattler_contacts, &z, &err))
        cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
    cell(z.coordination_mech);
    cell(z.rattler_fraction);
    element_cells(o, s, st.sigma);
    putchar('\n');
    o->note_axis = dem_container_note(s, st.source, st.volume, o->note, sizeof o->note);
}

static void emit_particles(struct out *o, uint64_t frame, const dem_system *s)
{
    dem_error err;
    if (s->nparticles > o->cap_sig) {
        dem_mat3 *p = realloc(o->sig, s->nparticles * sizeof *p);
        if (!p) cli_die("out of memory for %zu particle stresses", s->nparticles);
        o->sig = p;
        o->cap_sig = s->nparticles;
    }
    if (dem_stress_particles(s, &o->ix, o->sig, &err)) cli_die("frame %llu: %s", (unsigned long long)frame, err.msg);
    for (size_t k = 0; k < s->nparticles; k++) {
        const dem_particle *p = &s->particles[k];
        if (o->cl->has_box && !dem_aabb_contains(o->cl->box, p->pos)) continue;
        need_tensor(frame, "a particle stress", o->sig[k]);
        dem_tsv_frame_cells(stdout, frame, s);
        printf("\t%llu", (unsigned long long)p->id);
        cell(dem_sphere_volume(p->radius));
        tensor_cells(o->sig[k]);
        cell(dem_stress_p(o->sig[k]));
        cell(dem_stress_q(o->sig[k]));
        putchar('\n');
    }
}

static void emit_walls(struct out *o, uint64_t frame, const dem_system *s)
{
    if (s->nwalls > o->cap_loads) {
        dem_wall_load *p = realloc(o->loads, s->nwalls * sizeof *p);
        if (!p) cli_die("out of memory");
        o->loads = p;
        o->cap_loads = s->nwalls;
    }
    dem_wall_loads(s, o->loads);
    for (size_t k = 0; k < s->nwalls; k++) {
        cli_need_finite(frame, "a wall force", o->loads[k].force.x);
        cli_need_finite(frame, "a wall force", o->loads[k].force.y);
        cli_need_finite(frame, "a wall force", o->loads[k].force.z);
        if (isinf(o->loads[k].pressure)) cli_need_finite(frame, "a wall pressure", o->loads[k].pressure); /* nan: not a box face */
        dem_tsv_frame_cells(stdout, frame, s);
        printf("\t%zu\t%s", k, s->walls[k].kind == DEM_WALL_CYLINDER ? "cylinder" : "plane");
        cell(o->loads[k].force.x);
        cell(o->loads[k].force.y);
        cell(o->loads[k].force.z);
        cell(o->loads[k].pressure);
        putchar('\n');
    }
}

static void emit(struct out *o, uint64_t frame, const dem_system *s)
{
    dem_error err;
    if (!o->header_done) print_header(o);
    if (o->cl->mode != MODE_WALLS && dem_id_index_build(&o->ix, s, &err)) cli_die_err(&err);
    switch (o->cl->mode) {
    case MODE_ASSEMBLY: emit_assembly(o, frame, s); break;
    case MODE_PARTICLES: emit_particles(o, frame, s); break;
    case MODE_WALLS: emit_walls(o, frame, s); break;
    }
    cli_check_output(stdout, "standard output");
}

static void emit_frame(void *ctx, uint64_t frame, const dem_system *s) { emit(ctx, frame, s); }

/* Every frame read: the first is the walls' reference of the element-test strains. */
static void seen_frame(void *ctx, uint64_t frame, const dem_system *s)
{
    struct out *o = ctx;
    if (frame == 0) dem_element_reference(s, &o->ref);
}

static void finish(void *ctx)
{
    struct out *o = ctx;
    if (!o->header_done) print_header(o);
    cli_check_output(stdout, "standard output");
}

int main(int argc, char **argv)
{
    cli_init("dem-stress");
    struct cmdline cl;
    parse_args(argc, argv, &cl);
    struct out o;
    memset(&o, 0, sizeof o);
    o.cl = &cl;
    dem_id_index_init(&o.ix);
    cli_frame_handlers h = {&o, seen_frame, emit_frame, finish};
    cli_run_frames(cl.input, &cl.sel, &h);
    if (o.note[0]) { /* once per run, of the last frame, after a run that succeeded */
        if (o.note_axis >= 0)
            fprintf(stderr, "dem-stress: the stress is averaged over %s (last frame): measure the bed with --box\n", o.note);
        else
            fprintf(stderr, "dem-stress: the stress is averaged over %s\n", o.note);
    }
    dem_id_index_free(&o.ix);
    free(o.sig);
    free(o.loads);
    return 0;
}
