# check.awk - examples/stress-probes: the fits of fan.awk (out/fits.tsv) law against law (Kuhn et al. 2020
# Fig. 5). Checks: every law's locus of loading points is a circle through the origin (RMS
# distance from the fitted circle below TOL_FIT of its diameter, at least 24 probes, at least 6
# loading points), and the relative difference of the hardening moduli,
# |H_history - H_kuhn| / H_kuhn, shrinks as the steps per probe grow (Kuhn: the error "will
# increase if probes are done with fewer than 30 timesteps"), or, once it is below NOISE, stays
# below it: the loaded packing's realisation moves the difference by that much (README). No
# bound is set on the difference itself: it is measured and reported.
function verdict(ok, what) { if (!ok) { fails++; failed = failed (failed ? "; " : "") what } }
BEGIN { FS = OFS = "\t" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{
    law = $1; s = $2 + 0
    if (!(s in seen)) { seen[s] = 1; S[++ns] = s }
    H[law, s] = $c["H[Pa]"]; rms[law, s] = $c["rms/diameter"]; n[law, s] = $c["probes"]; m[law, s] = $c["loading"]
    verdict($c["rms/diameter"] + 0 < TOL_FIT, law " " s " steps: circle residual " $c["rms/diameter"] " not below " TOL_FIT)
    verdict($c["probes"] + 0 >= 24, law " " s " steps: " $c["probes"] " probes, fewer than 24")
    verdict($c["loading"] + 0 >= 6, law " " s " steps: " $c["loading"] " loading points, fewer than 6")
}
END {
    # steps in increasing order
    for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (S[j] < S[i]) { t = S[i]; S[i] = S[j]; S[j] = t }
    print "steps/probe", "probes", "loading pts (history, kuhn)", "H_history[MPa]", "H_kuhn[MPa]", "(H_history-H_kuhn)/H_kuhn", "rms/diam history", "rms/diam kuhn" > SUM
    for (i = 1; i <= ns; i++) {
        s = S[i]; d[i] = (H["history", s] - H["kuhn", s]) / H["kuhn", s]
        printf "%d\t%d\t%d, %d\t%.2f\t%.2f\t%+.2f%%\t%.2g\t%.2g\n", s, n["kuhn", s], m["history", s], m["kuhn", s], \
            H["history", s] / 1e6, H["kuhn", s] / 1e6, 100 * d[i], rms["history", s], rms["kuhn", s] > SUM
        line = line sprintf("%s%d steps %+.2f%%", line ? ", " : "", s, 100 * d[i])
        a = d[i] < 0 ? -d[i] : d[i]; b = d[i - 1] < 0 ? -d[i - 1] : d[i - 1]
        if (i > 1) verdict(a < b || (a < NOISE && b < NOISE), \
            sprintf("the difference does not shrink from %d to %d steps (%+.2f%% to %+.2f%%) nor stay below %g%%", S[i - 1], s, 100 * d[i - 1], 100 * d[i], 100 * NOISE))
    }
    close(SUM)
    if (fails) { print "FAIL: " failed; exit 1 }
    print "PASS: each law's loading probes lie on a circle through the origin (Kuhn's Fig. 5); the hardening moduli differ by (H_history - H_kuhn)/H_kuhn = " line ", shrinking as the probes take more steps (or below " 100 * NOISE "%)"
}
