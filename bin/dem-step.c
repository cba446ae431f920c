/* dem-step - advance a particle system in time. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dem.h"

static const char usage_text[] =
"Usage: dem-step (-n N | --time T) [OPTIONS] [FILE] > out.dem\n"
"       dem-step --minimize [--ftol F] [--max-iter N] [OPTIONS] [FILE] > relaxed.dem\n"
"\n"
"Advance the system of the last frame of FILE (standard input if FILE is absent or '-')\n"
"in time with the discrete element method, and write frames of the dem stream to standard\n"
"output. Settings given here are stored in every frame written, so a second dem-step\n"
"continues with them: dem-step -n N | dem-step -n N gives the same bits as dem-step -n 2N.\n"
"Results are also the same bits for any --threads. Units are SI.\n"
"\n"
"Running:\n"
"  -n, --steps N        advance N steps\n"
"      --time T         advance by T seconds: n = ceil(T/dt) steps, and unless T is a whole\n"
"                       number of steps already (to 1e-9 of a step), dt becomes T/n for the run\n"
"                       (stored in its frames, said on stderr); the last frame's time is the\n"
"                       start's plus T exactly. Not in exact mode, whose lattice is tied to dt:\n"
"                       there dt stays and the run ends at n dt >= T (said on stderr)\n"
"      --dt DT|auto     time step, s. auto: the estimate below. Default: the frame's dt, or\n"
"                       auto if the frame has none. dem-step prints the estimates on standard\n"
"                       error: the collision time tc of the smallest pair (linear spring:\n"
"                       pi sqrt(m*/kn); Hertz: 2.868 (m*^2/(R* E*^2 vc))^(1/5); dmt, jkr:\n"
"                       at most half the period of a stuck pair's vibration about zero\n"
"                       load, pi sqrt(m*/k), k = 2 E* a (dmt) or 6/5 E* a0 (jkr)), the p-wave\n"
"                       step r sqrt(rho/E) and the global-stiffness step sqrt(2m/K) (Yade\n"
"                       DEM formulation §1.5.6); auto = min(tc/50, 0.2 p-wave, 0.3 stiffness).\n"
"                       It warns when DT exceeds tc/10, the p-wave step or 0.5 stiffness step.\n"
"      --every-time DT  write a frame at the first step at or past each multiple of DT s,\n"
"                       counted from time 0 (not from the run's start), and always the last.\n"
"                       With --time T a whole multiple of DT, n is made a multiple of T/DT so\n"
"                       the frames land on the multiples (to round-off). Excludes --every\n"
"      --every K        write a frame every K steps (and always the last); default: only the\n"
"                       last frame\n"
"      --threads T      threads (default 1), at most one per 64 particles (a smaller\n"
"                       system runs faster on fewer; said on stderr); the results do not\n"
"                       depend on T\n"
"      --level L        deflate level of the output, 0..9 (default 1)\n"
"  -o, --output FILE    write the stream to FILE instead of standard output: as FILE.tmp-XXXXXX\n"
"                       beside it, renamed to FILE when the run is complete (a failed run\n"
"                       leaves no FILE and no temporary)\n"
"  -q, --quiet          do not print the time-step estimates nor the largest overlap\n"
"  -v, --verbose        also print how the time step depends on the stiffness and what users\n"
"                       commonly do about it (printed anyway for a run of more than 10^6\n"
"                       steps; README \"Choosing the time step\")\n"
"                       After the run dem-step prints the largest overlap it saw, relative to\n"
"                       the smaller radius (to the radius against a wall), with the pair and\n"
"                       the step: overlaps of about 1% or less keep a soft contact close to\n"
"                       the hard grains it stands in for.\n"
"\n"
"Integrator:\n"
"      --integrator vv|vv-improved|variational\n"
"                       vv: standard velocity-Verlet as in LAMMPS, LIGGGHTS, MercuryDPM (Vyas\n"
"                       et al. 2025, Fig. 7); vv-improved (default): the relative velocity at\n"
"                       a contact is taken with the half-step normal and the tangential\n"
"                       history is carried through the half-step plane (Vyas et al. §4),\n"
"                       which removes spurious trapping of small spheres (size ratio > 3).\n"
"                       variational: the implicit variational integrator of De Klerk et al.\n"
"                       2022 (seed 004; eqs 29-31 as corrected in equations.md §3): each step\n"
"                       solves R(q_k+1) = 0 by Newton's method, each linear system by\n"
"                       preconditioned conjugate gradients, matrix-free. For Hookean contacts\n"
"                       (--normal hooke) without friction (--tangential none) with their normal\n"
"                       and tangential dashpots (--damping viscous: --gamma-n, --gamma-t, kg/s;\n"
"                       the tangential one acts here only), plane walls at rest, bonds,\n"
"                       gravity; frames hold p/m and L/I as velocities. A step whose Newton\n"
"                       iteration does not converge stops the run (exit 1), naming the step\n"
"                       and the residual. -v prints each step's iterations and residual; the\n"
"                       run's largest are printed at the end.\n"
"      --alpha 0|0.5    variational: 0 first order, 0.5 second order (default; setting\n"
"                       variational.alpha)\n"
"      --newton-tol T   variational: stop Newton at |R| <= T times its scale, the largest of\n"
"                       |R| at the predictor, |p_k| and dt |F| in the M^-1 norm (default 1e-12)\n"
"      --newton-max N   variational: Newton iterations per step at most (default 50)\n"
"      --krylov-tol T   variational: relative residual of each linear solve (default 1e-13)\n"
"      --jacobian symmetric|full\n"
"                       variational: the Newton matrix without (symmetric, default: conjugate\n"
"                       gradients, as seed 004) or with (full: BiCGSTAB) the normal dashpots'\n"
"                       position Jacobian alpha h/2 dQ/dq (equations.md §3.2), which makes\n"
"                       Newton quadratic again on damped contacts at alpha 0.5 (setting\n"
"                       variational.full_jacobian)\n"
"      --gravity GX,GY,GZ  gravitational acceleration, m/s^2 (default 0,0,0)\n"
"\n"
"Contact law (a normal, a tangential and a damping sub-model):\n"
"      --normal hooke|hertz|dmt|jkr\n"
"                       hooke: F = kn delta; hertz (default): F = 4/3 E* sqrt(R*) delta^(3/2)\n"
"                       dmt, jkr: adhesion from the materials' surface_energy (dem-pack\n"
"                       --surface-energy, J/m^2), taken as the pair's work of adhesion gamma\n"
"                       (two materials: sqrt(g_i g_j)); pull-off force 2 pi gamma R* (dmt)\n"
"                       and 3/2 pi gamma R* (jkr). dmt (Derjaguin-Muller-Toporov): Hertz\n"
"                       minus 2 pi gamma R* while delta > 0. jkr (Johnson-Kendall-Roberts):\n"
"                       delta = a^2/R* - sqrt(2 pi gamma a/E*), F = 4 E* a^3/(3 R*) -\n"
"                       sqrt(8 pi gamma E* a^3) in the contact radius a; a contact forms at\n"
"                       delta = 0 and its neck holds until delta_c = -3 a_c^2/R*, a_c^3 =\n"
"                       pi gamma R*^2/(8 E*) (the energy lost as necks form and break is in\n"
"                       work_law). Both: tangential stiffness 8 G* a, Coulomb cap\n"
"                       mu |F_n + 2 F_pulloff| (as LAMMPS); --tangential history or none.\n"
"                       Example: dem-pack ... --young 1e7 --surface-energy 0.5 | dem-step\n"
"                       --normal jkr -n 20000 --dt 1e-6 > sticky.dem\n"
"      --kn KN          hooke stiffness, N/m (sets --kn-from given)\n"
"      --kn-from hertz|yade|overlap\n"
"                       derive hooke's kn per pair from the materials: hertz (default): the\n"
"                       collision lasts as long as a Hertzian one at --vc (Vyas et al. eq 1);\n"
"                       yade: springs in series K_i = E_i 2 r_i; overlap: the overlap at --vc\n"
"                       is --max-overlap of the smaller diameter (Vyas et al. eq 27)\n"
"      --vc V           characteristic impact velocity, m/s (default 1)\n"
"      --max-overlap F  fraction of the smaller diameter (default 0.001)\n"
"      --tangential none|history|incremental|kuhn\n"
"                       history (default): a tangential spring with history, capped by\n"
"                       Coulomb friction mu |Fn| (the spring is reset to the cap); its\n"
"                       stiffness is --kt or kn 4G*/E* with hooke, Mindlin's 8 G* a with hertz\n"
"                       (a = sqrt(R* delta)). Its force is -S_t xi, the total stretch xi times\n"
"                       the stiffness of the current overlap (LAMMPS' mindlin): with hertz it\n"
"                       goes to zero as the overlap closes.\n"
"                       incremental: the spring's force is the history, f_s += -S_t v_t dt with\n"
"                       S_t of the current overlap (Hanley eq 10; LAMMPS' mindlin/force, Yade's\n"
"                       Hertz-Mindlin), so it survives unloading; rotated, twirled and capped\n"
"                       like history. With hooke it is the history law (to round-off).\n"
"                       A frame of one continues with the other, each contact keeping its\n"
"                       force (f_s = -S_t xi).\n"
"                       kuhn: Kuhn's refined linear-frictional contact (seed 003; needs\n"
"                       --normal hooke): the same spring and limit, resolved within the step -\n"
"                       a fresh contact counts only the movement after it touched (eqs 7-8),\n"
"                       sliding starts where the force meets the limit (eqs 9-14), a sliding\n"
"                       force turns towards the movement as it goes (eqs 16-19, closed form),\n"
"                       the force carried and twirled with the pair (eqs 22-23, --carry); its\n"
"                       friction is the law's exact work (README: Kuhn's contact)\n"
"      --carry exact|rescale|project|project-only|none\n"
"                       how a tangential history is carried onto the new contact plane each\n"
"                       step (setting model.carry; lib/laws/carry.h): exact (default): the\n"
"                       smallest rotation of the old plane onto the new, then the twirl with the\n"
"                       pair's spin (seed 003 eq 23): a loaded assembly turned rigidly keeps its\n"
"                       stress to second order in the step's turn; rescale: projection with the\n"
"                       size restored, then the twirl (LAMMPS, Hanley eq 8: first order);\n"
"                       project: projection (seed 003 eq 22) and twirl; project-only: no twirl;\n"
"                       none: neither. The last three show what the adjustments do (seed 003\n"
"                       Fig. 6); they are not for production runs.\n"
"      --kt KT          hooke tangential stiffness, N/m (default: derived)\n"
"      --damping none|viscous|restitution\n"
"                       restitution (default): dashpots that reproduce each pair's coefficient\n"
"                       of restitution for any sizes (Vyas et al. eqs 31-32), the tangential\n"
"                       one with the same damping ratio; viscous: --gamma-n, --gamma-t\n"
"      --gamma-n G, --gamma-t G   viscous damping coefficients, kg/s\n"
"                       Pair properties: E*, G* from both materials; friction and restitution\n"
"                       of a pair are the smaller of the two materials' values.\n"
"\n"
"Rolling and twisting resistance (a couple at each contact; off by default; README):\n"
"      --rolling none|sds|epsd\n"
"                       sds: Luding's spring-dashpot-slider on the rolling displacement xi_r\n"
"                       (rate R* (w_i - w_j) x n, carried like the tangential spring), force\n"
"                       F_r = -k_r xi_r - c_r v_r capped at mu_r Fn, couple R* n x F_r (LAMMPS'\n"
"                       rolling sds); epsd: Ai et al. 2011's elastic-plastic spring-dashpot, the\n"
"                       spring's moment capped at mu_r R* Fn, no dashpot at the cap. mu_r: the\n"
"                       materials' rolling_friction (the smaller of a pair's). On a plane a\n"
"                       rolling sphere decelerates at 5 mu_r g / 7.\n"
"      --rolling-stiffness A  k_theta = A S_t R*^2, N m/rad (S_t the tangential\n"
"                       stiffness; default 2, Iwashita & Oda and Yade; Ai et al.'s own choice\n"
"                       2.25 kn mu_r^2 R*^2 is A = 2.25 mu_r^2 kn / S_t)\n"
"      --rolling-damping B   fraction of the critical rolling damping 2 sqrt(I_r k_theta)\n"
"                       (default 0.3, Ai et al.)\n"
"      --twisting none|sds|marshall\n"
"                       sds: spring-dashpot-slider on the twist angle (rate (w_i - w_j).n),\n"
"                       k_o = --twisting-stiffness S_t R*^2 (default 0.5), dashpot\n"
"                       --twisting-damping of critical (default 0.3), cap mu_o R* Fn with mu_o\n"
"                       the materials' twisting_friction; marshall: Marshall 2009, everything\n"
"                       from the tangential law and a = sqrt(R* delta): k_o = S_t a^2/2,\n"
"                       c_o = eta_t a^2/2, cap (2/3) a mu Fn\n"
"      --twisting-stiffness A, --twisting-damping B   (sds)\n"
"                       Both need a tangential spring (not --tangential none). Their springs'\n"
"                       energy is elastic energy; what they dissipate is ediss_rolling and\n"
"                       ediss_twisting (dem-energy). A material parameter the chosen models\n"
"                       do not use (rolling_friction with --rolling none, ...) is warned about.\n"
"\n"
"Other dissipation:\n"
"      --local-damping C   Cundall's local damping coefficient in [0, 1) (default 0)\n"
"      --local-damping-form hanley|yade\n"
"                       hanley: F - C |F| sgn(v) per component (Hanley eq 21); yade: sign of\n"
"                       F (v + a dt/2) (Yade DEM formulation eq 1.9)\n"
"      --drag GD        multiply the half-step velocity by GD in (0, 1] every step (Hanley\n"
"                       eq 25); terminal velocity g dt / (1 - GD)\n"
"      --ignore A:B[,A:B...]\n"
"                       particles of group A do not interact with those of group B (groups\n"
"                       1..32 are the bits of the particles' group field; every particle\n"
"                       starts in group 1, dem-pack --group moves some). It warns when a rule\n"
"                       leaves no two particles that interact, gives a group holding every\n"
"                       particle, or names a group no particle is in\n"
"      --skin S         neighbour-list skin, m (default 0.2 of the smallest radius)\n"
"      --neighbor auto|bin|multi\n"
"                       the neighbour search (setting neighbor.grid): bin, one grid of cells\n"
"                       2 r_max + skin wide; multi, a hierarchy of grids, one per size class\n"
"                       (Ogarko and Luding 2012, LAMMPS' neighbor multi), each pair searched\n"
"                       from its smaller sphere's level in that level and the coarser ones, so a\n"
"                       fine tests only the spheres near it; auto (default): multi when the\n"
"                       largest radius exceeds 3 times the smallest. Both find the same pairs:\n"
"                       results are the same bits with either (and any --threads)\n"
"      --level-ratio Q  multi's levels (setting neighbor.level_ratio): level L holds the radii in\n"
"                       (r_max/Q^(L+1), r_max/Q^L], empty levels dropped (default 2: a\n"
"                       bidisperse system gets two levels at any size ratio)\n"
"      --wall-velocity K=VX,VY,VZ\n"
"                       set the velocity of wall K (0-based, as dem-probe lists them), m/s\n"
"\n"
"Stability guards (a run that trips one stops with exit 1, naming the step, the particle\n"
"and the time step against the collision time; the frames written before stay readable):\n"
"      --stop-overlap F stop when an overlap exceeds F of the smaller radius (of the radius\n"
"                       against a wall) (default 0.5; settled beds stay below 0.01; 0: off)\n"
"      --stop-move F    stop when a particle moves more than F neighbour skins in one step\n"
"                       (default 1; a sound step moves about 1e-3 skins; 0: off)\n"
"      --stop-dt F      refuse to start when dt exceeds F times the collision time tc of the\n"
"                       smallest pair (default 1: a step longer than a whole collision; 0: off;\n"
"                       not applied to a single particle)\n"
"\n"
"Deforming periodic cell (seed 002 §1.6; the frame's periodic cell, see dem-pack --periodic):\n"
"  The cell deforms as dH/dt = L H; the particles are carried by the field L (x - o) (o the\n"
"  cell's origin) and their velocities in the frames are the FLUCTUATION about it (spins about\n"
"  the field's spin (L - L^T)/2); a contact across a periodic face sees the image's velocity with\n"
"  L H s. Every component of L is either a strain rate (given here) or set by the servo from the\n"
"  Love-Weber stress of the contacts (as dem-stress, COMPRESSION POSITIVE):\n"
"    L_kk = clamp(gain (sigma_kk - target_kk), -max_rate, max_rate).\n"
"  All of it (L, targets, gain, F) is in the frames: a second dem-step continues it.\n"
"      --cell-rate IJ=R[,IJ=R...]\n"
"                       L_ij = R, 1/s (v_i = L_ij x_j; i, j in x, y, z): zz=-1e-3 shortens the\n"
"                       cell along z at 0.1%/s, xy=0.01 shears x along y; an antisymmetric pair\n"
"                       (xy=-w,yx=w) spins the whole assembly rigidly at w rad/s about z. A\n"
"                       stress-controlled diagonal component named here becomes a rate.\n"
"      --cell-stress II=S[,II=S...]\n"
"                       servo the normal stress sigma_ii to S, Pa (xx, yy, zz; compression > 0)\n"
"      --cell-still     L = 0 and no servo (before --cell-rate and --cell-stress are applied)\n"
"      --cell-gain G    the servo's gain, 1/(Pa s) (setting cell.gain; default 0: max-rate /\n"
"                       the largest target, full rate at an error as large as the target)\n"
"      --cell-max-rate R  the servo's largest strain rate, 1/s (setting cell.max_rate; default\n"
"                       0: quasi-static, an inertial number of 1e-3: 1e-3 / (d sqrt(rho/p)),\n"
"                       d the mean diameter, rho the density, p the mean target)\n"
"      --cell-reset-strain\n"
"                       F = I: strains (dem-stress, --until strain) count from this frame\n"
"      --cell-log FILE  write the L of every step to FILE (TSV: step, l11..l33 [1/s]; step:\n"
"                       the step that ended there): dem-reverse --replay FILE runs a servo\n"
"                       backwards with the rates it chose\n"
"  The cell flips (seed 002 Fig 1.6) when a cell vector leans more than 0.55 of another along\n"
"  it: the same periodic lattice, every contact and its history kept, so simple shear runs\n"
"  without end. The cell's work on the contacts, -V sigma:D per unit time, is work_cell of\n"
"  the energy books (dem-energy).\n"
"\n"
"Stopping on a condition, checked after every step (-n/--time is then the most the run takes;\n"
"--until may be repeated: the run stops at the first step where all hold; the frames record\n"
"meta.stop: running, then the names joined by '+' (e.g. ke+unbalanced), steps or interrupted):\n"
"      --until ke=E     the kinetic energy per particle, translational plus rotational over\n"
"                       the free (not fixed) particles, below E J, once it has been at or above\n"
"                       E (in the first frame or after a step): a bed at rest before it falls\n"
"                       does not stop at step 1, and one that never moves runs its count\n"
"      --until unbalanced=U  the unbalanced-force ratio, mean |net force| over the free\n"
"                       particles / mean |contact force| (Yade's unbalancedForce), below U,\n"
"                       with at least one contact and no free particle in flight (touching\n"
"                       nothing yet pushed: the ratio is small at a cloud's first impacts)\n"
"      --until stress   every servo target met to --stress-tol (relative) and the\n"
"                       unbalanced-force ratio (mean |net force| / mean |contact force|)\n"
"                       below --unbalanced\n"
"      --until strain=IJ:E  the Hencky strain e_ij (extension positive, from F: dem-stress)\n"
"                       reaches E: strain=zz:-0.05 stops at 5% axial compression\n"
"      --stress-tol T   default 1e-3\n"
"      --unbalanced U   default 1e-3\n"
"\n"
"Quasi-static minimisation (seed 004 §1: the quasi-static limit; the relaxation of jamming\n"
"studies), instead of -n/--time:\n"
"      --minimize       minimise the potential energy of the contacts (the normal law's\n"
"                       potential: hooke kn/2 delta^2, hertz 8/15 E* sqrt(R*) delta^(5/2)), the\n"
"                       bonds (kb delta^2/2), the walls and gravity over the positions of the\n"
"                       free particles, by nonlinear conjugate gradients (Polak-Ribiere+, with a\n"
"                       line search that stops where the last contact along the direction opens:\n"
"                       two overlapping spheres end touching to rounding), until every free\n"
"                       particle's net force is at most --ftol or --max-iter line searches.\n"
"                       Writes one frame: free particles at rest, fixed particles and walls where\n"
"                       they were, step and time unchanged; the energy budget restarts there\n"
"                       (e_initial = the relaxed state's energy). Needs frictionless contacts\n"
"                       (--tangential none: friction is not the gradient of an energy); the\n"
"                       dashpots and local damping do nothing at rest. Reports on standard error\n"
"                       the iterations, the final potential energy (J) and the largest unbalanced\n"
"                       force (N); a run that stops on --max-iter says so (exit status 0: the\n"
"                       frame is written).\n"
"      --ftol F         force tolerance, N (default: 1e-9 of the largest net force at the start)\n"
"      --max-iter N     line searches at most (default 100000)\n"
"  Example: spheres placed at random, overlapping, in a periodic cube (dense.tsv: x y z r),\n"
"  relaxed to a jammed packing whose net forces are all below 1e-9 N:\n"
"    dem-pack --from dense.tsv --periodic 0,0,0,0.01,0.01,0.01 |\n"
"        dem-step --minimize --normal hooke --kn 1e3 --tangential none --ftol 1e-9 > jam.dem\n"
"\n"
"Exact (fixed-point) mode, for bit-exact reversal with dem-reverse --exact:\n"
"      --exact[=Q]      positions on multiples of Q m (a power of two, as a number or 2^N;\n"
"                       default: the frame's quantum, else the smallest with 2^53 Q >= 4\n"
"                       times the system's largest coordinate), velocities on multiples of\n"
"                       Q/dt; each contact's force is rounded onto the lattice and the kicks\n"
"                       summed as integers, so dem-step --exact -n N | dem-reverse -n N returns\n"
"                       to the first state bit for bit. The first --exact run puts the state\n"
"                       on the lattice (dem-step --exact -n 0 shows it). Frictionless and\n"
"                       without local damping or drag (--tangential none); no spinning\n"
"                       particles. Recorded in the frames (setting exact.quantum).\n"
"      --no-exact       leave the exact mode of a frame written in it\n"
"\n"
"  -h, --help           print this help and exit\n"
"\n"
"Examples:\n"
"  dem-pack --random 2000 --box 0,0,0,0.02,0.02,0.04 --radius 5e-4 --enclose |\n"
"      dem-step --gravity 0,0,-9.81 -n 20000 --every 1000 | dem-probe\n"
"  dem-step -n 100000 --dt 1e-7 --normal hooke --kn 1e5 --damping none run.dem > more.dem\n"
"  printf 'x\\ty\\tz\\tr\\tvx\\twy\\n0\\t0\\t0.005\\t0.005\\t0.1\\t20\\n' |\n"
"      dem-pack --from - --rolling-friction 0.05 --wall z=0 |\n"
"      dem-step --gravity 0,0,-9.81 --normal hooke --kn 1e5 --rolling epsd --time 0.4 --dt 1e-5 |\n"
"      dem-probe --particles --last   # rolled 0.01427 m = v0^2 / (2 * 5/7 mu_r g), at rest\n"
"\n"
"Progress is shown on standard error when it is a terminal. SIGINT or SIGTERM: the current\n"
"step is finished, a last complete frame is written, and the exit status is 130 (SIGINT) or\n"
"143 (SIGTERM).\n"
"Exit status: 0 success; 1 bad input or a failed run; 2 bad usage; 130/143 interrupted.\n";

struct cmdline {
    long long steps;       /* -1: not given */
    double run_time;       /* < 0: not given */
    double dt;             /* 0: not given; -1: auto */
    long long every;
    int threads;
    int level;
    int quiet, verbose;
    const char *input;
    const char *output;    /* -o FILE (NULL: standard output) */
    /* setting overrides: applied to the frame's settings */
    const char *integrator, *normal, *tangential, *damping, *kn_from, *local_form, *ignore, *carry, *neighbor;
    const char *rolling, *twisting;
    int has_kr, has_eta_r, has_ko, has_eta_o;
    double kr, eta_r, ko, eta_o;
    int has_gravity, has_kn, has_kt, has_vc, has_max_overlap, has_gamma_n, has_gamma_t, has_local, has_drag, has_skin;
    int has_level_ratio;
    double gravity[3], kn, kt, vc, max_overlap, gamma_n, gamma_t, local, drag, skin, level_ratio;
    char **wall_velocity;
    int nwall_velocity;
    dem_sim_limits limits; /* --stop-overlap, --stop-move */
    double stop_dt;        /* --stop-dt: refuse dt > stop_dt tc (0: off) */
    int exact;             /* 1: --exact, -1: --no-exact, 0: as the frame says */
    char **cell_rate, **cell_stress;
    int ncell_rate, ncell_stress, cell_still, cell_reset, has_cell_gain, has_cell_max_rate;
    double cell_gain, cell_max_rate;
    const char *cell_log;
    unsigned until;        /* UNTIL_* bits: every condition given must hold at once */
    const char *until_arg[4]; /* as given, in order (the names in meta.stop) */
    int nuntil, strain_r, strain_c;
    double until_ke, until_unbalanced, strain_end;
    double every_time;     /* --every-time DT, s (0: not given) */
    double stress_tol, unbalanced;
    double quantum;        /* --exact=Q, m (0: the frame's or the default) */
    int minimize;          /* --minimize */
    int has_alpha, has_newton_tol, has_newton_max, has_krylov_tol, jacobian; /* jacobian: 0 not given, 1 symmetric, 2 full */
    double alpha, newton_tol, newton_max, krylov_tol;
    double ftol;           /* --ftol, N (< 0: not given) */
    long long max_iter;    /* --max-iter */
};

enum {
    OPT_TIME = 256, OPT_DT, OPT_EVERY, OPT_THREADS, OPT_LEVEL, OPT_INTEGRATOR, OPT_GRAVITY, OPT_NORMAL, OPT_KN,
    OPT_KN_FROM, OPT_VC, OPT_MAX_OVERLAP, OPT_TANGENTIAL, OPT_KT, OPT_DAMPING, OPT_GAMMA_N, OPT_GAMMA_T,
    OPT_LOCAL, OPT_LOCAL_FORM, OPT_CARRY, OPT_DRAG, OPT_IGNORE, OPT_SKIN, OPT_WALL_VELOCITY, OPT_EXACT, OPT_NO_EXACT,
    OPT_STOP_OVERLAP, OPT_STOP_MOVE, OPT_STOP_DT, OPT_CELL_RATE, OPT_CELL_STRESS, OPT_CELL_STILL, OPT_CELL_GAIN,
    OPT_CELL_MAX_RATE, OPT_CELL_RESET, OPT_CELL_LOG, OPT_UNTIL, OPT_STRESS_TOL, OPT_UNBALANCED, OPT_EVERY_TIME,
    OPT_MINIMIZE, OPT_FTOL, OPT_MAX_ITER, OPT_ALPHA, OPT_NEWTON_TOL, OPT_NEWTON_MAX, OPT_KRYLOV_TOL, OPT_JACOBIAN,
    OPT_NEIGHBOR, OPT_LEVEL_RATIO,
    OPT_ROLLING, OPT_TWISTING, OPT_KR, OPT_ETA_R, OPT_KO, OPT_ETA_O
};

enum { UNTIL_STRESS = 1u, UNTIL_STRAIN = 2u, UNTIL_KE = 4u, UNTIL_UNBALANCED = 8u };
static const char *const until_names[] = {"stress", "strain", "ke", "unbalanced"};

static int component(const char *t, size_t n, int *r, int *col);

/* One --until COND: its kind and values (the frame-dependent checks come in check_until). */
static void parse_until(struct cmdline *c, const char *u)
{
    static const char forms[] = "stress, strain=IJ:E, ke=E or unbalanced=U (e.g. ke=1e-8)";
    unsigned kind = 0;
    if (strcmp(u, "stress") == 0) kind = UNTIL_STRESS;
    else if (strncmp(u, "strain=", 7) == 0) {
        const char *colon = strchr(u, ':');
        if (!colon || component(u + 7, (size_t)(colon - u - 7), &c->strain_r, &c->strain_c))
            cli_usage("--until: '%s' is not strain=IJ:E (e.g. strain=zz:-0.05)", u);
        c->strain_end = cli_double("--until", colon + 1);
        kind = UNTIL_STRAIN;
    } else if (strncmp(u, "ke=", 3) == 0) {
        c->until_ke = cli_double("--until", u + 3);
        if (!(c->until_ke > 0.0)) cli_usage("--until: '%s': the kinetic energy per particle E must be > 0 J", u);
        kind = UNTIL_KE;
    } else if (strncmp(u, "unbalanced=", 11) == 0) {
        c->until_unbalanced = cli_double("--until", u + 11);
        if (!(c->until_unbalanced > 0.0)) cli_usage("--until: '%s': the unbalanced-force ratio U must be > 0", u);
        kind = UNTIL_UNBALANCED;
    } else
        cli_usage("--until: '%s' is not %s", u, forms);
    if (c->until & kind) cli_usage("--until %s given twice", until_names[__builtin_ctz(kind)]);
    c->until |= kind;
    c->until_arg[c->nuntil++] = u;
}

static void parse_args(int argc, char **argv, struct cmdline *c)
{
    static const struct option opts[] = {
        {"steps", required_argument, 0, 'n'}, {"time", required_argument, 0, OPT_TIME},
        {"output", required_argument, 0, 'o'},
        {"dt", required_argument, 0, OPT_DT}, {"every", required_argument, 0, OPT_EVERY},
        {"threads", required_argument, 0, OPT_THREADS}, {"level", required_argument, 0, OPT_LEVEL},
        {"quiet", no_argument, 0, 'q'}, {"verbose", no_argument, 0, 'v'}, {"help", no_argument, 0, 'h'},
        {"integrator", required_argument, 0, OPT_INTEGRATOR}, {"gravity", required_argument, 0, OPT_GRAVITY},
        {"normal", required_argument, 0, OPT_NORMAL}, {"kn", required_argument, 0, OPT_KN},
        {"kn-from", required_argument, 0, OPT_KN_FROM}, {"vc", required_argument, 0, OPT_VC},
        {"max-overlap", required_argument, 0, OPT_MAX_OVERLAP}, {"tangential", required_argument, 0, OPT_TANGENTIAL},
        {"kt", required_argument, 0, OPT_KT}, {"damping", required_argument, 0, OPT_DAMPING},
        {"gamma-n", required_argument, 0, OPT_GAMMA_N}, {"gamma-t", required_argument, 0, OPT_GAMMA_T},
        {"local-damping", required_argument, 0, OPT_LOCAL}, {"local-damping-form", required_argument, 0, OPT_LOCAL_FORM},
        {"carry", required_argument, 0, OPT_CARRY},
        {"drag", required_argument, 0, OPT_DRAG}, {"ignore", required_argument, 0, OPT_IGNORE},
        {"skin", required_argument, 0, OPT_SKIN}, {"wall-velocity", required_argument, 0, OPT_WALL_VELOCITY},
        {"exact", optional_argument, 0, OPT_EXACT}, {"no-exact", no_argument, 0, OPT_NO_EXACT},
        {"stop-overlap", required_argument, 0, OPT_STOP_OVERLAP}, {"stop-move", required_argument, 0, OPT_STOP_MOVE},
        {"stop-dt", required_argument, 0, OPT_STOP_DT},
        {"cell-rate", required_argument, 0, OPT_CELL_RATE}, {"cell-stress", required_argument, 0, OPT_CELL_STRESS},
        {"cell-still", no_argument, 0, OPT_CELL_STILL}, {"cell-gain", required_argument, 0, OPT_CELL_GAIN},
        {"cell-max-rate", required_argument, 0, OPT_CELL_MAX_RATE}, {"cell-reset-strain", no_argument, 0, OPT_CELL_RESET},
        {"cell-log", required_argument, 0, OPT_CELL_LOG}, {"until", required_argument, 0, OPT_UNTIL},
        {"stress-tol", required_argument, 0, OPT_STRESS_TOL}, {"unbalanced", required_argument, 0, OPT_UNBALANCED},
        {"every-time", required_argument, 0, OPT_EVERY_TIME},
        {"minimize", no_argument, 0, OPT_MINIMIZE}, {"ftol", required_argument, 0, OPT_FTOL},
        {"max-iter", required_argument, 0, OPT_MAX_ITER},
        {"alpha", required_argument, 0, OPT_ALPHA}, {"newton-tol", required_argument, 0, OPT_NEWTON_TOL},
        {"newton-max", required_argument, 0, OPT_NEWTON_MAX}, {"krylov-tol", required_argument, 0, OPT_KRYLOV_TOL},
        {"jacobian", required_argument, 0, OPT_JACOBIAN},
        {"neighbor", required_argument, 0, OPT_NEIGHBOR}, {"level-ratio", required_argument, 0, OPT_LEVEL_RATIO},
        {"rolling", required_argument, 0, OPT_ROLLING}, {"twisting", required_argument, 0, OPT_TWISTING},
        {"rolling-stiffness", required_argument, 0, OPT_KR}, {"rolling-damping", required_argument, 0, OPT_ETA_R},
        {"twisting-stiffness", required_argument, 0, OPT_KO}, {"twisting-damping", required_argument, 0, OPT_ETA_O},
        {0, 0, 0, 0}};
    memset(c, 0, sizeof *c);
    c->steps = -1;
    c->run_time = -1.0;
    c->ftol = -1.0;
    c->threads = 1;
    c->level = DEM_LEVEL_DEFAULT;
    c->wall_velocity = calloc((size_t)argc, sizeof *c->wall_velocity);
    c->cell_rate = calloc((size_t)argc, sizeof *c->cell_rate);
    c->cell_stress = calloc((size_t)argc, sizeof *c->cell_stress);
    c->stress_tol = 1e-3;
    c->unbalanced = 1e-3;
    dem_sim_limits_default(&c->limits);
    c->stop_dt = 1.0;
    int ch;
    opterr = 0; /* our own messages, in the cli_usage format */
    while ((ch = getopt_long(argc, argv, ":n:o:qvh", opts, NULL)) != -1) {
        switch (ch) {
        case 'n': c->steps = cli_int("--steps", optarg, 0, CLI_MAX_STEPS); break;
        case OPT_TIME:
            c->run_time = cli_double("--time", optarg);
            if (!(c->run_time >= 0.0)) cli_usage("--time: '%s' must be >= 0", optarg);
            break;
        case OPT_DT:
            if (strcmp(optarg, "auto") == 0) c->dt = -1.0;
            else {
                c->dt = cli_double("--dt", optarg);
                if (!(c->dt > 0.0)) cli_usage("--dt: '%s' must be positive (or auto)", optarg);
            }
            break;
        case OPT_EVERY: c->every = cli_int("--every", optarg, 1, 1000000000000000LL); break;
        case OPT_THREADS: c->threads = (int)cli_int("--threads", optarg, 1, 1024); break;
        case OPT_LEVEL: c->level = (int)cli_int("--level", optarg, 0, 9); break;
        case 'q': c->quiet = 1; break;
        case 'v': c->verbose = 1; break;
        case 'o': c->output = optarg; break;
        case 'h': cli_help(usage_text);
        case OPT_INTEGRATOR: c->integrator = optarg; break;
        case OPT_GRAVITY:
            cli_doubles("--gravity", optarg, c->gravity, 3);
            c->has_gravity = 1;
            for (int k = 0; k < 3; k++)
                if (!(fabs(c->gravity[k]) <= DEM_GRAVITY_MAX) || hypot(hypot(c->gravity[0], c->gravity[1]), c->gravity[2]) > DEM_GRAVITY_MAX)
                    cli_usage("--gravity: '%s' is beyond %g m/s^2 in magnitude", optarg, DEM_GRAVITY_MAX);
            break;
        case OPT_NORMAL: c->normal = optarg; break;
        case OPT_KN: c->kn = cli_double("--kn", optarg); c->has_kn = 1; break;
        case OPT_KN_FROM: c->kn_from = optarg; break;
        case OPT_VC: c->vc = cli_double("--vc", optarg); c->has_vc = 1; break;
        case OPT_MAX_OVERLAP: c->max_overlap = cli_double("--max-overlap", optarg); c->has_max_overlap = 1; break;
        case OPT_TANGENTIAL: c->tangential = optarg; break;
        case OPT_KT: c->kt = cli_double("--kt", optarg); c->has_kt = 1; break;
        case OPT_DAMPING: c->damping = optarg; break;
        case OPT_GAMMA_N: c->gamma_n = cli_double("--gamma-n", optarg); c->has_gamma_n = 1; break;
        case OPT_GAMMA_T: c->gamma_t = cli_double("--gamma-t", optarg); c->has_gamma_t = 1; break;
        case OPT_LOCAL: c->local = cli_double("--local-damping", optarg); c->has_local = 1; break;
        case OPT_LOCAL_FORM: c->local_form = optarg; break;
        case OPT_CARRY: c->carry = optarg; break;
        case OPT_ROLLING: c->rolling = optarg; break;
        case OPT_TWISTING: c->twisting = optarg; break;
        case OPT_KR: c->kr = cli_double("--rolling-stiffness", optarg); c->has_kr = 1; break;
        case OPT_ETA_R: c->eta_r = cli_double("--rolling-damping", optarg); c->has_eta_r = 1; break;
        case OPT_KO: c->ko = cli_double("--twisting-stiffness", optarg); c->has_ko = 1; break;
        case OPT_ETA_O: c->eta_o = cli_double("--twisting-damping", optarg); c->has_eta_o = 1; break;
        case OPT_DRAG: c->drag = cli_double("--drag", optarg); c->has_drag = 1; break;
        case OPT_IGNORE: c->ignore = optarg; break;
        case OPT_SKIN: c->skin = cli_double("--skin", optarg); c->has_skin = 1; break;
        case OPT_NEIGHBOR: c->neighbor = optarg; break;
        case OPT_LEVEL_RATIO: c->level_ratio = cli_double("--level-ratio", optarg); c->has_level_ratio = 1; break;
        case OPT_WALL_VELOCITY: c->wall_velocity[c->nwall_velocity++] = optarg; break;
        case OPT_EXACT: c->exact = 1; if (optarg) c->quantum = cli_quantum("--exact", optarg); break;
        case OPT_NO_EXACT: c->exact = -1; break;
        case OPT_STOP_OVERLAP: c->limits.overlap = cli_nonneg("--stop-overlap", optarg); break;
        case OPT_STOP_MOVE: c->limits.move = cli_nonneg("--stop-move", optarg); break;
        case OPT_STOP_DT: c->stop_dt = cli_nonneg("--stop-dt", optarg); break;
        case OPT_CELL_RATE: c->cell_rate[c->ncell_rate++] = optarg; break;
        case OPT_CELL_STRESS: c->cell_stress[c->ncell_stress++] = optarg; break;
        case OPT_CELL_STILL: c->cell_still = 1; break;
        case OPT_CELL_GAIN: c->cell_gain = cli_nonneg("--cell-gain", optarg); c->has_cell_gain = 1; break;
        case OPT_CELL_MAX_RATE: c->cell_max_rate = cli_nonneg("--cell-max-rate", optarg); c->has_cell_max_rate = 1; break;
        case OPT_CELL_RESET: c->cell_reset = 1; break;
        case OPT_CELL_LOG: c->cell_log = optarg; break;
        case OPT_UNTIL: parse_until(c, optarg); break;
        case OPT_EVERY_TIME:
            c->every_time = cli_double("--every-time", optarg);
            if (!(c->every_time > 0.0)) cli_usage("--every-time: '%s' must be a positive time in s", optarg);
            break;
        case OPT_STRESS_TOL: c->stress_tol = cli_nonneg("--stress-tol", optarg); break;
        case OPT_UNBALANCED: c->unbalanced = cli_nonneg("--unbalanced", optarg); break;
        case OPT_MINIMIZE: c->minimize = 1; break;
        case OPT_ALPHA: c->alpha = cli_double("--alpha", optarg); c->has_alpha = 1;
            if (c->alpha != 0.0 && c->alpha != 0.5) cli_usage("--alpha: %s is neither 0 (first order) nor 0.5 (second order)", optarg);
            break;
        case OPT_NEWTON_TOL: c->newton_tol = cli_double("--newton-tol", optarg); c->has_newton_tol = 1; break;
        case OPT_NEWTON_MAX: c->newton_max = (double)cli_int("--newton-max", optarg, 1, 1000000); c->has_newton_max = 1; break;
        case OPT_KRYLOV_TOL: c->krylov_tol = cli_double("--krylov-tol", optarg); c->has_krylov_tol = 1; break;
        case OPT_JACOBIAN:
            if (strcmp(optarg, "symmetric") == 0) c->jacobian = 1;
            else if (strcmp(optarg, "full") == 0) c->jacobian = 2;
            else cli_usage("--jacobian: unknown '%s' (symmetric, full)", optarg);
            break;
        case OPT_FTOL: c->ftol = cli_nonneg("--ftol", optarg); break;
        case OPT_MAX_ITER: c->max_iter = cli_int("--max-iter", optarg, 1, 1000000000000LL); break;
        default: cli_bad_option(ch, argv);
        }
    }
    if (optind < argc) c->input = argv[optind++];
    if (optind < argc) cli_usage("more than one input file ('%s')", argv[optind]);
    if (c->minimize) {
        const char *bad = c->steps >= 0 ? "-n/--steps" : c->run_time >= 0.0 ? "--time" : c->nuntil ? "--until"
                        : c->every ? "--every" : c->every_time > 0.0 ? "--every-time" : c->exact > 0 ? "--exact" : NULL;
        if (bad) cli_usage("--minimize writes one frame, the relaxed state, and takes no steps: %s does not apply (run the dynamics in a second dem-step)", bad);
        c->steps = 0;
    } else if (c->ftol >= 0.0 || c->max_iter) {
        cli_usage("%s applies to --minimize only", c->ftol >= 0.0 ? "--ftol" : "--max-iter");
    }
    if ((c->steps >= 0) == (c->run_time >= 0.0)) cli_usage("give exactly one of -n/--steps and --time");
    if (c->has_kn && c->kn_from) cli_usage("--kn and --kn-from exclude each other");
    if (c->every && c->every_time > 0.0) cli_usage("--every and --every-time exclude each other");
    if (c->quiet && c->verbose) cli_usage("-q/--quiet and -v/--verbose exclude each other");
}

/* An adhesive law with no surface energy anywhere is Hertz's: say so rather than run it silently. */
static void adhesion_note(const dem_settings *st, const dem_system *s)
{
    if (!(dem_normal_models[st->normal]->pulloff > 0.0)) return;
    for (size_t k = 0; k < s->nmaterials; k++)
        if (s->materials[k].surface_energy > 0.0) return;
    fprintf(stderr, "dem-step: warning: --normal %s, but every material has surface_energy 0: no adhesion, the law is Hertz's "
                    "(set it with dem-pack --surface-energy or --set-material)\n", dem_normal_models[st->normal]->name);
}

/* Settings: the frame's, then the command line's. Errors in values are usage errors. */
static void apply_overrides(const struct cmdline *c, dem_settings *st)
{
    dem_error err;
    dem_system tmp;
    dem_system_init(&tmp);
    char names[128];
    if (c->integrator) {
        if (strcmp(c->integrator, "vv") == 0) st->integrator = DEM_INTEGRATOR_VV;
        else if (strcmp(c->integrator, "vv-improved") == 0) st->integrator = DEM_INTEGRATOR_VV_IMPROVED;
        else if (strcmp(c->integrator, "variational") == 0) st->integrator = DEM_INTEGRATOR_VARIATIONAL;
        else cli_usage("--integrator: unknown '%s' (vv, vv-improved, variational)", c->integrator);
    }
    if ((c->has_alpha || c->has_newton_tol || c->has_newton_max || c->has_krylov_tol || c->jacobian) && st->integrator != DEM_INTEGRATOR_VARIATIONAL)
        cli_usage("%s applies to --integrator variational (the frame's integrator is %s)",
                  c->has_alpha ? "--alpha" : c->has_newton_tol ? "--newton-tol" : c->has_newton_max ? "--newton-max" : c->has_krylov_tol ? "--krylov-tol" : "--jacobian",
                  st->integrator == DEM_INTEGRATOR_VV ? "vv" : "vv-improved");
    if (c->has_alpha) st->vi_alpha = c->alpha;
    if (c->jacobian) st->vi_full_jacobian = c->jacobian == 2;
    if (c->has_newton_tol) {
        if (!(c->newton_tol > 0.0 && c->newton_tol < 1.0)) cli_usage("--newton-tol: %g must lie in (0, 1)", c->newton_tol);
        st->vi_newton_tol = c->newton_tol;
    }
    if (c->has_newton_max) st->vi_newton_max = c->newton_max;
    if (c->has_krylov_tol) {
        if (!(c->krylov_tol > 0.0 && c->krylov_tol < 1.0)) cli_usage("--krylov-tol: %g must lie in (0, 1)", c->krylov_tol);
        st->vi_krylov_tol = c->krylov_tol;
    }
    if (c->has_gravity) st->gravity = dem_v3(c->gravity[0], c->gravity[1], c->gravity[2]);
    if (c->normal && (st->normal = dem_normal_find(c->normal)) < 0) {
        dem_model_names(names, sizeof names, 0);
        cli_usage("--normal: unknown '%s' (%s)", c->normal, names);
    }
    if (c->tangential && (st->tangential = dem_tangential_find(c->tangential)) < 0) {
        dem_model_names(names, sizeof names, 2);
        cli_usage("--tangential: unknown '%s' (%s)", c->tangential, names);
    }
    if (c->damping && (st->damping = dem_damping_find(c->damping)) < 0) {
        dem_model_names(names, sizeof names, 1);
        cli_usage("--damping: unknown '%s' (%s)", c->damping, names);
    }
    if (c->has_kn) { st->kn = c->kn; st->kn_rule = DEM_KN_GIVEN; }
    if (c->kn_from) {
        if (strcmp(c->kn_from, "hertz") == 0) st->kn_rule = DEM_KN_HERTZ;
        else if (strcmp(c->kn_from, "yade") == 0) st->kn_rule = DEM_KN_YADE;
        else if (strcmp(c->kn_from, "overlap") == 0) st->kn_rule = DEM_KN_OVERLAP;
        else cli_usage("--kn-from: unknown '%s' (hertz, yade, overlap)", c->kn_from);
    }
    if (c->carry) {
        int k = dem_carry_find(c->carry);
        if (k < 0) cli_usage("--carry: unknown '%s' (" DEM_CARRY_NAMES ")", c->carry);
        st->carry = (dem_carry)k;
    }
    if (c->rolling && (st->rolling = dem_rolling_find(c->rolling)) < 0) {
        dem_model_names(names, sizeof names, 3);
        cli_usage("--rolling: unknown '%s' (%s)", c->rolling, names);
    }
    if (c->twisting && (st->twisting = dem_twisting_find(c->twisting)) < 0) {
        dem_model_names(names, sizeof names, 4);
        cli_usage("--twisting: unknown '%s' (%s)", c->twisting, names);
    }
    /* a parameter given is never ignored: the chosen models must use it */
    if ((c->has_kr || c->has_eta_r) && !dem_rolling_models[st->rolling]->parameters)
        cli_usage("--rolling-%s: --rolling %s has no such parameter (sds and epsd have)", c->has_kr ? "stiffness" : "damping",
                  dem_rolling_models[st->rolling]->name);
    if ((c->has_ko || c->has_eta_o) && !dem_twisting_models[st->twisting]->parameters)
        cli_usage("--twisting-%s: --twisting %s has no such parameter (sds has; marshall takes them from the tangential law)",
                  c->has_ko ? "stiffness" : "damping", dem_twisting_models[st->twisting]->name);
    if (c->has_kr) st->rolling_stiffness = c->kr;
    if (c->has_eta_r) st->rolling_damping = c->eta_r;
    if (c->has_ko) st->twisting_stiffness = c->ko;
    if (c->has_eta_o) st->twisting_damping = c->eta_o;
    if (c->has_kt) st->kt = c->kt;
    if (c->has_vc) st->vc = c->vc;
    if (c->has_max_overlap) st->max_overlap = c->max_overlap;
    if (c->has_gamma_n) st->gamma_n = c->gamma_n;
    if (c->has_gamma_t) st->gamma_t = c->gamma_t;
    if (c->has_local) st->local_damping = c->local;
    if (c->local_form) {
        if (strcmp(c->local_form, "hanley") == 0) st->local_form = DEM_LOCAL_HANLEY;
        else if (strcmp(c->local_form, "yade") == 0) st->local_form = DEM_LOCAL_YADE;
        else cli_usage("--local-damping-form: unknown '%s' (hanley, yade)", c->local_form);
    }
    if (c->has_drag) st->drag = c->drag;
    if (c->has_skin) st->skin = c->skin;
    if (c->neighbor) {
        int g = dem_neighbor_grid_find(c->neighbor);
        if (g < 0) cli_usage("--neighbor: unknown '%s' (" DEM_NEIGHBOR_GRID_NAMES ")", c->neighbor);
        st->grid = (dem_neighbor_grid)g;
    }
    if (c->has_level_ratio) st->level_ratio = c->level_ratio;
    if (c->has_cell_gain) st->cell_gain = c->cell_gain;
    if (c->has_cell_max_rate) st->cell_max_rate = c->cell_max_rate;
    if (c->ignore && dem_settings_parse_ignore(st, c->ignore, &err)) cli_usage_err("--ignore", &err);
    /* validate the combination through the same checks a frame gets */
    if (dem_settings_write(st, &tmp, &err)) cli_usage("%s", err.msg);
    dem_system_free(&tmp);
}

static void apply_wall_velocities(const struct cmdline *c, dem_system *s)
{
    for (int k = 0; k < c->nwall_velocity; k++) {
        const char *arg = c->wall_velocity[k], *eq = strchr(arg, '=');
        if (!eq) cli_usage("--wall-velocity: '%s' is not K=VX,VY,VZ", arg);
        char idx[32];
        size_t n = (size_t)(eq - arg);
        if (n == 0 || n >= sizeof idx) cli_usage("--wall-velocity: '%s' is not K=VX,VY,VZ", arg);
        memcpy(idx, arg, n);
        idx[n] = 0;
        long long w = cli_int("--wall-velocity", idx, 0, 1000000);
        if ((size_t)w >= s->nwalls) cli_die("--wall-velocity: wall %lld does not exist: the frame has %zu wall(s)", w, s->nwalls);
        double v[3];
        cli_doubles("--wall-velocity", eq + 1, v, 3);
        s->walls[w].vel = dem_v3(v[0], v[1], v[2]);
    }
}

/* "xy" -> row 0, column 1; -1 if not a component name */
static int component(const char *t, size_t n, int *r, int *col)
{
    if (n != 2 || t[0] < 'x' || t[0] > 'z' || t[1] < 'x' || t[1] > 'z') return -1;
    *r = t[0] - 'x';
    *col = t[1] - 'x';
    return 0;
}

/* One "IJ=V[,IJ=V...]" list: calls set(row, col, value) for each. */
static void parse_components(const char *opt, const char *arg, int diagonal_only, dem_cell *cell,
                             void (*set)(dem_cell *, int, int, double))
{
    char *copy = strdup(arg), *save = NULL;
    if (!copy) cli_die("out of memory");
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int r, col;
        if (!eq || component(tok, (size_t)(eq - tok), &r, &col))
            cli_usage("%s: '%s' is not IJ=VALUE with I, J in x, y, z (e.g. zz=-1e-3)", opt, tok);
        if (diagonal_only && r != col) cli_usage("%s: '%s': the servo controls the normal stresses xx, yy, zz only", opt, tok);
        set(cell, r, col, cli_double(opt, eq + 1));
    }
    free(copy);
}

static void set_rate(dem_cell *cell, int r, int col, double v)
{
    cell->vgrad.m[r][col] = v;
    if (r == col) cell->stress_mask &= ~(1u << r);
}

static void set_target(dem_cell *cell, int r, int col, double v)
{
    (void)col;
    cell->target_stress.m[r][r] = v;
    cell->stress_mask |= 1u << r;
}

/* --cell-*: onto the frame's cell. */
static void apply_cell(const struct cmdline *c, dem_system *s)
{
    int any = c->cell_still || c->ncell_rate || c->ncell_stress || c->cell_reset;
    if (!any) return;
    if (!s->cell.flags) cli_die("--cell-*: the frame has no periodic cell (dem-pack --periodic makes one)");
    if (c->cell_still) {
        s->cell.vgrad = dem_m3_zero();
        s->cell.stress_mask = 0;
    }
    for (int k = 0; k < c->ncell_rate; k++) parse_components("--cell-rate", c->cell_rate[k], 0, &s->cell, set_rate);
    for (int k = 0; k < c->ncell_stress; k++) parse_components("--cell-stress", c->cell_stress[k], 1, &s->cell, set_target);
    for (int k = 0; k < 3; k++)
        if ((s->cell.stress_mask >> k & 1u) && !(s->cell.flags >> k & 1u))
            cli_die("--cell-stress: the cell is not periodic along %c: no stress can be servoed there", "xyz"[k]);
    if (c->cell_reset) s->cell.deform = dem_m3_identity();
}

/* --until, --cell-log, --every-time and the end of a --time run: after every step. */
typedef struct {
    const struct cmdline *c;
    FILE *log;
    double strain_start;
    int ke_armed;          /* the kinetic energy per particle has been >= E (first frame or a step) */
    uint64_t last_step;    /* --time: the run's last step, whose time is set to end_time */
    double end_time;       /* NAN: leave the time as summed */
    double frame_index;    /* --every-time: floor of the last frame's time / DT */
    char why[64];          /* meta.stop: the conditions' names joined by '+' */
} run_watch;

/* --every-time: the multiple of DT a time has reached, to dt/1000 (the round-off of the summed
 * time over a step count that divides DT exactly stays far below it). */
static double frame_index(const struct cmdline *c, double t, double dt) { return floor((t + 1e-3 * dt) / c->every_time); }

static double ke_per_particle(const dem_sim *sim)
{
    size_t n;
    double e = dem_sim_kinetic_energy(sim, &n);
    return n ? e / (double)n : 0.0;
}

/* The conditions that depend on the frame. */
static void check_until(run_watch *w, const dem_system *s, dem_sim *sim)
{
    const struct cmdline *c = w->c;
    if ((c->until & UNTIL_STRESS) && (!s->cell.flags || !s->cell.stress_mask))
        cli_die("--until stress: the cell has no stress targets (--cell-stress)");
    if (c->until & UNTIL_STRAIN) {
        if (!s->cell.flags) cli_die("--until strain: the frame has no periodic cell, so no strain");
        w->strain_start = dem_hencky_strain(s->cell.deform).m[c->strain_r][c->strain_c];
    }
    if (c->until & UNTIL_KE) w->ke_armed = ke_per_particle(sim) >= c->until_ke;
    w->why[0] = 0;
    for (int k = 0; k < c->nuntil; k++) {
        const char *u = c->until_arg[k];
        size_t len = strcspn(u, "=");
        snprintf(w->why + strlen(w->why), sizeof w->why - strlen(w->why), "%s%.*s", k ? "+" : "", (int)len, u);
    }
}

/* Whether the condition kind holds after this step (every kind is evaluated every step, so that
 * ke's arming follows the run). */
static int until_met(run_watch *w, dem_sim *sim, unsigned kind)
{
    const struct cmdline *c = w->c;
    switch (kind) {
    case UNTIL_STRAIN: {
        double e = dem_hencky_strain(dem_sim_cell_deform(sim)).m[c->strain_r][c->strain_c];
        return (c->strain_end >= w->strain_start && e >= c->strain_end) || (c->strain_end < w->strain_start && e <= c->strain_end);
    }
    case UNTIL_STRESS: {
        dem_mat3 sigma = dem_sim_cell_stress(sim), target = dem_sim_cell_target(sim);
        unsigned mask = dem_sim_cell_mask(sim);
        for (int k = 0; k < 3; k++)
            if ((mask >> k & 1u) && !(fabs(sigma.m[k][k] - target.m[k][k]) <= c->stress_tol * fabs(target.m[k][k])))
                return 0;
        return dem_sim_unbalanced(sim) <= c->unbalanced;
    }
    case UNTIL_KE: {
        double e = ke_per_particle(sim);
        if (e >= c->until_ke) w->ke_armed = 1;
        return w->ke_armed && e < c->until_ke;
    }
    case UNTIL_UNBALANCED: { /* the ratio is 0 without contacts; a falling particle is not balanced */
        size_t flying;
        return dem_sim_touching(sim, &flying) > 0 && flying == 0 && dem_sim_unbalanced(sim) < c->until_unbalanced;
    }
    }
    return 0;
}

static const char *watch_step(void *ctx, dem_sim *sim)
{
    run_watch *w = ctx;
    dem_error err;
    dem_vi_stats vs;
    if (w->c->verbose && dem_sim_vi_stats(sim, &vs) && vs.steps)
        fprintf(stderr, "dem-step: step %llu: Newton %u iterations, residual %.3g\n", (unsigned long long)dem_sim_steps(sim),
                vs.last_newton, vs.last_residual);
    if (dem_sim_steps(sim) == w->last_step && !isnan(w->end_time) && dem_sim_set_time(sim, w->end_time, &err)) cli_die_err(&err);
    dem_mat3 l = dem_sim_cell_rate(sim);
    if (w->log) {
        fprintf(w->log, "%llu", (unsigned long long)dem_sim_steps(sim));
        for (int r = 0; r < 3; r++)
            for (int col = 0; col < 3; col++) {
                char num[40];
                dem_format_double(num, sizeof num, l.m[r][col]);
                fprintf(w->log, "\t%s", num);
            }
        fputc('\n', w->log);
    }
    if (!w->c->until) return NULL;
    int all = 1;
    for (unsigned kind = 1u; kind <= UNTIL_UNBALANCED; kind <<= 1)
        if ((w->c->until & kind) && !until_met(w, sim, kind)) all = 0;
    return all ? w->why : NULL;
}

static int watch_frame(void *ctx, dem_sim *sim)
{
    run_watch *w = ctx;
    if (!(w->c->every_time > 0.0)) return 0;
    double i = frame_index(w->c, dem_sim_time(sim), dem_sim_dt(sim));
    if (!(i > w->frame_index)) return 0;
    w->frame_index = i;
    return 1;
}

/* --time T: n = ceil(T/dt) steps. Unless T is a whole number of steps already (to 1e-9 of a
 * step), dt becomes T/n for the run (and its frames). With --every-time DT and T a whole multiple
 * of DT (to 1e-9), n is a multiple of T/DT, so that every DT is a whole number of steps too. */
/* The steps of --time T. dt becomes T/n so that the run ends on T, except in the exact mode, whose
 * velocity lattice is tied to dt (a new dt would requantise the state, and a reversal would return
 * to that state, not to the frame's): there dt stays and the run ends at n dt >= T. */
static long long time_steps(const struct cmdline *c, double *dt, const dem_system *s, int exact)
{
    double t = c->run_time;
    long long n = cli_run_length(-1, t, *dt, s->time, s->step);
    if (n == 0) return 0;
    if (c->every_time > 0.0) {
        double q = t / c->every_time, qn = round(q);
        if (qn >= 1.0 && fabs(q - qn) <= 1e-9 * qn) {
            double m = ceil(c->every_time / *dt - 1e-9), nn = qn * m;
            if (nn <= (double)CLI_MAX_STEPS) n = (long long)nn;
        }
    }
    if (fabs(t / *dt - (double)n) > 1e-9 && exact) {
        if (!c->quiet)
            fprintf(stderr, "dem-step: --time %g s: %lld steps of dt = %.17g s end at %.17g s after the frame (the exact mode keeps dt: its lattice is tied to it)\n",
                    t, n, *dt, (double)n * *dt);
    } else if (fabs(t / *dt - (double)n) > 1e-9) {
        double d = t / (double)n;
        if (!c->quiet)
            fprintf(stderr, "dem-step: --time %g s: %lld steps of dt = %.17g s (T/n, not %.6g s; the frames carry it)\n", t, n, d, *dt);
        *dt = d;
    }
    return n;
}

static void report_dt(const dem_dt_estimates *e, double dt, int quiet)
{
    char pw[32], gs[48];
    if (isfinite(e->pwave)) snprintf(pw, sizeof pw, "%.4g s", e->pwave);
    else snprintf(pw, sizeof pw, "n/a (kn given)");
    if (isfinite(e->stiffness)) snprintf(gs, sizeof gs, "%.4g s", e->stiffness);
    else snprintf(gs, sizeof gs, "n/a (no contacts yet)");
    if (!quiet)
        fprintf(stderr, "dem-step: dt = %.4g s; estimates: collision time tc = %.4g s at vc (dt = tc/%.3g), p-wave %s, global stiffness %s\n",
                dt, e->contact_time, e->contact_time / dt, pw, gs);
    if (dt > e->contact_time / 10.0)
        cli_warn("dt = %g s is more than a tenth of the collision time %g s: collisions will be inaccurate", dt, e->contact_time);
    if (isfinite(e->pwave) && dt > e->pwave)
        cli_warn("dt = %g s exceeds the p-wave time step %g s, the stability bound of dense packings (Yade DEM formulation §1.5.6)", dt, e->pwave);
    if (isfinite(e->stiffness) && dt > 0.5 * e->stiffness)
        cli_warn("dt = %g s exceeds half the global-stiffness time step %g s: the run may be unstable", dt, e->stiffness);
}

/* How dt follows the material's stiffness under the chosen law, and the common remedy. The auto dt
 * is the smallest of tc/50, 0.2 p-wave and 0.3 global stiffness (report_dt); say which one binds
 * and how each scales: the collision time of Hertz (seed 001 eq 1) tc ~ (m*^2 / (R* E*^2 vc))^(1/5),
 * of a spring tc = pi sqrt(m* / kn); the p-wave step r sqrt(rho / E). Printed with -v, or when the
 * run is long enough for it to matter. */
/* -v: the neighbour search at its first build. */
static void report_neighbor(const dem_sim *sim, const dem_settings *st)
{
    dem_neighbor_info ni;
    dem_sim_neighbor_info(sim, &ni);
    fprintf(stderr, "dem-step: neighbour search %s (neighbor.grid %s)", ni.multi ? "multi" : "bin", dem_neighbor_grid_name(st->grid));
    if (ni.multi) {
        fprintf(stderr, ", %d level%s by radius ratio %g:", ni.levels, ni.levels == 1 ? "" : "s", st->level_ratio);
        for (int l = 0; l < ni.levels; l++)
            fprintf(stderr, "%s r_max %g m (%zu particles)", l ? "," : "", ni.rmax[l], ni.count[l]);
    }
    fprintf(stderr, "; first build: %llu distance tests, %zu pairs within the skin\n", (unsigned long long)ni.tests, ni.pairs);
}

static void dt_guidance(const dem_settings *st, const dem_dt_estimates *e, double dt, long long steps)
{
    const char *law = dem_normal_models[st->normal]->name;
    char tc[200];
    int hooke = strcmp(law, "hooke") == 0;
    if (hooke && st->kn_rule == DEM_KN_GIVEN)
        snprintf(tc, sizeof tc, "hooke with --kn: tc = pi sqrt(m*/kn), independent of E; kn / 100 gives tc x 10");
    else if (hooke && st->kn_rule == DEM_KN_OVERLAP)
        snprintf(tc, sizeof tc, "hooke with --kn-from overlap: kn from --max-overlap at --vc, not from E; a --max-overlap 100 times larger gives tc x 10");
    else if (hooke && st->kn_rule == DEM_KN_YADE)
        snprintf(tc, sizeof tc, "hooke with --kn-from yade: kn ~ E r, tc ~ E^(-1/2); E / 100 gives tc x 10");
    else
        snprintf(tc, sizeof tc, "%s: tc ~ E^(-2/5) vc^(-1/5); E / 100 gives tc x 6.3", hooke ? "hooke with --kn-from hertz" : law);
    const char *binds = "the frame's or --dt's, not the automatic choice";
    if (dt == e->recommended) {
        if (e->recommended == e->contact_time / 50.0) binds = "tc/50";
        else if (e->recommended == 0.2 * e->pwave) binds = "0.2 of the p-wave step r sqrt(rho/E) (~ E^(-1/2): E / 100 gives dt x 10)";
        else binds = "0.3 of the global-stiffness step sqrt(2m/K)";
    }
    fprintf(stderr, "dem-step: dt = %.4g s (%s), %lld steps. The collision time follows the contact stiffness (%s).\n", dt, binds, steps, tc);
    fprintf(stderr, "dem-step: Studies of dense and quasi-static granular flow commonly soften E (100 to 1000 times below the solid's: dem-pack --young, or --set-material on a stream) while the largest overlap stays below about 1%% of the radius, which dem-step reports at the end of the run (README \"Choosing the time step\").\n");
}

static void describe_overlap(char *buf, size_t size, const dem_overlap_record *m)
{
    if (m->wall)
        snprintf(buf, size, "%.3g%% of the radius (%.4g m, particle %llu on wall %llu, step %llu)", 100.0 * m->ratio, m->overlap,
                 (unsigned long long)m->i, (unsigned long long)m->j, (unsigned long long)m->step);
    else
        snprintf(buf, size, "%.3g%% of the smaller radius (%.4g m, particles %llu and %llu, step %llu)", 100.0 * m->ratio, m->overlap,
                 (unsigned long long)m->i, (unsigned long long)m->j, (unsigned long long)m->step);
}

/* The largest overlap of the run and of its last state (lib/sim guard.c), and whether they are
 * small enough for soft contacts to stand in for hard grains: the static overlaps of the end state
 * are what a quasi-static study must keep small; an impact's may be larger for a moment. */
static void report_overlap(const dem_sim *sim)
{
    dem_overlap_record most = dem_sim_largest_overlap(sim), now = dem_sim_current_overlap(sim);
    if (!(most.ratio > 0.0)) {
        fprintf(stderr, "dem-step: largest overlap: none (no contact during the run)\n");
        return;
    }
    char a[160], b[160];
    describe_overlap(a, sizeof a, &most);
    if (now.ratio > 0.0) describe_overlap(b, sizeof b, &now);
    else snprintf(b, sizeof b, "no contact");
    const char *note = "";
    if (now.ratio > 0.01)
        note = "; above about 1% at the end: the contacts are softer than the grains they stand for (a stiffer E, and a smaller dt)";
    else if (most.ratio > 0.01)
        note = "; above about 1% only during the run: impacts; a lower speed or a stiffer E keeps them smaller";
    fprintf(stderr, "dem-step: largest overlap %s; at the end %s%s\n", a, b, note);
}

/* --minimize (lib/sim/minimize.c), with its report. */
static void minimize(const struct cmdline *c, dem_sim *sim)
{
    dem_error err;
    dem_minimize_opts o = {c->ftol, c->max_iter ? (uint64_t)c->max_iter : 100000};
    if (o.ftol < 0.0) { /* the default: 1e-9 of the largest net force at the start */
        dem_minimize_opts probe = {INFINITY, 0};
        dem_minimize_result r0;
        if (dem_sim_minimize(sim, &probe, &r0, &err)) cli_die_err(&err);
        o.ftol = 1e-9 * r0.fmax0;
    }
    dem_minimize_result r;
    if (dem_sim_minimize(sim, &o, &r, &err)) cli_die_err(&err);
    if (!c->quiet || !r.converged)
        fprintf(stderr, "dem-step: --minimize: %llu iterations, %llu force evaluations: potential energy %.17g J, largest unbalanced force %.6g N (%.6g N at the start; tolerance %.6g N)%s\n",
                (unsigned long long)r.iterations, (unsigned long long)r.evaluations, r.energy, r.fmax, r.fmax0, o.ftol,
                r.converged ? "" : ": NOT converged, the iteration limit was reached");
}

/* No material parameter is inert without a message (issue 19): each one the chosen sub-models
 * do not use, by name (lib/laws/rolling.h). */
static void warn_inert(const dem_settings *st, const dem_system *s, int quiet)
{
    dem_inert_parameter list[8];
    int n = dem_inert_parameters(st, s->materials, s->nmaterials, list, 8);
    for (int k = 0; k < n && !quiet; k++) {
        const char *opt = strcmp(list[k].setting, "model.rolling") == 0 ? "--rolling"
                        : strcmp(list[k].setting, "model.twisting") == 0 ? "--twisting"
                        : strcmp(list[k].setting, "model.tangential") == 0 ? "--tangential"
                        : strcmp(list[k].setting, "model.damping") == 0 ? "--damping" : "--normal";
        cli_warn("materials have %s %g (material '%s') but %s is %s: it has no effect%s", list[k].parameter, list[k].value,
                 list[k].material, opt, list[k].model,
                 strcmp(opt, "--normal") == 0 ? " (only --normal dmt or jkr use it)"
                 : strcmp(list[k].model, "marshall") == 0 ? " (marshall takes its limit from the friction)" : "");
    }
}

/* An option given that the chosen sub-models do not use is said, by name (issue 19: nothing
 * accepted is silently ignored). */
static void warn_inert_options(const struct cmdline *c, const dem_settings *st, int quiet)
{
    if (quiet) return;
    const char *normal = dem_normal_models[st->normal]->name, *damping = dem_damping_models[st->damping]->name;
    int hooke = st->normal == DEM_NORMAL_HOOKE;
    if ((c->has_kn || c->kn_from || c->has_kt) && !hooke)
        cli_warn("%s: only --normal hooke uses it, and --normal is %s: it has no effect", c->has_kn ? "--kn" : c->kn_from ? "--kn-from" : "--kt",
                 normal);
    if ((c->has_gamma_n || c->has_gamma_t) && strcmp(damping, "viscous") != 0)
        cli_warn("%s: only --damping viscous uses it, and --damping is %s: it has no effect", c->has_gamma_n ? "--gamma-n" : "--gamma-t",
                 damping);
    if (c->has_max_overlap && !(hooke && st->kn_rule == DEM_KN_OVERLAP))
        cli_warn("--max-overlap: only --normal hooke --kn-from overlap uses it: it has no effect");
    if (c->has_vc && hooke && (st->kn_rule == DEM_KN_GIVEN || st->kn_rule == DEM_KN_YADE))
        cli_warn("--vc: neither --normal hooke's kn (given or --kn-from yade) nor anything else uses it: it has no effect");
    if (c->local_form && st->local_damping == 0.0)
        cli_warn("--local-damping-form: there is no local damping (--local-damping 0): it has no effect");
    if (c->carry && !dem_tangential_models[st->tangential]->uses_history && !dem_roll_on(st))
        cli_warn("--carry: --tangential %s has no history to carry: it has no effect", dem_tangential_models[st->tangential]->name);
}

/* An --ignore given here that switches off more than can have been meant, or nothing (issue 28):
 * said even with -q, like the time-step warnings. */
static void warn_ignore(const struct cmdline *c, const dem_settings *st, const dem_system *s)
{
    char note[4][DEM_NOTE_MAX];
    if (!c->ignore) return;
    int n = dem_ignore_notes(st, s, note, 4);
    for (int k = 0; k < n; k++) cli_warn("%s", note[k]);
}

int main(int argc, char **argv)
{
    cli_init("dem-step");
    struct cmdline c;
    parse_args(argc, argv, &c);
    dem_error err;
    dem_system s;
    dem_system_init(&s);
    cli_read_last_frame(c.input, &s);
    dem_settings st;
    if (dem_settings_read(&st, &s, &err)) cli_die("%s", err.msg);
    apply_overrides(&c, &st);
    warn_inert(&st, &s, c.quiet);
    warn_inert_options(&c, &st, c.quiet);
    warn_ignore(&c, &st, &s);
    apply_wall_velocities(&c, &s);
    apply_cell(&c, &s);
    adhesion_note(&st, &s);
    cli_output_open(c.output);

    dem_sim *sim = dem_sim_new(&s, &st, c.threads, &err);
    if (!sim) cli_die_err(&err);
    cli_note_threads(sim, c.threads, s.nparticles, c.quiet);
    dem_dt_estimates est;
    dem_sim_set_dt(sim, c.dt > 0.0 ? c.dt : s.dt > 0.0 && c.dt == 0.0 ? s.dt : 1.0);
    dem_sim_estimate_dt(sim, &est);
    double dt = c.dt > 0.0 ? c.dt : (s.dt > 0.0 && c.dt == 0.0) ? s.dt : est.recommended;
    if (!(dt > 0.0) || !isfinite(dt)) cli_die("cannot choose a time step (estimate %g s): give --dt", dt);
    int exact = c.exact > 0 || (c.exact == 0 && st.exact_quantum > 0.0); /* as cli_set_exact decides */
    long long steps = c.run_time >= 0.0 ? time_steps(&c, &dt, &s, exact) : c.steps;
    dem_sim_set_dt(sim, dt);
    report_dt(&est, dt, c.quiet);
    if (c.verbose || (!c.quiet && steps > 1000000)) dt_guidance(&st, &est, dt, steps);
    if (c.verbose) report_neighbor(sim, &st);
    if (c.stop_dt > 0.0 && s.nparticles > 1 && dt > c.stop_dt * est.contact_time) /* a lone particle has no pair */
        cli_die("dt = %g s is %.3g times the collision time %g s of the smallest pair: collisions would be skipped or blow up (--dt auto: %g s; --stop-dt %g is the limit, 0 turns it off)",
                dt, dt / est.contact_time, est.contact_time, est.recommended, c.stop_dt);
    dem_sim_set_limits(sim, &c.limits);
    cli_set_exact(sim, &st, &s, c.exact, c.quantum, c.quiet);

    if (c.minimize) minimize(&c, sim);
    /* The energy budget's reference (formats/dem-stream.md §5.9): E + D - W - e_ahead where the
     * accounting starts, at step 0 (or in a frame that has none). E holds velocity Verlet's
     * shadow term (lib/energy.h), which needs the dt of the steps to come and the forces of
     * the first kick: dem_sim_store gives the frame both, so the dt is set above, first. */
    if (s.step == 0 || isnan(s.energy[DEM_E_INITIAL]) || c.minimize) { /* minimised: the budget restarts */
        double e0;
        if (dem_sim_store(sim, &s, &err) || dem_energy_reference(&s, &st, &e0, &err)) cli_die_err(&err);
        dem_sim_set_energy(sim, DEM_E_INITIAL, e0);
    }

    steps = cli_run_length(steps, c.run_time, dt, s.time, s.step);
    run_watch watch = {&c, NULL, 0.0, 0, 0, NAN, 0.0, ""};
    check_until(&watch, &s, sim);
    double q;
    if (c.run_time >= 0.0 && steps > 0 && !dem_sim_exact(sim, &q)) { /* exact mode: the time is tick dt */
        watch.last_step = dem_sim_steps(sim) + (uint64_t)steps;
        watch.end_time = s.time + c.run_time;
    }
    if (c.every_time > 0.0) watch.frame_index = frame_index(&c, dem_sim_time(sim), dt);
    if (c.cell_log) {
        if (!(watch.log = fopen(c.cell_log, "w"))) cli_die("--cell-log: cannot write '%s': %s", c.cell_log, strerror(errno));
        fputs("step\tl11[1/s]\tl12[1/s]\tl13[1/s]\tl21[1/s]\tl22[1/s]\tl23[1/s]\tl31[1/s]\tl32[1/s]\tl33[1/s]\n", watch.log);
    }
    uint64_t first_step = dem_sim_steps(sim);
    cli_run_hooks hooks = {&watch, NULL, watch_step, c.until != 0, watch_frame};
    int status = cli_run_steps_hooked(sim, &s, steps, c.every, c.level, &hooks);
    if (watch.log && (fclose(watch.log) != 0)) cli_die("--cell-log: writing '%s' failed: %s", c.cell_log, strerror(errno));
    if (!c.quiet && status == 0 && dem_sim_steps(sim) > first_step) report_overlap(sim);
    dem_vi_stats vs;
    if (!c.quiet && dem_sim_vi_stats(sim, &vs) && vs.steps)
        fprintf(stderr, "dem-step: variational (alpha %g): %llu steps, %llu Newton iterations (at most %u in a step), %llu Krylov iterations; largest final residual %.3g (tolerance %g)\n",
                st.vi_alpha, (unsigned long long)vs.steps, (unsigned long long)vs.newton, vs.max_newton, (unsigned long long)vs.krylov,
                vs.max_residual, st.vi_newton_tol);
    dem_sim_free(sim);
    dem_system_free(&s);
    free(c.wall_velocity);
    free(c.cell_rate);
    free(c.cell_stress);
    return status;
}
