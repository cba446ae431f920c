/* pack.h - creating particle systems: lattices, random packings, TSV import, and the materials,
 * walls, periodic cell and initial velocities that make them ready to simulate.
 *
 * These are the building blocks of dem-pack. Every function appends to or edits a dem_system
 * and reports failures through a dem_error whose message names the value, record or line at
 * fault; nothing here prints or exits. Lengths are in m, velocities in m/s, SI throughout.
 *
 * Particles are created with dem_particle_default() (identity orientation, group 1), ids
 * counting on from the particles already in the system (1..N for an empty one), mass and moment
 * of inertia from their material's density (dem_sphere_mass). The generators expect the
 * system's materials table to hold the materials they name. */
#ifndef DEM_PACK_H
#define DEM_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/rigid.h"
#include "core/rng.h"
#include "io/select.h"
#include "io/system.h"

/* Most particles one call creates: bounds memory and index arithmetic. */
#define DEM_PACK_MAX_PARTICLES 100000000u

/* Append a sphere at pos in material mat (which must exist) with the next id (nparticles + 1),
 * its mass and moment of inertia from the material's density. */
DEM_MUST_CHECK dem_status dem_pack_push_sphere(dem_system *s, dem_vec3 pos, double radius, uint32_t mat, dem_error *err);

/* ---- lattices ------------------------------------------------------------------------------ */
typedef enum { DEM_LATTICE_SC, DEM_LATTICE_BCC, DEM_LATTICE_FCC, DEM_LATTICE_HCP } dem_lattice_kind;

typedef struct {
    dem_lattice_kind kind;
    long cells[3];   /* conventional cells along x, y, z, each >= 1 */
    double radius;   /* sphere radius R, m */
    double spacing;  /* nearest-neighbour centre distance D >= 2R, m */
    dem_vec3 origin; /* the spheres start at this corner: first centre at origin + R(1,1,1), m */
} dem_lattice;

/* "sc", "bcc", "fcc" or "hcp". */
DEM_MUST_CHECK dem_status dem_lattice_parse_kind(const char *text, dem_lattice_kind *kind, dem_error *err);
const char *dem_lattice_name(dem_lattice_kind kind);
/* Sites per conventional cell (sc 1, bcc 2, fcc 4, hcp 4) and the cell's edge lengths: sc a = D,
 * bcc a = 2D/sqrt3, fcc a = D sqrt2, hcp (D, sqrt3 D, sqrt(8/3) D) in the orthorhombic cell. */
int dem_lattice_sites(dem_lattice_kind kind);
dem_vec3 dem_lattice_cell_edges(const dem_lattice *l);
/* The natural period of the whole lattice: (NX ax, NY ay, NZ az), starting at the origin. */
dem_vec3 dem_lattice_period(const dem_lattice *l);
/* Check cells >= 1, R > 0 and D >= 2R, and that the count fits DEM_PACK_MAX_PARTICLES. */
DEM_MUST_CHECK dem_status dem_lattice_check(const dem_lattice *l, dem_error *err);
size_t dem_lattice_count(const dem_lattice *l);
/* Append the lattice's spheres in material mat; ids run over the basis, then x, y, z. */
DEM_MUST_CHECK dem_status dem_pack_lattice(dem_system *s, const dem_lattice *l, uint32_t mat, dem_error *err);

/* ---- regions -------------------------------------------------------------------------------- */
typedef enum { DEM_REGION_BOX = 1, DEM_REGION_CYLINDER = 2 } dem_region_kind;

typedef struct {
    dem_region_kind kind;
    dem_vec3 lo, hi;   /* box corners; for a cylinder its bounding box */
    int axis;          /* cylinder: 0 x, 1 y, 2 z */
    double c1, c2;     /* cylinder: the axis' two other coordinates, in x, y, z order */
    double radius;     /* cylinder radius, m */
    double axlo, axhi; /* cylinder: extent along the axis, m */
} dem_region;

/* "X0,Y0,Z0,X1,Y1,Z1" with X0 < X1, Y0 < Y1, Z0 < Z1. */
DEM_MUST_CHECK dem_status dem_region_parse_box(const char *text, dem_region *r, dem_error *err);
/* "AXIS,C1,C2,RADIUS,LO,HI", e.g. "z,0,0,0.05,0,0.2"; C1,C2 are the other two coordinates of the
 * axis in x, y, z order (axis x: y,z; y: x,z; z: x,y). */
DEM_MUST_CHECK dem_status dem_region_parse_cylinder(const char *text, dem_region *r, dem_error *err);
double dem_region_volume(const dem_region *r);
/* Parse an axis letter x, y or z; returns -1 if it is none of them. */
int dem_axis_index(char c);

/* ---- size distributions --------------------------------------------------------------------- */
typedef enum {
    DEM_SIZE_MONO,       /* every radius = radius */
    DEM_SIZE_UNIFORM,    /* radius uniform in [rmin, rmax] */
    DEM_SIZE_BIDISPERSE, /* r1 and r2, phi1 = fraction of the solid volume in r1 spheres */
    DEM_SIZE_LOGNORMAL   /* ln r ~ N(ln median, sigma^2), truncated at +-3 sigma */
} dem_size_kind;

typedef struct {
    dem_size_kind kind;
    double radius;       /* MONO */
    double rmin, rmax;   /* UNIFORM */
    double r1, r2, phi1; /* BIDISPERSE */
    double median, sigma;/* LOGNORMAL */
} dem_size_dist;

DEM_MUST_CHECK dem_status dem_size_check(const dem_size_dist *d, dem_error *err);
/* Number of r1 spheres among n whose solid volume fraction is closest to phi1: the number
 * fraction x1 = (phi1/r1^3) / (phi1/r1^3 + (1-phi1)/r2^3), n1 = floor(n x1 + 1/2). */
size_t dem_bidisperse_count1(size_t n, double r1, double r2, double phi1);
/* Draw n radii (in drawing order; bidisperse: n1 of r1 then the rest of r2, no draws). */
DEM_MUST_CHECK dem_status dem_size_draw(const dem_size_dist *d, size_t n, dem_rng *rng, double *radii, dem_error *err);

/* ---- random packing ------------------------------------------------------------------------ */
#define DEM_PACK_ATTEMPTS_DEFAULT 10000

typedef struct {
    size_t n;            /* spheres to place */
    dem_size_dist size;
    dem_region region;
    uint64_t seed;
    long max_attempts;   /* random positions tried per sphere before giving up */
    uint32_t material;
} dem_random_spec;

/* Random sequential addition: radii drawn first from the seeded generator, sorted largest
 * first, then each sphere tried at uniformly random positions inside the region until it
 * overlaps no sphere placed before, no particle already in s and no wall of s (it must lie
 * wholly on the particles' side of every wall; touching is allowed). A cell grid of cells >= the
 * largest sum of two radii finds the neighbours. Ids count on from the largest id in s (1, 2,
 * ... in an empty system), in placement order. Where s->cell is periodic, the region must span
 * the cell (a box along that axis; a cylinder only along its own axis, with LO, HI the cell's
 * bounds): spheres may cross those faces, and overlaps are judged by the minimum image. Fails
 * with DEM_ERR_LIMIT, naming how many spheres were placed and the solid fraction they reached,
 * when one finds no room (and then removes the spheres it placed: s is as before). */
DEM_MUST_CHECK dem_status dem_pack_insert(dem_system *s, const dem_random_spec *spec, dem_error *err);
/* The seed --insert draws from: the user's seed mixed (splitmix64) with the frame's step, its
 * particle count and its largest id, so that an insertion never replays the stream that made
 * the frame's own particles (with the same seed, every candidate landed on an existing centre
 * once the frame had 10 000 spheres). The same frame and seed give the same insertion. */
uint64_t dem_pack_insert_seed(const dem_system *s, uint64_t seed);
/* A random packing: dem_pack_insert, normally into a system without particles or walls. */
DEM_MUST_CHECK dem_status dem_pack_random(dem_system *s, const dem_random_spec *spec, dem_error *err);

/* ---- TSV import ----------------------------------------------------------------------------- */
/* Parse tab-separated text: one header line naming the columns (x y z r required; id vx vy vz wx
 * wy wz material fixed optional, any order; a name may carry its SI unit in brackets as dem-probe
 * prints it: x[m], vx[m/s], wx[rad/s]), then one particle per line; blank lines and lines
 * starting with '#' after the header are skipped. material is an index into s->materials or a
 * material name, fixed is 0 or 1, absent columns are 0. Without an id column the ids count on
 * as dem_pack_push_sphere's do (1, 2, ... in line order for an empty system). Numbers are read
 * with strtod, so printed doubles come back bit for bit. Messages read "line L, column NAME:
 * ..."; on failure the system keeps only the particles it had before. */
DEM_MUST_CHECK dem_status dem_pack_parse_tsv(dem_system *s, const char *text, size_t len, dem_error *err);

/* ---- materials ------------------------------------------------------------------------------ */
/* Append a material described by "name=glass,density=2500,young=7e10,...": keys name, density,
 * young, poisson, friction, restitution, rolling_friction, twisting_friction, surface_energy
 * (or with '-' for '_'); keys not given copy material 0. The name defaults to "materialK" (K its
 * index), must be unique, shorter than DEM_NAME_MAX bytes, not a number, free of ',' and '='. */
DEM_MUST_CHECK dem_status dem_pack_add_material(dem_system *s, const char *spec, dem_error *err);
/* A material by index ("2") or name ("glass"). */
DEM_MUST_CHECK dem_status dem_pack_find_material(const dem_system *s, const char *text, uint32_t *index, dem_error *err);
/* The physical checks of dem_system_check on the materials table alone. */
DEM_MUST_CHECK dem_status dem_pack_check_materials(const dem_system *s, dem_error *err);
/* Give material mat to the particles sel matches and recompute their mass and inertia from its
 * density. Returns the number of particles changed in *count (may be NULL). */
DEM_MUST_CHECK dem_status dem_pack_assign(dem_system *s, uint32_t mat, const dem_select *sel, size_t *count, dem_error *err);
/* Change material mat by "key=value,..." (the keys of dem_pack_add_material; keys not given
 * keep their values; a new name must be unique). The result must pass the material checks, else
 * nothing changes. If density is given, the mass and moment of inertia of every particle of
 * material mat follow it (dem_sphere_mass), *count (may be NULL) tells how many. */
DEM_MUST_CHECK dem_status dem_pack_set_material(dem_system *s, uint32_t mat, const char *spec, size_t *count, dem_error *err);
/* Set DEM_PARTICLE_FIXED on the particles sel matches; returns how many. */
size_t dem_pack_fix(dem_system *s, const dem_select *sel);
/* Put the particles sel matches in interaction group G (1..32): their group mask becomes bit
 * G-1 (dem-step --ignore A:B makes groups A and B ignore each other); returns how many. */
size_t dem_pack_group(dem_system *s, int group, const dem_select *sel);

/* ---- velocities ------------------------------------------------------------------------------ */
/* Set the velocity (angular velocity) of every particle that is not fixed; the _from forms only
 * of the particles from index first on (those just added). */
void dem_pack_set_velocity(dem_system *s, dem_vec3 v);
void dem_pack_set_omega(dem_system *s, dem_vec3 w);
void dem_pack_set_velocity_from(dem_system *s, size_t first, dem_vec3 v);
void dem_pack_set_omega_from(dem_system *s, size_t first, dem_vec3 w);
/* Add to every non-fixed particle's velocity a random vector with components ~ N(0, sigma^2),
 * then subtract the mass-weighted mean of what was added: the fluctuations carry no momentum.
 * The draws come from the generator of seed advanced by one jump, a stream independent of the
 * one dem_pack_random uses. */
DEM_MUST_CHECK dem_status dem_pack_random_velocity(dem_system *s, double sigma, uint64_t seed, dem_error *err);
/* The same over the particles from index first on only (the mean removed over them). */
DEM_MUST_CHECK dem_status dem_pack_random_velocity_from(dem_system *s, size_t first, double sigma, uint64_t seed, dem_error *err);

/* ---- periodic cell --------------------------------------------------------------------------- */
/* "xyz", "xy", "z", ... (any order, no repeats) to DEM_CELL_PERIODIC_* flags. */
DEM_MUST_CHECK dem_status dem_pack_parse_axes(const char *text, uint32_t *flags, dem_error *err);
/* A rectangular cell from lo to hi: origin lo, H = diag(hi - lo), no velocity gradient. */
DEM_MUST_CHECK dem_status dem_pack_set_cell(dem_system *s, dem_vec3 lo, dem_vec3 hi, uint32_t flags, dem_error *err);
/* Move every centre into the cell along its periodic axes by whole periods: the periodic system
 * is unchanged. A lattice in its natural period needs it, since its spheres start one radius in
 * from the origin and some sites (hcp) then lie past the far face. */
void dem_pack_wrap_into_cell(dem_system *s);
/* Every particle centre inside the cell: lo <= x < hi along periodic axes, lo <= x <= hi along
 * the others. */
DEM_MUST_CHECK dem_status dem_pack_check_in_cell(const dem_system *s, dem_error *err);

/* ---- walls ----------------------------------------------------------------------------------- */
typedef struct {
    int axis;     /* 0 x, 1 y, 2 z */
    double pos;   /* the plane is axis = pos, m */
    dem_vec3 vel; /* prescribed velocity, m/s */
} dem_plane_spec;

/* The ranges of io/system.h (radii, coordinates within 2^40 radii of the origin) and no two
 * particles with the same centre; the message names the particle(s). */
DEM_MUST_CHECK dem_status dem_pack_check_ranges(const dem_system *s, dem_error *err);

/* The largest overlap of a sphere with a wall (m; 0 if none touches), its particle's id and
 * radius and the wall's index (each may be NULL). */
double dem_pack_largest_wall_overlap(const dem_system *s, uint64_t *id, size_t *wall, double *radius);

/* "z=0" or "z=0.1@0,0,-0.01". */
DEM_MUST_CHECK dem_status dem_plane_parse(const char *text, dem_plane_spec *p, dem_error *err);
/* Append a plane wall facing the particles: its normal is +axis if every centre lies above the
 * plane, -axis if every one lies below. A sphere may reach through the plane (an overlap below
 * its radius is a contact, which dem-step resolves). Fails if centres lie on both sides or on the
 * plane, if the system has no particles, or if the axis is periodic. */
DEM_MUST_CHECK dem_status dem_pack_add_plane(dem_system *s, const dem_plane_spec *p, uint32_t mat, dem_error *err);
/* Plane walls on the faces of the box lo..hi, normals inwards, in the order x lo, x hi, y lo,
 * y hi, z lo, z hi, skipping the faces across which the cell is periodic. */
DEM_MUST_CHECK dem_status dem_pack_enclose_box(dem_system *s, dem_vec3 lo, dem_vec3 hi, uint32_t mat, dem_error *err);
/* The mantle of a cylinder region (particles inside) and, unless its axis is periodic, plane
 * walls at both ends. */
DEM_MUST_CHECK dem_status dem_pack_enclose_cylinder(dem_system *s, const dem_region *r, uint32_t mat, dem_error *err);

/* ---- editing a frame (edit.c) ---------------------------------------------------------------- */
/* Remove the walls walls[0..n) (indices into s->walls; each must exist, none named twice). The
 * remaining walls keep their order, renumbered 0, 1, ...; the wall-contact records of removed
 * walls are dropped and the others renamed to the new indices. *contacts_removed (may be NULL):
 * how many records went. Fails with DEM_ERR_ARG, changing nothing, on a bad index. */
DEM_MUST_CHECK dem_status dem_pack_remove_walls(dem_system *s, const size_t *walls, size_t n, size_t *contacts_removed, dem_error *err);
/* Remove the particles sel matches and every contact record naming one of them (as i, or as j
 * of a particle pair); the others keep their order and values. Refuses (changing nothing) a
 * member of a rigid clump. Counts removed in *particles_removed, *contacts_removed (may be NULL). */
DEM_MUST_CHECK dem_status dem_pack_delete(dem_system *s, const dem_select *sel, size_t *particles_removed, size_t *contacts_removed,
                           dem_error *err);
/* After an edit: the frame's forces are no longer those of its state (HEAD flag
 * DEM_HEAD_FORCES_CURRENT cleared: the next dem-step computes them) and the energy budget
 * restarts (e_initial NaN: the next dem-step takes the edited frame's energy as its reference;
 * the dissipation and work accumulators keep their totals). */
void dem_pack_restart_budget(dem_system *s);

/* Bonds (De Klerk et al. 2022, §3.3; formats/dem-stream.md §5.10): a harmonic bond of stiffness kb (N/m) for
 * every pair whose surfaces are closer than gap (m): |x_i - x_j'| < r_i + r_j + gap, through the
 * nearest periodic image in a cell; overlapping pairs included, pairs bonded already skipped. The
 * new bonds come in the order of the particles' indices (i < j). */
DEM_MUST_CHECK dem_status dem_pack_bond_gap(dem_system *s, double gap, double kb, size_t *added, dem_error *err);
/* Bonds listed in a table: a header line naming the columns i j (particle ids, required), kb
 * (N/m; else kb_default, which must then be > 0) and sx sy sz (image shift of j; else the nearest
 * image in a cell), then one bond per line; blank and # lines skipped. dem-probe --bonds output
 * reads back (its other columns are ignored). Messages name the line. */
DEM_MUST_CHECK dem_status dem_pack_bonds_tsv(dem_system *s, const char *text, size_t len, double kb_default, size_t *added, dem_error *err);
/* Remove the contact records between bonded pairs (the bond alone acts between them); returns
 * how many. */
size_t dem_pack_unbond_contacts(dem_system *s);

/* ---- rigid clumps (clump.c; Šmilauer and Chareyre 2015, §1.5.3-1.5.4) ------------------------------- */
#define DEM_CLUMP_MEMBERS_MAX 4096
#define DEM_CLUMP_GRID_DEFAULT 512 /* grid cells across a clump for overlapping members (rigid.h): 0.04 s for a tetrahedron */

/* A clump's shape: its member spheres in the body frame (the principal axes through the centre of
 * mass) and its mass properties per unit density. */
typedef struct {
    size_t n;
    dem_rigid_member *m;  /* members, body frame */
    dem_quat q;           /* body frame -> the template's own frame (as given) */
    double volume;        /* of the union of the members, m^3 (mass = density * volume) */
    dem_vec3 inertia1;    /* principal moments per unit density, m^5, ascending */
    double inertia_err;   /* estimated relative error of the moments (0: members apart, exact) */
    double rbound;        /* bounding radius about the centre of mass: max |b| + r, m */
    unsigned grid;
    char name[64];
} dem_clump_template;

/* Whether spec names a built-in shape: dimer, trimer, tetrahedron, rod (with ":..." arguments). */
int dem_clump_is_builtin(const char *spec);
/* A built-in shape of member radius r (m): "dimer[:D]" two spheres, "trimer[:D]" three on an
 * equilateral triangle, "tetrahedron[:D]" four on a regular tetrahedron, "rod:N[:D]" N in a line;
 * D the distance of neighbouring centres in member radii (default 1: each overlaps its neighbour by
 * half a radius; D >= 2: apart, inertia exact). grid: rigid.h's resolution for overlapping members. */
DEM_MUST_CHECK dem_status dem_clump_template_builtin(const char *spec, double radius, unsigned grid, dem_clump_template *t, dem_error *err);
/* A template from a table: a header line naming the columns x y z r (m; units in brackets
 * allowed: x[m]), then one member per line; blank and # lines skipped. */
DEM_MUST_CHECK dem_status dem_clump_template_tsv(const char *text, size_t len, unsigned grid, dem_clump_template *t, dem_error *err);
void dem_clump_template_free(dem_clump_template *t);
/* Replace every particle from index first on (placeholders: spheres of radius t->rbound, placed
 * by a lattice or a random packing, so that no two clumps overlap) by a clump of template t with
 * its centre of mass at the placeholder's centre, moving at its velocity and angular velocity, in
 * its material; oriented at random (random != 0: uniform over rotations, drawn from seed's own
 * stream) or with the template's frame along the world's. Member ids count on from the largest id
 * before first, clump ids from the largest clump id. */
DEM_MUST_CHECK dem_status dem_pack_clumps_at_spheres(dem_system *s, size_t first, const dem_clump_template *t, int random, uint64_t seed,
                                                     dem_error *err);
/* Clumps of template t in material mat from a table: a header naming the columns x y z (the centre
 * of mass, m; required), q0 q1 q2 q3 (the rotation of the template's frame to the world, unit;
 * default identity), vx vy vz (m/s), wx wy wz (rad/s); one clump per line. On failure s is as
 * before. */
DEM_MUST_CHECK dem_status dem_pack_clumps_tsv(dem_system *s, const char *text, size_t len, const dem_clump_template *t, uint32_t mat,
                                              dem_error *err);

/* ---- measures -------------------------------------------------------------------------------- */
/* Bounding box of the spheres (centre -+ radius); fails if there are none. */
DEM_MUST_CHECK dem_status dem_pack_bounds(const dem_system *s, dem_vec3 *lo, dem_vec3 *hi, dem_error *err);
/* Total solid volume, m^3: sum 4/3 pi r^3 over the spheres not in a clump, plus each clump's volume
 * (its mass over its members' density: the union of overlapping members). */
double dem_pack_solid_volume(const dem_system *s);

#endif
