# verdict.awk - PASS when every dem-step-mpi output is one process's bytes (bytes.txt: "K same" or
# "K differ" per rank count) and its positions equal one process's at every frame (divergence.tsv);
# LAMMPS' divergence across its rank counts is reported, not judged. -v R=radius -v lammps=yes/''.
BEGIN { FS = "\t"; d = 2 * R }
FILENAME ~ /bytes\.txt$/ { split($0, f, " "); nb++; if (f[2] != "same") bad = bad " " f[1]; ranks = ranks (ranks ? ", " : "") f[1]; next }
FNR == 1 { for (k = 3; k <= NF; k += 2) { name[k] = $k; sub(/\[m\]$/, "", name[k]) } nf = NF; next }
{
    last = $1; demrow = 0
    for (k = 3; k <= nf; k += 2) {
        if ($k == "NA") continue
        n = name[k]; seen[n] = 1; dist[n] = $k; diff[n] = $(k + 1)
        if (n ~ /^dem_/) demrow = 1
        if (n ~ /^dem_/ && ($k != 0 || $(k + 1) != 0)) demoff = demoff " " n "@" $1
        if ($(k + 1) > 0 && !(n in first)) { first[n] = $1; fdist[n] = $k; fdiff[n] = $(k + 1) }
    }
    frames += demrow
}
END {
    if (!nb || !frames) { print "FAIL: no outputs to compare"; exit 1 }
    for (k = 3; k <= nf; k += 2) if ((n = name[k]) ~ /^lammps_/) {
        if (n == "lammps_1_again")
            printf "LAMMPS on 1 process, run again: %s\n", (n in first) ? "differs from step " first[n] : "the same positions, bit for bit, at every dump"
        else if (n in first)
            printf "LAMMPS on %s ranks: the positions differ from its one-process run's from step %d (%d spheres, by up to %.3g m);" \
                " at step %d, %d of the spheres differ, by up to %.3g m (%.3g diameters)\n", substr(n, 8, index(substr(n, 8), "_") - 1), first[n], fdiff[n], fdist[n],
                last, diff[n], dist[n], dist[n] / d
        else
            printf "LAMMPS on %s ranks: the same positions as its one-process run at every dump\n", substr(n, 8, index(substr(n, 8), "_") - 1)
    }
    if (lammps == "") print "LAMMPS: not installed (apt-get install lammps), or no tools/bench (a copy of the examples outside the checkout): its part skipped"
    if (bad != "" || demoff != "") {
        printf "FAIL: dem-step-mpi differs from one process:%s%s\n", bad != "" ? " the bytes on" bad " ranks;" : "", demoff != "" ? " positions at" demoff : ""
        exit 1
    }
    printf "PASS: dem-step-mpi on %s ranks writes one process's bytes (%d frames to step %d, every position the same bits)\n", ranks, frames, last
}
