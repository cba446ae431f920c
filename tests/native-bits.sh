#!/bin/sh
# native-bits.sh - the same bits from a build for this CPU (-march=native: FMA, AVX) as from the
# default build. GCC 12's SLP vectoriser fuses a multiply and an add/sub (vfmaddsub) in the
# quaternion product even under -ffp-contract=off, which changed the orientations in the last
# place; the Makefile therefore turns SLP vectorisation off. This runs a frictional, spinning,
# walled case of unequal spheres with both builds, both integrators and 1 and 2 threads, and
# compares the frames byte for byte; then a bed of rigid clumps (the rotor's trigonometry, the
# members' sums) with both integrators on 2 threads.
#
# Usage: tests/native-bits.sh DEFAULT_BIN_DIR NATIVE_BIN_DIR     (make check-native)
set -eu
a=$1 b=$2
w=$(mktemp -d /tmp/dem-native.XXXXXX)
trap 'rm -rf "$w"' EXIT INT TERM
"$a/dem-pack" --random 1500 --box 0,0,0,0.02,0.02,0.04 --radius-uniform 5e-4,1e-3 --density 2500 \
    --young 5e7 --poisson 0.25 --friction 0.5 --restitution 0.8 --enclose --velocity-random 0.5 --seed 7 > "$w/packed.dem"
status=0
for integ in vv vv-improved; do
    for th in 1 2; do
        for build in default native; do
            bin=$a
            [ "$build" = native ] && bin=$b
            "$bin/dem-step" -q -n 1500 --every 500 --threads "$th" --integrator "$integ" --normal hertz \
                --tangential history --damping restitution --gravity 0,0,-9.81 --dt 2e-6 "$w/packed.dem" \
                > "$w/$build-$integ-$th.dem"
        done
        if cmp -s "$w/default-$integ-$th.dem" "$w/native-$integ-$th.dem"; then
            echo "native-bits: $integ, $th thread(s): same bits"
        else
            echo "native-bits: $integ, $th thread(s): DIFFERENT BITS ($b against $a)" >&2
            status=1
        fi
    done
done
# rigid clumps (issue 30): tetrahedra colliding in a box, the rotor of lib/core/rigid.c and the
# members' sums, with both integrators on 2 threads
"$a/dem-pack" --random 120 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump tetrahedron --enclose \
    --velocity-random 2 --seed 4 --friction 0.5 > "$w/clumps.dem"
for integ in vv vv-improved; do
    for build in default native; do
        bin=$a
        [ "$build" = native ] && bin=$b
        "$bin/dem-step" -q -n 6000 --every 2000 --threads 2 --integrator "$integ" --damping restitution \
            --gravity 0,0,-9.81 --local-damping 0.1 "$w/clumps.dem" > "$w/clumps-$build-$integ.dem"
    done
    if cmp -s "$w/clumps-default-$integ.dem" "$w/clumps-native-$integ.dem"; then
        echo "native-bits: clumps, $integ: same bits"
    else
        echo "native-bits: clumps, $integ: DIFFERENT BITS ($b against $a)" >&2
        status=1
    fi
done
exit $status
