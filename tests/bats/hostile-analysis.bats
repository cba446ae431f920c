#!/usr/bin/env bats
# The analysis programs on finite but extreme frames (issue 21): a measure that overflows is
# refused with a message naming the frame and the measure, never printed as nan or inf.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    CRAFT="python3 $REPO/tests/independent/demcraft.py"
    command -v python3 > /dev/null || skip "python3 not installed"
    printf 'id\tx\ty\tz\tr\n1\t0.5\t0.5\t0.5\t0.1\n2\t0.71\t0.5\t0.5\t0.1\n' | dem-pack --from - --enclose |
        dem-step -q -n 2 --dt 1e-6 --normal hooke --kn 1e3 > e.dem
}

@test "dem-energy with dt = 1e300 in the header: refused, naming the shadow term" {
    $CRAFT --set HEAD:0:16:d:1e300 < e.dem > e2.dem
    run --separate-stderr dem-energy e2.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-energy: frame 0: e_shadow is "*"nan: the frame's values are too large for it to be computed" ]]
    [[ "$output" != *nan* && "$output" != *inf* ]]
}

@test "dem-probe's solid fraction over walls at +-1e306 m: refused, not 0 or nan" {
    $CRAFT --set WALL:0:12:d:-1e306 --set WALL:1:12:d:1e306 --set WALL:2:20:d:-1e306 --set WALL:3:20:d:1e306 < e.dem > w.dem
    run --separate-stderr dem-probe w.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-probe: frame 0: the volume the solid fraction refers to is inf m^3: the frame's coordinates are too large to measure it" ]
    [[ "$output" != *nan* && "$output" != *inf* ]]
}

@test "dem-probe and dem-stress: speeds of 1e300 m/s overflow the kinetic measures: refused" {
    $CRAFT --set PART:0:76:d:1e300 < e.dem > v.dem
    run --separate-stderr dem-probe v.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-probe: frame 0: granular_temperature is inf"* || "$stderr" == "dem-probe: frame 0: ekin_t is inf"* ]]
    run --separate-stderr dem-stress --kinetic v.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-stress: frame 0: the stress is "*": the frame's values are too large for it to be computed" ]]
}

@test "documented nan stays a flag: the solid fraction without a container, s1/s3 with s3 = 0" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.1\n' | dem-pack --from - > free.dem
    run dem-probe free.dem
    [ "$status" -eq 0 ]
    [ "$(cut -f8 <<< "${lines[1]}")" = nan ]
}

@test "dem-probe: the solid fraction of a cylinder-walled container is 300 (4/3 pi r^3) / (pi R^2 h), not nan" {
    dem-pack --random 300 --cylinder z,0,0,0.006,0,0.015 --radius 4e-4 --enclose > cyl.dem
    run dem-probe cyl.dem
    [ "$status" -eq 0 ]
    [[ "$output" != *nan* ]]
    awk -F'\t' 'NR == 2 { want = 300 * 4/3 * 4e-4^3 / (0.006^2 * 0.015); d = $8 - want; exit !(d * d < 1e-24) }' <<< "$output"
}
