/* settings.c - a run's settings as the typed key/value entries of a frame's PARM section
 * (formats/dem-stream.md §7), and their parsed form dem_settings. */
#include "laws/settings.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/select.h"
#include "laws/laws.h"
#include "laws/rolling.h"

void dem_settings_default(dem_settings *st)
{
    memset(st, 0, sizeof *st);
    st->integrator = DEM_INTEGRATOR_VV_IMPROVED;
    st->normal = DEM_NORMAL_HERTZ;
    st->tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "history");
    st->damping = dem_model_find(DEM_MODEL_DAMPING, "restitution");
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

static const char *const integrator_names[] = {
    [DEM_INTEGRATOR_VV] = "vv",
    [DEM_INTEGRATOR_VV_IMPROVED] = "vv-improved",
    [DEM_INTEGRATOR_VARIATIONAL] = "variational",
    [DEM_INTEGRATOR_COUNT] = NULL,
};
static const char *const kn_rule_names[] = {"given", "hertz", "yade", "overlap", NULL};
static const char *const local_form_names[] = {"hanley", "yade", NULL};
static const char *const carry_names[] = {"exact", "rescale", "project", "project-only", "none", NULL};
static const char *const grid_names[] = {"auto", "bin", "multi", NULL};
static const char *const jacobian_names[] = {"symmetric", "full", NULL};

static int name_index(const char *const *names, const char *name)
{
    for (int k = 0; names[k]; k++)
        if (strcmp(names[k], name) == 0) return k;
    return -1;
}

int dem_carry_find(const char *name) { return name_index(carry_names, name); }
int dem_neighbor_grid_find(const char *name) { return name_index(grid_names, name); }
const char *dem_neighbor_grid_name(dem_neighbor_grid g) { return grid_names[g]; }

/* ---- which models use a setting ---------------------------------------------------------- */
static int hooke(const dem_settings *st) { return st->normal == DEM_NORMAL_HOOKE; }
static int viscous(const dem_settings *st) { return st->damping == dem_model_find(DEM_MODEL_DAMPING, "viscous"); }
static int kn_from_overlap(const dem_settings *st) { return hooke(st) && st->kn_rule == DEM_KN_OVERLAP; }
static int vc_used(const dem_settings *st) { return !(hooke(st) && (st->kn_rule == DEM_KN_GIVEN || st->kn_rule == DEM_KN_YADE)); }
static int local_on(const dem_settings *st) { return st->local_damping != 0.0; }
static int carried(const dem_settings *st) { return dem_tangential_models[st->tangential]->uses_history || dem_roll_on(st); }
static int variational(const dem_settings *st) { return st->integrator == DEM_INTEGRATOR_VARIATIONAL; }
static int rolling_parameters(const dem_settings *st) { return dem_rolling_models[st->rolling]->parameters; }
static int twisting_parameters(const dem_settings *st) { return dem_twisting_models[st->twisting]->parameters; }

#define OFF(m) offsetof(dem_settings, m)
#define INF HUGE_VAL
#define LO DEM_BOUND_LO
#define HI DEM_BOUND_HI
#define WHOLE DEM_BOUND_WHOLE
/* Rows in the order a frame's PARM section holds them (the writer's order: keep it, a frame's
 * bits depend on it); the help sections list their rows in this order too. */
const dem_setting dem_setting_table[] = {
    {"integrator", "integrator", NULL, DEM_SETTING_CHOICE, OFF(integrator), 0, 0, 0, integrator_names, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_INTEGRATOR,
     "vv: standard velocity-Verlet as in LAMMPS, LIGGGHTS, MercuryDPM (Vyas\n"
     "et al. 2025, Fig. 7); vv-improved (default): the relative velocity at\n"
     "a contact is taken with the half-step normal and the tangential\n"
     "history is carried through the half-step plane (Vyas et al. §4),\n"
     "which removes spurious trapping of small spheres (size ratio > 3).\n"
     "variational: the implicit variational integrator of De Klerk et al.\n"
     "2022 (De Klerk et al. 2022; eqs 29-31 as corrected in docs/models.md §3): each step\n"
     "solves R(q_k+1) = 0 by Newton's method, each linear system by\n"
     "preconditioned conjugate gradients, matrix-free. For Hookean contacts\n"
     "(--normal hooke) without friction (--tangential none) with their normal\n"
     "and tangential dashpots (--damping viscous: --gamma-n, --gamma-t, kg/s;\n"
     "the tangential one acts here only), plane walls at rest, bonds,\n"
     "gravity; frames hold p/m and L/I as velocities. A step whose Newton\n"
     "iteration does not converge stops the run (exit 1), naming the step\n"
     "and the residual. -v prints each step's iterations and residual; the\n"
     "run's largest are printed at the end."},
    {"gravity", "gravity", "GX,GY,GZ", DEM_SETTING_VEC3, OFF(gravity), 0, DEM_GRAVITY_MAX, 0, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_INTEGRATOR, "gravitational acceleration, m/s^2 (default 0,0,0)"},
    {"model.normal", "normal", NULL, DEM_SETTING_MODEL, OFF(normal), 0, 0, 0, NULL, DEM_MODEL_NORMAL, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_CONTACT,
     "hooke: F = kn delta; hertz (default): F = 4/3 E* sqrt(R*) delta^(3/2)\n"
     "dmt, jkr: adhesion from the materials' surface_energy (dem-pack\n"
     "--surface-energy, J/m^2), taken as the pair's work of adhesion gamma\n"
     "(two materials: sqrt(g_i g_j)); pull-off force 2 pi gamma R* (dmt)\n"
     "and 3/2 pi gamma R* (jkr). dmt (Derjaguin-Muller-Toporov): Hertz\n"
     "minus 2 pi gamma R* while delta > 0. jkr (Johnson-Kendall-Roberts):\n"
     "delta = a^2/R* - sqrt(2 pi gamma a/E*), F = 4 E* a^3/(3 R*) -\n"
     "sqrt(8 pi gamma E* a^3) in the contact radius a; a contact forms at\n"
     "delta = 0 and its neck holds until delta_c = -3 a_c^2/R*, a_c^3 =\n"
     "pi gamma R*^2/(8 E*) (the energy lost as necks form and break is in\n"
     "work_law). Both: tangential stiffness 8 G* a, Coulomb cap\n"
     "mu |F_n + 2 F_pulloff| (as LAMMPS); --tangential history or none.\n"
     "Example: dem-pack ... --young 1e7 --surface-energy 0.5 | dem-step\n"
     "--normal jkr -n 20000 --dt 1e-6 > sticky.dem"},
    {"model.tangential", "tangential", NULL, DEM_SETTING_MODEL, OFF(tangential), 0, 0, 0, NULL, DEM_MODEL_TANGENTIAL,
     DEM_WRITE_ALWAYS, NULL, NULL, NULL, 0, NULL, DEM_SECTION_CONTACT,
     "history (default): a tangential spring with history, capped by\n"
     "Coulomb friction mu |Fn| (the spring is reset to the cap); its\n"
     "stiffness is --kt or kn 4G*/E* with hooke, Mindlin's 8 G* a with hertz\n"
     "(a = sqrt(R* delta)). Its force is -S_t xi, the total stretch xi times\n"
     "the stiffness of the current overlap (LAMMPS' mindlin): with hertz it\n"
     "goes to zero as the overlap closes.\n"
     "incremental: the spring's force is the history, f_s += -S_t v_t dt with\n"
     "S_t of the current overlap (Hanley eq 10; LAMMPS' mindlin/force, Yade's\n"
     "Hertz-Mindlin), so it survives unloading; rotated, twirled and capped\n"
     "like history. With hooke it is the history law (to round-off).\n"
     "A frame of one continues with the other, each contact keeping its\n"
     "force (f_s = -S_t xi).\n"
     "kuhn: Kuhn's refined linear-frictional contact (Kuhn et al. 2020; needs\n"
     "--normal hooke): the same spring and limit, resolved within the step -\n"
     "a fresh contact counts only the movement after it touched (eqs 7-8),\n"
     "sliding starts where the force meets the limit (eqs 9-14), a sliding\n"
     "force turns towards the movement as it goes (eqs 16-19, closed form),\n"
     "the force carried and twirled with the pair (eqs 22-23, --carry); its\n"
     "friction is the law's exact work (README: Kuhn's contact)"},
    {"model.damping", "damping", NULL, DEM_SETTING_MODEL, OFF(damping), 0, 0, 0, NULL, DEM_MODEL_DAMPING, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_CONTACT,
     "restitution (default): dashpots that reproduce each pair's coefficient\n"
     "of restitution for any sizes (Vyas et al. eqs 31-32), the tangential\n"
     "one with the same damping ratio; viscous: --gamma-n, --gamma-t.\n"
     "Pair properties: E*, G* from both materials; friction and restitution\n"
     "of a pair are the smaller of the two materials' values."},
    {"model.carry", "carry", NULL, DEM_SETTING_CHOICE, OFF(carry), 0, 0, 0, carry_names, 0, DEM_WRITE_ALWAYS,
     carried, "model.tangential", "--tangential %s has no history to carry", 0, NULL, DEM_SECTION_CONTACT,
     "how a tangential history is carried onto the new contact plane each\n"
     "step (setting model.carry; lib/laws/carry.h): exact (default): the\n"
     "smallest rotation of the old plane onto the new, then the twirl with the\n"
     "pair's spin (Kuhn et al. 2020, eq 23): a loaded assembly turned rigidly keeps its\n"
     "stress to second order in the step's turn; rescale: projection with the\n"
     "size restored, then the twirl (LAMMPS, Hanley eq 8: first order);\n"
     "project: projection (Kuhn et al. 2020, eq 22) and twirl; project-only: no twirl;\n"
     "none: neither. The last three show what the adjustments do (Kuhn et al. 2020\n"
     "Fig. 6); they are not for production runs."},
    {"model.kn_from", "kn-from", NULL, DEM_SETTING_CHOICE, OFF(kn_rule), 0, 0, 0, kn_rule_names, 0, DEM_WRITE_ALWAYS,
     hooke, "model.normal", "only --normal hooke uses it, and --normal is %s", 0, NULL, DEM_SECTION_CONTACT,
     "derive hooke's kn per pair from the materials: hertz (default): the\n"
     "collision lasts as long as a Hertzian one at --vc (Vyas et al. eq 1);\n"
     "yade: springs in series K_i = E_i 2 r_i; overlap: the overlap at --vc\n"
     "is --max-overlap of the smaller diameter (Vyas et al. eq 27); given:\n"
     "--kn"},
    {"model.kn", "kn", "KN", DEM_SETTING_NUMBER, OFF(kn), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     hooke, "model.normal", "only --normal hooke uses it, and --normal is %s", 0, "model.kn_from=given", DEM_SECTION_CONTACT,
     "hooke stiffness, N/m (sets --kn-from given)"},
    {"model.kt", "kt", "KT", DEM_SETTING_NUMBER, OFF(kt), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     hooke, "model.normal", "only --normal hooke uses it, and --normal is %s", 0, NULL, DEM_SECTION_CONTACT,
     "hooke tangential stiffness, N/m (default 0: derived, kn 4 G*/E*)"},
    {"model.vc", "vc", "V", DEM_SETTING_NUMBER, OFF(vc), 0, INF, 0, NULL, 0, DEM_WRITE_ALWAYS,
     vc_used, NULL, "neither --normal hooke's kn (given or --kn-from yade) nor anything else uses it", 0, NULL,
     DEM_SECTION_CONTACT, "characteristic impact velocity, m/s (default 1)"},
    {"model.max_overlap", "max-overlap", "F", DEM_SETTING_NUMBER, OFF(max_overlap), 0, 1, 0, NULL, 0, DEM_WRITE_ALWAYS,
     kn_from_overlap, NULL, "only --normal hooke --kn-from overlap uses it", 0, NULL, DEM_SECTION_CONTACT,
     "fraction of the smaller diameter (default 0.001)"},
    {"model.gamma_n", "gamma-n", "G", DEM_SETTING_NUMBER, OFF(gamma_n), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     viscous, "model.damping", "only --damping viscous uses it, and --damping is %s", 0, NULL, DEM_SECTION_CONTACT,
     "normal viscous damping coefficient, kg/s"},
    {"model.gamma_t", "gamma-t", "G", DEM_SETTING_NUMBER, OFF(gamma_t), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     viscous, "model.damping", "only --damping viscous uses it, and --damping is %s", 0, NULL, DEM_SECTION_CONTACT,
     "tangential viscous damping coefficient, kg/s"},
    {"damping.local", "local-damping", "C", DEM_SETTING_NUMBER, OFF(local_damping), 0, 1, LO, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER, "Cundall's local damping coefficient in [0, 1) (default 0)"},
    {"damping.local_form", "local-damping-form", NULL, DEM_SETTING_CHOICE, OFF(local_form), 0, 0, 0, local_form_names, 0,
     DEM_WRITE_ALWAYS, local_on, NULL, "there is no local damping (--local-damping 0)", 0, NULL, DEM_SECTION_OTHER,
     "hanley: F - C |F| sgn(v) per component (Hanley eq 21); yade: sign of\n"
     "F (v + a dt/2) (Yade DEM formulation eq 1.9)"},
    {"damping.drag", "drag", "GD", DEM_SETTING_NUMBER, OFF(drag), 0, 1, HI, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER,
     "multiply the half-step velocity by GD in (0, 1] every step (Hanley\n"
     "eq 25); terminal velocity g dt / (1 - GD)"},
    {"neighbor.skin", "skin", "S", DEM_SETTING_NUMBER, OFF(skin), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER, "neighbour-list skin, m (default 0: 0.2 of the smallest radius)"},
    {"neighbor.sort_every", NULL, NULL, DEM_SETTING_NUMBER, OFF(sort_every), 0, 1e15, LO | HI | WHOLE, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, NULL, NULL},
    {"neighbor.grid", "neighbor", NULL, DEM_SETTING_CHOICE, OFF(grid), 0, 0, 0, grid_names, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER,
     "the neighbour search (setting neighbor.grid): bin, one grid of cells\n"
     "2 r_max + skin wide; multi, a hierarchy of grids, one per size class\n"
     "(Ogarko and Luding 2012, LAMMPS' neighbor multi), each pair searched\n"
     "from its smaller sphere's level in that level and the coarser ones, so a\n"
     "fine tests only the spheres near it; auto (default): multi when the\n"
     "largest radius exceeds 3 times the smallest. Both find the same pairs:\n"
     "results are the same bits with either (and any --threads)"},
    {"neighbor.level_ratio", "level-ratio", "Q", DEM_SETTING_NUMBER, OFF(level_ratio), 1, 1e6, HI, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER,
     "multi's levels (setting neighbor.level_ratio): level L holds the radii in\n"
     "(r_max/Q^(L+1), r_max/Q^L], empty levels dropped (default 2: a\n"
     "bidisperse system gets two levels at any size ratio)"},
    {"cell.gain", "cell-gain", "G", DEM_SETTING_NUMBER, OFF(cell_gain), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_CELL,
     "the servo's gain, 1/(Pa s) (setting cell.gain; default 0: max-rate /\n"
     "the largest target, full rate at an error as large as the target)"},
    {"cell.max_rate", "cell-max-rate", "R", DEM_SETTING_NUMBER, OFF(cell_max_rate), 0, INF, LO, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_CELL,
     "the servo's largest strain rate, 1/s (setting cell.max_rate; default\n"
     "0: quasi-static, an inertial number of 1e-3: 1e-3 / (d sqrt(rho/p)),\n"
     "d the mean diameter, rho the density, p the mean target)"},
    {"interact.ignore", "ignore", "A:B[,A:B...]", DEM_SETTING_GROUPS, OFF(ignore), 0, 0, 0, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_OTHER,
     "particles of group A do not interact with those of group B (groups\n"
     "1..32 are the bits of the particles' group field; every particle\n"
     "starts in group 1, dem-pack --group moves some). It warns when a rule\n"
     "leaves no two particles that interact, gives a group holding every\n"
     "particle, or names a group no particle is in"},
    {"exact.quantum", NULL, NULL, DEM_SETTING_NUMBER, OFF(exact_quantum), 0, INF, LO | DEM_BOUND_POW2, NULL, 0, DEM_WRITE_ALWAYS,
     NULL, NULL, NULL, 0, NULL, NULL, NULL},
    {"variational.alpha", "alpha", "0|0.5", DEM_SETTING_NUMBER, OFF(vi_alpha), 0, 0.5, LO | HI, NULL, 0, DEM_WRITE_VARIATIONAL,
     variational, "integrator", "applies to --integrator variational (the frame's integrator is %s)", 1, NULL,
     DEM_SECTION_INTEGRATOR, "variational: 0 first order, 0.5 second order (default; setting\nvariational.alpha)"},
    {"variational.newton_tol", "newton-tol", "T", DEM_SETTING_NUMBER, OFF(vi_newton_tol), 0, 1, 0, NULL, 0, DEM_WRITE_VARIATIONAL,
     variational, "integrator", "applies to --integrator variational (the frame's integrator is %s)", 1, NULL,
     DEM_SECTION_INTEGRATOR,
     "variational: stop Newton at |R| <= T times its scale, the largest of\n"
     "|R| at the predictor, |p_k| and dt |F| in the M^-1 norm (default 1e-12)"},
    {"variational.newton_max", "newton-max", "N", DEM_SETTING_NUMBER, OFF(vi_newton_max), 1, 1e6, LO | HI | WHOLE, NULL, 0,
     DEM_WRITE_VARIATIONAL, variational, "integrator", "applies to --integrator variational (the frame's integrator is %s)", 1,
     NULL, DEM_SECTION_INTEGRATOR, "variational: Newton iterations per step at most (default 50)"},
    {"variational.krylov_tol", "krylov-tol", "T", DEM_SETTING_NUMBER, OFF(vi_krylov_tol), 0, 1, 0, NULL, 0, DEM_WRITE_VARIATIONAL,
     variational, "integrator", "applies to --integrator variational (the frame's integrator is %s)", 1, NULL,
     DEM_SECTION_INTEGRATOR, "variational: relative residual of each linear solve (default 1e-13)"},
    {"variational.full_jacobian", "jacobian", NULL, DEM_SETTING_NUMBER, OFF(vi_full_jacobian), 0, 1, LO | HI | WHOLE,
     jacobian_names, 0, DEM_WRITE_VARIATIONAL, variational, "integrator",
     "applies to --integrator variational (the frame's integrator is %s)", 1, NULL, DEM_SECTION_INTEGRATOR,
     "variational: the Newton matrix without (symmetric, default: conjugate\n"
     "gradients, as De Klerk et al. 2022) or with (full: BiCGSTAB) the normal dashpots'\n"
     "position Jacobian alpha h/2 dQ/dq (docs/models.md §3.2), which makes\n"
     "Newton quadratic again on damped contacts at alpha 0.5 (setting\n"
     "variational.full_jacobian: 0 or 1)"},
    {"model.rolling", "rolling", NULL, DEM_SETTING_MODEL, OFF(rolling), 0, 0, 0, NULL, DEM_MODEL_ROLLING, DEM_WRITE_ROLL,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_ROLLING,
     "sds: Luding's spring-dashpot-slider on the rolling displacement xi_r\n"
     "(rate R* (w_i - w_j) x n, carried like the tangential spring), force\n"
     "F_r = -k_r xi_r - c_r v_r capped at mu_r Fn, couple R* n x F_r (LAMMPS'\n"
     "rolling sds); epsd: Ai et al. 2011's elastic-plastic spring-dashpot, the\n"
     "spring's moment capped at mu_r R* Fn, no dashpot at the cap. mu_r: the\n"
     "materials' rolling_friction (the smaller of a pair's). On a plane a\n"
     "rolling sphere decelerates at 5 mu_r g / 7."},
    {"model.rolling_stiffness", "rolling-stiffness", "A", DEM_SETTING_NUMBER, OFF(rolling_stiffness), 0, INF, 0, NULL, 0,
     DEM_WRITE_ROLL, rolling_parameters, "model.rolling", "--rolling %s has no such parameter (sds and epsd have)", 1, NULL,
     DEM_SECTION_ROLLING,
     "k_theta = A S_t R*^2, N m/rad (S_t the tangential\n"
     "stiffness; default 2, Iwashita & Oda and Yade; Ai et al.'s own choice\n"
     "2.25 kn mu_r^2 R*^2 is A = 2.25 mu_r^2 kn / S_t)"},
    {"model.rolling_damping", "rolling-damping", "B", DEM_SETTING_NUMBER, OFF(rolling_damping), 0, INF, LO, NULL, 0,
     DEM_WRITE_ROLL, rolling_parameters, "model.rolling", "--rolling %s has no such parameter (sds and epsd have)", 1, NULL,
     DEM_SECTION_ROLLING, "fraction of the critical rolling damping 2 sqrt(I_r k_theta)\n(default 0.3, Ai et al.)"},
    {"model.twisting", "twisting", NULL, DEM_SETTING_MODEL, OFF(twisting), 0, 0, 0, NULL, DEM_MODEL_TWISTING, DEM_WRITE_ROLL,
     NULL, NULL, NULL, 0, NULL, DEM_SECTION_ROLLING,
     "sds: spring-dashpot-slider on the twist angle (rate (w_i - w_j).n),\n"
     "k_o = --twisting-stiffness S_t R*^2 (default 0.5), dashpot\n"
     "--twisting-damping of critical (default 0.3), cap mu_o R* Fn with mu_o\n"
     "the materials' twisting_friction; marshall: Marshall 2009, everything\n"
     "from the tangential law and a = sqrt(R* delta): k_o = S_t a^2/2,\n"
     "c_o = eta_t a^2/2, cap (2/3) a mu Fn.\n"
     "Rolling and twisting need a tangential spring (not --tangential none).\n"
     "Their springs' energy is elastic energy; what they dissipate is\n"
     "ediss_rolling and ediss_twisting (dem-energy)."},
    {"model.twisting_stiffness", "twisting-stiffness", "A", DEM_SETTING_NUMBER, OFF(twisting_stiffness), 0, INF, 0, NULL, 0,
     DEM_WRITE_ROLL, twisting_parameters, "model.twisting",
     "--twisting %s has no such parameter (sds has; marshall takes them from the tangential law)", 1, NULL, DEM_SECTION_ROLLING,
     "sds: k_o = A S_t R*^2, N m/rad (default 0.5)"},
    {"model.twisting_damping", "twisting-damping", "B", DEM_SETTING_NUMBER, OFF(twisting_damping), 0, INF, LO, NULL, 0,
     DEM_WRITE_ROLL, twisting_parameters, "model.twisting",
     "--twisting %s has no such parameter (sds has; marshall takes them from the tangential law)", 1, NULL, DEM_SECTION_ROLLING,
     "sds: fraction of the critical twisting damping (default 0.3)"},
};
const int dem_setting_count = (int)(sizeof dem_setting_table / sizeof dem_setting_table[0]);
#undef LO
#undef HI
#undef WHOLE

const dem_setting *dem_setting_find(const char *key)
{
    for (int k = 0; k < dem_setting_count; k++)
        if (strcmp(dem_setting_table[k].key, key) == 0) return &dem_setting_table[k];
    return NULL;
}

const dem_setting *dem_setting_by_option(const char *option)
{
    for (int k = 0; k < dem_setting_count; k++)
        if (dem_setting_table[k].option && strcmp(dem_setting_table[k].option, option) == 0) return &dem_setting_table[k];
    return NULL;
}

static int *int_field(dem_settings *st, const dem_setting *row) { return (int *)(void *)((char *)st + row->offset); }
static int int_value(const dem_settings *st, const dem_setting *row)
{
    int v;
    memcpy(&v, (const char *)st + row->offset, sizeof v);
    return v;
}
static double *f64_field(dem_settings *st, const dem_setting *row) { return (double *)(void *)((char *)st + row->offset); }

/* The name of value k of a CHOICE or MODEL row (NULL past the last). */
static const char *row_name(const dem_setting *row, int k)
{
    if (row->type == DEM_SETTING_MODEL) return k < dem_model_count(row->model) ? dem_model_name(row->model, k) : NULL;
    return row->names ? row->names[k] : NULL;
}

void dem_setting_names(const dem_setting *row, const char *sep, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; row_name(row, k) && at < size; k++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? sep : "", row_name(row, k));
}

/* The text of a CHOICE or MODEL row's current value (NULL for other types). */
static const char *value_name(const dem_settings *st, const dem_setting *row)
{
    if (row->type != DEM_SETTING_CHOICE && row->type != DEM_SETTING_MODEL) return NULL;
    return row_name(row, int_value(st, row));
}

/* A bound as people write it: 1e6, not 1e+06. */
static const char *bound_text(char buf[24], double v)
{
    snprintf(buf, 24, "%g", v);
    char *e = strstr(buf, "e+");
    if (e) {
        char *d = e + 2;
        while (*d == '0' && d[1]) d++;
        memmove(e + 1, d, strlen(d) + 1);
    }
    return buf;
}

/* A number against its row's bounds; the message says what the row allows. */
static dem_status check_number(const dem_setting *row, double v, dem_error *err)
{
    unsigned b = row->bounds;
    int lo_ok = (b & DEM_BOUND_LO) ? v >= row->lo : v > row->lo;
    int hi_ok = row->hi == INF ? isfinite(v) : (b & DEM_BOUND_HI) ? v <= row->hi : v < row->hi;
    if ((b & DEM_BOUND_POW2) && lo_ok && hi_ok && v > 0.0 && frexp(v, &(int){0}) != 0.5) lo_ok = 0;
    if (row->offset == OFF(vi_alpha) && v != 0.0 && v != 0.5)
        return dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be 0 (first order) or 0.5 (second order)", row->key, v);
    if ((b & DEM_BOUND_WHOLE) && v != floor(v)) lo_ok = 0;
    if (lo_ok && hi_ok) return DEM_OK;
    if (b & DEM_BOUND_POW2)
        return dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be 0 (off) or a positive power of two", row->key, v);
    if (row->names)
        return dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be 0 or 1", row->key, v);
    char lo[24], hi[24];
    bound_text(lo, row->lo);
    bound_text(hi, row->hi);
    if (b & DEM_BOUND_WHOLE)
        return dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be a whole number in %s..%s", row->key, v, lo, hi);
    if (row->hi == INF)
        return (b & DEM_BOUND_LO) ? dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be >= %s and finite", row->key, v, lo)
                                  : dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must be positive", row->key, v);
    return dem_fail(err, DEM_ERR_VALUE, "setting %s = %g must lie in %c%s, %s%c", row->key, v, (b & DEM_BOUND_LO) ? '[' : '(',
                    lo, hi, (b & DEM_BOUND_HI) ? ']' : ')');
}

static dem_status check_row(const dem_settings *st, const dem_setting *row, dem_error *err)
{
    const double *f = (const double *)(const void *)((const char *)st + row->offset);
    if (row->type == DEM_SETTING_NUMBER) return check_number(row, *f, err);
    if (row->type == DEM_SETTING_VEC3) {
        if (!(isfinite(f[0]) && isfinite(f[1]) && isfinite(f[2])))
            return dem_fail(err, DEM_ERR_VALUE, "setting %s must be finite", row->key);
    }
    return DEM_OK;
}

dem_status dem_settings_set(dem_settings *st, const char *key, const char *text, dem_error *err)
{
    const dem_setting *row = dem_setting_find(key);
    if (!row) return dem_fail(err, DEM_ERR_ARG, "unknown setting '%s'", key);
    char names[160];
    int k;
    switch (row->type) {
    case DEM_SETTING_CHOICE:
    case DEM_SETTING_MODEL:
        for (k = 0; row_name(row, k); k++)
            if (strcmp(row_name(row, k), text) == 0) break;
        if (!row_name(row, k)) {
            dem_setting_names(row, ", ", names, sizeof names);
            return dem_fail(err, DEM_ERR_ARG, "unknown '%s' (%s)", text, names);
        }
        *int_field(st, row) = k;
        break;
    case DEM_SETTING_GROUPS: return dem_settings_parse_ignore(st, text, err);
    case DEM_SETTING_VEC3:
        if (dem_parse_doubles(text, f64_field(st, row), 3, err)) return err ? err->code : DEM_ERR_ARG;
        { /* a frame's larger values are the sim's guard's to refuse (with the particle's context) */
            const double *g = f64_field(st, row);
            if (row->hi > 0.0 && hypot(hypot(g[0], g[1]), g[2]) > row->hi)
                return dem_fail(err, DEM_ERR_ARG, "'%s' is beyond %g m/s^2 in magnitude", text, row->hi); /* gravity, the one vector */
        }
        break;
    case DEM_SETTING_NUMBER:
        if (row->names && (k = name_index(row->names, text)) >= 0) *f64_field(st, row) = k;
        else if (dem_parse_double(text, f64_field(st, row), err)) {
            if (!row->names) return err ? err->code : DEM_ERR_ARG;
            dem_setting_names(row, ", ", names, sizeof names);
            return dem_fail(err, DEM_ERR_ARG, "unknown '%s' (%s)", text, names);
        }
        break;
    }
    dem_status r = check_row(st, row, err);
    if (r || !row->also) return r;
    const char *eq = strchr(row->also, '=');
    char also[DEM_KEY_MAX];
    snprintf(also, sizeof also, "%.*s", (int)(eq - row->also), row->also);
    return dem_settings_set(st, also, eq + 1, err);
}

static dem_status read_key(dem_settings *st, const dem_setting *k, const dem_param *p, dem_error *err)
{
    int want_str = k->type == DEM_SETTING_CHOICE || k->type == DEM_SETTING_MODEL || k->type == DEM_SETTING_GROUPS;
    if (want_str && p->type != DEM_PARAM_STR)
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be a string", p->key);
    if (k->type == DEM_SETTING_NUMBER && !(p->type == DEM_PARAM_F64 && p->count == 1))
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be one number", p->key);
    if (k->type == DEM_SETTING_VEC3 && !(p->type == DEM_PARAM_F64 && p->count == 3))
        return dem_fail(err, DEM_ERR_VALUE, "setting '%s' must be 3 numbers", p->key);
    if (k->type == DEM_SETTING_GROUPS) return dem_settings_parse_ignore(st, p->v.s, err);
    if (want_str) {
        dem_status r = dem_settings_set(st, k->key, p->v.s, err);
        if (r && err) { /* "setting model.normal: unknown 'x' (hooke, ...)" */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return dem_fail(err, DEM_ERR_VALUE, "setting %s: %s", k->key, msg);
        }
        return r ? DEM_ERR_VALUE : DEM_OK;
    }
    memcpy(f64_field(st, k), p->v.f, (k->type == DEM_SETTING_VEC3 ? 3 : 1) * sizeof(double));
    return DEM_OK;
}

dem_status dem_settings_check(const dem_settings *st, dem_error *err)
{
#define BAD(...) dem_fail(err, DEM_ERR_VALUE, __VA_ARGS__)
    for (int k = 0; k < dem_setting_count; k++) {
        dem_status r = check_row(st, &dem_setting_table[k], err);
        if (r) return r;
    }
    if (st->normal == DEM_NORMAL_HOOKE && st->kn_rule == DEM_KN_GIVEN && !(st->kn > 0.0 && isfinite(st->kn)))
        return BAD("setting model.kn = %g: the hooke law needs a positive kn (or model.kn_from hertz, yade, overlap)", st->kn);
    if (st->tangential == dem_model_find(DEM_MODEL_TANGENTIAL, "kuhn") && st->normal != DEM_NORMAL_HOOKE)
        return BAD("setting model.tangential kuhn needs model.normal hooke: Kuhn's contact is linear-frictional (Kuhn et al. 2020), "
                   "not model.normal %s", dem_normal_models[st->normal]->name);
    if (dem_normal_models[st->normal]->pulloff > 0.0 && st->tangential != dem_model_find(DEM_MODEL_TANGENTIAL, "history") &&
        st->tangential != dem_model_find(DEM_MODEL_TANGENTIAL, "none"))
        return BAD("setting model.normal %s works with model.tangential history or none (Mindlin's 8 G* a at the adhesive "
                   "contact radius, capped at mu |F_n + 2 F_pulloff|), not model.tangential %s",
                   dem_normal_models[st->normal]->name, dem_tangential_models[st->tangential]->name);
    if ((st->rolling || st->twisting) && !dem_tangential_models[st->tangential]->uses_history)
        return BAD("setting model.%s %s takes its stiffness from the tangential spring: model.tangential %s has none",
                   st->rolling ? "rolling" : "twisting",
                   st->rolling ? dem_rolling_models[st->rolling]->name : dem_twisting_models[st->twisting]->name,
                   dem_tangential_models[st->tangential]->name);
    return DEM_OK;
#undef BAD
}

int dem_setting_used(const dem_settings *st, const dem_setting *row, char *why, size_t size)
{
    if (!row->used || row->used(st)) return 1;
    const dem_setting *owner = row->owner ? dem_setting_find(row->owner) : NULL;
    const char *name = owner ? value_name(st, owner) : NULL;
    snprintf(why, size, row->uses, name ? name : "");
    return 0;
}

dem_status dem_settings_read(dem_settings *st, const dem_system *s, dem_error *err)
{
    dem_settings_default(st);
    for (size_t n = 0; n < s->nparams; n++) {
        const dem_param *p = &s->params[n];
        if (strncmp(p->key, "meta.", 5) == 0 || strncmp(p->key, "x-", 2) == 0) continue;
        const dem_setting *k = dem_setting_find(p->key);
        if (!k)
            return dem_fail(err, DEM_ERR_VALUE, "unknown setting '%s': written by a newer dem? refusing to simulate something else", p->key);
        dem_status stt = read_key(st, k, p, err);
        if (stt) return stt;
    }
    return dem_settings_check(st, err);
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
    if ((r = dem_settings_check(st, err))) return r;
    for (int j = 0; j < dem_setting_count; j++) {
        const dem_setting *k = &dem_setting_table[j];
        const char *text = NULL;
        /* the variational integrator's keys only in its frames: the others stay as they were */
        if (k->write == DEM_WRITE_VARIATIONAL && st->integrator != DEM_INTEGRATOR_VARIATIONAL) continue;
        if (k->write == DEM_WRITE_ROLL && !dem_roll_on(st)) { /* off: a frame keeps no stale key */
            size_t m = 0;
            for (size_t n = 0; n < s->nparams; n++)
                if (strcmp(s->params[n].key, k->key) != 0) s->params[m++] = s->params[n];
            s->nparams = m;
            continue;
        }
        switch (k->type) {
        case DEM_SETTING_CHOICE:
        case DEM_SETTING_MODEL: text = value_name(st, k); break;
        case DEM_SETTING_GROUPS:
            ignore_text(st, buf, sizeof buf);
            text = buf;
            break;
        case DEM_SETTING_NUMBER: r = dem_param_set_f64(s, k->key, (const double *)(const void *)((const char *)st + k->offset), 1, err); break;
        case DEM_SETTING_VEC3: r = dem_param_set_f64(s, k->key, (const double *)(const void *)((const char *)st + k->offset), 3, err); break;
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

