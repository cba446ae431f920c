#!/usr/bin/env bats
# dem-step: options, errors, determinism, boundaries, signals.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    # two spheres about to collide head-on, and a small settling heap
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t0.1\n2\t0.00201\t0\t0\t0.001\t-0.1\n' > two.tsv
    dem-pack --from two.tsv > two.dem
    dem-pack --random 150 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --seed 3 \
             --velocity-random 0.05 > heap.dem
}

@test "--help teaches on stdout and exits 0" {
    run --separate-stderr dem-step --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"Usage: dem-step"* ]]
    [[ "$output" == *"--integrator vv|vv-improved"* ]]
    [[ "$output" == *"--every K"* ]]
    [ -z "$stderr" ]
}

@test "usage errors exit 2 with a pointer to --help" {
    for args in "" "-n 5 --time 1" "-n x" "-n 5 --integrator euler" "-n 5 --kn 1 --kn-from yade" \
                "-n 5 --threads 0" "-n 5 --dt -1" "-n 5 --normal spring" "-n 5 --damping maybe" \
                "-n 5 --local-damping 1.5" "-n 5 --drag 0" "-n 5 --ignore 0:1" "-n 5 two.dem two.dem"; do
        run --separate-stderr dem-step $args two.dem
        [ "$status" -eq 2 ] || { echo "args '$args': status $status"; return 1; }
        [[ "$stderr" == *"Try 'dem-step --help'"* ]] || { echo "args '$args': $stderr"; return 1; }
    done
}

@test "data errors exit 1 with a message" {
    run --separate-stderr dem-step -n 5 /dev/null
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-step: empty input: no frame (0 bytes)" ]
    run --separate-stderr dem-step -n 5 nonexistent.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-step: cannot open 'nonexistent.dem'"* ]]
    run --separate-stderr dem-step -n 5 --wall-velocity 3=0,0,1 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"wall 3 does not exist"* ]]
}

@test "hooke without a stiffness is refused before any step" {
    run --separate-stderr dem-step -n 5 --normal hooke --kn 0 two.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"needs a positive kn"* ]]
}

@test "a frame with an unknown setting is refused, meta. and x- keys are not" {
    command -v python3 >/dev/null || skip "python3 missing"
    python3 -S "$REPO/tests/independent/demcraft.py" --parm model.future=s:hello < two.dem > b.dem
    run --separate-stderr dem-step -n 1 b.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"unknown setting 'model.future'"* ]]
    python3 -S "$REPO/tests/independent/demcraft.py" --parm x-note=s:hello --parm meta.lab=s:here < two.dem > c.dem
    dem-step -q -n 1 c.dem > /dev/null
}

@test "the time-step estimates are reported, and a large dt is warned about" {
    run --separate-stderr dem-step -n 1 two.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == "dem-step: dt = "*"collision time tc = "*"p-wave"*"global stiffness"* ]]
    run --separate-stderr dem-step -n 1 -q two.dem
    [ -z "$stderr" ]
    run --separate-stderr dem-step -n 1 -q --dt 1e-4 two.dem
    [[ "$stderr" == *"warning: dt = 0.0001 s is more than a tenth of the collision time"* ]]
}

@test "-n 2N and -n N | -n N give the same bits; so do repeated runs" {
    dem-step -q -n 400 --gravity 0,0,-9.81 --local-damping 0.1 heap.dem > a.dem
    dem-step -q -n 200 --gravity 0,0,-9.81 --local-damping 0.1 heap.dem | dem-step -q -n 200 > b.dem
    cmp a.dem b.dem
    dem-step -q -n 400 --gravity 0,0,-9.81 --local-damping 0.1 heap.dem > c.dem
    cmp a.dem c.dem
}

@test "a dense frictional pour: the same bits split at odd steps, across thread counts and list rebuilds" {
    # hundreds of contacts spread over many particle blocks, and neighbour lists that differ
    # between a run and its continuation (a continuation builds its list afresh): the energy
    # books, summed by blocks, must not notice
    dem-pack --random 1200 --box 0,0,0,0.01,0.01,0.012 --radius 4e-4 --enclose --seed 7 \
             --young 1e6 --friction 0.5 --restitution 0.8 --velocity-random 0.3 > dense.dem
    opts="--gravity 0,0,-9.81 --integrator vv"
    dem-step -q -n 301 $opts dense.dem > a.dem
    dem-step -q -n 77 $opts dense.dem | dem-step -q -n 1 --threads 2 | dem-step -q -n 223 > b.dem
    cmp a.dem b.dem
    # it is a test: the run has contacts and dissipates by friction and damping
    run dem-energy --last a.dem
    [ "$status" -eq 0 ]
    echo "$output" | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k }
                                 NR == 2 { exit !($c["ediss_friction[J]"] > 0 && $c["ediss_damp_n[J]"] > 0) }'
    [ "$(dem-probe a.dem | awk -F'\t' 'NR == 2 { print $5 }')" -gt 200 ]
}

@test "--threads 1 and --threads 2 give the same bits" {
    dem-step -q -n 300 --gravity 0,0,-9.81 --threads 1 heap.dem > a.dem
    dem-step -q -n 300 --gravity 0,0,-9.81 --threads 2 heap.dem > b.dem
    cmp a.dem b.dem
}

@test "a tiny system runs one thread whatever --threads says, and one thread never enters the OpenMP runtime" {
    dem-step -n 1000 --threads 2 two.dem 2> err > a.dem
    grep -q -- '--threads 2: running 1 for 2 particles (at most one thread per 64' err
    dem-step -q -n 1000 --threads 1 two.dem > b.dem
    cmp a.dem b.dem
    # 150 particles: two threads run (no note), the same bits
    dem-step -n 10 --threads 2 heap.dem 2> err > /dev/null
    ! grep -q -- 'running 1' err || false
    # the team's start and barrier are futex calls: a thousand steps of one thread make none per step
    command -v strace > /dev/null || skip "strace is not installed"
    # (LeakSanitizer cannot run under ptrace: make check's build runs without it here)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -c -e trace=futex -o trace dem-step -q -n 1000 --threads 1 two.dem > /dev/null
    calls=$(awk '$NF == "futex" { print $4 }' trace)
    [ "${calls:-0}" -lt 100 ] || { cat trace; false; }
}

@test "settings given on the command line are stored and carried on" {
    dem-step -q -n 100 --normal hooke --kn 2e4 --damping viscous --gamma-n 0.01 --integrator vv heap.dem > a.dem
    dem-step -q -n 50 --normal hooke --kn 2e4 --damping viscous --gamma-n 0.01 --integrator vv heap.dem |
        dem-step -q -n 50 > b.dem
    cmp a.dem b.dem
    # and they differ from the defaults
    dem-step -q -n 100 heap.dem > c.dem
    ! cmp -s a.dem c.dem
}

@test "--every K writes frames K, 2K, ... and always the last" {
    dem-step -q -n 25 --every 10 two.dem > a.dem
    run dem-probe a.dem
    [ "${#lines[@]}" -eq 4 ]
    [ "$(cut -f 2 <<< "${lines[1]}")" = 10 ]
    [ "$(cut -f 2 <<< "${lines[2]}")" = 20 ]
    [ "$(cut -f 2 <<< "${lines[3]}")" = 25 ]
}

@test "--time T runs ceil(T/dt) steps and --dt sets the step" {
    dem-step -q --time 1e-4 --dt 1e-6 two.dem > a.dem
    run dem-probe a.dem
    [ "$(cut -f 2 <<< "${lines[1]}")" = 100 ]
    awk -F'\t' 'NR == 2 { if ($3 < 0.99e-4 || $3 > 1.01e-4) exit 1 }' <<< "$output"
}

@test "the collision of two spheres conserves momentum and swaps their velocities" {
    dem-step -q -n 3000 --damping none --tangential none two.dem > a.dem
    run dem-probe --particles a.dem
    v1=$(awk -F'\t' 'NR == 2 { print $8 }' <<< "$output")
    v2=$(awk -F'\t' 'NR == 3 { print $8 }' <<< "$output")
    awk -v a="$v1" -v b="$v2" 'BEGIN { exit !(a < -0.0999 && a > -0.1001 && b > 0.0999 && b < 0.1001 && (a + b)^2 < 1e-24) }'
}

@test "a sphere dropped on a wall comes to rest on it" {
    printf 'x\ty\tz\tr\n0\t0\t0.003\t0.001\n' | dem-pack --from - --wall z=0 > drop.dem
    dem-step -q --time 0.3 --gravity 0,0,-9.81 --local-damping 0.3 drop.dem > a.dem
    run dem-probe --particles a.dem
    z=$(awk -F'\t' 'NR == 2 { print $7 }' <<< "$output")
    vz=$(awk -F'\t' 'NR == 2 { print $10 }' <<< "$output")
    awk -v z="$z" -v v="$vz" 'BEGIN { exit !(z > 0.00099 && z < 0.001 && v * v < 1e-8) }'
    run dem-probe --contacts a.dem
    [ "$(awk -F'\t' 'NR == 2 { print $6 }' <<< "$output")" = 1 ] # a wall contact
}

@test "a moving wall pushes: --wall-velocity and walls moving from dem-pack" {
    printf 'x\ty\tz\tr\n0\t0\t0.0010001\t0.001\n' | dem-pack --from - --wall 'z=0@0,0,0.01' > w.dem
    dem-step -q --time 2e-4 --dt 2e-8 --damping none w.dem > a.dem
    run dem-probe --particles a.dem
    vz=$(awk -F'\t' 'NR == 2 { print $10 }' <<< "$output")
    awk -v v="$vz" 'BEGIN { exit !(v > 0.019 && v < 0.021) }' # elastic bounce off a wall at 0.01 m/s
    printf 'x\ty\tz\tr\n0\t0\t0.0010001\t0.001\n' | dem-pack --from - --wall z=0 |
        dem-step -q --time 2e-4 --dt 2e-8 --damping none --wall-velocity 0=0,0,0.01 > b.dem
    cmp a.dem b.dem
}

@test "fixed particles stay put and still push" {
    printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0\t0\t0\t0.001\t0\t1\n2\t0.00201\t0\t0\t0.001\t-0.1\t0\n' | dem-pack --from - > f.dem
    dem-step -q -n 3000 --damping none --tangential none f.dem > a.dem
    run dem-probe --particles a.dem
    [ "$(awk -F'\t' 'NR == 2 { print $5 }' <<< "$output")" = 0 ]
    vx=$(awk -F'\t' 'NR == 3 { print $8 }' <<< "$output")
    awk -v v="$vx" 'BEGIN { exit !(v > 0.0999 && v < 0.1001) }'
}

@test "--ignore lets groups pass through each other" {
    dem-step -q -n 3000 --damping none --tangential none --ignore 1:1 two.dem > a.dem
    run dem-probe --particles a.dem
    [ "$(awk -F'\t' 'NR == 2 { print $8 }' <<< "$output")" = 0.1 ]
}

@test "--ignore warns when a rule switches off every contact, or names a group nobody is in (issue 28)" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.003\t0\t0\t0.001\n3\t0.006\t0\t0\t0.001\n' | dem-pack --from - > g1.dem
    # a new user's try: --group 1 on some particles, but every particle starts in group 1
    dem-pack --from g1.dem --group 1:ids=1-2 > g.dem
    run --separate-stderr dem-step -q -n 1 --ignore 1:1 g.dem -o a.dem
    [ "$status" -eq 0 ]
    echo "$stderr"
    [[ "$stderr" == *"warning: --ignore 1:1: all 3 particles are in group 1 (every particle starts in group 1): no two particles interact"* ]]
    # a group no particle is in; rules that together leave no pair
    run --separate-stderr dem-step -q -n 1 --ignore 1:1,3:5 g.dem -o a.dem
    [[ "$stderr" == *"--ignore 3:5: no particle is in group 3: the rule does nothing"* ]]
    dem-pack --from g1.dem --group 2:ids=3 > g2.dem
    run --separate-stderr dem-step -q -n 1 --ignore 1:1,1:2 g2.dem -o a.dem
    [[ "$stderr" == *"the --ignore rules leave no two of the 3 particles that interact"* ]]
    run --separate-stderr dem-step -q -n 1 --ignore 1:2 g2.dem -o a.dem
    [ -z "$stderr" ]
    # what the percolation example does (the bed in group 1, the fines in group 2): nothing to say
    run --separate-stderr dem-step -q -n 1 --ignore 1:1,2:2 g2.dem -o a.dem
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    # the rule stored in a frame is not said again by the stages that continue it
    run --separate-stderr dem-step -q -n 1 a.dem -o b.dem
    [ -z "$stderr" ]
}

@test "a particle leaving a periodic cell comes back on the other side, counting its image" {
    printf 'x\ty\tz\tr\tvx\n0.009\t0.005\t0.005\t0.001\t1\n' |
        dem-pack --from - --periodic 0,0,0,0.01,0.01,0.01 > p.dem
    dem-step -q -n 100 --dt 2e-5 p.dem > a.dem
    run dem-probe --particles --fields ix a.dem
    x=$(awk -F'\t' 'NR == 2 { print $5 }' <<< "$output")
    [ "$(awk -F'\t' 'NR == 2 { print $18 }' <<< "$output")" = 1 ]
    awk -v x="$x" 'BEGIN { exit !(x > 0.000999 && x < 0.001001) }'
}

@test "contacts across a periodic boundary carry their image shift" {
    printf 'id\tx\ty\tz\tr\tvx\n1\t0.0005\t0.005\t0.005\t0.001\t0\n2\t0.00851\t0.005\t0.005\t0.001\t0\n' |
        dem-pack --from - --periodic 0,0,0,0.01,0.01,0.01 > p.dem
    dem-step -q -n 1 --dt 1e-7 p.dem > a.dem
    run dem-probe --contacts a.dem
    [ "${#lines[@]}" -eq 2 ]
    [ "$(cut -f 4,5,7 <<< "${lines[1]}")" = $'1\t2\t-1' ]
}

@test "SIGINT and SIGTERM finish the step, write a last complete frame and exit 130 and 143" {
    dem-pack --random 2000 --box 0,0,0,0.03,0.03,0.03 --radius 5e-4 --enclose --seed 1 > big.dem
    for sig in INT:130 TERM:143; do
        dem-step -q -n 100000000 --gravity 0,0,-9.81 big.dem > out.dem 2> err.txt &
        pid=$!
        sleep 1
        kill -${sig%:*} $pid
        status=0
        wait $pid || status=$?
        [ "$status" -eq "${sig#*:}" ]
        grep -q "interrupted (SIG${sig%:*})" err.txt
        run --separate-stderr dem-probe out.dem
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
    done
}

@test "a frame stored before any step reads back as itself (forces current)" {
    dem-step -q -n 50 --gravity 0,0,-9.81 heap.dem > a.dem
    dem-step -q -n 0 a.dem > b.dem
    cmp a.dem b.dem
}

@test "--group (dem-pack) and --ignore (dem-step): fines ignore fines but not the large spheres" {
    # 2 and 3 are fines (group 2) about to collide with each other; 1 is large (group 1) at rest
    # with 4, a fine, about to hit it
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.002\t0\n2\t0\t0.01\t0\t0.0005\t0.1\n3\t0.00101\t0.01\t0\t0.0005\t-0.1\n4\t-0.00251\t0\t0\t0.0005\t0.1\n' |
        dem-pack --from - --group 2:ids=2-4 > g.dem
    run dem-probe --particles --fields group g.dem
    [ "$(awk -F'\t' 'NR > 1 { printf "%s%s", $18, (NR < 5 ? "," : "") }' <<< "$output")" = "1,2,2,2" ]
    dem-step -q -n 2000 --dt 1e-7 --damping none --tangential none --ignore 2:2 g.dem > a.dem
    run dem-probe --particles a.dem
    # 2 and 3 passed through each other: velocities unchanged
    [ "$(awk -F'\t' '$4 == 2 { print $8 }' <<< "$output")" = 0.1 ]
    [ "$(awk -F'\t' '$4 == 3 { print $8 }' <<< "$output")" = -0.1 ]
    # 4 bounced off 1
    awk -F'\t' '$4 == 4 { exit !($8 < 0) }' <<< "$output"
}

@test "a cylindrical wall keeps a sphere inside it" {
    dem-pack --random 1 --cylinder z,0,0,0.01,0,0.01 --radius 0.001 --young 1e6 --enclose \
             --velocity 0.1,0.03,0 --seed 4 > c.dem
    dem-step -q --time 0.5 --dt 1e-5 --damping none --tangential none c.dem > a.dem
    run dem-probe --particles a.dem
    # elastic bounces: the speed is kept; the centre stays within R - r of the axis
    awk -F'\t' 'NR == 2 { s = sqrt($8 * $8 + $9 * $9); rho = sqrt($5 * $5 + $6 * $6)
                           exit !(s > 0.1043 && s < 0.1045 && rho < 0.009) }' <<< "$output"
}

@test "a time step far too large stops with a clear error and exit 1, never a crash" {
    dem-pack --random 1200 --box 0,0,0,0.01,0.01,0.012 --radius 4e-4 --enclose --seed 7 \
             --velocity-random 0.3 > glass.dem
    run --separate-stderr dem-step -q -n 301 --dt 2e-6 glass.dem
    [ "$status" -eq 1 ]
    # stopped by a guard long before anything is non-finite, naming the time step against tc
    [[ "$stderr" == *"the run is unstable; the time step 2e-06 s is "*" times the collision time "* ]]
}

@test "a wall driven onto a sphere at rest reaches it (walls within the skin are re-found as walls move)" {
    # the sphere never moves by itself, so only the wall's travel can ask for the neighbour
    # rebuild at which the wall comes within reach
    printf 'x\ty\tz\tr\n0.005\t0.005\t0.005\t0.001\n' | dem-pack --from - --young 1e6 --wall z=0.009@0,0,-1 > lid.dem
    dem-step -q --time 0.006 lid.dem > a.dem
    vz=$(dem-probe --particles a.dem | awk -F'\t' 'NR == 2 { print $10 }')
    # pushed ahead of the wall, faster than it (about 2 m/s, less the restitution's loss)
    awk -v v="$vz" 'BEGIN { exit !(v < -1.5 && v > -2.0) }'
}

@test "40 walls: the 40th holds a bouncing sphere, and the 39 out of reach change no bit" {
    far=()
    for k in $(seq 1 39); do far+=(--wall "x=-$k"); done
    common=(--lattice sc --cells 1,1,1 --radius 0.001 --origin 0,0,0.0015 --young 1e7)
    dem-pack "${common[@]}" "${far[@]}" --wall z=0 > many.dem
    dem-pack "${common[@]}" --wall z=0 > one.dem
    for f in many one; do
        dem-step -q --gravity 0,0,-9.81 --time 0.05 --dt auto --every 1000 $f.dem > $f.out.dem
        dem-probe --particles $f.out.dem > $f.tsv
    done
    cmp many.tsv one.tsv
    # column 7 is z: the sphere never sinks through the plane z = 0 (overlap below 10% of r)
    awk -F'\t' 'NR > 1 && $7 < 0.0009 { bad = 1 } END { exit bad }' many.tsv
}

@test "the largest overlap of the run is reported: a Hertz collision's peak (Johnson 1985) to 1e-4; a resting sphere's on a wall" {
    # head-on, no damping: delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5), v the approach speed
    run --separate-stderr dem-step --time 1e-4 --dt 1e-8 --damping none --tangential none -o o.dem two.dem
    [ "$status" -eq 0 ]
    line=$(printf '%s\n' "$stderr" | grep '^dem-step: largest overlap ')
    [[ "$line" == *"of the smaller radius ("*" m, particles 1 and 2, step "* ]]
    got=$(printf '%s\n' "$line" | sed 's/.*radius (\([0-9.e+-]*\) m.*/\1/')
    awk -v got="$got" 'BEGIN { pi = atan2(0, -1); m = 2500 * 4 / 3 * pi * 1e-9; Es = 7e10 / (2 * (1 - 0.25^2))
        want = (15 * (m / 2) * 0.2^2 / (16 * Es * sqrt(5e-4)))^0.4
        d = (got - want) / want; if (d < 0) d = -d; print got, want, d; exit !(d < 1e-4) }'
    # a sphere pressed on the floor by gravity: at rest its overlap is (3 m g / (4 E* sqrt(r)))^(2/3)
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0.001\t0.001\n' > one.tsv
    dem-pack --from one.tsv --wall z=0 --young 1e7 --restitution 0.3 > one.dem
    run --separate-stderr dem-step --time 0.05 --gravity 0,0,-9.81 --tangential none -o o.dem one.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"largest overlap "*"% of the radius ("*" m, particle 1 on wall 0, step "*"; at the end "* ]]
    # at the end the sphere rests: delta = (3 m g / (4 E* sqrt(r)))^(2/3), E* = E / (2 (1 - nu^2))
    got=$(printf '%s\n' "$stderr" | sed -n 's/.*at the end [0-9.e+-]*% of the radius (\([0-9.e+-]*\) m.*/\1/p')
    awk -v got="$got" 'BEGIN { pi = atan2(0, -1); m = 2500 * 4 / 3 * pi * 1e-9; Es = 1e7 / (2 * (1 - 0.25^2))
        want = (3 * m * 9.81 / (4 * Es * sqrt(1e-3)))^(2 / 3)
        d = (got - want) / want; if (d < 0) d = -d; print got, want, d; exit !(d < 1e-3) }'
    run --separate-stderr dem-step -q -n 10 -o o.dem two.dem
    [ -z "$stderr" ]
    run --separate-stderr dem-step -n 10 -o o.dem two.dem
    [[ "$stderr" == *"dem-step: largest overlap: none (no contact during the run)" ]]
}

@test "-v explains how dt follows the stiffness; a run of more than 10^6 steps says it unasked" {
    run --separate-stderr dem-step -v -n 1 -o o.dem two.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"hertz: tc ~ E^(-2/5) vc^(-1/5); E / 100 gives tc x 6.3"* ]]
    [[ "$stderr" == *"(0.2 of the p-wave step r sqrt(rho/E) (~ E^(-1/2): E / 100 gives dt x 10)), 1 steps."* ]]
    [[ "$stderr" == *"below about 1% of the radius"* ]]
    run --separate-stderr dem-step -v -n 1 --dt 1e-9 -o o.dem two.dem
    [[ "$stderr" == *"dt = 1e-09 s (the frame's or --dt's, not the automatic choice), 1 steps."* ]]
    run --separate-stderr dem-step -v -n 1 --normal hooke --kn 1e5 -o o.dem two.dem
    [[ "$stderr" == *"hooke with --kn: tc = pi sqrt(m*/kn), independent of E; kn / 100 gives tc x 10"* ]]
    run --separate-stderr dem-step -n 1 -o o.dem two.dem
    [[ "$stderr" != *"follows the contact stiffness"* ]]
    # the guidance comes before the first step; the run is then interrupted (and writes its frame)
    timeout -s INT 1 dem-step -n 2000000 two.dem > long.dem 2> long.err || true
    grep -q "2000000 steps. The collision time follows" long.err
    grep -q "commonly soften E" long.err
    run --separate-stderr dem-step -q -v -n 1 two.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"-q/--quiet and -v/--verbose exclude each other"* ]]
}
