/* model.h - run settings and contact laws.
 *
 * A run's settings (integrator, gravity, contact model, damping, interaction masks, neighbour
 * skin) live in a frame's PARM section as typed key/value entries (formats/dem-stream.md §7).
 * dem_settings is their parsed form: dem_settings_read() takes them from a frame, refusing any
 * setting key it does not know, and dem_settings_write() puts them back, so a frame always
 * carries the settings that produced it.
 *
 * Contact laws follow LAMMPS' GRANULAR package: a law is a combination of sub-models (normal,
 * damping, tangential), each one file (lib/law_*.c) that fills one row of a registry table
 * (lib/laws.c). Adding a law is one file and one table row. */
#ifndef DEM_MODEL_H
#define DEM_MODEL_H

#include <stdint.h>

#include "error.h"
#include "system.h"
#include "vec.h"

/* ---- settings ---------------------------------------------------------------------------- */
typedef enum { DEM_INTEGRATOR_VV = 0, DEM_INTEGRATOR_VV_IMPROVED = 1 } dem_integrator;
typedef enum { DEM_LOCAL_HANLEY = 0, DEM_LOCAL_YADE = 1 } dem_local_form;
/* How hooke's kn is obtained when not given. */
typedef enum {
    DEM_KN_GIVEN = 0,   /* model.kn */
    DEM_KN_HERTZ = 1,   /* contact duration matches Hertz at vc (seed 001 eq 1) */
    DEM_KN_YADE = 2,    /* springs in series, K_i = E_i 2 r_i (seed 002 §1.2.1) */
    DEM_KN_OVERLAP = 3  /* maximum overlap at vc (seed 001 eq 27) */
} dem_kn_rule;

#define DEM_GROUPS 32

typedef struct {
    dem_integrator integrator;
    dem_vec3 gravity;           /* m/s^2 */
    int normal;                 /* index into dem_normal_models */
    int tangential;             /* index into dem_tangential_models */
    int damping;                /* index into dem_damping_models */
    dem_kn_rule kn_rule;
    double kn;                  /* N/m, hooke with DEM_KN_GIVEN */
    double kt;                  /* N/m, hooke tangential; 0: derived, kt = kn 4 G* / E* (seed 001 eq 5) */
    double vc;                  /* characteristic impact velocity, m/s */
    double max_overlap;         /* maximum overlap as a fraction of the smaller diameter */
    double gamma_n, gamma_t;    /* viscous damping coefficients, kg/s */
    double local_damping;       /* Cundall coefficient, - (0: off) */
    dem_local_form local_form;
    double drag;                /* drag factor gamma_d per step (1: off), seed 000 eq 25 */
    double skin;                /* neighbour-list skin, m (0: automatic, 0.2 of the smallest radius) */
    double sort_every;          /* steps between spatial sorts of the particles, counted from step 0 (0: never) */
    uint32_t ignore[DEM_GROUPS];/* ignore[a] bit b: group a+1 does not interact with group b+1 */
    double exact_quantum;       /* exact (fixed-point) mode's position quantum, m, a power of two (0: off) */
} dem_settings;

/* The defaults: vv-improved, no gravity, hertz + history + restitution damping, vc 1 m/s. */
void dem_settings_default(dem_settings *st);
/* Parse the frame's settings; unknown setting keys (not meta.*, not x-*) are refused. */
dem_status dem_settings_read(dem_settings *st, const dem_system *s, dem_error *err);
/* Store every setting in the frame's PARM section (replacing the previous values). */
dem_status dem_settings_write(const dem_settings *st, dem_system *s, dem_error *err);
/* Parse "2:2,1:3" (group a ignores group b, both ways) into st->ignore; "" clears. */
dem_status dem_settings_parse_ignore(dem_settings *st, const char *text, dem_error *err);
/* Whether two particles with group masks ga, gb interact. */
static inline int dem_groups_interact(const dem_settings *st, uint32_t ga, uint32_t gb)
{
    for (uint32_t m = ga; m; m &= m - 1) {
        int a = __builtin_ctz(m);
        if (st->ignore[a] & gb) return 0;
    }
    return 1;
}

/* ---- pair properties ----------------------------------------------------------------------- */
/* Everything a contact law needs about a pair, computed once per neighbour pair (it depends on
 * the two radii, masses and materials only). For a particle-wall pair the wall is rigid and
 * infinitely heavy and large: m* = m, R* = r (the limits in equations.md §1.1). */
typedef struct {
    double mstar;    /* effective mass m_i m_j / (m_i + m_j), kg (seed 001 eq 2) */
    double rstar;    /* effective radius r_i r_j / (r_i + r_j), m (seed 001 eq 3) */
    double estar;    /* 1/E* = (1-nu_i^2)/E_i + (1-nu_j^2)/E_j, Pa (seed 001 eq 4) */
    double gstar;    /* Mindlin: 1/G* = 2(2-nu_i)(1+nu_i)/E_i + ..., Pa (equations.md eq 29) */
    double gstar_l;  /* linear: 1/G* = (2-nu_i)/G_i + (2-nu_j)/G_j, Pa (seed 001 eq 5) */
    double mu;       /* friction coefficient (mixing: min) */
    double beta;     /* damping ratio from restitution: -ln e / sqrt(pi^2 + ln^2 e) */
    double kn, kt;   /* hooke stiffnesses, N/m */
} dem_pair;

/* Fill a pair from two spheres (wall: rj = 0, mj = 0 means rigid infinite body). */
void dem_pair_init(dem_pair *p, const dem_settings *st, double ri, double mi, const dem_material *a,
                   double rj, double mj, const dem_material *b);

/* ---- sub-model registry -------------------------------------------------------------------- */
/* Normal elastic force magnitude F(delta) >= 0, its stiffness dF/d delta, and stored energy;
 * eval gives force and stiffness together (the contact loop's call: they share a square root). */
typedef struct {
    const char *name;
    double (*force)(const dem_pair *p, double delta);
    double (*stiffness)(const dem_pair *p, double delta);
    double (*energy)(const dem_pair *p, double delta);
    void (*eval)(const dem_pair *p, double delta, double *force, double *stiffness);
} dem_normal_model;

/* Normal damping coefficient eta_n (kg/s) given the pair, the normal stiffness S_n and the
 * settings; tangential eta_t given eta_n, S_n and the tangential stiffness S_t. */
typedef struct {
    const char *name;
    double (*eta_n)(const dem_pair *p, const dem_settings *st, double sn);
    double (*eta_t)(const dem_pair *p, const dem_settings *st, double eta_n, double sn, double stt);
} dem_damping_model;

/* Tangential stiffness S_t (N/m) at overlap delta; uses_history says whether the model keeps
 * the spring displacement in history slots 0..2. */
typedef struct {
    const char *name;
    int uses_history;
    double (*stiffness)(const dem_pair *p, int normal, double delta);
} dem_tangential_model;

/* The registries (lib/laws.c): one row per sub-model file. */
extern const dem_normal_model *const dem_normal_models[];
extern const int dem_normal_count;
extern const dem_damping_model *const dem_damping_models[];
extern const int dem_damping_count;
extern const dem_tangential_model *const dem_tangential_models[];
extern const int dem_tangential_count;

/* The sub-models, one per file lib/law_*.c. */
extern const dem_normal_model dem_law_hooke, dem_law_hertz;
extern const dem_damping_model dem_law_damping_none, dem_law_damping_viscous, dem_law_damping_restitution;
extern const dem_tangential_model dem_law_tangential_none, dem_law_tangential_history;

/* Hertz contact duration t_H = DEM_HERTZ_TC (m*^2 / (R* E*^2 v))^(1/5): 2 I (15/16)^(2/5) with
 * I = int_0^1 (1 - u^(5/2))^(-1/2) du = (2/5) Gamma(2/5) sqrt(pi) / Gamma(9/10) (equations.md §1.1). */
#define DEM_HERTZ_TC 2.8682656991953315

/* Index of a sub-model by name in its table, or -1. */
int dem_normal_find(const char *name);
int dem_damping_find(const char *name);
int dem_tangential_find(const char *name);
/* "hooke, hertz" etc., for messages and --help. */
void dem_model_names(char *buf, unsigned size, int which /* 0 normal, 1 damping, 2 tangential */);

/* Sub-models reference each other only by these names. */
#define DEM_NORMAL_HOOKE 0
#define DEM_NORMAL_HERTZ 1

#endif
