/* laws.h - contact laws as sub-models in registries (after LAMMPS' GRANULAR package).
 *
 * A contact law is a combination of sub-models: normal, damping, tangential. Each sub-model is
 * one file of lib/laws/ (normal_hertz.c, damping_restitution.c, tangential_history.c, ...) that
 * fills one struct, and one row of its registry table (registry.c). Adding a sub-model is one
 * file and one table row. The tangential sub-model owns its whole per-step algorithm (see
 * contact.h). */
#ifndef DEM_LAWS_H
#define DEM_LAWS_H

#include <stdint.h>

#include "core/error.h"
#include "core/vec.h"
#include "io/settings.h"
#include "io/system.h"

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
