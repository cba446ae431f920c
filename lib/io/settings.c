/* settings.c - a run's settings as the typed key/value entries of a frame's PARM section
 * (formats/dem-stream.md §7), and their parsed form dem_settings. */
#include "io/settings.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laws/laws.h"
#include "laws/rolling.h"

void dem_settings_default(dem_settings *st)
{
    memset(st, 0, sizeof *st);
    st->integrator = DEM_INTEGRATOR_VV_IMPROVED;
    st->normal = DEM_NORMAL_HERTZ;
    st->tangential = dem_tangential_find("history");
    st->damping = dem_damping_find("restitution");
    st->kn_rule = DEM_KN_HERTZ;
    st->vc = 1.0;
    st->max_overlap = 0.001;
    st->drag = 1.0;
    st->local_form = DEM_LOCAL_HANLEY;
    st->sort_every = 1000;
    st->vi_alpha = 0.5;
    st->vi_newton_tol = 1e-12;
    st->vi_newton_max = 50;
    st->vi_krylov_tol = 1e-13;
    st->grid = DEM_NEIGHBOR_AUTO;
    st->level_ratio = DEM_NEIGHBOR_LEVEL_RATIO;
    st->rolling_stiffness = 2.0;
    st->rolling_damping = 0.3;
    st->twisting_stiffness = 0.5;
    st->twisting_damping = 0.3;
}

static const char *const integrator_names[] = {"vv", "vv-improved", "variational"};
static const char *const kn_rule_names[] = {"given", "hertz", "yade", "overlap"};
static const char *const local_form_names[] = {"hanley", "yade"};
static const char *const carry_names[] = {"exact", "rescale", "project", "project-only", "none"};
static const char *const grid_names[] = {"auto", "bin", "multi"};

static int name_index(const char *const *names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0) return k;
    return -1;
}

int dem_carry_find(const char *name) { return name_index(carry_names, 5, name); }
int dem_neighbor_grid_find(const char *name) { return name_index(grid_names, 3, name); }
const char *dem_neighbor_grid_name(dem_neighbor_grid g) { return grid_names[g]; }

/* Every setting key: its type and where it goes. */
typedef enum { K_STR_INTEGRATOR, K_STR_NORMAL, K_STR_TANGENTIAL, K_STR_DAMPING, K_STR_KN_RULE,
               K_STR_LOCAL_FORM, K_STR_CARRY, K_STR_GRID, K_STR_ROLLING, K_STR_TWISTING, K_STR_IGNORE, K_F64, K_VEC3 } key_kind;

typedef struct {
    const char *key;
    key_kind kind;
    size_t offset; /* K_F64, K_VEC3 */
    int roll;      /* written only when a rolling or twisting model is on (frames without one keep their bits) */
} setting_key;

#define OFF(m) offsetof(dem_settings, m)
static const setting_key keys[] = {
    {"integrator", K_STR_INTEGRATOR, 0, 0},
    {"gravity", K_VEC3, OFF(gravity), 0},
    {"model.normal", K_STR_NORMAL, 0, 0},
    {"model.tangential", K_STR_TANGENTIAL, 0, 0},
    {"model.damping", K_STR_DAMPING, 0, 0},
    {"model.carry", K_STR_CARRY, 0, 0},
    {"model.kn_from", K_STR_KN_RULE, 0, 0},
    {"model.kn", K_F64, OFF(kn), 0},
    {"model.kt", K_F64, OFF(kt), 0},
    {"model.vc", K_F64, OFF(vc), 0},
    {"model.max_overlap", K_F64, OFF(max_overlap), 0},
    {"model.gamma_n", K_F64, OFF(gamma_n), 0},
    {"model.gamma_t", K_F64, OFF(gamma_t), 0},
    {"damping.local", K_F64, OFF(local_damping), 0},
    {"damping.local_form", K_STR_LOCAL_FORM, 0, 0},
    {"damping.drag", K_F64, OFF(drag), 0},
    {"neighbor.skin", K_F64, OFF(skin), 0},
    {"neighbor.sort_every", K_F64, OFF(sort_every), 0},
    {"neighbor.grid", K_STR_GRID, 0, 0},
    {"neighbor.level_ratio", K_F64, OFF(level_ratio), 0},
    {"cell.gain", K_F64, OFF(cell_gain), 0},
    {"cell.max_rate", K_F64, OFF(cell_max_rate), 0},
    {"interact.ignore", K_STR_IGNORE, 0, 0},
    {"exact.quantum", K_F64, OFF(exact_quantum), 0},
    {"variational.alpha", K_F64, OFF(vi_alpha), 0},
    {"variational.newton_tol", K_F64, OFF(vi_newton_tol), 0},
    {"variational.newton_max", K_F64, OFF(vi_newton_max), 0},
    {"variational.krylov_tol", K_F64, OFF(vi_krylov_tol), 0},
    {"variational.full_jacobian", K_F64, OFF(vi_full_jacobian), 0},
    {"model.rolling", K_STR_ROLLING, 0, 1},
    {"model.rolling_stiffness", K_F64, OFF(rolling_stiffness), 1},
    {"model.rolling_damping", K_F64, OFF(rolling_damping), 1},
    {"model.twisting", K_STR_TWISTING, 0, 1},
    {"model.twisting_stiffness", K_F64, OFF(twisting_stiffness), 1},
    {"model.twisting_damping", K_F64, OFF(twisting_damping), 1},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static dem_status read_key(dem_settings *st, const setting_key *k, const dem_param *p, dem_error *err)
{
    int want_str = k->kind <= K_STR_IGNORE;
    if (want_str && p->type != DEM_PARAM_STR)
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be a string", p->key);
    if (k->kind == K_F64 && !(p->type == DEM_PARAM_F64 && p->count == 1))
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be one number", p->key);
    if (k->kind == K_VEC3 && !(p->type == DEM_PARAM_F64 && p->count == 3))
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be 3 numbers", p->key);
    int idx = 0;
    char names[128];
    switch (k->kind) {
    case K_STR_INTEGRATOR:
        if ((idx = name_index(integrator_names, 3, p->v.s)) < 0)
            return dem_fail(err, DEM_ERR_VALUE, "setting integrator: unknown '%s' (vv, vv-improved, variational)", p->v.s);
        st->integrator = (dem_integrator)idx;
        return DEM_OK;
    case K_STR_NORMAL:
        if ((idx = dem_normal_find(p->v.s)) < 0) {
            dem_model_names(names, sizeof names, 0);
            return dem_fail(err, DEM_ERR_VALUE, "setting model.normal: unknown '%s' (%s)", p->v.s, names);
        }
        st->normal = idx;
        return DEM_OK;
    case K_STR_TANGENTIAL:
        if ((idx = dem_tangential_find(p->v.s)) < 0) {
            dem_model_names(names, sizeof names, 2);
            return dem_fail(err, DEM_ERR_VALUE, "setting model.tangential: unknown '%s' (%s)", p->v.s, names);
        }
        st->tangential = idx;
        return DEM_OK;
    case K_STR_DAMPING:
        if ((idx = dem_damping_find(p->v.s)) < 0) {
            dem_model_names(names, sizeof names, 1);
            return dem_fail(err, DEM_ERR_VALUE, "setting model.damping: unknown '%s' (%s)", p->v.s, names);
        }
        st->damping = idx;
        return DEM_OK;
    case K_STR_KN_RULE:
        if ((idx = name_index(kn_rule_names, 4, p->v.s)) < 0)
            return dem_fail(err, DEM_ERR_VALUE, "setting model.kn_from: unknown '%s' (given, hertz, yade, overlap)", p->v.s);
        st->kn_rule = (dem_kn_rule)idx;
        return DEM_OK;
    case K_STR_LOCAL_FORM:
        if ((idx = name_index(local_form_names, 2, p->v.s)) < 0)
            return dem_fail(err, DEM_ERR_VALUE, "setting damping.local_form: unknown '%s' (hanley, yade)", p->v.s);
        st->local_form = (dem_local_form)idx;
        return DEM_OK;
    case K_STR_CARRY:
        if ((idx = dem_carry_find(p->v.s)) < 0)
            return dem_fail(err, DEM_ERR_VALUE, "setting model.carry: unknown '%s' (" DEM_CARRY_NAMES ")", p->v.s);
        st->carry = (dem_carry)idx;
        return DEM_OK;
    case K_STR_GRID:
        if ((idx = dem_neighbor_grid_find(p->v.s)) < 0)
            return dem_fail(err, DEM_ERR_VALUE, "setting neighbor.grid: unknown '%s' (" DEM_NEIGHBOR_GRID_NAMES ")", p->v.s);
        st->grid = (dem_neighbor_grid)idx;
        return DEM_OK;
    case K_STR_ROLLING:
        if ((idx = dem_rolling_find(p->v.s)) < 0) {
            dem_model_names(names, sizeof names, 3);
            return dem_fail(err, DEM_ERR_VALUE, "setting model.rolling: unknown '%s' (%s)", p->v.s, names);
        }
        st->rolling = idx;
        return DEM_OK;
    case K_STR_TWISTING:
        if ((idx = dem_twisting_find(p->v.s)) < 0) {
            dem_model_names(names, sizeof names, 4);
            return dem_fail(err, DEM_ERR_VALUE, "setting model.twisting: unknown '%s' (%s)", p->v.s, names);
        }
        st->twisting = idx;
        return DEM_OK;
    case K_STR_IGNORE: return dem_settings_parse_ignore(st, p->v.s, err);
    case K_F64: memcpy((char *)st + k->offset, &p->v.f[0], sizeof(double)); return DEM_OK;
    case K_VEC3: memcpy((char *)st + k->offset, p->v.f, 3 * sizeof(double)); return DEM_OK;
    }
    return DEM_OK;
}

static dem_status check_settings(const dem_settings *st, dem_error *err)
{
#define BAD(...) dem_fail(err, DEM_ERR_VALUE, __VA_ARGS__)
    if (!dem_v3_isfinite(st->gravity)) return BAD("setting gravity must be finite");
    if (st->normal == DEM_NORMAL_HOOKE && st->kn_rule == DEM_KN_GIVEN && !(st->kn > 0.0 && isfinite(st->kn)))
        return BAD("setting model.kn = %g: the hooke law needs a positive kn (or model.kn_from hertz, yade, overlap)", st->kn);
    if (!(st->kt >= 0.0 && isfinite(st->kt))) return BAD("setting model.kt = %g must be >= 0", st->kt);
    if (st->tangential == dem_tangential_find("kuhn") && st->normal != DEM_NORMAL_HOOKE)
        return BAD("setting model.tangential kuhn needs model.normal hooke: Kuhn's contact is linear-frictional (seed 003), "
                   "not model.normal %s", dem_normal_models[st->normal]->name);
    if (dem_normal_models[st->normal]->pulloff > 0.0 && st->tangential != dem_tangential_find("history") &&
        st->tangential != dem_tangential_find("none"))
        return BAD("setting model.normal %s works with model.tangential history or none (Mindlin's 8 G* a at the adhesive "
                   "contact radius, capped at mu |F_n + 2 F_pulloff|), not model.tangential %s",
                   dem_normal_models[st->normal]->name, dem_tangential_models[st->tangential]->name);
    if (!(st->vc > 0.0 && isfinite(st->vc))) return BAD("setting model.vc = %g must be positive", st->vc);
    if (!(st->max_overlap > 0.0 && st->max_overlap < 1.0)) return BAD("setting model.max_overlap = %g must lie in (0, 1)", st->max_overlap);
    if (!(st->gamma_n >= 0.0 && isfinite(st->gamma_n))) return BAD("setting model.gamma_n = %g must be >= 0", st->gamma_n);
    if (!(st->gamma_t >= 0.0 && isfinite(st->gamma_t))) return BAD("setting model.gamma_t = %g must be >= 0", st->gamma_t);
    if (!(st->local_damping >= 0.0 && st->local_damping < 1.0)) return BAD("setting damping.local = %g must lie in [0, 1)", st->local_damping);
    if (!(st->drag > 0.0 && st->drag <= 1.0)) return BAD("setting damping.drag = %g must lie in (0, 1]", st->drag);
    if (!(st->skin >= 0.0 && isfinite(st->skin))) return BAD("setting neighbor.skin = %g must be >= 0", st->skin);
    if (!(st->cell_gain >= 0.0 && isfinite(st->cell_gain))) return BAD("setting cell.gain = %g must be >= 0 and finite", st->cell_gain);
    if (!(st->cell_max_rate >= 0.0 && isfinite(st->cell_max_rate)))
        return BAD("setting cell.max_rate = %g must be >= 0 and finite", st->cell_max_rate);
    if (!(st->sort_every >= 0.0 && st->sort_every <= 1e15 && st->sort_every == floor(st->sort_every)))
        return BAD("setting neighbor.sort_every = %g must be a whole number of steps >= 0", st->sort_every);
    if (!(st->level_ratio > 1.0 && st->level_ratio <= 1e6))
        return BAD("setting neighbor.level_ratio = %g must lie in (1, 1e6]", st->level_ratio);
    if (!(st->exact_quantum >= 0.0 && isfinite(st->exact_quantum)) ||
        (st->exact_quantum > 0.0 && frexp(st->exact_quantum, &(int){0}) != 0.5))
        return BAD("setting exact.quantum = %g must be 0 (off) or a positive power of two", st->exact_quantum);
    if (!(st->vi_alpha == 0.0 || st->vi_alpha == 0.5))
        return BAD("setting variational.alpha = %g must be 0 (first order) or 0.5 (second order)", st->vi_alpha);
    if (!(st->vi_newton_tol > 0.0 && st->vi_newton_tol < 1.0)) return BAD("setting variational.newton_tol = %g must lie in (0, 1)", st->vi_newton_tol);
    if (!(st->vi_full_jacobian == 0.0 || st->vi_full_jacobian == 1.0))
        return BAD("setting variational.full_jacobian = %g must be 0 or 1", st->vi_full_jacobian);
    if (!(st->vi_krylov_tol > 0.0 && st->vi_krylov_tol < 1.0)) return BAD("setting variational.krylov_tol = %g must lie in (0, 1)", st->vi_krylov_tol);
    if (!(st->vi_newton_max >= 1.0 && st->vi_newton_max <= 1e6 && st->vi_newton_max == floor(st->vi_newton_max)))
        return BAD("setting variational.newton_max = %g must be a whole number in 1..1000000", st->vi_newton_max);
    if (!(st->rolling_stiffness > 0.0 && isfinite(st->rolling_stiffness)))
        return BAD("setting model.rolling_stiffness = %g must be positive", st->rolling_stiffness);
    if (!(st->twisting_stiffness > 0.0 && isfinite(st->twisting_stiffness)))
        return BAD("setting model.twisting_stiffness = %g must be positive", st->twisting_stiffness);
    if (!(st->rolling_damping >= 0.0 && isfinite(st->rolling_damping)))
        return BAD("setting model.rolling_damping = %g must be >= 0", st->rolling_damping);
    if (!(st->twisting_damping >= 0.0 && isfinite(st->twisting_damping)))
        return BAD("setting model.twisting_damping = %g must be >= 0", st->twisting_damping);
    if ((st->rolling || st->twisting) && !dem_tangential_models[st->tangential]->uses_history)
        return BAD("setting model.%s %s takes its stiffness from the tangential spring: model.tangential %s has none",
                   st->rolling ? "rolling" : "twisting",
                   st->rolling ? dem_rolling_models[st->rolling]->name : dem_twisting_models[st->twisting]->name,
                   dem_tangential_models[st->tangential]->name);
    return DEM_OK;
#undef BAD
}

dem_status dem_settings_read(dem_settings *st, const dem_system *s, dem_error *err)
{
    dem_settings_default(st);
    for (size_t n = 0; n < s->nparams; n++) {
        const dem_param *p = &s->params[n];
        if (strncmp(p->key, "meta.", 5) == 0 || strncmp(p->key, "x-", 2) == 0) continue;
        const setting_key *k = NULL;
        for (size_t j = 0; j < NKEYS; j++)
            if (strcmp(keys[j].key, p->key) == 0) k = &keys[j];
        if (!k)
            return dem_fail(err, DEM_ERR_VALUE, "unknown setting '%s': written by a newer dem? refusing to simulate something else", p->key);
        dem_status stt = read_key(st, k, p, err);
        if (stt) return stt;
    }
    return check_settings(st, err);
}

static void ignore_text(const dem_settings *st, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int a = 0; a < DEM_GROUPS; a++)
        for (int b = a; b < DEM_GROUPS; b++)
            if (st->ignore[a] >> b & 1u) {
                int n = snprintf(buf + at, size - at, "%s%d:%d", at ? "," : "", a + 1, b + 1);
                if (n < 0 || (size_t)n >= size - at) return;
                at += (size_t)n;
            }
}

static int cmp_mask(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Whether any two of the particles can interact: over the distinct group masks (m of them, with
 * their counts), a pair of different masks, or one mask held by two particles, that the rules
 * let interact. */
static int any_pair_interacts(const dem_settings *st, const uint32_t *mask, const size_t *count, size_t m)
{
    for (size_t x = 0; x < m; x++)
        for (size_t y = x; y < m; y++)
            if ((y > x || count[x] > 1) && dem_groups_interact(st, mask[x], mask[y])) return 1;
    return 0;
}

int dem_ignore_notes(const dem_settings *st, const dem_system *s, char (*note)[DEM_NOTE_MAX], int max)
{
    size_t n = s->nparticles, in[DEM_GROUPS] = {0};
    int k = 0, none = 0;
    if (n < 2 || max < 1) return 0;
    for (size_t p = 0; p < n; p++)
        for (uint32_t g = s->particles[p].group; g; g &= g - 1) in[__builtin_ctz(g)]++;
    for (int a = 0; a < DEM_GROUPS; a++)
        for (int b = a; b < DEM_GROUPS && k < max; b++) {
            if (!(st->ignore[a] >> b & 1u)) continue;
            if (!in[a] || !in[b])
                snprintf(note[k++], DEM_NOTE_MAX, "--ignore %d:%d: no particle is in group %d: the rule does nothing", a + 1, b + 1,
                         in[a] ? b + 1 : a + 1);
            else if (a == b && in[a] == n) {
                snprintf(note[k++], DEM_NOTE_MAX,
                         "--ignore %d:%d: all %zu particles are in group %d%s: no two particles interact, every contact between "
                         "particles is off (dem-pack --group G:SEL puts a selection in group G)",
                         a + 1, b + 1, n, a + 1, a == 0 ? " (every particle starts in group 1)" : "");
                none = 1;
            } else if (in[a] == n || in[b] == n) {
                int all = in[a] == n ? a : b, other = all == a ? b : a;
                snprintf(note[k++], DEM_NOTE_MAX,
                         "--ignore %d:%d: all %zu particles are in group %d%s: the %zu of group %d touch no particle", a + 1, b + 1, n,
                         all + 1, all == 0 ? " (every particle starts in group 1)" : "", in[other], other + 1);
            }
        }
    if (!none && k < max) {
        uint32_t *mask = malloc(n * sizeof *mask);
        size_t *count = malloc(n * sizeof *count), m = 0;
        if (mask && count) {
            for (size_t p = 0; p < n; p++) mask[p] = s->particles[p].group;
            qsort(mask, n, sizeof *mask, cmp_mask);
            for (size_t p = 0; p < n; p++) {
                if (m && mask[m - 1] == mask[p]) count[m - 1]++;
                else { mask[m] = mask[p]; count[m++] = 1; }
            }
            if (!any_pair_interacts(st, mask, count, m))
                snprintf(note[k++], DEM_NOTE_MAX, "the --ignore rules leave no two of the %zu particles that interact: every contact "
                         "between particles is off", n);
        }
        free(mask);
        free(count);
    }
    return k;
}

dem_status dem_settings_write(const dem_settings *st, dem_system *s, dem_error *err)
{
    dem_status r;
    char buf[DEM_PARAM_STR_MAX];
    if ((r = check_settings(st, err))) return r;
    for (size_t j = 0; j < NKEYS; j++) {
        const setting_key *k = &keys[j];
        const char *text = NULL;
        /* the variational integrator's keys only in its frames: the others stay as they were */
        if (strncmp(k->key, "variational.", 12) == 0 && st->integrator != DEM_INTEGRATOR_VARIATIONAL) continue;
        if (k->roll && !st->rolling && !st->twisting) { /* off: a frame keeps no stale key */
            size_t m = 0;
            for (size_t n = 0; n < s->nparams; n++)
                if (strcmp(s->params[n].key, k->key) != 0) s->params[m++] = s->params[n];
            s->nparams = m;
            continue;
        }
        switch (k->kind) {
        case K_STR_INTEGRATOR: text = integrator_names[st->integrator]; break;
        case K_STR_NORMAL: text = dem_normal_models[st->normal]->name; break;
        case K_STR_TANGENTIAL: text = dem_tangential_models[st->tangential]->name; break;
        case K_STR_DAMPING: text = dem_damping_models[st->damping]->name; break;
        case K_STR_KN_RULE: text = kn_rule_names[st->kn_rule]; break;
        case K_STR_LOCAL_FORM: text = local_form_names[st->local_form]; break;
        case K_STR_CARRY: text = carry_names[st->carry]; break;
        case K_STR_GRID: text = grid_names[st->grid]; break;
        case K_STR_ROLLING: text = dem_rolling_models[st->rolling]->name; break;
        case K_STR_TWISTING: text = dem_twisting_models[st->twisting]->name; break;
        case K_STR_IGNORE:
            ignore_text(st, buf, sizeof buf);
            text = buf;
            break;
        case K_F64: r = dem_param_set_f64(s, k->key, (const double *)((const char *)st + k->offset), 1, err); break;
        case K_VEC3: r = dem_param_set_f64(s, k->key, (const double *)((const char *)st + k->offset), 3, err); break;
        }
        if (text) r = dem_param_set_str(s, k->key, text, err);
        if (r) return r;
    }
    return DEM_OK;
}

dem_status dem_settings_parse_ignore(dem_settings *st, const char *text, dem_error *err)
{
    memset(st->ignore, 0, sizeof st->ignore);
    const char *p = text;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10);
        if (end == p || *end != ':') goto bad;
        p = end + 1;
        long b = strtol(p, &end, 10);
        if (end == p || (*end != ',' && *end != 0)) goto bad;
        if (a < 1 || a > DEM_GROUPS || b < 1 || b > DEM_GROUPS)
            return dem_fail(err, DEM_ERR_ARG, "ignore '%s': groups are numbered 1 to %d", text, DEM_GROUPS);
        st->ignore[a - 1] |= 1u << (b - 1);
        st->ignore[b - 1] |= 1u << (a - 1);
        p = *end ? end + 1 : end;
    }
    return DEM_OK;
bad:
    return dem_fail(err, DEM_ERR_ARG, "ignore '%s': expected A:B[,A:B...] with group numbers 1 to %d", text, DEM_GROUPS);
}

