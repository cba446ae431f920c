# depth.awk - the depth distribution of the fines in the last frame of dem-probe --particles: the
# fraction of fines per bin of height z (bins of -v bin=M m from -v lo to -v hi), the fines below lo
# in the first bin. Output TSV: z[m] (bin centre), fraction.
BEGIN { FS = OFS = "\t"; nb = int((hi - lo) / bin + 0.5) }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
$c["r[m]"] + 0 < rcut + 0 {
    k = int(($c["z[m]"] - lo) / bin); if (k < 0) k = 0; if (k >= nb) k = nb - 1
    h[k]++; n++
}
END { print "z[m]", "fraction"; for (k = 0; k < nb; k++) print lo + (k + 0.5) * bin, (h[k] + 0) / n }
