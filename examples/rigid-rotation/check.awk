# check.awk - examples/rigid-rotation: the stress of the turned assembly, turned back, against the
# unturned one (Kuhn et al. 2020, Fig. 6): it coincides with the exact carry and with Kuhn's projection
# and twirl, and does not with the projection alone or with neither. Input: out/tensors.tsv.
function verdict(ok, what) { if (!ok) { fails++; failed = failed (failed ? "; " : "") what } }
BEGIN { FS = OFS = "\t"; print "law", "carry", "deviation", "expected" > SUM }
NR == 1 { next }
$2 ~ /^turned, / {
    carry = substr($2, 9); dev = $9 + 0
    good = carry == "exact" || carry == "project"
    bad = carry == "project-only" || carry == "none"
    print $1, carry, $9, good ? "< " TOL_GOOD : bad ? "> " TOL_BAD : "(shown)" > SUM
    if (good) verdict(dev < TOL_GOOD, $1 " " carry ": " $9 " not below " TOL_GOOD)
    if (bad) verdict(dev > TOL_BAD, $1 " " carry ": " $9 " not above " TOL_BAD)
    if (good || bad) summary = summary sprintf("%s%s %s %s", summary ? ", " : "", $1, carry, $9)
}
END {
    close(SUM)
    if (fails) { print "FAIL: " failed; exit 1 }
    print "PASS: rigid rotation by 90 degrees in 1000 steps, deviation of the stress turned back: " summary
}
