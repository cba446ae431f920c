# check.awk - one drop-drag case against the physics (Hanley 2019, §5.2; docs/models.md §4.2).
#
# Input: dem-probe --particles --fields mass of the whole run (frame 0 = the initial state) of one
# sphere above the plane z = 0. Variables: CASE, GAP (initial gap, m), DT, GD (gamma_d), G (m/s^2,
# negative), E, NU (sphere), EW, NUW (plane), TS (time series to write).
# Output: the case's summary table: case, quantity, measured, expected, relative difference, ok.
#
# Drag damping multiplies the half-step velocity by gamma_d every step (Hanley 2019, eq 25). In free
# fall, with w_n the full-step velocity after n steps (w_0 = 0):
#     w_{n+1} = gamma_d w_n + (dt/2) g (1 + gamma_d)
# so w_n = w_inf (1 - gamma_d^n) exactly, w_inf = g dt (1 + gamma_d) / (2 (1 - gamma_d)); the
# pre-damping half-step velocity h = w + (dt/2) F/m tends to g dt / (1 - gamma_d) (Hanley's
# terminal velocity, exact for h). Each pre-impact frame gives the terminal velocity as
# w_n / (1 - gamma_d^n), even when the sphere hits the plane before reaching it (cases A, B).
# Continuous equivalent: drag rate b = (1 - gamma_d)/dt, v(t) = v_T (1 - exp(-b t)), v_T = g/b,
# fall height v_T t - v_T/b (1 - exp(-b t)): gives the impact time and speed.
# At rest on the plane the overlap is the static Hertz overlap (m |g| / (4/3 E* sqrt(r)))^(2/3).
# "At rest" in floating point: once |vz| dt is below half an ulp of z (about 4e-11 m/s here)
# z + vz dt rounds to z and the sphere stops moving; the velocity then settles where the drag
# balances the residual force of that frozen position, a few 1e-11 m/s, not exactly 0.
function abs(x) { return x < 0 ? -x : x }
# one summary row; exp_ == "": nothing to compare with; tol == "": information only
function row(q, meas, exp_, tol,    rel, ok) {
    if (exp_ == "") { printf "%s\t%s\t%.12g\t\t\tinfo\n", CASE, q, meas; return }
    rel = exp_ != 0 ? meas / exp_ - 1 : meas
    ok = tol == "" ? "info" : (abs(rel) <= tol ? "ok" : "FAIL")
    printf "%s\t%s\t%.12g\t%.12g\t%.3g\t%s\n", CASE, q, meas, exp_, rel, ok
}
BEGIN { FS = OFS = "\t"; nf = 0 }
NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
{
    n = $col["step"]; t = $col["time[s]"]; z = $col["z[m]"]; v = $col["vz[m/s]"]; fz = $col["fz[N]"]
    m = $col["mass[kg]"]; r = $col["r[m]"]
    S[nf] = n; T[nf] = t; Z[nf] = z; V[nf] = v; FZ[nf] = fz; nf++
}
END {
    winf = G * DT * (1 + GD) / (2 * (1 - GD))          # full-step terminal velocity (exact)
    vH = G * DT / (1 - GD)                              # Hanley: pre-damping half-step (exact)
    b = (1 - GD) / DT; vT = G / b
    Es = 1 / ((1 - NU * NU) / E + (1 - NUW * NUW) / EW)
    ds = (m * abs(G) / (4 / 3 * Es * sqrt(r))) ^ (2 / 3)
    print "time[s]", "z[m]", "vz[m/s]", "gap[m]" > TS
    first = -1; bounces = 0; incontact = 0; fitmax = 0; curvemax = 0; nfit = 0
    for (i = 0; i < nf; i++) {
        gap = Z[i] - r
        printf "%.17g\t%.17g\t%.17g\t%.17g\n", T[i], Z[i], V[i], gap > TS
        if (gap < 0 && !incontact) { bounces++; incontact = 1; if (first < 0) first = i }
        if (gap >= 0) incontact = 0
        if (first < 0 && S[i] > 0) {
            q = 1 - exp(S[i] * log(GD))                   # 1 - gamma_d^n
            dev = abs(V[i] - winf * q) / abs(winf)
            if (dev > curvemax) curvemax = dev
            if (S[i] >= 100000) {                         # t >= 1 ms: 1 - gamma_d^n >= 0.63
                est = V[i] / q; nfit++
                if (abs(est / winf - 1) > fitmax) { fitmax = abs(est / winf - 1); worst = est }
                last_est = est
            }
            ilast = i
        }
    }
    # impact: the first frame in contact, the gap crossing interpolated linearly
    timp = T[first - 1] + (T[first] - T[first - 1]) * (Z[first - 1] - r) / ((Z[first - 1] - r) - (Z[first] - r))
    vimp = V[ilast] + (V[first] - V[ilast]) * (timp - T[ilast]) / (T[first] - T[ilast])
    # expected impact time: gap + vT t - vT/b (1 - exp(-b t)) = 0 (Newton)
    te = sqrt(2 * GAP / abs(G))
    for (k = 0; k < 100; k++) { h = GAP + vT * te - vT / b * (1 - exp(-b * te)); dh = vT * (1 - exp(-b * te)); te -= h / dh }
    vimp_e = vT * (1 - exp(-b * te))
    hlast = V[ilast] + DT / 2 * FZ[ilast] / m          # pre-damping half-step velocity of the next step
    iend = nf - 1; dend = r - Z[iend]
    vmax_end = 0
    for (i = nf - 1; i >= 0 && T[iend] - T[i] <= 1e-3; i--) if (abs(V[i]) > vmax_end) vmax_end = abs(V[i])
    print "case", "quantity", "measured", "expected", "relative_difference", "verdict"
    row("terminal velocity from the pre-impact approach w_n/(1-gd^n) [m/s] vs full-step g dt (1+gd)/(2(1-gd))", last_est, winf, 1e-6)
    row("terminal velocity from the pre-impact approach [m/s] vs Hanley g dt/(1-gd)", last_est, vH, 1e-3)
    row("worst of " nfit " pre-impact frames' terminal-velocity estimates vs full-step formula", worst, winf, 1e-6)
    row("max |w_n - w_inf (1-gd^n)|/|w_inf| before impact (the exact discrete free fall)", curvemax, 0, 1e-9)
    row("velocity at the last frame before impact [m/s] vs full-step terminal velocity", V[ilast], winf, CASE == "c" ? 1e-6 : "")
    row("pre-damping half-step velocity before impact [m/s] vs Hanley g dt/(1-gd)", hlast, vH, CASE == "c" ? 1e-6 : "")
    row("impact time [s] vs continuous drag solution", timp, te, 1e-3)
    row("impact speed [m/s] vs continuous drag solution", vimp, vimp_e, 1e-3)
    row("impact speed / terminal speed", vimp / winf, "", "")
    row("contact intervals (first impact and rebounds)", bounces, "", "")
    row("final overlap [m] vs static Hertz overlap", dend, ds, CASE == "a" ? 1e-3 : 1e-6)
    row("max |vz| over the last ms [m/s] / terminal speed", vmax_end / abs(winf), 0, CASE == "a" ? "" : 1e-6)
    row("final |vz| [m/s]", abs(V[iend]), "", "")
    for (i = iend; i > 0 && Z[i - 1] == Z[i]; i--) ;
    row("time from which z no longer changes (|vz| dt below half an ulp of z) [s]", T[i], "", "")
    row("final net force [N] / weight", FZ[iend] / (m * abs(G)), "", "")
}
