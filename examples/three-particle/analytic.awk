# analytic.awk - the rigid-body solution of a fine sphere rolling off two touching large spheres
# (Vyas et al., Vyas et al. 2025, Appendix 1; docs/models.md §1.7, eqs 33-45).
#
#   awk -v R=0.005 -v ratio=20 -v mu=0.5 -v th0deg=1 [-v g=9.81] [-v TRAJ=file -v TEND=0.3 -v DTOUT=1e-4] -f analytic.awk
#
# prints one line: theta_s t_s theta_sep t_sep omega_sep rho cos_phi kappa mu_c (rad, s, rad/s, m)
# and, with TRAJ, writes t, theta, |omega| and the phase (0 rolling, 1 sliding, 2 free flight)
# every DTOUT up to TEND to TRAJ.
#
# Pure rolling from rest at theta0 (eq 39: rho theta'' = g sin(theta) / kappa, omega = rho theta'/r_p)
# until the friction needed reaches mu N per contact at theta_s (closed form, docs/models.md §1.7);
# then sliding, eq 45: rho theta'' = g sin(theta) - mu/cos(phi) (g cos(theta) - rho theta'^2),
# omega' = 5 mu/(2 r) (g cos(theta) - rho theta'^2), until N = 0 (rho theta'^2 = g cos(theta)):
# separation. RK4 with a 1 us step; the slip and separation instants are interpolated.
# After separation the centre flies on a parabola and omega stays constant.
function asin(x) { return atan2(x, sqrt(1 - x * x)) }
function acc(th, om) {
    if (phase == 0) return g * sin(th) / (kap * rho)
    return (g * sin(th) - mu / cphi * (g * cos(th) - rho * om * om)) / rho
}
function wdot(th, om) { return phase == 0 ? 0 : 5 * mu / (2 * r) * (g * cos(th) - rho * om * om) }
function out(t, th, w) { if (TRAJ != "") printf "%.9g\t%.9g\t%.9g\t%d\n", t, th, w, phase > TRAJ }
BEGIN {
    if (g == "") g = 9.81
    pi = atan2(0, -1); th0 = th0deg * pi / 180; r = R / ratio
    rho = sqrt(r * r + 2 * R * r); cphi = rho / (R + r); rp = r * cphi
    kap = 1 + 2 / (5 * cphi * cphi)
    A = (kap - 1) * cphi; B = mu * (kap + 2); C = 2 * mu * cos(th0)
    ths = atan2(B, A) - asin(C / sqrt(A * A + B * B))
    h = 1e-6; t = 0; th = th0; om = 0; w = 0; phase = 0; ts = 0
    if (ths <= th0) { ths = th0; phase = 1 }       # slides at once
    if (TRAJ != "") print "time[s]\ttheta[rad]\tomega[rad/s]\tphase" > TRAJ
    nout = 0
    while (1) {
        if (t >= nout * DTOUT) { out(t, th, w); nout++ }
        k1t = om;           k1o = acc(th, om);                         k1w = wdot(th, om)
        k2t = om + h/2*k1o; k2o = acc(th + h/2*k1t, om + h/2*k1o);     k2w = wdot(th + h/2*k1t, om + h/2*k1o)
        k3t = om + h/2*k2o; k3o = acc(th + h/2*k2t, om + h/2*k2o);     k3w = wdot(th + h/2*k2t, om + h/2*k2o)
        k4t = om + h*k3o;   k4o = acc(th + h*k3t, om + h*k3o);         k4w = wdot(th + h*k3t, om + h*k3o)
        nth = th + h/6*(k1t + 2*k2t + 2*k3t + k4t); nom = om + h/6*(k1o + 2*k2o + 2*k3o + k4o)
        nw = phase == 0 ? rho * nom / rp : w + h/6*(k1w + 2*k2w + 2*k3w + k4w)
        if (phase == 0 && nth >= ths) {            # slip: restart from the interpolated instant
            f = (ths - th) / (nth - th); ts = t + f * h
            om = om + f * (nom - om); th = ths; t = ts; w = rho * om / rp; phase = 1; continue
        }
        Q0 = g * cos(th) - rho * om * om; Q1 = g * cos(nth) - rho * nom * nom
        if (phase == 1 && Q1 <= 0) {
            f = Q0 / (Q0 - Q1); tsep = t + f * h; thsep = th + f * (nth - th)
            omsep = om + f * (nom - om); wsep = w + f * (nw - w)
            break
        }
        th = nth; om = nom; w = nw; t += h
        if (t > 100) { print "analytic.awk: no separation within 100 s" > "/dev/stderr"; exit 1 }
    }
    printf "%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\n", ths, ts, thsep, tsep, wsep, rho, cphi, kap, sqrt(1 + 2 * ratio) / ratio
    if (TRAJ != "") {                              # free flight of the centre after separation
        phase = 2; y0 = rho * sin(thsep); z0 = rho * cos(thsep)
        vy = rho * omsep * cos(thsep); vz = -rho * omsep * sin(thsep)
        for (; nout * DTOUT <= TEND; nout++) {
            tt = nout * DTOUT
            if (tt < tsep) continue
            s = tt - tsep
            out(tt, atan2(y0 + vy * s, z0 + vz * s - g * s * s / 2), wsep)
        }
    }
}
