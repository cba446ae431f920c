#!/usr/bin/env bats
# The command line against extreme requests (issue 21): never exit 0 without output, never wrap.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.01\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    dem-step -q -n 10 --dt 1e-6 two.dem > run.dem
}

@test "--time 1e20 and 1e10: refused like -n beyond 1e15 steps, no empty output with exit 0" {
    for prog in dem-step dem-reverse; do
        for t in 1e20 1e10; do
            run --separate-stderr bash -c "$prog -q --time $t --force run.dem > out.dem"
            [ "$prog" = dem-step ] && run --separate-stderr bash -c "$prog -q --time $t run.dem > out.dem"
            [ "$status" -eq 1 ] || { echo "$prog --time $t: status $status"; return 1; }
            [[ "$stderr" == *"$prog: --time "*" s at dt = 1e-06 s is "*" steps, more than the 1e+15 a run may take"* ]] || { echo "$stderr"; return 1; }
        done
    done
    # in a script, '... > new && mv new run.dem' keeps the old file
    cp run.dem keep.dem
    dem-step -q --time 1e20 run.dem > new.dem && mv new.dem run.dem || true
    cmp run.dem keep.dem
}

@test "a time step too small to advance the frame's time is refused; the step counter never wraps" {
    run --separate-stderr dem-step -q -n 3 --dt 5e-324 run.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dt = 4.94066e-324 s does not advance the frame's time 1.0000000000000001e-05 s"* ]]
    command -v python3 > /dev/null || skip "python3 not installed"
    python3 "$REPO/tests/independent/demcraft.py" --set HEAD:0:0:Q:18446744073709551610 < run.dem > late.dem
    run --separate-stderr dem-step -q -n 10 late.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"the frame is at step 18446744073709551610: 10 more steps would pass the step counter's largest value 2^64 - 1"* ]]
    run --separate-stderr bash -c 'dem-step -q -n 5 late.dem > ok.dem'
    [ "$status" -eq 0 ]
}

@test "--gravity 1e300: a usage error with the bound" {
    run --separate-stderr dem-step -n 1 --gravity 1e300,0,0 run.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--gravity: '1e300,0,0' is beyond 1e+06 m/s^2 in magnitude"* ]]
    run --separate-stderr dem-step -n 1 --gravity 8e5,8e5,0 run.dem
    [ "$status" -eq 2 ]
}

@test "--help to a full disk: exit 1 with a message, for every program" {
    [ -w /dev/full ] || skip "no /dev/full"
    for prog in dem-pack dem-probe dem-step dem-reverse dem-stress dem-energy; do
        run --separate-stderr bash -c "$prog --help > /dev/full"
        [ "$status" -eq 1 ] || { echo "$prog: status $status"; return 1; }
        [[ "$stderr" == "$prog: writing the help: No space left on device" ]] || { echo "$stderr"; return 1; }
    done
}

@test "a settings key that is not printable ASCII is refused by every reader" {
    command -v python3 > /dev/null || skip "python3 not installed"
    python3 "$REPO/tests/independent/demcraft.py" --parm $'x-caf\xc3\xa9=i:1' < two.dem > key.dem
    for prog in dem-probe dem-step; do
        run --separate-stderr $prog -n 1 key.dem
        [ "$prog" = dem-probe ] && run --separate-stderr dem-probe key.dem
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"PARM entry "*": key byte 5 is 0xc3, not printable ASCII"* ]] || { echo "$stderr"; return 1; }
    done
    python3 "$REPO/tests/independent/demcraft.py" --parm 'x-plain=i:1' < two.dem > plain.dem
    dem-probe plain.dem > /dev/null
}

@test "dem-pack refuses coincident centres, radii outside [1e-9, 1e6] m and coordinates beyond 2^40 radii, naming the particle" {
    run --separate-stderr dem-pack --from - <<< $'id\tx\ty\tz\tr\n4\t1\t2\t3\t0.001\n9\t0\t0\t0\t0.001\n2\t1\t2\t3\t0.001'
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-pack: particles 2 and 4 have the same centre (1, 2, 3) m" ]
    run --separate-stderr dem-pack --from - <<< $'id\tx\ty\tz\tr\n1\t0\t0\t0\t1e300'
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-pack: particle id 1: radius 1e+300 m is outside [1e-09, 1e+06] m, the range the toolchain simulates" ]
    # the issue's two-line TSV
    run --separate-stderr dem-pack --from - <<< $'id\tx\ty\tz\tr\n1\t1e306\t1e306\t0\t0.001\n2\t0\t0\t0\t0.001'
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-pack: particle id 1 at (1e+306, 1e+306, 0) m lies more than 2^40 of its radii (0.001 m) from the origin"* ]]
}

@test "messages that quote input escape the bytes a terminal acts on: ESC[2J in a setting or a material name (issue 29)" {
    command -v python3 > /dev/null || skip "python3 not installed"
    python3 "$REPO/tests/independent/demcraft.py" --parm $'model.normal=s:\x1b[2J\xc2\x9b1mStahl_\xc3\xbc' < two.dem > esc.dem
    run --separate-stderr dem-step -n 1 esc.dem
    [ "$status" -eq 1 ]
    # before: the raw ESC went to the terminal
    [ "$stderr" = "dem-step: setting model.normal: unknown '\\x1b[2J\\xc2\\x9b1mStahl_ü' (hooke, hertz, dmt, jkr)" ]
    # a material name from the stream, quoted in a warning
    dem-pack --from two.dem --material $'name=\x1b[31mred,twisting_friction=0.2' > mat.dem
    run --separate-stderr dem-step -n 1 --dt 1e-7 mat.dem -o /dev/null
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"(material '\\x1b[31mred')"* ]]
    [[ "$stderr" != *$'\x1b'* ]]
    # and an option's value
    run --separate-stderr dem-step --until $'ke=\x1b[2J' esc.dem
    [ "$status" -eq 2 ] && [[ "$stderr" == *"'\\x1b[2J' is not a finite number"* ]] && [[ "$stderr" != *$'\x1b'* ]]
}
