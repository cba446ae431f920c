#!/usr/bin/env bats
# The neighbour search's two backends (dem-step --neighbor bin|multi, issue 18): the same bits
# from either on polydisperse systems, for 1 and 2 threads and across the spatial sorts; the
# levels of the hierarchical grid; interaction masks that prune before any distance test; and
# time-step estimates from the pairs that can collide.
load helpers
T=$'\t'
READ=(python3 -S "$BATS_TEST_DIRNAME/../independent/demread.py")

setup() {
    setup_tmp
    cd "$TMP"
}

# Every value of the last frame as text: particles with all fields, contacts, energy books.
state() {
    dem-probe --particles --fields all --last "$1"
    dem-probe --contacts --last "$1"
    dem-energy --last "$1"
}

@test "--neighbor and --level-ratio are in --help, stored as settings, and checked" {
    run dem-step --help
    [[ "$output" == *"--neighbor auto|bin|multi"* ]]
    [[ "$output" == *"--level-ratio Q"* ]]
    dem-pack --random 20 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --seed 1 > s.dem
    dem-step -q -n 1 --neighbor multi --level-ratio 3 s.dem > a.dem
    "${READ[@]}" --dump a.dem | grep -q "PARM${T}-${T}neighbor.grid${T}multi"
    "${READ[@]}" --dump a.dem | grep -q "PARM${T}-${T}neighbor.level_ratio${T}3"
    # the default, auto, is stored too
    dem-step -q -n 1 s.dem | "${READ[@]}" --dump | grep -q "PARM${T}-${T}neighbor.grid${T}auto"
    # a continuation keeps them
    dem-step -q -n 1 a.dem > b.dem
    "${READ[@]}" --dump b.dem | grep -q "PARM${T}-${T}neighbor.grid${T}multi"
    run --separate-stderr dem-step -q -n 1 --neighbor hash s.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--neighbor: unknown 'hash' (auto, bin, multi)"* ]]
    run --separate-stderr dem-step -q -n 1 --level-ratio 1 s.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"neighbor.level_ratio = 1 must lie in (1, 1e6]"* ]]
}

@test "bin and multi: the same bits on a lognormal periodic gas, 1 and 2 threads, across sorts" {
    # radii over a factor 20 (5 levels), a spinning gas in a periodic cell, 1100 steps: list
    # rebuilds, a spatial sort at step 1000, contacts across the periodic faces
    dem-pack --random 1500 --box 0,0,0,0.006,0.006,0.006 --periodic 0,0,0,0.006,0.006,0.006 \
        --lognormal 1.5e-4,0.5 --velocity-random 0.05 --omega 0,0,20 --seed 4 > ln.dem
    opts="-n 1100 --dt 1e-6 --normal hooke --kn 20"
    run dem-step -q $opts --neighbor bin -o bin1.dem ln.dem
    [ "$status" -eq 0 ]
    run dem-step -q $opts --neighbor multi -o multi1.dem ln.dem
    [ "$status" -eq 0 ]
    run dem-step -q $opts --neighbor multi --threads 2 -o multi2.dem ln.dem
    [ "$status" -eq 0 ]
    run dem-step -q $opts --neighbor bin --threads 2 -o bin2.dem ln.dem
    [ "$status" -eq 0 ]
    state bin1.dem > bin1.txt
    state multi1.dem > multi1.txt
    state multi2.dem > multi2.txt
    state bin2.dem > bin2.txt
    cmp bin1.txt multi1.txt
    cmp bin1.txt multi2.txt
    cmp bin1.txt bin2.txt
    # a test: the gas collided (contacts at the end, friction and damping dissipated)
    n=$(dem-probe --last bin1.dem 2>/dev/null | col contacts)
    [ "$n" -gt 50 ]
    # the streams differ in the setting that names the backend
    "${READ[@]}" --dump multi1.dem | grep -q "PARM${T}-${T}neighbor.grid${T}multi"
}

@test "bin and multi: the same bits in a walled bidisperse pour whose fines ignore each other" {
    # size ratio 8, gravity, six walls; fines (group 2) pass through each other (--ignore 2:2)
    dem-pack --random 1200 --box 0,0,0,0.012,0.012,0.012 --bidisperse 8e-4,1e-4,0.99 --enclose --seed 9 \
        --young 1e7 --friction 0.4 --restitution 0.7 --velocity-random 0.1 \
        --group '2:radius=0,2e-4' > bi.dem
    opts="-n 3000 --gravity 0,0,-9.81 --ignore 2:2 --dt 1e-6"
    run dem-step -q $opts --neighbor bin -o bin.dem bi.dem
    [ "$status" -eq 0 ]
    run dem-step -q $opts -o auto.dem bi.dem
    [ "$status" -eq 0 ]
    run dem-step -q $opts --threads 2 --neighbor multi -o multi2.dem bi.dem
    [ "$status" -eq 0 ]
    state bin.dem > bin.txt
    state auto.dem > auto.txt
    state multi2.dem > multi2.txt
    cmp bin.txt auto.txt
    cmp bin.txt multi2.txt
    n=$(dem-probe --last bin.dem 2>/dev/null | col contacts)
    [ "$n" -gt 5 ]
    # and lost energy in collisions on the way
    d=$(dem-energy --last bin.dem | col 'ediss_damp_n[J]')
    awk -v d="$d" 'BEGIN { exit !(d > 0) }'
    # auto chose multi (size ratio 8 > 3)
    run --separate-stderr dem-step -v -n 0 --ignore 2:2 -o /dev/null bi.dem
    [[ "$stderr" == *"neighbour search multi (neighbor.grid auto)"* ]]
}

@test "multi's levels: radii in (r_max/Q^(L+1), r_max/Q^L], empty levels dropped" {
    dem-pack --random 1000 --box 0,0,0,0.01,0.01,0.01 --bidisperse 1e-3,1e-4,0.5 --seed 2 > bi.dem
    nbig=$(dem-probe --particles bi.dem | col 'r[m]' | awk '$1 == 1e-3 || $1 == 0.001' | wc -l)
    run --separate-stderr dem-step -v -n 0 --dt 1e-7 -o /dev/null bi.dem
    [[ "$stderr" == *"2 levels by radius ratio 2: r_max 0.001 m ($nbig particles), r_max 0.0001 m ($((1000 - nbig)) particles)"* ]]
    # a lognormal spread, levels counted independently from the radii (ratio 1.5)
    dem-pack --random 800 --box 0,0,0,0.006,0.006,0.006 --lognormal 1.5e-4,0.5 --seed 4 > ln.dem
    want=$(dem-probe --particles ln.dem | col 'r[m]' | sort -g | awk '
        { r[NR] = $1 } END {
            rmax = r[NR]
            for (i = 1; i <= NR; i++) { l = int(log(rmax / r[i]) / log(1.5)); c[l]++; if (r[i] > m[l]) m[l] = r[i] }
            n = 0; s = ""
            for (l = 0; l < 16; l++) if (c[l]) { s = s (n ? "," : "") sprintf(" r_max %g m (%d particles)", m[l], c[l]); n++ }
            printf "%d levels by radius ratio 1.5:%s", n, s }')
    run --separate-stderr dem-step -v -n 0 --dt 1e-7 --neighbor multi --level-ratio 1.5 -o /dev/null ln.dem
    [[ "$stderr" == *"$want"* ]]
    [[ "$want" == "7 levels"* || "$want" == "6 levels"* || "$want" == "8 levels"* ]]
}

@test "interaction masks prune pairs before any distance test" {
    # 11 spheres of 1 mm among 589 fines of 0.1 mm (group 2)
    dem-pack --random 600 --box 0,0,0,0.01,0.01,0.01 --bidisperse 1e-3,1e-4,0.95 --seed 3 \
        --group '2:radius=0,2e-4' > bi.dem
    tests() { dem-step -v -n 0 --dt 1e-7 -o /dev/null "$@" bi.dem 2>&1 | sed -n 's/.*first build: \([0-9]*\) distance tests.*/\1/p'; }
    # every particle ignores every other: not one distance is computed, with either grid
    [ "$(tests --neighbor bin --ignore 1:1,2:2,1:2)" -eq 0 ]
    [ "$(tests --neighbor multi --ignore 1:1,2:2,1:2)" -eq 0 ]
    # fines that ignore each other: the hierarchical grid tests only fine-large pairs (each fine
    # against the large spheres of the few coarse cells it meets) and large-large ones
    all=$(tests --neighbor multi)
    pruned=$(tests --neighbor multi --ignore 2:2)
    bigs=$(tests --neighbor multi --ignore 1:2,2:2)
    [ "$pruned" -lt "$all" ]
    [ "$bigs" -gt 0 ]
    [ "$bigs" -le 55 ]     # at most once per pair of the 11
    [ $((pruned - bigs)) -le $((589 * 11)) ]
    # and the single-level grid, whose cells are sized for the large spheres, tests ten times more
    [ $((10 * all)) -lt "$(tests --neighbor bin)" ]
}

@test "the time-step estimate counts only pairs that can collide" {
    # a fixed bed of large spheres and free fines in group 2 that ignore each other: the fine-fine
    # collision never happens, the fine-large one does (hooke, kn given: tc = pi sqrt(m*/kn))
    dem-pack --random 60 --box 0,0,0,0.01,0.01,0.01 --bidisperse 1e-3,1e-4,0.9 --seed 5 \
        --fixed radius=5e-4,2e-3 --group '2:radius=0,5e-4' > bed.dem
    tc() { dem-step -n 0 --normal hooke --kn 1000 --dt 1e-7 -o /dev/null "$@" bed.dem 2>&1 | sed -n 's/.*collision time tc = \([^ ]*\) s.*/\1/p'; }
    mf=$(awk 'BEGIN { printf "%.17g", 4 / 3 * 3.141592653589793 * 1e-12 * 2500 }')
    ml=$(awk 'BEGIN { printf "%.17g", 4 / 3 * 3.141592653589793 * 1e-9 * 2500 }')
    ff=$(awk -v m="$mf" 'BEGIN { printf "%.4g", 3.141592653589793 * sqrt(m / 2 / 1000) }')
    fl=$(awk -v a="$mf" -v b="$ml" 'BEGIN { printf "%.4g", 3.141592653589793 * sqrt(a * b / (a + b) / 1000) }')
    [ "$(tc)" = "$ff" ]
    [ "$(tc --ignore 2:2)" = "$fl" ]
    # large-large pairs are both fixed: with the fines gone from each other and from the bed, no
    # pair can collide, and the estimate falls back on each particle against its like
    [ "$(tc --ignore 2:2,1:2)" = "$ff" ]
}
