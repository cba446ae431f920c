# check.awk - the FCC triaxial test (Hanley 2019, §3.2.3, Fig. 4) against Thornton's peak ratio
# sigma1/sigma3 = 2 (1 + mu) / (1 - mu) (Hanley 2019, eq 24, docs/models.md §4.1), the coordination drop
# 12 -> 8, and the frictionless run reversed in time.
# Reads (from DIR): tri-MU.tsv for each MU of MUS, back-0.tsv, long-0.tsv, iso-0.tsv (the Makefile's
# per-frame tables: step ezz[-] sxx syy szz[Pa] szz_sxx coordination s1_s3 sxy[Pa]; the ratio
# checked is szz/sxx, axial over confining), particles-iso-0.tsv and
# particles-back-0.tsv (dem-probe --particles), overlap.tsv (dem-probe --contacts of the isotropic
# state). Writes SUM (the summary table) and DIR/path.tsv (forward and reversed frames side by
# side); prints the verdict.
# Variables: MUS, TOL_RATIO, TOL_Z, TOL_X, TOL_S, TOL_PATH, STEPS (the forward run's steps).
function abs(x) { return x < 0 ? -x : x }
# read a per-frame table: arrays indexed 1..n; returns n
function table(file, S, E, XX, YY, ZZ, R, Z,    line, f, n) {
    n = 0
    while ((getline line < file) > 0) {
        if (line ~ /^step/) continue
        split(line, f, "\t"); n++
        S[n] = f[1]; E[n] = f[2]; XX[n] = f[3]; YY[n] = f[4]; ZZ[n] = f[5]; R[n] = f[6]; Z[n] = f[7]
    }
    close(file)
    if (n == 0) { print "FAIL: " file " holds no frame"; exit 1 }
    return n
}
# positions of dem-probe --particles, by id
function particles(file, X, Y, Zp,    line, f, c, k, n) {
    n = 0
    while ((getline line < file) > 0) {
        split(line, f, "\t")
        if (f[1] == "frame") { for (k in f) c[f[k]] = k; continue }
        X[f[c["id"]]] = f[c["x[m]"]]; Y[f[c["id"]]] = f[c["y[m]"]]; Zp[f[c["id"]]] = f[c["z[m]"]]; n++
    }
    close(file)
    return n
}
function verdict(ok, what) { if (!ok) { fails++; failed = failed (failed ? "; " : "") what } }
BEGIN {
    OFS = "\t"
    print "check", "measured", "expected", "tolerance" > SUM
    nm = split(MUS, mu, " ")
    for (m = 1; m <= nm; m++) {
        n = table(DIR "/tri-" mu[m] ".tsv", S, E, XX, YY, ZZ, R, Z)
        peak = 0; zmin = 12; zend = Z[n]
        for (k = 1; k <= n; k++) {
            if (R[k] > peak) { peak = R[k]; epeak = E[k] }
            if (Z[k] < zmin) zmin = Z[k]
        }
        want = 2 * (1 + mu[m]) / (1 - mu[m])
        err = abs(peak / want - 1)
        print "mu = " mu[m] ": peak sigma_zz/sigma_xx (at ezz = " sprintf("%.3g", epeak) ")", sprintf("%.6f", peak), sprintf("%.6f", want), "rel " TOL_RATIO > SUM
        print "mu = " mu[m] ": smallest coordination number", sprintf("%.6f", zmin), "8", TOL_Z > SUM
        verdict(err <= TOL_RATIO, "mu = " mu[m] " peak ratio " sprintf("%.6f", peak) " not " sprintf("%.6f", want))
        verdict(abs(zmin - 8) <= TOL_Z, "mu = " mu[m] " coordination " zmin " not 8")
        summary = summary sprintf("mu=%s ratio %.5f (%.5f), ", mu[m], peak, want)
    }
    # the frictionless run reversed: frames matched by step (the reversed run counts on from the
    # forward end s1: its step s is the forward step 2 s1 - s)
    nf = table(DIR "/tri-0.tsv", S, E, XX, YY, ZZ, R, Z)
    ni = table(DIR "/iso-0.tsv", iS, iE, iXX, iYY, iZZ, iR, iZ)
    s1 = S[nf]
    for (k = 1; k <= nf; k++) { at[S[k]] = k }
    nb = table(DIR "/back-0.tsv", bS, bE, bXX, bYY, bZZ, bR, bZ)
    print "forward_step", "ezz_fwd[-]", "ezz_rev[-]", "szz_sxx_fwd", "szz_sxx_rev", "coordination_fwd", "coordination_rev" > (DIR "/path.tsv")
    for (k = 1; k <= nb; k++) {
        fs = 2 * s1 - bS[k]
        if (fs == iS[1]) { last_back = k; continue }
        if (!(fs in at)) { unmatched++; continue }
        j = at[fs]; matched++
        d = abs(bR[k] - R[j]); if (d > dpath) { dpath = d; epath = E[j] }
        print fs, E[j], bE[k], R[j], bR[k], Z[j], bZ[k] > (DIR "/path.tsv")
    }
    close(DIR "/path.tsv")
    verdict(matched >= STEPS / 50 - 2 && !unmatched, "reversed frames: " matched " matched, " unmatched + 0 " without a forward frame")
    verdict(last_back == nb, "the reversed run does not end at the isotropic state (step " iS[1] ")")
    ds = 0
    ds = abs(bXX[nb] / iXX[1] - 1); if (abs(bYY[nb] / iYY[1] - 1) > ds) ds = abs(bYY[nb] / iYY[1] - 1)
    if (abs(bZZ[nb] / iZZ[1] - 1) > ds) ds = abs(bZZ[nb] / iZZ[1] - 1)
    # positions back, against the mean overlap of the isotropic state
    while ((getline line < (DIR "/overlap.tsv")) > 0) {
        split(line, f, "\t")
        if (f[1] == "frame") { for (k in f) c[f[k]] = k; continue }
        if (f[c["overlap[m]"]] > 0) { ov += f[c["overlap[m]"]]; nov++ }
    }
    ov /= nov
    particles(DIR "/particles-iso-0.tsv", X0, Y0, Z0)
    np = particles(DIR "/particles-back-0.tsv", X1, Y1, Z1)
    for (id in X0) {
        if (!(id in X1)) { verdict(0, "particle " id " missing after the reversal"); continue }
        d = abs(X1[id] - X0[id]); if (abs(Y1[id] - Y0[id]) > d) d = abs(Y1[id] - Y0[id]); if (abs(Z1[id] - Z0[id]) > d) d = abs(Z1[id] - Z0[id])
        if (d > dx) dx = d
    }
    print "reversed: frames compared with the forward run", matched, STEPS / 50 - 1, "" > SUM
    print "reversed: largest |szz/sxx back - forward| (at ezz = " sprintf("%.3g", epath) ")", sprintf("%.3g", dpath), "0", TOL_PATH > SUM
    print "reversed: largest |x back - x iso| / mean overlap (" sprintf("%.3g", ov) " m)", sprintf("%.3g", dx / ov), "0", TOL_X > SUM
    print "reversed: largest |sigma_ii back / sigma_ii iso - 1|", sprintf("%.3g", ds), "0", TOL_S > SUM
    print "reversed: coordination number at the end", bZ[nb], "12", "0" > SUM
    verdict(dpath <= TOL_PATH, "reversed path off the forward one by " dpath)
    verdict(dx / ov <= TOL_X, "positions back to " dx / ov " of the overlap")
    verdict(ds <= TOL_S, "stresses back to " ds)
    verdict(bZ[nb] == 12, "coordination back to " bZ[nb])
    # the frictionless crystal past its peak (not checked: an observation, see the README)
    nl = table(DIR "/long-0.tsv", lS, lE, lXX, lYY, lZZ, lR, lZ)
    for (k = 1; k <= nl; k++) { if (abs(lZ[k] - 8) <= TOL_Z) down = 1; else if (down && !eb) eb = lE[k] }
    print "mu = 0 continued: axial strain where coordination leaves 8 (buckling)", (eb ? sprintf("%.3g", eb) : "none"), "(observed)", "" > SUM
    print "mu = 0 continued: coordination and sigma_zz/sigma_xx at ezz = " sprintf("%.3g", lE[nl]), sprintf("%.3f / %.4f", lZ[nl], lR[nl]), "(observed)", "" > SUM
    close(SUM)
    if (fails) { print "FAIL: " failed; exit 1 }
    printf "PASS: fcc triaxial: %scoordination 12 -> 8; reversed to %.2g of the overlap, stresses to %.2g\n", summary, dx / ov, ds
}
