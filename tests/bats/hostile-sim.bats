#!/usr/bin/env bats
# Extreme but finite inputs reaching the simulator (issue 21): each gets a clear refusal naming
# the particle, or a valid run; blow-ups stop early with the step, the particle and the time step
# against the collision time. The frames are crafted with tests/independent/demcraft.py where
# dem-pack would refuse them.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    CRAFT="python3 $REPO/tests/independent/demcraft.py"
}

# expect_refusal PROG MESSAGE-PART ARGS...: exit 1, one line 'PROG: ...MESSAGE-PART...', no output
expect_refusal() {
    local prog=$1 want=$2
    shift 2
    run --separate-stderr "$prog" "$@"
    [ "$status" -eq 1 ] || { echo "$prog $*: status $status, stderr: $stderr"; return 1; }
    [[ "$stderr" == "$prog: "*"$want"* ]] || { echo "$prog $*: $stderr"; return 1; }
    [ -z "$output" ] || { echo "$prog wrote output"; return 1; }
}

@test "a particle at 1e306 m (the grid's heap overflow): a refusal naming it, dem-step and dem-reverse" {
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.01\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    # the issue's two-line TSV: particle 1 at (1e306, 1e306, 0), and one far axis only
    $CRAFT --set PART:0:52:d:1e306 --set PART:0:60:d:1e306 --set HEAD:0:16:d:1e-6 < two.dem > far.dem
    $CRAFT --set PART:0:52:d:1e306 --set HEAD:0:16:d:1e-6 < two.dem > far1.dem
    for f in far.dem far1.dem; do
        expect_refusal dem-step "particle 1 at (1e+306, " -n 1 --dt 1e-6 $f
        [[ "$stderr" == *"lies more than 2^40 of its radii (0.001 m) from the origin: the doubles could not resolve its contacts"* ]]
        expect_refusal dem-reverse "particle 1 at (1e+306, " -n 1 --force $f
    done
    # the largest coordinate still accepted (2^40 radii) runs: a sparse grid, no huge allocation
    $CRAFT --set PART:0:52:d:1.0995e9 < two.dem > edge.dem
    run dem-step -q -n 3 --dt 1e-6 edge.dem
    [ "$status" -eq 0 ]
}

@test "a particle 2^31 cell widths outside a periodic cell, and an INT_MIN image counter or shift: refused" {
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0.002\t0.005\t0.005\t0.001\n2\t0.0062\t0.005\t0.005\t0.001\n' |
        dem-pack --from - --periodic 0,0,0,0.01,0.01,0.01 > cell.dem
    $CRAFT --set PART:0:52:d:2.2e7 < cell.dem > out.dem           # 2.2e9 cell widths along x
    expect_refusal dem-step "particle 1 at (2.2e+07, 0.005, 0.005) m lies 2.2e+09 cells outside the periodic cell along a" -n 1 --dt 1e-6 out.dem
    $CRAFT --set PART:0:204:i:-2147483648 < cell.dem > image.dem
    # refused by the reader (spec §6.1, format 1.3), before the simulator sees it
    expect_refusal dem-step "particle record 0 (id 1): image counter x = -2147483648 is beyond +-2^30" -n 1 --dt 1e-6 image.dem
    $CRAFT --contact 1,2,0,3 --set CONT:0:20:i:-2147483648 < cell.dem > shift.dem
    expect_refusal dem-step "image shift x = -2147483648 is beyond +-2^30" -n 1 --dt 1e-6 shift.dem
}

@test "two particles with the same centre: named, not 'x = -nan is not finite'" {
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.01\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    $CRAFT --set PART:1:52:d:0 < two.dem > same.dem
    expect_refusal dem-step "particles 1 and 2 have the same centre (0, 0, 0) m" -n 1 --dt 1e-6 same.dem
}

@test "a radius of 1e300 or gravity of 1e300 in a frame: refused with the value and the range" {
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.01\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    $CRAFT --set PART:0:28:d:1e300 < two.dem > big.dem
    expect_refusal dem-step "particle 1: radius 1e+300 m is outside [1e-09, 1e+06] m" -n 1 --dt 1e-6 big.dem
    $CRAFT --parm gravity=f:0,0,1e300 < two.dem > g.dem
    expect_refusal dem-step "gravity (0, 0, 1e+300) m/s^2 is beyond 1e+06 m/s^2 in magnitude" -n 1 --dt 1e-6 g.dem
}

@test "a blow-up stops at once: dt about the collision time on a bed, and dt = 1 s in a closed box" {
    dem-pack --random 300 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --young 5e6 --enclose --seed 2 > box.dem
    dem-step -q -n 8000 --gravity 0,0,-9.81 --dt 1e-5 --local-damping 0.3 box.dem > bed.dem
    dem-probe bed.dem | awk -F'\t' 'NR == 2 { exit !($7 > 2.5) }'   # a bed: coordination near 3
    # the issue's case: dt about the collision time, a frame every 5 steps
    run --separate-stderr bash -c 'dem-step -q -n 2000 --every 5 --dt 1e-4 bed.dem > partial.dem'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-step: step "*": "*"the run is unstable; the time step 0.0001 s is "*" times the collision time "* ]]
    # what it wrote before stopping is readable and holds no runaway speed (|v| below 10 m/s)
    dem-probe --particles partial.dem | awk -F'\t' 'NR > 1 { v = sqrt($8^2 + $9^2 + $10^2); if (v > m) m = v }
                                                    END { print "largest |v| written:", m; exit !(m < 10) }'
    # dt = 1 s: refused before the first step (--stop-dt); without that guard, stopped at the
    # first step by the move guard, nobody out of the box
    run --separate-stderr dem-step -q -n 10 --dt 1 bed.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-step: dt = 1 s is "*" times the collision time "*"--stop-dt 1 is the limit"* ]]
    run --separate-stderr dem-step -q -n 10 --dt 1 --stop-dt 0 bed.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-step: step 8001: particle "*" moved "*" m in one step"* ]]
    # a guard turned off: the run goes on (and is the user's responsibility)
    # (5 steps: a few more and the blow-up overflows the energy books, which stop any run)
    run --separate-stderr bash -c 'dem-step -q -n 5 --dt 1e-4 --stop-move 0 --stop-overlap 0 bed.dem > off.dem'
    [ "$status" -eq 0 ]
}

@test "guard options: usage errors for bad values, and a tighter guard stops earlier" {
    for a in "--stop-overlap -1" "--stop-move x" "--stop-dt nan"; do
        run --separate-stderr dem-step -n 1 $a
        [ "$status" -eq 2 ] || { echo "$a: $status"; return 1; }
        [[ "$stderr" == *"must be >= 0"* || "$stderr" == *"--stop-"* ]]
    done
    run --separate-stderr dem-reverse -n 1 --stop-move -2
    [ "$status" -eq 2 ]
    # two spheres pressed by 0.1 of a radius: --stop-overlap 0.05 stops at the first step
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.0019\t0\t0\t0.001\n' | dem-pack --from - > pressed.dem
    run --separate-stderr dem-step -q -n 1 --dt 1e-7 --stop-overlap 0.05 pressed.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"step 1: particles 1 and 2 overlap by "*" of the smaller radius (more than 0.05)"* ]]
    run --separate-stderr bash -c 'dem-step -q -n 1 --dt 1e-7 pressed.dem > ok.dem'
    [ "$status" -eq 0 ]
}

@test "the step counter never wraps" {
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    $CRAFT --set HEAD:0:0:Q:18446744073709551614 < one.dem > late.dem
    dem-step -q -n 1 --dt 1e-6 late.dem > last.dem
    expect_refusal dem-step "1 more steps would pass the step counter's largest value 2^64 - 1" -n 1 --dt 1e-6 last.dem
}

@test "a wall moving more than the skin in one step stops the run, naming the wall" {
    dem-pack --random 20 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose --seed 1 > box.dem
    run --separate-stderr dem-step -q -n 10 --dt 1e-6 --wall-velocity 5=0,0,-500 box.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"step 1: wall 5 moves 0.0005 m or more in one step (velocity (0, 0, -500) m/s), more than 1 of the neighbour skin 0.0001 m"* ]]
    run --separate-stderr bash -c 'dem-step -q -n 10 --dt 1e-6 --wall-velocity 5=0,0,-5 box.dem > ok.dem'
    [ "$status" -eq 0 ]
}

@test "a frame without particles runs (periodic cell or not), or asks for --dt in plain words (issue 29)" {
    printf 'x\ty\tz\tr\n' > empty.tsv
    dem-pack --from empty.tsv --periodic 0,0,0,0.01,0.01,0.01 > cell.dem
    dem-pack --from empty.tsv > box.dem
    for f in cell.dem box.dem; do
        # before: "internal error: a neighbour grid of -nan cells of -nan along axis 0"
        run --separate-stderr dem-step -n 10 --dt 1e-6 $f -o run.dem
        [ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
        [ "$(dem-probe run.dem | cut -f 2-5 | tail -n 1)" = "$(printf '10\t1e-05\t0\t0')" ]
        run --separate-stderr dem-step -n 10 $f -o run2.dem
        [ "$status" -eq 1 ]
        [ "$stderr" = "dem-step: the frame has no particles, so no time step can be estimated from them: give --dt" ]
    done
    dem-step -q --minimize --tangential none --dt 1e-6 cell.dem > /dev/null
    dem-step -q -n 5 --dt 1e-6 --cell-rate xx=-1 cell.dem > /dev/null
}

@test "F is validated at read time; the texts for a 1e100 m cell, a 1e-300 m box, --every-time 1e-300, an empty replay log and a guard at a frame (issue 29)" {
    command -v python3 > /dev/null || skip "python3 not installed"
    craft="$REPO/tests/independent/demcraft.py"
    dem-pack --lattice fcc --cells 2,2,2 --radius 0.001 --periodic lattice > fcc.dem
    # F12 = 1e8 and det F = 1e-300 passed the readers, then dem-stress said "strain is nan"
    python3 "$craft" --set 'CELL:0:256:d:1e8' < fcc.dem > f12.dem
    python3 "$craft" --set 'CELL:0:248:d:1e-300' < fcc.dem > detf.dem
    for prog in dem-probe dem-stress dem-step; do
        if [ $prog = dem-step ]; then n=(-n 1); else n=(); fi
        run --separate-stderr $prog "${n[@]}" f12.dem
        [ "$status" -eq 1 ]
        [ "$stderr" = "$prog: frame 0 (byte 0): periodic cell: f12 = 100000000: the deformation gradient F must keep its components within +-1e+06 (a stretch or shear beyond that has no finite strain in doubles)" ]
        run --separate-stderr $prog "${n[@]}" detf.dem
        [ "$status" -eq 1 ]
        [[ "$stderr" == "$prog: frame 0 (byte 0): periodic cell: det F = 1e-300: F^-1 has a component 1e+300 beyond +-1e+06"* ]]
    done
    # a 1e100 m cell was "0 m wide" (its det H and |b x c| overflowed): it is as wide as it is
    printf 'x\ty\tz\tr\n0.5\t0.5\t0.5\t0.001\n' | dem-pack --from - --periodic 0,0,0,1e100,1e100,1e100 > big.dem
    run --separate-stderr dem-step -q -n 2 --dt 1e-7 big.dem -o big2.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"0 m wide"* ]]
    # a box 1e-300 m wide: its volume underflows; "too small", not "coordinates too large"
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - --enclose > enc.dem
    python3 "$craft" --set WALL:0:12:d:0 --set WALL:1:12:d:1e-300 --set WALL:2:20:d:0 --set WALL:3:20:d:1e-300 \
        --set WALL:4:28:d:0 --set WALL:5:28:d:1e-300 < enc.dem > tiny.dem
    run --separate-stderr dem-probe tiny.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-probe: frame 0: the volume the solid fraction refers to is 0 m^3: the frame's coordinates are too small to measure it (the product of its extents underflows)" ]
    # --every-time below dt: a frame every step, not "0 steps of dt = inf s"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.01\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    run --separate-stderr dem-step --time 1e-5 --every-time 1e-300 two.dem -o et.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"inf"* ]]
    [ "$(dem-probe et.dem | tail -n +2 | wc -l)" -eq 265 ]
    # an empty --replay log: said so, not "the log holds the rates of steps 0..0"
    dem-step -q -n 5 --cell-rate xx=-1 --normal hooke --kn 1e5 --tangential none --damping none fcc.dem > cr.dem
    printf 'step\tl11[1/s]\n' > empty.log
    run --separate-stderr dem-reverse -q -n 2 --replay empty.log cr.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-reverse: --replay: 'empty.log' holds no step: only its header (dem-step --cell-log writes one line per step the run took)" ]
    # a guard that trips as a frame is written names its step once, not "step 1: step 1:"
    printf 'x\ty\tz\tr\tvz\n0\t0\t0.0011\t0.001\t-1e153\n' | dem-pack --from - --wall z=0 > fall.dem
    run --separate-stderr dem-step -q -n 1 --dt 1e-7 --stop-move 0 --stop-overlap 0 fall.dem -o f.dem
    [ "$status" -eq 1 ] && [[ "$stderr" == "dem-step: step 1: the energy books overflowed"* ]]
}
