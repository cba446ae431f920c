/* registry.c - the sub-model registries: one row per file of lib/laws/ (normal_*.c, damping_*.c,
 * tangential_*.c), looked up by name. */
#include "laws/laws.h"
#include "laws/rolling.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- registries: one row per lib/law_*.c ---------------------------------------------------- */
const dem_normal_model *const dem_normal_models[] = {&dem_law_hooke, &dem_law_hertz, &dem_law_dmt, &dem_law_jkr};
const int dem_normal_count = (int)(sizeof dem_normal_models / sizeof dem_normal_models[0]);
const dem_damping_model *const dem_damping_models[] = {&dem_law_damping_none, &dem_law_damping_viscous,
                                                       &dem_law_damping_restitution};
const int dem_damping_count = (int)(sizeof dem_damping_models / sizeof dem_damping_models[0]);
const dem_tangential_model *const dem_tangential_models[] = {&dem_law_tangential_none, &dem_law_tangential_history,
                                                             &dem_law_tangential_incremental, &dem_law_tangential_kuhn};
const int dem_tangential_count = (int)(sizeof dem_tangential_models / sizeof dem_tangential_models[0]);

/* The registry: one row per model file of lib/laws/, by kind, with what each reads. Kuhn's law
 * keeps its spring in slots 0-2 like the other springs (its step's dissipation lives in the
 * store's record between its evaluation and its books, not in a frame's slot). */
#define R_MU DEM_READS_FRICTION
const dem_model_row dem_model_registry[] = {
    {DEM_MODEL_NORMAL, &dem_law_hooke, 0, 0},
    {DEM_MODEL_NORMAL, &dem_law_hertz, 0, 0},
    {DEM_MODEL_NORMAL, &dem_law_dmt, DEM_READS_SURFACE_ENERGY, 0},
    {DEM_MODEL_NORMAL, &dem_law_jkr, DEM_READS_SURFACE_ENERGY, 0},
    {DEM_MODEL_DAMPING, &dem_law_damping_none, 0, 0},
    {DEM_MODEL_DAMPING, &dem_law_damping_viscous, 0, 0},
    {DEM_MODEL_DAMPING, &dem_law_damping_restitution, DEM_READS_RESTITUTION, 0},
    {DEM_MODEL_TANGENTIAL, &dem_law_tangential_none, 0, 0},
    {DEM_MODEL_TANGENTIAL, &dem_law_tangential_history, R_MU, DEM_SLOTS(0, 2)},
    {DEM_MODEL_TANGENTIAL, &dem_law_tangential_incremental, R_MU, DEM_SLOTS(0, 2)},
    {DEM_MODEL_TANGENTIAL, &dem_law_tangential_kuhn, R_MU, DEM_SLOTS(0, 2)},
    {DEM_MODEL_ROLLING, &dem_law_rolling_none, 0, 0},
    {DEM_MODEL_ROLLING, &dem_law_rolling_sds, DEM_READS_ROLLING_FRICTION, DEM_SLOTS(3, 11)},
    {DEM_MODEL_ROLLING, &dem_law_rolling_epsd, DEM_READS_ROLLING_FRICTION, DEM_SLOTS(3, 11)},
    {DEM_MODEL_TWISTING, &dem_law_twisting_none, 0, 0},
    {DEM_MODEL_TWISTING, &dem_law_twisting_sds, DEM_READS_TWISTING_FRICTION, DEM_SLOTS(3, 11)},
    {DEM_MODEL_TWISTING, &dem_law_twisting_marshall, R_MU, DEM_SLOTS(3, 11)},
};
#undef R_MU
const int dem_model_registry_count = (int)(sizeof dem_model_registry / sizeof dem_model_registry[0]);
_Static_assert(offsetof(dem_normal_model, name) == 0 && offsetof(dem_damping_model, name) == 0 &&
                   offsetof(dem_tangential_model, name) == 0 && offsetof(dem_resist_model, name) == 0,
               "every model struct starts with its name");

const dem_model_row *dem_model_row_of(int kind, int k)
{
    for (int r = 0; r < dem_model_registry_count; r++)
        if (dem_model_registry[r].kind == kind && k-- == 0) return &dem_model_registry[r];
    return NULL;
}

int dem_model_count(int kind)
{
    int n = 0;
    for (int r = 0; r < dem_model_registry_count; r++) n += dem_model_registry[r].kind == kind;
    return n;
}

const char *dem_model_name(int kind, int k)
{
    const dem_model_row *row = k >= 0 ? dem_model_row_of(kind, k) : NULL;
    return row ? *(const char *const *)row->model : NULL;
}

int dem_model_find(int kind, const char *name)
{
    for (int k = 0; k < dem_model_count(kind); k++)
        if (strcmp(dem_model_name(kind, k), name) == 0) return k;
    return -1;
}

void dem_model_names(char *buf, unsigned size, int kind)
{
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < dem_model_count(kind) && at < size; k++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? ", " : "", dem_model_name(kind, k));
}

/* The settings' model of each kind. */
static int chosen(const dem_settings *st, int kind)
{
    switch (kind) {
    case DEM_MODEL_NORMAL: return st->normal;
    case DEM_MODEL_DAMPING: return st->damping;
    case DEM_MODEL_TANGENTIAL: return st->tangential;
    case DEM_MODEL_ROLLING: return st->rolling;
    default: return st->twisting;
    }
}

int dem_inert_parameters(const dem_settings *st, const dem_material *m, size_t nmat, dem_inert_parameter *out, int max)
{
    static const struct {
        unsigned bit;
        const char *name;
        size_t offset;
        double unset; /* the value that asks nothing of any model (restitution 1: no dissipation) */
    } params[] = {{DEM_READS_ROLLING_FRICTION, "rolling_friction", offsetof(dem_material, rolling_friction), 0.0},
                  {DEM_READS_TWISTING_FRICTION, "twisting_friction", offsetof(dem_material, twisting_friction), 0.0},
                  {DEM_READS_SURFACE_ENERGY, "surface_energy", offsetof(dem_material, surface_energy), 0.0},
                  {DEM_READS_FRICTION, "friction", offsetof(dem_material, friction), 0.0},
                  {DEM_READS_RESTITUTION, "restitution", offsetof(dem_material, restitution), 1.0}};
    static const char *const kind_keys[DEM_MODEL_KINDS] = {"model.normal", "model.damping", "model.tangential",
                                                           "model.rolling", "model.twisting"};
    unsigned read = 0;
    for (int kind = 0; kind < DEM_MODEL_KINDS; kind++) {
        const dem_model_row *row = dem_model_row_of(kind, chosen(st, kind));
        if (row) read |= row->reads;
    }
    int count = 0;
    for (size_t k = 0; k < sizeof params / sizeof params[0] && count < max; k++) {
        if (read & params[k].bit) continue;
        int kind = -1; /* the first kind with a model that reads it */
        for (int r = 0; r < dem_model_registry_count && kind < 0; r++)
            if (dem_model_registry[r].reads & params[k].bit) kind = dem_model_registry[r].kind;
        if (kind < 0) continue;
        for (size_t a = 0; a < nmat; a++) {
            double v;
            memcpy(&v, (const char *)&m[a] + params[k].offset, sizeof v);
            if (v == params[k].unset) continue;
            dem_inert_parameter *p = &out[count++];
            p->parameter = params[k].name;
            memcpy(p->material, m[a].name, DEM_NAME_MAX);
            p->material[DEM_NAME_MAX] = 0;
            p->value = v;
            p->setting = kind_keys[kind];
            p->model = dem_model_name(kind, chosen(st, kind));
            size_t at = 0, n = 0;
            p->readers[0] = 0;
            for (int j = 0; j < dem_model_count(kind); j++)
                if (dem_model_row_of(kind, j)->reads & params[k].bit) n++;
            for (int j = 0, i = 0; j < dem_model_count(kind) && at < sizeof p->readers; j++)
                if (dem_model_row_of(kind, j)->reads & params[k].bit) {
                    i++;
                    at += (size_t)snprintf(p->readers + at, sizeof p->readers - at, "%s%s", i == 1 ? "" : i == (int)n ? " or " : ", ",
                                           dem_model_name(kind, j));
                }
            break;
        }
    }
    return count;
}
