#!/bin/sh
# instructions.sh - instructions executed per particle-step by dem-step and by LAMMPS on the
# benchmark case (case.sh), counted by valgrind's cachegrind: the count of a run of K steps minus
# that of a run of 0 steps (reading, setup, writing), over N x K. With a timing of the same case
# (make -C tools/bench compare) it tells whether a code is slow because it executes many
# instructions or because it executes them slowly (instructions per cycle = instructions x clock
# / time).
#
# Usage: tools/bench/instructions.sh [K]     (make -C tools/bench instructions; K default 100)
# BENCH_INSTR_FROM=1: dem-step counts K + 1 steps minus 1 step instead, leaving out the spatial
# sort and rebuild that the first step of the cached states makes (their step is a multiple of
# neighbor.sort_every): the steady cost per step. BENCH_CASE=replica counts the 160k replica.
# Prints TSV: code, particles, steps, instructions_per_particle_step. A few minutes: valgrind
# runs the programs about 50 times slower. LAMMPS is skipped when lmp is not installed.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"
K=${1:-100}

command -v valgrind > /dev/null || { echo "instructions.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
bench_work instructions.sh
STATE=$(case_state "$WORK")

# irefs LOG: the instructions counted in a valgrind log (cachegrind's total, "I refs")
irefs() { awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' "$1"; }

# count OUT CMD...: the instructions CMD executes
count()
{
    out=$1
    shift
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" > "$out" 2> "$WORK/vg.log" ||
        { echo "instructions.sh: failed under valgrind: $*" >&2; tail -n 5 "$WORK/vg.log" >&2; exit 1; }
    irefs "$WORK/vg.log"
}

row()
{
    awk -v code="$1" -v n="$N" -v k="$K" -v i0="$2" -v ik="$3" 'BEGIN {
        printf "%s\t%d\t%d\t%.0f\n", code, n, k, (ik - i0) / (n * k) }'
}

F=${BENCH_INSTR_FROM:-0}
echo "# instructions per particle-step (valgrind --tool=cachegrind): $N spheres, $((F + K)) steps minus $F (dem-step), dt=$DT"
printf 'code\tparticles\tsteps\tinstructions_per_particle_step\n'
# shellcheck disable=SC2086 # DEM_STEP_OPTS is a list of options
for integ in vv vv-improved; do
    i0=$(count "$WORK/o0.dem" "$WORK/dem-step" -q -n "$F" --integrator $integ $DEM_STEP_OPTS "$STATE")
    ik=$(count "$WORK/ok.dem" "$WORK/dem-step" -q -n "$((F + K))" --integrator $integ $DEM_STEP_OPTS "$STATE")
    row "dem-step$([ $integ = vv ] || echo ":$integ")" "$i0" "$ik"
done
if command -v lmp > /dev/null; then
    for style in granular classic; do # pair granular; gran/hertz/history (lammps/in.settle-classic)
        for s in 0 "$K"; do
            BENCH_LMP_WRAP="valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file=$WORK/lmp$s.vg" \
                BENCH_STEPS=$s "$BENCH_DIR/lammps/run.sh" "$STATE" "$WORK/lammps" 1 $style > /dev/null 2> "$WORK/lmp.err" ||
                { echo "instructions.sh: LAMMPS ($style) failed under valgrind:" >&2; tail -n 5 "$WORK/lmp.err" >&2; exit 1; }
        done
        row "lammps$([ $style = granular ] || echo "-$style")" "$(irefs "$WORK/lmp0.vg")" "$(irefs "$WORK/lmp$K.vg")"
    done
else
    echo "# lmp (LAMMPS) not found: dem-step alone"
fi
