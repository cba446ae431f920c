/* registry.c - the sub-model registries: one row per file of lib/laws/ (normal_*.c, damping_*.c,
 * tangential_*.c), looked up by name. */
#include "laws/laws.h"
#include "laws/rolling.h"

#include <stdio.h>
#include <string.h>

/* ---- registries: one row per lib/law_*.c ---------------------------------------------------- */
const dem_normal_model *const dem_normal_models[] = {&dem_law_hooke, &dem_law_hertz, &dem_law_dmt, &dem_law_jkr};
const int dem_normal_count = 4;
const dem_damping_model *const dem_damping_models[] = {&dem_law_damping_none, &dem_law_damping_viscous,
                                                       &dem_law_damping_restitution};
const int dem_damping_count = 3;
const dem_tangential_model *const dem_tangential_models[] = {&dem_law_tangential_none, &dem_law_tangential_history,
                                                             &dem_law_tangential_incremental, &dem_law_tangential_kuhn};
const int dem_tangential_count = (int)(sizeof dem_tangential_models / sizeof dem_tangential_models[0]);

int dem_normal_find(const char *name)
{
    for (int k = 0; k < dem_normal_count; k++)
        if (strcmp(dem_normal_models[k]->name, name) == 0) return k;
    return -1;
}

int dem_damping_find(const char *name)
{
    for (int k = 0; k < dem_damping_count; k++)
        if (strcmp(dem_damping_models[k]->name, name) == 0) return k;
    return -1;
}

int dem_tangential_find(const char *name)
{
    for (int k = 0; k < dem_tangential_count; k++)
        if (strcmp(dem_tangential_models[k]->name, name) == 0) return k;
    return -1;
}

void dem_model_names(char *buf, unsigned size, int which)
{
    int n = which == 0 ? dem_normal_count : which == 1 ? dem_damping_count : which == 2 ? dem_tangential_count
          : which == 3 ? dem_rolling_count : dem_twisting_count;
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < n && at < size; k++) {
        const char *name = which == 0 ? dem_normal_models[k]->name
                         : which == 1 ? dem_damping_models[k]->name
                         : which == 2 ? dem_tangential_models[k]->name
                         : which == 3 ? dem_rolling_models[k]->name
                                      : dem_twisting_models[k]->name;
        at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? ", " : "", name);
    }
}

