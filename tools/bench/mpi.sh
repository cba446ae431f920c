#!/bin/sh
# mpi.sh - what dem-step-mpi costs on K ranks, counted rather than timed (a machine with fewer
# cores than ranks says nothing about speed): for K = 1, 2, 4 ranks on the bench's settled bed
# (case.sh), the instructions each rank executes in libdem and dem-step per step (cachegrind,
# STEPS + 1 steps minus 1 step: the steady cost, as instructions.sh with BENCH_INSTR_FROM=1; MPI's own
# code, which spins while a rank waits, is left out), their sum against one process's, the pairs
# each rank evaluates across its cuts, and the bytes it gives to the exchanges and receives from
# the other ranks per step.
#
# Usage: tools/bench/mpi.sh [STEPS]     (make -C tools/bench mpi; STEPS default 20). MPI_RANKS="2 4": the
# rank counts (default 1 2 4); with BENCH_CASE=replica BENCH_TILE_X=2 BENCH_TILE_Y=1 (40 000 spheres)
# and 2x2 (80 000) on 2 and 4 ranks, the weak scaling.
# Prints TSV: ranks, rank, particles, pairs_own, pairs_across, instructions_per_step,
# instructions_per_particle_step (of all particles), bytes_per_step (given), received_per_step.
# A few minutes.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"
S=${1:-20}
command -v valgrind > /dev/null || { echo "mpi.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "mpi.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
[ -x "$BENCH_DIR/../../bin/dem-step-mpi" ] || { echo "mpi.sh: no bin/dem-step-mpi (apt-get install libopenmpi-dev, then make)" >&2; exit 1; }
bench_work mpi.sh
cp "$BENCH_DIR/../../bin/dem-step-mpi" "$WORK/"
STATE=$(case_state "$WORK")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 DEM_MPI_STDERR=1

# libdem_ir FILE: the instructions a cachegrind file counts in lib/ and bin/ (this project's code)
libdem_ir() { awk '/^fl=/ { own = ($0 ~ /^fl=(.*\/)?(lib|bin)\//) } /^[0-9]/ { if (own) s += $2 } END { printf "%.0f\n", s }' "$1"; }

# run K STEPS TAG: cachegrind files $WORK/cg.TAG.RANK and the ranks' reports in $WORK/rep.TAG
run()
{
    mpirun --oversubscribe -np "$1" valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file="$WORK/cg.$3.%q{OMPI_COMM_WORLD_RANK}" "$WORK/dem-step-mpi" -n "$2" -o /dev/null "$STATE" \
        2> "$WORK/rep.$3" || { echo "mpi.sh: failed on $1 ranks" >&2; tail -n 5 "$WORK/rep.$3" >&2; exit 1; }
}

# N: the case's particles (case.sh)
printf 'ranks\trank\tparticles\tpairs_own\tpairs_across\tinstructions_per_step\tinstructions_per_particle_step\tbytes_per_step\treceived_per_step\n'
for K in ${MPI_RANKS:-1 2 4}; do
    run "$K" 1 a
    run "$K" $((S + 1)) b
    r=0
    while [ "$r" -lt "$K" ]; do
        i0=$(libdem_ir "$WORK/cg.a.$r")
        i1=$(libdem_ir "$WORK/cg.b.$r")
        # the rank's report: "rank R at the last rebuild: P particles, A pairs of its blocks and B across its cuts ...; G MB given and R MB received"
        rep=$(grep "rank $r at the last rebuild" "$WORK/rep.b" || true)
        rep0=$(grep "rank $r at the last rebuild" "$WORK/rep.a" || true)
        awk -v k="$K" -v r="$r" -v s="$S" -v n="$N" -v i0="$i0" -v i1="$i1" -v rep="$rep" -v rep0="$rep0" 'BEGIN {
            p = a = b = 0; mb = mb0 = rb = rb0 = 0
            if (match(rep, /: [0-9]+ particles/)) p = substr(rep, RSTART + 2, RLENGTH - 12) + 0
            if (match(rep, /[0-9]+ pairs of its blocks/)) a = substr(rep, RSTART, RLENGTH) + 0
            if (match(rep, /and [0-9]+ across/)) b = substr(rep, RSTART + 4, RLENGTH - 11) + 0
            if (match(rep, /[0-9.e+]+ MB given/)) mb = substr(rep, RSTART, RLENGTH) + 0
            if (match(rep0, /[0-9.e+]+ MB given/)) mb0 = substr(rep0, RSTART, RLENGTH) + 0
            if (match(rep, /[0-9.e+]+ MB received/)) rb = substr(rep, RSTART, RLENGTH) + 0
            if (match(rep0, /[0-9.e+]+ MB received/)) rb0 = substr(rep0, RSTART, RLENGTH) + 0
            if (k == 1) p = n
            printf "%d\t%d\t%d\t%d\t%d\t%.0f\t%.0f\t%.0f\t%.0f\n", k, r, p, a, b, (i1 - i0) / s, (i1 - i0) / (s * n), (mb - mb0) * 1e6 / s, (rb - rb0) * 1e6 / s }'
        r=$((r + 1))
    done
done
