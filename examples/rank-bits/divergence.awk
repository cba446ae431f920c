# divergence.awk - two position tables of the same spheres (positions.awk's rows: step id x y z),
# the reference first: per step of the second that the first also has, the largest distance
# between a sphere's two positions (m) and how many spheres' positions differ in any bit.
# Output rows: step max_distance[m] differing (sorted by step by the caller).
BEGIN { FS = "\t" }
FNR == 1 { file++ }
file == 1 { x[$1, $2] = $3; y[$1, $2] = $4; z[$1, $2] = $5; next }
($1, $2) in x {
    s = $1
    seen[s] = 1
    d = sqrt(($3 - x[s, $2])^2 + ($4 - y[s, $2])^2 + ($5 - z[s, $2])^2)
    if (d > m[s]) m[s] = d
    if ($3 "" != x[s, $2] "" || $4 "" != y[s, $2] "" || $5 "" != z[s, $2] "") n[s]++
}
END { for (s in seen) printf "%d\t%.6g\t%d\n", s, m[s], n[s] }
