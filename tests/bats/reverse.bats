#!/usr/bin/env bats
# dem-reverse and the exact mode: options, refusals, --force, reversal to round-off and bit for bit.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    # Hanley §3.2.1: two spheres of 1 cm, A moving at (0.9, 0.1, 0) m/s towards B
    printf 'id\tx\ty\tz\tr\tvx\tvy\tvz\n1\t0\t0\t0\t0.005\t0.9\t0.1\t0\n2\t0.0101\t0\t0\t0.005\t0\t0\t0.1\n' > two.tsv
    dem-pack --from two.tsv --density 1000 --young 4.8e6 --poisson 0.2 --friction 0 --restitution 1 > two.dem
    FRICTIONLESS=(--normal hertz --tangential none --damping none)
    dem-step -q "${FRICTIONLESS[@]}" --dt 1e-7 -n 15000 two.dem > fwd.dem
}

# particle state per id, one line each, exact digits: id x y z vx vy vz wx wy wz fx fy fz r
# (of the last frame)
state() { dem-probe --particles --last "$1" | tail -n +2 | cut -f4- | sort -n; }

@test "--help teaches on stdout and exits 0" {
    run --separate-stderr dem-reverse --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"Usage: dem-reverse"* ]]
    [[ "$output" == *"eqs"*"17-20"* ]]
    [[ "$output" == *"--exact[=Q]"* ]]
    [[ "$output" == *"--force"* ]]
    [ -z "$stderr" ]
}

@test "usage errors exit 2 with a pointer to --help" {
    for args in "" "-n 5 --time 1" "-n x" "-n 5 --threads 0" "-n 5 --exact=3e-17" "-n 5 --exact=2^x" \
                "-n 5 --dt 1e-7" "-n 5 fwd.dem fwd.dem"; do
        run --separate-stderr dem-reverse $args fwd.dem
        [ "$status" -eq 2 ] || { echo "args '$args': status $status"; return 1; }
        [[ "$stderr" == *"Try 'dem-reverse --help'"* ]] || { echo "args '$args': $stderr"; return 1; }
    done
}

@test "data errors exit 1: no frame, a frame never advanced" {
    run --separate-stderr dem-reverse -n 5 /dev/null
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-reverse: empty input: no frame (0 bytes)" ]
    run --separate-stderr dem-reverse -n 5 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-reverse: the frame has no time step"* ]]
}

@test "the two-particle collision comes back to its start within round-off, time decreasing" {
    dem-reverse -n 15000 --every 5000 fwd.dem > back.dem
    run dem-count < back.dem
    [[ "$output" == "frames=3 "* ]]
    dem-probe back.dem | awk -F'\t' 'NR > 1 { print $2, $3 }' > times
    awk 'NR == 1 { ok = ($1 == 20000 && $2 > 0.00099 && $2 < 0.00101) } NR == 3 { ok = ok && ($1 == 30000 && $2 < 1e-15 && $2 > -1e-15) }
         END { exit !ok }' times
    paste <(state two.dem) <(state back.dem) | awk '{
        for (k = 2; k <= 7; k++) { d = $k - $(k + 14); if (d < 0) d = -d; if (d > m) m = d }
    } END { print "largest difference", m; exit !(m < 1e-14) }'
    # the forward run did move them
    ! cmp -s <(state two.dem) <(state fwd.dem)
}

@test "--exact: forward and back returns the snapped start bit for bit, on any thread count" {
    dem-step -q --exact "${FRICTIONLESS[@]}" --dt 1e-7 -n 0 two.dem > snap.dem
    dem-step -q -n 15000 snap.dem | dem-reverse -q -n 15000 --threads 2 > back.dem
    cmp <(state snap.dem) <(state back.dem)
    [ "$(dem-probe back.dem | awk -F'\t' 'NR == 2 { print $3 }')" = 0 ]
    # the quantum is recorded, so both runs used it without being told
    zcat back.dem | grep -aq "exact.quantum"
    # --no-exact reverses in floating point: close, not the same bits
    dem-step -q -n 15000 snap.dem | dem-reverse -q --no-exact -n 15000 > float.dem
    ! cmp -s <(state snap.dem) <(state float.dem)
}

@test "--exact with --time: dt is kept (the lattice is tied to it), so forward and back by time is bit for bit" {
    dem-step -q --exact "${FRICTIONLESS[@]}" --dt 1e-7 -n 0 two.dem > start.dem
    # 0.00150000005 s is no whole number of 1e-7 s steps: outside exact mode dt would become T/n
    dem-step --time 0.00150000005 start.dem 2> err > f.dem
    grep -q 'the exact mode keeps dt' err
    [ "$(dem-probe --last f.dem | awk -F'\t' 'NR == 2 { print $2 }')" = 15001 ]
    dem-reverse -q --time 0.00150000005 f.dem > b.dem
    [ "$(state start.dem)" = "$(state b.dem)" ]
}

@test "--exact on a chaotic gas in a walled box: bit for bit where floating point drifts" {
    dem-pack --random 200 --box 0,0,0,0.01,0.01,0.01 --radius 4e-4 --enclose --velocity-random 0.5 \
             --friction 0 --restitution 1 --seed 7 > gas.dem
    dem-step -q --exact --normal hooke --kn 1e4 --tangential none --damping none --dt 2e-6 -n 0 gas.dem > snap.dem
    dem-step -q -n 4000 snap.dem > out.dem
    dem-reverse -q -n 4000 out.dem > back.dem
    cmp <(state snap.dem) <(state back.dem)
    dem-step -q --no-exact -n 4000 snap.dem | dem-reverse -q -n 4000 > float.dem
    ! cmp -s <(state snap.dem) <(state float.dem)
}

@test "a moving wall goes back where it came from" {
    dem-pack --random 60 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose --velocity-random 0.2 \
             --friction 0 --restitution 1 --seed 3 > box.dem
    dem-step -q --exact --normal hooke --kn 1e4 --tangential none --damping none --dt 2e-6 \
             --wall-velocity 5=0,0,-0.05 -n 0 box.dem > snap.dem
    dem-step -q -n 3000 snap.dem > out.dem
    dem-reverse -q -n 3000 out.dem > back.dem
    # the solid fraction is that of the box the six walls bound
    dem-probe snap.dem | cut -f8 > w0
    dem-probe out.dem | cut -f8 > w1
    dem-probe back.dem | cut -f8 > w2
    ! cmp -s w0 w1 || false
    cmp w0 w2
    cmp <(state snap.dem) <(state back.dem)
}

@test "irreversible settings are refused before any step, each named with its reason" {
    dem-pack --from two.tsv --friction 0.5 --restitution 0.7 > rough.dem
    dem-step -q --local-damping 0.1 -n 10 rough.dem > rough-run.dem
    run --separate-stderr dem-reverse -n 10 rough-run.dem
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *"cannot reverse tangential springs"*"reset to zero"* ]]
    [[ "$stderr" == *"cannot reverse Coulomb friction (friction up to 0.5)"* ]]
    [[ "$stderr" == *"cannot reverse contact damping from the coefficient of restitution (down to 0.7)"* ]]
    [[ "$stderr" == *"cannot reverse local damping (damping.local 0.1)"* ]]
    [[ "$stderr" == *"dem-reverse: 4 irreversible mechanisms in the frame's settings; nothing was run (--force runs anyway)" ]]
    dem-step -q --tangential none --damping viscous --gamma-n 0.01 -n 10 rough.dem > visc.dem
    run --separate-stderr dem-reverse -n 10 visc.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"cannot reverse viscous contact damping (gamma_n 0.01"* ]]
    [[ "$stderr" == *"1 irreversible mechanism in"* ]]
}

@test "a stress-controlled cell is refused" {
    command -v python3 >/dev/null || skip "python3 is needed to craft the frame"
    dem-pack --lattice sc --periodic lattice --cells 2,2,2 --radius 0.001 --friction 0 --restitution 1 |
        dem-step -q --tangential none --damping none -n 1 |
        python3 -S "$REPO/tests/independent/demcraft.py" --set 'CELL:0:4:I:1' > servo.dem
    run --separate-stderr dem-reverse -n 1 servo.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"cannot reverse a stress-controlled cell"* ]]
}

@test "--force runs an irreversible system anyway, with warnings, and does not come back" {
    printf 'id\tx\ty\tz\tr\tvx\tvy\n1\t0\t0\t0\t0.005\t0.9\t0.1\n2\t0.0101\t0.002\t0\t0.005\t0\t0\n' > oblique.tsv
    dem-pack --from oblique.tsv --density 1000 --young 4.8e6 --poisson 0.2 --friction 0.3 --restitution 0.8 > rough.dem
    dem-step -q --dt 1e-7 -n 15000 rough.dem > rough-run.dem
    run --separate-stderr bash -c 'dem-reverse --force -n 15000 rough-run.dem > back.dem'
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: irreversible: tangential springs"* ]]
    [[ "$stderr" == *"warning: irreversible: Coulomb friction"* ]]
    # the spheres do not return: the velocities miss theirs by far more than round-off (the
    # tangential spring's stretch at separation, 1e-16 for a frictionless reversal)
    paste <(state rough.dem) <(state back.dem) | awk '{
        for (k = 5; k <= 7; k++) { d = $k - $(k + 14); if (d < 0) d = -d; if (d > m) m = d }
    } END { print "largest velocity difference", m; exit !(m > 1e-4) }'
}

@test "exact mode refuses what the lattice cannot carry, and values that leave its range" {
    run --separate-stderr dem-step --exact -n 1 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"exact mode: the tangential model 'history' exerts torques"* ]]
    run --separate-stderr dem-step --exact "${FRICTIONLESS[@]}" --drag 0.9 --dt 1e-7 -n 1 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"drag"*"one to one"* ]]
    run --separate-stderr dem-step --exact=2^-70 "${FRICTIONLESS[@]}" --dt 1e-7 -n 1 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"particle 2"*"beyond the lattice's range"* ]]
    # a sphere flying out of a 2^53 2^-60 m = 7.8 mm range
    printf 'x\ty\tz\tr\tvx\n0.007\t0\t0\t0.001\t10\n' | dem-pack --from - > fly.dem
    run --separate-stderr dem-step -q --exact=2^-60 "${FRICTIONLESS[@]}" --dt 1e-5 -n 100 fly.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-step: step 9: the position of particle 1 leaves the range of the exact lattice"* ]]
}

@test "reversed frames carry the forward frames' times, in reverse order" {
    dem-step -q -n 15000 --every 5000 fwd.dem > fwd3.dem
    dem-reverse -q -n 15000 --every 5000 fwd3.dem > back3.dem
    # forward times of frames 15000, 20000, 25000 (and the start, step 15000 of fwd.dem)
    { dem-probe fwd.dem; dem-probe fwd3.dem; } | awk -F'\t' '$1 != "frame" { print $3 }' | head -n 3 | tac > want
    dem-probe back3.dem | awk -F'\t' 'NR > 1 { print $3 }' > got
    cmp want got
    # steps keep counting up
    [ "$(dem-probe back3.dem | awk -F'\t' 'NR > 1 { printf "%s ", $2 }')" = "35000 40000 45000 " ]
}

@test "exact mode: a reversed run that leaves the lattice's range stops with a clear error" {
    # a sphere flying towards -x reaches |x| = 7.8 mm (2^53 quanta of 2^-60 m) going backwards
    printf 'x\ty\tz\tr\tvx\n0.007\t0\t0\t0.001\t-10\n' | dem-pack --from - > flyb.dem
    dem-step -q --exact=2^-60 "${FRICTIONLESS[@]}" --dt 1e-5 -n 0 flyb.dem > flyb0.dem
    run --separate-stderr dem-reverse -q -n 100 flyb0.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-reverse: step 9: the position of particle 1 leaves the range of the exact lattice"*"choose a coarser --exact quantum" ]]
}

@test "exact mode: a moving wall that leaves the lattice's range is an error in dem-step, not in the next dem-reverse" {
    dem-pack --random 1 --box 0,0,0,0.01,0.01,0.01 --radius 1e-3 --enclose --seed 1 > one.dem
    # default quantum 2^-57 m: range |x| < 0.0625 m; the lid travels 6 m
    run --separate-stderr dem-step -q --exact "${FRICTIONLESS[@]}" --dt 1e-5 --wall-velocity 5=0,0,6000 --stop-move 0 -n 100 one.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"the point of wall 5 leaves the range of the exact lattice"*"choose a coarser --exact quantum"* ]]
}
