#!/usr/bin/env bats
# Issue 29, "the first hour": the messages a new user meets (text piped in, a terminal on
# stdin, -o ''), the unit warnings and the progress log.
load helpers
setup() { setup_tmp; }

TSV=$'x\ty\tz\tr\n0\t0\t0\t0.001\n0.003\t0\t0\t0.001'

@test "a TSV piped into a program that reads a stream: 'this looks like text: make a stream with dem-pack --from'" {
    for prog in "dem-step -n 1" "dem-reverse -n 1" "dem-probe" "dem-stress" "dem-energy"; do
        run --separate-stderr bash -c "printf '%s\n' \"\$1\" | $prog > /dev/null" _ "$TSV"
        [ "$status" -eq 1 ] || { echo "$prog: status $status"; return 1; }
        [[ "$stderr" == *"not a dem stream: this looks like text (it starts \"x\\ty\\tz\\tr\"): make a stream with dem-pack --from FILE"* ]] ||
            { echo "$prog: $stderr"; return 1; }
    done
    # binary that is no stream keeps the byte message
    run --separate-stderr bash -c 'printf "\001\002\003\004" | dem-step -n 1 > /dev/null'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"input starts with bytes 0x01 0x02, not a gzip member"* ]]
}

@test "the text message quotes the input escaped: no control byte reaches the terminal" {
    run --separate-stderr bash -c 'printf "a\"b\\\\c\x7e\xc3\xbc\tend of a long first line of text\n" | dem-step -n 1 > /dev/null'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *'this looks like text (it starts "a\x22b\x5cc~\xc3\xbc\tend of a long f..."'* ]]
}

@test "dem-step waiting on a terminal's stdin says so on stderr" {
    command -v script > /dev/null || skip "script (util-linux) is not installed"
    # script gives dem-step a terminal for stdin; its own stdin at EOF ends the input (Ctrl-D)
    run timeout 20 script -qec "dem-step -n 1 > /dev/null 2> '$TMP/err'" /dev/null < /dev/null
    grep -q "^dem-step: reading standard input, which is a terminal: waiting for input" "$TMP/err"
    grep -q "dem-step: empty input" "$TMP/err"
    # from a pipe or a file: no such line
    printf '%s\n' "$TSV" | dem-pack --from - > "$TMP/a.dem"
    run --separate-stderr dem-step -q -n 1 "$TMP/a.dem"
    [[ "$stderr" != *terminal* ]]
}

@test "-o '' is a usage error before any input is read or step taken (every program with -o)" {
    printf '%s\n' "$TSV" | dem-pack --from - > "$TMP/a.dem"
    cd "$TMP"
    for prog in "dem-step -n 100" "dem-reverse -n 1" "dem-probe --salvage" "dem-pack --from a.dem"; do
        # stdin is a FIFO nobody writes: a program that read it first would hang, not exit 2
        run --separate-stderr timeout 10 $prog -o '' < <(sleep 30)
        [ "$status" -eq 2 ] || { echo "$prog: status $status: $stderr"; return 1; }
        [[ "$stderr" == *"-o '': an empty file name"* ]]
    done
    run --separate-stderr dem-step -n 100 -o '' a.dem
    [ "$status" -eq 2 ]
    [ -z "$(ls | grep tmp-)" ]
}

# the BOX BOUNDS lines of the first block of a LAMMPS dump: "xlo xhi ylo yhi zlo zhi"
dump_bounds() { awk '/^ITEM: BOX BOUNDS/ { b = 1; next } b && b <= 3 { printf "%s%s %s", (b > 1 ? " " : ""), $1, $2; b++ } b == 4 { print ""; exit }'; }

@test "--lammps-dump: the box is the container's walls by default, the particles' box with --lammps-box particles" {
    cd "$TMP"
    dem-pack --random 30 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose > box.dem
    [ "$(dem-probe --lammps-dump box.dem | dump_bounds)" = "0 0.01 0 0.01 0 0.02" ]
    dem-probe --lammps-dump box.dem | grep -q "^ITEM: BOX BOUNDS ff ff ff$"
    # the particles' bounding box: inside the walls, not on them
    read -r xlo xhi ylo yhi zlo zhi < <(dem-probe --lammps-dump --lammps-box particles box.dem | dump_bounds)
    awk -v a="$xlo" -v b="$zhi" 'BEGIN { exit !(a > 0 && b < 0.02) }'
    # a floor only: z from the floor, the other sides at the particles
    dem-pack --random 30 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --wall z=-0.001 > floor.dem
    read -r xlo xhi ylo yhi zlo zhi < <(dem-probe --lammps-dump floor.dem | dump_bounds)
    [ "$zlo" = "-0.001" ]
    [ "$xlo" = "$(dem-probe --lammps-dump --lammps-box particles floor.dem | dump_bounds | cut -d' ' -f1)" ]
    # a cylinder with its end planes: x and y from the mantle, z from the planes
    dem-pack --random 30 --cylinder z,0.01,0.02,0.005,0,0.02 --radius 5e-4 --enclose > cyl.dem
    [ "$(dem-probe --lammps-dump cyl.dem | dump_bounds)" = "0.005 0.015 0.015 0.025 0 0.02" ]
    # no walls: as before, the particles' bounding box
    dem-pack --lattice sc --cells 2,1,1 --radius 0.5 > plain.dem
    [ "$(dem-probe --lammps-dump plain.dem | dump_bounds)" = "0 2 0 1 0 1" ]
    # --lammps-box without --lammps-dump, or an unknown value: usage errors
    run dem-probe --lammps-box walls box.dem
    [ "$status" -eq 2 ]
    run dem-probe --lammps-dump --lammps-box cell box.dem
    [ "$status" -eq 2 ]
}

@test "--lammps-dump: a particle beyond its wall widens the box (LAMMPS drops atoms outside a fixed box)" {
    cd "$TMP"
    # a sphere resting 10% into the floor (dem-pack accepts less than a radius)
    printf 'x\ty\tz\tr\n0\t0\t0.0009\t0.001\n0.003\t0\t0.002\t0.001\n' | dem-pack --from - --wall z=0 > sunk.dem
    read -r xlo xhi ylo yhi zlo zhi < <(dem-probe --lammps-dump sunk.dem | dump_bounds)
    awk -v z="$zlo" 'BEGIN { exit !(z < -9.9e-5 && z > -1.01e-4) }'
}

# the columns NAMES (space separated) of the TSV on stdin, tab separated, every row after the header
cols() {
    awk -F'\t' -v names="$1" 'BEGIN { n = split(names, want, " ") }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; for (k = 1; k <= n; k++) if (!c[want[k]]) { print "no column " want[k] > "/dev/stderr"; exit 3 }; next }
        { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "\t" : "") $c[want[k]]; print line }'
}

@test "dem-stress --triaxial: q_axial, eps_a, eps_q, eps_v, sin_phi from the cell, compression positive" {
    cd "$TMP"
    dem-pack --lattice fcc --cells 3,2,2 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    dem-step -q -n 200 --every 100 --normal hooke --kn 1e5 --dt 1e-6 --tangential none --cell-rate zz=-50 fcc.dem > tri.dem
    dem-stress --triaxial z tri.dem > tri.tsv
    head -1 tri.tsv | tr '\t' '\n' | tail -8 | paste -sd' ' | grep -qx "sa\[Pa\] sr\[Pa\] q_axial\[Pa\] eps_a\[-\] eps_q\[-\] eps_v\[-\] sin_phi\[-\] phi_mob\[deg\]"
    # 27 columns as before, then the new ones
    [ "$(head -1 tri.tsv | awk -F'\t' '{ print NF }')" -eq 35 ]
    cols "sxx[Pa] syy[Pa] szz[Pa] s1[Pa] s3[Pa] exx[-] eyy[-] ezz[-] ev[-] sa[Pa] sr[Pa] q_axial[Pa] eps_a[-] eps_q[-] eps_v[-] sin_phi[-] phi_mob[deg]" < tri.tsv |
        awk -F'\t' '{ n++
            if ($10 != $3 || $11 != ($1 + $2) / 2 || $12 != $10 - $11) { print "stresses", $0; bad = 1 }
            if ($13 != -$8 || $15 != -$9) { print "strains", $0; bad = 1 }
            if (($14 - 2 / 3 * ($13 + ($6 + $7) / 2)) ^ 2 > 1e-30) { print "eps_q", $0; bad = 1 }
            s = ($4 - $5) / ($4 + $5); if (($16 - s) ^ 2 > 1e-28) { print "sin_phi", $0; bad = 1 }
            if (($17 - atan2($16, sqrt(1 - $16 * $16)) * 45 / atan2(1, 1)) ^ 2 > 1e-20) { print "phi", $0; bad = 1 }
            # compressed along z: q_axial > 0, eps_a = 0.005 per 100 steps
            if (!($12 > 0) || ($13 - 0.005 * n) ^ 2 > 1e-20) { print "signs", $0; bad = 1 } }
            END { exit bad || n != 2 }'
}

@test "dem-stress --shear: tau, sigma_n, tau_sigma and gamma from the cell" {
    cd "$TMP"
    dem-pack --lattice fcc --cells 3,2,2 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    dem-step -q -n 200 --every 100 --normal hooke --kn 1e5 --dt 1e-6 --tangential none --cell-rate xy=500 fcc.dem > sh.dem
    dem-stress --shear xy sh.dem | cols "sxy[Pa] syy[Pa] tau[Pa] sigma_n[Pa] tau_sigma[-] gamma[-] eps_v[-]" |
        awk -F'\t' '{ n++
            if ($3 != -$1 || $4 != $2 || $5 != $3 / $4) { print "stress", $0; bad = 1 }
            # gamma = 500/s x 100 us per frame; tau > 0 while gamma grows; no volume change
            if (($6 - 0.05 * n) ^ 2 > 1e-28 || !($5 > 0) || $7 != 0) { print "strain", $0; bad = 1 } }
            END { exit bad || n != 2 }'
}

@test "dem-stress --triaxial/--shear from walls: strains against the first frame's walls" {
    cd "$TMP"
    dem-pack --random 150 --box 0,0,0,0.005,0.005,0.015 --radius 5e-4 --young 1e7 --enclose > sq0.dem
    # the lid (wall 5) moves down and along x; frame 0 is the reference
    dem-step -q --time 0.02 --every-time 0.01 --wall-velocity 5=0.01,0,-0.15 --local-damping 0.3 sq0.dem > sq.dem
    dem-stress --triaxial z --shear xz sq.dem > sq.tsv
    cols "szz[Pa] eps_a[-] eps_q[-] eps_v[-] gamma[-] tau[Pa] sxz[Pa] sigma_n[Pa]" < sq.tsv | awk -F'\t' '
        NR == 1 && ($2 != 0 || $3 != 0 || $4 != 0 || $5 != 0) { print "reference", $0; bad = 1 }
        NR == 2 { ea = -log(0.012 / 0.0135)
                  if (($2 - ea) ^ 2 > 1e-24 || ($3 - 2 / 3 * ea) ^ 2 > 1e-24 || ($4 - ea) ^ 2 > 1e-24) { print "axial", $0; bad = 1 }
                  if (($5 - 0.0001 / 0.012) ^ 2 > 1e-24) { print "gamma", $0; bad = 1 } }
        $6 != -$7 || $8 != $1 { print "stress", $0; bad = 1 }
        END { exit bad || NR != 2 }'
    # a frame selected later: the reference is still the input's first frame
    [ "$(dem-stress --triaxial z --last sq.dem | cols 'eps_a[-]')" = "$(sed -n 3p sq.tsv | cut -f31)" ]
    # nothing to measure along an axis without walls or cell: nan
    dem-pack --lattice sc --cells 2,1,1 --radius 0.001 --wall z=0 --wall z=0.01@0,0,-0.01 > open.dem
    run dem-stress --triaxial z --box -1,-1,-1,1,1,1 open.dem
    [ "$status" -eq 0 ]
    [ "$(cols 'eps_a[-] eps_v[-]' <<<"$output")" = $'0\tnan' ]
}

@test "dem-stress --triaxial/--shear: usage errors" {
    for bad in "--triaxial w" "--triaxial xy" "--shear xx" "--shear x" "--shear xw" "--walls --triaxial z" "--per-particle --shear xy"; do
        run dem-stress $bad /dev/null
        [ "$status" -eq 2 ] || { echo "$bad: status $status"; return 1; }
    done
}

@test "unit slips: dem-pack warns (not refuses) when a material parameter is outside any real granular material" {
    cd "$TMP"
    run --separate-stderr dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 70 -o y.dem
    [ "$status" -eq 0 ]
    [ -s y.dem ]
    [[ "$stderr" == *"dem-pack: warning: material 0 'default': young = 70 Pa is below any real granular material"*"did you mean 70e9 Pa (GPa)?"* ]]
    run --separate-stderr dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --density 2.5 -o d.dem
    [[ "$stderr" == *"density = 2.5 kg/m^3 is below"*"did you mean 2.5e3 kg/m^3 (g/cm^3)?"* ]]
    run --separate-stderr dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --surface-energy 50 -o s.dem
    [[ "$stderr" == *"surface_energy = 50 J/m^2 is beyond"*"did you mean 50e-3 J/m^2 (mJ/m^2)?"* ]]
    run --separate-stderr dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --friction 30 -o f.dem
    [[ "$stderr" == *"friction = 30 is beyond"*"if 30 is the friction angle in degrees, mu = tan(30 deg) = 0.577"* ]]
    run --separate-stderr dem-pack --lattice sc --cells 2,1,1 --radius 500 -o r.dem
    [[ "$stderr" == *"particle radius = 500 m is beyond"*"did you mean 500e-3 m (mm)?"* ]]
    # a second material, by name
    run --separate-stderr dem-pack --lattice sc --cells 2,1,1 --radius 0.001 --material name=steel,young=210 --assign 1:all -o m.dem
    [[ "$stderr" == *"material 1 'steel': young = 210 Pa"*"210e9 Pa (GPa)"* ]]
    [[ "$stderr" != *"material 0"* ]] # material 0 is used by nothing
}

@test "unit slips: real materials and DEM's usual softening pass without a word" {
    for args in "" "--young 7e10 --density 2500" "--young 1e7" "--young 2e11 --density 7800 --friction 0.3" \
                "--young 1e5 --density 1100 --surface-energy 0.05 --rolling-friction 0.1" "--density 19300 --young 4e11"; do
        run --separate-stderr dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 $args -o "$TMP/ok.dem"
        [ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$args: $stderr"; return 1; }
    done
    run --separate-stderr dem-pack --lattice sc --cells 2,1,1 --radius 2e-6 -o "$TMP/ok.dem"
    [ -z "$stderr" ]
}

@test "unit slips: dem-step warns too, says how to change the value, and -q does not hide it (warnings always print)" {
    dem-pack --random 20 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --young 70 2> /dev/null > "$TMP/y.dem"
    run --separate-stderr dem-step -n 1 "$TMP/y.dem" -o "$TMP/y1.dem"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"dem-step: warning: material 0 'default': young = 70 Pa"*"(dem-pack --from FILE --set-material 0:young=VALUE changes it)"* ]]
    run --separate-stderr dem-step -q -n 1 "$TMP/y.dem" -o "$TMP/y1.dem"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"dem-step: warning: material 0 'default': young = 70 Pa"* ]]
}

@test "the overlap guard at dt <= tc/20 names the stiffness and its units, not the time step" {
    cd "$TMP"
    dem-pack --random 200 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 70 2> /dev/null > y.dem
    run --separate-stderr dem-step -q --gravity 0,0,-9.81 -n 20000 y.dem -o out.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"overlaps wall"*"is only 1/50 of the collision time"*"so it is not the cause: the contacts are too soft for the load they carry; check the stiffness and its units (Young's modulus in Pa"* ]]
    # a step too long for the collisions keeps the time-step advice
    dem-pack --random 200 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 1e7 --velocity 0,0,-5 > fast.dem
    run --separate-stderr dem-step -q --stop-dt 0 --stop-move 0 --dt 5e-5 -n 20000 fast.dem -o out.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"overlap by"*"the time step 5e-05 s is 0.485 times the collision time"*"dem-step --dt auto would use"*"(guard: dem-step --stop-overlap)"* ]]
    [[ "$stderr" != *"not the cause"* ]]
}

@test "--progress S: a progress log on stderr that is a file: header, TSV columns with units, a last line" {
    cd "$TMP"
    dem-pack --random 300 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 1e7 > b.dem
    # every step (an interval below any step's time): one line per step after the header
    dem-step -q --gravity 0,0,-9.81 -n 300 --progress 1e-9 b.dem 2> log.txt > p.dem
    [ "$(head -1 log.txt)" = "$(printf 'progress\tstep\ttime[s]\tunbalanced\toverlap_max\tke[J]\telapsed[s]\teta[s]')" ]
    [ "$(grep -c '^progress' log.txt)" -eq 301 ]
    grep '^progress' log.txt | cut -f2- | awk -F'\t' 'NR > 1 { n++
        if ($1 != n || $2 <= 0 || $3 < 0 || $4 < 0 || $5 <= 0 || $6 < 0 || $7 < 0) { print "bad row", $0; bad = 1 } }
        END { if ($7 != 0) { print "the last eta is not 0:", $7; bad = 1 } exit bad || n != 300 }'
    # the last line agrees with the frame: step, time, the largest overlap, the unbalanced ratio
    [ "$(tail -1 log.txt | cut -f2)" = "$(dem-probe --last p.dem 2> /dev/null | col step)" ]
    # a long interval: the header and the line after the last step only
    dem-step -q --gravity 0,0,-9.81 -n 300 --progress 3600 b.dem 2> log2.txt > /dev/null
    [ "$(wc -l < log2.txt)" -eq 2 ] && [ "$(tail -1 log2.txt | cut -f2)" = 300 ]
}

@test "--progress changes nothing in the run: the same bits, with threads and --until too" {
    cd "$TMP"
    dem-pack --random 300 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 1e7 > b.dem
    dem-step -q --gravity 0,0,-9.81 -n 400 --every 100 b.dem > a.dem
    dem-step -q --gravity 0,0,-9.81 -n 400 --every 100 --progress 1e-9 b.dem 2> /dev/null > b1.dem
    cmp a.dem b1.dem
    dem-step -q --gravity 0,0,-9.81 -n 400 --every 100 --threads 2 --progress 1e-9 b.dem 2> /dev/null > b2.dem
    cmp a.dem b2.dem
    dem-step -q --gravity 0,0,-9.81 -n 100000 --until ke=1e-9 --progress 1e-9 b.dem 2> log.txt > u1.dem
    dem-step -q --gravity 0,0,-9.81 -n 100000 --until ke=1e-9 b.dem > u0.dem
    cmp u0.dem u1.dem
    [ "$(tail -1 log.txt | cut -f2)" = "$(dem-probe --last u0.dem 2> /dev/null | col step)" ]
}

@test "--progress: dem-reverse has it too; usage errors; refused with --minimize" {
    cd "$TMP"
    dem-pack --random 50 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose --young 1e7 --velocity-random 0.1 > g.dem
    dem-step -q -n 100 --damping none --tangential none g.dem > f.dem
    dem-reverse -q -n 100 --progress 1e-9 f.dem 2> log.txt > r.dem
    [ "$(grep -c '^progress' log.txt)" -eq 101 ]
    # the step counter counts on (dem-reverse --help); the time runs back to the start
    [ "$(tail -1 log.txt | cut -f2)" = 200 ]
    awk -F'\t' -v t="$(tail -1 log.txt | cut -f3)" 'BEGIN { exit !(t * t < 1e-30) }'
    for bad in "--progress 0" "--progress -1" "--progress x" "--progress"; do
        run dem-step -n 1 $bad g.dem
        [ "$status" -eq 2 ] || { echo "$bad: $status"; return 1; }
    done
    run --separate-stderr dem-step --minimize --tangential none --progress 1 g.dem
    [ "$status" -eq 2 ] && [[ "$stderr" == *"--progress does not apply"* ]]
}
