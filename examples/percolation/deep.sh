#!/bin/sh
# deep.sh - the deep-bed percolation experiment (make deep): one start, run with one integrator in
# chunks of CHUNK seconds up to END, each chunk continuing from the last frame of the one before
# (dem-step -n N | dem-step -n N gives the same bits as -n 2N), so a stopped run keeps every chunk
# done and can be resumed by running this again. Writes DIR/INTEGRATOR-TIME.dem (the last frame of
# each chunk only).
# Usage: deep.sh BIN START.dem DIR INTEGRATOR CHUNK END -- dem-step options...
set -e
bin=$1; start=$2; dir=$3; integ=$4; chunk=$5; end=$6; shift 6
[ "$1" = "--" ] && shift
mkdir -p "$dir"
prev=$start
k=1
while :; do
    t=$(awk -v k=$k -v c="$chunk" 'BEGIN { printf "%.4g", k * c }')
    awk -v t="$t" -v e="$end" 'BEGIN { exit !(t > e + 1e-9) }' && break
    out=$dir/$integ-$t.dem
    if [ ! -s "$out" ]; then
        "$bin/dem-step" -q --time "$chunk" --integrator "$integ" "$@" -o "$out" "$prev"
    fi
    prev=$out
    k=$((k + 1))
done
