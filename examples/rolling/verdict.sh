#!/bin/sh
# verdict.sh - PASS/FAIL lines of examples/rolling from its TSV files (see Makefile).
set -e
g=9.81
a=$(awk -v m="$MUR" -v g=$g 'BEGIN { printf "%.17g", 5 * m * g / 7 }')
for m in epsd sds; do
    awk -F'\t' -v a="$a" -v v0="$V0" -v m=$m 'NR > 1 {
            if ($1 > 0.0199 && $1 < 0.0201) v1 = $3
            if ($1 > 0.1999 && $1 < 0.2001) v2 = $3
            x = $2; v = $3 }
        END { d = (v1 - v2) / 0.18; s = v0 * v0 / (2 * a)
              ok = (d - a < 1e-3 * a && a - d < 1e-3 * a && x - s < 1e-3 * s && s - x < 1e-3 * s && v < 1e-9 && v > -1e-9)
              printf "%s: plane, %s: deceleration %.6g m/s^2 (5 mu_r g / 7 = %.6g), stopped at %.6g m (v0^2 / 2a = %.6g)\n",
                     ok ? "PASS" : "FAIL", m, d, a, x, s }' "$OUT/plane-$m.tsv"
done
awk -F'\t' 'BEGIN { m = 2500 * 4 / 3 * 3.141592653589793 * 0.005^3; d = m * 9.81 / 1e5; a = sqrt(0.005 * d)
                    T = 0.4 * m * 0.005^2 * 2 / (2 / 3 * a * 0.5 * m * 9.81) }
    NR > 1 { if ($2 <= 0 && !ts) ts = t0 + (t0 - $1) * w0 / ($2 - w0) * -1 * -1 + 0; t0 = $1; w0 = $2 }
    END { ok = (ts - T < 0.01 * T && T - ts < 0.01 * T)
          printf "%s: spin, marshall: stopped at %.6g s (I w0 / ((2/3) a mu m g) = %.6g s)\n", ok ? "PASS" : "FAIL", ts, T }' "$OUT/spin.tsv"
# the groove: the paper (Vyas et al. 2025, §2): vv stops in the valley (or swings), vv-improved lets the fine sphere roll out
vv=$(tail -1 "$OUT/groove-vv.tsv" | cut -f5)
im=$(tail -1 "$OUT/groove-vv-improved.tsv" | cut -f5)
if [ "$vv" -ge 1 ] && [ "$im" -eq 0 ]; then v=PASS; else v=FAIL; fi
echo "$v: groove with rolling sds and twisting marshall: at 0.3 s vv holds $vv contacts (stopped in the valley), vv-improved $im (rolled out)"
