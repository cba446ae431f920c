/* fields.h - the record layouts of the dem stream as data.
 *
 * Each record type (particle, contact, wall, ...) is a table of scalar fields: name, stream type,
 * unit and where the value lives in the in-memory struct. The same table drives the encoder, the
 * decoder, dem-probe's column selection and the unit test that keeps formats/dem-stream.md honest,
 * so there is one place that says what a record is. */
#ifndef DEM_FIELDS_H
#define DEM_FIELDS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    DEM_FT_U32,   /* uint32, little-endian */
    DEM_FT_I32,   /* int32, two's complement, little-endian */
    DEM_FT_U64,   /* uint64, little-endian */
    DEM_FT_F64,   /* IEEE-754 binary64, little-endian */
    DEM_FT_CHAR32 /* 32 bytes of UTF-8, NUL padded */
} dem_ftype;

typedef struct {
    const char *name;   /* column name: "x", "vx", "radius", ... */
    dem_ftype type;
    size_t offset;      /* byte offset of the value in the in-memory struct */
    const char *unit;   /* SI unit, "-" when dimensionless */
    const char *desc;   /* one line for the spec and --help */
} dem_field;

typedef struct {
    const char *tag;         /* section tag, 4 ASCII bytes: "PART" */
    const char *name;        /* "particle" */
    const dem_field *fields;
    size_t nfields;
    size_t struct_size;      /* sizeof the in-memory struct */
    unsigned base_size;      /* stream bytes of one record in format version 1.0 */
} dem_record_type;

extern const dem_record_type dem_rec_head, dem_rec_material, dem_rec_wall, dem_rec_cell,
    dem_rec_clump, dem_rec_particle, dem_rec_contact, dem_rec_energy, dem_rec_bond, dem_rec_member;

/* Stream bytes taken by one field of the given type. */
unsigned dem_ftype_size(dem_ftype t);
/* Stream bytes of one record (without the contact history slots). */
unsigned dem_record_size(const dem_record_type *rt);
/* Field by name, or NULL. */
const dem_field *dem_record_field(const dem_record_type *rt, const char *name);
/* Encode one record from the struct at src into dst (dem_record_size bytes). */
void dem_record_encode(const dem_record_type *rt, const void *src, uint8_t *dst);
/* Decode the fields that fit in rec_size bytes; fields beyond keep the values already in dst. */
void dem_record_decode(const dem_record_type *rt, const uint8_t *src, unsigned rec_size, void *dst);
/* The same for count records stored stride bytes apart in memory and rec_size bytes apart in the
 * stream. Field by field over the batch: the inner loops are branch-free, which is what makes
 * 10^6-particle frames cheap to encode. */
void dem_record_encode_n(const dem_record_type *rt, const void *src, size_t stride, size_t count,
                         uint8_t *dst, unsigned rec_size);
void dem_record_decode_n(const dem_record_type *rt, const uint8_t *src, unsigned rec_size, size_t count,
                         void *dst, size_t stride);
/* A field's value as a double (integers converted) for analysis and printing. */
double dem_field_as_double(const dem_field *f, const void *rec);
/* Names of the energy accumulators, in stream order ("ediss_friction", ...). */
extern const char *const dem_energy_names[];

#endif
