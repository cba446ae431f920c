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

/* variational: the implicit variational integrator of seed 004 (lib/sim/variational.c) */
typedef enum { DEM_INTEGRATOR_VV = 0, DEM_INTEGRATOR_VV_IMPROVED = 1, DEM_INTEGRATOR_VARIATIONAL = 2 } dem_integrator;
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
    dem_carry carry;            /* model.carry: the tangential history onto the new contact plane */
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

/* The defaults: vv-improved, no gravity, hertz + history + restitution damping, vc 1 m/s. */
void dem_settings_default(dem_settings *st);
/* Parse the frame's settings; unknown setting keys (not meta.*, not x-*) are refused. */
dem_status dem_settings_read(dem_settings *st, const dem_system *s, dem_error *err);
/* Store every setting in the frame's PARM section (replacing the previous values). */
dem_status dem_settings_write(const dem_settings *st, dem_system *s, dem_error *err);
/* Parse "2:2,1:3" (group a ignores group b, both ways) into st->ignore; "" clears. */
dem_status dem_settings_parse_ignore(dem_settings *st, const char *text, dem_error *err);
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
