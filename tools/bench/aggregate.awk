# aggregate.awk - a few aggregate numbers of one particle table, computed the same way for
# dem-step and LAMMPS output (the benchmark's physics check, tools/bench/compare.sh).
#
# Usage: awk -f aggregate.awk -v code=NAME -v rho=2500 -v box=X0,Y0,Z0,X1,Y1,Z1 table.tsv
#
# Input: TSV with a header naming at least x y z vx vy vz wx wy wz r (a [unit] suffix is
# ignored), one row per sphere (dem-probe --particles of one frame, or a converted LAMMPS dump).
# Output: one TSV row (print the header with -v header=1):
#   code particles z_mean[m] z_max[m] ekin_t[J] ekin_r[J] contacts wall_contacts coordination
#   overlap_max[m]
# with m = 4/3 pi r^3 rho, I = 2/5 m r^2; contacts: sphere pairs closer than r_i + r_j (found on
# a grid of cells 2 r_max wide); wall_contacts: spheres reaching past a face of the box
# (a sphere in a corner counts once per wall); coordination = 2 contacts / particles;
# overlap_max: the largest overlap of any contact, sphere or wall.
BEGIN {
    FS = "\t"
    OFS = "\t"
    split(box, b, ",")
    pi = atan2(0, -1)
    if (header)
        print "code", "particles", "z_mean[m]", "z_max[m]", "ekin_t[J]", "ekin_r[J]", "contacts", "wall_contacts", "coordination", "overlap_max[m]"
}
NR == 1 {
    for (k = 1; k <= NF; k++) {
        name = $k
        sub(/\[.*/, "", name)
        col[name] = k
    }
    next
}
{
    n++
    x[n] = $col["x"] + 0; y[n] = $col["y"] + 0; z[n] = $col["z"] + 0; r[n] = $col["r"] + 0
    m = 4.0 / 3.0 * pi * r[n] ^ 3 * rho
    v2 = $col["vx"] ^ 2 + $col["vy"] ^ 2 + $col["vz"] ^ 2
    w2 = $col["wx"] ^ 2 + $col["wy"] ^ 2 + $col["wz"] ^ 2
    ekt += 0.5 * m * v2
    ekr += 0.5 * 0.4 * m * r[n] ^ 2 * w2
    zsum += z[n]
    if (n == 1 || z[n] > zmax) zmax = z[n]
    if (r[n] > rmax) rmax = r[n]
    # wall overlaps
    c[1] = x[n]; c[2] = y[n]; c[3] = z[n]
    for (a = 1; a <= 3; a++) {
        d = r[n] - (c[a] - b[a]); if (d > 0) { wall++; if (d > omax) omax = d }
        d = r[n] - (b[a + 3] - c[a]); if (d > 0) { wall++; if (d > omax) omax = d }
    }
}
END {
    if (n == 0) exit 1
    h = 2 * rmax
    for (k = 1; k <= n; k++) {
        key = int((x[k] - b[1]) / h) " " int((y[k] - b[2]) / h) " " int((z[k] - b[3]) / h)
        cell[key] = cell[key] " " k
    }
    for (k = 1; k <= n; k++) {
        cx = int((x[k] - b[1]) / h); cy = int((y[k] - b[2]) / h); cz = int((z[k] - b[3]) / h)
        for (ox = -1; ox <= 1; ox++)
            for (oy = -1; oy <= 1; oy++)
                for (oz = -1; oz <= 1; oz++) {
                    key = (cx + ox) " " (cy + oy) " " (cz + oz)
                    if (!(key in cell)) continue
                    cnt = split(cell[key], list, " ")
                    for (q = 1; q <= cnt; q++) {
                        j = list[q] + 0
                        if (j <= k) continue
                        rs = r[k] + r[j]
                        d2 = (x[k] - x[j]) ^ 2 + (y[k] - y[j]) ^ 2 + (z[k] - z[j]) ^ 2
                        if (d2 < rs * rs) {
                            contacts++
                            d = rs - sqrt(d2)
                            if (d > omax) omax = d
                        }
                    }
                }
    }
    printf "%s\t%d\t%.6g\t%.6g\t%.6g\t%.6g\t%d\t%d\t%.4f\t%.3g\n", code, n, zsum / n, zmax, ekt, ekr, contacts, wall,
        2 * contacts / n, omax
}
