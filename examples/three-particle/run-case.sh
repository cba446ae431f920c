#!/bin/sh
# run-case.sh OUT INTEGRATOR RATIO MU - one run of the (size ratio, mu) sweep, classified.
#
# Runs the fine sphere (radius R/RATIO) released at TH0 degrees in the groove of the two fixed
# large spheres (radius R) with dem-step in chunks of CHUNK seconds, and after each chunk looks at
# the last frame:
#   free     the fine sphere is clear of both large spheres by more than 1% of its radius;
#   trapped  it is still in contact with a large sphere at theta > 100 degrees (or past the
#            bottom), which no free sphere can be: the contact forces can only push it outward,
#            and past 90 degrees gravity pulls it away from the large spheres;
#   timeout  neither before TMAX seconds.
# Writes one TSV row to OUT: integrator ratio mu mu_c state t_sep theta_sep omega_sep t_end
# t_sep_analytic theta_sep_analytic omega_sep_analytic (t_sep: the first frame, written every
# EVERY steps, after the last one in contact; empty unless free).
# Environment: BIN R TH0 DT CHUNK TMAX EVERY DENSITY YOUNG POISSON RESTITUTION (set by the Makefile).
set -eu
out=$1 integ=$2 ratio=$3 mu=$4
work=${out%.tsv}.work
rm -rf "$work"; mkdir -p "$work"
awk -v R="$R" -v ratio="$ratio" -v th0deg="$TH0" -f geometry.awk > "$work/init.tsv"
"$BIN/dem-pack" --from "$work/init.tsv" --density "$DENSITY" --young "$YOUNG" --poisson "$POISSON" \
    --friction "$mu" --restitution "$RESTITUTION" > "$work/last.dem"
: > "$work/traj.tsv"
while :; do
    if ! "$BIN/dem-step" -q --integrator "$integ" --normal hertz --tangential history --damping restitution \
        --gravity 0,0,-9.81 --dt "$DT" --time "$CHUNK" --every "$EVERY" "$work/last.dem" \
        > "$work/chunk.dem" 2> "$work/dem-step.log"; then
        cat "$work/dem-step.log" >&2; exit 1
    fi
    "$BIN/dem-probe" --particles --ids 1 "$work/chunk.dem" | tail -n +2 >> "$work/traj.tsv"
    mv "$work/chunk.dem" "$work/last.dem"
    state=$(tail -n 1 "$work/traj.tsv" | awk -F'\t' -v R="$R" -v ratio="$ratio" -v tmax="$TMAX" '{
        r = R / ratio; pi = atan2(0, -1); th = atan2($6, $7)
        g1 = sqrt(($5 + R)^2 + $6^2 + $7^2) - R - r; g2 = sqrt(($5 - R)^2 + $6^2 + $7^2) - R - r
        if (g1 > 0.01 * r && g2 > 0.01 * r) print "free"
        else if ((g1 <= 0 || g2 <= 0) && (th > 100 * pi / 180 || th < 0)) print "trapped"
        else if ($3 >= tmax) print "timeout"
        else print "running" }')
    [ "$state" = running ] || break
done
an=$(awk -v R="$R" -v ratio="$ratio" -v mu="$mu" -v th0deg="$TH0" -f analytic.awk)
awk -F'\t' -v R="$R" -v ratio="$ratio" -v mu="$mu" -v integ="$integ" -v state="$state" -v an="$an" '
    {   r = R / ratio
        g1 = sqrt(($5 + R)^2 + $6^2 + $7^2) - R - r; g2 = sqrt(($5 - R)^2 + $6^2 + $7^2) - R - r
        if (g1 <= 0 || g2 <= 0) { incontact = 1; tsep = thsep = wsep = "" }
        else if (incontact) { incontact = 0; tsep = $3; thsep = atan2($6, $7); wsep = $11 < 0 ? -$11 : $11 }
        tend = $3 }
    END { split(an, a, "\t")
          printf "%s\t%s\t%s\t%.6f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", integ, ratio, mu, a[9], state,
                 tsep, thsep, wsep, tend, a[4], a[3], a[5] }' "$work/traj.tsv" > "$out.tmp"
mv "$out.tmp" "$out"
[ -n "${KEEP:-}" ] || rm -rf "$work"
