#!/bin/sh
# threads-tsan.sh - dem-step's threads under ThreadSanitizer (make check-threads).
#
# Usage: tests/threads-tsan.sh TSAN_BINDIR      (dem-pack and dem-step built with -fsanitize=thread)
#
# Runs every loop the threads share (lib/sim/par.h: the pair pass, the particles' sums, the half
# kicks and the drift, the exact mode's kicks and drift, the deforming cell's affine map, the
# rebuild's grid scan, new records and wall slots: every sim makes a first list on its threads; a
# bed of rigid clumps: their kicks, drift and sums; and their map in a deforming cell) on two
# and three threads under ThreadSanitizer, which stops at the first data race (halt_on_error), and
# checks that the output is the bytes of the one-thread run.
set -eu
b=$1
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
w=$(mktemp -d /tmp/dem-tsan.XXXXXX)
trap 'rm -rf "$w"' EXIT INT TERM
fail=0

# same NAME INPUT ARGS...: ARGS on 1, 2 and 3 threads, the same bytes, no race report
same()
{
    name=$1 in=$2
    shift 2
    "$b/dem-step" -q "$@" --threads 1 "$in" > "$w/$name.1" 2> "$w/$name.1.err" ||
        { echo "threads-tsan: $name: one thread failed:"; cat "$w/$name.1.err"; fail=1; return; }
    for t in 2 3; do
        if ! "$b/dem-step" -q "$@" --threads "$t" "$in" > "$w/$name.$t" 2> "$w/$name.$t.err"; then
            echo "threads-tsan: $name: $t threads failed (a race report, exit 66, or an error):"
            head -n 40 "$w/$name.$t.err"
            fail=1
        elif ! cmp -s "$w/$name.1" "$w/$name.$t"; then
            echo "threads-tsan: $name: $t threads wrote other bytes than one"
            fail=1
        else
            echo "threads-tsan: $name: $t threads: no race, the same bytes as one"
        fi
    done
}

# a walled frictional bed settling under gravity (the pair pass, wall slots, sums, kicks, drift)
"$b/dem-pack" --random 400 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --enclose --seed 3 > "$w/bed0.dem"
"$b/dem-step" -q -n 300 --gravity 0,0,-9.81 "$w/bed0.dem" > "$w/bed.dem"
same bed "$w/bed.dem" -n 100 --gravity 0,0,-9.81
same bed-vv "$w/bed.dem" -n 100 --gravity 0,0,-9.81 --integrator vv
# a periodic crystal sheared by the deforming cell (the affine map)
"$b/dem-pack" --lattice fcc --cells 4,4,4 --radius 1e-3 --periodic lattice > "$w/fcc.dem"
same shear "$w/fcc.dem" -n 100 --dt 1e-6 --cell-rate xy=10
# the exact mode's integer kicks and drift
"$b/dem-step" -q --exact --normal hooke --kn 1e4 --tangential none --damping none --dt 5e-7 -n 0 "$w/bed.dem" > "$w/exact.dem"
same exact "$w/exact.dem" -n 100
# rigid clumps: the clumps' kicks, drift and the members' sums to their clumps (lib/sim/clumps.c)
"$b/dem-pack" --random 120 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump tetrahedron --enclose \
    --velocity-random 2 --seed 4 > "$w/clumps.dem"
same clumps "$w/clumps.dem" -n 300 --gravity 0,0,-9.81 --local-damping 0.1
# rigid clumps in a deforming cell: the field's map of the clumps and their members (clumps.c)
"$b/dem-pack" --random 150 --box 0,0,0,0.02,0.02,0.02 --periodic 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump dimer \
    --young 1e7 --velocity-random 0.3 --seed 5 > "$w/clump-gas.dem"
same clumps-cell "$w/clump-gas.dem" -n 300 --dt 2e-6 --cell-rate xx=-10,yy=5,xy=20,zx=-8

exit "$fail"
