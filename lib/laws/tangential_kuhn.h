/* tangential_kuhn.h - Kuhn's refined linear-frictional contact (Kuhn et al. 2020; docs/models.md §2): the
 * algorithm of one time step (Fig. 1) as a function of the step's movements, for the sub-model
 * (tangential_kuhn.c, which holds its registry row, its evaluation and its books) and for tests.
 *
 * Conventions (docs/models.md §2): p is particle i of the contact record, q is j; f is the
 * tangential force on p (i), so the force on i of dem-step; du is the tangential movement of q
 * relative to p at the contact over the step (dem-step: du = -v_t dt), so that an elastic
 * increment is df = +kt du and f . du is work done on the contact. Within the step the overlap and
 * the movement grow in proportion to beta in [0, 1] (Kuhn et al. 2020, eq 4). */
#ifndef DEM_LAWS_TANGENTIAL_KUHN_H
#define DEM_LAWS_TANGENTIAL_KUHN_H

#include "core/vec.h"

typedef struct {
    dem_vec3 f0;   /* tangential force at the start of the step, in the plane of du, N */
    int fresh;     /* 1: the contact did not exist at the start of the step */
    double zeta1;  /* overlap at the end of the step, m (> 0) */
    double dzeta;  /* its change over the step, m (compression positive: Kuhn et al. 2020, eq 6) */
    dem_vec3 du;   /* tangential movement of q relative to p over the step, m */
    double kn, kt; /* linear normal and tangential stiffnesses, N/m */
    double mu;     /* friction coefficient */
} dem_kuhn_in;

typedef struct {
    dem_vec3 f1;   /* tangential force at the end of the step, N (|f1| <= mu kn zeta1) */
    double work;   /* tangential work done on the contact over the step, J (Fig. 1 lines 18, 28, 45) */
    double beta0;  /* where in the step a fresh contact began (eq 7); 0 for a persisting one */
    double betas;  /* where in the step sliding began (eqs 13-14); 1 if it did not slide */
    int sliding;   /* the friction limit acted in this step */
    int fresh;     /* the step began the contact (eqs 7-8), whatever f0 was */
} dem_kuhn_out;

/* One step of the tangential force: fresh contact (eqs 7-8), elastic trial (eq 2), slip onset
 * (eqs 9-14, robust form of docs/models.md §2.4), turning of the force while it slides (eqs 16-19,
 * vector form of §2.6), the final force (eqs 20-21), and the work (§2.9: the elastic part exact,
 * the sliding part exact for a constant normal force, with a 5-point Gauss rule for the part
 * that a changing normal force adds). Projection and twirl (eqs 22-23) are the caller's: they
 * carry f0 onto the step's plane. */
void dem_kuhn_step(const dem_kuhn_in *in, dem_kuhn_out *out);

/* The root in [0, 1] of a beta^2 + 2 b beta + c = 0 for c <= 0 < a + 2b + c (eqs 10-14, robust
 * form of docs/models.md §2.4: no cancellation, a = 0 included). */
double dem_kuhn_slip_onset(double a, double b, double c);

/* Direction of a sliding force after a movement along unit d that turns it by Lambda (eq 18):
 * from unit e0 in the plane of d, the closed form (19) in vector form (docs/models.md §2.6). */
dem_vec3 dem_kuhn_turn(dem_vec3 e0, dem_vec3 d, double lambda);

/* Lambda of eq 18: kt |du| / (mu times the logarithmic mean of fn0 and fn0 + dfn). */
double dem_kuhn_lambda(double kt, double du, double mu, double fn0, double dfn);

#endif
