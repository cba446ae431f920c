# hist.awk - the distributions of |cos| (orient.awk's) of two files in 10 bins, as probability
# densities (isotropic: 1 everywhere): bin centre, before, after.
BEGIN { FS = "\t"; nb = 10 }
FNR == 1 { f++; next }
{ b = int($2 * nb); if (b >= nb) b = nb - 1; h[f, b]++; n[f]++ }
END {
    print "cos_z\tpdf_poured\tpdf_settled"
    for (b = 0; b < nb; b++) printf "%.3f\t%.4f\t%.4f\n", (b + 0.5) / nb, h[1, b] * nb / n[1], h[2, b] * nb / n[2]
}
