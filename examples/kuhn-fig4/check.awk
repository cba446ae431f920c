# check.awk - examples/kuhn-fig4: columns movement, kuhn[rad], rk4[rad], conventional[rad].
function abs(x) { return x < 0 ? -x : x }
function gd(m) { return 2 * atan2(exp(m) - 1, exp(m) + 1) }   # 2 atan(tanh(m/2))
BEGIN { FS = OFS = "\t" }
NR == 1 { next }
{
    m = $1; n++
    a = abs($2 - $3); if (a > dk) { dk = a; mk = m }
    b = abs($2 - gd(m)); if (b > dg) dg = b
    c = abs($4 - atan2(m, 1)); if (c > dc) dc = c
    if (abs(m - 1) < 1e-12) { k1 = $2; c1 = $4 }
}
END {
    print "check", "measured", "expected" > SUM
    print "points", n, "" > SUM
    print "kuhn: largest |angle - RK4| [rad]", sprintf("%.2g (at m = %g)", dk, mk), "< " TOL > SUM
    print "kuhn: largest |angle - gd(m)| [rad]", sprintf("%.2g", dg), "< " TOL > SUM
    print "conventional: largest |angle - atan(m)| [rad]", sprintf("%.2g", dc), "< " TOL > SUM
    print "at m = 1: kuhn, conventional [rad]", sprintf("%.6f, %.6f", k1, c1), sprintf("gd 1 = %.6f, atan 1 = %.6f", gd(1), atan2(1, 1)) > SUM
    close(SUM)
    if (n < 10 || dk >= TOL || dg >= TOL || dc >= TOL || k1 - c1 <= GAP) {
        printf "FAIL: kuhn-RK4 %.2g, kuhn-gd %.2g, conventional-atan %.2g, gap at m = 1 %.3g\n", dk, dg, dc, k1 - c1; exit 1
    }
    printf "PASS: Kuhn's turn under sliding is the rate equations' to %.1g rad (%d movements up to %g yield lengths); the add-and-project rule turns by atan m, %.4f rad less at m = 1\n", dk, n, m, k1 - c1
}
