/* dem-pack - create a particle system (lattice, random packing or table) and write it to
 * standard output as one frame of the dem stream. The work is done by lib/pack.h; this file
 * turns the command line into library calls and library errors into messages. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dem.h"
#include "pack/pack.h"

static const char help_text[] =
"Usage: dem-pack (--lattice KIND | --random N | --from FILE) [OPTIONS] > system.dem\n"
"       dem-pack --from RUN.dem [EDITS] > edited.dem\n"
"\n"
"Create a particle system, or edit a frame of a run, and write it to standard output as one\n"
"frame of the dem stream\n"
"(one gzip member, formats/dem-stream.md): redirect it to a file or pipe it into the next\n"
"dem program. dem-pack refuses to write to a terminal. Units are SI throughout: lengths in\n"
"m, velocities in m/s, angular velocities in rad/s, densities in kg/m^3, moduli in Pa.\n"
"\n"
"Every sphere gets an id (1..N unless --from gives them), mass m = 4/3 pi r^3 rho and moment\n"
"of inertia 2/5 m r^2 from its material's density rho, the identity orientation, group 1\n"
"and material 0. Exactly one source is required:\n"
"\n"
"Lattice (spheres touching their nearest neighbours unless --spacing opens the lattice):\n"
"  --lattice KIND       sc, bcc, fcc or hcp, the conventional cell's edges along x, y, z\n"
"  --cells NX,NY,NZ     conventional cells along x, y, z (required)\n"
"  --radius R           sphere radius, m (required)\n"
"  --spacing D          nearest-neighbour centre distance, m (default 2R; below 2R: error)\n"
"  --origin X,Y,Z       where the spheres start, m (default 0,0,0): the first centre sits at\n"
"                       origin + (R,R,R), so the spheres touch the planes through the origin\n"
"                       Sites per cell and cell edges: sc 1, a = D; bcc 2, a = 2D/sqrt(3);\n"
"                       fcc 4, a = sqrt(2) D; hcp 4, a x sqrt(3) a x sqrt(8/3) a with a = D\n"
"                       (close-packed layers ABAB along z). NX*NY*NZ*sites spheres: fcc\n"
"                       3,3,3 gives 108. Ids run over the sites of a cell, then x, y, z.\n"
"\n"
"Random packing (random sequential addition: radii drawn first, then placed largest first,\n"
"each at uniformly random positions until it overlaps no sphere placed before):\n"
"  --random N           number of spheres\n"
"  --box X0,Y0,Z0,X1,Y1,Z1\n"
"                       region: a box, m\n"
"  --cylinder AXIS,C1,C2,RADIUS,LO,HI\n"
"                       region: a cylinder along AXIS (x, y or z) whose axis passes through\n"
"                       C1,C2 (the other two coordinates in x,y,z order), from LO to HI, m;\n"
"                       z,0,0,0.05,0,0.2: radius 5 cm around the z axis, z from 0 to 20 cm\n"
"                       The spheres lie wholly inside the region, except across periodic\n"
"                       faces (see --periodic). Ids follow the placement order.\n"
"  size distribution, exactly one of:\n"
"  --radius R           every radius R, m\n"
"  --radius-uniform RMIN,RMAX\n"
"                       radius uniformly distributed in [RMIN, RMAX], m\n"
"  --bidisperse R1,R2,PHI1\n"
"                       radii R1 and R2, m; PHI1 = fraction of the solid volume in R1\n"
"                       spheres (0..1). The count of R1 spheres is round(N x1) with the\n"
"                       number fraction x1 = (PHI1/R1^3) / (PHI1/R1^3 + (1-PHI1)/R2^3).\n"
"  --lognormal MEDIAN,SIGMA\n"
"                       ln r normally distributed with mean ln MEDIAN and standard deviation\n"
"                       SIGMA, truncated at +-3 SIGMA (draws beyond are redrawn): MEDIAN in\n"
"                       m, every r within MEDIAN exp(-3 SIGMA) .. MEDIAN exp(3 SIGMA)\n"
"  --seed S             seed of the pseudo-random generator (default 1; with a lattice only\n"
"                       with --velocity-random, else refused): the same seed gives\n"
"                       a bit-identical output on every machine\n"
"  --max-attempts K     random positions tried per sphere before giving up (default 10000)\n"
"                       Random sequential addition jams: equal spheres fill no more than\n"
"                       about 38% of the volume (less in narrow containers). When a sphere\n"
"                       finds no room, dem-pack stops with status 1 and says how many spheres\n"
"                       it placed and the solid fraction reached. For denser packings start\n"
"                       from a lattice, or let a loose packing settle in a simulation.\n"
"\n"
"Table or stream:\n"
"  --from FILE|-        a dem stream (FILE starts with the gzip magic bytes 1f 8b; see\n"
"                       \"Editing a stream\" below) or tab-separated particles ('-': standard\n"
"                       input). A table's line 1 names the columns, in any order: x y z r\n"
"                       (required, m), id, vx vy vz (m/s), wx wy wz (rad/s), material (index\n"
"                       or name), fixed (0 or 1). A name may carry its unit as dem-probe\n"
"                       prints it: x[m], vx[m/s], wx[rad/s].\n"
"                       Blank lines and lines starting with # are skipped; numbers read back\n"
"                       bit for bit. Missing columns are 0 (material 0, not fixed), ids\n"
"                       1, 2, ... in line order. The other columns of one frame of\n"
"                       dem-probe --particles (frame step time fx fy fz) are ignored, so\n"
"                       dem-probe --particles --last run.dem | dem-pack --from - works.\n"
"\n"
"Materials (material 0 is \"default\", glass-like, set by the options below). Units are SI: a value\n"
"outside the range of every real granular material is warned about, naming the likely slip\n"
"(--young 70 is 70 Pa: did you mean 70e9 Pa (GPa)?; E 1e4..1.2e12 Pa, density 10..2.3e4 kg/m^3,\n"
"radius 5e-8..10 m, surface energy <= 10 J/m^2, friction <= 2, rolling, twisting <= 1):\n"
"  --density RHO        kg/m^3 (default 2500)\n"
"  --young E            Young's modulus, Pa (default 7e10)\n"
"  --poisson NU         Poisson's ratio, in (-1, 0.5) (default 0.25)\n"
"  --friction MU        sliding friction coefficient (default 0.5)\n"
"  --restitution E      normal coefficient of restitution, in (0, 1] (default 0.9)\n"
"  --rolling-friction MUR     rolling resistance coefficient (default 0)\n"
"  --twisting-friction MUO    twisting resistance coefficient (default 0)\n"
"  --surface-energy GAMMA     adhesive surface energy, J/m^2 (default 0): the work of\n"
"                             adhesion of dem-step --normal dmt|jkr (pull-off 2 pi GAMMA R*\n"
"                             and 3/2 pi GAMMA R*; two materials: sqrt(GAMMA_1 GAMMA_2))\n"
"  --material SPEC      add material 1, 2, ... (repeatable). SPEC is key=value,... with the\n"
"                       keys name density young poisson friction restitution rolling_friction\n"
"                       twisting_friction surface_energy; keys not given copy material 0,\n"
"                       the name defaults to materialK. E.g.\n"
"                       --material name=steel,density=7800,young=2e11,poisson=0.3\n"
"  --assign MAT:SEL     give material MAT (index or name) to the particles in selection SEL\n"
"                       (repeatable, applied in order after the particles are made; masses\n"
"                       follow the new density). SEL is one of\n"
"                         all | ids=1-10,15 | box=X0,Y0,Z0,X1,Y1,Z1 (centre inside, m) |\n"
"                         radius=RMIN,RMAX (m) | above=AXIS,H (centre AXIS > H, m) |\n"
"                         below=AXIS,H (centre AXIS < H, m)\n"
"\n"
"Walls:\n"
"  --wall AXIS=POS[@VX,VY,VZ]\n"
"                       a plane AXIS = POS, m (repeatable), with a prescribed velocity,\n"
"                       m/s (default at rest): --wall z=0, --wall z=0.1@0,0,-0.01. Its normal\n"
"                       faces the particles, whose centres must all lie on one side; a sphere\n"
"                       may reach through it by less than its radius (a contact, resolved by\n"
"                       dem-step: a sphere resting at its equilibrium overlap, or a state\n"
"                       settled by another code); -v reports the largest overlap.\n"
"  --enclose            plane walls on the faces of the region (box: 6 planes; cylinder: the\n"
"                       cylinder mantle, particles inside, and 2 end planes; lattice and\n"
"                       --from: the bounding box of the spheres), none across periodic faces.\n"
"                       They are numbered after the --wall walls: x low, x high, y low, ...\n"
"  --wall-material MAT  material of every wall (index or name, default 0)\n"
"\n"
"Periodic cell:\n"
"  --periodic X0,Y0,Z0,X1,Y1,Z1 | lattice\n"
"                       a rectangular periodic cell from (X0,Y0,Z0) to (X1,Y1,Z1), m;\n"
"                       lattice: the lattice's natural period NX*a, NY*b, NZ*c from its\n"
"                       origin (sites past its far faces, as in hcp, wrap around). Every\n"
"                       particle centre must lie inside the cell.\n"
"  --periodic-axes AXES the periodic directions (default xyz; any subset such as xy). With\n"
"                       --random the region must span the cell along them (a cylinder can\n"
"                       only be periodic along its axis); spheres then cross those faces and\n"
"                       overlaps count through the nearest periodic image.\n"
"\n"
"Initial velocities (fixed particles, by --fixed or the table's fixed column, are left as\n"
"they are: at rest unless the table gives them a velocity):\n"
"  --velocity VX,VY,VZ  velocity of every particle, m/s (replaces --from's vx vy vz)\n"
"  --velocity-random SIGMA\n"
"                       add to each velocity component a normal deviate of standard deviation\n"
"                       SIGMA, m/s (from the --seed generator), then remove the mass-weighted\n"
"                       mean of what was added: the fluctuations carry no momentum\n"
"  --omega WX,WY,WZ     angular velocity of every particle, rad/s\n"
"  --fixed SEL          mark the particles in selection SEL fixed, not integrated\n"
"                       (repeatable; SEL as for --assign)\n"
"  --group G:SEL        put the particles in selection SEL in interaction group G (1..32;\n"
"                       all particles start in group 1); dem-step --ignore A:B then lets\n"
"                       groups A and B pass through each other (repeatable, applied in order)\n"
"\n"
"Editing a stream (--from a dem stream, a file or '-' in a pipe):\n"
"  The last frame (or --frame K) is taken WHOLE: particles with every field, materials,\n"
"  contacts and their histories (tangential springs), walls with their velocities, forces and\n"
"  work, the periodic cell, the settings (gravity, laws, damping, dt, ... as dem-step stored\n"
"  them), the energy books, step and time. Without an edit the frame is written bit for bit\n"
"  as it was read (dem-step -n N | dem-pack --from - | dem-step -n N = dem-step -n 2N).\n"
"  --frame K            take frame K (0-based) instead of the last\n"
"  --remove-wall K      remove wall K (repeatable; K as dem-probe --walls numbers them in the\n"
"                       frame read); the other walls keep their order, renumbered from 0, and\n"
"                       their wall contacts follow them; the removed walls' contacts go\n"
"  --delete SEL         remove the particles in selection SEL (repeatable, applied in order)\n"
"                       and every contact that names one of them. SEL as for --assign:\n"
"                       --delete above=z,0.01 cuts a bed at 1 cm\n"
"  --set-material MAT:KEY=VALUE,...\n"
"                       change material MAT (index or name) in place (repeatable), keys as\n"
"                       for --material; with density, the masses and moments of inertia of\n"
"                       its particles follow. dem-step keeps the frame's dt: after a stiffer\n"
"                       material (young), give it --dt auto\n"
"  --material SPEC      add a material, numbered after the frame's (keys not given copy 0)\n"
"  --wall AXIS=POS[@VX,VY,VZ], --wall-material MAT\n"
"                       add plane walls, numbered after the frame's remaining walls\n"
"  --insert N           add N spheres at random in --box or --cylinder (required) with a size\n"
"                       option (--radius, --radius-uniform, --bidisperse, --lognormal), --seed\n"
"                       and --max-attempts as for --random: random sequential addition where\n"
"                       each new sphere overlaps no particle of the frame (through the periodic\n"
"                       images in a cell), no other new sphere and no wall (it lies wholly on\n"
"                       the particles' side of every wall). Ids continue after the largest id\n"
"                       of the frame. When a sphere finds no room: status 1, as for --random.\n"
"                       The generator's seed is --seed mixed with the frame's step, particle\n"
"                       count and largest id: never the stream that made the frame's spheres\n"
"  --insert-material MAT\n"
"                       material of the inserted spheres (index or name, default 0)\n"
"  --velocity, --velocity-random, --omega apply to the inserted spheres only (need --insert);\n"
"  --assign, --fixed, --group apply to every particle, after the insertion.\n"
"  Order of work: --remove-wall; --delete; --set-material; --material; --wall; --insert; --assign;\n"
"  --fixed; --group; the velocities of the inserted spheres.\n"
"  Refused with a stream, which keeps its own: --lattice, --random and their options except\n"
"  those of --insert, --density --young --poisson --friction --restitution\n"
"  --rolling-friction --twisting-friction --surface-energy (use --set-material 0:...),\n"
"  --enclose, --periodic, --periodic-axes.\n"
"  Energy books: an edit that changes the dynamics (any above but an unused --material)\n"
"  restarts the energy budget: the frame's e_initial becomes unknown (NaN) and its forces are\n"
"  marked not current, so the next dem-step recomputes the forces and takes the edited frame's\n"
"  energy as its reference (dem-energy's residual counts from there). The dissipation and work\n"
"  accumulators keep their totals; the energy the edit removed or added (the kinetic,\n"
"  potential and elastic energy of deleted particles and contacts, ...) is not booked.\n"
"\n"
"Bonds (De Klerk et al. 2022, §3.3; the frame's BOND section, format 1.5, which older programs refuse):\n"
"  A bond between two particles holds the potential kb delta^2/2, delta = r_i + r_j minus the\n"
"  distance of the centres, in compression and in tension alike (a harmonic spring whose rest\n"
"  length is r_i + r_j): it pulls touching spheres back together. A bonded pair interacts only\n"
"  through its bond, not through the contact law. dem-step applies it with every integrator;\n"
"  dem-energy books its energy (eel_b); dem-probe --bonds lists the bonds.\n"
"  --bond-gap G         bond every pair whose surfaces are closer than G, m: |x_i - x_j| <\n"
"                       r_i + r_j + G (overlapping pairs too; through the nearest periodic\n"
"                       image in a cell). De Klerk et al. 2022 bonds pairs closer than d/100: G = d/100\n"
"  --bond-stiffness KB  bond stiffness, N/m (required with --bond-gap, and with --bonds when\n"
"                       its table has no kb column)\n"
"  --bonds FILE|-       bonds listed in a table: line 1 names the columns i j (particle ids,\n"
"                       required), kb (N/m), sx sy sz (image of j; default the nearest); one\n"
"                       bond per line. dem-probe --bonds output reads back.\n"
"  Bonds are made last, from the particles as they end up (with a stream: after every edit;\n"
"  contact records between newly bonded pairs are removed and the energy budget restarts).\n"
"  A pair bonded already is not bonded again by --bond-gap; --bonds refuses a duplicate.\n"
"\n"
"Rigid clumps (Šmilauer and Chareyre 2015, §1.5.3-1.5.4; format 1.6, which older programs refuse):\n"
"  A clump is a rigid body made of member spheres that may overlap. dem-step moves it as one\n"
"  body (translation, and rotation in its principal frame); its members touch other spheres,\n"
"  clumps and walls but never each other.\n"
"  --clump TEMPLATE     make clumps instead of spheres: with --lattice (one clump per site),\n"
"                       --random N and --insert N (N clumps), or --from TABLE (one clump per\n"
"                       line). TEMPLATE is a built-in shape of member radius --radius R:\n"
"                         dimer[:D]        2 spheres, centres D radii apart (default D = 1)\n"
"                         trimer[:D]       3 on an equilateral triangle of side D radii\n"
"                         tetrahedron[:D]  4 on a regular tetrahedron of edge D radii\n"
"                         rod:N[:D]        N in a line, D radii apart\n"
"                       (D < 2: the members overlap; D >= 2: they are apart), or a file: a\n"
"                       table whose line 1 names the columns x y z r (units in brackets\n"
"                       allowed: x[m]) and one member sphere per line, m, in any frame.\n"
"                       Mass and principal moments of inertia come from the union of the\n"
"                       members at the material's density: exact (parallel axes) when no two\n"
"                       members overlap, else integrated on a grid (-v prints the estimated\n"
"                       relative error); the members are stored in the principal frame.\n"
"  --clump-grid G       grid cells across the clump for overlapping members (8..4096, default\n"
"                       512; computed once per template: 0.04 s). A dimer (D = 1): volume off\n"
"                       by 2.2e-3, 2.8e-4, 1.8e-4, 2.3e-6, 1.2e-6 at G = 32, 64, 128, 256, 512;\n"
"                       -v prints the moments' estimated relative error (1.2e-2, 3.1e-3,\n"
"                       7.4e-4, 2.7e-4, 2.7e-5; README \"Clump inertia\")\n"
"  --clump-orientation random|aligned\n"
"                       random (default): uniform over all rotations, from --seed; aligned:\n"
"                       the template's own axes along x, y, z\n"
"  Placement: a lattice or a random packing places the clumps' bounding spheres (radius max\n"
"  |b| + r about the centre of mass), so that no two clumps overlap and none crosses a wall or\n"
"  leaves the region; the lattice's default --spacing is the bounding diameter. Such packings\n"
"  are loose: pour and settle them with dem-step. With --from TABLE the table's columns are x y z\n"
"  (the centre of mass, m; required), q0 q1 q2 q3 (the unit quaternion turning the template's\n"
"  frame to the world; default identity), vx vy vz (m/s), wx wy wz (rad/s). --velocity,\n"
"  --velocity-random and --omega give the clumps' velocities. Refused with --clump: --assign,\n"
"  --fixed, --bond-gap, --bonds, and the size distributions other than --radius.\n"
"\n"
"Output:\n"
"  --level L            deflate level, 0 (fastest) .. 9 (smallest) (default 1)\n"
"  -o, --output FILE    write to FILE instead of standard output (via FILE.tmp-XXXXXX, renamed\n"
"                       when complete: a failure leaves no FILE)\n"
"  -v, --verbose        one summary line on standard error: particles, materials, walls and\n"
"                       the solid fraction of the region (random), of the lattice's period\n"
"                       box (lattice), or of the cell or the spheres' bounding box (--from)\n"
"  -h, --help           print this help and exit\n"
"\n"
"Order of work: materials; the periodic cell; the particles; the --assign options in the\n"
"order given; the --fixed options; --velocity, then --velocity-random, then --omega; the\n"
"--wall walls in the order given; the --enclose walls. With --clump the particles are the\n"
"clumps' placeholders until after the velocities, then the clumps (--group acts on members).\n"
"\n"
"Examples:\n"
"  dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 --periodic lattice > fcc.dem\n"
"  dem-pack --random 2000 --box 0,0,0,0.04,0.04,0.1 --lognormal 0.001,0.2 --enclose \\\n"
"           --velocity-random 0.05 --seed 7 -v > box.dem\n"
"  dem-pack --random 800 --cylinder z,0,0,0.02,0,0.1 --bidisperse 0.002,0.001,0.5 \\\n"
"           --material name=steel,density=7800,young=2e11,poisson=0.3 \\\n"
"           --assign steel:radius=0.002,0.002 --enclose --wall-material steel > silo.dem\n"
"  dem-pack --from spheres.tsv --wall z=0 --wall z=0.1@0,0,-0.01 --fixed box=0,0,0,1,1,0.002 \\\n"
"           | dem-probe --particles\n"
"  dem-step -n 20000 bed.dem | dem-pack --from - --insert 500 --box 0,0,0.02,0.01,0.01,0.03 \\\n"
"           --radius 4e-4 --velocity 0,0,-0.1 | dem-step -n 20000 > poured.dem\n"
"  dem-pack --from settled.dem --delete above=z,0.01 --remove-wall 5 --wall z=0.0105@0,0,-0.01 \\\n"
"           > platen.dem\n"
"  dem-pack --lattice sc --cells 4,1,1 --radius 0.001 --bond-gap 2e-5 --bond-stiffness 1e4 > chain.dem\n"
"      a chain of 4 touching spheres held by 3 bonds of 1e4 N/m\n"
"\n"
"Ranges: a radius in [1e-9, 1e6] m, every centre within 2^40 radii of the origin, no two\n"
"particles with the same centre; dem-pack refuses the rest, naming the particle.\n"
"\n"
"Exit status: 0 success; 1 data error (bad table or stream, impossible packing or insertion,\n"
"a wall that cannot face the particles, a value out of range, a failed write); 2 bad usage\n"
"(also an option that does not apply to the source, found once --from's first bytes are read).\n";

enum source { SRC_NONE, SRC_LATTICE, SRC_RANDOM, SRC_FROM };

/* The input of --from, its first bytes read ahead to tell a dem stream (a gzip member) from a
 * table; the readers get them back before the rest. */
struct input {
    int fd;
    const char *name; /* for messages: the path, or "standard input" */
    unsigned char head[2];
    size_t nhead, used;
    int stream;       /* the input starts with the gzip magic 1f 8b: a dem stream */
};

/* The command line, parsed and checked, as the library wants it. */
struct cmdline {
    enum source source;
    /* lattice */
    dem_lattice lattice;
    int periodic_lattice;
    /* random */
    dem_random_spec random;
    /* table or stream */
    const char *from;
    struct input in;
    /* edits of a stream's frame */
    long long frame;        /* --frame K (-1: the last) */
    const char **deletes, **set_materials, **remove_walls;
    int ndeletes, nset_materials, nremove_walls;
    int insert;             /* --insert N given: c->random holds its spec */
    const char *insert_material;
    /* materials: material 0, then --material specs, then --assign MAT:SEL in order */
    dem_material mat0;
    const char **materials, **assign, **walls, **fixed, **groups;
    int nmaterials, nassign, nwalls, nfixed, ngroups;
    const char *wall_material;
    int enclose;
    /* periodic cell */
    int periodic;
    dem_vec3 cell_lo, cell_hi;
    uint32_t periodic_axes;
    /* velocities */
    int has_velocity, has_omega;
    dem_vec3 velocity, omega;
    int has_velocity_random;
    double velocity_sigma;
    uint64_t seed;
    int level, verbose;
    const char *output;     /* -o FILE (NULL: standard output) */
    /* bonds (De Klerk et al. 2022, §3.3) */
    int has_bond_gap;
    double bond_gap, bond_stiffness; /* m, N/m (0: not given) */
    const char *bonds_file;
    /* rigid clumps (Šmilauer and Chareyre 2015, §1.5.3-1.5.4) */
    const char *clump;      /* --clump TEMPLATE: a built-in shape or a table file (NULL: spheres) */
    unsigned clump_grid;
    int clump_aligned;      /* --clump-orientation aligned */
    int clump_spacing_given;
    dem_clump_template tpl;
};

enum {
    OPT_LATTICE = 256, OPT_CELLS, OPT_RADIUS, OPT_SPACING, OPT_ORIGIN, OPT_RANDOM, OPT_BOX,
    OPT_CYLINDER, OPT_RADIUS_UNIFORM, OPT_BIDISPERSE, OPT_LOGNORMAL, OPT_SEED, OPT_MAX_ATTEMPTS,
    OPT_FROM, OPT_DENSITY, OPT_YOUNG, OPT_POISSON, OPT_FRICTION, OPT_RESTITUTION, OPT_ROLLING,
    OPT_TWISTING, OPT_SURFACE, OPT_MATERIAL, OPT_ASSIGN, OPT_WALL, OPT_ENCLOSE, OPT_WALL_MATERIAL,
    OPT_PERIODIC, OPT_PERIODIC_AXES, OPT_VELOCITY, OPT_VELOCITY_RANDOM, OPT_OMEGA, OPT_FIXED, OPT_GROUP,
    OPT_LEVEL, OPT_INSERT, OPT_INSERT_MATERIAL, OPT_DELETE, OPT_REMOVE_WALL, OPT_SET_MATERIAL, OPT_FRAME,
    OPT_BOND_GAP, OPT_BOND_STIFFNESS, OPT_BONDS, OPT_CLUMP, OPT_CLUMP_GRID, OPT_CLUMP_ORIENTATION
};

static const struct option long_options[] = {
    {"lattice", required_argument, NULL, OPT_LATTICE},
    {"cells", required_argument, NULL, OPT_CELLS},
    {"radius", required_argument, NULL, OPT_RADIUS},
    {"spacing", required_argument, NULL, OPT_SPACING},
    {"origin", required_argument, NULL, OPT_ORIGIN},
    {"random", required_argument, NULL, OPT_RANDOM},
    {"box", required_argument, NULL, OPT_BOX},
    {"cylinder", required_argument, NULL, OPT_CYLINDER},
    {"radius-uniform", required_argument, NULL, OPT_RADIUS_UNIFORM},
    {"bidisperse", required_argument, NULL, OPT_BIDISPERSE},
    {"lognormal", required_argument, NULL, OPT_LOGNORMAL},
    {"seed", required_argument, NULL, OPT_SEED},
    {"max-attempts", required_argument, NULL, OPT_MAX_ATTEMPTS},
    {"from", required_argument, NULL, OPT_FROM},
    {"density", required_argument, NULL, OPT_DENSITY},
    {"young", required_argument, NULL, OPT_YOUNG},
    {"poisson", required_argument, NULL, OPT_POISSON},
    {"friction", required_argument, NULL, OPT_FRICTION},
    {"restitution", required_argument, NULL, OPT_RESTITUTION},
    {"rolling-friction", required_argument, NULL, OPT_ROLLING},
    {"twisting-friction", required_argument, NULL, OPT_TWISTING},
    {"surface-energy", required_argument, NULL, OPT_SURFACE},
    {"material", required_argument, NULL, OPT_MATERIAL},
    {"assign", required_argument, NULL, OPT_ASSIGN},
    {"wall", required_argument, NULL, OPT_WALL},
    {"enclose", no_argument, NULL, OPT_ENCLOSE},
    {"wall-material", required_argument, NULL, OPT_WALL_MATERIAL},
    {"periodic", required_argument, NULL, OPT_PERIODIC},
    {"periodic-axes", required_argument, NULL, OPT_PERIODIC_AXES},
    {"velocity", required_argument, NULL, OPT_VELOCITY},
    {"velocity-random", required_argument, NULL, OPT_VELOCITY_RANDOM},
    {"omega", required_argument, NULL, OPT_OMEGA},
    {"fixed", required_argument, NULL, OPT_FIXED},
    {"group", required_argument, NULL, OPT_GROUP},
    {"insert", required_argument, NULL, OPT_INSERT},
    {"insert-material", required_argument, NULL, OPT_INSERT_MATERIAL},
    {"delete", required_argument, NULL, OPT_DELETE},
    {"remove-wall", required_argument, NULL, OPT_REMOVE_WALL},
    {"set-material", required_argument, NULL, OPT_SET_MATERIAL},
    {"frame", required_argument, NULL, OPT_FRAME},
    {"bond-gap", required_argument, NULL, OPT_BOND_GAP},
    {"bond-stiffness", required_argument, NULL, OPT_BOND_STIFFNESS},
    {"bonds", required_argument, NULL, OPT_BONDS},
    {"clump", required_argument, NULL, OPT_CLUMP},
    {"clump-grid", required_argument, NULL, OPT_CLUMP_GRID},
    {"clump-orientation", required_argument, NULL, OPT_CLUMP_ORIENTATION},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"verbose", no_argument, NULL, 'v'},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* ---- parsing ------------------------------------------------------------------------------ */
/* Options as given, before they are checked against each other. */
struct raw_args {
    int sources;             /* --lattice, --random, --from given */
    const char *source_opt;
    const char *lattice, *cells, *spacing, *origin, *box, *cylinder, *periodic, *axes;
    const char *size_opt;    /* the size-distribution option given, if any */
    int sizes;               /* size-distribution options given */
    int radius_given, max_attempts_given;
    const char *mat0_opt;    /* a material-0 option given (--density, --young, ...) */
    int seed_given;
    int clump_grid_given, clump_orientation_given;
};

static void set_source(struct cmdline *c, struct raw_args *raw, enum source s, const char *opt)
{
    if (raw->sources++ && c->source != s)
        cli_usage("%s and %s exclude each other: give one of --lattice, --random, --from", raw->source_opt, opt);
    c->source = s;
    raw->source_opt = opt;
}

static void set_size(struct cmdline *c, struct raw_args *raw, dem_size_kind kind, const char *opt, const char *text)
{
    if (raw->sizes++ && c->random.size.kind != kind)
        cli_usage("%s and %s exclude each other: give one size distribution", raw->size_opt, opt);
    raw->size_opt = opt;
    dem_size_dist *d = &c->random.size;
    d->kind = kind;
    double v[3];
    switch (kind) {
    case DEM_SIZE_MONO: d->radius = cli_double(opt, text); break;
    case DEM_SIZE_UNIFORM: cli_doubles(opt, text, v, 2); d->rmin = v[0]; d->rmax = v[1]; break;
    case DEM_SIZE_BIDISPERSE: cli_doubles(opt, text, v, 3); d->r1 = v[0]; d->r2 = v[1]; d->phi1 = v[2]; break;
    case DEM_SIZE_LOGNORMAL: cli_doubles(opt, text, v, 2); d->median = v[0]; d->sigma = v[1]; break;
    }
}

static dem_vec3 cli_vec3(const char *opt, const char *text)
{
    double v[3];
    cli_doubles(opt, text, v, 3);
    return dem_v3(v[0], v[1], v[2]);
}

static void parse_cells(struct cmdline *c, const char *text)
{
    const char *p = text;
    for (int a = 0; a < 3; a++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 1000000 || *end != (a < 2 ? ',' : '\0'))
            cli_usage("--cells: '%s' is not three comma-separated integers NX,NY,NZ in 1..1000000", text);
        c->lattice.cells[a] = v;
        p = end + 1;
    }
}

static void parse_periodic(struct cmdline *c, const char *text)
{
    c->periodic = 1;
    if (strcmp(text, "lattice") == 0) {
        c->periodic_lattice = 1;
        return;
    }
    double v[6];
    cli_doubles("--periodic", text, v, 6);
    for (int a = 0; a < 3; a++)
        if (!(v[a] < v[a + 3])) cli_usage("--periodic: '%s' must have X0 < X1, Y0 < Y1 and Z0 < Z1", text);
    c->cell_lo = dem_v3(v[0], v[1], v[2]);
    c->cell_hi = dem_v3(v[3], v[4], v[5]);
}

/* Add a repeatable option's value to its list (sized for every argument). */
static void push_list(const char ***list, int *n, int argc, const char *value)
{
    if (!*list && !(*list = calloc((size_t)argc, sizeof **list))) cli_die("out of memory");
    (*list)[(*n)++] = value;
}

static void reject_unless(int given, int ok, const char *opt, const char *needs)
{
    if (given && !ok) cli_usage("%s applies only to %s", opt, needs);
}

/* The options that belong to one source must come with it, and each source gets what it needs. */
static void check_combinations(struct cmdline *c, const struct raw_args *raw)
{
    if (!raw->sources) cli_usage("give one of --lattice KIND, --random N or --from FILE");
    int lat = c->source == SRC_LATTICE, rnd = c->source == SRC_RANDOM, from = c->source == SRC_FROM;
    int ins = c->insert; /* --insert: only with --from (checked below), the region and sizes as --random's */
    reject_unless(raw->cells != NULL, lat, "--cells", "--lattice");
    reject_unless(raw->spacing != NULL, lat, "--spacing", "--lattice");
    reject_unless(raw->origin != NULL, lat, "--origin", "--lattice");
    reject_unless(ins, from, "--insert", "--from with a dem stream");
    reject_unless(c->ndeletes, from, "--delete", "--from with a dem stream");
    reject_unless(c->nremove_walls, from, "--remove-wall", "--from with a dem stream");
    reject_unless(c->nset_materials, from, "--set-material", "--from with a dem stream");
    reject_unless(c->frame >= 0, from, "--frame", "--from with a dem stream");
    reject_unless(c->insert_material != NULL, ins, "--insert-material", "--insert");
    reject_unless(raw->box != NULL, rnd || ins, "--box", "--random and --insert");
    reject_unless(raw->cylinder != NULL, rnd || ins, "--cylinder", "--random and --insert");
    reject_unless(raw->max_attempts_given, rnd || ins, "--max-attempts", "--random and --insert");
    reject_unless(raw->sizes && !raw->radius_given, rnd || ins, raw->size_opt, "--random and --insert");
    reject_unless(raw->radius_given, lat || rnd || ins, "--radius", "--lattice, --random and --insert");
    reject_unless(c->periodic_lattice, lat, "--periodic lattice", "--lattice");
    reject_unless(raw->axes != NULL, c->periodic, "--periodic-axes", "--periodic");
    if (lat && !raw->cells) cli_usage("--lattice needs --cells NX,NY,NZ");
    if (lat && !raw->radius_given) cli_usage("--lattice needs --radius R");
    const char *rnd_opt = rnd ? "--random" : "--insert";
    if ((rnd || ins) && !raw->box && !raw->cylinder) cli_usage("%s needs a region: --box or --cylinder", rnd_opt);
    if ((rnd || ins) && raw->box && raw->cylinder) cli_usage("--box and --cylinder exclude each other: give one region");
    if (c->has_bond_gap && !c->bond_stiffness) cli_usage("--bond-gap needs --bond-stiffness KB (N/m)");
    if (c->bond_stiffness && !c->has_bond_gap && !c->bonds_file)
        cli_usage("--bond-stiffness applies to --bond-gap and --bonds, and neither is given");
    if (c->bonds_file && from && strcmp(c->bonds_file, "-") == 0 && strcmp(c->from, "-") == 0)
        cli_usage("--bonds - and --from - cannot both read standard input");
    if ((rnd || ins) && !raw->sizes)
        cli_usage("%s needs a size distribution: --radius, --radius-uniform, --bidisperse or --lognormal", rnd_opt);
}

/* Once --from's input is known to be a table or a stream: what applies to which. */
static void check_source(const struct cmdline *c, const struct raw_args *raw)
{
    if (c->source != SRC_FROM) return;
    const char *what = c->in.name;
    if (!c->in.stream) {
        const char *edit = c->insert ? "--insert" : c->ndeletes ? "--delete" : c->nremove_walls ? "--remove-wall"
                         : c->nset_materials ? "--set-material" : c->frame >= 0 ? "--frame" : NULL;
        if (edit) cli_usage("%s applies only to a dem stream, and %s is a table (its first bytes are not a gzip member)", edit, what);
        return;
    }
    /* A stream's frame keeps its materials, cell and walls: what makes a new system is refused. */
    if (raw->mat0_opt)
        cli_usage("%s sets material 0 of a new system; %s is a dem stream, which keeps its materials: change one with "
                  "--set-material 0:KEY=VALUE (e.g. --set-material 0:density=2600)", raw->mat0_opt, what);
    if (c->enclose)
        cli_usage("--enclose walls a new system; %s is a dem stream, which keeps its walls: add walls with --wall, remove them with --remove-wall", what);
    if (c->periodic)
        cli_usage("--periodic makes the cell of a new system; %s is a dem stream, which keeps its periodic cell", what);
    if (raw->axes) cli_usage("--periodic-axes applies only to --periodic, not to a dem stream (%s keeps its cell)", what);
    if (raw->seed_given && !c->insert)
        cli_usage("--seed seeds --insert and --velocity-random: from a dem stream (%s) they need --insert, and none is given", what);
    if (c->wall_material && !c->nwalls)
        cli_usage("--wall-material applies to the walls --wall adds, and no --wall is given (%s keeps its walls' materials)", what);
    if (!c->insert && (c->has_velocity || c->has_velocity_random || c->has_omega))
        cli_usage("%s sets the velocities of new particles: from a dem stream (%s) it applies to the --insert particles, and no --insert is given",
                  c->has_velocity ? "--velocity" : c->has_velocity_random ? "--velocity-random" : "--omega", what);
}

/* Values that are well formed but impossible, found before any work is done. */
static void check_values(struct cmdline *c, const struct raw_args *raw)
{
    dem_error err;
    if (c->source == SRC_LATTICE) {
        if (raw->seed_given && !c->has_velocity_random && !c->insert) /* nothing accepted is inert */
            cli_usage("--seed seeds --random, --insert and --velocity-random; a lattice has no random part: give --velocity-random or drop --seed");
        if (dem_lattice_parse_kind(raw->lattice, &c->lattice.kind, &err)) cli_usage_err("--lattice", &err);
        dem_lattice *l = &c->lattice;
        l->radius = c->random.size.radius;
        if (!(l->radius > 0.0)) cli_usage("--radius: %g m must be positive", l->radius);
        l->spacing = raw->spacing ? cli_double("--spacing", raw->spacing) : 2.0 * l->radius;
        if (!(l->spacing >= 2.0 * l->radius))
            cli_usage("--spacing: %g m is less than the sphere diameter 2R = %g m: neighbours would overlap", l->spacing,
                      2.0 * l->radius);
        if (dem_lattice_check(l, &err)) cli_usage_err("--cells", &err);
    }
    if (c->source == SRC_RANDOM || c->insert) {
        if (dem_size_check(&c->random.size, &err)) cli_usage_err(raw->size_opt, &err);
        if (raw->box && dem_region_parse_box(raw->box, &c->random.region, &err)) cli_usage_err("--box", &err);
        if (raw->cylinder && dem_region_parse_cylinder(raw->cylinder, &c->random.region, &err))
            cli_usage_err("--cylinder", &err);
    }
    if (raw->axes && dem_pack_parse_axes(raw->axes, &c->periodic_axes, &err)) cli_usage_err("--periodic-axes", &err);
    if (c->has_velocity_random && !(c->velocity_sigma >= 0.0))
        cli_usage("--velocity-random: SIGMA %g m/s must be >= 0", c->velocity_sigma);
}

/* The edit options' own syntax, before any input is read. */
static void check_selections(const struct cmdline *c)
{
    dem_error err;
    for (int k = 0; k < c->ndeletes; k++) {
        dem_select sel;
        if (dem_select_parse(&sel, c->deletes[k], &err)) cli_usage_err("--delete", &err);
        dem_select_free(&sel);
    }
    for (int k = 0; k < c->nremove_walls; k++) cli_int("--remove-wall", c->remove_walls[k], 0, LLONG_MAX);
    for (int k = 0; k < c->nset_materials; k++) {
        const char *t = c->set_materials[k], *colon = strchr(t, ':');
        if (!colon || colon == t || !colon[1])
            cli_usage("--set-material: '%s' is not MAT:KEY=VALUE,... (e.g. 0:density=2600, steel:friction=0.3)", t);
    }
}

/* Open --from's input and read its first two bytes: 1f 8b (gzip) starts a dem stream. */
static void open_input(struct input *in, const char *path)
{
    memset(in, 0, sizeof *in);
    in->fd = cli_open_input(path);
    in->name = strcmp(path, "-") ? path : "standard input";
    while (in->nhead < sizeof in->head) {
        ssize_t got = read(in->fd, in->head + in->nhead, sizeof in->head - in->nhead);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) cli_die("cannot read '%s': %s", in->name, strerror(errno));
        if (got == 0) break;
        in->nhead += (size_t)got;
    }
    in->stream = in->nhead == 2 && in->head[0] == 0x1f && in->head[1] == 0x8b;
}

/* The input's bytes: the two read ahead, then the rest (dem_read_fn). */
static long input_read(void *ctx, void *buf, size_t n, dem_error *err)
{
    struct input *in = ctx;
    if (in->used < in->nhead) {
        size_t k = in->nhead - in->used < n ? in->nhead - in->used : n;
        memcpy(buf, in->head + in->used, k);
        in->used += k;
        return (long)k;
    }
    for (;;) {
        ssize_t got = read(in->fd, buf, n);
        if (got >= 0) return (long)got;
        if (errno == EINTR) continue;
        dem_fail(err, DEM_ERR_IO, "cannot read '%s': %s", in->name, strerror(errno));
        return -1;
    }
}

static char *read_all(struct input *in, size_t *len);

/* --clump and what goes with it, before the other checks (which see the clumps' placeholders). */
static void check_clump_options(struct cmdline *c, struct raw_args *raw)
{
    if (!c->clump) {
        if (raw->clump_grid_given) cli_usage("--clump-grid applies only to --clump");
        if (raw->clump_orientation_given) cli_usage("--clump-orientation applies only to --clump");
        return;
    }
    int builtin = dem_clump_is_builtin(c->clump);
    if (!builtin && strcmp(c->clump, "-") && access(c->clump, R_OK) != 0)
        cli_usage("--clump: '%s' is neither a built-in shape (dimer, trimer, tetrahedron, rod:N, each with :D) nor a readable file "
                  "(%s)", c->clump, strerror(errno));
    if (raw->sizes && !raw->radius_given)
        cli_usage("%s and --clump exclude each other: a clump's members have the template's radii", raw->size_opt);
    if (builtin && !raw->radius_given)
        cli_usage("--clump %s needs --radius R, the radius of its member spheres (m)", c->clump);
    if (!builtin && raw->radius_given)
        cli_usage("--radius and --clump %s exclude each other: the template's members carry their radii (its column r)", c->clump);
    if (c->nassign) cli_usage("--assign and --clump exclude each other: a clump's members share its material (--insert-material for --insert)");
    if (c->nfixed) cli_usage("--fixed and --clump exclude each other: a clump's members cannot be fixed (the clump moves them)");
    if (c->has_bond_gap || c->bonds_file) cli_usage("--clump and bonds (--bond-gap, --bonds) exclude each other");
    if (raw->clump_orientation_given && c->source == SRC_FROM && !c->insert)
        cli_usage("--clump-orientation applies to --lattice, --random and --insert; a table gives the orientations (q0 q1 q2 q3)");
    if (raw->seed_given && c->source == SRC_LATTICE && c->clump_aligned && !c->has_velocity_random)
        cli_usage("--seed: aligned clumps on a lattice have no random part: give --velocity-random or drop --seed");
    c->clump_spacing_given = raw->spacing != NULL;
    if (c->source == SRC_FROM && !c->insert) { /* a table of centroids: --radius is the template's */
        raw->sizes = raw->radius_given = 0;
        raw->size_opt = NULL;
        return;
    }
    /* what places the clumps: their bounding spheres (a size distribution of one radius, set by make_template) */
    raw->sizes = raw->radius_given = 1;
    if (!raw->size_opt) raw->size_opt = "--clump";
    c->random.size.kind = DEM_SIZE_MONO;
    if (!builtin) c->random.size.radius = 1.0; /* replaced by the bounding radius once the template is read */
    if (c->source == SRC_LATTICE && !c->clump_aligned) raw->seed_given = 0; /* it seeds the orientations */
}

/* The template of --clump: its mass properties, and the placeholders' radius (its bounding radius). */
static void make_template(struct cmdline *c)
{
    dem_error err;
    dem_status st;
    if (dem_clump_is_builtin(c->clump)) {
        st = dem_clump_template_builtin(c->clump, c->random.size.radius, c->clump_grid, &c->tpl, &err);
        if (st) cli_usage_err("--clump", &err);
    } else {
        struct input in;
        open_input(&in, c->clump);
        if (in.stream) cli_usage("--clump: '%s' is a dem stream, not a table of member spheres (x y z r)", in.name);
        size_t len;
        char *text = read_all(&in, &len);
        if (in.fd != STDIN_FILENO) close(in.fd);
        st = dem_clump_template_tsv(text, len, c->clump_grid, &c->tpl, &err);
        free(text);
        if (st) cli_die("--clump %s: %s", c->clump, err.msg);
    }
    double rb = c->tpl.rbound;
    c->random.size.radius = rb;
    if (c->source == SRC_LATTICE) {
        dem_lattice *l = &c->lattice;
        if (c->clump_spacing_given && l->spacing < 2.0 * rb)
            cli_usage("--spacing: %g m is less than twice the clump's bounding radius, 2 x %.17g m: neighbouring clumps could overlap",
                      l->spacing, rb);
        if (!c->clump_spacing_given) l->spacing = 2.0 * rb;
        l->radius = rb;
        if (dem_lattice_check(l, &err)) cli_usage_err("--cells", &err);
    }
}

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    struct raw_args raw;
    memset(&raw, 0, sizeof raw);
    memset(c, 0, sizeof *c);
    c->mat0 = dem_material_default();
    c->random.seed = c->seed = 1;
    c->random.max_attempts = DEM_PACK_ATTEMPTS_DEFAULT;
    c->periodic_axes = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
    c->level = DEM_LEVEL_DEFAULT;
    c->frame = -1;
    c->clump_grid = DEM_CLUMP_GRID_DEFAULT;
    int opt;
    opterr = 0; /* our own messages, in the cli_usage format */
    while ((opt = getopt_long(argc, argv, ":hvo:", long_options, NULL)) != -1) {
        switch (opt) {
        case 'h': cli_help(help_text);
        case 'v': c->verbose = 1; break;
        case 'o': c->output = cli_output_arg("-o", optarg); break;
        case OPT_LATTICE: set_source(c, &raw, SRC_LATTICE, "--lattice"); raw.lattice = optarg; break;
        case OPT_RANDOM:
            set_source(c, &raw, SRC_RANDOM, "--random");
            c->random.n = (size_t)cli_int("--random", optarg, 1, DEM_PACK_MAX_PARTICLES);
            break;
        case OPT_FROM: set_source(c, &raw, SRC_FROM, "--from"); c->from = optarg; break;
        case OPT_CELLS: raw.cells = optarg; parse_cells(c, optarg); break;
        case OPT_SPACING: raw.spacing = optarg; break;
        case OPT_ORIGIN: raw.origin = optarg; c->lattice.origin = cli_vec3("--origin", optarg); break;
        case OPT_BOX: raw.box = optarg; break;
        case OPT_CYLINDER: raw.cylinder = optarg; break;
        case OPT_RADIUS: raw.radius_given = 1; set_size(c, &raw, DEM_SIZE_MONO, "--radius", optarg); break;
        case OPT_RADIUS_UNIFORM: set_size(c, &raw, DEM_SIZE_UNIFORM, "--radius-uniform", optarg); break;
        case OPT_BIDISPERSE: set_size(c, &raw, DEM_SIZE_BIDISPERSE, "--bidisperse", optarg); break;
        case OPT_LOGNORMAL: set_size(c, &raw, DEM_SIZE_LOGNORMAL, "--lognormal", optarg); break;
        case OPT_SEED:
            raw.seed_given = 1;
            c->random.seed = c->seed = (uint64_t)cli_int("--seed", optarg, 0, LLONG_MAX);
            break;
        case OPT_MAX_ATTEMPTS:
            raw.max_attempts_given = 1;
            c->random.max_attempts = (long)cli_int("--max-attempts", optarg, 1, 1000000000);
            break;
        case OPT_DENSITY: raw.mat0_opt = "--density"; c->mat0.density = cli_double("--density", optarg); break;
        case OPT_YOUNG: raw.mat0_opt = "--young"; c->mat0.young = cli_double("--young", optarg); break;
        case OPT_POISSON: raw.mat0_opt = "--poisson"; c->mat0.poisson = cli_double("--poisson", optarg); break;
        case OPT_FRICTION: raw.mat0_opt = "--friction"; c->mat0.friction = cli_double("--friction", optarg); break;
        case OPT_RESTITUTION: raw.mat0_opt = "--restitution"; c->mat0.restitution = cli_double("--restitution", optarg); break;
        case OPT_ROLLING: raw.mat0_opt = "--rolling-friction"; c->mat0.rolling_friction = cli_double("--rolling-friction", optarg); break;
        case OPT_TWISTING: raw.mat0_opt = "--twisting-friction"; c->mat0.twisting_friction = cli_double("--twisting-friction", optarg); break;
        case OPT_SURFACE: raw.mat0_opt = "--surface-energy"; c->mat0.surface_energy = cli_double("--surface-energy", optarg); break;
        case OPT_MATERIAL: push_list(&c->materials, &c->nmaterials, argc, optarg); break;
        case OPT_ASSIGN: push_list(&c->assign, &c->nassign, argc, optarg); break;
        case OPT_WALL: push_list(&c->walls, &c->nwalls, argc, optarg); break;
        case OPT_ENCLOSE: c->enclose = 1; break;
        case OPT_WALL_MATERIAL: c->wall_material = optarg; break;
        case OPT_PERIODIC: raw.periodic = optarg; parse_periodic(c, optarg); break;
        case OPT_PERIODIC_AXES: raw.axes = optarg; break;
        case OPT_VELOCITY: c->has_velocity = 1; c->velocity = cli_vec3("--velocity", optarg); break;
        case OPT_VELOCITY_RANDOM:
            c->has_velocity_random = 1;
            c->velocity_sigma = cli_double("--velocity-random", optarg);
            break;
        case OPT_OMEGA: c->has_omega = 1; c->omega = cli_vec3("--omega", optarg); break;
        case OPT_FIXED: push_list(&c->fixed, &c->nfixed, argc, optarg); break;
        case OPT_GROUP: push_list(&c->groups, &c->ngroups, argc, optarg); break;
        case OPT_LEVEL: c->level = (int)cli_int("--level", optarg, 0, 9); break;
        case OPT_INSERT:
            c->insert = 1;
            c->random.n = (size_t)cli_int("--insert", optarg, 1, DEM_PACK_MAX_PARTICLES);
            break;
        case OPT_INSERT_MATERIAL: c->insert_material = optarg; break;
        case OPT_DELETE: push_list(&c->deletes, &c->ndeletes, argc, optarg); break;
        case OPT_REMOVE_WALL: push_list(&c->remove_walls, &c->nremove_walls, argc, optarg); break;
        case OPT_SET_MATERIAL: push_list(&c->set_materials, &c->nset_materials, argc, optarg); break;
        case OPT_FRAME: c->frame = cli_int("--frame", optarg, 0, LLONG_MAX); break;
        case OPT_BOND_GAP: c->has_bond_gap = 1; c->bond_gap = cli_double("--bond-gap", optarg); break;
        case OPT_BOND_STIFFNESS: c->bond_stiffness = cli_double("--bond-stiffness", optarg);
            if (!(c->bond_stiffness > 0.0) || !isfinite(c->bond_stiffness))
                cli_usage("--bond-stiffness: %s N/m must be positive and finite", optarg);
            break;
        case OPT_BONDS: c->bonds_file = optarg; break;
        case OPT_CLUMP: c->clump = optarg; break;
        case OPT_CLUMP_GRID:
            raw.clump_grid_given = 1;
            c->clump_grid = (unsigned)cli_int("--clump-grid", optarg, DEM_RIGID_GRID_MIN, DEM_RIGID_GRID_MAX);
            break;
        case OPT_CLUMP_ORIENTATION:
            raw.clump_orientation_given = 1;
            if (strcmp(optarg, "random") && strcmp(optarg, "aligned"))
                cli_usage("--clump-orientation: '%s' is neither random nor aligned", optarg);
            c->clump_aligned = strcmp(optarg, "aligned") == 0;
            break;
        default: cli_bad_option_of(opt, argv, long_options);
        }
    }
    if (optind < argc) cli_usage("unexpected argument '%s' (dem-pack reads a table only with --from)", argv[optind]);
    check_clump_options(c, &raw);
    check_combinations(c, &raw);
    check_values(c, &raw);
    check_selections(c);
    if (c->source == SRC_FROM) {
        open_input(&c->in, c->from);
        check_source(c, &raw);
        if (c->clump && c->in.stream && !c->insert)
            cli_usage("--clump with a dem stream (%s) makes the clumps of --insert, and no --insert is given", c->in.name);
        if (c->clump && !c->in.stream && (c->has_velocity || c->has_velocity_random || c->has_omega))
            cli_usage("--clump --from TABLE: the table's vx vy vz wx wy wz columns give the clumps' velocities; %s is refused",
                      c->has_velocity ? "--velocity" : c->has_velocity_random ? "--velocity-random" : "--omega");
    }
    if (c->clump) make_template(c);
}

/* ---- building the system ------------------------------------------------------------------ */
/* Material 0 from the flat options, the --material list, then the material checks: values
 * given on the command line, so a failure is a usage error. */
static void build_materials(dem_system *s, const struct cmdline *c)
{
    dem_error err;
    if (dem_system_push_material(s, &c->mat0, &err)) cli_die_err(&err);
    for (int k = 0; k < c->nmaterials; k++)
        if (dem_pack_add_material(s, c->materials[k], &err)) cli_usage_err("--material", &err);
    if (dem_pack_check_materials(s, &err)) cli_usage("%s", err.msg);
}

static uint32_t material_arg(const dem_system *s, const char *opt, const char *text)
{
    dem_error err;
    uint32_t mat;
    if (dem_pack_find_material(s, text, &mat, &err)) cli_usage_err(opt, &err);
    return mat;
}

/* The material named (or numbered) by text up to end, the ':' of "MAT:...". */
static uint32_t material_before(const dem_system *s, const char *opt, const char *text, const char *end)
{
    char name[DEM_NAME_MAX + 1];
    size_t n = (size_t)(end - text);
    if (n > DEM_NAME_MAX) cli_usage("%s: '%s': no material has a name that long", opt, text);
    memcpy(name, text, n);
    name[n] = 0;
    return material_arg(s, opt, name);
}

static void set_cell(dem_system *s, const struct cmdline *c)
{
    if (!c->periodic) return;
    dem_vec3 lo = c->cell_lo, hi = c->cell_hi;
    if (c->periodic_lattice) {
        lo = c->lattice.origin;
        hi = dem_v3_add(lo, dem_lattice_period(&c->lattice));
    }
    dem_error err;
    if (dem_pack_set_cell(s, lo, hi, c->periodic_axes, &err)) cli_usage_err("--periodic", &err);
}

static char *read_all(struct input *in, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf) cli_die("out of memory");
    for (;;) {
        if (n == cap && !(buf = realloc(buf, cap *= 2))) cli_die("out of memory reading '%s'", in->name);
        dem_error err;
        long got = input_read(in, buf + n, cap - n, &err);
        if (got < 0) cli_die_err(&err);
        if (got == 0) break;
        n += (size_t)got;
    }
    *len = n;
    return buf;
}

/* Frame c->frame of the stream (the last if -1), whole, into s. */
static void read_frame(dem_system *s, struct cmdline *c)
{
    dem_error err;
    dem_reader *r = dem_reader_new(input_read, &c->in, &err);
    if (!r) cli_die_err(&err);
    cli_read_frame(r, c->in.name, c->frame, s);
}

static void make_particles(dem_system *s, struct cmdline *c)
{
    dem_error err;
    dem_status st = DEM_OK;
    switch (c->source) {
    case SRC_LATTICE: st = dem_pack_lattice(s, &c->lattice, 0, &err); break;
    case SRC_RANDOM:
        /* DEM_ERR_ARG: options that contradict each other (region and periodic cell) */
        if ((st = dem_pack_random(s, &c->random, &err)) == DEM_ERR_ARG) cli_usage("--periodic: %s", err.msg);
        break;
    case SRC_FROM: {
        size_t len;
        char *text = read_all(&c->in, &len);
        st = c->clump ? dem_pack_clumps_tsv(s, text, len, &c->tpl, 0, &err) : dem_pack_parse_tsv(s, text, len, &err);
        if (st) dem_error_prefix(&err, "%s: ", c->in.name);
        free(text);
        break;
    }
    case SRC_NONE: break;
    }
    if (st && c->clump && c->source != SRC_FROM)
        dem_error_prefix(&err, "--clump %s: a clump is placed as its bounding sphere (radius %g m), so 'spheres' below are clumps: ",
                         c->clump, c->tpl.rbound);
    if (st) cli_die_err(&err);
}

/* Parse "MAT:SEL" of --assign; the material name may not contain ':'. */
static size_t assign_materials(dem_system *s, const struct cmdline *c)
{
    size_t total = 0;
    for (int k = 0; k < c->nassign; k++) {
        const char *text = c->assign[k], *colon = strchr(text, ':');
        if (!colon || colon == text) cli_usage("--assign: '%s' is not MAT:SEL (e.g. 1:all, steel:radius=0.002,0.003)", text);
        uint32_t mat = material_before(s, "--assign", text, colon);
        dem_select sel;
        dem_error err;
        if (dem_select_parse(&sel, colon + 1, &err)) cli_usage_err("--assign", &err);
        size_t count;
        if (dem_pack_assign(s, mat, &sel, &count, &err)) cli_die_err(&err);
        total += count;
        dem_select_free(&sel);
    }
    return total;
}

static size_t fix_particles(dem_system *s, const struct cmdline *c)
{
    size_t total = 0;
    for (int k = 0; k < c->nfixed; k++) {
        dem_select sel;
        dem_error err;
        if (dem_select_parse(&sel, c->fixed[k], &err)) cli_usage_err("--fixed", &err);
        total += dem_pack_fix(s, &sel);
        dem_select_free(&sel);
    }
    return total;
}

static size_t set_groups(dem_system *s, const struct cmdline *c)
{
    size_t total = 0;
    for (int k = 0; k < c->ngroups; k++) {
        const char *arg = c->groups[k], *colon = strchr(arg, ':');
        if (!colon) cli_usage("--group: '%s' is not G:SEL", arg);
        char num[16];
        size_t n = (size_t)(colon - arg);
        if (n == 0 || n >= sizeof num) cli_usage("--group: '%s' is not G:SEL", arg);
        memcpy(num, arg, n);
        num[n] = 0;
        int g = (int)cli_int("--group", num, 1, 32);
        dem_select sel;
        dem_error err;
        if (dem_select_parse(&sel, colon + 1, &err)) cli_usage_err("--group", &err);
        total += dem_pack_group(s, g, &sel);
        dem_select_free(&sel);
    }
    return total;
}

/* The particles from index first on (0: all of a new system; from a stream: the inserted ones). */
static void set_velocities(dem_system *s, const struct cmdline *c, size_t first)
{
    dem_error err;
    if (c->has_velocity) dem_pack_set_velocity_from(s, first, c->velocity);
    if (c->has_velocity_random && dem_pack_random_velocity_from(s, first, c->velocity_sigma, c->seed, &err)) cli_die_err(&err);
    if (c->has_omega) dem_pack_set_omega_from(s, first, c->omega);
}

/* The placeholders from index first on become clumps of --clump's template. */
static void make_clumps(dem_system *s, const struct cmdline *c, size_t first)
{
    if (!c->clump || (c->source == SRC_FROM && !c->insert)) return; /* a table of centroids made them */
    dem_error err;
    if (dem_pack_clumps_at_spheres(s, first, &c->tpl, !c->clump_aligned, c->seed, &err)) cli_die("--clump: %s", err.msg);
}

static void add_walls(dem_system *s, const struct cmdline *c)
{
    dem_error err;
    uint32_t mat = c->wall_material ? material_arg(s, "--wall-material", c->wall_material) : 0;
    for (int k = 0; k < c->nwalls; k++) {
        dem_plane_spec p;
        if (dem_plane_parse(c->walls[k], &p, &err)) cli_usage_err("--wall", &err);
        dem_status st = dem_pack_add_plane(s, &p, mat, &err);
        if (st == DEM_ERR_ARG) cli_usage("--wall %s: %s", c->walls[k], err.msg);
        if (st) cli_die("--wall %s: %s", c->walls[k], err.msg);
    }
    if (!c->enclose) return;
    dem_status st;
    if (c->source == SRC_RANDOM && c->random.region.kind == DEM_REGION_CYLINDER) {
        st = dem_pack_enclose_cylinder(s, &c->random.region, mat, &err);
    } else if (c->source == SRC_RANDOM) {
        st = dem_pack_enclose_box(s, c->random.region.lo, c->random.region.hi, mat, &err);
    } else {
        dem_vec3 lo, hi;
        st = dem_pack_bounds(s, &lo, &hi, &err);
        if (!st) st = dem_pack_enclose_box(s, lo, hi, mat, &err);
    }
    if (st) cli_die("--enclose: %s", err.msg);
}

/* ---- editing a stream's frame -------------------------------------------------------------- */
/* What the edits did, for -v. */
struct edits {
    size_t walls_removed, wall_contacts_removed, deleted, contacts_removed, set_materials, masses;
    size_t bonds_added, bond_contacts_removed;
    size_t materials_added, walls_added, inserted, changed;
    uint64_t first_id, last_id;
};

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static void remove_walls(dem_system *s, const struct cmdline *c, struct edits *e)
{
    if (!c->nremove_walls) return;
    size_t *idx = malloc((size_t)c->nremove_walls * sizeof *idx);
    if (!idx) cli_die("out of memory");
    for (int k = 0; k < c->nremove_walls; k++) idx[k] = (size_t)cli_int("--remove-wall", c->remove_walls[k], 0, LLONG_MAX);
    qsort(idx, (size_t)c->nremove_walls, sizeof *idx, cmp_size);
    dem_error err;
    if (dem_pack_remove_walls(s, idx, (size_t)c->nremove_walls, &e->wall_contacts_removed, &err)) cli_usage_err("--remove-wall", &err);
    e->walls_removed = (size_t)c->nremove_walls;
    free(idx);
}

static void delete_particles(dem_system *s, const struct cmdline *c, struct edits *e)
{
    for (int k = 0; k < c->ndeletes; k++) {
        dem_select sel;
        dem_error err;
        size_t np, nc;
        if (dem_select_parse(&sel, c->deletes[k], &err)) cli_usage_err("--delete", &err);
        if (dem_pack_delete(s, &sel, &np, &nc, &err)) cli_die("--delete %s: %s", c->deletes[k], err.msg);
        dem_select_free(&sel);
        e->deleted += np;
        e->contacts_removed += nc;
    }
}

/* --set-material MAT:KEY=VALUE,...; the material name may not contain ':'. */
static void set_materials(dem_system *s, const struct cmdline *c, struct edits *e)
{
    for (int k = 0; k < c->nset_materials; k++) {
        const char *text = c->set_materials[k], *colon = strchr(text, ':');
        uint32_t mat = material_before(s, "--set-material", text, colon);
        dem_error err;
        size_t count;
        if (dem_pack_set_material(s, mat, colon + 1, &count, &err)) cli_usage_err("--set-material", &err);
        e->set_materials++;
        e->masses += count;
    }
}

static void insert_particles(dem_system *s, struct cmdline *c, struct edits *e)
{
    if (!c->insert) return;
    dem_error err;
    c->random.material = c->insert_material ? material_arg(s, "--insert-material", c->insert_material) : 0;
    size_t base = s->nparticles;
    /* positions and the --velocity-random draws of the new spheres: a stream of their own */
    c->random.seed = c->seed = dem_pack_insert_seed(s, c->seed);
    dem_status st = dem_pack_insert(s, &c->random, &err);
    if (st == DEM_ERR_ARG) cli_usage("--insert: %s", err.msg); /* the region against the frame's cell */
    if (st && c->clump)
        dem_error_prefix(&err, "--clump %s: a clump is inserted as its bounding sphere (radius %g m), so 'spheres' below are clumps: ",
                         c->clump, c->tpl.rbound);
    if (st) cli_die_err(&err);
    e->inserted = s->nparticles - base;
    e->first_id = s->particles[base].id;
    e->last_id = s->particles[s->nparticles - 1].id;
}

/* --bond-gap, then --bonds: the bonds are added after everything else (the particles where they
 * end up). Returns the bonds added. */
static size_t add_bonds(dem_system *s, const struct cmdline *c)
{
    dem_error err;
    size_t added = 0, more = 0;
    if (c->has_bond_gap && dem_pack_bond_gap(s, c->bond_gap, c->bond_stiffness, &added, &err)) cli_usage_err("--bond-gap", &err);
    if (c->bonds_file) {
        struct input in;
        open_input(&in, c->bonds_file);
        if (in.stream) cli_usage("--bonds: '%s' is a dem stream, not a table of bonds", in.name);
        size_t len;
        char *text = read_all(&in, &len);
        if (in.fd != STDIN_FILENO) close(in.fd);
        dem_status st = dem_pack_bonds_tsv(s, text, len, c->bond_stiffness, &more, &err);
        free(text);
        if (st == DEM_ERR_ARG) cli_usage("--bonds: %s", err.msg);
        if (st) cli_die("--bonds %s: %s", c->bonds_file, err.msg);
    }
    return added + more;
}

/* A frame of the stream, whole, with the edits in their documented order. Returns the index of
 * the first inserted particle. */
static size_t edit_stream(dem_system *s, struct cmdline *c, struct edits *e)
{
    dem_error err;
    read_frame(s, c);
    remove_walls(s, c, e);
    delete_particles(s, c, e);
    set_materials(s, c, e);
    for (int k = 0; k < c->nmaterials; k++)
        if (dem_pack_add_material(s, c->materials[k], &err)) cli_usage_err("--material", &err);
    if (dem_pack_check_materials(s, &err)) cli_usage("%s", err.msg);
    e->materials_added = (size_t)c->nmaterials;
    add_walls(s, c);
    e->walls_added = (size_t)c->nwalls;
    size_t base = s->nparticles;
    insert_particles(s, c, e);
    e->changed = assign_materials(s, c) + fix_particles(s, c) + set_groups(s, c);
    if (c->insert) set_velocities(s, c, base);
    if (c->insert) make_clumps(s, c, base);
    e->bonds_added = add_bonds(s, c);
    e->bond_contacts_removed = dem_pack_unbond_contacts(s); /* a bonded pair's bond alone acts */
    if (dem_pack_check_ranges(s, &err)) cli_die_err(&err);
    /* Anything that changes the dynamics: the forces are recomputed and the budget restarts. An
     * added material that no particle or wall uses changes nothing. */
    if (e->walls_removed || e->deleted || e->set_materials || e->walls_added || e->inserted || e->changed || e->bonds_added)
        dem_pack_restart_budget(s);
    return base;
}

static void report_edits(const dem_system *s, const struct edits *e)
{
    fprintf(stderr, "%s: frame at step %llu, time %.17g s: ", cli_prog(), (unsigned long long)s->step, s->time);
    int any = 0;
#define ITEM(cond, ...) do { if (cond) { if (any++) fputs(", ", stderr); fprintf(stderr, __VA_ARGS__); } } while (0)
    ITEM(e->walls_removed, "removed %zu wall%s and %zu wall contact%s", e->walls_removed, e->walls_removed == 1 ? "" : "s",
         e->wall_contacts_removed, e->wall_contacts_removed == 1 ? "" : "s");
    ITEM(e->deleted || e->contacts_removed, "deleted %zu particle%s and %zu contact%s", e->deleted, e->deleted == 1 ? "" : "s",
         e->contacts_removed, e->contacts_removed == 1 ? "" : "s");
    ITEM(e->set_materials, "changed %zu material%s (%zu masses follow)", e->set_materials, e->set_materials == 1 ? "" : "s", e->masses);
    ITEM(e->materials_added, "added %zu material%s", e->materials_added, e->materials_added == 1 ? "" : "s");
    ITEM(e->walls_added, "added %zu wall%s", e->walls_added, e->walls_added == 1 ? "" : "s");
    ITEM(e->inserted, "inserted %zu particle%s (ids %llu to %llu)", e->inserted, e->inserted == 1 ? "" : "s",
         (unsigned long long)e->first_id, (unsigned long long)e->last_id);
    ITEM(e->bonds_added, "added %zu bond%s (%zu contact record%s between bonded pairs removed)", e->bonds_added,
         e->bonds_added == 1 ? "" : "s", e->bond_contacts_removed, e->bond_contacts_removed == 1 ? "" : "s");
#undef ITEM
    fputs(any ? "; " : "kept as it is; ", stderr);
    fputs(isnan(s->energy[DEM_E_INITIAL]) && any ? "the energy budget restarts here\n" : "the energy budget continues\n", stderr);
}

/* The volume the solid fraction of --verbose refers to, and its name. */
static double reference_volume(const dem_system *s, const struct cmdline *c, const char **what)
{
    if (c->source == SRC_RANDOM) {
        *what = c->random.region.kind == DEM_REGION_BOX ? "the box" : "the cylinder";
        return dem_region_volume(&c->random.region);
    }
    if (c->source == SRC_LATTICE) {
        dem_vec3 p = dem_lattice_period(&c->lattice);
        *what = "the lattice's period box";
        return p.x * p.y * p.z;
    }
    if (s->cell.flags) {
        *what = "the periodic cell";
        return dem_cell_volume(&s->cell);
    }
    dem_vec3 lo, hi;
    *what = "the spheres' bounding box";
    if (dem_pack_bounds(s, &lo, &hi, NULL)) return 0.0;
    return (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
}

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

static void report(const dem_system *s, const struct cmdline *c)
{
    const char *what;
    double v = reference_volume(s, c, &what);
    fprintf(stderr, "%s: %zu particle%s, %zu material%s, %zu wall%s, solid fraction %.4f of %s (%.6g m^3)\n",
            cli_prog(), s->nparticles, plural(s->nparticles), s->nmaterials, plural(s->nmaterials), s->nwalls,
            plural(s->nwalls), v > 0.0 ? dem_pack_solid_volume(s) / v : 0.0, what, v);
    if (s->nbonds) fprintf(stderr, "%s: %zu bond%s\n", cli_prog(), s->nbonds, plural(s->nbonds));
    if (c->clump)
        fprintf(stderr, "%s: %zu clump%s of %s (%zu member%s each, volume %.6g m^3, principal moments per unit density %.6g %.6g %.6g m^5, "
                "estimated relative error %.2g, bounding radius %.6g m)\n", cli_prog(), s->nclumps, plural(s->nclumps), c->clump,
                c->tpl.n, plural(c->tpl.n), c->tpl.volume, c->tpl.inertia1.x, c->tpl.inertia1.y, c->tpl.inertia1.z, c->tpl.inertia_err,
                c->tpl.rbound);
    uint64_t id = 0;
    size_t wall = 0;
    double r = 1.0, ov = s->nwalls ? dem_pack_largest_wall_overlap(s, &id, &wall, &r) : 0.0;
    if (ov > 0.0)
        fprintf(stderr, "%s: largest overlap with a wall: %g m (particle %llu, wall %zu), %.3g of its radius\n", cli_prog(), ov,
                (unsigned long long)id, wall, ov / r);
    else if (s->nwalls)
        fprintf(stderr, "%s: no sphere overlaps a wall\n", cli_prog());
}

static void write_frame(const dem_system *s, int level)
{
    dem_error err;
    if (dem_system_check(s, &err)) cli_die_err(&err);
    dem_writer *w = dem_writer_new(cli_output(), level, &err);
    if (!w) cli_die_err(&err);
    if (dem_writer_put(w, s, &err)) cli_die_err(&err);
    cli_write_end(w);
    dem_writer_free(w);
    cli_output_close();
}

static void free_lists(struct cmdline *c)
{
    free(c->materials);
    free(c->assign);
    free(c->walls);
    free(c->fixed);
    free(c->groups);
    free(c->deletes);
    free(c->set_materials);
    free(c->remove_walls);
    dem_clump_template_free(&c->tpl);
}

int main(int argc, char **argv)
{
    cli_init("dem-pack");
    struct cmdline c;
    parse_args(argc, argv, &c);
    cli_output_open(c.output);
    dem_system s;
    dem_system_init(&s);
    if (c.source == SRC_FROM && c.in.stream) {
        struct edits e;
        memset(&e, 0, sizeof e);
        edit_stream(&s, &c, &e);
        if (c.verbose) {
            report_edits(&s, &e);
            report(&s, &c);
        }
        cli_warn_ranges(&s, 0);
        write_frame(&s, c.level);
        if (c.in.fd != STDIN_FILENO) close(c.in.fd);
        dem_system_free(&s);
        free_lists(&c);
        return 0;
    }
    build_materials(&s, &c);
    set_cell(&s, &c); /* first: a random packing crosses the periodic faces */
    make_particles(&s, &c);
    dem_error err;
    assign_materials(&s, &c);
    fix_particles(&s, &c);
    set_groups(&s, &c);
    set_velocities(&s, &c, 0);
    make_clumps(&s, &c, 0);
    if (c.periodic_lattice) dem_pack_wrap_into_cell(&s); /* the lattice is periodic in its period */
    if (dem_pack_check_in_cell(&s, &err)) cli_die("--periodic: %s", err.msg);
    if (dem_pack_check_ranges(&s, &err)) cli_die_err(&err);
    add_walls(&s, &c);
    add_bonds(&s, &c);
    if (c.verbose) report(&s, &c);
    cli_warn_ranges(&s, 0); /* a slip of units (--young 70 for 70 GPa), said before any run */
    write_frame(&s, c.level);
    if (c.source == SRC_FROM && c.in.fd != STDIN_FILENO) close(c.in.fd);
    dem_system_free(&s);
    free_lists(&c);
    return 0;
}
