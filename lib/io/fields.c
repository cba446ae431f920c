/* fields.c - field tables of every record of the dem stream (formats/dem-stream.md). */
#include "io/fields.h"

#include <string.h>

#include "core/codec.h"
#include "io/system.h"

#define F(st, name, type, member, unit, desc) {name, type, offsetof(st, member), unit, desc}
#define V3(st, p, member, unit, desc)                                                            \
    F(st, p "x", DEM_FT_F64, member.x, unit, desc " (x)"),                                       \
    F(st, p "y", DEM_FT_F64, member.y, unit, desc " (y)"),                                       \
    F(st, p "z", DEM_FT_F64, member.z, unit, desc " (z)")
#define M3(st, p, member, unit, desc)                                                            \
    F(st, p "11", DEM_FT_F64, member.m[0][0], unit, desc), F(st, p "12", DEM_FT_F64, member.m[0][1], unit, desc), \
    F(st, p "13", DEM_FT_F64, member.m[0][2], unit, desc), F(st, p "21", DEM_FT_F64, member.m[1][0], unit, desc), \
    F(st, p "22", DEM_FT_F64, member.m[1][1], unit, desc), F(st, p "23", DEM_FT_F64, member.m[1][2], unit, desc), \
    F(st, p "31", DEM_FT_F64, member.m[2][0], unit, desc), F(st, p "32", DEM_FT_F64, member.m[2][1], unit, desc), \
    F(st, p "33", DEM_FT_F64, member.m[2][2], unit, desc)
#define Q4(st, member, desc)                                                                     \
    F(st, "q0", DEM_FT_F64, member.w, "-", desc " (w)"), F(st, "q1", DEM_FT_F64, member.x, "-", desc " (x)"), \
    F(st, "q2", DEM_FT_F64, member.y, "-", desc " (y)"), F(st, "q3", DEM_FT_F64, member.z, "-", desc " (z)")
#define N(a) (sizeof(a) / sizeof((a)[0]))
#define RECORD(var, tag, name, table, st, base)                                                  \
    const dem_record_type var = {tag, name, table, N(table), sizeof(st), base}

static const dem_field head_fields[] = {
    F(dem_system, "step", DEM_FT_U64, step, "-", "steps taken since the system was created"),
    F(dem_system, "time", DEM_FT_F64, time, "s", "simulated time"),
    F(dem_system, "dt", DEM_FT_F64, dt, "s", "time step (0: not chosen yet)"),
    F(dem_system, "flags", DEM_FT_U32, flags, "-", "bit 0: forces are current (§5.1)"),
};
RECORD(dem_rec_head, "HEAD", "header", head_fields, dem_system, 28);

static const dem_field material_fields[] = {
    F(dem_material, "name", DEM_FT_CHAR32, name, "-", "material name, UTF-8, NUL padded"),
    F(dem_material, "density", DEM_FT_F64, density, "kg/m^3", "density"),
    F(dem_material, "young", DEM_FT_F64, young, "Pa", "Young's modulus E"),
    F(dem_material, "poisson", DEM_FT_F64, poisson, "-", "Poisson's ratio"),
    F(dem_material, "friction", DEM_FT_F64, friction, "-", "sliding friction coefficient"),
    F(dem_material, "restitution", DEM_FT_F64, restitution, "-", "normal coefficient of restitution"),
    F(dem_material, "rolling_friction", DEM_FT_F64, rolling_friction, "-", "rolling resistance coefficient"),
    F(dem_material, "twisting_friction", DEM_FT_F64, twisting_friction, "-", "twisting resistance coefficient"),
    F(dem_material, "surface_energy", DEM_FT_F64, surface_energy, "J/m^2", "adhesive surface energy"),
};
RECORD(dem_rec_material, "MATL", "material", material_fields, dem_material, 96);

static const dem_field wall_fields[] = {
    F(dem_wall, "kind", DEM_FT_U32, kind, "-", "1 plane, 2 cylinder"),
    F(dem_wall, "material", DEM_FT_U32, material, "-", "index into the materials table"),
    F(dem_wall, "flags", DEM_FT_U32, flags, "-", "bit 0: particles outside the cylinder"),
    V3(dem_wall, "p", point, "m", "point on the plane or on the cylinder axis"),
    V3(dem_wall, "n", normal, "-", "plane: unit normal towards the particles; cylinder: unit axis"),
    F(dem_wall, "radius", DEM_FT_F64, radius, "m", "cylinder radius (0 for planes)"),
    V3(dem_wall, "v", vel, "m/s", "prescribed velocity"),
    V3(dem_wall, "w", omega, "rad/s", "prescribed angular velocity about the point"),
    V3(dem_wall, "f", force, "N", "force exerted by the particles on the wall"),
    V3(dem_wall, "t", torque, "N m", "torque about the point exerted by the particles"),
    F(dem_wall, "work", DEM_FT_F64, work, "J", "cumulative work done by the wall on the particles"),
};
RECORD(dem_rec_wall, "WALL", "wall", wall_fields, dem_wall, 172);

static const dem_field cell_fields[] = {
    F(dem_cell, "flags", DEM_FT_U32, flags, "-", "bits 0,1,2: periodic along a, b, c"),
    F(dem_cell, "stress_mask", DEM_FT_U32, stress_mask, "-", "bits 0..5: xx yy zz yz xz xy stress controlled"),
    V3(dem_cell, "o", origin, "m", "cell origin"),
    M3(dem_cell, "h", h, "m", "cell matrix H, columns are the cell vectors"),
    M3(dem_cell, "l", vgrad, "1/s", "velocity gradient L (dH/dt = L H)"),
    M3(dem_cell, "s", target_stress, "Pa", "target stress of the servo, compression positive"),
    M3(dem_cell, "f", deform, "-", "deformation gradient F since the strain reference (format 1.4)"),
};
RECORD(dem_rec_cell, "CELL", "periodic cell", cell_fields, dem_cell, 248);

static const dem_field clump_fields[] = {
    F(dem_clump, "id", DEM_FT_U64, id, "-", "clump id (particles refer to it)"),
    F(dem_clump, "mass", DEM_FT_F64, mass, "kg", "mass"),
    F(dem_clump, "i1", DEM_FT_F64, inertia.x, "kg m^2", "principal moment of inertia 1"),
    F(dem_clump, "i2", DEM_FT_F64, inertia.y, "kg m^2", "principal moment of inertia 2"),
    F(dem_clump, "i3", DEM_FT_F64, inertia.z, "kg m^2", "principal moment of inertia 3"),
    V3(dem_clump, "", pos, "m", "centre of mass"),
    V3(dem_clump, "v", vel, "m/s", "velocity"),
    V3(dem_clump, "w", omega, "rad/s", "angular velocity"),
    Q4(dem_clump, orient, "orientation of the principal axes"),
    V3(dem_clump, "f", force, "N", "force"),
    V3(dem_clump, "t", torque, "N m", "torque about the centre of mass"),
    /* format 1.6 */
    V3(dem_clump, "l", angmom, "kg m^2/s", "angular momentum about the centre of mass (format 1.6; the state w derives from)"),
};
RECORD(dem_rec_clump, "CLMP", "clump", clump_fields, dem_clump, 192);

/* format 1.6: written only when a frame has clumps */
static const dem_field member_fields[] = {
    F(dem_member, "id", DEM_FT_U64, id, "-", "id of the member particle"),
    F(dem_member, "clump", DEM_FT_U64, clump, "-", "id of its clump (the particle record's clump)"),
    V3(dem_member, "b", body, "m", "centre in the clump's body (principal) frame"),
};
RECORD(dem_rec_member, "CMBR", "clump member", member_fields, dem_member, 40);

static const dem_field particle_fields[] = {
    F(dem_particle, "id", DEM_FT_U64, id, "-", "unique particle id"),
    F(dem_particle, "material", DEM_FT_U32, material, "-", "index into the materials table"),
    F(dem_particle, "flags", DEM_FT_U32, flags, "-", "bit 0: fixed (not integrated: driven at vel, omega)"),
    F(dem_particle, "group", DEM_FT_U32, group, "-", "interaction-group bit mask"),
    F(dem_particle, "clump", DEM_FT_U64, clump, "-", "id of the clump it belongs to, 0 = none"),
    F(dem_particle, "r", DEM_FT_F64, radius, "m", "radius"),
    F(dem_particle, "mass", DEM_FT_F64, mass, "kg", "mass"),
    F(dem_particle, "inertia", DEM_FT_F64, inertia, "kg m^2", "moment of inertia"),
    V3(dem_particle, "", pos, "m", "position"),
    V3(dem_particle, "v", vel, "m/s", "velocity"),
    V3(dem_particle, "w", omega, "rad/s", "angular velocity"),
    Q4(dem_particle, orient, "orientation quaternion"),
    V3(dem_particle, "f", force, "N", "force"),
    V3(dem_particle, "t", torque, "N m", "torque"),
    F(dem_particle, "ix", DEM_FT_I32, image[0], "-", "periodic image counter along a"),
    F(dem_particle, "iy", DEM_FT_I32, image[1], "-", "periodic image counter along b"),
    F(dem_particle, "iz", DEM_FT_I32, image[2], "-", "periodic image counter along c"),
};
RECORD(dem_rec_particle, "PART", "particle", particle_fields, dem_particle, 216);

static const dem_field contact_fields[] = {
    F(dem_contact, "i", DEM_FT_U64, i, "-", "id of particle i"),
    F(dem_contact, "j", DEM_FT_U64, j, "-", "id of particle j, or wall index if flags bit 0"),
    F(dem_contact, "flags", DEM_FT_U32, flags, "-", "bit 0: j is a wall; bit 1: sliding; bit 2: neck (jkr, overlap <= 0)"),
    F(dem_contact, "sx", DEM_FT_I32, shift[0], "-", "periodic image shift of j along a"),
    F(dem_contact, "sy", DEM_FT_I32, shift[1], "-", "periodic image shift of j along b"),
    F(dem_contact, "sz", DEM_FT_I32, shift[2], "-", "periodic image shift of j along c"),
    F(dem_contact, "overlap", DEM_FT_F64, overlap, "m", "overlap: r_i + r_j minus the distance of the centres"),
    V3(dem_contact, "n", normal, "-", "unit normal from j to i"),
    V3(dem_contact, "fn", fn, "N", "normal force on i"),
    V3(dem_contact, "ft", ft, "N", "tangential force on i"),
    F(dem_contact, "diss_friction", DEM_FT_F64, diss_friction, "J", "energy dissipated by sliding"),
    F(dem_contact, "diss_damp_n", DEM_FT_F64, diss_damp_n, "J", "energy dissipated by the normal dashpot"),
    F(dem_contact, "diss_damp_t", DEM_FT_F64, diss_damp_t, "J", "energy dissipated by the tangential dashpot"),
};
RECORD(dem_rec_contact, "CONT", "contact", contact_fields, dem_contact, 136);

/* format 1.5: its own section, written only when a frame has bonds */
static const dem_field bond_fields[] = {
    F(dem_bond, "i", DEM_FT_U64, i, "-", "id of particle i"),
    F(dem_bond, "j", DEM_FT_U64, j, "-", "id of particle j"),
    F(dem_bond, "flags", DEM_FT_U32, flags, "-", "reserved, 0"),
    F(dem_bond, "sx", DEM_FT_I32, shift[0], "-", "periodic image shift of j along a"),
    F(dem_bond, "sy", DEM_FT_I32, shift[1], "-", "periodic image shift of j along b"),
    F(dem_bond, "sz", DEM_FT_I32, shift[2], "-", "periodic image shift of j along c"),
    F(dem_bond, "kb", DEM_FT_F64, kb, "N/m", "bond stiffness: potential kb delta^2/2"),
    F(dem_bond, "delta", DEM_FT_F64, delta, "m", "r_i + r_j minus the distance of the centres (negative: stretched)"),
    V3(dem_bond, "f", f, "N", "force of the bond on i"),
};
RECORD(dem_rec_bond, "BOND", "bond", bond_fields, dem_bond, 72);

#define E(name, idx, unit, desc) {name, DEM_FT_F64, offsetof(dem_system, energy) + (idx) * sizeof(double), unit, desc}
static const dem_field energy_fields[] = {
    E("ediss_friction", DEM_E_DISS_FRICTION, "J", "dissipated by sliding friction"),
    E("ediss_damp_n", DEM_E_DISS_DAMP_N, "J", "dissipated by normal contact damping"),
    E("ediss_damp_t", DEM_E_DISS_DAMP_T, "J", "dissipated by tangential contact damping"),
    E("ediss_local", DEM_E_DISS_LOCAL, "J", "dissipated by local (Cundall) damping"),
    E("ediss_drag", DEM_E_DISS_DRAG, "J", "dissipated by drag damping"),
    E("ediss_rolling", DEM_E_DISS_ROLLING, "J", "dissipated by rolling resistance"),
    E("ediss_twisting", DEM_E_DISS_TWISTING, "J", "dissipated by twisting resistance"),
    E("work_walls", DEM_E_WORK_WALLS, "J", "work done by walls on the particles"),
    E("work_cell", DEM_E_WORK_CELL, "J", "work done by the deforming periodic cell"),
    E("work_external", DEM_E_WORK_EXTERNAL, "J", "work of other prescribed motions and loads"),
    /* format 1.1 */
    E("e_initial", DEM_E_INITIAL, "J", "the energy budget's reference: mechanical energy at step 0 (NaN: not known)"),
    E("e_ahead", DEM_E_AHEAD, "J", "part of the accumulators that belongs to the half step after the frame's time"),
    /* format 1.2 */
    E("work_law", DEM_E_WORK_LAW, "J", "energy the contact law creates: a tangential stiffness that follows the overlap (Mindlin); adhesive contacts forming and breaking (dmt, jkr); minus what a tangential spring holds when its contact opens while it sticks"),
};
RECORD(dem_rec_energy, "ENRG", "energy", energy_fields, dem_system, 80);

const char *const dem_energy_names[] = {
    "ediss_friction", "ediss_damp_n", "ediss_damp_t", "ediss_local", "ediss_drag",
    "ediss_rolling", "ediss_twisting", "work_walls", "work_cell", "work_external", "e_initial", "e_ahead", "work_law",
};

unsigned dem_ftype_size(dem_ftype t)
{
    switch (t) {
    case DEM_FT_U32:
    case DEM_FT_I32: return 4;
    case DEM_FT_U64:
    case DEM_FT_F64: return 8;
    case DEM_FT_CHAR32: return 32;
    }
    return 0;
}

unsigned dem_record_size(const dem_record_type *rt)
{
    unsigned n = 0;
    for (size_t k = 0; k < rt->nfields; k++) n += dem_ftype_size(rt->fields[k].type);
    return n;
}

const dem_field *dem_record_field(const dem_record_type *rt, const char *name)
{
    for (size_t k = 0; k < rt->nfields; k++)
        if (strcmp(rt->fields[k].name, name) == 0) return &rt->fields[k];
    return NULL;
}

void dem_record_encode(const dem_record_type *rt, const void *src, uint8_t *dst)
{
    dem_record_encode_n(rt, src, 0, 1, dst, dem_record_size(rt));
}

void dem_record_decode(const dem_record_type *rt, const uint8_t *src, unsigned rec_size, void *dst)
{
    dem_record_decode_n(rt, src, rec_size, 1, dst, 0);
}

void dem_record_encode_n(const dem_record_type *rt, const void *src, size_t stride, size_t count,
                         uint8_t *dst, unsigned rec_size)
{
    unsigned at = 0;
    for (size_t k = 0; k < rt->nfields; k++) {
        const dem_field *f = &rt->fields[k];
        const uint8_t *s = (const uint8_t *)src + f->offset;
        uint8_t *d = dst + at;
        switch (f->type) {
        case DEM_FT_U32:
        case DEM_FT_I32:
            for (size_t r = 0; r < count; r++) {
                uint32_t x;
                memcpy(&x, s + r * stride, 4);
                dem_put_u32(d + r * rec_size, x);
            }
            break;
        case DEM_FT_U64:
        case DEM_FT_F64:
            for (size_t r = 0; r < count; r++) {
                uint64_t x;
                memcpy(&x, s + r * stride, 8);
                dem_put_u64(d + r * rec_size, x);
            }
            break;
        case DEM_FT_CHAR32:
            for (size_t r = 0; r < count; r++) memcpy(d + r * rec_size, s + r * stride, 32);
            break;
        }
        at += dem_ftype_size(f->type);
    }
}

void dem_record_decode_n(const dem_record_type *rt, const uint8_t *src, unsigned rec_size, size_t count,
                         void *dst, size_t stride)
{
    unsigned at = 0;
    for (size_t k = 0; k < rt->nfields; k++) {
        const dem_field *f = &rt->fields[k];
        unsigned sz = dem_ftype_size(f->type);
        if (at + sz > rec_size) break; /* written by an older minor version: keep defaults */
        const uint8_t *s = src + at;
        uint8_t *d = (uint8_t *)dst + f->offset;
        switch (f->type) {
        case DEM_FT_U32:
        case DEM_FT_I32:
            for (size_t r = 0; r < count; r++) {
                uint32_t x = dem_get_u32(s + r * rec_size);
                memcpy(d + r * stride, &x, 4);
            }
            break;
        case DEM_FT_U64:
        case DEM_FT_F64:
            for (size_t r = 0; r < count; r++) {
                uint64_t x = dem_get_u64(s + r * rec_size);
                memcpy(d + r * stride, &x, 8);
            }
            break;
        case DEM_FT_CHAR32:
            for (size_t r = 0; r < count; r++) memcpy(d + r * stride, s + r * rec_size, 32);
            break;
        }
        at += sz;
    }
}

double dem_field_as_double(const dem_field *f, const void *rec)
{
    const uint8_t *v = (const uint8_t *)rec + f->offset;
    switch (f->type) {
    case DEM_FT_U32: { uint32_t x; memcpy(&x, v, 4); return (double)x; }
    case DEM_FT_I32: { int32_t x; memcpy(&x, v, 4); return (double)x; }
    case DEM_FT_U64: { uint64_t x; memcpy(&x, v, 8); return (double)x; }
    case DEM_FT_F64: { double x; memcpy(&x, v, 8); return x; }
    case DEM_FT_CHAR32: return 0.0;
    }
    return 0.0;
}
