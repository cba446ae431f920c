#!/bin/sh
# sizeratio.sh - dem-step against LAMMPS' neighbor multi on the ratio-10 case of issue 18: 2 000
# spheres of 1 mm and 222 222 of 0.1 mm (10% of the solid volume) in a periodic cube at solid
# fraction 0.3, velocities of 0.1 m/s, the law of make bench (in.sizeratio), no gravity.
#
# Usage: tools/bench/lammps/sizeratio.sh WORKDIR   (called by ../sizeratio.sh when lmp exists)
# Prints TSV rows: code, threads, particles, steps, loop[s], ns_per_particle_step, and the
# ratio LAMMPS / dem-step (> 1: dem-step is faster). Runs alternate, the best of SR_REPEAT
# (default 2) each; dem-step's loop is its K-step run minus its 0-step run, LAMMPS' its
# "Loop time". Steps: SR_LMP_STEPS (default 100). The state is cached (bench cache/).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_DIR=$(cd "$HERE/.." && pwd)
. "$BENCH_DIR/case.sh"
work=$1
K=${SR_LMP_STEPS:-100}
REPEAT=${SR_REPEAT:-2}
NL=2000 NFINE=222222 SIDE=0.03143 RL=1e-3 RF=1e-4 SRDT=2e-7 SRSKIN=2e-5
N=$((NL + NFINE))
mkdir -p "$CACHE" "$work/lmp"
st=$CACHE/sizeratio-lammps-$N-$SIDE.dem
if [ ! -s "$st" ]; then
    echo "# building the ratio-10 state once (cached as $st): random sequential addition of $N spheres, a few minutes" >&2
    "$TOP/bin/dem-pack" --random "$N" --box "0,0,0,$SIDE,$SIDE,$SIDE" --periodic "0,0,0,$SIDE,$SIDE,$SIDE" \
        --bidisperse "$RL,$RF,0.9" --young 5e7 --poisson 0.25 --friction 0.5 --restitution 0.9 --velocity-random 0.1 \
        --seed 1 > "$st.tmp" && mv "$st.tmp" "$st"
fi
# the LAMMPS data file: type 1 the large spheres, 2 the fines; text copied, so bit for bit
"$TOP/bin/dem-probe" --particles --last "$st" | awk -F'\t' -v side="$SIDE" -v rho=2500 '
    NR == 1 { for (k = 1; k <= NF; k++) { n = $k; sub(/\[.*/, "", n); c[n] = k }; next }
    { m++; a[m] = sprintf("%s %d %.17g %s %s %s %s", $c["id"], ($c["r"] > 5e-4 ? 1 : 2), 2 * $c["r"], rho, $c["x"], $c["y"], $c["z"])
      v[m] = sprintf("%s %s %s %s %s %s %s", $c["id"], $c["vx"], $c["vy"], $c["vz"], $c["wx"], $c["wy"], $c["wz"]) }
    END {
        printf "dem-step sizeratio case\n\n%d atoms\n2 atom types\n\n0 %s xlo xhi\n0 %s ylo yhi\n0 %s zlo zhi\n\nAtoms # sphere\n\n", m, side, side, side
        for (k = 1; k <= m; k++) print a[k]
        printf "\nVelocities\n\n"
        for (k = 1; k <= m; k++) print v[k] }' > "$work/lmp/data.sizeratio"
etsuji=$(awk -v e=0.9 'function a(c) {
        return 1.2728 - 4.2783*c + 11.087*c^2 - 22.348*c^3 + 27.467*c^4 - 18.022*c^5 + 4.8218*c^6 }
    BEGIN { pi = atan2(0, -1); le = log(e); target = sqrt(5) * (-le / sqrt(pi * pi + le * le)); lo = 0.2; hi = 1.0
        for (k = 0; k < 200; k++) { mid = (lo + hi) / 2; if (a(mid) > target) lo = mid; else hi = mid }
        printf "%.17g\n", lo }')
lmp_loop()
{
    (cd "$work/lmp" && lmp -nocite -in "$HERE/in.sizeratio" -log log.sizeratio -screen none -var data data.sizeratio \
        -var steps "$1" -var dt "$SRDT" -var skin "$SRSKIN" -var style "$2" -var E 5e7 -var nu 0.25 -var mu 0.5 \
        -var etsuji "$etsuji" > /dev/null) || { echo "lammps/sizeratio.sh: lmp failed, see $work/lmp/log.sizeratio" >&2; exit 1; }
    awk '/^Loop time of/ { print $4 }' "$work/lmp/log.sizeratio" | tail -n 1
}
dem_loop()
{
    t0=$(now)
    "$TOP/bin/dem-step" -q -n 0 --dt "$SRDT" --skin "$SRSKIN" --threads "$1" "$st" > /dev/null
    t1=$(now)
    "$TOP/bin/dem-step" -q -n "$K" --dt "$SRDT" --skin "$SRSKIN" --threads "$1" "$st" > "$work/lmp/dem.dem"
    t2=$(now)
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (c - b) - (b - a) }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print ((b == "" || a < b) ? a : b) }'; }
bd='' bl=''
k=0
while [ "$k" -lt "$REPEAT" ]; do
    bd=$(min "$(dem_loop 1)" "$bd")
    bl=$(min "$(lmp_loop "$K" multi)" "$bl")
    k=$((k + 1))
done
echo
echo "# ratio 10: $NL x 1 mm + $NFINE x 0.1 mm, periodic, $K steps of $SRDT s, skin $SRSKIN m; $(lmp -h 2> /dev/null | grep -m1 'Large-scale' | sed 's/^Large-scale Atomic.*Simulator - /LAMMPS /') neighbor multi, 1 process; dem-step 1 thread (auto: multi)"
printf 'code\tthreads\tparticles\tsteps\tloop[s]\tns_per_particle_step\n'
printf 'dem-step\t1\t%d\t%d\t%s\t%.1f\n' "$N" "$K" "$bd" "$(awk -v l="$bd" -v n="$N" -v k="$K" 'BEGIN { print l / (n * k) * 1e9 }')"
printf 'lammps-multi\t1\t%d\t%d\t%s\t%.1f\n' "$N" "$K" "$bl" "$(awk -v l="$bl" -v n="$N" -v k="$K" 'BEGIN { print l / (n * k) * 1e9 }')"
printf 'LAMMPS / dem-step\t%.2f\n' "$(awk -v a="$bl" -v b="$bd" 'BEGIN { print a / b }')"
