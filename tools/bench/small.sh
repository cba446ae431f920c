#!/bin/sh
# small.sh - the cost of one step of a tiny system: three spheres, two of them colliding, the
# size of the Vyas et al. 2025 sweeps (a map of 70 runs, each a few 10^5 steps). Such sweeps are common;
# their steps must cost what the physics costs, not the start of an OpenMP team.
#
# Usage: tools/bench/small.sh [STEPS]     (make -C tools/bench small; default 10^6 steps)
#
# Prints TSV: code, threads_asked, particles, steps, wall[s], ns/step. --threads 2 runs one
# thread (dem-step: at most one per 64 particles), so both rows should cost the same.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
STEPS=${1:-1000000}
WORK=$(mktemp -d /tmp/dem-bench-small.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.005\t0.1\n2\t0.0105\t0\t0\t0.005\t-0.1\n3\t0.03\t0\t0\t0.001\t0\n' |
    "$TOP/bin/dem-pack" --from - > "$WORK/three.dem"
printf 'code\tthreads_asked\tparticles\tsteps\twall[s]\tns/step\n'
for t in 1 2; do
    s=$(date +%s.%N)
    "$TOP/bin/dem-step" -q -n "$STEPS" --threads $t "$WORK/three.dem" > "$WORK/out.dem"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" -v n="$STEPS" -v t=$t 'BEGIN { w = e - s; printf "dem-step\t%d\t3\t%d\t%.3f\t%.0f\n", t, n, w, 1e9 * w / n }'
done
