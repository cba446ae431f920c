/* kuhn-fig4 - test helper: Kuhn et al. 2020, Fig. 4, the direction of a sliding contact force after a
 * movement across it, by three methods, as a TSV table (the data of the figure).
 *
 * Usage: kuhn-fig4 [POINTS [MAX]]    (default 40 points of movement up to 4 yield lengths)
 *
 * One contact (hooke, kn 1e5 N/m, kt 8e4 N/m, friction 0.5, no damping) is loaded to its
 * friction limit, the tangential force along y, and then moved along z by `movement` yield
 * lengths mu fn / kt in one time step, with its normal force held: sphere i spins about y,
 * which moves its contact point along z and nothing else. Columns, per movement:
 *   movement        kt |du| / (mu fn)
 *   kuhn[rad]       the angle the force turned, dem-step's --tangential kuhn (dem_contact_probe)
 *   rk4[rad]        the same from the elastic-plastic rate equations of the contact (the part
 *                   of the movement across the force elastic, the force on the friction circle:
 *                   df/dbeta = kt (du - (du.e) e)), RK4 in 20000 steps
 *   conventional[rad]  the add-and-project rule, dem-step's --tangential history: atan(movement)
 * For Kuhn's closed form the angle is gd(movement) = 2 atan(tanh(movement/2)). Exit status 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"

static double probe_angle(const char *law, double move)
{
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1e5;
    st.kt = 8e4;
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, law);
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    dem_material m = dem_material_default();
    m.friction = 0.5;
    double r = 1e-3, delta = 1e-6, dt = 1e-6, fn = st.kn * delta, l = r - 0.5 * delta, inertia;
    dem_probe_state ps;
    memset(&ps, 0, sizeof ps);
    ps.xi = dem_v3(r - 0.5 * delta, 0, 0);
    ps.xj = dem_v3(-(r - 0.5 * delta), 0, 0);
    ps.ri = ps.rj = r;
    dem_sphere_mass(r, m.density, &ps.mi, &inertia);
    ps.mj = ps.mi;
    ps.wi = dem_v3(0, move * m.friction * fn / st.kt / (l * dt), 0); /* contact point of i: l w z */
    double hist[3] = {0, -m.friction * fn / st.kt, 0};                /* xi = -f / kt, f along +y */
    int sliding;
    dem_vec3 fnv, ft;
    dem_contact_probe(&st, &m, &m, dt, &ps, hist, &sliding, &fnv, &ft);
    return atan2(-ft.z, ft.y); /* the movement du = -v_t dt of j relative to i is along -z */
}

/* df/dbeta = kt (du - (du.e) e) in the plane (y along the start, z along du), |f| = mu fn */
static void rate(const double f[2], double kt_du, double out[2])
{
    double n = sqrt(f[0] * f[0] + f[1] * f[1]), e0 = f[0] / n, e1 = f[1] / n, ue = kt_du * e1;
    out[0] = -ue * e0;
    out[1] = kt_du - ue * e1;
}

static double rk4_angle(double move)
{
    double cap = 1.0, f[2] = {cap, 0.0}, kt_du = move * cap; /* in units of mu fn */
    int n = 20000;
    double h = 1.0 / n;
    for (int k = 0; k < n; k++) {
        double k1[2], k2[2], k3[2], k4[2], t[2];
        rate(f, kt_du, k1);
        for (int c = 0; c < 2; c++) t[c] = f[c] + 0.5 * h * k1[c];
        rate(t, kt_du, k2);
        for (int c = 0; c < 2; c++) t[c] = f[c] + 0.5 * h * k2[c];
        rate(t, kt_du, k3);
        for (int c = 0; c < 2; c++) t[c] = f[c] + h * k3[c];
        rate(t, kt_du, k4);
        for (int c = 0; c < 2; c++) f[c] += h / 6.0 * (k1[c] + 2.0 * k2[c] + 2.0 * k3[c] + k4[c]);
    }
    return atan2(f[1], f[0]);
}

int main(int argc, char **argv)
{
    int points = argc > 1 ? atoi(argv[1]) : 40;
    double max = argc > 2 ? atof(argv[2]) : 4.0;
    if (points < 1 || !(max > 0.0)) {
        fprintf(stderr, "usage: kuhn-fig4 [POINTS [MAX]]\n");
        return 2;
    }
    printf("movement\tkuhn[rad]\trk4[rad]\tconventional[rad]\n");
    for (int k = 1; k <= points; k++) {
        double move = max * k / points;
        printf("%.17g\t%.17g\t%.17g\t%.17g\n", move, probe_angle("kuhn", move), rk4_angle(move), probe_angle("history", move));
    }
    return 0;
}
