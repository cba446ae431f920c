# sweep.awk - part C verdict: classifies the sweep rows (run-case.sh) against eq 21.
#   awk -v U=0.1 -v TAB=out/sweep-map.txt -f sweep.awk out/sweep.tsv
# Expected: vv-improved frees every case; vv traps the cases with mu > (1+U) mu_c and frees those
# with mu < (1-U) mu_c (eq 21 is the boundary; within U of it trapping also depends on dt:
# docs/models.md §1.4, "undecided"). Prints a PASS or FAIL line; exit status 1 on FAIL.
function abs(x) { return x < 0 ? -x : x }
BEGIN { FS = "\t" }
NR == 1 { next }
{
    integ = $1; ratio = $2; mu = $3; muc = $4; state = $5
    R[ratio] = 1; M[mu] = 1; S[integ, ratio, mu] = state; n++
    if (integ == "vv-improved") {
        ni++
        if (state == "free") {
            nfree_i++
            d = abs($6 / $10 - 1); if (d > dt_max) { dt_max = d; dt_where = ratio "/" mu }
            d = abs($7 / $11 - 1); if (d > dth_max) { dth_max = d; dth_where = ratio "/" mu }
        } else bad = bad " vv-improved:" ratio "/" mu "=" state
    } else {
        if (mu > (1 + U) * muc) { nt++; if (state == "trapped") okt++; else bad = bad " vv:" ratio "/" mu "=" state "(expected trapped)" }
        else if (mu < (1 - U) * muc) { nf++; if (state == "free") okf++; else bad = bad " vv:" ratio "/" mu "=" state "(expected free)" }
        else { nu++; und = und " " ratio "/" mu "=" state }
    }
}
END {
    # the map as text: one row per mu, one column per ratio; vv / vv-improved, T trapped, F free
    nr = 0; for (r in R) rl[++nr] = r + 0
    for (i = 1; i <= nr; i++) for (j = i + 1; j <= nr; j++) if (rl[j] < rl[i]) { x = rl[i]; rl[i] = rl[j]; rl[j] = x }
    nm = 0; for (m in M) ml[++nm] = m
    for (i = 1; i <= nm; i++) for (j = i + 1; j <= nm; j++) if (ml[j] + 0 > ml[i] + 0) { x = ml[i]; ml[i] = ml[j]; ml[j] = x }
    printf "mu \\ ratio" > TAB
    for (i = 1; i <= nr; i++) printf "\t%s", rl[i] > TAB
    printf "\t(cell: vv/vv-improved, T trapped, F free, ? timeout; * within 10%% of mu_c)\n" > TAB
    for (j = 1; j <= nm; j++) {
        printf "%s", ml[j] > TAB
        for (i = 1; i <= nr; i++) {
            a = S["vv", rl[i], ml[j]]; b = S["vv-improved", rl[i], ml[j]]
            muc = sqrt(1 + 2 * rl[i]) / rl[i]
            mark = (ml[j] >= (1 - U) * muc && ml[j] <= (1 + U) * muc) ? "*" : ""
            printf "\t%s/%s%s", a == "trapped" ? "T" : a == "free" ? "F" : "?", b == "trapped" ? "T" : b == "free" ? "F" : "?", mark > TAB
        }
        printf "\n" > TAB
    }
    msg = sprintf("%d runs; vv-improved freed %d/%d; vv trapped %d/%d with mu > %.1f mu_c and freed %d/%d with mu < %.1f mu_c; undecided (within %.0f%% of mu_c):%s; vv-improved t_sep, theta_sep within %.2f%%, %.2f%% of the rigid-body solution",
                  n, nfree_i, ni, okt, nt, 1 + U, okf, nf, 1 - U, 100 * U, und, 100 * dt_max, 100 * dth_max)
    if (bad != "" || n == 0) { print "FAIL: part C: " msg; print "      wrong:" bad; exit 1 }
    print "PASS: part C: " msg
}
