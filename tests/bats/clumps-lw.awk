# clumps-lw.awk - V sigma_zz (compression positive) of a static frame in a box under gravity g_z = -9.81,
# two ways, from dem-probe's tables: awk -f clumps-lw.awk particles.tsv contacts.tsv clumps.tsv
# (particles: --particles --fields id,z,r). Prints
#   1. the mean stress theorem: -sum over wall contacts p_z f_z - sum over bodies m z g_z, which the
#      Love-Weber sum equals when every body is in equilibrium and its branch vectors join bodies;
#   2. the Love-Weber sum with branch vectors to the member spheres' centres (wrong for clumps).
# No periodic cell (the contacts' image shifts are ignored).
BEGIN { FS = "\t"; g = -9.81 }
FNR == 1 { file++; for (k = 1; k <= NF; k++) col[file, $k] = k; next }
file == 1 { z[$col[1, "id"]] = $col[1, "z[m]"]; r[$col[1, "id"]] = $col[1, "r[m]"] }
file == 2 {
    i = $col[2, "i"]; j = $col[2, "j"]; fz = $col[2, "fnz[N]"] + $col[2, "ftz[N]"]; d = $col[2, "overlap[m]"]; nz = $col[2, "nz"]
    if ($col[2, "wall"] == 1) { pz = z[i] - (r[i] - d / 2) * nz; wall += pz * fz; mem -= -(r[i] - d / 2) * nz * fz }
    else mem += (z[i] - z[j]) * fz
}
file == 3 { body += $col[3, "mass[kg]"] * $col[3, "z[m]"] * g }
END { printf "%.10g %.10g\n", -wall - body, mem }
