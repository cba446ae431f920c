#!/bin/sh
# step.sh - time dem-step on a case of case.sh (BENCH_CASE: settled, the default, pour or replica),
# with 1 and 2 threads.
#
# Usage: tools/bench/step.sh [--profile]     (make -C tools/bench step | profile)
#
# Builds the settled state once (cached, see case.sh), then runs
#   dem-step -n 0      reading, neighbour list, first forces, writing: the fixed cost
#   dem-step -n STEPS  with --threads 1 and 2, and once with the default vv-improved integrator
#   mpirun -np 2 dem-step-mpi -n STEPS   where bin/dem-step-mpi exists and the machine has 2 cores
#                      (2 ranks of 1 thread each, its own -n 0 as its fixed cost; output cmp with
#                      1 thread's)
# and prints TSV: code, threads, particles, steps, wall[s] (the whole process), loop[s] (wall
# minus the -n 0 run: the time stepping alone, comparable with LAMMPS' "Loop time"),
# ns/particle-step = loop / (particles x steps). Each time is the best of BENCH_REPEAT runs
# (default 1). It then checks that 1 and 2 threads wrote the same bytes (cmp).
# The programs are copied before the first run, so every run times the same build.
# --profile: perf record -g of the 1-thread run instead, and the 15 functions with the most
# self time (perf report --no-children).
# BENCH_KEEP=DIR keeps the outputs there (compare.sh uses them for its physics check).
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"

profile=0
[ "${1:-}" = --profile ] && profile=1

bench_work step.sh
KEEP=${BENCH_KEEP:-}
REPEAT=${BENCH_REPEAT:-1}

STATE=$(case_state "$WORK")
cp "$STATE" "$WORK/state.dem" # a local copy: the cache may sit on a slower disk

# best_of CMD...: run CMD REPEAT times, print the best wall time.
best_of()
{
    best=
    k=0
    while [ "$k" -lt "$REPEAT" ]; do
        t0=$(now)
        "$@"
        t=$(elapsed "$t0" "$(now)")
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print ((b == "" || a < b) ? a : b) }')
        k=$((k + 1))
    done
    echo "$best"
}

# step_to OUT ARGS...: dem-step ARGS on the state, into OUT; mpi_step_to: dem-step-mpi on 2 ranks.
step_to()
{
    out=$1
    shift
    "$WORK/dem-step" -q "$@" "$WORK/state.dem" > "$out"
}
mpi_step_to()
{
    out=$1
    shift
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 "$WORK/dem-step-mpi" -q "$@" -o "$out" "$WORK/state.dem"
}

# run_best OUT ARGS... (run_best_mpi): the best wall time of dem-step (on 2 ranks) REPEAT times.
run_best() { best_of step_to "$@"; }
run_best_mpi() { best_of mpi_step_to "$@"; }
mpi=0
[ -x "$TOP/bin/dem-step-mpi" ] && command -v mpirun > /dev/null && [ "$(nproc)" -ge 2 ] && mpi=1
[ "$mpi" = 1 ] && cp "$TOP/bin/dem-step-mpi" "$WORK/"

if [ "$profile" = 1 ]; then
    command -v perf > /dev/null || { echo "step.sh: perf not found" >&2; exit 1; }
    echo "# perf record -g: dem-step -n $STEPS --threads 1 on $N spheres (top 15 by self time)"
    # shellcheck disable=SC2086 # DEM_STEP_OPTS is a list of options
    perf record -q -g -o "$WORK/perf.data" "$WORK/dem-step" -q -n "$STEPS" --integrator vv $DEM_STEP_OPTS --threads 1 \
        "$WORK/state.dem" > "$WORK/out.dem"
    perf report -i "$WORK/perf.data" --no-children --stdio --sort symbol -g none 2> /dev/null |
        awk '/^ +[0-9.]+%/ { printf "%s\t%s\n", $1, $3 }' | head -n 15
    exit 0
fi

# shellcheck disable=SC2086 # DEM_STEP_OPTS is a list of options
set -- $DEM_STEP_OPTS
t_setup=$(run_best "$WORK/out0.dem" -n 0 --integrator vv "$@")
t1=$(run_best "$WORK/out1.dem" -n "$STEPS" --integrator vv "$@" --threads 1)
t2=$(run_best "$WORK/out2.dem" -n "$STEPS" --integrator vv "$@" --threads 2)
# the default integrator (not in LAMMPS): what a dem-step user runs
ti=$(run_best "$WORK/outi.dem" -n "$STEPS" --integrator vv-improved "$@" --threads 1)
if [ "$mpi" = 1 ]; then # on MPI ranks (issue 31): its own fixed cost, since mpirun's start is in it
    tm_setup=$(run_best_mpi "$WORK/outm0.dem" -n 0 --integrator vv "$@")
    tm=$(run_best_mpi "$WORK/outm.dem" -n "$STEPS" --integrator vv "$@" --threads 1)
fi

row()
{
    awk -v code="$1" -v th="$2" -v n="$N" -v steps="$STEPS" -v wall="$3" -v setup="${4:-$t_setup}" 'BEGIN {
        loop = wall - setup
        printf "%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.1f\n", code, th, n, steps, wall, loop, loop / (n * steps) * 1e9 }'
}
contacts=$("$WORK/dem-probe" "$WORK/out0.dem" 2> /dev/null | awk -F'\t' 'NR == 2 { print $5 "\t" $6 }')
contacts_end=$("$WORK/dem-probe" "$WORK/out1.dem" 2> /dev/null | awk -F'\t' 'NR == 2 { print $5 "\t" $6 }')
echo "# dem-step, case $CASE: $N spheres r=$R in a ${X1}x${Y1}x${Z1} m box, E=$E, dt=$DT;" \
     "contacts/wall contacts $(echo "$contacts" | tr '\t' /) at the start (setup evaluation), $(echo "$contacts_end" | tr '\t' /) at the end"
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg) (timings are only meaningful on an idle machine); fixed cost (dem-step -n 0) $t_setup s"
printf 'code\tthreads\tparticles\tsteps\twall[s]\tloop[s]\tns_per_particle_step\n'
row dem-step 1 "$t1"
row dem-step 2 "$t2"
row dem-step:vv-improved 1 "$ti"
[ "$mpi" = 1 ] && row dem-step-mpi:mpi 2 "$tm" "$tm_setup"
if cmp -s "$WORK/out1.dem" "$WORK/out2.dem"; then
    echo "# threads 1 vs 2: bit-identical output (cmp)"
    same=0
else
    echo "# threads 1 vs 2: OUTPUTS DIFFER (cmp: $(cmp "$WORK/out1.dem" "$WORK/out2.dem" 2>&1 | head -n 1))"
    same=1
fi
if [ "$mpi" = 1 ]; then
    if cmp -s "$WORK/out1.dem" "$WORK/outm.dem"; then
        echo "# 1 thread vs dem-step-mpi on 2 ranks: bit-identical output (cmp)"
    else
        echo "# 1 thread vs dem-step-mpi on 2 ranks: OUTPUTS DIFFER (cmp: $(cmp "$WORK/out1.dem" "$WORK/outm.dem" 2>&1 | head -n 1))"
        same=1
    fi
fi
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP"
    cp "$WORK/out1.dem" "$KEEP/dem-step.dem"
    cp "$WORK/state.dem" "$KEEP/state.dem"
    printf '%s\t%s\t%s\t%s\n' "$t_setup" "$t1" "$t2" "$ti" > "$KEEP/dem-step.times"
fi
exit "$same"
