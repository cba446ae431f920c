/* rolling.h - rolling and twisting resistance as sub-models (issue 19a): a couple at each contact
 * that resists the relative rotation of the two particles, besides the contact force. Two
 * registries, like the tangential one (laws.h, registry.c): one file and one row each.
 *
 *   rolling   none   no rolling resistance (default)
 *             sds    Luding 2008 (LAMMPS `rolling sds`): a spring-dashpot-slider on the relative
 *                    rolling displacement xi_r, rate v_r = R* (w_i - w_j) x n, carried onto the new
 *                    contact plane and twirled like the tangential spring (carry.h); the pseudo-force
 *                    F_r = -k_r xi_r - c_r v_r is capped at mu_r F_n (the history shrunk to match, the
 *                    dashpot kept); the couple on i is R* n x F_r, on j its opposite
 *             epsd   Ai et al. 2011's elastic-plastic spring-dashpot (Type C): the spring moment
 *                    -k_theta theta_r capped at mu_r R* F_n, its dashpot C_r = eta_r 2 sqrt(I_r k_theta)
 *                    (I_r = 1 / (1/(I_i + m_i r_i^2) + 1/(I_j + m_j r_j^2)), Ai et al. eq 14), switched
 *                    off when the moment is at the cap (Ai et al.'s f = 0)
 *   twisting  none   (default)
 *             sds    Luding 2008 (LAMMPS `twisting sds`): spring-dashpot-slider on the relative twist
 *                    angle theta_o, rate (w_i - w_j) . n: M_o = -k_o theta_o - c_o w_o capped at
 *                    mu_o R* F_n; k_o = model.twisting_stiffness S_t R*^2, c_o its fraction
 *                    model.twisting_damping of 2 sqrt(I_o k_o), I_o = I_i I_j / (I_i + I_j)
 *             marshall  Marshall 2009 (LAMMPS `twisting marshall`, Vyas et al. 2025, §5.1): the same slider,
 *                    everything from the tangential law and the contact radius a = sqrt(R* delta):
 *                    k_o = S_t a^2 / 2, c_o = eta_t a^2 / 2, cap (2/3) a mu F_n
 *
 * Both rolling models take their stiffness from the tangential spring, as Iwashita & Oda 1998 and
 * Yade (alphaKr) do: k_theta = model.rolling_stiffness S_t R*^2 (N m/rad; default 2), so the
 * spring on xi_r = R* theta_r has k_r = model.rolling_stiffness S_t (N/m). Ai et al. 2011 (eq 23)
 * chose k_theta = 2.25 k_n mu_r^2 R*^2 instead: model.rolling_stiffness = 2.25 mu_r^2 k_n / S_t
 * gives theirs. The rolling dashpot is model.rolling_damping (default 0.3, Ai et al.'s eta_r) of
 * the critical 2 sqrt(I_r k_theta) for both. mu_r and mu_o are the pair's smaller values of the
 * materials' rolling_friction and twisting_friction (like friction); F_n the normal force
 * (dashpot included, not below 0).
 *
 * History and books: xi_r (m) and theta_o (rad) are the springs' stretches; the springs hold
 * 1/2 k_r |xi_r|^2 + 1/2 k_o theta_o^2, part of the elastic energy (dem-energy's eel_t); what the
 * sliders and dashpots take goes to ediss_rolling and ediss_twisting; a stiffness that follows the
 * overlap (S_t with hertz) does the work 1/2 dk |xi|^2 booked in work_law, as the tangential spring's.
 * Frames: CONT history slots 3-5 xi_r, 6 theta_o, 7-9 F_r (N), 10 M_o (N m), 11 flags (1: rolling
 * at the cap, 2: twisting at the cap); formats/dem-stream.md §5.8. */
#ifndef DEM_LAWS_ROLLING_H
#define DEM_LAWS_ROLLING_H

#include "laws/laws.h"

enum { DEM_ROLL_ACTIVE = 1u, DEM_ROLL_CAPPED = 2u, DEM_TWIST_CAPPED = 4u };

/* Books of one spring (DEM_RB_*): power of its force and of its dashpot part at the last full
 * step (W), |stretch|^2, stiffness. */
enum { DEM_RB_P = 0, DEM_RB_PD = 1, DEM_RB_X2 = 2, DEM_RB_K = 3 };

/* One contact's rolling and twisting state: a side array beside the contact records, allocated
 * only when a rolling or twisting model is on (the default record does not grow). */
typedef struct dem_roll_rec_s {
    double xr[3];     /* rolling displacement xi_r, m (slots 3-5) */
    double xo;        /* twist angle theta_o, rad (slot 6) */
    double fr[3];     /* rolling pseudo-force F_r on i, N: couple R* n x F_r (slots 7-9) */
    double mo;        /* twisting moment on i about n, N m (slot 10) */
    double m[3];      /* the couple on i, N m (j receives -m) */
    double kr, ko;    /* stiffnesses at the last evaluation: N/m (on xi_r), N m/rad */
    double br[4], bo[4]; /* books (DEM_RB_*) of the rolling and twisting springs */
    uint32_t flags;   /* DEM_ROLL_* */
} dem_roll_rec;

/* What the sub-models read of one touching contact at t + dt. */
typedef struct {
    const dem_law *law;        /* the carry rule and hdt (0: setup, nothing advances) */
    const dem_contact_in *c;   /* the contact's kinematics, for the carry */
    dem_vec3 n;                /* unit normal at t + dt, from j to i */
    dem_vec3 wrel;             /* w_i - w_j (a wall: minus its spin), t + dt/2, rad/s */
    double rstar, delta;       /* m */
    double fn;                 /* normal force, N, not below 0 */
    double stt;                /* tangential stiffness S_t at delta, N/m */
    double eta_t;              /* tangential dashpot, kg/s */
    double mu, mu_r, mu_o;     /* the pair's friction, rolling and twisting coefficients */
    double inertia_r;          /* Ai et al.'s rolling inertia I_r, kg m^2 */
    double inertia_o;          /* the pair's reduced inertia about n, kg m^2 */
} dem_roll_in;

/* A rolling or twisting sub-model. coefficient: it uses the materials' rolling_friction (rolling)
 * or twisting_friction (twisting); parameters: it uses model.*_stiffness and model.*_damping.
 * stiffness: k_r (N/m on xi_r) or k_o (N m/rad) from the settings, R*, delta and S_t (the books
 * and dem-energy's spring energy read it). eval: update r's history, force and couple part. */
typedef struct {
    const char *name;
    int coefficient, parameters;
    double (*stiffness)(const dem_settings *st, double rstar, double delta, double stt);
    void (*eval)(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r);
} dem_resist_model;

extern const dem_resist_model *const dem_rolling_models[];
extern const int dem_rolling_count;
extern const dem_resist_model *const dem_twisting_models[];
extern const int dem_twisting_count;
extern const dem_resist_model dem_law_rolling_none, dem_law_rolling_sds, dem_law_rolling_epsd;
extern const dem_resist_model dem_law_twisting_none, dem_law_twisting_sds, dem_law_twisting_marshall;

/* The rolling spring-dashpot-slider shared by sds and epsd: damped_at_cap 1 (sds: the dashpot
 * stays, the spring gives way) or 0 (epsd: the spring alone is capped, no dashpot at the cap).
 * Fills r->xr, r->fr, r->kr and DEM_ROLL_CAPPED. */
void dem_rolling_slider(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r, int damped_at_cap);
/* The twisting slider with stiffness k, dashpot c (N m s/rad) and cap (N m). */
void dem_twisting_slider(const dem_roll_in *in, dem_roll_rec *r, double k, double c, double cap);

/* Both models of the settings on one touching contact: the history carried and advanced, the
 * couple on i in r->m. */
void dem_roll_eval(const dem_settings *st, const dem_roll_in *in, dem_roll_rec *r);
/* The couple from the stored F_r, M_o and the normal (a frame's contact: the same bits). */
dem_vec3 dem_roll_couple(const dem_roll_rec *r, dem_vec3 n, double rstar);
/* The step's energy of one contact from full-step relative spin wrel about normal n: e[0]
 * rolling, e[1] twisting dissipation, e[2] the law's work (J); setup: only remember the powers. */
void dem_roll_work(dem_roll_rec *r, dem_vec3 n, double rstar, dem_vec3 wrel, double dt, int setup, double e[3]);
/* A contact lost: the springs' energy goes to e[0], e[1] (hdt 0: books nothing); the state is cleared. */
void dem_roll_forget(dem_roll_rec *r, double hdt, double e[2]);
/* The cap flags a frame's slot 11 holds (DEM_ROLL_CAPPED, DEM_TWIST_CAPPED; anything else: none). */
static inline uint32_t dem_roll_slot_flags(double v)
{
    return v >= 0.0 && v < 8.0 ? (uint32_t)v & (DEM_ROLL_CAPPED | DEM_TWIST_CAPPED) : 0u;
}
/* Whether the settings have a rolling or twisting model. */
static inline int dem_roll_on(const dem_settings *st) { return st->rolling != 0 || st->twisting != 0; }




#endif
