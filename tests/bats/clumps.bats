#!/usr/bin/env bats
# Rigid clumps (issue 30; Šmilauer and Chareyre 2015, §1.5.3-1.5.4): dem-pack makes them (--clump), the
# stream holds them (CLMP with the angular momentum, CMBR: format 1.6, required), dem-step moves them
# as rigid bodies (lib/sim/clumps.c, the rotor of lib/core/rigid.c), dem-probe lists them, dem-energy
# counts a clump as one body. The physics checks: a tilted dimer's rebound from a plane against the
# impulse at the contact point; a rod rolling across an incline (5/7 g sin th) and sliding along it
# (g (sin th - mu cos th): a sphere would roll); a free asymmetric clump keeps its angular momentum
# bit for bit and its energy to the integrator's order.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# |a/b - 1| < t
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; }

# A bed of 120 tetrahedral clumps (480 spheres: dem-step runs 2 threads) flying about a box.
bed() {
    dem-pack --random 120 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump tetrahedron --enclose \
        --velocity-random 2 --seed 4 --friction 0.5 "$@" > bed.dem
}

@test "clumps: dem-pack --clump dimer: the union's volume against the closed form, members apart exact, -v says so" {
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump dimer -v -o d.dem
    [ "$status" -eq 0 ]
    [[ "$output" == *"3 clumps of dimer (2 members each"* ]]
    # two spheres of radius r at a distance r: 2 (4/3 pi r^3) - pi (4r + d)(2r - d)^2 / 12 = 9/4 pi r^3
    v=$(sed -n 's/.*volume \([^ ]*\) m^3.*/\1/p' <<< "$output")
    within "$v" "$(awk 'BEGIN { print 2.25 * 3.141592653589793 * 1e-9 }')" 1e-4
    # mass = density x volume, for every clump; two members each
    dem-probe --clumps d.dem > c.tsv
    for m in $(col mass[kg] < c.tsv); do within "$m" "$(awk -v v="$v" 'BEGIN { print 2500 * v }')" 1e-5; done
    [ "$(col members < c.tsv | sort -u)" = "2" ]
    # members apart (D = 2): exact moments, about the axis 2 (2/5 m r^2) and across it 2 (2/5 m r^2 + m r^2)
    run dem-pack --random 1 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump dimer:2 -v -o d2.dem
    [[ "$output" == *"estimated relative error 0,"* ]]
    dem-probe --clumps d2.dem > c2.tsv
    ms=$(awk 'BEGIN { printf "%.17g", 4 / 3 * 3.141592653589793 * 1e-9 * 2500 }')
    within "$(col i1[kg*m^2] < c2.tsv)" "$(awk -v m="$ms" 'BEGIN { printf "%.17g", 2 * 0.4 * m * 1e-6 }')" 1e-12
    within "$(col i3[kg*m^2] < c2.tsv)" "$(awk -v m="$ms" 'BEGIN { printf "%.17g", 2 * (0.4 * m * 1e-6 + m * 1e-6) }')" 1e-12
}

@test "clumps: templates: trimer, tetrahedron, rod:N and a table of members; lattices; a table of centres" {
    for t in trimer tetrahedron rod:4 rod:3:2.5; do
        dem-pack --lattice sc --cells 2,2,1 --radius 5e-4 --clump $t > l.dem
        [ "$(dem-probe --clumps l.dem | col members | sort -u)" = "$(case $t in trimer) echo 3;; tetrahedron) echo 4;; rod:4) echo 4;; *) echo 3;; esac)" ]
        [ "$(dem-probe --clumps l.dem | wc -l)" -eq 5 ]
    done
    printf 'x[m]\ty[m]\tz[m]\tr[m]\n0\t0\t0\t1e-3\n2e-3\t0\t0\t1e-3\n0\t3e-3\t0\t5e-4\n' > t.tsv
    dem-pack --random 5 --box 0,0,0,0.03,0.03,0.03 --clump t.tsv > t.dem
    [ "$(dem-probe --clumps t.dem | col members | sort -u)" = "3" ]
    # members in the body frame: the centre of mass at the clump's x, the radii kept
    [ "$(dem-probe --particles --fields r t.dem | col r[m] | sort -u | tr '\n' ' ')" = "0.0005 0.001 " ]
    # a table of centres, orientations and velocities: one clump per line, at its centre of mass
    printf 'x\ty\tz\tq0\tq1\tq2\tq3\tvz[m/s]\n0.01\t0.01\t0.01\t1\t0\t0\t0\t-1\n0.02\t0.01\t0.01\t0\t0\t0\t1\t0\n' > c.tsv
    dem-pack --from c.tsv --clump dimer --radius 1e-3 > c.dem
    dem-probe --clumps c.dem > cl.tsv
    [ "$(col x[m] < cl.tsv | tr '\n' ' ')" = "0.01 0.02 " ]
    [ "$(col vz[m/s] < cl.tsv | tr '\n' ' ')" = "-1 0 " ]
    # its members move with it: v = v_c
    [ "$(dem-probe --particles --fields vz c.dem | col vz[m/s] | tr '\n' ' ')" = "-1 -1 0 0 " ]
    # aligned clumps all have the template's orientation (its principal frame); random ones differ
    q() { dem-probe --clumps | awk -F'\t' 'NR > 1 { print $18, $19, $20, $21 }' | sort -u | wc -l; }
    [ "$(dem-pack --lattice sc --cells 2,2,1 --radius 1e-3 --clump dimer --clump-orientation aligned | q)" -eq 1 ]
    [ "$(dem-pack --lattice sc --cells 2,2,1 --radius 1e-3 --clump dimer | q)" -eq 4 ]
}

@test "clumps: dem-pack refuses what does not go with --clump, with a message" {
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --clump dimer
    [ "$status" -eq 2 ]; [[ "$output" == *"--clump dimer needs --radius R"* ]]
    printf 'x\ty\tz\tr\n0\t0\t0\t1e-3\n' > t.tsv
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump t.tsv
    [ "$status" -eq 2 ]; [[ "$output" == *"exclude each other: the template's members carry their radii"* ]]
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius-uniform 1e-3,2e-3 --clump dimer
    [ "$status" -eq 2 ]; [[ "$output" == *"--radius-uniform and --clump exclude each other"* ]]
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump dimer --fixed all
    [ "$status" -eq 2 ]; [[ "$output" == *"cannot be fixed"* ]]
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump hexagon
    [ "$status" -eq 2 ]; [[ "$output" == *"'hexagon' is neither a built-in shape"* ]]
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump rod:1
    [ "$status" -eq 2 ]; [[ "$output" == *"2 <= N"* ]]
    run dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --spacing 2.5e-3 --clump dimer
    [ "$status" -eq 2 ]; [[ "$output" == *"bounding radius"* ]]
    printf 'x\ty\tz\n0\t0\t0\tq\n' > bad.tsv
    run dem-pack --from bad.tsv --clump dimer --radius 1e-3
    [ "$status" -eq 1 ]; [[ "$output" == *"line 2"* ]]
    run dem-pack --random 3 --box 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump-grid 64
    [ "$status" -eq 2 ]; [[ "$output" == *"--clump-grid applies only to --clump"* ]]
}

@test "clumps: a frame with clumps is format 1.6 with a required CMBR section; without, it stays 1.5" {
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --clump dimer > c.dem
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 > s.dem
    [ "$(zcat c.dem | od -An -tu2 -j10 -N2 | tr -d ' ')" = "6" ]
    [ "$(zcat s.dem | od -An -tu2 -j10 -N2 | tr -d ' ')" = "5" ]
    # CMBR followed by flags 1 (required): a reader of format 1.5 refuses the frame ("unknown required
    # section 'CMBR' ... upgrade dem", tests/corrupt/unknown-required-section.dem) instead of reading
    # the members as free spheres
    zcat c.dem | od -An -tx1 | tr -d ' \n' | grep -q '434d425201000000'
    ! zcat s.dem | od -An -tx1 | tr -d ' \n' | grep -q '434d4252' || false
    # and it round-trips: dem-pack --from the stream (no edit) writes the same frame
    dem-pack --from c.dem > c2.dem
    cmp c.dem c2.dem
}

@test "clumps: a tilted dimer bounces off a plane as the impulse at its contact point says" {
    # r = 1 mm, D = 1 (centres 1 mm apart), axis 30 degrees below x (about y), falling at 1 m/s onto z = 0;
    # elastic (restitution 1), frictionless: J = 2 / (1/m + rx^2 / I2), rx = d/2 cos 30 the lever arm
    printf 'x\ty\tz\tq0\tq1\tq2\tq3\tvz\n0.005\t0.005\t0.0016\t0.9659258262890683\t0\t0.25881904510252074\t0\t-1\n' > one.tsv
    dem-pack --from one.tsv --clump dimer --radius 1e-3 --restitution 1 --friction 0 --wall z=0 > one.dem
    for integ in vv vv-improved; do
        dem-step -q -n 40000 --integrator $integ one.dem | dem-probe --clumps > c.tsv
        m=$(col mass[kg] < c.tsv); i2=$(col i2[kg*m^2] < c.tsv)
        read -r vz wy <<< "$(awk -v m="$m" -v i="$i2" 'BEGIN { rx = 0.0005 * cos(3.141592653589793 / 6)
            j = 2 / (1 / m + rx * rx / i); print j / m - 1, -rx * j / i }')"
        echo "$integ: vz $(col vz[m/s] < c.tsv) (hand $vz), wy $(col wy[rad/s] < c.tsv) (hand $wy)"
        # the contact lasts about 6 us, in which the dimer turns by 5 mrad: agreement to 1e-3
        within "$(col vz[m/s] < c.tsv)" "$vz" 1e-3
        within "$(col wy[rad/s] < c.tsv)" "$wy" 1e-3
        # the energy came back (elastic): 1/2 m v^2 before, as the translation and rotation after
        within "$(col ekin[J] < c.tsv)" "$(awk -v m="$m" 'BEGIN { print 0.5 * m }')" 1e-5
    done
}

@test "clumps: a rod rolls across an incline at 5/7 g sin th and slides along it at g (sin th - mu cos th)" {
    # gravity tilted by 20 degrees over the floor z = 0; rod:3:2 (three touching spheres of 1 mm), mu = 0.2:
    # across the slope it rolls (mu > 2/7 tan th); along it it cannot roll and slides (mu < tan th)
    printf 'x\ty\tz\tq0\tq1\tq2\tq3\n0\t0\t0.001\t0.7071067811865476\t0\t0\t0.7071067811865476\n' > across.tsv
    printf 'x\ty\tz\n0\t0\t0.001\n' > along.tsv
    for f in across along; do
        dem-pack --from $f.tsv --clump rod:3:2 --radius 1e-3 --friction 0.2 --wall z=0 > $f.dem
        # the acceleration from the velocities at 3 ms and 10 ms (past the first settling)
        a=$(dem-step -q --gravity 3.3552023,0,-9.2183817 --damping restitution --time 0.01 --every 10000 $f.dem |
            dem-probe --clumps | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) { if ($k == "time[s]") t = k; if ($k == "vx[m/s]") v = k }; next }
                NR == 5 { t0 = $t; v0 = $v } { t1 = $t; v1 = $v } END { print (v1 - v0) / (t1 - t0) }')
        want=$(awk -v f=$f 'BEGIN { print f == "across" ? 5 / 7 * 3.3552023 : 3.3552023 - 0.2 * 9.2183817 }')
        echo "$f: a = $a m/s^2, analytic $want"
        within "$a" "$want" 1e-4
    done
}

@test "clumps: a free asymmetric clump keeps its angular momentum bit for bit, its energy to O(dt^2), across a split run" {
    # three unequal spheres apart: three different principal moments; w not along any of them
    printf 'x\ty\tz\tr\n0\t0\t0\t1e-3\n3e-3\t0\t0\t1e-3\n0\t2.5e-3\t0\t5e-4\n' > t.tsv
    printf 'x\ty\tz\twx\twy\twz\n0\t0\t0\t30\t200\t-70\n' > c.tsv
    dem-pack --from c.tsv --clump t.tsv > free.dem
    # (one clump: no collision can happen, --stop-dt 0 lets the step exceed the members' collision time)
    dem-step -q -n 20000 --dt 1e-5 --stop-dt 0 --every 2000 free.dem > run.dem
    dem-probe --clumps run.dem > c.tsv
    [ "$(paste <(col lx[kg*m^2/s] < c.tsv) <(col ly[kg*m^2/s] < c.tsv) <(col lz[kg*m^2/s] < c.tsv) | sort -u | wc -l)" -eq 1 ]
    # it tumbles: w changes direction (not a steady rotation about a principal axis)
    [ "$(col wx[rad/s] < c.tsv | sort -u | wc -l)" -eq 10 ]
    e0=$(dem-probe --clumps free.dem | col ekin[J])
    worst() { awk -v e0="$e0" '{ d = $1 / e0 - 1; if (d < 0) d = -d; if (d > w) w = d } END { print w }'; }
    w1=$(col ekin[J] < c.tsv | worst)
    w2=$(dem-step -q -n 40000 --dt 5e-6 --stop-dt 0 --every 4000 free.dem | dem-probe --clumps | col ekin[J] | worst)
    echo "largest relative energy error at dt 1e-5: $w1, at 5e-6: $w2 (ratio $(awk -v a="$w1" -v b="$w2" 'BEGIN { print a / b }'))"
    awk -v a="$w1" 'BEGIN { exit !(a < 1e-3) }'
    awk -v a="$w1" -v b="$w2" 'BEGIN { exit !(a / b > 3.5 && a / b < 4.5) }'
    # -n 2N and -n N | -n N: the same bytes
    dem-step -q -n 10000 --dt 1e-5 --stop-dt 0 free.dem | dem-step -q -n 10000 --stop-dt 0 > split.dem
    dem-step -q -n 20000 --dt 1e-5 --stop-dt 0 free.dem > whole.dem
    cmp split.dem whole.dem
}

@test "clumps: 1 and 2 threads, a split run, both velocity-Verlet forms, local damping and drag: the same bits" {
    bed
    o="--gravity 0,0,-9.81 --damping restitution"
    for integ in vv vv-improved; do
        dem-step -q -n 6000 --integrator $integ $o --threads 1 bed.dem > t1.dem
        dem-step -q -n 6000 --integrator $integ $o --threads 2 bed.dem > t2.dem
        dem-step -q -n 2222 --integrator $integ $o --threads 2 bed.dem | dem-step -q -n 3778 --threads 1 > s.dem
        cmp t1.dem t2.dem
        cmp t1.dem s.dem
    done
    dem-step -q -n 3000 $o --local-damping 0.3 --drag 0.999 bed.dem | dem-step -q -n 3000 > s.dem
    dem-step -q -n 6000 $o --local-damping 0.3 --drag 0.999 --threads 2 bed.dem > w.dem
    cmp s.dem w.dem
    # the members never touch their own clump; clumps collide
    [ "$(dem-probe --contacts t1.dem | awk -F'\t' 'NR > 1 && !$7' | wc -l)" -ge 0 ]
}

@test "clumps: the energy budget closes: one body per clump, elastic to the integrator's order, local damping booked" {
    bed --restitution 1 --friction 0
    dem-step -q -n 30000 --every 10000 bed.dem > e.dem
    dem-energy e.dem > e.tsv
    e0=$(col e_initial[J] < e.tsv | head -1)
    for r in $(col residual[J] < e.tsv); do awk -v r="$r" -v e="$e0" 'BEGIN { if (r < 0) r = -r; exit !(r < 1e-6 * e) }'; done
    # dem-energy's kinetic energy is the clumps' (dem-probe --clumps ekin summed)
    dem-probe --clumps --last e.dem | col ekin[J] | awk '{ s += $1 } END { printf "%.12g\n", s }' > a.txt
    tail -1 e.tsv | awk -F'\t' '{ printf "%.12g\n", $4 + $5 }' > b.txt
    within "$(cat a.txt)" "$(cat b.txt)" 1e-12
    dem-step -q -n 20000 --every 10000 --local-damping 0.3 --gravity 0,0,-9.81 bed.dem | dem-energy > l.tsv
    d=$(col ediss_local[J] < l.tsv | tail -1)
    awk -v d="$d" -v e="$e0" 'BEGIN { exit !(d > 0.1 * e) }'
    for r in $(col residual[J] < l.tsv); do awk -v r="$r" -v d="$d" 'BEGIN { if (r < 0) r = -r; exit !(r < 1e-4 * d) }'; done
}

@test "clumps: a periodic cell: members wrap with their images, the clump's centre does not, the energy holds" {
    dem-pack --lattice sc --cells 3,3,3 --radius 1e-3 --clump dimer --periodic lattice --velocity-random 2 --seed 3 \
        --friction 0 --restitution 1 > per.dem
    dem-step -q -n 20000 per.dem | dem-step -q -n 20000 > run.dem
    dem-step -q -n 40000 per.dem > whole.dem
    cmp run.dem whole.dem
    # some members crossed a face (image counters), every one is still inside the cell
    [ "$(dem-probe --particles --fields ix,iy,iz run.dem | awk -F'\t' 'NR > 1 && ($4 || $5 || $6)' | wc -l)" -gt 0 ]
    dem-energy run.dem | col residual[J] | awk '{ if ($1 < 0) $1 = -$1; exit !($1 < 1e-7) }'
}

@test "clumps: dem-reverse runs clumps back in floating point and refuses the exact mode, naming why" {
    bed --restitution 1 --friction 0
    dem-step -q -n 10000 --tangential none bed.dem > f.dem
    dem-reverse -n 10000 f.dem > r.dem
    paste <(dem-probe --clumps bed.dem | col x[m]) <(dem-probe --clumps r.dem | col x[m]) |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > w) w = d } END { print "largest |x - x0|:", w; exit !(w < 1e-11) }'
    run dem-reverse -n 10 --exact f.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"rigid clumps"*"integer lattice"* ]]
}

@test "clumps: refusals with a message: the variational integrator, --minimize, a cell narrower than a clump" {
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --clump dimer > c.dem
    run dem-step -n 1 --integrator variational c.dem
    [ "$status" -eq 1 ]; [[ "$output" == *"variational integrator does not move clumps"* ]]
    run dem-step --minimize --tangential none c.dem
    [ "$status" -eq 1 ]; [[ "$output" == *"rigid clumps"* ]]
    # a deforming cell moves clumps (tests/bats/clumps-cell.bats)
    dem-pack --lattice sc --cells 3,3,3 --radius 1e-3 --clump dimer --periodic lattice > p.dem
    dem-step -q -n 1 --cell-rate zz=-1 p.dem > /dev/null
    # a cell narrower than a clump: it would have to touch its own image
    dem-pack --lattice sc --cells 1,1,1 --radius 1e-3 --clump rod:3 --clump-orientation aligned --periodic 0,0,0,0.0035,0.01,0.01 > thin.dem
    run dem-step -n 1 thin.dem
    [ "$status" -eq 1 ]; [[ "$output" == *"could touch its own image"* ]]
}

@test "clumps: dem-probe --clumps header, the members' clump ids, VTK coloured by clump" {
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --clump trimer > c.dem
    [ "$(dem-probe --clumps c.dem | head -1)" = "$(printf 'frame\tstep\ttime[s]\tid\tmass[kg]\ti1[kg*m^2]\ti2[kg*m^2]\ti3[kg*m^2]\tx[m]\ty[m]\tz[m]\tvx[m/s]\tvy[m/s]\tvz[m/s]\twx[rad/s]\twy[rad/s]\twz[rad/s]\tq0\tq1\tq2\tq3\tfx[N]\tfy[N]\tfz[N]\ttx[N*m]\tty[N*m]\ttz[N*m]\tlx[kg*m^2/s]\tly[kg*m^2/s]\tlz[kg*m^2/s]\tmembers\tekin[J]')" ]
    [ "$(dem-probe --particles --fields clump c.dem | col clump | tr '\n' ' ')" = "1 1 1 2 2 2 " ]
    dem-probe --vtk v c.dem
    grep -q 'Name="clump"' v/particles_000000.vtp
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 | dem-probe --vtk s
    ! grep -q 'Name="clump"' s/particles_000000.vtp || false
    run dem-probe --clumps --ids 1 c.dem
    [ "$status" -eq 2 ]
}

@test "clumps: dem-stress counts a clump as one body: the mean stress theorem holds, branch vectors to the members' centres fail it" {
    # 25 dimers settled under gravity in a box until dem-step's unbalanced-force ratio (the clumps' net
    # forces) is below 1e-6. Each body in equilibrium: V szz = -sum_wall contacts p_z f_z - sum_bodies
    # m z g_z (Christoffersen et al. 1981), from dem-probe's tables alone (tests/bats/clumps-lw.awk)
    dem-pack --random 25 --box 0,0,0,0.006,0.006,0.006 --radius 5e-4 --clump dimer --enclose --young 1e6 --seed 2 > lw.dem
    dem-step -q --gravity 0,0,-9.81 --damping restitution --local-damping 0.7 --time 2 --until unbalanced=1e-6 lw.dem > s.dem
    u=$(dem-probe s.dem 2>/dev/null | col unbalanced)
    awk -v u="$u" 'BEGIN { exit !(u < 1e-5) }'
    dem-probe --particles --fields id,z,r s.dem > p.tsv
    dem-probe --contacts s.dem > c.tsv
    dem-probe --clumps s.dem > k.tsv
    read -r theorem members <<< "$(awk -f "$BATS_TEST_DIRNAME/clumps-lw.awk" p.tsv c.tsv k.tsv)"
    vs=$(dem-stress s.dem 2>/dev/null | awk -F'\t' 'NR == 2 { printf "%.17g", $4 * $7 }')
    echo "V szz: dem-stress $vs, the theorem $theorem, branch vectors to the members' centres $members"
    within "$vs" "$theorem" 1e-4
    ! within "$members" "$theorem" 1e-2 || false
    # dem-probe counts 25 particles (the clumps) and 2 C / 25 for the coordination, C the member pairs that touch
    [ "$(dem-probe s.dem 2>/dev/null | col particles)" = "25" ]
    c=$(awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "wall") w = k; next } $10 > 0 && !$w { n++ } END { print n }' c.tsv)
    within "$(dem-probe s.dem 2>/dev/null | col coordination)" "$(awk -v c="$c" 'BEGIN { printf "%.17g", 2 * c / 25 }')" 1e-15
}

@test "clumps: editing a frame with clumps: --insert adds clumps, --set-material density scales them, --assign and --delete refuse members" {
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --clump dimer --enclose > c.dem
    dem-pack --from c.dem --insert 3 --box 0.0005,0.0005,0.0005,0.0055,0.0025,0.0025 --radius 2e-4 --clump trimer --seed 5 > i.dem
    dem-probe --clumps i.dem > k.tsv
    [ "$(col members < k.tsv | tr '\n' ' ')" = "2 2 3 3 3 " ]
    [ "$(col id < k.tsv | tr '\n' ' ')" = "1 2 3 4 5 " ]
    # the new members overlap no old one: a step finds no contact
    [ "$(dem-step -q -n 1 i.dem | dem-probe | col contacts)" = "0" ]
    # density x 2: masses, moments and angular momentum x 2, the angular velocity kept
    printf 'x\ty\tz\twx\twy\twz\n0.01\t0.01\t0.01\t1\t2\t3\n' > w.tsv
    dem-pack --from w.tsv --clump dimer --radius 1e-3 > w.dem
    dem-pack --from w.dem --set-material 0:density=5000 | dem-probe --clumps > k2.tsv
    dem-probe --clumps w.dem > k1.tsv
    within "$(col mass[kg] < k2.tsv)" "$(awk -v m="$(col mass[kg] < k1.tsv)" 'BEGIN { printf "%.17g", 2 * m }')" 1e-15
    within "$(col lx[kg*m^2/s] < k2.tsv)" "$(awk -v m="$(col lx[kg*m^2/s] < k1.tsv)" 'BEGIN { printf "%.17g", 2 * m }')" 1e-15
    within "$(col wz[rad/s] < k2.tsv)" 3 1e-12
    run dem-pack --from c.dem --assign 0:all
    [ "$status" -ne 0 ]; [[ "$output" == *"is a member of clump"* ]]
    run dem-pack --from c.dem --delete ids=1
    [ "$status" -eq 1 ]; [[ "$output" == *"belongs to clump"* ]]
}

@test "clumps: demstream.py reads the clumps (with L) and the members' body-frame positions" {
    python3 -c 'import numpy' 2> /dev/null || skip "numpy is not installed: demstream.py is not tested"
    export PYTHONPATH="$REPO/tools/python${PYTHONPATH:+:$PYTHONPATH}"
    dem-pack --lattice sc --cells 2,1,1 --radius 1e-3 --clump rod:3:2 --omega 0,0,5 > r.dem
    python3 - r.dem <<'PY'
import sys, numpy as np, demstream
f = demstream.read_last(sys.argv[1])
assert len(f.clumps) == 2 and len(f.members) == 6, (len(f.clumps), len(f.members))
assert set(np.round(np.abs(f.members["bx"]) + np.abs(f.members["by"]) + np.abs(f.members["bz"]), 12)) == {0.0, 0.002}
assert np.allclose(f.clumps["wz"], 5) and np.all(f.clumps["lz"] > 0)
assert sorted(set(f.particles["clump"])) == [1, 2]
PY
}

@test "clumps: a symmetric clump's axis precesses about L at |L|/I_perp through dem-step, its tilt kept" {
    # a dimer (I1 < I2 = I3) tilted by 30 degrees about y, spun so that L = 1e-9 z: w = L_a/I1 + L_perp/I2
    printf 'x\ty\tz\tq0\tq1\tq2\tq3\n0\t0\t0\t0.9659258262890683\t0\t0.25881904510252074\t0\n' > p0.tsv
    dem-pack --from p0.tsv --clump dimer --radius 1e-3 | dem-probe --clumps > p0c.tsv
    read -r i1 i2 <<< "$(awk -F'\t' 'NR == 2 { printf "%.17g %.17g", $6, $7 }' p0c.tsv)"
    read -r wx wz <<< "$(awk -v i1="$i1" -v i2="$i2" 'BEGIN { t = 3.141592653589793 / 6; ax = cos(t); az = -sin(t); la = 1e-9 * az
        printf "%.17g %.17g", la * ax / i1 - la * ax / i2, la * az / i1 + (1e-9 - la * az) / i2 }')"
    printf 'x\ty\tz\tq0\tq1\tq2\tq3\twx\twz\n0\t0\t0\t0.9659258262890683\t0\t0.25881904510252074\t0\t%s\t%s\n' "$wx" "$wz" > p.tsv
    dem-pack --from p.tsv --clump dimer --radius 1e-3 > p.dem
    [ "$(dem-probe --clumps p.dem | col lz[kg*m^2/s])" = "1.0000000000000003e-09" ]
    want=$(awk -v i="$i2" 'BEGIN { printf "%.17g", 1e-9 / i }')
    # the azimuth of the axis R(q) e1 about z, unwrapped, over 0.1 s (1.2 turns), and the axis' z drift
    dem-step -q --dt 1e-5 --stop-dt 0 -n 10000 --every 500 p.dem | dem-probe --clumps | awk -F'\t' '
        NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { w = $c["q0"]; x = $c["q1"]; y = $c["q2"]; z = $c["q3"]; pi = 3.141592653589793
          p = atan2(2 * (x * y + w * z), 1 - 2 * (y * y + z * z)); az = 2 * (x * z - w * y)
          if (NR == 2) { t0 = $c["time[s]"]; az0 = az } else { d = p - pp; while (d > pi) d -= 2 * pi; while (d < -pi) d += 2 * pi; phi += d }
          pp = p; t = $c["time[s]"]; e = az - az0; if (e < 0) e = -e; if (e > drift) drift = e }
        END { printf "%.17g %.17g\n", phi / (t - t0), drift }' > rate.txt
    read -r rate drift < rate.txt
    echo "precession $rate rad/s against |L|/I_perp = $want; the axis' z component drifts by $drift"
    within "$rate" "$want" 1e-8
    awk -v d="$drift" 'BEGIN { exit !(d < 1e-6) }'
}
