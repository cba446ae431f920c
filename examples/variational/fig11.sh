#!/usr/bin/env bash
# Fig 11 of De Klerk et al. 2022: a bonded pair (2 bonded to 1, kb = 4 k) moving at +v hit by a third sphere 3
# moving at -v; undamped. out/fig11.tsv: the force of the bond 1-2 and of the contact 1-3 over time
# (vv and the variational integrator, alpha 1/2).
. ./common.sh
V=0.01
KB=$(awk -v k=$K 'BEGIN { print 4 * k }')
EPS=1e-6
printf 'id\tx\ty\tz\tr\tvx\n1\t-%s\t0\t0\t%s\t%s\n2\t%.17g\t0\t0\t%s\t%s\n3\t%.17g\t0\t0\t%s\t-%s\n' \
    $R $R $V "$(awk -v r=$R 'BEGIN { print -3 * r }')" $R $V "$(awk -v r=$R -v e=$EPS 'BEGIN { print r + e }')" $R $V > "$OUT/three.tsv"
printf 'i\tj\n1\t2\n' > "$OUT/bond12.tsv"
"$BIN/dem-pack" --from "$OUT/three.tsv" --bonds "$OUT/bond12.tsv" --bond-stiffness "$KB" > "$OUT/three.dem"
H=$(awk -v tc="$TC" 'BEGIN { printf "%.17g", tc / 160 }')
N=2000
printf 't[s]\tmethod\tf12[N]\tf13[N]\tpx[kg*m/s]\tE[J]\n' > "$OUT/fig11.tsv"
for meth in "vv:--integrator vv" "alpha05:--integrator variational --alpha 0.5"; do
    name=${meth%%:*}
    "$BIN/dem-step" -q $LAW --damping none --dt "$H" -n $N --every 2 ${meth#*:} "$OUT/three.dem" > "$OUT/run.dem"
    "$BIN/dem-probe" --bonds "$OUT/run.dem" | awk -F'\t' 'NR > 1 { printf "%s\t%.17g\n", $1, sqrt($12^2 + $13^2 + $14^2) }' > "$OUT/b.tsv"
    # the contact 1-3 (frames without it: 0)
    "$BIN/dem-probe" --contacts "$OUT/run.dem" | awk -F'\t' 'NR > 1 && (($4 == 1 && $5 == 3) || ($4 == 3 && $5 == 1)) && $10 > 0 {
        f[$1] = sqrt($14^2 + $15^2 + $16^2) } END { for (k in f) printf "%s\t%.17g\n", k, f[k] }' | sort -n > "$OUT/c.tsv"
    "$BIN/dem-probe" --particles "$OUT/run.dem" | awk -F'\t' -v m="$M" 'NR > 1 { t[$1] = $3; p[$1] += m * $8 } END { for (k = 0; k in t; k++) printf "%s\t%s\t%.17g\n", k, t[k], p[k] }' > "$OUT/p.tsv"
    "$BIN/dem-energy" "$OUT/run.dem" 2> /dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%s\t%.17g\n", $1, $c["ekin_t[J]"] + $c["ekin_r[J]"] + $c["eel_n[J]"] + $c["eel_b[J]"] }' > "$OUT/e.tsv"
    awk -F'\t' -v nm=$name 'FILENAME ~ /b.tsv/ { b[$1] = $2; next } FILENAME ~ /c.tsv/ { c[$1] = $2; next } FILENAME ~ /e.tsv/ { e[$1] = $2; next }
        { printf "%s\t%s\t%.17g\t%.17g\t%.17g\t%.17g\n", $2, nm, b[$1], ($1 in c) ? c[$1] : 0, $3, e[$1] }' \
        "$OUT/b.tsv" "$OUT/c.tsv" "$OUT/e.tsv" "$OUT/p.tsv" >> "$OUT/fig11.tsv"
done
rm -f "$OUT/run.dem" "$OUT/b.tsv" "$OUT/c.tsv" "$OUT/p.tsv" "$OUT/e.tsv"
# checks: momentum (total m v = m v at the start: v + v - v), energy, the contact came and went,
# the bond's oscillation at w = sqrt(2 kb / m) (the pair's relative motion, reduced mass m/2)
P0=$(awk -v m="$M" -v v=$V 'BEGIN { printf "%.17g", m * v }')
E0=$(awk -v m="$M" -v v=$V 'BEGIN { printf "%.17g", 1.5 * m * v * v }')
res=$(awk -F'\t' -v p0="$P0" -v e0="$E0" 'NR > 1 { dp = ($5 - p0) / p0; de = ($6 - e0) / e0; if (dp < 0) dp = -dp; if (de < 0) de = -de
        if (dp > mp[$2]) mp[$2] = dp; if (de > me[$2]) me[$2] = de; if ($4 > fc[$2]) fc[$2] = $4 }
        END { printf "%.3g %.3g %.3g %.3g %.6g %.6g", mp["vv"], mp["alpha05"], me["vv"], me["alpha05"], fc["vv"], fc["alpha05"] }' "$OUT/fig11.tsv")
read -r pvv p05 evv e05 fvv f05 <<< "$res"
verdict "Fig 11 (conservation)" "$(awk -v a="$p05" -v b="$e05" 'BEGIN { print (a < 1e-10 && b < 1e-3) }')" \
    "momentum kept to $p05 (alpha 1/2) and $pvv (vv), energy to $e05 (alpha 1/2) and $evv (vv) of their initial values (required for alpha 1/2: < 1e-10 and < 1e-3, the contact's onset within a step)"
verdict "Fig 11 (forces)" "$(awk -v a="$fvv" -v b="$f05" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; print (a > 0 && d < 0.01) }')" \
    "the peak force of the 1-3 contact: $f05 N (alpha 1/2) and $fvv N (vv), within 1% (required); the bond then rings (out/fig11.png)"
# the period of the bond's ringing after the contact ends: zero crossings of f12 - mean
per=$(awk -F'\t' '$2 == "alpha05" && NR > 1 { t[n] = $1; f[n++] = $3 } END {
        for (k = 0; k < n; k++) if (f[k] > 0) last = k; s = 0; c = 0
        # the magnitude peaks twice a period of the relative motion: its maxima after the impact
        for (k = 1; k < n - 1; k++) if (t[k] > 3e-4 && f[k] > f[k - 1] && f[k] >= f[k + 1] && f[k] > 0) { pk[c++] = t[k] }
        if (c > 2) printf "%.6g", 2 * (pk[c - 1] - pk[0]) / (c - 1); else print 0 }' "$OUT/fig11.tsv")
want=$(awk -v m="$M" -v kb="$KB" 'BEGIN { printf "%.6g", 2 * 3.141592653589793 / sqrt(2 * kb / m) }')
verdict "Fig 11 (bond)" "$(awk -v a="$per" -v b="$want" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; print (d < 0.02) }')" \
    "after the impact the bond rings with the period $per s of the pair's relative motion, 2 pi / sqrt(2 kb/m) = $want s (required within 2%)"
