# slab.awk clumps.tsv particles.tsv contacts.tsv - the dimer packing measured as
# lammps/analyze.py measures LAMMPS' (lammps/README.md): the slab from 6 R above the floor to 6 R
# below the highest clump centre; phi = the union volumes (mass / density) of the clumps whose centre
# lies in it over L^2 times its thickness; z_contacts = contact points (member pairs of two clumps
# with a positive overlap) per clump in the slab; z_neighbours = distinct clumps touching it.
# Variables: r (member radius, m), l (the periodic side, m), rho (density, kg/m^3).
# Files: dem-probe --clumps, dem-probe --particles --fields clump, dem-probe --contacts.
BEGIN { FS = "\t"; OFS = "\t" }
FNR == 1 { f++; delete c; for (k = 1; k <= NF; k++) c[$k] = k; next }
f == 1 { z[$c["id"]] = $c["z[m]"]; v[$c["id"]] = $c["mass[kg]"] / rho; if ($c["z[m]"] > top) top = $c["z[m]"]; n++ }
f == 2 { cl[$c["id"]] = $c["clump"] }
f == 3 && $c["overlap[m]"] > 0 && !$c["wall"] {
    a = cl[$c["i"]]; b = cl[$c["j"]]
    if (a == b) next
    zc[a]++; zc[b]++
    key = a < b ? a " " b : b " " a
    if (!(key in seen)) { seen[key] = 1; zn[a]++; zn[b]++ }
}
END {
    lo = 6 * r; hi = top - 6 * r
    for (id in z) if (z[id] >= lo && z[id] < hi) { m++; vol += v[id]; sc += zc[id]; sn += zn[id]; rat += !zc[id] }
    print "dimers", "z_lo[m]", "z_hi[m]", "in_slab", "phi", "z_contacts", "z_neighbours", "rattlers"
    printf "%d\t%.6g\t%.6g\t%d\t%.4f\t%.3f\t%.3f\t%.4f\n", n, lo, hi, m, vol / (l * l * (hi - lo)), sc / m, sn / m, rat / m
}
