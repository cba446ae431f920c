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
