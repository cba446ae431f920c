# frames.awk - one row per frame of a three-sphere run: time, theta (from the upward vertical, in
# (-pi, pi]), theta unwrapped (continuous through the bottom), |omega|, contacts, sliding (1 if a
# contact of the fine sphere is at the Coulomb limit), and the radial offset of the fine sphere's
# centre from the rigid groove radius rho = sqrt(r^2 + 2 R r) (negative: sunk into the groove).
#   awk -v R=0.005 -v ratio=20 -f frames.awk SUMMARY.tsv PARTICLES.tsv CONTACTS.tsv
# SUMMARY: dem-probe (one row per frame); PARTICLES: dem-probe --particles --ids 1;
# CONTACTS: dem-probe --contacts --ids 1 (the fine sphere's contacts with the large ones).
BEGIN { FS = OFS = "\t"; r = R / ratio; rho = sqrt(r * r + 2 * R * r) }
FNR == 1 { file++; delete col; for (k = 1; k <= NF; k++) col[$k] = k; next }
file == 1 { nc[$col["frame"]] = $col["contacts"]; next }
file == 2 {
    f = $col["frame"]; order[n++] = f; T[f] = $col["time[s]"]
    y = $col["y[m]"]; z = $col["z[m]"]; TH[f] = atan2(y, z); W[f] = $col["wx[rad/s]"]
    DR[f] = sqrt(y * y + z * z) - rho; next
}
file == 3 { if ($col["sliding"] == 1) sl[$col["frame"]] = 1 }
END {
    print "time[s]", "theta[rad]", "theta_unwrapped[rad]", "omega[rad/s]", "contacts", "sliding", "radial_offset[m]"
    pi = atan2(0, -1); turns = 0
    for (i = 0; i < n; i++) {
        f = order[i]
        if (i > 0 && TH[f] - prev < -pi) turns++
        if (i > 0 && TH[f] - prev > pi) turns--
        prev = TH[f]
        printf "%.12g\t%.12g\t%.12g\t%.12g\t%d\t%d\t%.6g\n", T[f], TH[f], TH[f] + 2 * pi * turns,
               W[f] < 0 ? -W[f] : W[f], nc[f], (f in sl), DR[f]
    }
}
