#!/usr/bin/env bats
# dem-step --until ke=E / unbalanced=U (alone and together), --time landing on T, --every-time.
load helpers

T=$'\t'

setup() {
    cd "$BATS_TEST_TMPDIR"
    READ=(python3 -S "$BATS_TEST_DIRNAME/../independent/demread.py")
    # 200 soft spheres at rest in a walled box: they fall, hit the floor and settle
    dem-pack --random 200 --box 0,0,0,0.005,0.005,0.01 --radius 4e-4 --young 5e6 --enclose --seed 2 > bed.dem
    RUN=(--gravity 0,0,-9.81 --dt 2e-6 --local-damping 0.2)
}

stop_of() { "${READ[@]}" --dump "$1" | awk -F'\t' '$2 == "PARM" && $4 == "meta.stop" { v = $5 } END { print v }'; }
step_of() { dem-probe --last "$1" | awk -F'\t' 'NR == 2 { print $2 }'; }
# kinetic energy per particle (translational + rotational; no particle is fixed here)
ke_of() { dem-energy --last "$1" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%.17g\n", ($c["ekin_t[J]"] + $c["ekin_r[J]"]) / 200 }'; }
# mean |net force| over the particles / mean |contact force| over the contacts in touch, from the frame
ratio_of() {
    local fnet fc
    fnet=$(dem-probe --particles --last "$1" | awk -F'\t' 'NR > 1 { s += sqrt($14^2 + $15^2 + $16^2); n++ } END { printf "%.17g", s / n }')
    fc=$(dem-probe --contacts --last "$1" | awk -F'\t' 'NR > 1 && $10 > 0 { s += sqrt(($14+$17)^2 + ($15+$18)^2 + ($16+$19)^2); n++ } END { printf "%.17g", s / n }')
    awk -v a="$fnet" -v b="$fc" 'BEGIN { printf "%.17g\n", a / b }'
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

@test "until: --help teaches ke, unbalanced, --time landing on T and --every-time" {
    run --separate-stderr dem-step --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--until ke=E"* && "$output" == *"--until unbalanced=U"* && "$output" == *"--every-time DT"* ]]
    [[ "$output" == *"T/n"* ]]
}

@test "until: usage errors exit 2 and say what is wrong" {
    check() {
        run --separate-stderr dem-step -n 5 "$@" bed.dem
        [ "$status" -eq 2 ] || { echo "$*: status $status"; return 1; }
        [[ "$stderr" == *"Try 'dem-step --help'"* ]] || { echo "$*: $stderr"; return 1; }
        echo "$stderr"
    }
    check --until ke=0 | grep -q "must be > 0"
    check --until ke=x | grep -q "'x'"
    check --until unbalanced=-1 | grep -q "must be > 0"
    check --until ke-ratio=0.1 | grep -q "is not stress, strain=IJ:E, ke=E or unbalanced=U"
    check --until settled | grep -q "is not stress"
    check --until ke=1 --until ke=2 | grep -q "ke given twice"
    check --every 5 --every-time 0.01 | grep -q "exclude each other"
    check --every-time 0 | grep -q "must be a positive time"
}

@test "until: ke=E stops at the first step below E after the bed has moved, never at rest" {
    dem-step -q -n 200000 "${RUN[@]}" --until ke=1e-11 bed.dem > k.dem
    [ "$(stop_of k.dem)" = ke ]
    s=$(step_of k.dem)
    echo "stopped at step $s, ke $(ke_of k.dem) J per particle"
    # not at step 1 (at rest, the kinetic energy is below E before anything happened)
    (( s > 10000 && s < 200000 ))
    lt "$(ke_of k.dem)" 1e-11
    # the step before was at or above E
    dem-step -q -n $((s - 1)) "${RUN[@]}" bed.dem > k1.dem
    ! lt "$(ke_of k1.dem)" 1e-11 || false
    # a system that never moves runs its count, and says so
    dem-step -q -n 30 --until ke=1e-11 bed.dem > rest.dem
    [ "$(stop_of rest.dem)" = steps ] && [ "$(step_of rest.dem)" = 30 ]
}

@test "until: unbalanced=U stops at the first step with every particle resting and the ratio below U" {
    dem-step -q -n 200000 "${RUN[@]}" --until unbalanced=1e-2 bed.dem > u.dem
    [ "$(stop_of u.dem)" = unbalanced ]
    s=$(step_of u.dem)
    echo "stopped at step $s, ratio $(ratio_of u.dem)"
    (( s > 10000 && s < 200000 ))
    lt "$(ratio_of u.dem)" 1e-2
    dem-step -q -n $((s - 1)) "${RUN[@]}" bed.dem > u1.dem
    ! lt "$(ratio_of u1.dem)" 1e-2 || false
    # a settled bed: coordination above 3, kinetic energy far below the fall's
    awk -F'\t' 'NR == 2 { exit !($7 > 3) }' <(dem-probe u.dem)
    lt "$(ke_of u.dem)" 1e-11
    # without contacts nothing is balanced: a gas at rest runs its count
    dem-step -q -n 30 --until unbalanced=1e-2 bed.dem > gas.dem
    [ "$(stop_of gas.dem)" = steps ]
}

@test "until: conditions given together must all hold; meta.stop names them; -n stays the limit" {
    dem-step -q -n 200000 "${RUN[@]}" --until ke=1e-12 --until unbalanced=1e-2 bed.dem > b.dem
    [ "$(stop_of b.dem)" = "ke+unbalanced" ]
    lt "$(ke_of b.dem)" 1e-12
    lt "$(ratio_of b.dem)" 1e-2
    # -n is the most the run takes
    dem-step -q -n 1000 "${RUN[@]}" --until ke=1e-12 --until unbalanced=1e-2 --every 400 bed.dem > c.dem
    [ "$(stop_of c.dem)" = steps ]
    [ "$(step_of c.dem)" = 1000 ]
    "${READ[@]}" --dump c.dem | grep -c "meta.stop${T}running" | grep -qx 2
}

@test "until: --time T lands on T; continuations keep its dt, -n splits stay the same bits" {
    dem-step --time 0.08 --gravity 0,0,-9.81 --local-damping 0.2 bed.dem 2> err > t.dem
    [[ "$(cat err)" == *"--time 0.08 s: 44722 steps of dt = 1.7888287643665311e-06 s (T/n"* ]]
    [ "$(dem-probe t.dem | awk -F'\t' 'NR == 2 { print $2, $3 }')" = "44722 0.08" ]
    # the frame carries dt = T/n: a continuation by -n is the same bits as the unsplit run
    dem-step -q -n 100 t.dem > a.dem
    dem-step -q -n 50 t.dem | dem-step -q -n 50 > b.dem
    cmp a.dem b.dem
    # and --time with it keeps dt (T is a whole number of its steps)
    dem-step -q --time 0.04 t.dem 2> err > c.dem
    [ ! -s err ]
    [ "$(dem-probe c.dem | awk -F'\t' 'NR == 2 { print $3 }')" = 0.12 ]
    # a dt that divides T is kept as given
    dem-step --time 1e-4 --dt 1e-6 bed.dem 2> err | dem-probe | awk -F'\t' 'NR == 2 { exit !($2 == 100 && $3 == 1e-4) }'
    [[ "$(cat err)" != *"T/n"* ]]
}

@test "until: --every-time DT writes a frame at each multiple of DT from time 0, and the last" {
    # T a multiple of DT: every DT is a whole number of steps, the frames land on the multiples
    dem-step -q --time 0.1 --every-time 0.01 --gravity 0,0,-9.81 bed.dem | dem-probe > f.tsv
    [ "$(wc -l < f.tsv)" -eq 11 ]
    awk -F'\t' 'NR > 1 { t = (NR - 1) * 0.01; d = $3 - t; if (d < 0) d = -d; if (d > 1e-12) exit 1 }' f.tsv
    [ "$(tail -n 1 f.tsv | cut -f 3)" = 0.1 ]
    # otherwise: the first step at or past each multiple (to dt/1000), and the last frame at T;
    # a continuation keeps counting from time 0
    dem-step -q --time 0.035 --every-time 0.01 --gravity 0,0,-9.81 bed.dem > e.dem
    dem-step -q --time 0.035 --every-time 0.01 e.dem | dem-probe > g.tsv
    dem-probe e.dem | tail -n +2 | cat - <(tail -n +2 g.tsv) | cut -f 3 > times
    cat times
    [ "$(wc -l < times)" -eq 8 ]
    # dt = 1.79e-6 s: within a step after the multiple, or dt/1000 before it
    awk 'NR != 4 && NR != 8 { k = (NR < 4 ? NR : NR - 1); d = $1 - 0.01 * k; if (d < -2e-9 || d > 1.8e-6) exit 1 }' times
    [ "$(sed -n 4p times)" = 0.035 ] && [ "$(sed -n 8p times)" = 0.07 ]
}
