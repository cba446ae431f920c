#!/usr/bin/env bash
# Fig 10 of De Klerk et al. 2022: one sphere bouncing between two plane walls 1.01 d apart, undamped, for 250
# bounces. The total energy (kinetic and the walls' springs, E = 1/2 m v^2 + kn delta^2/2) against
# its initial value, over h, for vv and the variational integrator with alpha 0 and 1/2.
. ./common.sh
V=0.01
GAP=$(awk -v d=$D 'BEGIN { printf "%.17g", 1.01 * d }')
printf 'x\ty\tz\tr\tvz\n0\t0\t%.17g\t%s\t%s\n' "$(awk -v g="$GAP" 'BEGIN { print g / 2 }')" $R $V > "$OUT/one.tsv"
"$BIN/dem-pack" --from "$OUT/one.tsv" --wall z=0 --wall "z=$GAP" > "$OUT/walls.dem"
# 250 bounces: flights of 0.01 d at v and contacts of pi sqrt(m/k)
T=$(awk -v d=$D -v v=$V -v m="$M" -v k=$K 'BEGIN { printf "%.17g", 250 * (0.01 * d / v + 3.141592653589793 * sqrt(m / k)) }')
E0=$(awk -v m="$M" -v v=$V 'BEGIN { printf "%.17g", 0.5 * m * v * v }')
printf 'h/tc\tmethod\terr_rms\terr_first_half\terr_second_half\ttime[s]\tsteps\n' > "$OUT/fig10.tsv"
for div in 160 80 40 20 10; do
    h=$(awk -v tc="$TC" -v d=$div 'BEGIN { printf "%.17g", tc / d }')
    n=$(awk -v t="$T" -v h="$h" 'BEGIN { printf "%d", t / h + 1 }')
    every=$(awk -v n="$n" 'BEGIN { e = int(n / 4000); print e < 1 ? 1 : e }')
    for meth in "vv:--integrator vv" "alpha0:--integrator variational --alpha 0" "alpha05:--integrator variational --alpha 0.5"; do
        name=${meth%%:*}
        start=$(date +%s.%N)
        "$BIN/dem-step" -q $LAW --damping none --dt "$h" -n "$n" --every "$every" ${meth#*:} "$OUT/walls.dem" > "$OUT/run.dem"
        secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
        "$BIN/dem-energy" "$OUT/run.dem" 2> /dev/null | awk -F'\t' -v e0="$E0" -v d=$div -v nm=$name -v s="$secs" -v steps="$n" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { e[++n] = ($c["ekin_t[J]"] + $c["ekin_r[J]"] + $c["eel_n[J]"] - e0) / e0 }
            END { for (k = 1; k <= n; k++) { a = e[k] < 0 ? -e[k] : e[k]; s2 += a * a; if (2 * k <= n) { if (a > m1) m1 = a } else if (a > m2) m2 = a }
                  printf "%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t%s\n", d, nm, sqrt(s2 / n), m1, m2, s, steps }' >> "$OUT/fig10.tsv"
        [ "$div" = 160 ] && "$BIN/dem-energy" "$OUT/run.dem" 2> /dev/null | awk -F'\t' -v e0="$E0" -v nm=$name '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { printf "%s\t%s\t%.17g\n", nm, $c["time[s]"], ($c["ekin_t[J]"] + $c["ekin_r[J]"] + $c["eel_n[J]"] - e0) / e0 }' >> "$OUT/fig10b.tsv"
    done
done
rm -f "$OUT/run.dem"
column -t "$OUT/fig10.tsv"
bad=$(awk -F'\t' 'NR > 1 && $2 != "alpha0" && !($5 <= 2 * $4 + 1e-12) { printf "%s at tc/%s; ", $2, $1 }' "$OUT/fig10.tsv")
verdict "Fig 10 (bounded)" "$([ -z "$bad" ] && echo 1 || echo 0)" \
    "250 bounces: the energy error of vv and alpha 1/2 in the second half of the run is at most twice the first half's at every h (bounded, not drifting)${bad:+; not: $bad}"
worse=$(awk -F'\t' 'NR > 1 && $1 >= 20 { e[$1, $2] = $3; h[$1] = 1 } END { for (d in h) if (!(e[d, "alpha0"] > e[d, "alpha05"] && e[d, "alpha0"] > e[d, "vv"])) printf "tc/%s; ", d }' "$OUT/fig10.tsv")
verdict "Fig 10 (order)" "$([ -z "$worse" ] && echo 1 || echo 0)" \
    "the first-order method's energy error is the largest at every h <= tc/20 (De Klerk et al. 2022: vv and alpha 1/2 outperform it; at tc/10 alpha 1/2's is $(awk -F'\t' '$1 == 10 && $2 == "alpha05" { print $3 }' "$OUT/fig10.tsv") against alpha 0's $(awk -F'\t' '$1 == 10 && $2 == "alpha0" { print $3 }' "$OUT/fig10.tsv"): the walls' discontinuous stiffness costs the second-order method its order there): at tc/160 vv $(awk -F'\t' '$1 == 160 && $2 == "vv" { print $3 }' "$OUT/fig10.tsv"), alpha 1/2 $(awk -F'\t' '$1 == 160 && $2 == "alpha05" { print $3 }' "$OUT/fig10.tsv"), alpha 0 $(awk -F'\t' '$1 == 160 && $2 == "alpha0" { print $3 }' "$OUT/fig10.tsv")${worse:+; not at: $worse}"
