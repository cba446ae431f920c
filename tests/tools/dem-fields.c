/* dem-fields - print the stream's record layouts as the markdown tables of formats/dem-stream.md.
 * Usage: dem-fields TAG   (HEAD, MATL, WALL, CELL, CLMP, PART, CMBR, CONT, ENRG, BOND)
 * The spec's tables are checked against this output by tests/bats/spec.bats, so the spec cannot
 * drift from lib/fields.c. */
#include <stdio.h>
#include <string.h>

#include "io/fields.h"
#include "io/stream.h"

static const char *type_name(dem_ftype t)
{
    switch (t) {
    case DEM_FT_U32: return "u32";
    case DEM_FT_I32: return "i32";
    case DEM_FT_U64: return "u64";
    case DEM_FT_F64: return "f64";
    case DEM_FT_CHAR32: return "char[32]";
    }
    return "?";
}

int main(int argc, char **argv)
{
    const dem_record_type *all[] = {&dem_rec_head, &dem_rec_material, &dem_rec_wall, &dem_rec_cell,
                                    &dem_rec_clump, &dem_rec_particle, &dem_rec_contact, &dem_rec_energy, &dem_rec_bond,
                                    &dem_rec_member};
    if (argc != 2) {
        fprintf(stderr, "usage: dem-fields TAG\n");
        return 2;
    }
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        const dem_record_type *rt = all[k];
        if (strcmp(argv[1], rt->tag) != 0) continue;
        printf("| offset | name | type | unit | meaning |\n|---:|---|---|---|---|\n");
        unsigned at = 0;
        for (size_t f = 0; f < rt->nfields; f++) {
            const dem_field *fd = &rt->fields[f];
            printf("| %u | `%s` | %s | %s | %s |\n", at, fd->name, type_name(fd->type), fd->unit, fd->desc);
            at += dem_ftype_size(fd->type);
        }
        if (rt == &dem_rec_bond) printf("\nRecord size in format 1.5 (the section's first version): %u bytes.\n", at);
        else if (rt == &dem_rec_member) printf("\nRecord size in format 1.6 (the section's first version): %u bytes.\n", at);
        else if (at == rt->base_size) printf("\nRecord size in format 1.0: %u bytes.\n", at);
        else printf("\nRecord size in format 1.0: %u bytes; in format 1.%d: %u bytes.\n", rt->base_size, DEM_FORMAT_MINOR, at);
        return 0;
    }
    fprintf(stderr, "dem-fields: unknown tag '%s'\n", argv[1]);
    return 2;
}
