#!/usr/bin/env bats
# dem-step --minimize (issue 16): quasi-static minimisation of the potential energy of
# frictionless contacts, bonds, walls and gravity (lib/sim/minimize.c: nonlinear CG, PR+).
# Checked against what the minimum must be: overlapping spheres end exactly touching, a sphere on
# a floor at its equilibrium overlap mg/kn, a bonded chain at its rest lengths, and a compressed
# frictionless packing with every net force below the tolerance.
load helpers

setup() { cd "$BATS_TEST_TMPDIR"; }

HOOKE="--normal hooke --kn 1000 --tangential none"

@test "minimize: two overlapping spheres end exactly touching, their centre of mass where it was" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.0015\t0.0002\t0\t0.001\n' > ov.tsv
    dem-pack --from ov.tsv > ov.dem
    run --separate-stderr dem-step --minimize $HOOKE ov.dem -o m.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"--minimize: "*" iterations, "*"potential energy "*" J, largest unbalanced force "*" N"* ]]
    dem-probe --particles m.dem > p.tsv
    # the gap |x1 - x2| - 2r: within 1e-15 m of 0 (measured 4e-19 m), the centre of mass at 0.00075, 0.0001
    awk -F'\t' 'NR == 2 { x1 = $5; y1 = $6 } NR == 3 { g = sqrt(($5 - x1)^2 + ($6 - y1)^2) - 0.002; print g
        if (g < 0) g = -g; cx = (x1 + $5) / 2 - 0.00075; cy = (y1 + $6) / 2 - 0.0001
        exit !(g < 1e-15 && cx < 1e-18 && cx > -1e-18 && cy < 1e-18 && cy > -1e-18) }' p.tsv
    # at rest
    [ "$(col vx[m/s] < p.tsv | sort -u)" = "0" ]
}

@test "minimize: a pair whose overlap rounds to 0 is no contact, so dem-step continues the frame (issue 28)" {
    # |d|^2 = 3.6099999999999997e-06 m^2 lies under (r_i + r_j)^2 = 3.61e-06, but its root rounds up to
    # r_i + r_j = 1.9 mm: an exact contact, as --minimize leaves them. It was written with overlap 0,
    # which dem-step refused ("overlap 0 m ... disagree with the positions")
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.00095\n2\t0.0018999999999999998\t1.4570297239117663e-11\t0\t0.00095\n' > z.tsv
    dem-pack --from z.tsv > z.dem
    dem-step -q --minimize $HOOKE z.dem > m.dem
    [ "$(dem-probe --contacts m.dem | wc -l)" -eq 1 ]   # the header only
    dem-step -q -n 1 m.dem > a.dem
    dem-step -q -n 0 $HOOKE z.dem | dem-step -q -n 1 > b.dem
    cmp a.dem b.dem
}

@test "minimize: a sphere on a floor under gravity settles at the overlap mg/kn; the budget restarts there" {
    printf 'x\ty\tz\tr\n0\t0\t0.0015\t0.001\n' > one.tsv
    dem-pack --from one.tsv --wall z=0 | dem-step -q --minimize $HOOKE --gravity 0,0,-9.81 > fl.dem
    z=$(dem-probe --particles fl.dem | col z[m])
    awk -v z="$z" 'BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; e = 0.001 - m * 9.81 / 1000
        d = (z - e) / (0.001 - e); if (d < 0) d = -d; print z, e, d; exit !(d < 1e-9) }'
    [ "$(dem-energy fl.dem | col residual[J])" = "0" ]
    # and it stays there: dynamics from the relaxed state (no damping) keep it within 1e-12 m
    dem-step -q -n 2000 --damping none fl.dem | dem-probe --particles | col z[m] |
        awk -v z="$z" '{ d = $1 - z; if (d < 0) d = -d; exit !(d < 1e-12) }'
}

@test "minimize: a compressed frictionless packing relaxes to zero net force on every particle; same bits on 2 threads" {
    # 300 spheres (radii 0.68 and 0.95 mm) dropped at random into a 1 cm periodic cube: solid
    # fraction 0.74, far above jamming, every sphere overlapping its neighbours
    awk 'BEGIN { srand(7); print "x\ty\tz\tr"; for (i = 0; i < 300; i++)
        printf "%.6f\t%.6f\t%.6f\t%s\n", 0.01 * rand(), 0.01 * rand(), 0.01 * rand(), (i % 2 ? "0.00095" : "0.00068") }' > dense.tsv
    dem-pack --from dense.tsv --periodic 0,0,0,0.01,0.01,0.01 > dense.dem
    run --separate-stderr dem-step --minimize $HOOKE --ftol 1e-9 dense.dem -o jam.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"NOT converged"* ]]
    # every net force (the frame's, recomputed at rest) at most 1e-9 N, from about 2.7 N
    dem-probe --particles jam.dem | awk -F'\t' 'NR > 1 { f = sqrt($14^2 + $15^2 + $16^2); if (f > m) m = f }
        END { print "largest", m; exit !(m <= 1e-9) }'
    # jammed: overconstrained (Z > 6) and still overlapping
    dem-probe jam.dem | awk -F'\t' 'NR == 2 { print $7; exit !($7 > 6) }'
    dem-step --minimize $HOOKE --ftol 1e-9 --threads 2 dense.dem 2> /dev/null | cmp - jam.dem
    # --max-iter stops it early, says so, and still writes the frame
    run --separate-stderr dem-step --minimize $HOOKE --ftol 1e-9 --max-iter 5 dense.dem -o early.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"NOT converged"* ]]
    [ -s early.dem ]
}

@test "minimize: a stretched bonded chain returns to its rest lengths (bonds in tension)" {
    dem-pack --lattice sc --cells 4,1,1 --radius 0.001 --spacing 0.0021 --bond-gap 2e-4 --bond-stiffness 50 > chain.dem
    dem-step -q --minimize $HOOKE --ftol 1e-12 chain.dem > rel.dem
    dem-probe --bonds rel.dem | col delta[m] | awk '{ d = $1 < 0 ? -$1 : $1; if (d > 1e-13) exit 1 }'
    [ "$(dem-probe --bonds rel.dem | wc -l)" -eq 4 ]
}

@test "minimize: usage: exclusive with -n and friends, needs frictionless contacts" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' > one.tsv
    dem-pack --from one.tsv > one.dem
    for args in "--minimize -n 5" "--minimize --time 1" "--minimize --every 2" "--ftol 1" "--max-iter 3 -n 1"; do
        run dem-step $args one.dem -o x.dem
        [ "$status" -eq 2 ] || { echo "$args: $status"; return 1; }
    done
    run dem-step --minimize --tangential history one.dem -o x.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"friction"* ]]
}

# The compressed 108-sphere fcc crystal of issue 29: every sphere 1% larger than its lattice's
# touching radius in the same periodic cell, so every net force cancels to round-off (6e-15 N).
crystal() {
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 --periodic lattice > fcc.dem
    L=$(dem-probe --cell fcc.dem | col h11[m])
    dem-probe --particles fcc.dem | awk -F'\t' 'NR == 1 { print "x\ty\tz\tr" } NR > 1 { print $5 "\t" $6 "\t" $7 "\t0.00101" }' > c.tsv
    dem-pack --from c.tsv --periodic 0,0,0,$L,$L,$L > crystal.dem
}

@test "minimize: the default tolerance is never below the forces' round-off: a balanced crystal and a relaxed state end at once (issue 29)" {
    crystal
    # before: 1e-9 of the starting 6e-15 N, 100 000 iterations and 5.7 million force evaluations
    run --separate-stderr timeout 60 dem-step --minimize $HOOKE crystal.dem -o m1.dem
    [ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
    [[ "$stderr" == *"--minimize: 0 iterations, 1 force evaluations: "*"(6.10832e-15 N at the start; tolerance 8.62357e-14 N)"* ]]
    run --separate-stderr timeout 60 dem-step --minimize $HOOKE m1.dem -o m2.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" != *"NOT converged"* ]]
    # a tolerance below the round-off is the user's to give, with a warning
    run --separate-stderr dem-step --minimize $HOOKE --ftol 1e-20 --max-iter 3 m1.dem -o m3.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: --ftol 1e-20 N is below the round-off of the net forces, 8.62e-14 N"*"it may never be reached"* ]]
    [[ "$stderr" == *"NOT converged, the iteration limit was reached"* ]]
}

@test "minimize: gravity with nothing below has no minimum: refused at once, nothing written (issue 29)" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.003\t0\t0\t0.001\n' | dem-pack --from - > two.dem
    # before: 6 000 001 force evaluations, the spheres at z = -2.9e18 m, exit 0
    run --separate-stderr timeout 60 dem-step --minimize $HOOKE --gravity 0,0,-9.81 two.dem -o g.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"dem-step: --minimize: the potential energy has no minimum: in iteration 1 the particles moved a million times the system's size"*"(gravity 9.81 m/s^2 with no wall or fixed particle below them?); nothing is written" ]]
    [ ! -e g.dem ]
    [ "$(ls | grep -c tmp-)" -eq 0 ]
    # with a floor it settles
    dem-pack --from two.dem --wall z=-0.002 | dem-step -q --minimize $HOOKE --gravity 0,0,-9.81 > f.dem
}

# wait_for TEXT FILE: until FILE holds TEXT (at most 60 s)
wait_for() {
    for _ in $(seq 600); do grep -q "$1" "$2" 2> /dev/null && return 0; sleep 0.1; done
    return 1
}

@test "minimize: SIGINT and SIGTERM finish the iteration and write its state, exit 130 and 143 (issue 29)" {
    crystal
    for sig in INT TERM; do
        # --ftol 0 is never reached: 100 000 iterations, minutes, unless stopped
        timeout 120 dem-step --minimize $HOOKE --ftol 0 crystal.dem -o out-$sig.dem 2> err-$sig.txt &
        pid=$!
        wait_for "dt = " err-$sig.txt
        sleep 0.5
        kill -$sig $pid
        status=0
        wait $pid || status=$?
        cat err-$sig.txt
        [ "$status" -eq $([ $sig = INT ] && echo 130 || echo 143) ]
        grep -q "dem-step: --minimize interrupted (SIG$sig) after [0-9]* iterations: the frame written is the last complete iterate" err-$sig.txt
        # before: nothing at all (exit 130, 0 bytes) and a FILE.tmp-XXXXXX with -o
        [ "$(dem-probe out-$sig.dem | tail -n +2 | wc -l)" -eq 1 ]
        [ "$(ls | grep -c tmp-)" -eq 0 ]
    done
}
