# frames.awk - per frame of dem-probe --particles: the fines (r < rcut) still in the bed (centre
# above the bed's bottom z = 0), those still above its top, as counts and fractions.
# -v rcut=R -v top=Z. Output TSV: time[s], fines, in_bed, above_top, in_bed_fraction.
BEGIN { FS = OFS = "\t"; print "time[s]", "fines", "in_bed", "above_top", "in_bed_fraction" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
$c["r[m]"] + 0 < rcut + 0 {
    f = $c["frame"]
    if (!(f in t)) { t[f] = $c["time[s]"]; order[++nf] = f }
    n[f]++
    z = $c["z[m]"] + 0
    if (z > 0) b[f]++
    if (z > top + 0) a[f]++
}
END { for (k = 1; k <= nf; k++) { f = order[k]; print t[f], n[f], b[f] + 0, a[f] + 0, (b[f] + 0) / n[f] } }
