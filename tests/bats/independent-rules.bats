#!/usr/bin/env bats
# The independent reader as a second oracle (issue 21): for every rule of the spec's §6.1, a
# frame crafted to break it is refused by tests/independent/demread.py (written from the spec
# alone) and by the C reader (dem-probe), each with its own message; the unbroken frames are read
# by both.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    command -v python3 > /dev/null || skip "python3 not installed"
    READ=(python3 -S "$REPO/tests/independent/demread.py")
    CRAFT=(python3 -S "$REPO/tests/independent/demcraft.py")
    # a walled pair with a pair contact and a wall contact (history slots), and a periodic lattice
    printf 'id\tx\ty\tz\tr\n1\t0.5\t0.5\t0.101\t0.1\n2\t0.7\t0.5\t0.101\t0.1\n' | dem-pack --from - --enclose > base.dem
    "${CRAFT[@]}" --contact 1,2,0,3 --contact 1,0,1,5 < base.dem > walled.dem
    dem-pack --lattice sc --cells 2,2,2 --radius 0.5 --periodic lattice > cell.dem
}

# refused FILE: both readers refuse it, exit 1
refused() {
    run --separate-stderr "${READ[@]}" --summary "$1"
    [ "$status" -eq 1 ] || { echo "demread accepted $1 ($2)"; return 1; }
    [[ "$stderr" == *"impossible value"* || "$stderr" == *"malformed frame"* ]] || { echo "demread on $2: $stderr"; return 1; }
    run --separate-stderr dem-probe "$1"
    [ "$status" -eq 1 ] || { echo "dem-probe accepted $1 ($2)"; return 1; }
}

@test "both readers accept the unbroken frames" {
    for f in walled.dem cell.dem; do
        run --separate-stderr "${READ[@]}" --summary $f
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        dem-probe $f > /dev/null
    done
}

@test "§6.1 HEAD, MATL, WALL, PART, CONT, ENRG: every rule, both readers refuse" {
    n=0
    while read -r tag rec off fmt value what; do
        [ -z "$tag" ] && continue
        "${CRAFT[@]}" --set "$tag:$rec:$off:$fmt:$value" < walled.dem > bad.dem
        refused bad.dem "$tag[$rec]+$off = $value ($what)"
        n=$((n + 1))
    done <<'CASES'
HEAD 0 8 d inf time-not-finite
HEAD 0 16 d -1 dt-negative
HEAD 0 16 d nan dt-nan
HEAD 0 16 d inf dt-inf
MATL 0 32 d 0 density-zero
MATL 0 40 d inf young-inf
MATL 0 48 d 0.5 poisson-0.5
MATL 0 48 d -1 poisson-minus-1
MATL 0 56 d -0.1 friction-negative
MATL 0 56 d inf friction-inf
MATL 0 64 d 0 restitution-0
MATL 0 64 d 1.5 restitution-above-1
MATL 0 72 d -1 rolling-negative
MATL 0 80 d nan twisting-nan
MATL 0 88 d -1 surface-energy-negative
WALL 0 0 I 7 unknown-kind
WALL 0 4 I 9 material-out-of-range
WALL 0 12 d nan point-nan
WALL 0 36 d 2 normal-not-unit
WALL 0 68 d inf velocity-inf
WALL 0 92 d nan omega-nan
WALL 0 116 d inf force-inf
WALL 0 140 d nan torque-nan
WALL 0 164 d inf work-inf
PART 0 28 d 0 radius-zero
PART 0 36 d -1 mass-negative
PART 0 44 d inf inertia-inf
PART 0 60 d nan y-nan
PART 1 84 d inf vy-inf
PART 0 108 d nan wy-nan
PART 0 124 d 0.5 quaternion-not-unit
PART 0 164 d inf fy-inf
PART 0 188 d nan ty-nan
PART 0 8 I 5 material-out-of-range
PART 0 204 i -2147483648 image-counter-int-min
PART 1 212 i 1073741825 image-counter-beyond-2^30
PART 0 20 Q 77 clump-missing
PART 1 0 Q 1 duplicate-id
CONT 0 32 d nan overlap-nan
CONT 0 48 d inf normal-inf
CONT 0 72 d nan fn-nan
CONT 0 96 d inf ft-inf
CONT 0 112 d nan diss-friction-nan
CONT 0 128 d inf diss-damp-t-inf
CONT 0 20 i -2147483648 image-shift-int-min
CONT 0 0 Q 99 i-missing
CONT 0 8 Q 99 j-missing
CONT 1 8 Q 9 wall-missing
ENRG 0 0 d inf accumulator-inf
ENRG 0 16 d nan accumulator-nan
CASES
    echo "$n cases"
    [ "$n" -ge 50 ]
}

@test "§6.1 CELL: det H, origin, L and the target stress; and the same pair twice" {
    for c in "32:d:-1" "32:d:inf" "8:d:nan" "104:d:inf" "176:d:nan"; do
        "${CRAFT[@]}" --set "CELL:0:$c" < cell.dem > bad.dem
        refused bad.dem "CELL $c"
    done
    # (demcraft's seeds 4 and 10 give the image shift (0, 0, 0))
    "${CRAFT[@]}" --contact 1,1,0,4 < base.dem > self.dem
    refused self.dem "a particle in contact with itself"
    "${CRAFT[@]}" --contact 1,2,0,4 --contact 1,2,0,10 < base.dem > twice.dem
    refused twice.dem "the same pair twice"
    # (i, j, s) and (j, i, -s) are the same pair
    "${CRAFT[@]}" --contact 1,2,0,4 --contact 2,1,0,10 < base.dem > swapped.dem
    refused swapped.dem "the same pair, the other way round"
}

@test "a settings key that is not printable ASCII: both readers refuse" {
    "${CRAFT[@]}" --parm 'x-a b=i:1' < base.dem > space.dem
    refused space.dem "a space in a key"
    "${CRAFT[@]}" --parm $'x-caf\xc3\xa9=i:1' < base.dem > utf8.dem
    refused utf8.dem "a non-ASCII key"
}
