/* laws.h - contact laws as sub-models in registries (after LAMMPS' GRANULAR package).
 *
 * A contact law is a combination of sub-models: normal, damping, tangential. Each sub-model is
 * one file of lib/laws/ (normal_hertz.c, damping_restitution.c, tangential_history.c, ...) that
 * fills one struct, its row in its kind's typed table (registry.c, rolling.c: the index a frame's
 * setting stores) and its row in dem_model_registry, which declares the material parameters and
 * history slots it reads (test_settings.c checks the two tables agree). Adding a sub-model is one
 * file and those two rows. The tangential sub-model owns its whole per-step algorithm (see
 * contact.h). */
#ifndef DEM_LAWS_H
#define DEM_LAWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/vec.h"
#include "laws/settings.h"
#include "io/system.h"

/* ---- pair properties ----------------------------------------------------------------------- */
/* Everything a contact law needs about a pair, computed once per neighbour pair (it depends on
 * the two radii, masses and materials only). For a particle-wall pair the wall is rigid and
 * infinitely heavy and large: m* = m, R* = r (the limits in docs/models.md §1.1). */
typedef struct {
    double mstar;    /* effective mass m_i m_j / (m_i + m_j), kg (Vyas et al. 2025, eq 2) */
    double rstar;    /* effective radius r_i r_j / (r_i + r_j), m (Vyas et al. 2025, eq 3) */
    double estar;    /* 1/E* = (1-nu_i^2)/E_i + (1-nu_j^2)/E_j, Pa (Vyas et al. 2025, eq 4) */
    double gstar;    /* Mindlin: 1/G* = 2(2-nu_i)(1+nu_i)/E_i + ..., Pa (Vyas et al. 2025, eq 29) */
    double gstar_l;  /* linear: 1/G* = (2-nu_i)/G_i + (2-nu_j)/G_j, Pa (Vyas et al. 2025, eq 5) */
    double mu;       /* friction coefficient (mixing: min) */
    double beta;     /* damping ratio from restitution: -ln e / sqrt(pi^2 + ln^2 e) */
    double kn, kt;   /* hooke stiffnesses, N/m */
    double gamma;    /* adhesion (dmt, jkr): the pair's work of adhesion, J/m^2: sqrt(g_i g_j) of the
                      * materials' surface_energy (a wall's material for a wall); the pull-off
                      * forces are 2 pi gamma R* (DMT) and 3/2 pi gamma R* (JKR) */
} dem_pair;

/* Fill a pair from two spheres (wall: rj = 0, mj = 0 means rigid infinite body). */
void dem_pair_init(dem_pair *p, const dem_settings *st, double ri, double mi, const dem_material *a,
                   double rj, double mj, const dem_material *b);

/* ---- sub-model registry -------------------------------------------------------------------- */
/* Normal elastic force F(delta) along n (repulsive > 0; negative only with adhesion), its
 * stiffness S_n, and stored energy (a potential: U' = F); eval gives force and stiffness together
 * (the contact loop's call: they share a square root). S_n is dF/d delta, except for jkr, whose
 * S_n is Hertz's 2 E* a at its contact radius a (as LAMMPS' granular jkr: the damping and the
 * step estimate use it; the true dF/d delta diverges where the neck breaks). Adhesive models
 * (pulloff > 0): pulloff is the pull-off force over pi gamma R* (2 DMT, 3/2 JKR); the Coulomb
 * cap of the tangential force is mu |F_n + 2 F_pulloff| (LAMMPS' granular dmt and jkr, after
 * Thornton 1991), and neck (jkr only) is the overlap (<= 0) down to which a contact that formed
 * holds (the neck breaks below it). */
typedef struct {
    const char *name;
    double (*force)(const dem_pair *p, double delta);
    double (*stiffness)(const dem_pair *p, double delta);
    double (*energy)(const dem_pair *p, double delta);
    void (*eval)(const dem_pair *p, double delta, double *force, double *stiffness);
    double pulloff;                          /* F_pulloff / (pi gamma R*): 0 without adhesion */
    double (*neck)(const dem_pair *p);       /* NULL: a contact ends at delta = 0 */
} dem_normal_model;

/* Normal damping coefficient eta_n (kg/s) given the pair, the normal stiffness S_n and the
 * settings; tangential eta_t given eta_n, S_n and the tangential stiffness S_t. */
typedef struct {
    const char *name;
    double (*eta_n)(const dem_pair *p, const dem_settings *st, double sn);
    double (*eta_t)(const dem_pair *p, const dem_settings *st, double eta_n, double sn, double stt);
} dem_damping_model;

/* ---- one contact, as the laws see it -------------------------------------------------------
 * The contact store (lib/sim/contacts.c) keeps one record per pair within the neighbour cutoff
 * (and per particle-wall slot): its key, the law's history, and what the energy books carry
 * between steps. The laws read and write the history part only. Whatever follows from other
 * fields or from the particles is not stored (the step is limited by memory traffic): the pair's
 * m* and R* are computed from the particles' masses and radii when a contact is evaluated, and
 * hooke's stiffnesses live in a side array of the store, allocated for hooke only. */
enum {
    DEM_REC_TOUCH = 1u,    /* touching at the last evaluation */
    DEM_REC_SLIDING = 2u,  /* the Coulomb cap acted in it */
    DEM_REC_ETA_T = 4u     /* its tangential dashpot was not zero */
};

typedef struct {
    uint32_t i, j;       /* key: particles (i < j), or particle and wall */
    int32_t s[3];        /* key: j is seen through its periodic image x_j + H s */
    uint32_t flags;      /* DEM_REC_* */
    double xi[3];        /* history: tangential spring displacement, m (Vyas et al. 2025, eq 14); 0 without */
    double fdn;          /* last evaluation: normal dashpot force on i along n, N */
    double stt;          /* last evaluation: tangential stiffness S_t, N/m */
    double prev[4];      /* books: at the last full step (DEM_PREV_*) */
    double diss[3];      /* books: dissipated at this contact since it formed: friction, damp_n, damp_t, J */
    double lwork;        /* last evaluation: an energy term the law computes as it evaluates and its work
                          * hook books (kuhn: the step's dissipation, J); 0 for the other laws */
} dem_contact_rec;

/* prev[]: power of the tangential force ft . u_t and of its dashpot part (W), |xi|^2 (m^2),
 * S_t (N/m) at the last full step; 0 without contact. A force history (DEM_HISTORY_FORCE) keeps
 * |f_s / S_t|^2 as |xi|^2: 1/2 S_t |xi|^2 is the spring's energy either way. */
enum { DEM_PREV_PT = 0, DEM_PREV_PD = 1, DEM_PREV_XI2 = 2, DEM_PREV_STT = 3 };

/* The kinematics of one contact at t + dt, from the geometry pass. */
typedef struct {
    dem_vec3 n;       /* unit normal at t + dt, from j to i */
    double delta;     /* overlap at t + dt, m */
    dem_vec3 d;       /* x_i - x_j(image) at t + dt (for the half-step normal) */
    dem_vec3 vij;     /* v_i - v_j (for walls: minus the wall's velocity at the contact), t + dt/2 */
    dem_vec3 wterm;   /* r_i' w_i + r_j' w_j: the rotation part of the contact velocity */
    double spin;      /* (w_i + w_j)/2 . n: the pair's spin rate about the normal, rad/s */
    int half_normal;  /* use the half-step normal for the velocities (improved, particle pairs) */
    int chord;        /* d - dt v_ij is the branch vector at t, so the normal at t is known (particle
                       * pairs; not walls, whose contact point moves with the particle) */
} dem_contact_in;

/* What the law computed for one contact at this step: what the force sums read, one cache line
 * (zeros for a pair apart, so that it adds exact zeros). */
typedef struct {
    dem_vec3 n;       /* unit normal at t + dt, from j to i */
    dem_vec3 ft;      /* tangential force on i, N */
    double fn;        /* normal force on i along n, N (negative: attractive dashpot) */
    double delta;     /* overlap, m */
} dem_contact_out;

/* The contact force on i, and n x ft, whose torque on either particle is -(r - delta/2) n x ft. */
static inline dem_vec3 dem_contact_force(const dem_contact_out *o) { return dem_v3_madd(o->ft, o->n, o->fn); }
static inline dem_vec3 dem_contact_moment(const dem_contact_out *o) { return dem_v3_cross(o->n, o->ft); }

/* The relative velocity the tangential law works with (Vyas et al. 2025, eqs 11-12): nh the normal it is
 * decomposed with (the half-step one for the improved integrator), vn its normal part, vt the
 * tangential velocity at the contact point. */
typedef struct {
    dem_vec3 nh;
    double vn;
    dem_vec3 vt;
} dem_contact_kin;

struct dem_law;

/* A tangential sub-model owns its whole per-step algorithm. eval_block evaluates a block of
 * touching contacts (the law's block entry point, see dem_law_eval_block): for each, the normal
 * part (dem_law_normal, shared by every model), then its own update, which carries the history
 * from the last step's contact plane into this one (rotation, twirl), increments it, caps it,
 * and writes the tangential force, S_t (h->stt) and the flags. work gives the step's energy
 * terms from the full-step tangential velocity ut (d[0] friction, d[2] tangential dashpot, d[3]
 * the law's own work; J) and remembers what the next step needs in h->prev. stiffness is S_t
 * (N/m) at overlap delta; uses_history says what history slots 0..2 (h->xi) hold:
 * DEM_HISTORY_NONE nothing, DEM_HISTORY_STRETCH the spring displacement xi (m, spring energy
 * 1/2 S_t |xi|^2), DEM_HISTORY_FORCE the spring's force f_s on i (N, energy |f_s|^2 / (2 S_t)). */
enum { DEM_HISTORY_NONE = 0, DEM_HISTORY_STRETCH = 1, DEM_HISTORY_FORCE = 2 };

typedef struct {
    const char *name;
    int uses_history;
    double (*stiffness)(const dem_pair *p, int normal, double delta);
    void (*eval_block)(const struct dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                       dem_contact_rec *const *h, dem_contact_out *const *o);
    void (*work)(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup, double d[4]);
} dem_tangential_model;

/* The registries (registry.c): one row per sub-model file. */
extern const dem_normal_model *const dem_normal_models[];
extern const int dem_normal_count;
extern const dem_damping_model *const dem_damping_models[];
extern const int dem_damping_count;
extern const dem_tangential_model *const dem_tangential_models[];
extern const int dem_tangential_count;

/* The sub-models, one per file of lib/laws/. */
extern const dem_normal_model dem_law_hooke, dem_law_hertz;
extern const dem_normal_model dem_law_dmt, dem_law_jkr; /* adhesion: normal_dmt.c, normal_jkr.c */
extern const dem_damping_model dem_law_damping_none, dem_law_damping_viscous, dem_law_damping_restitution;
extern const dem_tangential_model dem_law_tangential_none, dem_law_tangential_history;
extern const dem_tangential_model dem_law_tangential_incremental;
extern const dem_tangential_model dem_law_tangential_kuhn; /* Kuhn et al. 2020 (tangential_kuhn.c) */

/* Hertz contact duration t_H = DEM_HERTZ_TC (m*^2 / (R* E*^2 v))^(1/5): 2 I (15/16)^(2/5) with
 * I = int_0^1 (1 - u^(5/2))^(-1/2) du = (2/5) Gamma(2/5) sqrt(pi) / Gamma(9/10) (docs/models.md §1.1). */
#define DEM_HERTZ_TC 2.8682656991953315

/* ---- the model registry: one table of {kind, model} and what each model reads ----------------
 * The kinds of sub-model; a setting of type DEM_SETTING_MODEL (settings.h) names one. */
typedef enum { DEM_MODEL_NORMAL = 0, DEM_MODEL_DAMPING, DEM_MODEL_TANGENTIAL, DEM_MODEL_ROLLING, DEM_MODEL_TWISTING, DEM_MODEL_KINDS } dem_model_kind;
/* The material parameters a model reads beyond density, Young's modulus and Poisson's ratio,
 * which every model reads: a material that sets one no chosen model reads is warned about. */
enum {
    DEM_READS_FRICTION = 1u << 0,
    DEM_READS_RESTITUTION = 1u << 1,
    DEM_READS_SURFACE_ENERGY = 1u << 2,
    DEM_READS_ROLLING_FRICTION = 1u << 3,
    DEM_READS_TWISTING_FRICTION = 1u << 4
};
/* The contact history slots of a frame (formats/dem-stream.md, the CONT section) a model reads
 * and writes: bit k is slot k. */
#define DEM_SLOTS(first, last) ((((1u << ((last) - (first) + 1)) - 1u)) << (first))
typedef struct {
    int kind;            /* dem_model_kind */
    const void *model;   /* the model's struct, which starts with its name (dem_normal_model, ...) */
    unsigned reads;      /* DEM_READS_* */
    unsigned slots;      /* DEM_SLOTS(...) */
} dem_model_row;
/* Every sub-model, by kind; within a kind in the order of the typed tables below, whose index a
 * frame's setting stores (test_settings.c checks that the two agree). */
extern const dem_model_row dem_model_registry[];
extern const int dem_model_registry_count;
/* The row of model k of a kind, or NULL. */
const dem_model_row *dem_model_row_of(int kind, int k);

/* Material parameters the chosen sub-models do not read (no accepted parameter is inert without
 * a message): one generic check over the registry's declarations. A parameter is listed when
 * some material sets it (rolling_friction, twisting_friction, surface_energy, friction: not 0;
 * restitution: not 1) and no model of the settings reads it; the kind named is the first whose
 * models could read it, with the models that would. */
typedef struct {
    const char *parameter;   /* "rolling_friction" */
    char material[DEM_NAME_MAX + 1];
    double value;            /* the first material's value that is set */
    const char *setting;     /* "model.rolling": the kind that could read it */
    const char *model;       /* "none": that kind's model in the settings */
    char readers[96];        /* "sds or epsd": the models of that kind that read it */
} dem_inert_parameter;
/* Fills up to max entries (one per parameter) and returns their count. */
int dem_inert_parameters(const dem_settings *st, const dem_material *m, size_t nmat, dem_inert_parameter *out, int max);
/* Index of a sub-model by name among those of its kind, or -1; the name of index k; how many. */
int dem_model_find(int kind, const char *name);
const char *dem_model_name(int kind, int k);
int dem_model_count(int kind);
/* "hooke, hertz" etc., for messages and --help. */
void dem_model_names(char *buf, unsigned size, int kind);

/* Sub-models reference each other only by these names. */
#define DEM_NORMAL_HOOKE 0
#define DEM_NORMAL_HERTZ 1
#define DEM_NORMAL_DMT 2
#define DEM_NORMAL_JKR 3

/* JKR (Johnson, Kendall & Roberts 1971; Johnson, Contact Mechanics §5.5): the contact radius a
 * at overlap delta on the branch a contact follows (a >= a_c, the stable branch under imposed
 * displacement): delta = a^2/R* - sqrt(2 pi gamma a / E*). With x = sqrt(a) this is the quartic
 * x^4 - c x - R* delta = 0, c = R* sqrt(2 pi gamma / E*), whose largest root is found by
 * Newton's method from above (f convex there: the iterates fall monotonically; stopped when
 * they stop falling, so the result depends on the arithmetic only). normal_jkr.c. */
double dem_jkr_radius(const dem_pair *p, double delta);

/* ---- evaluating contacts ------------------------------------------------------------------- */
/* A law: the settings' three sub-models, resolved once per pass. hdt is the time step of history
 * and energy updates (signed: negative when running backwards), 0 in a setup evaluation, which
 * evaluates forces without advancing any history. */
typedef struct dem_law {
    const dem_settings *st;
    const dem_normal_model *normal;
    const dem_damping_model *damping;
    const dem_tangential_model *tangential;
    dem_carry carry;  /* st->carry, at hand in the contact loop */
    double hdt;
    double cap_adh;   /* 2 F_pulloff / (gamma R*): the Coulomb cap is mu |F_n + cap_adh gamma R*| (0 without adhesion) */
    int inline_history; /* the history law without adhesion: the pair pass evaluates it inline (forces.c) */
} dem_law;

void dem_law_init(dem_law *law, const dem_settings *st, double hdt);

/* The normal part of one touching contact at t + dt, shared by every tangential model: the
 * relative velocity decomposed with the normal nh (the half-step one for the improved
 * integrator: docs/models.md §1.5 step 3; Vyas et al. 2025, eqs 11-12), the normal force with its dashpot
 * (Vyas et al. 2025, eq 13). Fills o (tangential force zero), h->fdn, k; returns eta_n and S_n. */
static inline void dem_law_normal(const dem_law *law, const dem_pair *p, const dem_contact_in *c, dem_contact_rec *h,
                                  dem_contact_out *o, dem_contact_kin *k, double *eta_n, double *sn)
{
    double hdt = law->hdt, delta = c->delta;
    o->delta = delta;
    o->n = c->n;
    k->nh = c->n;
    if (c->half_normal && hdt != 0.0) { /* n at t + dt/2 from x_ij(t+dt) - dt/2 v_ij */
        dem_vec3 dh = dem_v3_madd(c->d, c->vij, -0.5 * hdt);
        k->nh = dem_v3_scale(dh, 1.0 / dem_v3_norm(dh));
    }
    k->vn = dem_v3_dot(c->vij, k->nh);                                                     /* Vyas et al. 2025, eq 11 */
    k->vt = dem_v3_sub(dem_v3_madd(c->vij, k->nh, -k->vn), dem_v3_cross(c->wterm, k->nh)); /* eq 12 */
    double fe;
    law->normal->eval(p, delta, &fe, sn);
    *eta_n = law->damping->eta_n(p, law->st, *sn);
    o->fn = fe - *eta_n * k->vn;                                                           /* Vyas et al. 2025, eq 13 */
    h->fdn = -*eta_n * k->vn;
    h->stt = 0.0;
    o->ft = dem_v3_zero();
}

/* The block entry point: count touching contacts from arrays, in order (p[k], c[k], h[k], o[k]),
 * by the tangential model's eval_block: one indirect call per block. Updates the histories in
 * h[k], fills o[k]. A vectorised kernel is another eval_block. */
static inline void dem_law_eval_block(const dem_law *law, size_t count, const dem_pair *p, const dem_contact_in *c,
                                      dem_contact_rec *const *h, dem_contact_out *const *o)
{
    law->tangential->eval_block(law, count, p, c, h, o);
}

/* One touching contact: a block of one. */
static inline void dem_law_eval(const dem_law *law, const dem_pair *p, const dem_contact_in *c, dem_contact_rec *h,
                                dem_contact_out *o)
{
    law->tangential->eval_block(law, 1, p, c, &h, &o);
}

/* The tangential dashpot force ft + S_t xi (zero unless DEM_REC_ETA_T). */
static inline dem_vec3 dem_spring_dashpot_t(const dem_contact_rec *h, const dem_contact_out *o)
{
    if (!(h->flags & DEM_REC_ETA_T)) return dem_v3_zero();
    return dem_v3_madd(o->ft, dem_v3(h->xi[0], h->xi[1], h->xi[2]), h->stt);
}

/* The tangential force over the drift interval [t, t+dt], trapezoid with the full-step powers
 * of the last and this step: to friction if the cap acted in this step (minus the change of the
 * spring energy), else its dashpot part to damp_t. And the contact law's own work: the spring
 * energy 1/2 S_t |xi|^2 changes when the stiffness S_t follows the overlap (Mindlin's 8 G* a) at
 * a given stretch, with no force doing work for it (Hertz-Mindlin's tangential spring is not a
 * potential). The step's energy change is 1/2 S_new (|xi_new|^2 - |xi_old|^2) (the spring's,
 * at this step's stiffness; the rotation and twirl keep |xi|) plus 1/2 (S_new - S_old)
 * |xi_old|^2, the law's; zero for a constant stiffness (hooke). Setup: only remember the powers.
 * Inline here because the books call it for every touching contact: books.c calls it directly
 * when the model's work hook is dem_spring_work (the registry's pointer for history and none). */
static inline void dem_spring_work_inline(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup,
                                          double d[4])
{
    double xi2 = dem_v3_norm2(dem_v3(h->xi[0], h->xi[1], h->xi[2])), stt = h->stt;
    double pt = dem_v3_dot(o->ft, ut), pd = dem_v3_dot(dem_spring_dashpot_t(h, o), ut);
    if (!setup) {
        /* the stiffness at the last step; this step's for a new spring */
        double s_old = h->prev[DEM_PREV_XI2] > 0.0 ? h->prev[DEM_PREV_STT] : stt, s_mid = 0.5 * (s_old + stt);
        d[3] = 0.25 * (stt - s_old) * (h->prev[DEM_PREV_XI2] + xi2);
        /* the spring's change at the step's mean stiffness; the rest (d[3]) is the law's */
        if (h->flags & DEM_REC_SLIDING) d[0] = -0.5 * dt * (h->prev[DEM_PREV_PT] + pt) - 0.5 * s_mid * (xi2 - h->prev[DEM_PREV_XI2]);
        else d[2] = -0.5 * dt * (h->prev[DEM_PREV_PD] + pd);
    }
    h->prev[DEM_PREV_PT] = pt;
    h->prev[DEM_PREV_PD] = pd;
    h->prev[DEM_PREV_XI2] = xi2;
    h->prev[DEM_PREV_STT] = stt;
}

/* The same as a work hook (tangential_history.c, tangential_none.c). */
void dem_spring_work(dem_contact_rec *h, const dem_contact_out *o, dem_vec3 ut, double dt, int setup, double d[4]);

/* A contact lost: the energy its tangential spring still held goes (with the work of the spring's
 * force over the half kick after its last evaluation; 0 in a setup evaluation, hdt = 0, which
 * books nothing), and the history with it. If the contact was sliding at its last evaluation the
 * Coulomb cap was unloading the spring, and what it held is friction: returned, J. If it was
 * sticking, nothing slid: the spring is cut loaded as the normal contact opens, energy the law
 * itself takes out of the motion (the incremental law keeps its force as the overlap closes, so
 * its spring holds |f_s|^2 / (2 H_s) with H_s near 0; Hanley 2019 §4, Fig. 5): subtracted from
 * *law_work (work_law, formats/dem-stream.md §5.9), and 0 returned. */
double dem_contact_forget(dem_contact_rec *h, double hdt, double *law_work);

/* ---- one contact, driven kinematically ------------------------------------------------------
 * Evaluate the contact law for a pair of spheres whose positions at t + dt and velocities at
 * t + dt/2 are prescribed, exactly as a step of dem-step does: the history (3 doubles, zero for a
 * new contact) and sliding flag are carried by the caller. For tests of the contact law under
 * imposed motions (rigid rotation, load paths) and for stress probes. Returns 1 if touching. */
typedef struct {
    dem_vec3 xi, xj;   /* positions at t + dt, m */
    dem_vec3 vi, vj;   /* velocities at t + dt/2, m/s */
    dem_vec3 wi, wj;   /* angular velocities at t + dt/2, rad/s */
    double ri, rj;     /* radii, m */
    double mi, mj;     /* masses, kg */
} dem_probe_state;

int dem_contact_probe(const dem_settings *st, const dem_material *a, const dem_material *b, double dt,
                      const dem_probe_state *in, double hist[3], int *sliding, dem_vec3 *fn, dem_vec3 *ft);

#endif
