/* analysis.h - per-frame measurements of a dem_system and their TSV form.
 *
 * The measurements (contact counts, coordination, solid fraction, mean velocity, granular
 * temperature, kinetic energies) are plain functions of one frame so that dem-probe, dem-stress
 * and dem-energy compute them the same way. The TSV writers print to a FILE the caller owns:
 * exactly one header line with SI units in brackets ("x[m]"), one row per record, doubles as
 * the shortest text that reads back bit for bit (dem_format_double), integers in decimal. */
#ifndef DEM_ANALYSIS_H
#define DEM_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "io/fields.h"
#include "io/select.h"
#include "io/stream.h"
#include "io/system.h"

/* ---- control volumes ----------------------------------------------------------------------- */
/* An axis-aligned box lo <= x <= hi, m. */
typedef struct {
    dem_vec3 lo, hi;
} dem_aabb;

double dem_aabb_volume(dem_aabb b);
int dem_aabb_contains(dem_aabb b, dem_vec3 x);

/* The box enclosed by axis-aligned plane walls: for each axis a wall whose normal is +e (the
 * lower face) and one whose normal is -e (the upper face); with several, the innermost one.
 * Other walls (tilted planes, cylinders) are ignored. Returns 1 and fills *box if all six faces
 * exist and enclose a positive volume, else 0. */
int dem_walls_box(const dem_system *s, dem_aabb *box);

/* A cylinder container: the first cylinder wall (particles inside, radius > 0) whose axis lies
 * along a coordinate axis, between the tightest pair of plane walls across that axis facing each
 * other. Returns 1 and fills the wall, its axis (0, 1, 2) and the end planes' coordinates
 * lo < hi; 0 if the walls make no such container. */
int dem_walls_cylinder(const dem_system *s, const dem_wall **cyl, int *axis, double *lo, double *hi);

/* ---- measurements of one frame ------------------------------------------------------------ */
/* Sphere volume 4/3 pi r^3, m^3. */
double dem_sphere_volume(double r);
/* Per particle index (malloc'd; NULL when out of memory): 1 for a free sphere; for a rigid clump's
 * member, its clump's union volume (mass over the members' density) over the sum of its members'
 * sphere volumes, so that sphere volumes times these count each clump's volume once. */
double *dem_clump_volume_shares(const dem_system *s);

/* Contact records with overlap > 0: between two particles, and between a particle and a wall.
 * Records with overlap <= 0 (kept for their history, or for adhesion) are not contacts. */
void dem_count_contacts(const dem_system *s, size_t *particle_contacts, size_t *wall_contacts);

/* Mean coordination number Z = 2 C / N with C the particle-particle contacts and N the
 * particles (walls excluded, rattlers included); nan if N = 0. */
double dem_coordination(size_t particle_contacts, size_t particles);

/* Plain (unweighted) mean particle velocity, m/s; nan components if there are no particles. */
dem_vec3 dem_mean_velocity(const dem_system *s);

/* Granular temperature dv = 1/(3N) sum_i |vbar - v_i|^2, m^2/s^2, the velocity fluctuation of
 * De Klerk et al., J. Comput. Phys. 462 (2022) 111253, eq 36 (vbar: plain mean velocity);
 * nan if there are no particles. */
double dem_granular_temperature(const dem_system *s);

/* Translational kinetic energy sum 1/2 m |v|^2 and rotational sum 1/2 I |w|^2, J (fixed
 * particles included: a prescribed motion carries energy too). */
double dem_kinetic_energy_t(const dem_system *s);
double dem_kinetic_energy_r(const dem_system *s);

/* A frame's particles one at a time: record k of s's table, or, with src (a simulator's arrays:
 * io/stream.h's dem_particle_source), src's record k copied into the slot-th of two buffers (a
 * contact reads two at once); s gives the rest (the count, the cell, the clumps). What a frame's
 * energies read without a particle table (dem_sim_energy_reference). A source that fails leaves
 * a zeroed record, and st and *err say why (the first failure). */
typedef struct {
    const dem_system *s;
    const dem_particle_source *src;
    dem_particle buf[2];
    dem_status st;
    dem_error *err;
} dem_particle_reader;
void dem_particle_reader_init(dem_particle_reader *r, const dem_system *s, const dem_particle_source *src, dem_error *err);
const dem_particle *dem_particle_read(dem_particle_reader *r, size_t k, int slot);
/* dem_kinetic_energy_t and _r over a reader's particles: the same sums in the same order. */
double dem_kinetic_energy_t_read(dem_particle_reader *r);
double dem_kinetic_energy_r_read(dem_particle_reader *r);

/* Where the volume of the solid fraction came from. */
typedef enum {
    DEM_VOLUME_NONE = 0, /* no volume known: solid fraction nan */
    DEM_VOLUME_CELL,     /* the periodic cell, |det H|; every particle counted */
    DEM_VOLUME_BOX,      /* a box given by the user; particles whose centre lies inside */
    DEM_VOLUME_WALLS,    /* the box of six axis-aligned plane walls; every particle counted */
    DEM_VOLUME_CYLINDER  /* a cylinder wall (particles inside) along a coordinate axis between two
                          * plane walls across that axis: pi R^2 h; every particle counted */
} dem_volume_source;

/* Solid fraction: sum of the sphere volumes over the control volume, chosen in this order:
 * the periodic cell if the frame has one; else *box if box is not NULL; else the box of six
 * axis-aligned plane walls; else a cylinder container (DEM_VOLUME_CYLINDER); else none (nan).
 * With a user box, each sphere counts with the exact part of its volume inside the box
 * (overlap_volume.h); with the cell or a container, every sphere counts whole. Fills the volume
 * used (m^3, nan if none) and its source when those pointers are not NULL. */
double dem_solid_fraction(const dem_system *s, const dem_aabb *box, double *volume,
                          dem_volume_source *source);

/* Everything dem-probe's summary prints about one frame. With a box (and no periodic cell),
 * particles, contacts, wall_contacts and the coordination numbers refer to the particles whose
 * centre lies in the box (coordination.h), the solid fraction to the parts of the spheres in
 * it; the means, the temperature, the energies and the unbalanced ratio to the whole frame. */
typedef struct {
    size_t particles;
    size_t contacts;             /* particle-particle records with overlap > 0 */
    size_t wall_contacts;        /* particle-wall records with overlap > 0 */
    double coordination;         /* 2 contacts / particles (see coordination.h with a box) */
    double volume;               /* m^3 of the solid fraction, nan if none */
    dem_volume_source volume_source;
    double solid_fraction;       /* - */
    dem_vec3 vel_mean;           /* m/s */
    double granular_temperature; /* m^2/s^2 */
    double ekin_t, ekin_r;       /* J */
    double coordination_mech;    /* without rattlers (coordination.h) */
    double rattler_fraction;
    double unbalanced;           /* unbalanced.h */
} dem_summary;

/* box: the user's control volume, or NULL (see dem_solid_fraction); rattler_contacts: K of
 * coordination.h (>= 1). Fails out of memory or on a contact naming a missing particle. */
DEM_MUST_CHECK dem_status dem_summarize(const dem_system *s, const dem_aabb *box, unsigned rattler_contacts, dem_summary *out,
                         dem_error *err);

/* The container a default measure used, in words for a note on standard error: which volume
 * (the box of the six walls or the cylinder, its size in m^3) and, if the particles fill less
 * than 90% of the walls' box along an axis, how far they reach, e.g. "the box enclosed by the
 * six walls, 1.2e-05 m^3; the particles reach z = 0.011 of the box's 0 to 0.04". Returns that
 * axis (0, 1, 2; the one they fill least), or -1; buf is empty for other sources. */
int dem_container_note(const dem_system *s, dem_volume_source source, double volume, char *buf, size_t size);

/* ---- particle lookup by id ---------------------------------------------------------------- */
typedef struct {
    uint64_t id;
    size_t index;
} dem_id_slot;

/* Sorted (id, index) pairs of one frame; rebuild it for every frame, the storage is reused. In a
 * frame with rigid clumps it also holds, per particle index, body[k]: the vector from particle k's
 * body centre to its centre: R(q_c) b for a clump's member (b its body-frame position, q_c its
 * clump's orientation), 0 for a free sphere (NULL without clumps). A clump is one body: the
 * Love-Weber sum's branch vectors join body centres (dem_stress_add_contact). */
typedef struct {
    dem_id_slot *slots;
    size_t n, cap;
    dem_vec3 *body;
    size_t cap_body;
} dem_id_index;

void dem_id_index_init(dem_id_index *ix);
DEM_MUST_CHECK dem_status dem_id_index_build(dem_id_index *ix, const dem_system *s, dem_error *err);
/* The same over a reader's particles (the table's or a source's, in its order). */
DEM_MUST_CHECK dem_status dem_id_index_build_read(dem_id_index *ix, dem_particle_reader *r, dem_error *err);
/* Index of the particle with this id in s->particles, or SIZE_MAX if there is none. */
size_t dem_id_index_find(const dem_id_index *ix, uint64_t id);
void dem_id_index_free(dem_id_index *ix);

/* A contact is selected when particle i matches sel or j is a particle that matches sel.
 * sel NULL selects everything; ix must have been built for s. */
int dem_contact_selected(const dem_system *s, const dem_id_index *ix, const dem_select *sel,
                         const dem_contact *c);
/* Position of the contact partner j as seen from i: x_j + H shift in a periodic cell. Only for
 * particle-particle contacts; j must exist (dem_system_check guarantees it). */
dem_vec3 dem_contact_partner_pos(const dem_system *s, const dem_id_index *ix, const dem_contact *c);

/* ---- TSV ---------------------------------------------------------------------------------- */
#define DEM_COLUMN_NAME_MAX 64
/* "name[unit]", or "name" when unit is NULL, empty or "-". Spaces in a unit become '*'
 * ("kg*m^2") so that no column name contains a blank. */
void dem_column_name(char *buf, size_t size, const char *name, const char *unit);
/* One value: integer field types in decimal (u64 exactly), doubles via dem_format_double. */
void dem_tsv_double(FILE *out, double v);
void dem_tsv_field(FILE *out, const dem_field *f, const void *rec);
/* DEM_ERR_IO naming errno if out has its error flag set, else DEM_OK. */
DEM_MUST_CHECK dem_status dem_tsv_check(FILE *out, dem_error *err);

/* The frame columns every row starts with: frame, step, time[s]. */
void dem_tsv_frame_header(FILE *out);
void dem_tsv_frame_cells(FILE *out, uint64_t frame, const dem_system *s);

/* The header and row writers below return DEM_ERR_IO if writing to out failed. */

/* Summary: one row per frame. */
DEM_MUST_CHECK dem_status dem_tsv_summary_header(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_summary_row(FILE *out, uint64_t frame, const dem_system *s, const dem_summary *sum,
                               dem_error *err);

/* The walls: one row per wall per frame, its index (as dem-step --wall-velocity K names it) and
 * the WALL record's fields, kind as a name (plane, cylinder). */
DEM_MUST_CHECK dem_status dem_tsv_walls_header(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_walls_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err);

/* The bonds (format 1.5): one row per bond per frame, the BOND record's fields and the bond's
 * elastic energy kb delta^2 / 2 (J). */
DEM_MUST_CHECK dem_status dem_tsv_bonds_header(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_bonds_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err);
/* Rigid clumps (format 1.6): one row per clump per frame, the CLMP record's fields (formats/dem-stream.md
 * §5.6), then its member count and its kinetic energy 1/2 m v^2 + 1/2 L.w (J). */
DEM_MUST_CHECK dem_status dem_tsv_clumps_header(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_clumps_rows(FILE *out, uint64_t frame, const dem_system *s, dem_error *err);

/* The periodic cell: one row per frame, the CELL record's fields (flags, stress_mask, origin,
 * H by rows h11..h33 whose columns are the cell vectors, L, the servo's target stress, F) and
 * |det H|. A frame without a cell is DEM_ERR_VALUE. */
DEM_MUST_CHECK dem_status dem_tsv_cell_header(FILE *out, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_cell_row(FILE *out, uint64_t frame, const dem_system *s, dem_error *err);

/* Particle columns: the fixed ones (id x y z vx vy vz wx wy wz fx fy fz r), then extras. */
#define DEM_PARTICLE_COLUMNS_MAX 64
typedef struct {
    const dem_field *fields[DEM_PARTICLE_COLUMNS_MAX];
    size_t n;
} dem_particle_columns;

void dem_particle_columns_default(dem_particle_columns *c);
/* Append the comma-separated particle field names of list ("mass,q0", or "all" for every field
 * not shown yet). A name already shown is skipped; an unknown name is DEM_ERR_ARG, the message
 * lists the valid names. */
DEM_MUST_CHECK dem_status dem_particle_columns_add(dem_particle_columns *c, const char *list, dem_error *err);
DEM_MUST_CHECK dem_status dem_tsv_particles_header(FILE *out, const dem_particle_columns *c, dem_error *err);
/* One row per particle matching sel (NULL: all), in id order if order (an index built for s) is
 * given, else in the frame's order (which dem-step's spatial sort changes). */
DEM_MUST_CHECK dem_status dem_tsv_particles_rows(FILE *out, uint64_t frame, const dem_system *s,
                                  const dem_particle_columns *c, const dem_select *sel, const dem_id_index *order,
                                  dem_error *err);

/* Contacts: frame step time[s] i j wall sx sy sz overlap[m] nx ny nz fnx[N] fny fnz ftx[N] fty ftz
 * sliding diss_friction[J] diss_damp_n[J] diss_damp_t[J] h0 .. h{hist_slots-1}. A frame with fewer
 * slots pads with nan, one with more prints its first hist_slots. */
DEM_MUST_CHECK dem_status dem_tsv_contacts_header(FILE *out, unsigned hist_slots, dem_error *err);
/* One row per contact selected by sel (see dem_contact_selected); ix built for s. */
DEM_MUST_CHECK dem_status dem_tsv_contacts_rows(FILE *out, uint64_t frame, const dem_system *s, unsigned hist_slots,
                                 const dem_id_index *ix, const dem_select *sel, dem_error *err);

#endif
