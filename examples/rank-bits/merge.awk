# merge.awk - the divergence files (divergence.awk's rows: step distance differing), named
# div-dem-K.tsv, div-lammps-K.tsv or div-lammps-again.tsv, side by side by step, with the time
# (-v dt=...): one TSV table, a header line naming each run's two columns, NA where a run has no
# frame at that step.
BEGIN { FS = "\t" }
FNR == 1 {
    name = FILENAME
    sub(/.*div-/, "", name); sub(/\.tsv$/, "", name)
    if (name ~ /^dem-/) name = "dem_" substr(name, 5) "_ranks"
    else if (name == "lammps-again") name = "lammps_1_again"
    else name = "lammps_" substr(name, 8) "_ranks"
    runs[++nr] = name
}
{ steps[$1 + 0] = 1; v[nr, $1 + 0] = $2 "\t" $3 }
END {
    printf "step\ttime[s]"
    for (k = 1; k <= nr; k++) printf "\t%s[m]\t%s_differing", runs[k], runs[k]
    print ""
    n = 0
    for (s in steps) order[++n] = s + 0
    for (i = 2; i <= n; i++) { # insertion sort: a few hundred frames
        x = order[i]
        for (j = i - 1; j >= 1 && order[j] > x; j--) order[j + 1] = order[j]
        order[j + 1] = x
    }
    for (i = 1; i <= n; i++) {
        s = order[i]
        printf "%d\t%.6g", s, s * dt
        for (k = 1; k <= nr; k++) printf "\t%s", ((k, s) in v) ? v[k, s] : "NA\tNA"
        print ""
    }
}
