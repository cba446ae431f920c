#!/usr/bin/env bats
# pack.bats - end-to-end tests of dem-pack: every option, its messages and exit statuses, and the
# stream it writes (read back with the test helper dem-count, which goes through libdem only).
load helpers

setup() {
    setup_tmp
    OUT="$TMP/out.dem"
}

# dem-pack ARGS... > $OUT, failing the test if dem-pack fails.
pack() { dem-pack "$@" > "$OUT"; }
# The counts line of $OUT (or of file $1): frames=1 particles=N walls=W materials=M cell=F
counts() { dem-count < "${1:-$OUT}"; }
# Fields of a table of $OUT, one row per record: rows TABLE FIELDS
rows() { dem-count "$1" "$2" < "$OUT"; }

# ---- help and usage --------------------------------------------------------------------------
@test "--help teaches on stdout and exits 0" {
    dem-pack --help > "$TMP/help" 2> "$TMP/err"
    [ ! -s "$TMP/err" ]
    grep -q '^Usage: dem-pack' "$TMP/help"
    for opt in --lattice --cells --radius --spacing --origin --random --box --cylinder --radius-uniform \
               --bidisperse --lognormal --seed --max-attempts --from --density --young --poisson \
               --friction --restitution --rolling-friction --twisting-friction --surface-energy \
               --material --assign --wall --enclose --wall-material --periodic --periodic-axes \
               --velocity --velocity-random --omega --fixed --level --verbose --help; do
        grep -q -- "$opt" "$TMP/help" || { echo "help lacks $opt"; false; }
    done
    grep -q '38%' "$TMP/help"
    grep -q '^Examples:' "$TMP/help"
    run dem-pack -h
    [ "$status" -eq 0 ]
}

@test "usage errors exit 2 with a pointer to --help" {
    for args in "" "--lattice fcc --cells 3,3,3" "--lattice fcc --radius 1" "--lattice fcc --cells 3,3 --radius 1" \
                "--lattice bogus --cells 1,1,1 --radius 1" "--lattice sc --cells 1,1,1 --radius 1 --spacing 1.5" \
                "--lattice sc --cells 1,1,1 --radius 1 --random 3" "--random 3 --radius 1" "--random 3 --box 0,0,0,1,1,1" \
                "--random 3 --box 0,0,0,1,1,1 --radius 1 --lognormal 1,0.1" "--random 0 --box 0,0,0,1,1,1 --radius 0.1" \
                "--random 3 --box 1,0,0,0,1,1 --radius 0.1" "--random 3 --box 0,0,0,1,1,1 --cylinder z,0,0,1,0,1 --radius 0.1" \
                "--random 3 --cylinder w,0,0,1,0,1 --radius 0.1" "--random 3 --box 0,0,0,1,1,1 --radius -1" \
                "--random 3 --box 0,0,0,1,1,1 --bidisperse 1,2,1.5" "--random 3 --box 0,0,0,1,1,1 --radius-uniform 2,1" \
                "--from x.tsv --radius 1" "--lattice sc --cells 1,1,1 --radius 1 --box 0,0,0,1,1,1" \
                "--random 3 --box 0,0,0,1,1,1 --radius 0.1 --cells 1,1,1" "--bogus" "-x" \
                "--lattice sc --cells 1,1,1 --radius 1 extra" "--lattice sc --cells 1,1,1 --radius 1 --level 10" \
                "--lattice sc --cells 1,1,1 --radius 1 --seed -1" "--lattice sc --cells 1,1,1 --radius 1 --seed 3" \
                "--lattice sc --cells 1,1,1 --radius 1 --velocity 1,2" \
                "--lattice sc --cells 1,1,1 --radius 1 --velocity-random -1" "--lattice sc --cells 1,1,1 --radius 1 --wall" \
                "--random 3 --box 0,0,0,1,1,1 --radius 0.1 --max-attempts 0" "--lattice sc --cells 1,1,1 --radius 1 --max-attempts 5"; do
        run dem-pack $args
        [ "$status" -eq 2 ] || { echo "status $status for: $args"; false; }
        [[ "$output" == *"Try 'dem-pack --help' for more information."* ]] || { echo "no hint for: $args"; false; }
    done
}

@test "usage messages name the option at fault" {
    run dem-pack --lattice fcc --cells 3,3,3 --radius 1 --spacing 1.5
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == "dem-pack: --spacing: 1.5 m is less than the sphere diameter 2R = 2 m: neighbours would overlap" ]]
    run dem-pack --lattice sc --random 3
    [[ "${lines[0]}" == "dem-pack: --lattice and --random exclude each other: give one of --lattice, --random, --from" ]]
    run dem-pack --lattice hex --cells 1,1,1 --radius 1
    [[ "${lines[0]}" == "dem-pack: --lattice: unknown lattice 'hex' (expected sc, bcc, fcc or hcp)" ]]
}

# ---- the stream ------------------------------------------------------------------------------
@test "output is one gzip member starting with the DEMSTRM magic" {
    pack --lattice sc --cells 2,2,2 --radius 0.5
    gzip -t "$OUT"
    [ "$(zcat "$OUT" | head -c 7)" = DEMSTRM ]
    [ "$(counts)" = "frames=1 particles=8 walls=0 materials=1 cell=0" ]
}

@test "--level 0 and 9 write the same frame, both readable" {
    pack --random 300 --box 0,0,0,0.02,0.02,0.02 --radius 0.001 --level 0
    mv "$OUT" "$TMP/l0.dem"
    pack --random 300 --box 0,0,0,0.02,0.02,0.02 --radius 0.001 --level 9
    gzip -t "$TMP/l0.dem" && gzip -t "$OUT"
    [ "$(stat -c %s "$OUT")" -lt "$(stat -c %s "$TMP/l0.dem")" ]
    cmp <(zcat "$TMP/l0.dem") <(zcat "$OUT")
    [ "$(counts "$TMP/l0.dem")" = "frames=1 particles=300 walls=0 materials=1 cell=0" ]
}

@test "silent without -v; -v prints one summary line on stderr" {
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 > "$OUT" 2> "$TMP/err"
    [ ! -s "$TMP/err" ]
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 -v > "$OUT" 2> "$TMP/err"
    [ "$(wc -l < "$TMP/err")" -eq 1 ]
    grep -q '^dem-pack: 108 particles, 1 material, 0 walls, solid fraction 0.7405 of the lattice' "$TMP/err"
    dem-pack --random 200 --cylinder z,0,0,0.01,0,0.02 --radius 0.001 --enclose --verbose > "$OUT" 2> "$TMP/err"
    grep -q '^dem-pack: 200 particles, 1 material, 3 walls, solid fraction 0.1333 of the cylinder' "$TMP/err"
}

# ---- lattices --------------------------------------------------------------------------------
@test "lattice counts: sc, bcc, fcc, hcp" {
    pack --lattice sc --cells 2,3,4 --radius 0.5;  [[ "$(counts)" == *" particles=24 "* ]]
    pack --lattice bcc --cells 3,3,3 --radius 0.5; [[ "$(counts)" == *" particles=54 "* ]]
    pack --lattice fcc --cells 3,3,3 --radius 0.5; [[ "$(counts)" == *" particles=108 "* ]]
    pack --lattice hcp --cells 2,2,2 --radius 0.5; [[ "$(counts)" == *" particles=32 "* ]]
}

@test "lattice sites start at origin + R; ids, mass, inertia, defaults" {
    pack --lattice sc --cells 3,1,1 --radius 0.5 --origin 1,2,3 --density 1000
    run rows particle id,x,y,z,r,material,flags,group,q0,vx
    [ "${lines[0]}" = "$(printf '1\t1.5\t2.5\t3.5\t0.5\t0\t0\t1\t1\t0')" ]
    [ "${lines[2]}" = "$(printf '3\t3.5\t2.5\t3.5\t0.5\t0\t0\t1\t1\t0')" ]
    # m = 4/3 pi r^3 rho, I = 2/5 m r^2
    run rows particle mass,inertia
    awk -v m="${lines[0]%%	*}" 'BEGIN { e = 4/3*3.141592653589793*0.125*1000; exit !((m - e)^2 < 1e-20) }'
    awk -F'\t' '{ exit !(($2 - 0.4*$1*0.25)^2 < 1e-20) }' <<< "${lines[0]}"
}

@test "--spacing opens the lattice to centre distance D" {
    pack --lattice sc --cells 2,1,1 --radius 0.5 --spacing 1.25
    run rows particle x
    [ "${lines[0]}" = 0.5 ]
    [ "${lines[1]}" = 1.75 ]
    pack --lattice fcc --cells 1,1,1 --radius 0.5 --spacing 2
    run rows particle x,y,z
    # the second fcc site (1/2,1/2,0) of a = 2 sqrt2: sqrt2 further along x and y
    awk -F'\t' 'NR == 2 { exit !(($1 - 0.5 - sqrt(2))^2 < 1e-24 && ($2 - 0.5 - sqrt(2))^2 < 1e-24 && $3 == 0.5) }' <<< "$output"
}

# ---- random packings -------------------------------------------------------------------------
@test "--random in a box: N spheres, inside the box, reproducible with --seed" {
    pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius 0.001 --seed 5
    [[ "$(counts)" == *" particles=1000 "* ]]
    rows particle x,y,z,r | awk -F'\t' '{ for (k = 1; k <= 3; k++) if ($k - $4 < -1e-15 || $k + $4 > 0.03 + 1e-15) bad++ }
                                       END { exit bad > 0 }'
    dem-pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius 0.001 --seed 5 > "$TMP/again.dem"
    cmp "$OUT" "$TMP/again.dem"
    dem-pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius 0.001 --seed 6 > "$TMP/other.dem"
    ! cmp -s "$OUT" "$TMP/other.dem" || false
    # the default seed is 1
    dem-pack --random 100 --box 0,0,0,0.03,0.03,0.03 --radius 0.001 > "$TMP/default.dem"
    dem-pack --random 100 --box 0,0,0,0.03,0.03,0.03 --radius 0.001 --seed 1 > "$TMP/seed1.dem"
    cmp "$TMP/default.dem" "$TMP/seed1.dem"
}

@test "--random size distributions: uniform, bidisperse, lognormal" {
    pack --random 500 --box 0,0,0,0.03,0.03,0.03 --radius-uniform 0.0005,0.0015
    rows particle r | awk '$1 < 0.0005 || $1 > 0.0015 { bad++ } END { exit !(NR == 500 && !bad) }'
    # 30 % of the solid volume in r = 2 mm spheres: n1 = round(400 x1), x1 = (0.3/8)/(0.3/8 + 0.7/1)
    pack --random 400 --box 0,0,0,0.04,0.04,0.04 --bidisperse 0.002,0.001,0.3
    n1=$(rows particle r | awk '$1 == 0.002 { n++ } END { print n }')
    [ "$n1" -eq 20 ]
    [ "$(rows particle r | awk '$1 == 0.001' | wc -l)" -eq 380 ]
    pack --random 800 --box 0,0,0,0.04,0.04,0.04 --lognormal 0.001,0.2
    rows particle r | sort -g | awk -v lo="$(awk 'BEGIN { print 0.001*exp(-0.6) }')" -v hi="$(awk 'BEGIN { print 0.001*exp(0.6) }')" \
        '{ r[NR] = $1; if ($1 < lo * (1 - 1e-12) || $1 > hi * (1 + 1e-12)) bad++ }
         END { m = r[int(NR / 2)]; exit !(NR == 800 && !bad && m > 0.00097 && m < 0.00103) }'
}

@test "--random in a cylinder with --enclose: mantle and two end planes" {
    pack --random 600 --cylinder z,0.1,0.2,0.02,0,0.03 --radius 0.001 --enclose
    [ "$(counts)" = "frames=1 particles=600 walls=3 materials=1 cell=0" ]
    rows particle x,y,z,r | awk -F'\t' '{ rho = sqrt(($1 - 0.1)^2 + ($2 - 0.2)^2)
        if (rho + $4 > 0.02 * (1 + 1e-12) || $3 - $4 < -1e-15 || $3 + $4 > 0.03 + 1e-15) bad++ } END { exit bad > 0 }'
    run rows wall kind,flags,px,py,pz,nx,ny,nz,radius
    [ "${lines[0]}" = "$(printf '2\t0\t0.1\t0.2\t0\t0\t0\t1\t0.02')" ]
    [ "${lines[1]}" = "$(printf '1\t0\t0\t0\t0\t0\t0\t1\t0')" ]
    [ "${lines[2]}" = "$(printf '1\t0\t0\t0\t0.03\t0\t0\t-1\t0')" ]
}

@test "--random that cannot place every sphere: exit 1, how many and the solid fraction" {
    run dem-pack --random 3000 --box 0,0,0,0.02,0.02,0.02 --radius 0.001 --max-attempts 1000
    [ "$status" -eq 1 ]
    [[ "$output" =~ ^dem-pack:\ placed\ [0-9]+\ of\ 3000\ spheres\ \(solid\ fraction\ 0\.[0-9]+\ of\ the\ region\) ]]
    [[ "$output" == *"jams near a solid fraction of 0.38"* ]]
    run dem-pack --random 1 --box 0,0,0,0.001,1,1 --radius 0.001
    [ "$status" -eq 1 ]
    [ "$output" = "dem-pack: the largest sphere (radius 0.001 m) does not fit: the region is 0.001 m long along x" ]
}

# ---- tables ----------------------------------------------------------------------------------
@test "--from: any column order, values back bit for bit, comments and blank lines skipped" {
    printf 'r\tz\tid\ty\tx\tvx\twz\tmaterial\tfixed\n# comment\n0.1\t0.30000000000000004\t7\t-1e-300\t2\t-1.5\t5\tglass\t1\n\n2.5e-3\t1\t9\t2\t3\t4.5\t-6\t0\t0\n' > "$TMP/p.tsv"
    pack --from "$TMP/p.tsv" --material name=glass,density=2000
    run rows particle id,x,y,z,r,vx,wz,material,flags
    [ "${lines[0]}" = "$(printf '7\t2\t-1e-300\t0.30000000000000004\t0.1\t-1.5\t5\t1\t1')" ]
    [ "${lines[1]}" = "$(printf '9\t3\t2\t1\t0.0025\t4.5\t-6\t0\t0')" ]
    # from standard input, ids 1.. in line order, units in brackets accepted
    printf 'x[m]\ty[m]\tz[m]\tr[m]\n0\t0\t0\t1\n3\t0\t0\t1\n' | dem-pack --from - > "$OUT"
    run rows particle id,x
    [ "${lines[1]}" = "$(printf '2\t3')" ]
}

@test "--from errors: exit 1 naming file, line and column" {
    t() { printf "$1" > "$TMP/bad.tsv"; run dem-pack --from "$TMP/bad.tsv"; [ "$status" -eq 1 ] && [ "$output" = "dem-pack: $TMP/bad.tsv: $2" ] || { echo "got: $output"; false; }; }
    t 'x\ty\tz\tr\tmass\n' 'line 1, column mass: unknown column name (required: x y z r; optional: id vx vy vz wx wy wz material fixed; ignored: frame step time fx fy fz; x y z r may carry [m], v* [m/s], w* [rad/s])'
    t 'x\ty\tz\n' 'line 1, column r: required column missing from the header'
    t 'x\ty\tz\tr\n0\t0\t0\t1\n0\t0\tq\t1\n' "line 3, column z: 'q' is not a finite number"
    t 'x\ty\tz\tr\n0\t0\t0\n' 'line 2, column r: missing value (3 fields, the header names 4 columns)'
    t 'x\ty\tz\tr\n0\t0\t0\t1\t1\n' 'line 2: 5 fields, but the header names 4 columns'
    t 'id\tx\ty\tz\tr\n4\t0\t0\t0\t1\n4\t3\t0\t0\t1\n' 'line 3, column id: id 4 already used on line 2'
    t 'x\ty\tz\tr\n0\t0\t0\t0\n' 'line 2, column r: radius 0 must be positive'
    t 'x\ty\tz\tr\tmaterial\n0\t0\t0\t1\t1\n' "line 2, column material: material '1' does not exist (materials: 0 default)"
    t 'x\ty\tz\tr\tfixed\n0\t0\t0\t1\tyes\n' "line 2, column fixed: 'yes' must be 0 or 1"
    run dem-pack --from "$TMP/missing.tsv"
    [ "$status" -eq 1 ]
    [[ "$output" == "dem-pack: cannot open '$TMP/missing.tsv': No such file or directory" ]]
}

# ---- materials -------------------------------------------------------------------------------
@test "material 0 options, --material copies material 0, --assign recomputes masses" {
    pack --lattice sc --cells 3,1,1 --radius 0.5 --density 1000 --young 1e9 --poisson 0.3 --friction 0.4 \
         --restitution 0.8 --rolling-friction 0.01 --twisting-friction 0.02 --surface-energy 0.05 \
         --material name=steel,density=8000,young=2e11 --material friction=0.1 \
         --assign steel:ids=2-3 --assign 2:ids=3
    run rows material name,density,young,poisson,friction,restitution,rolling_friction,twisting_friction,surface_energy
    [ "${lines[0]}" = "$(printf 'default\t1000\t1000000000\t0.3\t0.4\t0.8\t0.01\t0.02\t0.05')" ]
    [ "${lines[1]}" = "$(printf 'steel\t8000\t200000000000\t0.3\t0.4\t0.8\t0.01\t0.02\t0.05')" ]
    [ "${lines[2]}" = "$(printf 'material2\t1000\t1000000000\t0.3\t0.1\t0.8\t0.01\t0.02\t0.05')" ]
    run rows particle material,mass
    awk -F'\t' 'BEGIN { v = 4/3*3.141592653589793*0.125 }
        { m[NR] = $1; mass[NR] = $2 }
        END { exit !(m[1] == 0 && m[2] == 1 && m[3] == 2 && (mass[2] / (v * 8000) - 1)^2 < 1e-28 && (mass[3] / (v * 1000) - 1)^2 < 1e-28) }' <<< "$output"
}

@test "material errors are usage errors" {
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --material name=glass,densty=1
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == "dem-pack: --material: material 'name=glass,densty=1': unknown key 'densty'"* ]]
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --assign steel:all
    [ "$status" -eq 2 ]
    [ "${lines[0]}" = "dem-pack: --assign: material 'steel' does not exist (materials: 0 default)" ]
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --assign 0:everything
    [ "$status" -eq 2 ]
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --restitution 1.5
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == *"restitution 1.5 must lie in (0, 1]"* ]]
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --wall-material 4
    [ "$status" -eq 2 ]
}

# ---- walls -----------------------------------------------------------------------------------
@test "--wall planes face the particles; a moving platen keeps its velocity" {
    pack --lattice sc --cells 2,2,2 --radius 0.5 --wall z=0 --wall z=2.5@0,0,-0.01 --wall x=-1 \
         --material name=steel --wall-material steel
    [ "$(counts)" = "frames=1 particles=8 walls=3 materials=2 cell=0" ]
    run rows wall kind,material,px,py,pz,nx,ny,nz,vx,vy,vz
    [ "${lines[0]}" = "$(printf '1\t1\t0\t0\t0\t0\t0\t1\t0\t0\t0')" ]
    [ "${lines[1]}" = "$(printf '1\t1\t0\t0\t2.5\t0\t0\t-1\t0\t0\t-0.01')" ]
    [ "${lines[2]}" = "$(printf '1\t1\t-1\t0\t0\t1\t0\t0\t0\t0\t0')" ]
}

@test "--wall with particle centres on both sides of it: exit 1 naming the wall and the particles" {
    run dem-pack --lattice sc --cells 2,2,2 --radius 0.5 --wall z=1
    [ "$status" -eq 1 ]
    [ "$output" = "dem-pack: --wall z=1: particle centres lie on both sides of the plane z = 1 m (id 1 at z = 0.5 m, id 5 at z = 1.5 m)" ]
    run dem-pack --lattice sc --cells 2,2,2 --radius 0.5 --wall z=1@1
    [ "$status" -eq 2 ]
}

@test "--wall: a sphere reaching through the plane by less than its radius is a contact; -v reports the largest overlap" {
    # a sphere resting on the floor at its equilibrium overlap 1e-5 R (LAMMPS leaves about that)
    printf 'id\tx\ty\tz\tr\n7\t0\t0\t0.00099999\t0.001\n' > "$TMP/rest.tsv"
    run --separate-stderr dem-pack --from "$TMP/rest.tsv" --wall z=0 -v
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"largest overlap with a wall: 1e-08 m (particle 7, wall 0), 1e-05 of its radius"* ]]
    # deeper, but the centre still above the plane: accepted, and dem-step pushes it out
    run --separate-stderr dem-pack --lattice sc --cells 2,2,2 --radius 0.5 --wall z=1.7 -v
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"largest overlap with a wall: 0.3 m (particle 5, wall 0), 0.6 of its radius"* ]]
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0.0008\t0.001\n' | dem-pack --from - --wall z=0 --young 1e6 > "$TMP/deep.dem"
    dem-step -q -n 2000 --dt 1e-6 --normal hooke --kn 100 --damping none --tangential none "$TMP/deep.dem" | dem-probe --particles |
        awk -F'\t' 'NR == 2 { exit !($7 > 0.001 && $10 > 0) }'   # bounced off: above z = r, moving up
    # no overlap at all: said so
    run --separate-stderr dem-pack --lattice sc --cells 2,2,2 --radius 0.5 --wall z=2.5 -v
    [[ "$stderr" == *"no sphere overlaps a wall"* ]]
}

@test "--enclose: six planes around a box or the spheres' bounding box" {
    pack --random 100 --box 0,0,0,0.02,0.03,0.04 --radius 0.001 --enclose
    run rows wall px,py,pz,nx,ny,nz
    [ "${#lines[@]}" -eq 6 ]
    [ "${lines[1]}" = "$(printf '0.02\t0\t0\t-1\t0\t0')" ]
    [ "${lines[4]}" = "$(printf '0\t0\t0\t0\t0\t1')" ]
    [ "${lines[5]}" = "$(printf '0\t0\t0.04\t0\t0\t-1')" ]
    pack --lattice sc --cells 2,3,4 --radius 0.5 --origin 1,1,1 --enclose
    run rows wall px,py,pz
    [ "${lines[0]}" = "$(printf '1\t0\t0')" ] && [ "${lines[3]}" = "$(printf '0\t4\t0')" ] && [ "${lines[5]}" = "$(printf '0\t0\t5')" ]
}

# ---- periodic cell ---------------------------------------------------------------------------
@test "--periodic box and --periodic-axes set the cell" {
    pack --random 200 --box 0,0,0,0.02,0.02,0.02 --radius 0.001 --periodic 0,0,0,0.02,0.02,0.02 --periodic-axes xy --enclose
    run rows cell flags,ox,h11,h22,h33,h12,l11
    [ "$output" = "$(printf '3\t0\t0.02\t0.02\t0.02\t0\t0')" ]
    # walls only across z; spheres cross the periodic x and y faces but not z
    [[ "$(counts)" == *" walls=2 "* ]]
    rows particle x,y,z,r | awk -F'\t' '$1 - $4 < 0 || $1 + $4 > 0.02 || $2 - $4 < 0 || $2 + $4 > 0.02 { cross++ }
        $3 - $4 < -1e-15 || $3 + $4 > 0.02 + 1e-15 { bad++ } END { exit !(cross > 0 && !bad) }'
    rows particle x,y | awk -F'\t' '$1 < 0 || $1 >= 0.02 || $2 < 0 || $2 >= 0.02 { bad++ } END { exit bad > 0 }'
}

@test "--periodic lattice: the natural period, every centre inside the cell" {
    pack --lattice hcp --cells 3,2,2 --radius 0.5 --periodic lattice
    run rows cell flags,h11,h22,h33
    awk -F'\t' '{ exit !($1 == 7 && $2 == 3 && ($3 - 2*sqrt(3))^2 < 1e-28 && ($4 - 2*sqrt(8/3))^2 < 1e-28) }' <<< "$output"
    rows particle x,y,z | awk -F'\t' -v b="$(awk 'BEGIN { print 2*sqrt(3) }')" -v c="$(awk 'BEGIN { print 2*sqrt(8/3) }')" \
        '$1 < 0 || $1 >= 3 || $2 < 0 || $2 >= b || $3 < 0 || $3 >= c { bad++ } END { exit !(NR == 48 && !bad) }'
}

@test "--periodic errors: centres outside, region not spanning the cell, walls across periodic axes" {
    run dem-pack --lattice sc --cells 2,2,2 --radius 1 --periodic 0,0,0,3,3,3
    [ "$status" -eq 1 ]
    [ "$output" = "dem-pack: --periodic: particle id 2: centre x = 3 m lies outside the periodic cell [0, 3) m" ]
    run dem-pack --random 5 --box 0,0,0,1,1,1 --radius 0.1 --periodic 0,0,0,2,1,1
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == "dem-pack: --periodic: the cell is periodic along x, so the box must span the cell there"* ]]
    run dem-pack --lattice sc --cells 2,2,2 --radius 1 --periodic lattice --wall z=0
    [ "$status" -eq 2 ]
    run dem-pack --random 5 --box 0,0,0,1,1,1 --radius 0.1 --periodic lattice
    [ "$status" -eq 2 ]
    run dem-pack --lattice sc --cells 2,2,2 --radius 1 --periodic lattice --periodic-axes xq
    [ "$status" -eq 2 ]
}

# ---- velocities and fixed particles ----------------------------------------------------------
@test "--velocity, --omega and --fixed: fixed particles stay at rest" {
    pack --lattice sc --cells 4,1,1 --radius 0.5 --fixed ids=1 --fixed box=3,0,0,4,1,1 --velocity 1,2,3 --omega 0,0,5
    run rows particle id,flags,vx,vy,vz,wz
    [ "${lines[0]}" = "$(printf '1\t1\t0\t0\t0\t0')" ]
    [ "${lines[1]}" = "$(printf '2\t0\t1\t2\t3\t5')" ]
    [ "${lines[3]}" = "$(printf '4\t1\t0\t0\t0\t0')" ]
}

@test "--velocity-random: spread SIGMA, zero momentum, reproducible, positions unchanged" {
    pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius-uniform 0.0005,0.001 --velocity-random 0.5 --seed 3
    rows particle mass,vx,vy,vz | awk -F'\t' '{ m += $1; px += $1*$2; py += $1*$3; pz += $1*$4; s2 += $2^2 + $3^2 + $4^2 }
        END { sd = sqrt(s2 / (3*NR)); exit !((px^2 + py^2 + pz^2) < (1e-12 * m)^2 && sd > 0.47 && sd < 0.53) }'
    dem-pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius-uniform 0.0005,0.001 --velocity-random 0.5 --seed 3 | cmp - "$OUT"
    dem-pack --random 1000 --box 0,0,0,0.03,0.03,0.03 --radius-uniform 0.0005,0.001 --seed 3 | dem-count particle x,y,z,r > "$TMP/still"
    cmp <(rows particle x,y,z,r) "$TMP/still"
}

# ---- with dem-probe, when it is there ---------------------------------------------------------
@test "dem-probe reads what dem-pack writes" {
    command -v dem-probe > /dev/null || skip "dem-probe not built"
    pack --lattice fcc --cells 3,3,3 --radius 0.001
    run dem-probe --particles "$OUT"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 109 ]
}
