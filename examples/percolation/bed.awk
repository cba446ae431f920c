# bed.awk - the settled spheres (dem-probe --particles --last) as a table for dem-pack --from,
# every sphere fixed: the frozen bed. Writes the bed's top (highest centre + radius, m) to the
# file named by -v top=FILE.
BEGIN { FS = OFS = "\t" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; print "x", "y", "z", "r", "fixed"; next }
{
    print $c["x[m]"], $c["y[m]"], $c["z[m]"], $c["r[m]"], 1
    t = $c["z[m]"] + $c["r[m]"]
    if (t > hi) hi = t
}
END { printf "%.17g\n", hi > top }
