# orient.awk - dem-probe --clumps on stdin: one line per clump, |cos| of the angle between its first
# principal axis (a dimer's axis: the smallest moment) and the vertical, R(q) e_1 . e_z = 2 (q1 q3 - q0 q2).
BEGIN { FS = "\t"; print "id\tcos_z" }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{ x = 2 * ($c["q1"] * $c["q3"] - $c["q0"] * $c["q2"]); if (x < 0) x = -x; printf "%s\t%.6f\n", $c["id"], x }
