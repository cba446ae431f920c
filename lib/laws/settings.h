/* settings.h - a run's settings (integrator, gravity, contact model, damping, interaction masks,
 * neighbour skin) as they live in a frame's PARM section: typed key/value entries
 * (formats/dem-stream.md §7). dem_settings is their parsed form: dem_settings_read() takes them
 * from a frame, refusing any setting key it does not know, and dem_settings_write() puts them
 * back, so a frame always carries the settings that produced it. */
#ifndef DEM_SETTINGS_H
#define DEM_SETTINGS_H

#include <stdint.h>

#include "core/error.h"
#include "core/vec.h"
#include "io/system.h"

/* variational: the implicit variational integrator of De Klerk et al. 2022 (lib/sim/variational.c) */
/* The integrators; their names are the `integrator` setting's (settings.c) and their steps integrate.c's
 * registry, both indexed by this enum. */
typedef enum {
    DEM_INTEGRATOR_VV = 0,
    DEM_INTEGRATOR_VV_IMPROVED = 1,
    DEM_INTEGRATOR_VARIATIONAL = 2,
    DEM_INTEGRATOR_COUNT
} dem_integrator;
typedef enum { DEM_LOCAL_HANLEY = 0, DEM_LOCAL_YADE = 1 } dem_local_form;
/* The neighbour search's backend (lib/sim/neighbor.c, neighbor_multi.c): auto picks multi when
 * the largest radius exceeds DEM_NEIGHBOR_AUTO_RATIO times the smallest. Every backend finds the
 * same pairs, so the results are the same bits whichever runs. */
typedef enum { DEM_NEIGHBOR_AUTO = 0, DEM_NEIGHBOR_BIN = 1, DEM_NEIGHBOR_MULTI = 2 } dem_neighbor_grid;
#define DEM_NEIGHBOR_AUTO_RATIO 3.0
/* The default largest ratio of radii within one level of the hierarchical grid. */
#define DEM_NEIGHBOR_LEVEL_RATIO 2.0
/* How a tangential history is carried onto the new contact plane (lib/laws/carry.h). */
typedef enum { DEM_CARRY_EXACT = 0, DEM_CARRY_RESCALE, DEM_CARRY_PROJECT, DEM_CARRY_PROJECT_ONLY, DEM_CARRY_NONE } dem_carry;
/* How hooke's kn is obtained when not given. */
typedef enum {
    DEM_KN_GIVEN = 0,   /* model.kn */
    DEM_KN_HERTZ = 1,   /* contact duration matches Hertz at vc (Vyas et al. 2025, eq 1) */
    DEM_KN_YADE = 2,    /* springs in series, K_i = E_i 2 r_i (Šmilauer and Chareyre 2015, §1.2.1) */
    DEM_KN_OVERLAP = 3  /* maximum overlap at vc (Vyas et al. 2025, eq 27) */
} dem_kn_rule;

#define DEM_GROUPS 32

typedef struct dem_settings_ {
    dem_integrator integrator;
    dem_vec3 gravity;           /* m/s^2 */
    int normal;                 /* index into dem_normal_models */
    int tangential;             /* index into dem_tangential_models */
    int damping;                /* index into dem_damping_models */
    dem_carry carry;            /* model.carry: the tangential history onto the new contact plane */
    dem_kn_rule kn_rule;
    double kn;                  /* N/m, hooke with DEM_KN_GIVEN */
    double kt;                  /* N/m, hooke tangential; 0: derived, kt = kn 4 G* / E* (Vyas et al. 2025, eq 5) */
    double vc;                  /* characteristic impact velocity, m/s */
    double max_overlap;         /* maximum overlap as a fraction of the smaller diameter */
    double gamma_n, gamma_t;    /* viscous damping coefficients, kg/s */
    double local_damping;       /* Cundall coefficient, - (0: off) */
    dem_local_form local_form;
    double drag;                /* drag factor gamma_d per step (1: off), Hanley 2019, eq 25 */
    double skin;                /* neighbour-list skin, m (0: automatic, 0.2 of the smallest radius) */
    double sort_every;          /* steps between spatial sorts of the particles, counted from step 0 (0: never) */
    dem_neighbor_grid grid;     /* neighbor.grid: auto, bin or multi */
    double level_ratio;         /* neighbor.level_ratio: largest r_max / r_min within one level of multi (> 1) */
    uint32_t ignore[DEM_GROUPS];/* ignore[a] bit b: group a+1 does not interact with group b+1 */
    double exact_quantum;       /* exact (fixed-point) mode's position quantum, m, a power of two (0: off) */
    double cell_gain;           /* the cell servo's gain, 1/(Pa s) (0: automatic, see sim.h) */
    double cell_max_rate;       /* the cell servo's largest strain rate, 1/s (0: automatic) */
    /* the variational integrator (written into frames only when it is the integrator) */
    double vi_alpha;            /* variational.alpha: 0 (first order) or 0.5 (second order, default) */
    double vi_newton_tol;       /* variational.newton_tol: relative residual of Newton's iteration (1e-12) */
    double vi_newton_max;       /* variational.newton_max: Newton iterations per step at most (50) */
    double vi_krylov_tol;       /* variational.krylov_tol: relative residual of each linear solve (1e-13) */
    double vi_full_jacobian;    /* variational.full_jacobian: 1: Newton with the dashpots' position Jacobian
                                 * (non-symmetric K: BiCGSTAB); 0 (default): without it (symmetric: CG) */
    /* rolling and twisting resistance (lib/laws/rolling.h); the keys are written only when one is on */
    int rolling;                /* index into dem_rolling_models (0: none) */
    int twisting;               /* index into dem_twisting_models (0: none) */
    double rolling_stiffness;   /* k_r = this S_t R*^2, N m/rad (default 2: Iwashita & Oda, Yade) */
    double rolling_damping;     /* fraction of the critical rolling damping (default 0.3: Ai et al. 2011) */
    double twisting_stiffness;  /* sds: k_o = this S_t R*^2, N m/rad (default 0.5) */
    double twisting_damping;    /* sds: fraction of the critical twisting damping (default 0.3) */
} dem_settings;

/* The carry rule named name (exact, rescale, project, project-only, none), or -1. */
int dem_carry_find(const char *name);
#define DEM_CARRY_NAMES "exact, rescale, project, project-only, none"
/* The neighbour backend named name (auto, bin, multi), or -1; and its name. */
int dem_neighbor_grid_find(const char *name);
const char *dem_neighbor_grid_name(dem_neighbor_grid g);
#define DEM_NEIGHBOR_GRID_NAMES "auto, bin, multi"

/* ---- the settings table ----------------------------------------------------------------------
 * One row per setting: its key in a frame's PARM section, the long option that sets it from a
 * command line (dem-step builds its getopt rows and its help sections from these rows), its
 * type and place in dem_settings, the bounds of its value, the names it takes, the models that
 * use it and its help text. Reading a frame, writing one, dem_settings_set and
 * dem_settings_check all walk this table: a new setting is one row here (and its field in
 * dem_settings); docs/architecture.md "Adding a setting". */
typedef enum {
    DEM_SETTING_NUMBER, /* one double; text: a number (or one of names[], meaning 0, 1, ...) */
    DEM_SETTING_VEC3,   /* three doubles; text "X,Y,Z" */
    DEM_SETTING_CHOICE, /* an int (an enum); text: one of names[] */
    DEM_SETTING_MODEL,  /* an int: a row of the laws' registry of kind `model`; text: its name */
    DEM_SETTING_GROUPS  /* interact.ignore; text "A:B[,A:B...]" */
} dem_setting_type;

/* Bounds of a number: lo and hi, each included or not; whole: an integer. */
enum { DEM_BOUND_LO = 1u, DEM_BOUND_HI = 2u, DEM_BOUND_WHOLE = 4u, DEM_BOUND_POW2 = 8u /* 0 or a power of two */ };
/* When a key is in a frame: always, with the variational integrator only, with a rolling or
 * twisting model only (frames without one keep their bits). */
enum { DEM_WRITE_ALWAYS = 0, DEM_WRITE_VARIATIONAL = 1, DEM_WRITE_ROLL = 2 };

typedef struct dem_setting {
    const char *key;            /* the PARM key: "model.kn" */
    const char *option;         /* dem-step's long option without "--" ("kn"); NULL: none */
    const char *arg;            /* the value's name in --help ("KN"); NULL: the names joined by '|' */
    dem_setting_type type;
    size_t offset;              /* of the field in dem_settings */
    double lo, hi;              /* NUMBER: the value lies between them */
    unsigned bounds;            /* DEM_BOUND_*: which of lo, hi are included; whole; power of two */
    const char *const *names;   /* CHOICE: the names of 0, 1, ...; NUMBER: optional names of 0, 1 */
    int model;                  /* MODEL: the registry kind (dem_model_kind, laws.h) */
    int write;                  /* DEM_WRITE_* */
    /* Whether the chosen models use this setting (NULL: always); uses names them, for the
     * message when an option is given that they do not use. given_error: a usage error then
     * (an option the model cannot take), else a warning (it has no effect). */
    int (*used)(const struct dem_settings_ *st);
    const char *owner;          /* the key whose value `uses` names (%s), or NULL */
    const char *uses;
    int given_error;
    const char *also;           /* a second "key=text" this one implies (--kn: model.kn_from=given) */
    const char *section;        /* dem-step's help section (DEM_SECTION_*); NULL: not in it */
    const char *help;           /* the help text, lines of at most 70 columns separated by '\n' */
} dem_setting;

#define DEM_SECTION_INTEGRATOR "integrator"
#define DEM_SECTION_CONTACT "contact"
#define DEM_SECTION_ROLLING "rolling"
#define DEM_SECTION_OTHER "other"
#define DEM_SECTION_CELL "cell"

extern const dem_setting dem_setting_table[];
extern const int dem_setting_count;
/* The row of a key, or of a long option (without "--"); NULL if none. */
const dem_setting *dem_setting_find(const char *key);
const dem_setting *dem_setting_by_option(const char *option);
/* The names a CHOICE or MODEL row takes, joined by sep ("|" for help, ", " for messages). */
void dem_setting_names(const dem_setting *row, const char *sep, char *buf, size_t size);
/* Set the setting `key` from its text as a user writes it ("hooke", "1e5", "0,0,-9.81"),
 * checking the value against the row's names and bounds (not against the other settings:
 * dem_settings_check). */
DEM_MUST_CHECK dem_status dem_settings_set(dem_settings *st, const char *key, const char *text, dem_error *err);
/* Whether the settings' models use row (1), else 0 with why the message (row->uses). */
int dem_setting_used(const dem_settings *st, const dem_setting *row, char *why, size_t size);
/* Every value within its row's bounds, and the combinations the models can run (kuhn with
 * hooke, the adhesive laws' tangential models, rolling on a tangential spring). */
DEM_MUST_CHECK dem_status dem_settings_check(const dem_settings *st, dem_error *err);

/* The defaults: vv-improved, no gravity, hertz + history + restitution damping, vc 1 m/s. */
void dem_settings_default(dem_settings *st);
/* Parse the frame's settings; unknown setting keys (not meta.*, not x-*) are refused. */
DEM_MUST_CHECK dem_status dem_settings_read(dem_settings *st, const dem_system *s, dem_error *err);
/* Store every setting in the frame's PARM section (replacing the previous values). */
DEM_MUST_CHECK dem_status dem_settings_write(const dem_settings *st, dem_system *s, dem_error *err);
/* Parse "2:2,1:3" (group a ignores group b, both ways) into st->ignore; "" clears. */
DEM_MUST_CHECK dem_status dem_settings_parse_ignore(dem_settings *st, const char *text, dem_error *err);
/* What the ignore rules of st do to the particles of s, in sentences for a warning (issue 28):
 * every particle starts in group 1, so a rule on group 1 easily switches off far more than was
 * meant. One sentence for a rule whose group holds every particle (a:a: no two particles
 * interact; a:b: the particles of b touch no particle), one for a rule naming a group no particle
 * is in (it does nothing), and one if no two particles can interact at all, whatever the rules.
 * Writes at most max sentences of at most DEM_NOTE_MAX bytes into note; returns how many. */
#define DEM_NOTE_MAX 320
int dem_ignore_notes(const dem_settings *st, const dem_system *s, char (*note)[DEM_NOTE_MAX], int max);

/* Whether two particles with group masks ga, gb interact. */
static inline int dem_groups_interact(const dem_settings *st, uint32_t ga, uint32_t gb)
{
    for (uint32_t m = ga; m; m &= m - 1) {
        int a = __builtin_ctz(m);
        if (st->ignore[a] & gb) return 0;
    }
    return 1;
}

#endif
