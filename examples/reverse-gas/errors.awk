# errors.awk - how far a forward-then-reversed run ends from its initial state.
# Files: the initial state, then the state back, as rows "id x y z vx vy vz fx fy fz" (m, m/s, N).
# Variables: N (steps each way), DT (s), D (diameter, m; default 1e-3).
# Output: one row: N, N dt, max and rms |x_back - x_0| / d, max and rms |v_back - v_0| / v_rms, with
# v_rms = sqrt(<|v_0|^2>) the initial rms speed.
BEGIN { FS = OFS = "\t"; if (D == "") D = 1e-3 }
NR == FNR { X[$1] = $2; Y[$1] = $3; Z[$1] = $4; VX[$1] = $5; VY[$1] = $6; VZ[$1] = $7; v2 += $5^2 + $6^2 + $7^2; n0++; next }
{
    if (!($1 in X)) { printf "errors.awk: particle %s is not in the initial state\n", $1 > "/dev/stderr"; exit 1 }
    dx2 = ($2 - X[$1])^2 + ($3 - Y[$1])^2 + ($4 - Z[$1])^2
    dv2 = ($5 - VX[$1])^2 + ($6 - VY[$1])^2 + ($7 - VZ[$1])^2
    if (dx2 > mx) mx = dx2
    if (dv2 > mv) mv = dv2
    sx += dx2; sv += dv2; n++
}
END {
    if (n != n0) { printf "errors.awk: %d particles back, %d initially\n", n, n0 > "/dev/stderr"; exit 1 }
    vr = sqrt(v2 / n0)
    printf "%d\t%.6g\t%.4g\t%.4g\t%.4g\t%.4g\n", N, N * DT, sqrt(mx) / D, sqrt(sx / n) / D, sqrt(mv) / vr, sqrt(sv / n) / vr
}
