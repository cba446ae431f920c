#!/bin/sh
# probes.sh BIN OUT "TANGENTIALS" "STEPS_LIST" N DELTA DELTA_E DT - the strain probes of
# examples/stress-probes as TSV, one row per run. From out/start-<law>.dem, for each number of
# steps S: a null run (the cell still for S steps: the reference, so that the loaded packing's
# own creep cancels), two tiny probes of DELTA_E along v and along q (kind "elastic": the
# elastic stiffness) and N probes of DELTA at theta_k = 2 pi k / N (kind "probe").
# Convention, strains and stresses COMPRESSION POSITIVE, on the orthonormal Rendulic basis:
#   e_v = DELTA cos(theta), e_q = DELTA sin(theta),
#   de_zz = e_v/sqrt(3) + e_q sqrt(2/3),  de_xx = de_yy = e_v/sqrt(3) - e_q/sqrt(6),
#   applied as constant rates L_ii = -de_ii / (S dt) (dem-step's L is extension positive);
#   ds_v = (ds_xx + ds_yy + ds_zz)/sqrt(3),  ds_q = (2 ds_zz - ds_xx - ds_yy)/sqrt(6),
#   ds = dem-stress (compression positive) after the probe less after the null run.
# Columns: law steps kind k theta e_v e_q ds_v[Pa] ds_q[Pa] sliding_null sliding changed:
# the contacts at the Coulomb limit after the null run and after the probe, and the contacts
# (present in both) whose sliding flag differs.
set -eu
BIN=$1 OUT=$2 LAWS=$3 STEPS_LIST=$4 N=$5 DELTA=$6 DELTA_E=$7 DT=$8
TMP=$OUT/tmp
mkdir -p "$TMP"
printf 'law\tsteps\tkind\tk\ttheta\te_v\te_q\tds_v[Pa]\tds_q[Pa]\tsliding_null\tsliding\tchanged\n'
stress() { # FILE -> "sxx syy szz" of its last frame
    "$BIN/dem-stress" "$1" | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { s = $c["sxx[Pa]"] " " $c["syy[Pa]"] " " $c["szz[Pa]"] } END { print s }'
}
contacts() { # FILE -> "i j sx sy sz sliding" per particle contact of its last frame
    "$BIN/dem-probe" --contacts "$1" | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        $c["wall"] == 0 { print $c["i"], $c["j"], $c["sx"], $c["sy"], $c["sz"], $c["sliding"] }'
}
# one run: law S kind k theta e_v e_q
run() {
    rates=$(awk -v ev="$6" -v eq="$7" -v S="$2" -v dt="$DT" 'BEGIN {
        zz = ev / sqrt(3) + eq * sqrt(2 / 3); xx = ev / sqrt(3) - eq / sqrt(6)
        printf "xx=%.17g,yy=%.17g,zz=%.17g", -xx / (S * dt), -xx / (S * dt), -zz / (S * dt) }')
    "$BIN/dem-step" -q -n "$2" --local-damping 0 --cell-still --cell-rate "$rates" \
        "$OUT/start-$1.dem" > "$TMP/probe-$1.dem"
    s=$(stress "$TMP/probe-$1.dem")
    contacts "$TMP/probe-$1.dem" > "$TMP/contacts-$1.txt"
    awk -v law="$1" -v S="$2" -v kind="$3" -v k="$4" -v th="$5" -v ev="$6" -v eq="$7" \
        -v s="$s" -v s0="$S0" -v nslide0="$NSLIDE0" '
        NR == FNR { flag[$1 " " $2 " " $3 " " $4 " " $5] = $6; next }
        { n += $6; key = $1 " " $2 " " $3 " " $4 " " $5; if ((key in flag) && flag[key] != $6) changed++ }
        END {
            split(s, a, " "); split(s0, b, " ")
            dx = a[1] - b[1]; dy = a[2] - b[2]; dz = a[3] - b[3]
            printf "%s\t%s\t%s\t%s\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t%d\t%d\t%d\n", law, S, kind, k, th, ev, eq,
                (dx + dy + dz) / sqrt(3), (2 * dz - dx - dy) / sqrt(6), nslide0, n, changed + 0
        }' "$TMP/contacts0-$1.txt" "$TMP/contacts-$1.txt"
}
for law in $LAWS; do
    for S in $STEPS_LIST; do
        "$BIN/dem-step" -q -n "$S" --local-damping 0 --cell-still "$OUT/start-$law.dem" > "$TMP/null-$law.dem"
        S0=$(stress "$TMP/null-$law.dem")
        contacts "$TMP/null-$law.dem" > "$TMP/contacts0-$law.txt"
        NSLIDE0=$(awk '{ n += $6 } END { print n + 0 }' "$TMP/contacts0-$law.txt")
        run "$law" "$S" elastic 0 0 "$DELTA_E" 0
        run "$law" "$S" elastic 1 1.5707963267948966 0 "$DELTA_E"
        k=0
        while [ "$k" -lt "$N" ]; do
            set -- $(awk -v k="$k" -v N="$N" -v d="$DELTA" 'BEGIN { t = 2 * 3.14159265358979324 * k / N
                printf "%.17g %.17g %.17g", t, d * cos(t), d * sin(t) }')
            run "$law" "$S" probe "$k" "$1" "$2" "$3"
            k=$((k + 1))
        done
    done
done
rm -rf "$TMP"
