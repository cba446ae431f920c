# check.awk - simple shear of a dense random packing (examples/simple-shear): the stress ratio
# reaches a steady value in the range DEM studies report, the books stay closed, the cell flips.
# Input: out/shear.tsv (frames.awk). Variables: GAMMA_SS, RATIO_LO, RATIO_HI, STEADY, TOL_BOOKS,
# MIN_FLIPS, SUM (the summary table written).
function abs(x) { return x < 0 ? -x : x }
function verdict(ok, what) { if (!ok) { fails++; failed = failed (failed ? "; " : "") what } }
BEGIN { FS = OFS = "\t" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{
    n++; g = $c["gamma"]; r = $c["ratio"]; phi = $c["solid_fraction"]
    if (n == 1) { phi0 = phi; w0 = $c["work_cell[J]"]; d0 = $c["dissipated[J]"]; r0 = $c["residual[J]"] }
    if (r > peak) { peak = r; gpeak = g }
    if (n > 1 && $c["lean"] < lean - 0.5) flips++
    lean = $c["lean"]
    if (g >= GAMMA_SS) { m++; s += r; s2 += r * r; sphi += phi; sz += $c["coordination"] }
    half = (g < GAMMA_SS + (5 - GAMMA_SS) / 2) ? 1 : 2
    if (g >= GAMMA_SS) { hn[half]++; hs[half] += r }
    gend = g; w1 = $c["work_cell[J]"]; d1 = $c["dissipated[J]"]; r1 = $c["residual[J]"]
}
END {
    mean = s / m; sd = sqrt(s2 / m - mean * mean); h1 = hs[1] / hn[1]; h2 = hs[2] / hn[2]
    books = abs(r1 - r0) / abs(w1 - w0)
    print "check", "measured", "expected" > SUM
    print "shear strain reached", sprintf("%.3f", gend), "5" > SUM
    print "peak stress ratio (dense packing) at gamma", sprintf("%.3f at %.2f", peak, gpeak), "above the steady value" > SUM
    print "steady stress ratio -sxy/syy, gamma " GAMMA_SS " .. 5 (" m " frames)", sprintf("%.3f (sd %.3f)", mean, sd), "[" RATIO_LO ", " RATIO_HI "]" > SUM
    print "its means over the two halves", sprintf("%.3f / %.3f", h1, h2), "within " STEADY > SUM
    print "solid fraction: dense packing, steady state", sprintf("%.4f, %.4f", phi0, sphi / m), "dilates" > SUM
    print "coordination at steady state", sprintf("%.2f", sz / m), "" > SUM
    print "cell flips", flips + 0, ">= " MIN_FLIPS > SUM
    print "cell's work; dissipated", sprintf("%.4g J; %.4g J", w1 - w0, d1 - d0), "" > SUM
    print "books: |residual change| / cell's work", sprintf("%.2g", books), "< " TOL_BOOKS > SUM
    close(SUM)
    verdict(abs(gend - 5) < 1e-6, "shear strain " gend " not 5")
    verdict(mean >= RATIO_LO && mean <= RATIO_HI, sprintf("steady stress ratio %.3f outside [%s, %s]", mean, RATIO_LO, RATIO_HI))
    verdict(abs(h1 - h2) <= STEADY, sprintf("not steady: %.3f then %.3f", h1, h2))
    verdict(sphi / m < phi0, "no dilation from the dense packing")
    verdict(flips >= MIN_FLIPS, "only " flips + 0 " flips")
    verdict(books < TOL_BOOKS, sprintf("books: residual changed by %.2g of the cell's work", books))
    if (fails) { print "FAIL: " failed; exit 1 }
    printf "PASS: simple shear to gamma = 5: steady stress ratio %.3f (sd %.3f), solid fraction %.4f -> %.4f, %d flips, books closed to %.1g of the cell's work\n", mean, sd, phi0, sphi / m, flips, books
}
