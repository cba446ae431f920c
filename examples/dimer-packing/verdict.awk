# verdict.awk -v MU=0.5 -v CAP=3 -v SUM=out/summary.tsv LAMMPS.tsv DEM.tsv: the two codes' seeds side by side
# (mean and sample standard deviation of phi, z_contacts, z_neighbours over the seeds at friction
# MU) into SUM, then the check, PASS or FAIL (exit status 1 on FAIL):
#   |phi_dem - phi_lammps| <= 2 sqrt(sd_dem^2 + sd_lammps^2)
# (the difference of two means within twice its standard deviation as the seeds estimate it; with
# one dem seed sd_dem is taken as 0). Both files have the columns mu seed ... phi z_contacts
# z_neighbours (named in their header lines); dem's also end[s], the time its run stopped (CAP: it
# ran to its cap without settling).
BEGIN { FS = "\t"; q[1] = "phi"; q[2] = "z_contacts"; q[3] = "z_neighbours"; Baule = 0.707 }
FNR == 1 { f++; delete c; for (k = 1; k <= NF; k++) c[$k] = k; next }
$c["mu"] + 0 == MU + 0 {
    n[f]++
    for (i = 1; i <= 3; i++) x[f, i, n[f]] = $c[q[i]]
    if (f == 2) { rat += $c["rattlers"]; wall += $c["wall[s]"]; if ($c["end[s]"] >= CAP - 1e-6) capped++; if ($c["end[s]"] > tend) tend = $c["end[s]"] }
}
function mean(g, i,   s, k) { s = 0; for (k = 1; k <= n[g]; k++) s += x[g, i, k]; return s / n[g] }
function sd(g, i,   m, s, k) { m = mean(g, i); s = 0; for (k = 1; k <= n[g]; k++) s += (x[g, i, k] - m) ^ 2; return n[g] > 1 ? sqrt(s / (n[g] - 1)) : 0 }
function check(ok, what) { printf "%s  %s\n", ok ? "ok  " : "FAIL", what; if (!ok) bad = 1 }
END {
    if (!n[1] || !n[2]) { printf "FAIL: no rows at mu = %s (LAMMPS %d, dem %d)\n", MU, n[1], n[2]; exit 1 }
    printf "quantity\tmu\tdem_mean\tdem_sd\tdem_seeds\tlammps_mean\tlammps_sd\tlammps_seeds\tdifference\ttolerance\n" > SUM
    for (i = 1; i <= 3; i++) {
        d = mean(2, i) - mean(1, i); tol[i] = 2 * sqrt(sd(2, i) ^ 2 + sd(1, i) ^ 2)
        printf "%s\t%s\t%.4f\t%.4f\t%d\t%.4f\t%.4f\t%d\t%+.4f\t%.4f\n", q[i], MU, mean(2, i), sd(2, i), n[2], mean(1, i), sd(1, i), n[1], d, tol[i] > SUM
        diff[i] = d
    }
    printf "dem, %d seed(s): phi = %.4f +- %.4f, %.3f contacts and %.3f neighbours per dimer (mean %.0f s of dem-step each)\n",
        n[2], mean(2, 1), sd(2, 1), mean(2, 2), mean(2, 3), wall / n[2]
    printf "LAMMPS fix rigid/small, %d seeds: phi = %.4f +- %.4f, %.3f contacts and %.3f neighbours per dimer\n",
        n[1], mean(1, 1), sd(1, 1), mean(1, 2), mean(1, 3)
    if (MU + 0 == 0) printf "Baule et al. 2013, frictionless dimers (densest random packing, mean-field): phi = %.3f\n", Baule
    check(!capped, sprintf("every dem seed settled (kinetic energy below 1e-12 J) before the %g s cap (the last at %.3f s)", CAP, tend))
    check(rat == 0, "no rattler among the measured dimers (every one touches another)")
    check(diff[1] < 0 ? -diff[1] <= tol[1] : diff[1] <= tol[1],
        sprintf("dem's solid fraction within LAMMPS' scatter: |%+.4f| <= 2 sqrt(sd_dem^2 + sd_lammps^2) = %.4f", diff[1], tol[1]))
    print bad ? "FAIL" : "PASS"
    exit bad
}
