#!/usr/bin/env bash
# same-bits.sh - the guard of every refactor: a fixed set of runs must write the same bytes
# before and after a change that is meant to change no result.
#
# Usage:
#   tests/same-bits.sh record DIR [BINDIR]   run the cases with BINDIR's programs (default bin/)
#                                            and keep their outputs in DIR
#   tests/same-bits.sh compare DIR [BINDIR]  run them again and cmp every output with DIR's
#   tests/same-bits.sh rev REV [BINDIR]      build git revision REV in a temporary work tree,
#                                            record with it, then compare BINDIR against it
#
# The cases (each output is one file; every frame of it is compared):
#   bench-*     the settled bed of `make bench` (tools/bench/case.sh: 20 000 Hertz-Mindlin
#               spheres with friction, restitution damping, gravity, six walls), 400 steps with
#               vv and vv-improved, 1 and 2 threads, and split 137 | 263
#   exact-*     a frictionless gas in exact mode, 3000 steps out and 3000 back (dem-reverse)
#   periodic-*  an fcc crystal in a triclinic periodic cell with random velocities, Hertz-
#               Mindlin with friction, both integrators, 2 threads, frames every 250 steps
#   walled-*    a poured box with a moving lid and a cylinder, hooke + viscous damping,
#               local damping (both forms), drag, groups that ignore each other; rolling and
#               twisting resistance against the walls, the lid sliding across
# Set SAME_BITS_N (default 20000) to use a smaller bench bed (faster; not the issue's case).
# The bench bed is input, made once with the recording programs and kept in DIR.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 dir=$2
bin=${3:-$TOP/bin}
bin=$(cd "$bin" && pwd)

# run_cases BIN OUT: every case into OUT/*.dem
run_cases()
{
    local b=$1 out=$2
    mkdir -p "$out"
    local state=$dir/bench-state.dem
    if [ ! -s "$state" ]; then
        echo "same-bits: making the bench bed (a few minutes for 20 000 spheres)" >&2
        [ -x "$TOP/tools/bench/strip_history" ] || make -s -C "$TOP/tools/bench" strip_history >&2
        local tmpc
        tmpc=$(mktemp -d)
        cp "$b"/dem-pack "$b"/dem-step "$b"/dem-probe "$TOP/tools/bench/strip_history" "$tmpc/"
        # shellcheck disable=SC1091
        s=$(BENCH_N=${SAME_BITS_N:-20000} BENCH_CACHE=$tmpc/cache bash -c ". '$TOP/tools/bench/case.sh'; case_state '$tmpc'")
        cp "$s" "$state"
        rm -rf "$tmpc"
    fi
    local opts="--normal hertz --tangential history --damping restitution --gravity 0,0,-9.81 --skin 1e-4 --dt 1e-6"
    for integ in vv vv-improved; do
        # shellcheck disable=SC2086
        "$b/dem-step" -q -n 400 --integrator $integ $opts --threads 1 "$state" > "$out/bench-$integ-t1.dem"
        # shellcheck disable=SC2086
        "$b/dem-step" -q -n 400 --integrator $integ $opts --threads 2 "$state" > "$out/bench-$integ-t2.dem"
        # shellcheck disable=SC2086
        "$b/dem-step" -q -n 137 --integrator $integ $opts --threads 2 "$state" | "$b/dem-step" -q -n 263 > "$out/bench-$integ-split.dem"
    done

    "$b/dem-pack" --random 200 --box 0,0,0,0.01,0.01,0.01 --radius 4e-4 --enclose --velocity-random 0.5 \
        --friction 0 --restitution 1 --seed 3 |
        "$b/dem-step" -q --exact --normal hooke --kn 1e4 --tangential none --damping none --dt 5e-7 -n 0 > "$out/exact-start.dem"
    "$b/dem-step" -q -n 3000 --every 1000 "$out/exact-start.dem" > "$out/exact-out.dem"
    "$b/dem-reverse" -q -n 3000 "$out/exact-out.dem" > "$out/exact-back.dem"

    "$b/dem-pack" --random 300 --box 0,0,0,0.008,0.008,0.008 --periodic 0,0,0,0.008,0.008,0.008 --radius-uniform 4e-4,6e-4 \
        --velocity-random 0.5 --omega 0,0,30 --seed 5 --friction 0.4 --restitution 0.7 --young 1e7 > "$out/periodic-start.dem"
    for integ in vv vv-improved; do
        "$b/dem-step" -q -n 1500 --every 250 --integrator $integ --threads 2 --dt 1e-6 \
            "$out/periodic-start.dem" > "$out/periodic-$integ.dem"
    done

    "$b/dem-pack" --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 \
        --group '2:box=0,0,0,0.008,0.008,0.004' > "$out/walled-start.dem"
    # rolling and twisting resistance against walls, a lid sliding across: the couples on the walls
    "$b/dem-pack" --from "$out/walled-start.dem" --set-material 0:rolling_friction=0.1 --set-material 0:twisting_friction=0.05 \
        > "$out/walled-rolling-start.dem"
    "$b/dem-step" -q -n 2000 --every 1000 --gravity 0,0,-9.81 --rolling epsd --twisting sds --wall-velocity 5=0.02,0,-0.02 \
        --dt 5e-6 --threads 2 "$out/walled-rolling-start.dem" > "$out/walled-rolling.dem"
    "$b/dem-pack" --random 500 --cylinder z,0,0,0.005,0,0.02 --radius 4e-4 --young 5e6 --enclose --velocity-random 0.3 \
        --omega 5,0,0 --seed 12 > "$out/cylinder-start.dem"
    "$b/dem-step" -q -n 16000 --every 4000 --gravity 0,0,-9.81 --normal hooke --damping viscous --gamma-n 0.002 --gamma-t 0.001 \
        --local-damping 0.1 --wall-velocity 5=0,0,-0.05 --dt 5e-6 --threads 2 "$out/walled-start.dem" > "$out/walled-hooke.dem"
    "$b/dem-step" -q -n 16000 --every 4000 --gravity 0,0,-9.81 --integrator vv --wall-velocity 2=0,0,-0.05 --dt 5e-6 \
        "$out/cylinder-start.dem" > "$out/cylinder-hertz.dem"
    "$b/dem-step" -q -n 16000 --every 4000 --gravity 0,0,-9.81 --local-damping 0.2 --local-damping-form yade --drag 0.9999 \
        --ignore 2:1 --dt 5e-6 "$out/walled-start.dem" > "$out/walled-hertz.dem"
}

# payloads FILE: every frame's payload with its minor version (bytes 10-11) zeroed
payloads()
{
    python3 - "$1" <<'PY'
import sys, zlib
data = open(sys.argv[1], "rb").read()
out = sys.stdout.buffer
while data:
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    p = d.decompress(data)
    data = d.unused_data
    if len(p) >= 16:
        p = p[:10] + b"\0\0" + p[12:]
    out.write(p)
PY
}

# Every value of every frame as this build reads it, as round-trip text: the particles with all
# their fields, the contacts with their forces, the energy books, the assembly stress.
decoded()
{
    "$TOP/bin/dem-probe" --particles --fields all "$1" 2>/dev/null
    "$TOP/bin/dem-probe" --contacts "$1" 2>/dev/null
    "$TOP/bin/dem-energy" "$1" 2>/dev/null
    "$TOP/bin/dem-stress" "$1" 2>/dev/null | cut -f1-17   # the columns every version prints
}

compare_dirs()
{
    local want=$1 got=$2 bad=0 n=0
    for f in "$want"/*.dem; do
        local name
        name=$(basename "$f")
        [ "$name" = bench-state.dem ] && continue
        n=$((n + 1))
        if cmp -s "$f" "$got/$name"; then
            echo "same    $name"
        elif cmp -s <(payloads "$f" 2>/dev/null) <(payloads "$got/$name" 2>/dev/null); then
            # a later format adds only stream framing (1.3: the end-of-stream marker, minor 3)
            echo "same    $name (payloads; the stream framing or minor version differs)"
        elif cmp -s <(decoded "$f") <(decoded "$got/$name"); then
            # a later format appends fields (1.4: the cell's F) or settings keys (cell.gain): every
            # value both versions hold, read back by this build, is the same bits
            echo "same    $name (decoded state; the format added fields)"
        else
            echo "DIFFER  $name"
            bad=$((bad + 1))
        fi
    done
    echo "same-bits: $((n - bad)) of $n outputs identical"
    [ "$bad" -eq 0 ]
}

case $mode in
record)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    run_cases "$bin" "$dir"
    echo "same-bits: recorded $(ls "$dir" | wc -l) files in $dir with $bin"
    ;;
compare)
    dir=$(cd "$dir" && pwd)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp "$dir/bench-state.dem" "$tmp/" 2>/dev/null || true
    saved=$dir
    dir=$tmp
    run_cases "$bin" "$tmp"
    compare_dirs "$saved" "$tmp"
    ;;
rev)
    rev=$dir
    wt=$(mktemp -d)
    trap 'git -C "$TOP" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"' EXIT
    git -C "$TOP" worktree add --detach "$wt" "$rev" >/dev/null
    make -s -C "$wt" -j2 all >/dev/null
    dir=$wt/same-bits
    mkdir -p "$dir"
    run_cases "$wt/bin" "$dir"
    "$0" compare "$dir" "$bin"
    ;;
*) usage ;;
esac
