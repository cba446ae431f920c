# check.awk - the verdict of the reversed gas.
# Files: exact.tsv (comparison, files, identical, cmp), errors.tsv (errors.awk rows), the dem-probe
# summary of the initial state. Variables: GROWTH (required growth of the largest position error
# from the smallest N to the largest), N (particles), RADIUS (m), STEPS (exact run), SUM (out).
function abs(x) { return x < 0 ? -x : x }
BEGIN { FS = OFS = "\t"; PI = 3.14159265358979; ne = 0 }
FNR == 1 { file++; for (k = 1; k <= NF; k++) col[file, $k] = k; next }
file == 1 { ncmp++; if ($3 == 1) same++; else diff = diff " [" $1 ": " $4 "]"; next }
file == 2 {
    n = $1; K[ne] = n; T[ne] = $2; EX[ne] = $3; EV[ne] = $5; ne++
    if ($3 > 0 && first == "") first = ne - 1
    next
}
file == 3 { phi = $col[3, "solid_fraction"]; gt = $col[3, "granular_temperature[m^2/s^2]"]; next }
END {
    # growth: the largest N's error over the first nonzero one (at the smallest N)
    small = EX[first]; big = EX[ne - 1]; growth = big / small
    for (i = 0; i < ne; i++) if (EX[i] > top) top = EX[i]
    # the exponential growth: fit ln(err) = a + lambda t over the N whose error lies above the
    # round-off floor and below saturation, 1e-14 < err/d < 0.1
    for (i = first; i < ne; i++) if (EX[i] > 1e-14 && EX[i] < 0.1) { sx += T[i]; sy += log(EX[i]); sxx += T[i]^2; sxy += T[i] * log(EX[i]); m++; fk = fk (fk == "" ? "" : ", ") K[i] }
    lam = (m * sxy - sx * sy) / (m * sxx - sx * sx)
    # Enskog collision frequency of a particle: 4 sqrt(pi) n d^2 sqrt(T) chi, chi = (1 - phi/2)/(1 - phi)^3
    d = 2 * RADIUS; nd = phi / (4 / 3 * PI * RADIUS^3)
    nu = 4 * sqrt(PI) * nd * d * d * sqrt(gt) * (1 - phi / 2) / (1 - phi)^3
    print "check", "measured", "expected" > SUM
    print "(a) exact comparisons identical (cmp)", same " of " ncmp, ncmp " of " ncmp > SUM
    print "(b) largest position error / diameter at N = " K[first] " (smallest N with an error)", sprintf("%.3g", small), "round-off" > SUM
    print "(b) largest position error / diameter at N = " K[ne - 1], sprintf("%.3g", big), "of order the box (15 d)" > SUM
    print "(b) growth from N = " K[first] " to N = " K[ne - 1], sprintf("%.3g", growth), ">= " GROWTH > SUM
    print "(b) growth rate lambda: fit ln(err) = a + lambda t at N = " fk " [1/s]", sprintf("%.4g", lam), "" > SUM
    print "(b) e-folding time 1/lambda [ms] (steps)", sprintf("%.3g (%.0f)", 1e3 / lam, 1 / lam / (T[0] / K[0])), "" > SUM
    print "(b) Enskog collision frequency per particle [1/s] (phi " sprintf("%.4g", phi) ", T " sprintf("%.3g", gt) " m^2/s^2)", sprintf("%.4g", nu), "" > SUM
    print "(b) lambda / collision frequency (e-foldings per collision)", sprintf("%.3g", lam / nu), "" > SUM
    close(SUM)
    bad = ""
    if (same != ncmp || ncmp != 5) bad = bad " exact mode: " same " of " ncmp " comparisons identical:" diff ";"
    if (!(growth >= GROWTH)) bad = bad sprintf(" the floating-point error grew by %.3g only (from %.3g d at N = %s to %.3g d at N = %s);", growth, small, K[first], big, K[ne - 1])
    if (bad == "") printf "PASS: reverse-gas: exact mode returns bit for bit after %d steps each way (%d of %d comparisons identical, 1 and 2 threads); floating point: the error grows from %.2g d at N = %s to %.2g d at N = %s (x %.2g), e-folding rate %.3g/s = %.2g per collision\n", STEPS, same, ncmp, small, K[first], big, K[ne - 1], growth, lam, lam / nu
    else { printf "FAIL: reverse-gas:%s\n", bad; exit 1 }
}
