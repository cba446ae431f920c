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

/* The kinds: each one's typed table (the step indexes it with the setting's integer) seen as
 * rows whose first member is the model's name. */
static const struct {
    const void *const *rows;
    const int *count;
} kinds[DEM_MODEL_KINDS] = {
    [DEM_MODEL_NORMAL] = {(const void *const *)dem_normal_models, &dem_normal_count},
    [DEM_MODEL_DAMPING] = {(const void *const *)dem_damping_models, &dem_damping_count},
    [DEM_MODEL_TANGENTIAL] = {(const void *const *)dem_tangential_models, &dem_tangential_count},
    [DEM_MODEL_ROLLING] = {(const void *const *)dem_rolling_models, &dem_rolling_count},
    [DEM_MODEL_TWISTING] = {(const void *const *)dem_twisting_models, &dem_twisting_count},
};
_Static_assert(offsetof(dem_normal_model, name) == 0 && offsetof(dem_damping_model, name) == 0 &&
                   offsetof(dem_tangential_model, name) == 0 && offsetof(dem_resist_model, name) == 0,
               "every model struct starts with its name");

int dem_model_count(int kind) { return kind >= 0 && kind < DEM_MODEL_KINDS ? *kinds[kind].count : 0; }

const char *dem_model_name(int kind, int k)
{
    if (k < 0 || k >= dem_model_count(kind)) return NULL;
    const char *const *name = kinds[kind].rows[k];
    return *name;
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
