#!/bin/sh
# measure.sh FRAME - the settled bed's measures, one "name<TAB>value" line each (measure.awk does the
# sums): BIN, OUT, SIDE (the box's side, m) and R (the member radius, m) come from the Makefile.
set -eu
f=$1
"$BIN"/dem-probe --particles --fields clump,r "$f" > "$OUT"/members.tsv
"$BIN"/dem-probe --contacts "$f" > "$OUT"/contacts.tsv
top=$(awk -F'\t' 'NR > 1 && $6 + $8 > t { t = $6 + $8 } END { printf "%.6g", t }' "$OUT"/members.tsv)
# the bulk: 2 member diameters in from the side walls and the floor, 3 below the bed's top
box=$(awk -v s="$SIDE" -v r="$R" -v t="$top" 'BEGIN { printf "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", 4 * r, 4 * r, 4 * r, s - 4 * r, s - 4 * r, t - 6 * r }')
phi=$("$BIN"/dem-probe --box "$box" "$f" 2>/dev/null | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "solid_fraction") c = k; next } { print $c }')
unb=$("$BIN"/dem-probe "$f" 2>/dev/null | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "unbalanced") c = k; next } { print $c }')
"$BIN"/dem-probe "$f" 2>/dev/null | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
    { printf "coordination_probe\t%s\nparticles_probe\t%s\n", $c["coordination"], $c["particles"] }'
"$BIN"/dem-energy "$f" > "$OUT"/energy.tsv
printf 'top[m]\t%s\nbulk_box\t%s\nsolid_fraction_bulk\t%s\nunbalanced\t%s\n' "$top" "$box" "$phi" "$unb"
awk -v r="$R" -f measure.awk "$OUT"/members.tsv "$OUT"/contacts.tsv "$OUT"/energy.tsv
