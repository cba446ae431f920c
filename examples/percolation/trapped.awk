# trapped.awk - the fines trapped at the end: centre above the bed's bottom (z > 0) and touching two
# or more bed spheres (held in the valley between them: Vyas et al. 2025, §2-3; a fine still on its way down
# touches one at a time, or none). Input: dem-probe --particles --last, then dem-probe --contacts
# --last, of the same run; -v rcut=R (fines have r < rcut), -v label=TEXT (first column).
# Output (no header): label, fines, in_bed, trapped, in_bed_fraction, trapped_fraction.
BEGIN { FS = OFS = "\t" }
FNR == 1 { file++; for (k = 1; k <= NF; k++) c[file, $k] = k; next }
file == 1 && $c[1, "r[m]"] + 0 < rcut + 0 { id = $c[1, "id"]; fine[id] = 1; n++; if ($c[1, "z[m]"] + 0 > 0) { inbed[id] = 1; b++ } }
file == 2 && $c[2, "wall"] == 0 && $c[2, "overlap[m]"] + 0 > 0 {
    i = $c[2, "i"]; j = $c[2, "j"]
    if ((i in fine) && !(j in fine)) touch[i]++
    if ((j in fine) && !(i in fine)) touch[j]++
}
END {
    for (id in inbed) if (touch[id] >= 2) t++
    print label, n, b + 0, t + 0, (b + 0) / n, (t + 0) / n
}
