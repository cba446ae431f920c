#!/usr/bin/env bats
# Bonds (issue 16, De Klerk et al. 2022, §3.3): dem-pack makes them (--bond-gap, --bonds), the stream holds
# them (BOND, format 1.5), dem-step applies kb delta^2/2 in tension and compression with every
# integrator, instead of the contact law, dem-energy books eel_b, dem-probe --bonds lists them.
# The physics checks: the bonded pair is a harmonic oscillator of angular frequency
# w = sqrt(2 kb / m) (each sphere moves about its rest point; the overlap changes twice as fast),
# x2(t) = r + v/w sin(w t) for spheres touching at t = 0 and leaving at +-v.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    # two spheres of radius 1 mm (m = 4/3 pi r^3 2500 kg/m^3) touching at the origin, separating at 0.01 m/s
    printf 'id\tx\ty\tz\tr\tvx\n1\t-0.001\t0\t0\t0.001\t-0.01\n2\t0.001\t0\t0\t0.001\t0.01\n' > two.tsv
    printf 'i\tj\n1\t2\n' > one.tsv
}

# |a/b - 1| < t
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; }

@test "bonds: dem-pack --bond-gap bonds the touching neighbours of a chain, not the others" {
    dem-pack --lattice sc --cells 4,1,1 --radius 0.001 --bond-gap 2e-5 --bond-stiffness 1e4 > chain.dem
    dem-probe --bonds chain.dem > b.tsv
    [ "$(head -1 b.tsv)" = "$(printf 'frame\tstep\ttime[s]\ti\tj\tflags\tsx\tsy\tsz\tkb[N/m]\tdelta[m]\tfx[N]\tfy[N]\tfz[N]\tenergy[J]')" ]
    [ "$(col i < b.tsv | tr '\n' ' ')" = "1 2 3 " ]
    [ "$(col j < b.tsv | tr '\n' ' ')" = "2 3 4 " ]
    [ "$(col kb[N/m] < b.tsv | sort -u)" = "10000" ]
    # spheres 30 um apart: a gap of 20 um bonds none, 40 um all three
    dem-pack --lattice sc --cells 4,1,1 --radius 0.001 --spacing 0.00203 --bond-gap 2e-5 --bond-stiffness 1e4 | dem-probe --bonds > none.tsv
    [ "$(wc -l < none.tsv)" -eq 1 ]
    run dem-pack --lattice sc --cells 4,1,1 --radius 0.001 --spacing 0.00203 --bond-gap 4e-5 --bond-stiffness 1e4 -v -o three.dem
    [ "$status" -eq 0 ]
    [[ "$output" == *"3 bonds"* ]]
    # the stretched bonds' delta is -30 um, their energy kb delta^2/2
    dem-probe --bonds three.dem > t.tsv
    for d in $(col delta[m] < t.tsv); do within "$d" -3e-5 1e-9; done
    for e in $(col energy[J] < t.tsv); do within "$e" 4.5e-6 1e-9; done
}

@test "bonds: a frame with bonds has a required BOND section; one without has none; both are format 1.5" {
    dem-pack --lattice sc --cells 2,1,1 --radius 0.001 --bond-gap 1e-5 --bond-stiffness 100 > b.dem
    dem-pack --lattice sc --cells 2,1,1 --radius 0.001 > nb.dem
    # minor version at payload bytes 10-11
    [ "$(zcat b.dem | od -An -tu2 -j10 -N2 | tr -d ' ')" = "5" ]
    [ "$(zcat nb.dem | od -An -tu2 -j10 -N2 | tr -d ' ')" = "5" ]
    # the BOND tag followed by flags 1 (required: a reader that does not know it refuses the frame)
    zcat b.dem | od -An -tx1 | tr -d ' \n' | grep -q '424f4e4401000000'
    ! zcat nb.dem | od -An -tx1 | tr -d ' \n' | grep -q '424f4e44'
}

@test "bonds: the bonded pair oscillates as sqrt(2 kb/m) in tension, with vv, vv-improved and across a split run" {
    dem-pack --from two.tsv --bonds one.tsv --bond-stiffness 100 > pair.dem
    for integ in vv vv-improved; do
        dem-step -q --integrator $integ --normal hooke --kn 1000 --tangential none --damping none --dt 1e-7 -n 3000 --every 1000 pair.dem > run-$integ.dem
        dem-probe --particles --ids 2 run-$integ.dem > p.tsv
        paste <(col time[s] < p.tsv) <(col x[m] < p.tsv) <(col vx[m/s] < p.tsv) | awk '
            BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; w = sqrt(2 * 100 / m) }
            { x = 0.001 + 0.01 / w * sin(w * $1); v = 0.01 * cos(w * $1)
              ex = ($2 - x) / (x - 0.001); ev = ($3 - v) / 0.01; if (ex < 0) ex = -ex; if (ev < 0) ev = -ev
              print $1, ex, ev; if (ex > 1e-7 || ev > 1e-7) bad = 1 }
            END { exit bad }'
    done
    # the budget closes: the bond's energy is in E
    dem-energy run-vv.dem > e.tsv
    for r in $(col residual[J] < e.tsv); do awk -v r="$r" 'BEGIN { exit !(r < 1e-18 && r > -1e-18) }'; done
    within "$(col eel_b[J] < e.tsv | tail -1)" "$(dem-probe --bonds --last run-vv.dem | col energy[J])" 1e-12
    # continuation: -n 3000 = -n 1000 | -n 2000, bit for bit
    dem-step -q --normal hooke --kn 1000 --tangential none --damping none --dt 1e-7 -n 1000 pair.dem | dem-step -q -n 2000 > split.dem
    dem-step -q -n 3000 --normal hooke --kn 1000 --tangential none --damping none --dt 1e-7 pair.dem > whole.dem
    cmp split.dem whole.dem
}

@test "bonds: a bonded pair feels the bond alone in compression, not the contact law" {
    # approaching at 0.01 m/s: the overlap grows as sin(w t) with w = sqrt(2 kb/m), kb = 100, whatever kn
    printf 'id\tx\ty\tz\tr\tvx\n1\t-0.001\t0\t0\t0.001\t0.01\n2\t0.001\t0\t0\t0.001\t-0.01\n' > in.tsv
    dem-pack --from in.tsv --bonds one.tsv --bond-stiffness 100 > pair.dem
    dem-step -q --normal hooke --kn 1e5 --tangential none --damping viscous --gamma-n 0.5 --dt 1e-7 -n 2000 pair.dem > run.dem
    dem-probe --particles --ids 2 run.dem > p.tsv
    x=$(col x[m] < p.tsv)
    awk -v x="$x" 'BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; w = sqrt(2 * 100 / m)
        e = 0.001 - 0.01 / w * sin(w * 2e-4); d = (x - e) / (0.001 - e); if (d < 0) d = -d; print x, e, d; exit !(d < 1e-7) }'
    # no contact record, no damping booked
    [ "$(dem-probe --contacts run.dem | wc -l)" -eq 1 ]
    [ "$(dem-energy run.dem | col ediss_damp_n[J])" = "0" ]
}

@test "bonds: a periodic bonded lattice drifting across the faces: same bits for 1 and 2 threads and split, budget closed" {
    # 144 spheres (two threads need 128), bonded to their 6 neighbours through the faces
    dem-pack --lattice sc --cells 6,6,4 --radius 0.001 --periodic lattice --bond-gap 1e-5 --bond-stiffness 1000 \
        --velocity 3,1,0 --velocity-random 0.05 --seed 4 > lat.dem
    [ "$(dem-probe --bonds lat.dem | wc -l)" -eq $((144 * 3 + 1)) ]
    # bonds across the faces carry an image shift
    [ "$(dem-probe --bonds lat.dem | col sx | grep -c -- '-1\|^1')" -gt 0 ]
    opts="--normal hooke --kn 1e4 --tangential history --damping none --dt 2e-6"
    dem-step -q $opts --threads 1 -n 1200 --every 400 lat.dem > t1.dem
    dem-step -q $opts --threads 2 -n 1200 --every 400 lat.dem > t2.dem
    cmp t1.dem t2.dem
    dem-step -q $opts --threads 2 -n 400 lat.dem | dem-step -q --threads 1 -n 800 > s.dem
    dem-probe --last t1.dem --particles | cut -f2- > a.tsv   # (the frame index differs: 2 and 0)
    dem-probe --last s.dem --particles | cut -f2- > b.tsv
    cmp a.tsv b.tsv
    dem-probe --last t1.dem --bonds | cut -f2- > a.tsv
    dem-probe --last s.dem --bonds | cut -f2- > b.tsv
    cmp a.tsv b.tsv
    # the lattice moved 3 m/s x 2.4 ms = 7.2 mm along x, so spheres crossed the faces (image
    # counters 1); every bond still holds (|delta| small), and the budget closes
    dem-probe --last --bonds t1.dem | col delta[m] | awk '{ d = $1 < 0 ? -$1 : $1; if (d > 1e-4) exit 1 }'
    dem-probe --last --particles --fields ix t1.dem | col ix | sort -u | grep -qx 1
    dem-energy t1.dem > e.tsv
    # (measured: |residual| <= 7.4e-14 J against eel_b >= 1.5e-6 J and ekin_t 7.5e-3 J)
    paste <(col residual[J] < e.tsv) <(col eel_b[J] < e.tsv) | awk '{ r = $1 < 0 ? -$1 : $1; if (!($2 > 0) || r > 1e-6 * $2) exit 1 }'
}

@test "bonds: --bonds reads dem-probe's table back; --delete takes a particle's bonds; errors name the cause" {
    dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bond-gap 1e-5 --bond-stiffness 50 > c.dem
    dem-probe --bonds c.dem > b.tsv
    dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bonds b.tsv > c2.dem
    dem-probe --bonds c2.dem | cmp - b.tsv
    dem-pack --from c.dem --delete ids=3 | dem-probe --bonds > d.tsv
    [ "$(col j < d.tsv)" = "2" ]
    run dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bond-gap 1e-5
    [ "$status" -eq 2 ]
    [[ "$output" == *"--bond-gap needs --bond-stiffness"* ]]
    printf 'i\tj\n1\t9\n' > bad.tsv
    run dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bonds bad.tsv --bond-stiffness 1
    [ "$status" -eq 1 ]
    [[ "$output" == *"line 2: no particle with id 9"* ]]
    printf 'i\tj\n1\t2\n2\t1\n' > dup.tsv
    run dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bonds dup.tsv --bond-stiffness 1
    [ "$status" -eq 1 ]
    [[ "$output" == *"appears more than once"* ]]
    run dem-pack --lattice sc --cells 3,1,1 --radius 0.001 --bonds one.tsv
    [ "$status" -eq 2 ]
    [[ "$output" == *"--bond-stiffness"* ]]
    # exact mode cannot round a bond's force onto its lattice
    run dem-step --exact -n 1 --normal hooke --kn 1e3 --tangential none --damping none --dt 1e-7 c.dem -o x.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"bonds"* ]]
}

@test "bonds: the Python reader gives a frame's bonds as dem-probe lists them" {
    python3 -c 'import numpy' 2>/dev/null || skip "numpy is not installed"
    dem-pack --lattice sc --cells 3,2,1 --radius 0.001 --spacing 0.00201 --bond-gap 2e-5 --bond-stiffness 70 > c.dem
    dem-probe --bonds c.dem | cut -f4- | tail -n +2 | cut -f1-11 > probe.tsv
    [ "$(wc -l < probe.tsv)" -eq 7 ]
    PYTHONPATH="$REPO/tools/python" python3 -c '
import demstream
for b in demstream.read_last("c.dem").bonds:
    print("\t".join([str(int(b[n])) for n in ("i", "j", "flags", "sx", "sy", "sz")] + [repr(float(b[n])) for n in ("kb", "delta", "fx", "fy", "fz")]))
' | sed 's/\.0\b//g; s/\t-0\t/\t0\t/g' > py.tsv
    diff probe.tsv py.tsv
}
