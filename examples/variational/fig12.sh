#!/usr/bin/env bash
# Fig 12 of De Klerk et al. 2022: 218 spheres settling in a 6d x 6d x 40d box (the paper's is 120d high)
# under gravity g = k d / (195 000 m), frictionless with a normal dashpot, from a mid-air snapshot
# (made by vv): the mean kinetic energy per particle (eq 35) and the velocity fluctuation (eq 36)
# against time with vv and the variational integrator (alpha 1/2). Also the cost per step.
. ./common.sh
G=$(awk -v k=$K -v d=$D -v m="$M" 'BEGIN { printf "%.17g", k * d / (195000 * m) }')
H=$(awk -v tc="$TC" 'BEGIN { printf "%.17g", tc / 50 }')
PHYS="$LAW --damping viscous --gamma-n 0.02 --gamma-t 0 --gravity 0,0,-$G"
"$BIN/dem-pack" --random 218 --box 0,0,0,0.012,0.012,0.08 --radius $R --enclose --seed 4 > "$OUT/box0.dem"
# the snapshot: 0.1 s of falling
"$BIN/dem-step" -q $PHYS --integrator vv --dt "$H" --time 0.1 "$OUT/box0.dem" > "$OUT/mid.dem"
stats() { # a run's frames -> t, Kbar (eq 35), dv (eq 36)
    "$BIN/dem-probe" --particles --fields mass "$1" | awk -F'\t' -v r=$R 'NR == 1 { next }
        { f = $1; t[f] = $3; n[f]++; m = $18; i = 0.4 * m * r * r
          k[f] += m * ($8^2 + $9^2 + $10^2) + i * ($11^2 + $12^2 + $13^2)
          sx[f] += $8; sy[f] += $9; sz[f] += $10; qx[f] += $8^2; qy[f] += $9^2; qz[f] += $10^2 }
        END { for (f = 0; f in t; f++) { N = n[f]
            dv = (qx[f] - sx[f]^2 / N + qy[f] - sy[f]^2 / N + qz[f] - sz[f]^2 / N) / (3 * N)
            printf "%.17g\t%.17g\t%.17g\n", t[f], k[f] / (2 * N), dv } }'
}
printf 'method\tt[s]\tKbar[J]\tdv[m^2/s^2]\n' > "$OUT/fig12.tsv"
printf 'case\tmethod\tsteps\ttime[s]\ttime_per_step[s]\tratio_to_vv\n' > "$OUT/cost.tsv"
for meth in "vv:--integrator vv" "alpha05:--integrator variational --alpha 0.5"; do
    name=${meth%%:*}
    start=$(date +%s.%N)
    "$BIN/dem-step" -q $PHYS ${meth#*:} --dt "$H" --time 0.4 --every 2000 "$OUT/mid.dem" > "$OUT/run-$name.dem"
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    steps=$("$BIN/dem-probe" --last "$OUT/run-$name.dem" | awk -F'\t' 'NR == 2 { print $2 }')
    steps0=$("$BIN/dem-probe" "$OUT/mid.dem" | awk -F'\t' 'NR == 2 { print $2 }')
    echo -e "box (218 spheres)\t$name\t$((steps - steps0))\t$secs" >> "$OUT/cost.raw"
    stats "$OUT/run-$name.dem" | awk -v nm=$name '{ print nm "\t" $0 }' >> "$OUT/fig12.tsv"
done
awk -F'\t' '{ t[$2] = $4 / $3; s[$2] = $3; w[$2] = $4; c = $1 } END { for (k in t) printf "%s\t%s\t%s\t%s\t%.3g\t%.3g\n", c, k, s[k], w[k], t[k], t[k] / t["vv"] }' "$OUT/cost.raw" >> "$OUT/cost.tsv"
rm -f "$OUT/cost.raw"
# statistics: the time integral of Kbar and of dv, and the time Kbar falls below 1% of its peak
sum=$(awk -F'\t' 'NR > 1 { if ($2 in t0) {} ; k = $1; if (p[k] != "") { ik[k] += 0.5 * ($3 + pk[k]) * ($2 - p[k]); id[k] += 0.5 * ($4 + pd[k]) * ($2 - p[k]) }
        p[k] = $2; pk[k] = $3; pd[k] = $4; if ($3 > mx[k]) mx[k] = $3; kb[k, ++n[k]] = $3; tt[k, n[k]] = $2 }
        END { for (k in n) { ts[k] = -1; for (j = 1; j <= n[k]; j++) if (ts[k] < 0 && kb[k, j] < 0.01 * mx[k]) ts[k] = tt[k, j] }
              printf "%.6g %.6g %.6g %.6g %.6g %.6g", ik["vv"], ik["alpha05"], id["vv"], id["alpha05"], ts["vv"], ts["alpha05"] }' "$OUT/fig12.tsv")
read -r ikv ika idv ida tsv tsa <<< "$sum"
echo "integral of Kbar: vv $ikv, alpha 1/2 $ika; of dv: vv $idv, alpha 1/2 $ida; Kbar < 1% of its peak at t = $tsv (vv), $tsa (alpha 1/2)"
verdict "Fig 12" "$(awk -v a="$ikv" -v b="$ika" -v c="$idv" -v d="$ida" -v e="$tsv" -v f="$tsa" 'BEGIN {
        x = (a - b) / a; y = (c - d) / c; z = (e - f) / e; if (x < 0) x = -x; if (y < 0) y = -y; if (z < 0) z = -z
        print (e > 0 && f > 0 && x < 0.1 && y < 0.1 && z < 0.1) }')" \
    "settling in a box: the time integrals of Kbar (eq 35: $ika against vv's $ikv J s) and of the velocity fluctuation (eq 36: $ida against $idv m^2/s) and the time Kbar falls below 1% of its peak ($tsa against $tsv s) agree with vv to 10% (required): statistically the same"
column -t -s '	' "$OUT/cost.tsv"
