#!/bin/sh
# compare.sh - dem-step against LAMMPS on the same cases, on this machine, in one run.
#
# Usage: tools/bench/compare.sh        (make -C tools/bench compare; make bench runs it when
#                                       lmp is installed)
#
# For each case of case.sh (BENCH_CASES, default "pour settled replica": the collapsing column, the
# settled bed made from it and its 4x2 replica), BENCH_REPEAT rounds (default 3), each round running in turn:
# 1. step.sh: dem-step timed with 1 and 2 threads (vv) and with the default vv-improved, and a
#    cmp of the 1- and 2-thread outputs;
# 2. lammps/run.sh: the same state, parameters and number of steps in LAMMPS on 1 MPI process,
#    and on 2 (mpirun) when mpirun exists, in both of its granular styles: pair granular (the
#    same law as dem-step's term by term) and the classic gran/hertz/history (its fastest style:
#    the same springs, a dashpot matched at one overlap; lammps/in.settle-classic). This LAMMPS
#    has no OPENMP package, so no -sf omp.
# The rounds interleave the two codes, so that a change of the machine's speed during the run
# falls on both; each figure is the best of its rounds.
# 3. The speed table: ns per particle-step, LAMMPS (either style) / dem-step at 1 thread (> 1:
#    dem-step is faster), dem-step 2 threads vs 1, per case.
# 4. A physics check: the same aggregates (aggregate.awk) of both final states. Both start from
#    the same positions, velocities and angular velocities, without contact history; the two
#    codes differ in details (see lammps/in.settle), so the numbers agree closely, not exactly.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"

if ! command -v lmp > /dev/null; then
    echo "# compare.sh: lmp (LAMMPS) not found: skipping the comparison (apt-get install lammps)"
    exit 0
fi

OUT=$(mktemp -d /tmp/dem-bench-compare.XXXXXX)
trap 'rm -rf "$OUT"' EXIT INT TERM
ROUNDS=${BENCH_REPEAT:-3}
mpi=0
command -v mpirun > /dev/null && [ "$(nproc)" -ge 2 ] && mpi=1

same=0
for case in ${BENCH_CASES:-pour settled replica}; do
    export BENCH_CASE=$case
    rows=$OUT/$case.rows
    : > "$rows"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        BENCH_REPEAT=1 BENCH_KEEP=$OUT/$case "$BENCH_DIR/step.sh" > "$OUT/step.tsv" || same=1
        [ -s "$OUT/$case/dem-step.dem" ] || { cat "$OUT/step.tsv"; echo "compare.sh: step.sh failed" >&2; exit 1; }
        [ "$r" -gt 0 ] || grep '^#' "$OUT/step.tsv"
        grep -v '^#' "$OUT/step.tsv" | tail -n +2 >> "$rows"
        for style in granular classic; do
            BENCH_REPEAT=1 "$BENCH_DIR/lammps/run.sh" "$OUT/$case/state.dem" "$OUT/$case/lammps" 1 $style >> "$rows"
            if [ "$mpi" = 1 ]; then
                BENCH_REPEAT=1 "$BENCH_DIR/lammps/run.sh" "$OUT/$case/state.dem" "$OUT/$case/lammps" 2 $style >> "$rows" || mpi=0
            fi
        done
        r=$((r + 1))
    done
    echo "# $(lmp -h 2> /dev/null | grep -m1 'Large-scale' | sed 's/^Large-scale Atomic.*Simulator - /LAMMPS /'), pair granular and gran/hertz/history (classic), 1 MPI process$([ "$mpi" = 1 ] && echo " and 2"), no OpenMP styles"
    echo "# case $case: every round (interleaved), then the best of $ROUNDS"
    printf 'code\tthreads\tparticles\tsteps\twall[s]\tloop[s]\tns_per_particle_step\n'
    cat "$rows"
    echo
    echo "# speed, case $case (ns per particle-step of the time stepping, best of $ROUNDS rounds; ratio > 1: dem-step is faster)"
    awk -F'\t' -v c="$case" '{ k = $1 "/" $2; if (!(k in ns) || $7 < ns[k]) ns[k] = $7 }
    END {
        printf "case\tcomparison\tvalue\n"
        printf "%s\tdem-step vv, 1 thread [ns]\t%s\n", c, ns["dem-step/1"]
        printf "%s\tdem-step vv-improved, 1 thread [ns]\t%s\n", c, ns["dem-step:vv-improved/1"]
        printf "%s\tdem-step vv, 2 threads [ns]\t%s\n", c, ns["dem-step/2"]
        if (("dem-step-mpi:mpi/2") in ns) printf "%s\tdem-step-mpi vv, 2 MPI processes [ns]\t%s\n", c, ns["dem-step-mpi:mpi/2"]
        printf "%s\tLAMMPS pair granular, 1 process [ns]\t%s\n", c, ns["lammps/1"]
        printf "%s\tLAMMPS gran/hertz/history, 1 process [ns]\t%s\n", c, ns["lammps-classic/1"]
        if (("lammps:mpi/2") in ns) printf "%s\tLAMMPS pair granular, 2 MPI processes [ns]\t%s\n", c, ns["lammps:mpi/2"]
        if (("lammps-classic:mpi/2") in ns) printf "%s\tLAMMPS gran/hertz/history, 2 MPI processes [ns]\t%s\n", c, ns["lammps-classic:mpi/2"]
        printf "%s\tLAMMPS pair granular / dem-step vv, 1 thread\t%.2f\n", c, ns["lammps/1"] / ns["dem-step/1"]
        printf "%s\tLAMMPS pair granular / dem-step vv-improved (the default), 1 thread\t%.2f\n", c, ns["lammps/1"] / ns["dem-step:vv-improved/1"]
        printf "%s\tLAMMPS gran/hertz/history / dem-step vv, 1 thread\t%.2f\n", c, ns["lammps-classic/1"] / ns["dem-step/1"]
        printf "%s\tLAMMPS gran/hertz/history / dem-step vv-improved (the default), 1 thread\t%.2f\n", c, ns["lammps-classic/1"] / ns["dem-step:vv-improved/1"]
        printf "%s\tdem-step speed-up, 2 threads vs 1\t%.2f\n", c, ns["dem-step/1"] / ns["dem-step/2"]
        if (("lammps:mpi/2") in ns) {
            printf "%s\tLAMMPS speed-up, 2 MPI processes vs 1\t%.2f\n", c, ns["lammps/1"] / ns["lammps:mpi/2"]
            printf "%s\tLAMMPS pair granular 2 processes / dem-step 2 threads\t%.2f\n", c, ns["lammps:mpi/2"] / ns["dem-step/2"]
            if (("lammps-classic:mpi/2") in ns) printf "%s\tLAMMPS gran/hertz/history 2 processes / dem-step 2 threads\t%.2f\n", c, ns["lammps-classic:mpi/2"] / ns["dem-step/2"]
        }
        if (("dem-step-mpi:mpi/2") in ns) {
            printf "%s\tdem-step-mpi speed-up, 2 MPI processes vs 1 thread\t%.2f\n", c, ns["dem-step/1"] / ns["dem-step-mpi:mpi/2"]
            if (("lammps-classic:mpi/2") in ns) printf "%s\tLAMMPS gran/hertz/history 2 processes / dem-step-mpi 2 processes\t%.2f\n", c, ns["lammps-classic:mpi/2"] / ns["dem-step-mpi:mpi/2"]
            if (("lammps:mpi/2") in ns) printf "%s\tLAMMPS pair granular 2 processes / dem-step-mpi 2 processes\t%.2f\n", c, ns["lammps:mpi/2"] / ns["dem-step-mpi:mpi/2"]
        }
    }' "$rows"

    echo
    steps=$(awk -F'\t' 'NR == 1 { print $4 }' "$rows") # the case's own (case.sh: the replica runs fewer)
    echo "# physics check, case $case, after $steps steps (same aggregates of both final states; start: the state itself)"
    agg() { awk -f "$BENCH_DIR/aggregate.awk" -v rho="$RHO" -v box="$BOX" "$@"; }
    "$TOP/bin/dem-probe" --particles --last "$OUT/$case/state.dem" 2> /dev/null | agg -v header=1 -v code=start
    "$TOP/bin/dem-probe" --particles --last "$OUT/$case/dem-step.dem" 2> /dev/null | agg -v code=dem-step
    agg -v code=lammps "$OUT/$case/lammps/lammps-np1.tsv"
    agg -v code=lammps-classic "$OUT/$case/lammps/lammps-classic-np1.tsv" # a dashpot matched at one overlap only
    echo
done
exit "$same"
