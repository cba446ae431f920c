# partab.awk - parts A and B: the LAMMPS-example case (size ratio 20, mu = 0.5, theta0 = 1 degree)
# with the improved and the standard velocity-Verlet against the rigid-body solution.
#   awk -v AN="analytic summary line" -v TOL=0.02 -v SUM=summary.tsv -f partab.awk improved.tsv vv.tsv
# Inputs: frames.awk tables. Prints the verdict lines (PASS/FAIL) of parts A and B; exit 1 on FAIL.
#
# Separation: the improved run's first frame without contacts after the last frame with contacts
# (the dem-probe summary's contact count: only the fine sphere can touch anything here); its time
# and angle are taken half-way between those two frames. Slip: the first frame after 1 ms (the
# first microseconds are the sphere settling into the groove) with a contact at the Coulomb limit.
# Trapped: the standard run still has contacts at its end, having been in contact at theta past
# 90 degrees, where no free sphere can stay (the contacts can only push outward and gravity pulls
# it off).
function abs(x) { return x < 0 ? -x : x }
function row(q, meas, exp_, tol,    rel, ok) {
    if (exp_ == "") { printf "%s\t%.9g\t\t\tinfo\n", q, meas > SUM; return 1 }
    rel = meas / exp_ - 1
    ok = tol == "" ? "info" : (abs(rel) <= tol ? "ok" : "FAIL")
    printf "%s\t%.9g\t%.9g\t%.3g\t%s\n", q, meas, exp_, rel, ok > SUM
    return ok != "FAIL"
}
BEGIN { FS = "\t"; pi = atan2(0, -1); split(AN, an, "\t"); minoff = 1; maxth = -10 }
FNR == 1 { file++; next }
file == 1 {
    n1++; T1[n1] = $1; TH1[n1] = $2; W1[n1] = $4; C1[n1] = $5
    if ($5 > 0) last1 = n1
    if ($6 == 1 && $1 > 1e-3 && ts == "") { ts = $1; ths = $2 }
}
file == 2 {
    n2++; T2 = $1; C2 = $5; if ($5 > 0 && ($2 > pi / 2 || $2 < 0)) past90 = 1
    if ($5 > 0 && $3 > maxth) maxth = $3
    if (n2 == 2) off0 = $7
    if ($7 < minoff) minoff = $7
    W2 = $4
}
END {
    print "quantity\tmeasured\texpected\trelative_difference\tverdict" > SUM
    okA = 1
    if (last1 == "" || last1 == n1) { print "FAIL: part A: the fine sphere did not separate with vv-improved"; okA = 0 }
    else {
        tsep = (T1[last1] + T1[last1 + 1]) / 2; thsep = (TH1[last1] + TH1[last1 + 1]) / 2; wsep = W1[last1 + 1]
        okA = row("A: separation time t_sep [s] (vv-improved vs eqs 39, 45)", tsep, an[4], TOL) && okA
        okA = row("A: separation angle theta_sep [rad]", thsep, an[3], TOL) && okA
        row("A: angular velocity after separation [rad/s]", wsep, an[5], "")
        row("A: slip onset t_s [s] (first contact at the Coulomb limit after 1 ms)", ts, an[2], "")
        row("A: slip onset angle theta_s [rad]", ths, an[1], "")
    }
    okB = C2 > 0 && past90
    row("B: vv: contacts at the end of the run (t = " T2 " s)", C2, "", "")
    row("B: vv: largest angle reached in contact, unwrapped [rad]", maxth, "", "")
    row("B: vv: radial offset from rho at the start [m]", off0, "", "")
    row("B: vv: deepest radial offset [m] (sinks into the groove)", minoff, "", "")
    row("B: vv: |omega| at the end [rad/s]", W2, "", "")
    printf "B: vv: trapped (in contact past 90 degrees and at the end)\t%s\t\t\t%s\n", okB ? "yes" : "no", okB ? "ok" : "FAIL" > SUM
    printf "%s: part A: vv-improved separates at t = %.6g s, theta = %.6g rad (analytic %.6g s, %.6g rad: %+.3f%%, %+.3f%%), omega %.6g rad/s (analytic %.6g)\n",
           okA ? "PASS" : "FAIL", tsep, thsep, an[4], an[3], 100 * (tsep / an[4] - 1), 100 * (thsep / an[3] - 1), wsep, an[5]
    printf "%s: part B: vv with mu = 0.5 > mu_c = %.4f %s (contacts at t = %.3g s: %d, largest angle in contact %.3g rad, sank from %.3g m to %.3g m)\n",
           okB ? "PASS" : "FAIL", an[9], okB ? "stays trapped" : "was NOT trapped", T2, C2, maxth, off0, minoff
    exit !(okA && okB)
}
