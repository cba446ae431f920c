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
# one step first: dem-step sorts the particles in space at step 0 (and every 1000 steps), which
# LAMMPS does in its setup; the timed runs start from step 1 (neither code then sorts in them)
if [ ! -s "$st.step1" ]; then
    "$TOP/bin/dem-step" -q -n 1 --dt "$SRDT" --skin "$SRSKIN" "$st" > "$st.step1.tmp" && mv "$st.step1.tmp" "$st.step1"
fi
st=$st.step1
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
# lmp_loop STEPS STYLE: "loop_wall loop_cpu" (the log's Loop time and its CPU use %)
lmp_loop()
{
    (cd "$work/lmp" && lmp -nocite -in "$HERE/in.sizeratio" -log log.sizeratio -screen none -var data data.sizeratio \
        -var steps "$1" -var dt "$SRDT" -var skin "$SRSKIN" -var style "$2" -var E 5e7 -var nu 0.25 -var mu 0.5 \
        -var etsuji "$etsuji" > /dev/null) || { echo "lammps/sizeratio.sh: lmp failed, see $work/lmp/log.sizeratio" >&2; exit 1; }
    awk '/^Loop time of/ { l = $4 } /% CPU use/ { c = $1 + 0 } END { printf "%s %.3f\n", l, l * c / 100 }' "$work/lmp/log.sizeratio"
}
# dem_loop THREADS: "loop_wall loop_cpu": the K-step run less the 0-step run (reading, setup, writing)
dem_loop()
{
    /usr/bin/time -f "%e %U %S" -o "$work/lmp/t0" "$TOP/bin/dem-step" -q -n 0 --dt "$SRDT" --skin "$SRSKIN" --threads "$1" "$st" > /dev/null
    /usr/bin/time -f "%e %U %S" -o "$work/lmp/tk" "$TOP/bin/dem-step" -q -n "$K" --dt "$SRDT" --skin "$SRSKIN" --threads "$1" "$st" > "$work/lmp/dem.dem"
    awk 'NR == FNR { w0 = $1; c0 = $2 + $3; next } { printf "%.3f %.3f\n", $1 - w0, $2 + $3 - c0 }' "$work/lmp/t0" "$work/lmp/tk"
}
minpair() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); if (b == "" ) { print a; exit }
    printf "%s %s\n", (x[1] < y[1] ? x[1] : y[1]), (x[2] < y[2] ? x[2] : y[2]) }'; }
bd='' bl=''
k=0
while [ "$k" -lt "$REPEAT" ]; do
    bd=$(minpair "$(dem_loop 1)" "$bd")
    bl=$(minpair "$(lmp_loop "$K" multi)" "$bl")
    k=$((k + 1))
done
echo
echo "# ratio 10: $NL x 1 mm + $NFINE x 0.1 mm, periodic, $K steps of $SRDT s, skin $SRSKIN m; $(lmp -h 2> /dev/null | grep -m1 'Large-scale' | sed 's/^Large-scale Atomic.*Simulator - /LAMMPS /') neighbor multi, 1 process; dem-step 1 thread (auto: multi); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# loop: wall time of the steps; cpu: the CPU time the process used in them (less sensitive to a shared machine)"
printf 'code\tthreads\tparticles\tsteps\tloop[s]\tcpu[s]\tns_per_particle_step\tcpu_ns_per_particle_step\n'
row() { echo "$3" | awk -v c="$1" -v t="$2" -v n="$N" -v k="$K" '{ printf "%s\t%s\t%d\t%d\t%s\t%s\t%.1f\t%.1f\n", c, t, n, k, $1, $2, $1 / (n * k) * 1e9, $2 / (n * k) * 1e9 }'; }
row dem-step 1 "$bd"
row lammps-multi 1 "$bl"
awk -v a="$bl" -v b="$bd" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "LAMMPS / dem-step\t%.2f (wall)\t%.2f (cpu)\n", x[1] / y[1], x[2] / y[2] }'
