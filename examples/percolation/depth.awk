# depth.awk - the depth distribution of the fines (Vyas et al. 2025, Fig. 14): from dem-probe --particles of
# a run, the number of fines per bin of height z (bins of -v bin=M m from -v lo to -v hi; fines
# outside are not counted) in the frames at the times -v times=T1,T2,... (s; the frame nearest
# each). Output TSV: z[m] (bin centre), then one column of counts per time.
BEGIN { FS = OFS = "\t"; nb = int((hi - lo) / bin + 0.5); nt = split(times, want, ",") }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
$c["r[m]"] + 0 < rcut + 0 {
    t = $c["time[s]"] + 0
    for (q = 1; q <= nt; q++) {
        if (t < want[q] - 1e-9 || t > want[q] + 1e-9 * 1e6) continue
        if (!(q in at)) at[q] = t
        if (t != at[q]) continue
        k = int(($c["z[m]"] - lo) / bin)
        if (k >= 0 && k < nb) h[q, k]++
    }
}
END {
    printf "z[m]"; for (q = 1; q <= nt; q++) printf "\tt=%s s", want[q]; print ""
    for (k = 0; k < nb; k++) { printf "%.6g", lo + (k + 0.5) * bin; for (q = 1; q <= nt; q++) printf "\t%d", h[q, k]; print "" }
}
