# verdict.awk measures.tsv orient-pour.tsv orient-settled.tsv: PASS or FAIL (exit status 1).
BEGIN { FS = "\t" }
FILENAME ~ /measures/ { m[$1] = $2; next }
FNR == 1 { f++; next }
{ s[f] += $2; s2[f] += $2 * $2; n[f]++ }
function check(ok, what) { printf "%s  %s\n", ok ? "ok  " : "FAIL", what; if (!ok) bad = 1 }
END {
    # |cos| of isotropic axes is uniform on [0, 1]: mean 1/2, standard deviation 1/sqrt(12)
    se = sqrt(1 / 12 / n[1])
    mean0 = s[1] / n[1]; mean1 = s[2] / n[2]
    printf "%d clumps: mean |cos| to the vertical %.4f as placed, %.4f settled (isotropic 0.5 +- %.4f)\n", n[1], mean0, mean1, se
    printf "bulk solid fraction %.4f; %.3f contacts and %.3f neighbouring clumps per clump; unbalanced %.2g\n",
        m["solid_fraction_bulk"], m["contacts_per_clump"], m["neighbours_per_clump"], m["unbalanced"]
    printf "members' distance off D r by %.2g at most; energy residual %.2g of the initial energy (%.3g J dissipated)\n",
        m["rigidity_error"], m["energy_residual_of_initial"], m["energy_dissipated[J]"]
    check(mean0 > 0.5 - 3 * se && mean0 < 0.5 + 3 * se, "the placed clumps' axes are isotropic (within 3 standard errors)")
    check(mean1 < 0.5 - 3 * se, "the poured bed's dimers lie flatter than isotropic (by more than 3 standard errors)")
    check(m["unbalanced"] < 1e-4, "the bed is at rest (unbalanced-force ratio of the clumps below 1e-4)")
    check(m["own_clump_contacts"] == 0, "no member touches its own clump")
    check(m["rigidity_error"] < 1e-12, "every dimer keeps its members D r apart to 1e-12")
    check(m["energy_residual_of_initial"] < 1e-3, "the energy budget closes to 1e-3 of the initial energy")
    check(m["solid_fraction_bulk"] > 0.5 && m["solid_fraction_bulk"] < 0.7, "the bulk solid fraction of a frictional pour (0.5 .. 0.7)")
    check(m["contacts_per_clump"] > 3 && m["contacts_per_clump"] < 12, "a mechanically stable bed: 3 to 12 contacts per clump")
    check(m["coordination_probe"] == m["contacts_per_clump"] && m["particles_probe"] == m["clumps"],
          "dem-probe counts the clumps as its particles and their contacts as its coordination (" m["coordination_probe"] ")")
    print bad ? "FAIL" : "PASS"
    exit bad
}
