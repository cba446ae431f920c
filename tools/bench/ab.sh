#!/bin/sh
# ab.sh - is a change faster or slower? dem-step of two builds on the bench's settled bed,
# interleaved run by run (A, B, A, B, ...) so that a change in the machine's load hits both.
#
# Usage: tools/bench/ab.sh BIN_A BIN_B [STATE]     (BIN_*: directories holding dem-step)
# Environment: AB_REPEAT (default 3) runs of each, AB_STEPS (default 1000), AB_INTEGRATORS
# (default "vv vv-improved"), AB_THREADS (default 1). STATE defaults to the bench's cached bed
# (case.sh builds it with BIN_A's programs if it is missing).
# Prints TSV: integrator, build, best wall time of the runs (s), ns per particle-step, and the
# ratio B/A of the best times. The outputs of A and B are compared (cmp) as a by-product.
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"
[ $# -ge 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
A=$(cd "$1" && pwd) B=$(cd "$2" && pwd)
STATE=${3:-}
WORK=$(mktemp -d /tmp/dem-bench-ab.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
cp "$A/dem-step" "$WORK/dem-step-a"
cp "$B/dem-step" "$WORK/dem-step-b"
if [ -z "$STATE" ]; then
    make -s -C "$BENCH_DIR" strip_history  # rebuilt when libdem changed: a stale one may not read the stream
    cp "$A/dem-pack" "$A/dem-step" "$A/dem-probe" "$BENCH_DIR/strip_history" "$WORK/"
    STATE=$(case_state "$WORK")
fi
cp "$STATE" "$WORK/state.dem"
n=$("$A/dem-probe" "$WORK/state.dem" | awk -F'\t' 'NR == 2 { print $4 }')
REPEAT=${AB_REPEAT:-3} STEPS=${AB_STEPS:-1000} THREADS=${AB_THREADS:-1}
printf 'integrator\tbuild\tbest[s]\tns/particle-step\n'
for integ in ${AB_INTEGRATORS:-vv vv-improved}; do
    ba= bb=
    k=0
    while [ "$k" -lt "$REPEAT" ]; do
        for v in a b; do
            t0=$(now)
            # shellcheck disable=SC2086
            "$WORK/dem-step-$v" -q -n "$STEPS" --integrator "$integ" $DEM_STEP_OPTS --threads "$THREADS" "$WORK/state.dem" > "$WORK/out-$v.dem"
            t=$(elapsed "$t0" "$(now)")
            if [ $v = a ]; then ba=$(awk -v x="$t" -v y="$ba" 'BEGIN { print (y == "" || x < y) ? x : y }')
            else bb=$(awk -v x="$t" -v y="$bb" 'BEGIN { print (y == "" || x < y) ? x : y }'); fi
        done
        k=$((k + 1))
    done
    cmp -s "$WORK/out-a.dem" "$WORK/out-b.dem" && same=same || same=DIFFERENT
    for v in a b; do
        best=$ba; [ $v = b ] && best=$bb
        awk -v i="$integ" -v v="$v" -v t="$best" -v n="$n" -v s="$STEPS" 'BEGIN { printf "%s\t%s\t%.3f\t%.1f\n", i, v, t, t / (n * s) * 1e9 }'
    done
    awk -v a="$ba" -v b="$bb" -v i="$integ" -v s="$same" 'BEGIN { printf "# %s: B/A = %.3f (outputs %s)\n", i, b / a, s }'
done
