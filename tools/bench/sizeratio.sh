#!/bin/sh
# sizeratio.sh - the neighbour search at large size ratios (issue 18): dem-step's two backends on
# bidisperse systems, and LAMMPS' `neighbor multi` on the ratio-10 case where lmp is installed.
#
# Usage: tools/bench/sizeratio.sh [--instructions]   (make -C tools/bench sizeratio; make bench)
#
# Cases: bidisperse gases in a periodic cube at solid fraction 0.3, fines of radius RF = 0.1 mm
# and large spheres of R x RF, equal solid volume in each size: NL large spheres and NL R^3 fines
# with NL = max(1, round(NF / R^3)) (NF = SR_NF, default 50 000): R = 1: 100 000 equal spheres,
# 5: 400 + 50 000, 10: 50 + 50 000, 20: 6 + 48 000, 50: 1 + 125 000. Velocities: normal
# deviates of 0.1 m/s; Hertz-Mindlin contacts with friction and restitution damping (the bench
# material, E = 5e7 Pa), no gravity, dt = 2e-7 s (tc/75 of a fine pair), default skin (0.2 RF):
# a few list rebuilds in SR_STEPS (default 200) steps. This is the neighbour search's workload
# (rebuilds, the per-step displacement check, a few contacts): the contact-rich settled bed is
# make bench's step case.
#
# Rows (TSV): case, backend, threads, particles, steps, loop[s] (wall minus the -n 0 run), cpu[s]
# (user + system, likewise), both per particle-step, and the CPU time's ratio to the monodisperse
# case (bin at R = 1, same threads). Runs of
# the two backends alternate (interleaved) and each time is the best of SR_REPEAT (default 2):
# the machine may be shared. bin is run up to R = SR_BIN_MAX (default 10) only (at R = 20 each fine would test every
# fine of 27 cells sized for the large spheres: hours). Both backends' outputs are compared
# (cmp of the decoded state): they must be the same bits.
#
# LAMMPS: the ratio-10 case of issue 18, 2 000 spheres of 1 mm and 222 222 fines of 0.1 mm (10%
# of the solid volume in fines), in LAMMPS 29Sep2021 with `neighbor SKIN multi` (one collection
# per type: Shire, Hanley and Stratford 2021) and in dem-step (auto: multi), 1 process / thread,
# the same law as make bench's (lammps/in.sizeratio).
# SR_THREADS: the thread counts (default "1 2"); SR_RATIOS, SR_NF, SR_STEPS, SR_REPEAT as above.
#
# --instructions: instructions per particle-step instead of times (valgrind --tool=cachegrind,
# K steps minus 0 steps): on a shared machine instruction counts do not depend on the load.
# Cases smaller (SR_NF/5 fines) and SR_K = 20 steps: a few minutes.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_DIR/../.." && pwd)
. "$BENCH_DIR/case.sh"

mode=time
[ "${1:-}" = --instructions ] && mode=instructions
NF=${SR_NF:-50000}
SR_STEPS=${SR_STEPS:-200}
REPEAT=${SR_REPEAT:-2}
RATIOS=${SR_RATIOS:-1 5 10 20 50}
BIN_MAX=${SR_BIN_MAX:-10}
RF=1e-4
SR_DT=2e-7
if [ "$mode" = instructions ]; then
    NF=$((NF / 5))
    SR_STEPS=${SR_K:-20}
fi
for p in dem-pack dem-step dem-probe dem-energy; do
    [ -x "$TOP/bin/$p" ] || { echo "sizeratio.sh: $TOP/bin/$p missing: run make first" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/dem-bench-sizeratio.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
cp "$TOP/bin/dem-pack" "$TOP/bin/dem-step" "$TOP/bin/dem-probe" "$TOP/bin/dem-energy" "$WORK/"
mkdir -p "$CACHE"
OPTS="--normal hertz --tangential history --damping restitution --dt $SR_DT"

# make_case R: the cached state of ratio R (its path on stdout)
make_case()
{
    r=$1
    nl=$(awk -v nf="$NF" -v r="$r" 'BEGIN { n = int(nf / (r * r * r) + 0.5); print n < 1 ? 1 : n }')
    nfr=$(awk -v nl="$nl" -v r="$r" 'BEGIN { printf "%d", nl * r * r * r }')
    n=$((nl + nfr))
    side=$(awk -v nl="$nl" -v nf="$nfr" -v r="$r" -v rf="$RF" 'BEGIN {
        pi = atan2(0, -1); v = 4 / 3 * pi * (nl * (r * rf) ^ 3 + nf * rf ^ 3); printf "%.6g", (v / 0.3) ^ (1 / 3) }')
    f=$CACHE/sizeratio-$r-$n-$side.dem
    if [ ! -s "$f" ]; then
        if [ "$r" = 1 ]; then size="--radius $RF"; else size="--bidisperse $(awk -v r="$r" -v rf="$RF" 'BEGIN { printf "%.6g", r * rf }'),$RF,0.5"; fi
        # shellcheck disable=SC2086 # size is a list of options
        "$WORK/dem-pack" --random "$n" --box "0,0,0,$side,$side,$side" --periodic "0,0,0,$side,$side,$side" $size \
            --young 5e7 --poisson 0.25 --friction 0.5 --restitution 0.9 --velocity-random 0.1 --seed 1 > "$f.tmp" &&
            mv "$f.tmp" "$f" || { rm -f "$f.tmp"; echo "sizeratio.sh: dem-pack failed for ratio $r" >&2; exit 1; }
    fi
    echo "$f"
}

# best_loop STATE BACKEND THREADS OUT: "wall cpu" of the K-step run less the 0-step run, s (the
# best of REPEAT each; cpu: user + system time, which a shared machine disturbs less)
best_loop()
{
    best=
    k=0
    while [ "$k" -lt "$REPEAT" ]; do
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %U %S" -o "$WORK/t0" "$WORK/dem-step" -q -n 0 $OPTS --neighbor "$2" --threads "$3" "$1" > /dev/null
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %U %S" -o "$WORK/tk" "$WORK/dem-step" -q -n "$SR_STEPS" $OPTS --neighbor "$2" --threads "$3" "$1" > "$4"
        t=$(awk 'NR == FNR { w = $1; c = $2 + $3; next } { printf "%.3f %.3f", $1 - w, $2 + $3 - c }' "$WORK/t0" "$WORK/tk")
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { split(a, x, " "); if (b == "") { print a; exit }; split(b, y, " ")
            printf "%s %s\n", (x[1] < y[1] ? x[1] : y[1]), (x[2] < y[2] ? x[2] : y[2]) }')
        k=$((k + 1))
    done
    echo "$best"
}

irefs() { awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' "$1"; }
# instr STATE BACKEND: instructions of the K-step run minus the 0-step run
instr()
{
    for s in 0 "$SR_STEPS"; do
        # shellcheck disable=SC2086
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file="$WORK/vg$s.log" \
            "$WORK/dem-step" -q -n "$s" $OPTS --neighbor "$2" "$1" > /dev/null
    done
    awk -v a="$(irefs "$WORK/vg0.log")" -v b="$(irefs "$WORK/vg$SR_STEPS.log")" 'BEGIN { printf "%.0f", b - a }'
}

state_of() { "$WORK/dem-probe" --particles --fields all --last "$1"; "$WORK/dem-probe" --contacts --last "$1"; "$WORK/dem-energy" --last "$1"; }

echo "# bidisperse gases, equal solid volume per size, solid fraction 0.3, periodic; $SR_STEPS steps of $SR_DT s ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "$mode" = instructions ]; then
    echo "# instructions per particle-step: valgrind --tool=cachegrind, $SR_STEPS steps minus 0 steps, 1 thread"
    printf 'case\tbackend\tparticles\tsteps\tinstructions_per_particle_step\tratio_to_R1\n'
else
    printf 'case\tbackend\tthreads\tparticles\tsteps\tloop[s]\tcpu[s]\tns_per_particle_step\tcpu_ns_per_particle_step\tcpu_ratio_to_R1\n'
fi
ref1= ref2=
bad=0
for r in $RATIOS; do
    st=$(make_case "$r")
    n=$("$WORK/dem-probe" "$st" 2> /dev/null | awk -F'\t' 'NR == 2 { print $4 }')
    backends=multi
    [ "$r" -le "$BIN_MAX" ] && backends="bin multi"
    for b in $backends; do
        if [ "$mode" = instructions ]; then
            i=$(instr "$st" "$b")
            v=$(awk -v i="$i" -v n="$n" -v k="$SR_STEPS" 'BEGIN { printf "%.0f", i / (n * k) }')
            [ -n "$ref1" ] || ref1=$v
            printf 'R=%s\t%s\t%s\t%s\t%s\t%.2f\n' "$r" "$b" "$n" "$SR_STEPS" "$v" "$(awk -v a="$v" -v b="$ref1" 'BEGIN { print a / b }')"
        else
            for t in ${SR_THREADS:-1 2}; do
                l=$(best_loop "$st" "$b" "$t" "$WORK/$b-$t.dem")
                v=$(echo "$l" | awk -v n="$n" -v k="$SR_STEPS" '{ printf "%.1f %.1f", $1 / (n * k) * 1e9, $2 / (n * k) * 1e9 }')
                c=${v#* }
                eval "[ -n \"\$ref$t\" ] || ref$t=$c"
                printf 'R=%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\n' "$r" "$b" "$t" "$n" "$SR_STEPS" "${l% *}" "${l#* }" "${v% *}" "$c" \
                    "$(eval "awk -v a=$c -v b=\$ref$t 'BEGIN { print a / b }'")"
            done
        fi
    done
    if [ "$mode" = time ]; then
        state_of "$WORK/multi-1.dem" > "$WORK/m1.txt"
        for o in multi-2 bin-1 bin-2; do
            [ -s "$WORK/$o.dem" ] || continue
            state_of "$WORK/$o.dem" > "$WORK/o.txt"
            cmp -s "$WORK/m1.txt" "$WORK/o.txt" || { echo "# R=$r: $o differs from multi-1" ; bad=1; }
        done
        rm -f "$WORK"/bin-*.dem "$WORK"/multi-*.dem
    fi
done
[ "$mode" = time ] && [ "$bad" = 0 ] && echo "# every run of a case wrote the same state (bin, multi; 1 and 2 threads)"

if [ "$mode" = time ] && command -v lmp > /dev/null && [ "${SR_LAMMPS:-1}" = 1 ]; then
    "$BENCH_DIR/lammps/sizeratio.sh" "$WORK"
fi
exit "$bad"
