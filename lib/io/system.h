/* system.h - the in-memory form of one frame: everything needed to continue a simulation.
 *
 * A dem_system is what a frame of the dem stream holds (formats/dem-stream.md). Every program
 * reads frames into a dem_system, works on it, and writes it back. Arrays are owned by the
 * system and grown with the dem_system_push_* functions. Particles are referred to by their id
 * (stable across reordering), never by their index, wherever a record names another record. */
#ifndef DEM_SYSTEM_H
#define DEM_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/vec.h"

/* ---- materials ---------------------------------------------------------------------------- */
#define DEM_NAME_MAX 32 /* bytes of a material name in the stream, NUL padded */

typedef struct {
    char name[DEM_NAME_MAX];  /* UTF-8, NUL terminated within the 32 bytes */
    double density;           /* kg/m^3 */
    double young;             /* Young's modulus E, Pa */
    double poisson;           /* Poisson's ratio nu, - */
    double friction;          /* sliding friction coefficient mu, - */
    double restitution;       /* normal coefficient of restitution e, - */
    double rolling_friction;  /* rolling resistance coefficient mu_r, - */
    double twisting_friction; /* twisting resistance coefficient mu_o, - */
    double surface_energy;    /* adhesion (JKR/DMT) surface energy, J/m^2 */
} dem_material;

/* ---- particles ---------------------------------------------------------------------------- */
enum {
    DEM_PARTICLE_FIXED = 1u << 0 /* not integrated: driven at its velocity and angular velocity */
};

/* Field order keeps what the force loop reads together. */
typedef struct {
    dem_vec3 pos;     /* m */
    double radius;    /* m */
    dem_vec3 vel;     /* m/s */
    double mass;      /* kg */
    dem_vec3 omega;   /* angular velocity, rad/s */
    double inertia;   /* moment of inertia (sphere: 2/5 m r^2), kg m^2 */
    dem_vec3 force;   /* total force at the frame's time, N */
    dem_vec3 torque;  /* total torque at the frame's time, N m */
    dem_quat orient;  /* orientation, unit quaternion (w, x, y, z) */
    uint64_t id;      /* unique within a frame */
    uint64_t clump;   /* id of the rigid clump this sphere belongs to, 0 = none */
    uint32_t material;/* index into the materials table */
    uint32_t flags;   /* DEM_PARTICLE_* */
    uint32_t group;   /* interaction-group bit mask (default 1) */
    int32_t image[3]; /* periodic image counters: unwrapped = pos + H image */
} dem_particle;

/* ---- contacts ----------------------------------------------------------------------------- */
enum {
    DEM_CONTACT_WALL = 1u << 0,    /* j is a wall index, not a particle id */
    DEM_CONTACT_SLIDING = 1u << 1, /* the tangential force is at the Coulomb limit */
    DEM_CONTACT_NECK = 1u << 2,    /* an adhesive (jkr) contact held by its neck at overlap <= 0 (format 1.5) */
};

/* History slots a build can hold per contact; the stream says how many a frame uses. */
#define DEM_HIST_MAX 12

typedef struct {
    uint64_t i, j;       /* particle ids (j: wall index if DEM_CONTACT_WALL) */
    uint32_t flags;      /* DEM_CONTACT_* */
    int32_t shift[3];    /* periodic image of j seen by i: x_j' = x_j + H shift */
    double overlap;      /* delta = r_i + r_j - |x_ij|, m (positive in contact) */
    dem_vec3 normal;     /* unit normal from j to i */
    dem_vec3 fn;         /* normal force on i, N */
    dem_vec3 ft;         /* tangential force on i, N */
    double diss_friction;/* energy dissipated by sliding at this contact, J */
    double diss_damp_n;  /* energy dissipated by the normal dashpot, J */
    double diss_damp_t;  /* energy dissipated by the tangential dashpot, J */
    double hist[DEM_HIST_MAX]; /* model history, layout in formats/dem-stream.md */
} dem_contact;

/* ---- bonds (format 1.5) --------------------------------------------------------------------- */
/* A harmonic bond between two particles (De Klerk et al. 2022, §3.3): the potential kb delta^2 / 2 with
 * delta = r_i + r_j - |x_i - x_j'|, in compression (delta > 0) and in tension (delta < 0) alike.
 * A bonded pair interacts only through its bond: the contact law does not act between them. */
typedef struct {
    uint64_t i, j;       /* particle ids */
    uint32_t flags;      /* reserved, 0 */
    int32_t shift[3];    /* periodic image of j bonded to i: x_j' = x_j + H shift */
    double kb;           /* bond stiffness, N/m */
    double delta;        /* r_i + r_j - |x_i - x_j'| at the frame's state, m (negative stretched) */
    dem_vec3 f;          /* force of the bond on i, kb delta n (n from j to i), N; j receives -f */
} dem_bond;

/* ---- walls -------------------------------------------------------------------------------- */
typedef enum { DEM_WALL_PLANE = 1, DEM_WALL_CYLINDER = 2 } dem_wall_kind;
enum {
    DEM_WALL_OUTSIDE = 1u << 0 /* cylinder: particles are outside it (default inside) */
};

typedef struct {
    uint32_t kind;     /* dem_wall_kind */
    uint32_t material; /* index into the materials table */
    uint32_t flags;    /* DEM_WALL_* */
    dem_vec3 point;    /* a point on the plane, or on the cylinder axis, m */
    dem_vec3 normal;   /* plane: unit normal towards the particles; cylinder: unit axis */
    double radius;     /* cylinder radius, m (0 for planes) */
    dem_vec3 vel;      /* prescribed translational velocity, m/s */
    dem_vec3 omega;    /* prescribed angular velocity about point, rad/s */
    dem_vec3 force;    /* force exerted by the particles on the wall, N */
    dem_vec3 torque;   /* torque about point exerted by the particles, N m */
    double work;       /* cumulative work done by the wall on the particles, J */
} dem_wall;

/* ---- periodic cell ------------------------------------------------------------------------ */
enum {
    DEM_CELL_PERIODIC_A = 1u << 0, /* periodic along cell vector a (column 0 of H) */
    DEM_CELL_PERIODIC_B = 1u << 1,
    DEM_CELL_PERIODIC_C = 1u << 2,
};

typedef struct {
    uint32_t flags;       /* DEM_CELL_PERIODIC_*; 0 = no cell */
    uint32_t stress_mask; /* bit k of (xx,yy,zz,yz,xz,xy) set: that component is stress controlled */
    dem_vec3 origin;      /* m */
    dem_mat3 h;           /* columns are the cell vectors a, b, c, m */
    dem_mat3 vgrad;       /* velocity gradient L, dH/dt = L H, 1/s */
    dem_mat3 target_stress; /* target of the servo for masked components, Pa (compression > 0) */
    dem_mat3 deform;      /* F, the deformation gradient accumulated since the strain reference
                           * (dF/dt = L F; identity there; format 1.4; read as identity before) */
} dem_cell;

/* A cell with no deformation yet: every field 0 but F = I. */
dem_cell dem_cell_default(void);

/* ---- rigid clumps (bodies made of spheres) ----------------------------------------------- */
/* A rigid body made of member spheres (Šmilauer and Chareyre 2015, §1.5.3-1.5.4). Its state is
 * the centre of mass, velocity, orientation of the principal axes and angular momentum; omega is
 * derived from the angular momentum (omega = R I^-1 R^T L) and written for the reader's benefit.
 * The centre of mass is never wrapped into a periodic cell (the members carry the images). */
typedef struct {
    uint64_t id;
    double mass;        /* kg */
    dem_vec3 inertia;   /* principal moments, kg m^2 */
    dem_vec3 pos;       /* centre of mass, m */
    dem_vec3 vel;       /* m/s */
    dem_vec3 omega;     /* rad/s */
    dem_quat orient;    /* body frame (principal axes) to lab frame */
    dem_vec3 force;     /* N: the sum over the members (gravity on the clump's own mass) */
    dem_vec3 torque;    /* N m, about the centre of mass */
    dem_vec3 angmom;    /* angular momentum about the centre of mass, lab frame, kg m^2/s (format 1.6;
                         * older records: R I R^T omega) */
} dem_clump;

/* A member sphere's place in its clump (format 1.6, section CMBR): its centre in the clump's body
 * frame, x = x_c + R(q_c) body. One record per particle whose clump is not 0. */
typedef struct {
    uint64_t id;        /* the particle's id */
    uint64_t clump;     /* its clump's id (the particle record's clump) */
    dem_vec3 body;      /* centre in the body (principal) frame, m */
} dem_member;

/* ---- running energy accumulators ----------------------------------------------------------- */
typedef enum {
    DEM_E_DISS_FRICTION = 0, /* sliding friction, J */
    DEM_E_DISS_DAMP_N,       /* normal contact damping, J */
    DEM_E_DISS_DAMP_T,       /* tangential contact damping, J */
    DEM_E_DISS_LOCAL,        /* Cundall local (non-viscous) damping, J */
    DEM_E_DISS_DRAG,         /* drag damping, J */
    DEM_E_DISS_ROLLING,      /* rolling resistance, J */
    DEM_E_DISS_TWISTING,     /* twisting resistance, J */
    DEM_E_WORK_WALLS,        /* work done by walls on the particles, J */
    DEM_E_WORK_CELL,         /* work done by the deforming periodic cell, J */
    DEM_E_WORK_EXTERNAL,     /* work of any other prescribed motion or load, J */
    DEM_E_INITIAL,           /* budget reference: mechanical energy at step 0 (format 1.1), J; NaN: not known */
    DEM_E_AHEAD,             /* part of the accumulators after the frame's time (format 1.1), J */
    DEM_E_WORK_LAW,          /* work of the contact law itself: Mindlin's stiffness change at a given
                              * tangential stretch (format 1.2), J */
    DEM_E_COUNT
} dem_energy_index;

/* ---- settings: typed key/value parameters -------------------------------------------------- */
#define DEM_KEY_MAX 48
#define DEM_PARAM_STR_MAX 64
#define DEM_PARAM_F64_MAX 9

typedef enum { DEM_PARAM_I64 = 1, DEM_PARAM_F64 = 2, DEM_PARAM_STR = 3 } dem_param_type;

typedef struct {
    char key[DEM_KEY_MAX];
    uint8_t type;  /* dem_param_type */
    uint8_t count; /* number of doubles for DEM_PARAM_F64 (1..9) */
    union {
        int64_t i;
        double f[DEM_PARAM_F64_MAX];
        char s[DEM_PARAM_STR_MAX];
    } v;
} dem_param;

/* ---- the system --------------------------------------------------------------------------- */
enum {
    /* HEAD flags bit 0 (formats/dem-stream.md §5.1): the forces and torques of particles, walls
     * and contacts are those of exactly this state */
    DEM_HEAD_FORCES_CURRENT = 1u << 0
};

typedef struct {
    uint64_t step;  /* steps taken since the system was created */
    double time;    /* s */
    double dt;      /* time step, s (0: not chosen yet) */
    uint32_t flags; /* DEM_HEAD_* */

    dem_param *params;       size_t nparams, cap_params;
    dem_material *materials; size_t nmaterials, cap_materials;
    dem_wall *walls;         size_t nwalls, cap_walls;
    dem_cell cell;           /* cell.flags == 0: no periodic cell */
    dem_clump *clumps;       size_t nclumps, cap_clumps;
    dem_particle *particles; size_t nparticles, cap_particles;
    dem_contact *contacts;   size_t ncontacts, cap_contacts;
    uint32_t hist_slots;     /* history slots per contact in use (<= DEM_HIST_MAX) */
    double energy[DEM_E_COUNT];
    dem_bond *bonds;         size_t nbonds, cap_bonds; /* format 1.5 */
    dem_member *members;     size_t nmembers, cap_members; /* format 1.6: one per particle in a clump */
} dem_system;

void dem_system_init(dem_system *s);
void dem_system_free(dem_system *s);  /* frees arrays and re-initialises */
void dem_system_clear(dem_system *s); /* empties every table, keeps the allocations */
DEM_MUST_CHECK dem_status dem_system_copy(dem_system *dst, const dem_system *src, dem_error *err);

DEM_MUST_CHECK dem_status dem_system_push_particle(dem_system *s, const dem_particle *p, dem_error *err);
/* not yet DEM_MUST_CHECK: lib/sim/contacts.c (dem_sim_store) drops it after reserving room, which
 * the contact-store rewrite (issue 33) is to check */
DEM_MUST_CHECK dem_status dem_system_push_contact(dem_system *s, const dem_contact *c, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_push_material(dem_system *s, const dem_material *m, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_push_wall(dem_system *s, const dem_wall *w, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_push_clump(dem_system *s, const dem_clump *c, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_push_bond(dem_system *s, const dem_bond *b, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_push_member(dem_system *s, const dem_member *m, dem_error *err);
/* Reserve room for n particles (or contacts) in total. */
DEM_MUST_CHECK dem_status dem_system_reserve_particles(dem_system *s, size_t n, dem_error *err);
DEM_MUST_CHECK dem_status dem_system_reserve_contacts(dem_system *s, size_t n, dem_error *err);

/* A particle with every field at its documented default: identity orientation, group 1. */
dem_particle dem_particle_default(void);
/* A material with documented defaults (glass-like, see formats/dem-stream.md). */
dem_material dem_material_default(void);
/* Sphere mass and moment of inertia from radius and density. */
void dem_sphere_mass(double radius, double density, double *mass, double *inertia);

/* Parameters: set replaces a key's value; get returns NULL if the key is absent. */
DEM_MUST_CHECK dem_status dem_param_set_f64(dem_system *s, const char *key, const double *v, int count, dem_error *err);
DEM_MUST_CHECK dem_status dem_param_set_i64(dem_system *s, const char *key, int64_t v, dem_error *err);
DEM_MUST_CHECK dem_status dem_param_set_str(dem_system *s, const char *key, const char *v, dem_error *err);
const dem_param *dem_param_get(const dem_system *s, const char *key);
/* A reader's append: p goes after the last parameter without a search for its key (a frame's
 * 40,000 keys would cost 40,000^2/2 comparisons); the reader then calls dem_params_duplicate
 * once, which sorts the keys: n log n in all. */
DEM_MUST_CHECK dem_status dem_param_append(dem_system *s, const dem_param *p, dem_error *err);
/* The index of a parameter whose key an earlier one (from index `from` on) already has, or -1. */
long dem_params_duplicate(const dem_system *s, size_t from, dem_error *err);

/* The checks of one record that need no other record (dem_system_check makes them too): the
 * reader applies them as records are decoded, so an invalid record is refused before the rest of
 * a frame is inflated. k is the record's index, for the message. */
DEM_MUST_CHECK dem_status dem_particle_check_values(const dem_particle *p, size_t k, dem_error *err);
DEM_MUST_CHECK dem_status dem_contact_check_values(const dem_contact *c, size_t k, uint32_t hist_slots, dem_error *err);
DEM_MUST_CHECK dem_status dem_bond_check_values(const dem_bond *b, size_t k, dem_error *err);

/* Check every value for physical possibility (radius > 0, finite positions, unique ids, contacts
 * naming existing particles and walls, ...). The message names the record and field. */
DEM_MUST_CHECK dem_status dem_system_check(const dem_system *s, dem_error *err);
/* The part of dem_system_check that reads no particle, contact, clump or bond: time, dt, history
 * slots, materials, walls, the cell, the energy accumulators (a frame whose records a source
 * hands to the writer: dem_writer_put_sources). */
DEM_MUST_CHECK dem_status dem_system_check_head(const dem_system *s, dem_error *err);

/* Periodic cell volume |det H| (0 if there is no cell). */
double dem_cell_volume(const dem_cell *c);

/* The ranges of the toolchain (dem-pack refuses what lies outside them, dem-step and dem-reverse
 * too): radii in [DEM_RADIUS_MIN, DEM_RADIUS_MAX] m; every coordinate within DEM_COORD_MAX_RADII
 * radii of the origin, so that the doubles resolve a contact to better than 2^-12 of a radius;
 * periodic image counters, fractional coordinates and contact image shifts within
 * DEM_IMAGE_MAX cells; |gravity| at most DEM_GRAVITY_MAX m/s^2. */
#define DEM_RADIUS_MIN 1e-9
#define DEM_RADIUS_MAX 1e6
#define DEM_COORD_MAX_RADII 1099511627776.0 /* 2^40 */
#define DEM_IMAGE_MAX 1073741824            /* 2^30 */
#define DEM_GRAVITY_MAX 1e6
/* The cell's deformation gradient F and its inverse keep every component within
 * +-DEM_DEFORM_MAX: stretches between 1e-6 and 1e6 (Hencky strains of +-13.8) and shears up to
 * 1e6, where its Hencky strain 1/2 ln(F F^T) is still computed to a few ulp in doubles. Beyond
 * (F12 = 1e8, det F = 1e-300) the strain is NaN: dem-stress refused and --until strain never
 * fired. No element test comes near. */
#define DEM_DEFORM_MAX 1e6

#endif
