# reverse.awk - one drop-drag case run backwards (dem-reverse) against its forward run (Hanley,
# Hanley 2019, §5.2, Fig. 6; drag undone by eqs 27-28).
# Files: the forward time series (check.awk's TS: time z vz gap, frame 0 = the initial state),
# then dem-probe --particles of the reversed run (frames of decreasing time, down to t = 0).
# Variables: CASE, STEP (time between frames, s), TOL (|v_rev - v_fwd| / peak |v_fwd| that counts
# as recovered), DEV (the same ratio that counts as not recovered), TS (joined series to write).
# Output: summary rows: case, quantity, measured, expected, relative difference, verdict.
# Expected: A recovers its history (largest deviation < TOL); B and C do not (> DEV): B's sphere
# has come to rest, which erases its past; C reached the terminal velocity before the impact, and
# the reversed run leaves that plateau at a moment set by round-off. C still retraces the bounce:
# the reversed run agrees with the forward one (within TOL) from the end back to before the impact.
function abs(x) { return x < 0 ? -x : x }
# the frame number of time t ("-0" for a time a round-off below 0 would miss frame 0)
function frame_key(t,    k) { k = sprintf("%.0f", t / STEP); return k == "-0" ? "0" : k }
function row(q, meas, exp_, ok) { printf "%s\treversed: %s\t%s\t%s\t\t%s\n", CASE, q, meas, exp_, ok }
BEGIN { FS = OFS = "\t" }
FNR == 1 { file++; for (k = 1; k <= NF; k++) col[file, $k] = k; next }
file == 1 {
    k = frame_key($1); key[nf++] = k
    T[k] = $1; Z[k] = $2; V[k] = $3
    if (abs($3) > peak) peak = abs($3)
    if ($4 < 0 && timp == "") timp = $1                 # first frame in contact
    if (nf > 1 && $3 != vprev) tchange = $1             # the last frame whose velocity changed
    if (timp == "") { if (nf > 1 && $3 == vprev) { if (tconst == "") tconst = tprev } else tconst = "" }
    tprev = $1                                          # tconst: velocity exactly constant since, before impact
    vprev = $3
    next
}
{
    t = $col[2, "time[s]"]; k = frame_key(t)
    if (!(k in T)) { unmatched++; next }
    RZ[k] = $col[2, "z[m]"]; RV[k] = $col[2, "vz[m/s]"]; nrev++
    if (nrev > 1 && RV[k] != rvprev) rchanges++
    rvprev = RV[k]
}
END {
    print "time[s]", "z_fwd[m]", "vz_fwd[m/s]", "z_rev[m]", "vz_rev[m/s]", "dev" > TS
    tagree = T[key[nf - 1]]
    for (i = nf - 2; i >= 0; i--) {                     # from the end (where the reversal starts) back
        k = key[i]
        if (!(k in RV)) { missing++; continue }
        d = abs(RV[k] - V[k]) / peak
        if (d > dmax) { dmax = d; tmax = T[k] }
        if (!broken && d <= TOL) tagree = T[k]; else broken = 1
        dz = abs(RZ[k] - Z[k]); if (dz > dzmax) dzmax = dz
    }
    for (i = 0; i < nf - 1; i++) { k = key[i]; if (k in RV) printf "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.6g\n", T[k], Z[k], V[k], RZ[k], RV[k], abs(RV[k] - V[k]) / peak > TS }
    close(TS)
    recover = CASE == "a"
    print "case", "quantity", "measured", "expected", "relative_difference", "verdict"
    row("frames matched with the forward run", nrev, nf - 1, nrev == nf - 1 && !missing && !unmatched ? "ok" : "FAIL")
    row("max |v_rev - v_fwd| / peak |v_fwd|", sprintf("%.3g (t = %.4g ms)", dmax, tmax * 1e3), recover ? "< " TOL : "> " DEV,
        recover ? (dmax < TOL ? "ok" : "FAIL") : (dmax > DEV ? "ok" : "FAIL"))
    row("peak |v_fwd| [m/s]", sprintf("%.6g", peak), "", "info")
    row("velocity back at t = 0 [m/s]", sprintf("%.6g", RV[key[0]]), "0", "info")
    row("centre height back at t = 0 [m]", sprintf("%.9g", RZ[key[0]]), sprintf("%.9g", Z[key[0]]), "info")
    row("max |z_rev - z_fwd| [m]", sprintf("%.3g", dzmax), "", "info")
    row("agrees within " TOL " of the peak speed from the end back to t [ms]", sprintf("%.4g", tagree * 1e3), CASE == "c" ? sprintf("< impact %.4g", timp * 1e3) : "", \
        CASE == "c" ? (tagree < timp ? "ok" : "FAIL") : "info")
    row("forward impact (first frame in contact) [ms]", sprintf("%.4g", timp * 1e3), "", "info")
    row("forward velocity exactly constant before the impact from [ms]", tconst == "" ? "never" : sprintf("%.4g", tconst * 1e3), "", "info")
    row("forward velocity last changes at [ms]", sprintf("%.4g", tchange * 1e3), "", "info")
    row("distinct consecutive reversed velocities (changes over " nrev " frames)", rchanges + 0, "", "info")
}
