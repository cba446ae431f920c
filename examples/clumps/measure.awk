# measure.awk members.tsv contacts.tsv energy.tsv (measure.sh's): the coordination of the clumps (a
# clump's contacts with other clumps and with walls, counted by member pair, and its distinct
# neighbouring clumps), each dimer's member distance against D r = r (rigidity), and the energy
# budget's residual against the energy dissipated.
BEGIN { FS = "\t"; OFS = "\t" }
FNR == 1 { f++; delete c; for (k = 1; k <= NF; k++) c[$k] = k; next }
f == 1 {
    id = $c["id"]; cl[id] = $c["clump"]; n[$c["clump"]]++
    if ($c["clump"] in px) { dx = $c["x[m]"] - px[$c["clump"]]; dy = $c["y[m]"] - py[$c["clump"]]; dz = $c["z[m]"] - pz[$c["clump"]]
        e = sqrt(dx * dx + dy * dy + dz * dz) / r - 1; if (e < 0) e = -e; if (e > rig) rig = e }
    else { px[$c["clump"]] = $c["x[m]"]; py[$c["clump"]] = $c["y[m]"]; pz[$c["clump"]] = $c["z[m]"] }
}
f == 2 && $c["overlap[m]"] > 0 {
    if ($c["wall"] == 1) { walls++; next }
    a = cl[$c["i"]]; b = cl[$c["j"]]; pairs++
    if (a == b) same++
    key = a < b ? a " " b : b " " a
    if (!(key in nb)) { nb[key] = 1; distinct++ }
}
f == 3 { res = $c["residual[J]"]; e0 = $c["e_initial[J]"]
    dis = $c["ediss_friction[J]"] + $c["ediss_damp_n[J]"] + $c["ediss_damp_t[J]"] + $c["ediss_local[J]"] + $c["ediss_drag[J]"] }
END {
    for (k in n) nc++
    print "clumps", nc
    print "contacts_per_clump", 2 * pairs / nc
    print "neighbours_per_clump", 2 * distinct / nc
    print "wall_contacts", walls + 0
    print "own_clump_contacts", same + 0
    print "rigidity_error", rig + 0
    print "energy_dissipated[J]", dis
    print "energy_residual_of_initial", (res < 0 ? -res : res) / e0
}
