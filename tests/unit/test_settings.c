/* test_settings.c - the settings table (lib/laws/settings.h): every row set from text, written
 * into a frame and read back; names, bounds and the combinations refused; a key found by its
 * option and its option by its key. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "dem.h"
#include "unit.h"

/* A value every row accepts, different from its default, as a user writes it. */
static const char *sample(const dem_setting *row)
{
    static char buf[64];
    switch (row->type) {
    case DEM_SETTING_VEC3: return "0.5,-1,-9.81";
    case DEM_SETTING_GROUPS: return "1:2,3:3";
    case DEM_SETTING_CHOICE:
    case DEM_SETTING_MODEL: return NULL; /* each name in turn, below */
    case DEM_SETTING_NUMBER:
        if (row->names) return row->names[1];
        if (row->bounds & DEM_BOUND_POW2) return "0.125";
        if (row->bounds & DEM_BOUND_WHOLE) return "7";
        if (row->offset == offsetof(dem_settings, vi_alpha)) return "0"; /* 0 or 0.5 */
        snprintf(buf, sizeof buf, "%.17g", isinf(row->hi) ? row->lo + 3.5 : 0.5 * (row->lo + row->hi));
        return buf;
    }
    return NULL;
}

static void test_every_row_round_trips(void)
{
    dem_error err;
    for (int k = 0; k < dem_setting_count; k++) {
        const dem_setting *row = &dem_setting_table[k];
        CHECK(dem_setting_find(row->key) == row);
        if (row->option) CHECK(dem_setting_by_option(row->option) == row);
        char names[200];
        dem_setting_names(row, ", ", names, sizeof names);
        const char *texts[8];
        int ntexts = 0;
        char copy[200];
        snprintf(copy, sizeof copy, "%s", names);
        if (row->type == DEM_SETTING_CHOICE || row->type == DEM_SETTING_MODEL)
            for (char *t = strtok(copy, ", "); t && ntexts < 8; t = strtok(NULL, ", ")) texts[ntexts++] = t;
        else texts[ntexts++] = sample(row);
        for (int t = 0; t < ntexts; t++) {
            dem_settings st, back;
            dem_settings_default(&st);
            /* what the name needs to make a runnable combination */
            if (strcmp(row->key, "model.tangential") == 0 && strcmp(texts[t], "kuhn") == 0) st.normal = DEM_NORMAL_HOOKE;
            if (strcmp(row->key, "model.normal") == 0 && strcmp(texts[t], "hooke") == 0) st.kn_rule = DEM_KN_HERTZ;
            if (strncmp(row->key, "variational.", 12) == 0) st.integrator = DEM_INTEGRATOR_VARIATIONAL;
            if (row->write == DEM_WRITE_ROLL) st.rolling = 1;
            if (strcmp(row->key, "model.kn_from") == 0 && strcmp(texts[t], "given") == 0) st.kn = 1e5;
            CHECK_MSG(dem_settings_set(&st, row->key, texts[t], &err) == DEM_OK, "%s = %s: %s", row->key, texts[t], err.msg);
            if (strcmp(row->key, "model.kn_from") == 0 && strcmp(texts[t], "given") == 0) st.normal = DEM_NORMAL_HOOKE;
            dem_system s;
            dem_system_init(&s);
            CHECK_MSG(dem_settings_write(&st, &s, &err) == DEM_OK, "%s = %s: %s", row->key, texts[t], err.msg);
            CHECK_MSG(dem_settings_read(&back, &s, &err) == DEM_OK, "%s = %s: %s", row->key, texts[t], err.msg);
            CHECK_MSG(memcmp(&st, &back, sizeof st) == 0, "%s = %s does not read back", row->key, texts[t]);
            dem_system_free(&s);
        }
    }
}

static void test_refusals(void)
{
    dem_settings st;
    dem_error err;
    dem_settings_default(&st);
    CHECK(dem_settings_set(&st, "model.normal", "hook", &err) != DEM_OK);
    CHECK(strstr(err.msg, "unknown 'hook' (hooke, hertz, dmt, jkr)") != NULL);
    CHECK(dem_settings_set(&st, "damping.drag", "0", &err) != DEM_OK);
    CHECK(strstr(err.msg, "damping.drag = 0 must lie in (0, 1]") != NULL);
    CHECK(dem_settings_set(&st, "damping.local", "1", &err) != DEM_OK);
    CHECK(strstr(err.msg, "must lie in [0, 1)") != NULL);
    CHECK(dem_settings_set(&st, "exact.quantum", "0.3", &err) != DEM_OK);
    CHECK(strstr(err.msg, "power of two") != NULL);
    CHECK(dem_settings_set(&st, "variational.alpha", "0.3", &err) != DEM_OK);
    CHECK(dem_settings_set(&st, "gravity", "0,0,2e6", &err) != DEM_OK);
    CHECK(dem_settings_set(&st, "no.such", "1", &err) != DEM_OK);
    /* --kn implies kn_from given */
    CHECK(dem_settings_set(&st, "model.kn", "1e5", &err) == DEM_OK && st.kn_rule == DEM_KN_GIVEN && st.kn == 1e5);
    /* combinations: kuhn needs hooke; rolling needs a tangential spring */
    dem_settings_default(&st);
    CHECK(dem_settings_set(&st, "model.tangential", "kuhn", &err) == DEM_OK);
    CHECK(dem_settings_check(&st, &err) != DEM_OK && strstr(err.msg, "needs model.normal hooke"));
    dem_settings_default(&st);
    CHECK(dem_settings_set(&st, "model.rolling", "sds", &err) == DEM_OK);
    CHECK(dem_settings_set(&st, "model.tangential", "none", &err) == DEM_OK);
    CHECK(dem_settings_check(&st, &err) != DEM_OK && strstr(err.msg, "takes its stiffness from the tangential spring"));
    /* used: --kt with hertz is inert, named with the model */
    char why[200];
    dem_settings_default(&st);
    CHECK(!dem_setting_used(&st, dem_setting_find("model.kt"), why, sizeof why));
    CHECK(strcmp(why, "only --normal hooke uses it, and --normal is hertz") == 0);
    CHECK(dem_setting_used(&st, dem_setting_find("gravity"), why, sizeof why));
}

/* The registry's rows of each kind are the typed tables' rows, in the same order (a frame's
 * setting is the index into the typed table); the inert check follows the declarations. */
static void test_registry(void)
{
    const void *const *typed[DEM_MODEL_KINDS] = {(const void *const *)dem_normal_models, (const void *const *)dem_damping_models,
                                                (const void *const *)dem_tangential_models, (const void *const *)dem_rolling_models,
                                                (const void *const *)dem_twisting_models};
    const int counts[DEM_MODEL_KINDS] = {dem_normal_count, dem_damping_count, dem_tangential_count, dem_rolling_count, dem_twisting_count};
    int total = 0;
    for (int kind = 0; kind < DEM_MODEL_KINDS; kind++) {
        CHECK(dem_model_count(kind) == counts[kind]);
        total += counts[kind];
        for (int k = 0; k < counts[kind]; k++) {
            CHECK(dem_model_row_of(kind, k) && dem_model_row_of(kind, k)->model == typed[kind][k]);
            CHECK(dem_model_find(kind, dem_model_name(kind, k)) == k);
        }
    }
    CHECK(total == dem_model_registry_count);
    CHECK(DEM_NORMAL_HOOKE == dem_model_find(DEM_MODEL_NORMAL, "hooke") && DEM_NORMAL_JKR == dem_model_find(DEM_MODEL_NORMAL, "jkr"));
    /* inert: friction with tangential none, named with the models that read it */
    dem_settings st;
    dem_settings_default(&st);
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "none");
    dem_material m = dem_material_default();
    m.friction = 0.5;
    m.restitution = 1.0;
    m.rolling_friction = 0.0;
    m.twisting_friction = 0.0;
    m.surface_energy = 0.0;
    dem_inert_parameter out[8];
    int n = dem_inert_parameters(&st, &m, 1, out, 8);
    CHECK(n == 1 && strcmp(out[0].parameter, "friction") == 0 && strcmp(out[0].setting, "model.tangential") == 0);
    CHECK(n == 1 && strcmp(out[0].model, "none") == 0 && strcmp(out[0].readers, "history, incremental or kuhn") == 0);
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "history");
    CHECK(dem_inert_parameters(&st, &m, 1, out, 8) == 0);
}

int main(void)
{
    test_registry();
    test_every_row_round_trips();
    test_refusals();
    UNIT_DONE();
}
