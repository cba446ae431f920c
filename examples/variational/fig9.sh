#!/usr/bin/env bash
# Fig 9 of De Klerk et al. 2022: the bonded pair as a harmonic oscillator. Two touching spheres bonded with
# kb = k, approaching at 2v: x2(t) = r - v/w sin(wt), v2(t) = -v cos(wt), w = sqrt(2 kb/m),
# E = m v^2. The RMS errors of position, velocity and energy over t = 30 sqrt(m/k) against the
# time step h in [0.01, 1.4] sqrt(m/k), for vv and the variational integrator with alpha 0, 1/2.
. ./common.sh
V=0.01
U=$(awk -v m="$M" -v k=$K 'BEGIN { printf "%.17g", sqrt(m / k) }')   # sqrt(m/k), s
W=$(awk -v m="$M" -v k=$K 'BEGIN { printf "%.17g", sqrt(2 * k / m) }')
printf 'id\tx\ty\tz\tr\tvx\n1\t-%s\t0\t0\t%s\t%s\n2\t%s\t0\t0\t%s\t-%s\n' $R $R $V $R $R $V > "$OUT/pair.tsv"
printf 'i\tj\n1\t2\n' > "$OUT/bond.tsv"
"$BIN/dem-pack" --from "$OUT/pair.tsv" --bonds "$OUT/bond.tsv" --bond-stiffness $K > "$OUT/pair.dem"
printf 'h[sqrt(m/k)]\tmethod\te_x\te_v\te_E\ttime[s]\tgrowth\n' > "$OUT/fig9.tsv"
for hu in 0.01 0.02 0.05 0.1 0.2 0.4 0.7 1.0 1.2 1.4; do
    h=$(awk -v a=$hu -v u="$U" 'BEGIN { printf "%.17g", a * u }')
    n=$(awk -v a=$hu 'BEGIN { printf "%d", 30 / a + 0.5 }')
    for meth in "vv:--integrator vv" "alpha0:--integrator variational --alpha 0" "alpha05:--integrator variational --alpha 0.5"; do
        name=${meth%%:*}
        start=$(date +%s.%N)
        "$BIN/dem-step" -q $LAW --damping none --dt "$h" -n "$n" --every 1 ${meth#*:} "$OUT/pair.dem" > "$OUT/run.dem"
        secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
        "$BIN/dem-probe" --particles --ids 2 "$OUT/run.dem" | awk -F'\t' 'NR > 1 { print $3 "\t" $5 "\t" $8 }' > "$OUT/p.tsv"
        "$BIN/dem-energy" "$OUT/run.dem" 2> /dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { printf "%.17g\n", $c["ekin_t[J]"] + $c["eel_b[J]"] }' > "$OUT/e.tsv"
        paste "$OUT/p.tsv" "$OUT/e.tsv" | awk -F'\t' -v r=$R -v v=$V -v w="$W" -v m="$M" -v hu=$hu -v nm=$name -v s="$secs" '
            { x = r - v / w * sin(w * $1); u = -v * cos(w * $1)
              sx += ($2 - x)^2; sv += ($3 - u)^2; se += ($4 - m * v * v)^2; n++
              a = $2 - r; if (a < 0) a = -a; if (n * 2 <= N) { if (a > a1) a1 = a } else if (a > a2) a2 = a }
            END { printf "%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t%.6g\n", hu, nm, sqrt(sx / n) / (v / w), sqrt(sv / n) / v, sqrt(se / n) / (m * v * v), s, a2 / a1 }' N="$n" >> "$OUT/fig9.tsv"
    done
done
rm -f "$OUT/run.dem" "$OUT/p.tsv" "$OUT/e.tsv"
column -t "$OUT/fig9.tsv"
# the orders: slopes of log e_v between h = 0.01 and 0.1
slope() { awk -F'\t' -v nm="$1" -v col="$2" '$2 == nm && $1 == 0.01 { a = $col } $2 == nm && $1 == 0.1 { b = $col } END { printf "%.2f", log(b / a) / log(10) }' "$OUT/fig9.tsv"; }
svv=$(slope vv 4); s0=$(slope alpha0 4); s05=$(slope alpha05 4)
verdict "Fig 9 (orders)" "$(awk -v a="$svv" -v b="$s0" -v c="$s05" 'BEGIN { print (a > 1.8 && c > 1.8 && b > 0.8 && b < 1.2) }')" \
    "velocity error against h: order $svv (vv), $s05 (alpha 1/2), $s0 (alpha 0: its momentum is the half-step one) (required: > 1.8, > 1.8, 0.8..1.2)"
emax=$(awk -F'\t' '$2 == "alpha05" { if ($5 > m) m = $5 } END { printf "%.3g", m }' "$OUT/fig9.tsv")
verdict "Fig 9 (energy)" "$(awk -v e="$emax" 'BEGIN { print (e < 1e-9) }')" \
    "alpha 1/2 conserves the energy to $emax (RMS, relative) at every h up to 1.4 sqrt(m/k) (required < 1e-9: the Newton tolerance)"
# stable: the largest displacement of the second half of the run no larger than 1.5 times the
# first half's (an unstable scheme grows exponentially)
bad=$(awk -F'\t' 'NR > 1 && $2 != "alpha0" && !($7 < 1.5) { printf "%s at h %s; ", $2, $1 }' "$OUT/fig9.tsv")
verdict "Fig 9 (stability)" "$([ -z "$bad" ] && echo 1 || echo 0)" \
    "vv and alpha 1/2 stay bounded for every h < sqrt(2 m/k) = 1.41 sqrt(m/k): the amplitude of the run's second half over its first at h = 1.4: vv $(awk -F'\t' '$1 == 1.4 && $2 == "vv" { print $7 }' "$OUT/fig9.tsv"), alpha 1/2 $(awk -F'\t' '$1 == 1.4 && $2 == "alpha05" { print $7 }' "$OUT/fig9.tsv") (required < 1.5)${bad:+; not: $bad}"

# Cost: the time to solution (t = 30 sqrt(m/k)) at the largest stable step of each method: vv
# at 1.4 sqrt(m/k) (its bound is 1.41: at 1.5 it grows without bound), the variational alpha 1/2
# (the implicit midpoint rule, stable at any h: at 4 sqrt(m/k) still bounded, energy kept)
printf 'method\th[sqrt(m/k)]\tsteps\ttime[s]\tgrowth\te_E\n' > "$OUT/cost9.tsv"
for c in "vv:1.4:--integrator vv" "vv:1.5:--integrator vv" "alpha05:1.4:--integrator variational --alpha 0.5" "alpha05:4:--integrator variational --alpha 0.5"; do
    name=${c%%:*}; rest=${c#*:}; hu=${rest%%:*}; args=${rest#*:}
    h=$(awk -v a=$hu -v u="$U" 'BEGIN { printf "%.17g", a * u }')
    n=$(awk -v a=$hu 'BEGIN { printf "%d", 30 / a + 0.5 }')
    start=$(date +%s.%N)
    "$BIN/dem-step" -q $LAW --damping none --dt "$h" -n "$n" --every 1 --stop-move 0 --stop-overlap 0 --stop-dt 0 $args "$OUT/pair.dem" > "$OUT/run.dem" 2> /dev/null || true
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.4f", b - a }')
    "$BIN/dem-probe" --particles --ids 2 "$OUT/run.dem" | awk -F'\t' -v r=$R -v N="$n" 'NR > 1 { a = $5 - r; if (a < 0) a = -a; k++; if (2 * k <= N) { if (a > a1) a1 = a } else if (a > a2) a2 = a }
        END { printf "%.6g\n", a2 / a1 }' > "$OUT/g.txt"
    e=$("$BIN/dem-energy" "$OUT/run.dem" 2> /dev/null | awk -F'\t' -v m="$M" -v v=0.01 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { d = ($c["ekin_t[J]"] + $c["eel_b[J]"] - m * v * v) / (m * v * v); if (d < 0) d = -d; if (d > x) x = d } END { printf "%.3g", x }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$hu" "$n" "$secs" "$(cat "$OUT/g.txt")" "$e" >> "$OUT/cost9.tsv"
done
rm -f "$OUT/run.dem" "$OUT/g.txt"
column -t "$OUT/cost9.tsv"
g15=$(awk -F'\t' '$1 == "vv" && $2 == 1.5 { print $5 }' "$OUT/cost9.tsv")
e15=$(awk -F'\t' '$1 == "vv" && $2 == 1.5 { print $6 }' "$OUT/cost9.tsv")
g4=$(awk -F'\t' '$1 == "alpha05" && $2 == 4 { print $5 }' "$OUT/cost9.tsv")
e4=$(awk -F'\t' '$1 == "alpha05" && $2 == 4 { print $6 }' "$OUT/cost9.tsv")
verdict "Fig 9 (beyond vv's bound)" "$(awk -v a="$g15" -v f="$e15" -v b="$g4" -v e="$e4" 'BEGIN { print (a > 3 && f > 1e3 && b < 1.5 && e < 1e-9) }')" \
    "at h = 1.5 sqrt(m/k) vv's amplitude grows $g15-fold between the halves of its 20 steps and its energy $e15-fold (unstable); alpha 1/2 at h = 4 sqrt(m/k) stays bounded ($g4) with its energy kept to $e4 (required: > 3, > 1e3, < 1.5, < 1e-9)"
