#!/bin/sh
# compare.sh - dem-step against LAMMPS on the same case, on this machine, in one run.
#
# Usage: tools/bench/compare.sh        (make -C tools/bench compare; make bench runs it when
#                                       lmp is installed)
#
# 1. step.sh: the settled state (cached), dem-step timed with 1 and 2 threads, cmp of the two.
# 2. lammps/run.sh: the same state, parameters and number of steps in LAMMPS on 1 MPI process,
#    and on 2 (mpirun) when mpirun exists. This LAMMPS has no OPENMP package, so no -sf omp.
# 3. The speed table: ns per particle-step, LAMMPS / dem-step at 1 thread (> 1: dem-step is
#    faster), dem-step 2 threads vs 1.
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

same=0
BENCH_KEEP=$OUT "$BENCH_DIR/step.sh" > "$OUT/step.tsv" || same=$?
[ -s "$OUT/dem-step.dem" ] || { cat "$OUT/step.tsv"; echo "compare.sh: step.sh failed" >&2; exit 1; }
cat "$OUT/step.tsv"
echo "# $(lmp -h 2> /dev/null | grep -m1 'Large-scale' | sed 's/^Large-scale Atomic.*Simulator - /LAMMPS /'), pair granular, 1 MPI process, no OpenMP styles"
lammps_rows=$("$BENCH_DIR/lammps/run.sh" "$OUT/state.dem" "$OUT/lammps" 1)
echo "$lammps_rows"
if command -v mpirun > /dev/null && [ "$(nproc)" -ge 2 ]; then
    lammps2=$("$BENCH_DIR/lammps/run.sh" "$OUT/state.dem" "$OUT/lammps" 2) && echo "$lammps2" || lammps2=
else
    lammps2=
fi

echo
echo "# speed (ns per particle-step of the time stepping; ratio > 1: dem-step is faster)"
{ grep -v '^#' "$OUT/step.tsv"; echo "$lammps_rows"; [ -z "$lammps2" ] || echo "$lammps2"; } |
    awk -F'\t' '$1 != "code" { ns[$1 "/" $2] = $7 }
    END {
        printf "comparison\tvalue\n"
        printf "dem-step 1 thread [ns]\t%s\n", ns["dem-step/1"]
        printf "dem-step 2 threads [ns]\t%s\n", ns["dem-step/2"]
        printf "LAMMPS 1 process [ns]\t%s\n", ns["lammps/1"]
        if (("lammps:mpi/2") in ns) printf "LAMMPS 2 MPI processes [ns]\t%s\n", ns["lammps:mpi/2"]
        printf "LAMMPS / dem-step, 1 thread\t%.2f\n", ns["lammps/1"] / ns["dem-step/1"]
        printf "dem-step speed-up, 2 threads vs 1\t%.2f\n", ns["dem-step/1"] / ns["dem-step/2"]
        if (("lammps:mpi/2") in ns) {
            printf "LAMMPS speed-up, 2 MPI processes vs 1\t%.2f\n", ns["lammps/1"] / ns["lammps:mpi/2"]
            printf "LAMMPS 2 processes / dem-step 2 threads\t%.2f\n", ns["lammps:mpi/2"] / ns["dem-step/2"]
        }
    }'

echo
echo "# physics check after $STEPS steps (same aggregates of both final states; start: the state itself)"
agg() { awk -f "$BENCH_DIR/aggregate.awk" -v rho="$RHO" -v box="$BOX" "$@"; }
"$TOP/bin/dem-probe" --particles --last "$OUT/state.dem" | agg -v header=1 -v code=start
"$TOP/bin/dem-probe" --particles --last "$OUT/dem-step.dem" | agg -v code=dem-step
agg -v code=lammps "$OUT/lammps/lammps-np1.tsv"
exit "$same"
