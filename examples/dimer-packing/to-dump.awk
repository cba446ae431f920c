# to-dump.awk - dem-probe --particles --fields id,clump,r (one frame) as the LAMMPS text dump that
# examples/clumps/lammps/analyze.py reads: columns id mol radius x y z ix iy iz, mol the member's
# clump id. The positions are dem's (inside the periodic cell); the image counters are 0 (analyze.py
# takes contacts by the minimum image and heights from z). -v LX=... -v LY=... the cell's sides (m).
BEGIN { FS = "\t" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{
    n++; line[n] = sprintf("%s %s %s %s %s %s 0 0 0", $c["id"], $c["clump"], $c["r[m]"], $c["x[m]"], $c["y[m]"], $c["z[m]"])
    if ($c["clump"] == 0) { printf "to-dump.awk: particle %s is not in a clump\n", $c["id"] > "/dev/stderr"; bad = 1 }
    if ($c["z[m]"] > zmax) zmax = $c["z[m]"]
}
END {
    if (bad) exit 1
    printf "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n%d\n", n
    printf "ITEM: BOX BOUNDS pp pp fm\n0 %s\n0 %s\n0 %.17g\n", LX, LY, zmax + 0.001
    print "ITEM: ATOMS id mol radius x y z ix iy iz"
    for (k = 1; k <= n; k++) print line[k]
}
