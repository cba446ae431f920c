/* normal_jkr.c - the Johnson-Kendall-Roberts adhesive normal law (Johnson, Kendall & Roberts
 * 1971; Johnson, Contact Mechanics 1985 §5.5; LAMMPS granular `jkr`), parametric in the contact
 * radius a, with gamma the pair's work of adhesion (dem_pair.gamma, J/m^2):
 *
 *     delta = a^2 / R* - sqrt(2 pi gamma a / E*)
 *     F     = 4 E* a^3 / (3 R*) - sqrt(8 pi gamma E* a^3)
 *     U     = 8 E* a^5 / (15 R*^2) - 4/3 E* d a^(7/2) / R* + pi gamma a^2,  d = sqrt(2 pi gamma / E*)
 *
 * (U = integral of F d delta from a = 0, where delta = 0 and F = 0: U' = F on the branch.)
 * Hysteresis: a new contact forms at delta = 0 on approach, where a jumps from 0 to
 * a_z = (2 pi gamma R*^2 / E*)^(1/3) and F to -4/3 pi gamma R* = -8/9 F_c; it holds on separation
 * through negative overlaps, through the largest tension F_c = 3/2 pi gamma R* (the pull-off
 * force, at a^3 = 9 pi gamma R*^2 / (8 E*)), down to delta_c = -3 a_c^2 / R*, a_c^3 =
 * pi gamma R*^2 / (8 E*), where d delta / d a = 0 and the neck breaks (F = -5/9 F_c). The loop
 * loses U(0 on the branch) = -3/5 pi gamma a_z^2 as the neck forms and U(delta_c) = 2/5 pi gamma
 * a_c^2 as it breaks: W_s = 7.09 (gamma^5 R*^4 / E*^2)^(1/3) in all, the work of separation of
 * Thornton & Ning (1998), whose sticking velocity is sqrt(2 W_s / m*).
 *
 * S_n = 2 E* a (LAMMPS' choice for the damping; the true dF/d delta diverges at delta_c); the
 * tangential law uses Mindlin's 8 G* a at this a and caps at mu |F_n + 2 F_c| (laws.h). */
#include <math.h>

#include "laws/settings.h"
#include "laws/laws.h"

double dem_jkr_radius(const dem_pair *p, double delta)
{
    double r = p->rstar, c = r * sqrt(2.0 * M_PI * p->gamma / p->estar), rd = r * delta;
    /* x0 = (c + B^3)^(1/3), B = (R* delta)^(1/4) (0 for delta <= 0), is above the largest root:
     * x0^4 = c x0 + x0 B^3 >= c x0 + B^4 (x0 >= B); within a few % of it for Hertz-like overlaps */
    double b = rd > 0.0 ? sqrt(sqrt(rd)) : 0.0, x = cbrt(c + b * b * b);
    if (!(x > 0.0)) return 0.0;
    for (int it = 0; it < 200; it++) {
        double x3 = x * x * x, fp = 4.0 * x3 - c;
        if (!(fp > 0.0)) break; /* at or below x_c: delta is past the neck's end */
        double xn = x - (x3 * x - c * x - rd) / fp;
        if (!(xn < x)) break;   /* stopped falling: converged */
        x = xn;
    }
    return x * x;
}

/* d = sqrt(2 pi gamma / E*) */
static void forms(const dem_pair *p, double delta, double *a, double *sa, double *d)
{
    *a = dem_jkr_radius(p, delta);
    *sa = sqrt(*a);
    *d = sqrt(2.0 * M_PI * p->gamma / p->estar);
}

static void eval(const dem_pair *p, double delta, double *f, double *s)
{
    double a, sa, d;
    forms(p, delta, &a, &sa, &d);
    double a3 = a * a * a;
    *f = 4.0 * p->estar * a3 / (3.0 * p->rstar) - 2.0 * p->estar * d * a * sa; /* sqrt(8 pi gamma E* a^3) = 2 E* d a^(3/2) */
    *s = 2.0 * p->estar * a;
}

static double force(const dem_pair *p, double delta)
{
    double f, s;
    eval(p, delta, &f, &s);
    return f;
}

static double stiffness(const dem_pair *p, double delta)
{
    double f, s;
    eval(p, delta, &f, &s);
    return s;
}

static double energy(const dem_pair *p, double delta)
{
    double a, sa, d, r = p->rstar;
    forms(p, delta, &a, &sa, &d);
    double a2 = a * a;
    return p->estar * (8.0 * a2 * a2 * a / (15.0 * r * r) - 4.0 * d * a2 * a * sa / (3.0 * r) + 0.5 * d * d * a2);
}

/* delta_c = -3 a_c^2 / R*, a_c = x_c^2, x_c = (c / 4)^(1/3): where 4 x^3 = c. */
static double neck(const dem_pair *p)
{
    double c = p->rstar * sqrt(2.0 * M_PI * p->gamma / p->estar), xc = cbrt(0.25 * c);
    return -3.0 * xc * xc * xc * xc / p->rstar;
}

const dem_normal_model dem_law_jkr = {"jkr", force, stiffness, energy, eval, 1.5, neck};
