#!/usr/bin/env bats
# dem-stress: options, errors, and the mechanics: platen stress of a squeezed packing, the
# particle stresses summing to the assembly stress, a hydrostatic lattice, the kinetic stress;
# the cell's strain (frames whose F is set by tests/tools/dem-set-deform) and the void ratio.
load helpers

T=$'\t'

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# An fcc crystal of frictionless spheres in a box of six walls, squeezed by moving the lid down
# 10 um, then left to come to rest (local damping): the platen forces are set.
squeezed_fcc() {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --enclose --friction 0 |
        dem-step -q --normal hooke --kn 1e4 --time 0.002 --local-damping 0.5 --wall-velocity 5=0,0,-0.005 |
        dem-step -q --time 0.01 --wall-velocity 5=0,0,0 --every 2000 > fcc.dem
}

# Column NAME of row ROW (1 = first data row) of a TSV table on stdin.
col() {
    awk -F'\t' -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                                          NR - 1 == row { print $c; exit }'
}

# |a/b - 1| < tol
close_to() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; }

# |a - b| < tol
near_abs() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < t) }'; }

# awk's value of an expression, as round-trip text
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

# The strain columns, in order.
STRAIN_COLS=("exx[-]" "eyy[-]" "ezz[-]" "exy[-]" "exz[-]" "eyz[-]" "ev[-]")

@test "--help teaches on stdout and exits 0" {
    run --separate-stderr dem-stress --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "$output" == "Usage: dem-stress"* ]]
    [[ "$output" == *"COMPRESSION IS POSITIVE"* ]]
    [[ "$output" == *"l = x_i - (x_j + H s)"* ]]
    [[ "$output" == *"--per-particle"* && "$output" == *"--walls"* && "$output" == *"--kinetic"* ]]
    [[ "$output" == *"--box X0,Y0,Z0,X1,Y1,Z1"* && "$output" == *"--every K"* ]]
    [[ "$output" == *"q = sqrt(3 J2)"* ]]
}

@test "--help: the strain columns, their sign, where F comes from, the void ratio" {
    run --separate-stderr dem-stress --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"exx[-] eyy[-] ezz[-] exy[-] exz[-] eyz[-] ev[-] void_ratio[-]"* ]]
    [[ "$output" == *"EXTENSION IS POSITIVE"* && "$output" == *"EXTENSION POSITIVE"* ]]
    [[ "$output" == *"e = 1/2 ln(F F^T)"* && "$output" == *"ev = ln det F"* ]]
    [[ "$output" == *"dem-step --cell-reset-strain"* ]]
    [[ "$output" == *"nan: no periodic cell, strain not defined"* ]]
    [[ "$output" == *"void_ratio = V / Vs - 1"* && "$output" == *"overlaps are ignored"* ]]
}

@test "usage errors exit 2 with a pointer to --help" {
    dem-pack --lattice sc --cells 2,2,2 --radius 1e-3 --periodic lattice > sc.dem
    for args in "--walls --per-particle" "--kinetic --walls" "--kinetic --per-particle" "--box 1,2" \
                "--box 1,1,1,0,0,0" "--box 0,0,0,1,1,x" "--walls --box 0,0,0,1,1,1" "--frame x" "--every 0" \
                "--frame 1 --last" "--bogus" "-x" "--frame" "sc.dem sc.dem"; do
        run --separate-stderr dem-stress $args sc.dem
        [ "$status" -eq 2 ] || { echo "args '$args': status $status"; return 1; }
        [[ "$stderr" == *"Try 'dem-stress --help'"* ]] || { echo "args '$args': $stderr"; return 1; }
        [ -z "$output" ] || { echo "args '$args': output '$output'"; return 1; }
    done
}

@test "data errors: the header, then a message naming the cause, exit 1" {
    run --separate-stderr dem-stress /dev/null
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-stress: empty input: no frame (0 bytes)" ]
    [[ "$output" == "frame${T}step${T}time[s]${T}volume[m^3]"* ]]
    run --separate-stderr dem-stress missing.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-stress: cannot open 'missing.dem'"* ]]
    # no cell, no walls: no volume, unless a box is given; walls and particles need none
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > free.dem
    run --separate-stderr dem-stress free.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-stress: frame 0: no volume to average over"*"give a box"* ]]
    dem-stress --box -1,-1,-1,1,1,1 free.dem > /dev/null
    dem-stress --per-particle free.dem > /dev/null
    dem-stress --walls free.dem > /dev/null
    run --separate-stderr dem-stress --frame 3 free.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"--frame 3: the stream has only 1 frames"* ]]
}

@test "headers: names with units, one per mode" {
    dem-pack --lattice sc --cells 2,2,2 --radius 1e-3 --periodic lattice > sc.dem
    run dem-stress sc.dem
    [ "${lines[0]}" = "frame${T}step${T}time[s]${T}volume[m^3]${T}sxx[Pa]${T}syy[Pa]${T}szz[Pa]${T}sxy[Pa]${T}sxz[Pa]${T}syz[Pa]${T}p[Pa]${T}q[Pa]${T}s1[Pa]${T}s2[Pa]${T}s3[Pa]${T}s1_s3${T}coordination${T}exx[-]${T}eyy[-]${T}ezz[-]${T}exy[-]${T}exz[-]${T}eyz[-]${T}ev[-]${T}void_ratio[-]${T}coordination_mech${T}rattler_fraction" ]
    run dem-stress --per-particle sc.dem
    [ "${lines[0]}" = "frame${T}step${T}time[s]${T}id${T}volume[m^3]${T}sxx[Pa]${T}syy[Pa]${T}szz[Pa]${T}sxy[Pa]${T}sxz[Pa]${T}syz[Pa]${T}p[Pa]${T}q[Pa]" ]
    [ "${#lines[@]}" -eq 9 ]
    run dem-stress --walls sc.dem
    [ "${lines[0]}" = "frame${T}step${T}time[s]${T}wall${T}kind${T}fx[N]${T}fy[N]${T}fz[N]${T}pressure[Pa]" ]
    [ "${#lines[@]}" -eq 1 ]
}

@test "two spheres pressed together: positive (compressive) sxx = F d / V, nothing else" {
    printf 'id\tx\ty\tz\tr\n1\t0.004\t0.005\t0.005\t0.001\n2\t0.00599\t0.005\t0.005\t0.001\n' |
        dem-pack --from - --periodic 0,0,0,0.01,0.01,0.01 | dem-step -q -n 0 --normal hooke --kn 1000 > pair.dem
    run dem-stress pair.dem
    sxx=$(dem-stress pair.dem | col "sxx[Pa]" 1)
    # F = kn delta = 1000 * 1e-5 = 0.01 N, d = 1.99e-3 m, V = 1e-6 m^3: 19.9 Pa
    close_to "$sxx" 19.9 1e-9
    [ "$(dem-stress pair.dem | col "syy[Pa]" 1)" = 0 ]
    [ "$(dem-stress pair.dem | col "s3[Pa]" 1)" = 0 ]
    [ "$(dem-stress pair.dem | col "coordination" 1)" = 1 ]
}

@test "a squeezed fcc packing: the Love-Weber stress equals the platen stress within 1%" {
    squeezed_fcc
    dem-stress --last fcc.dem > s.tsv
    dem-stress --walls --last fcc.dem > w.tsv
    szz=$(col "szz[Pa]" 1 < s.tsv); sxx=$(col "sxx[Pa]" 1 < s.tsv); syy=$(col "syy[Pa]" 1 < s.tsv)
    lid=$(col "pressure[Pa]" 6 < w.tsv); floor=$(col "pressure[Pa]" 5 < w.tsv)
    side_x=$(col "pressure[Pa]" 1 < w.tsv); side_y=$(col "pressure[Pa]" 3 < w.tsv)
    echo "szz $szz, lid $lid, floor $floor; sxx $sxx, wall x $side_x; syy $syy, wall y $side_y"
    awk -v p="$lid" 'BEGIN { exit !(p > 1000) }'    # really squeezed
    close_to "$szz" "$lid" 0.01
    close_to "$szz" "$floor" 0.01
    close_to "$sxx" "$side_x" 0.01
    close_to "$syy" "$side_y" 0.01
    # the lid pushes down on the particles: the particles push it up
    [[ "$(col "fz[N]" 6 < w.tsv)" != -* ]]
    [ "$(col "kind" 6 < w.tsv)" = plane ]
    # frictionless fcc under a uniaxial load with rigid side walls: s1/s3 = 2 (Hanley eq 24, mu = 0)
    close_to "$(col "s1_s3" 1 < s.tsv)" 2 0.02
}

@test "the volume-weighted particle stresses sum to the assembly stress (a dem-step frame)" {
    squeezed_fcc
    dem-stress --last fcc.dem > s.tsv
    dem-stress --per-particle --last fcc.dem > pp.tsv
    [ "$(wc -l < pp.tsv)" -eq 33 ]
    v=$(col "volume[m^3]" 1 < s.tsv)
    for c in 6 7 8 9 10 11; do
        sum=$(awk -F'\t' -v c=$c -v v="$v" 'NR > 1 { s += $5 * $c } END { printf "%.17g", s / v }' pp.tsv)
        want=$(awk -F'\t' -v c=$((c - 1)) 'NR == 2 { print $c }' s.tsv)
        awk -v a="$sum" -v b="$want" -v big="$(col "szz[Pa]" 1 < s.tsv)" \
            'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1e-12 * big) }' ||
            { echo "column $c: sum $sum, assembly $want"; return 1; }
    done
}

@test "a hydrostatically squeezed fcc crystal: three equal principal stresses, p = 2 N d F / V" {
    # fcc of touching spheres in its periodic cell, radii then grown by 0.1 %: every one of the
    # 12 contacts of each sphere overlaps by delta = 2 (1.001 R) - 2 R
    dem-pack --lattice fcc --cells 3,3,3 --radius 5e-4 --periodic lattice | dem-probe --particles |
        awk -F'\t' -v OFS='\t' 'NR == 1 { print "id", "x", "y", "z", "r"; next } { print $4, $5, $6, $7, $17 * 1.001 }' > fcc.tsv
    L=$(awk 'BEGIN { printf "%.17g", 3 * sqrt(2) * 1e-3 }')
    dem-pack --from fcc.tsv --periodic 0,0,0,$L,$L,$L | dem-step -q -n 0 > hyd.dem
    dem-stress hyd.dem > s.tsv
    s1=$(col "s1[Pa]" 1 < s.tsv); s2=$(col "s2[Pa]" 1 < s.tsv); s3=$(col "s3[Pa]" 1 < s.tsv)
    p=$(col "p[Pa]" 1 < s.tsv); q=$(col "q[Pa]" 1 < s.tsv)
    close_to "$s1" "$s3" 1e-12
    close_to "$s2" "$s3" 1e-12
    awk -v q="$q" -v p="$p" 'BEGIN { exit !(q < 1e-12 * p) }'
    [ "$(col "coordination" 1 < s.tsv)" = 12 ]
    # Hertz with the default glass: E* = E / (2 (1 - nu^2)), R* = R'/2, F = 4/3 E* sqrt(R*) delta^1.5
    want=$(awk -v L="$L" 'BEGIN { r = 5e-4 * 1.001; d = 1e-3; delta = 2 * r - d; es = 7e10 / (2 * (1 - 0.25^2));
                                   f = 4 / 3 * es * sqrt(r / 2) * delta^1.5; printf "%.17g", 2 * 108 * d * f / L^3 }')
    echo "p $p, analytic $want"
    close_to "$p" "$want" 1e-9
}

@test "--kinetic: a gas of free particles has p = 2/3 E'kin / V" {
    dem-pack --random 60 --box 0,0,0,0.02,0.02,0.02 --radius 5e-4 --periodic 0,0,0,0.02,0.02,0.02 \
             --velocity-random 0.3 --seed 5 > gas.dem
    [ "$(dem-stress gas.dem | col "p[Pa]" 1)" = 0 ]
    p=$(dem-stress --kinetic gas.dem | col "p[Pa]" 1)
    ek=$(dem-probe gas.dem | col "ekin_t[J]" 1)
    # dem-pack removed the mean momentum: E'kin = ekin_t
    close_to "$p" "$(awk -v e="$ek" 'BEGIN { printf "%.17g", 2 / 3 * e / 8e-6 }')" 1e-12
}

@test "--box: only contacts whose contact point lies in the box, over the box's volume" {
    squeezed_fcc
    full=$(dem-stress --last fcc.dem | col "szz[Pa]" 1)
    v=$(dem-stress --last fcc.dem | col "volume[m^3]" 1)
    # a box around everything: the same sums over a larger volume
    big=$(dem-stress --last --box -1,-1,-1,1,1,1 fcc.dem | col "szz[Pa]" 1)
    close_to "$(awk -v b="$big" 'BEGIN { printf "%.17g", b * 8 }')" "$(awk -v f="$full" -v v="$v" 'BEGIN { printf "%.17g", f * v }')" 1e-12
    # a thin slab around the floor: only the floor's contacts (their contact points lie delta/2
    # below it), each adding (r - delta/2) fz to szz V
    slab=$(dem-stress --last --box -1,-1,-1e-4,1,1,1e-4 fcc.dem)
    want=$(dem-probe --contacts --last fcc.dem |
           awk -F'\t' 'NR > 1 && $6 == 1 && $5 == 4 { s += (5e-4 - $10 / 2) * ($16 + $19) } END { printf "%.17g", s / (2 * 2 * 2e-4) }')
    close_to "$(echo "$slab" | col "szz[Pa]" 1)" "$want" 1e-12
    [ "$(echo "$slab" | col "sxx[Pa]" 1)" = 0 ]
    # no contact point inside: zero stress; the particles counted are those centred in the box
    [ "$(dem-stress --last --box 0,0,0.0027,1,1,0.003 fcc.dem | col "p[Pa]" 1)" = 0 ]
    [ "$(dem-stress --per-particle --last --box -1,-1,-1,1,1,0.001 fcc.dem | wc -l)" -eq 9 ]
}

@test "--walls: one row per wall per frame, the recorded force, pressure on box faces only" {
    squeezed_fcc
    run dem-stress --walls fcc.dem
    frames=$(dem-probe fcc.dem | wc -l)
    [ "${#lines[@]}" -eq $(( (frames - 1) * 6 + 1 )) ]
    # the floor's force is minus the sum of the contact forces it exerts on the particles
    fz=$(dem-stress --walls --last fcc.dem | col "fz[N]" 5)
    sum=$(dem-probe --contacts --last fcc.dem | awk -F'\t' 'NR > 1 && $6 == 1 && $5 == 4 { s += $16 + $19 } END { printf "%.17g", -s }')
    close_to "$fz" "$sum" 1e-12
    # a cylinder: no face, no pressure
    dem-pack --random 20 --cylinder z,0,0,0.01,0,0.02 --radius 1e-3 --enclose > cyl.dem
    run dem-stress --walls cyl.dem
    [[ "${lines[1]}" == *"${T}cylinder${T}0${T}0${T}0${T}nan" ]]
}

@test "frame selection: --frame K, --last, --every K" {
    squeezed_fcc
    n=$(( $(dem-probe fcc.dem | wc -l) - 1 ))
    [ "$(dem-stress fcc.dem | wc -l)" -eq $((n + 1)) ]
    [ "$(dem-stress --every 2 fcc.dem | awk 'NR > 1 { printf "%s,", $1 }')" = "$(seq 0 2 $((n - 1)) | tr '\n' ,)" ]
    [ "$(dem-stress --last fcc.dem | awk 'NR > 1 { print $1 }')" = $((n - 1)) ]
    [ "$(dem-stress --frame 1 fcc.dem | awk 'NR > 1 { print $1 }')" = 1 ]
    diff <(dem-stress --frame 1 fcc.dem) <(dem-stress fcc.dem | awk 'NR <= 1 || $1 == 1')
}

@test "strain: a periodic fcc lattice has zero strain and the void ratio of fcc, 3 sqrt(2)/pi - 1" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice > fcc.dem
    dem-stress fcc.dem > s.tsv
    for c in "${STRAIN_COLS[@]}"; do
        [ "$(col "$c" 1 < s.tsv)" = 0 ] || { echo "$c: $(col "$c" 1 < s.tsv)"; return 1; }
    done
    e=$(col "void_ratio[-]" 1 < s.tsv)
    echo "void ratio $e"
    close_to "$e" "$(calc "3 * sqrt(2) / (4 * atan2(1, 1)) - 1")" 1e-12
    # the same solids over the same volume as dem-probe's solid fraction: e = 1/phi - 1
    phi=$(dem-probe fcc.dem | col "solid_fraction" 1)
    close_to "$e" "$(calc "1 / $phi - 1")" 1e-14
}

@test "strain: F = diag(0.9, 1.1, 1) gives exx = ln 0.9, eyy = ln 1.1, ev = ln 0.99, no shear" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice |
        dem-set-deform 0.9 0 0 0 1.1 0 0 0 1 > f.dem
    [ "$(dem-count cell f11,f22,f33,f12 < f.dem)" = "0.9${T}1.1${T}1${T}0" ]
    dem-stress f.dem > s.tsv
    close_to "$(col "exx[-]" 1 < s.tsv)" "$(calc "log(0.9)")" 1e-12
    close_to "$(col "eyy[-]" 1 < s.tsv)" "$(calc "log(1.1)")" 1e-12
    close_to "$(col "ev[-]" 1 < s.tsv)" "$(calc "log(0.99)")" 1e-12
    for c in "ezz[-]" "exy[-]" "exz[-]" "eyz[-]"; do [ "$(col "$c" 1 < s.tsv)" = 0 ]; done
    # extension positive: the stretched direction positive, the shortened one negative
    [[ "$(col "eyy[-]" 1 < s.tsv)" != -* && "$(col "exx[-]" 1 < s.tsv)" == -* ]]
    # F does not change H: the volume, and with it the void ratio, are the undeformed lattice's
    close_to "$(col "void_ratio[-]" 1 < s.tsv)" "$(calc "3 * sqrt(2) / (4 * atan2(1, 1)) - 1")" 1e-12
}

@test "strain: F = R_z(30 deg) diag(0.9, 1, 1): principal strains ln 0.9, 0, 0 along the turned axis" {
    c=$(calc "sqrt(3) / 2")
    F=($(awk -v c="$c" 'BEGIN { printf "%.17g %.17g 0 %.17g %.17g 0 0 0 1", 0.9 * c, -0.5, 0.9 * 0.5, c }'))
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice | dem-set-deform "${F[@]}" > r.dem
    dem-stress r.dem > s.tsv
    exx=$(col "exx[-]" 1 < s.tsv); eyy=$(col "eyy[-]" 1 < s.tsv); exy=$(col "exy[-]" 1 < s.tsv)
    echo "exx $exx eyy $eyy exy $exy"
    # ln 0.9 n (x) n with n = (cos 30, sin 30, 0), the stretched axis turned
    close_to "$exx" "$(calc "0.75 * log(0.9)")" 1e-12
    close_to "$eyy" "$(calc "0.25 * log(0.9)")" 1e-12
    close_to "$exy" "$(calc "sqrt(3) / 4 * log(0.9)")" 1e-12
    for k in "ezz[-]" "exz[-]" "eyz[-]"; do near_abs "$(col "$k" 1 < s.tsv)" 0 1e-16; done
    # eigenvalues of the xy block: ln 0.9 and 0 (the rotation leaves no strain)
    lo=$(calc "($exx + $eyy) / 2 - sqrt((($exx - $eyy) / 2)^2 + ($exy)^2)")
    hi=$(calc "($exx + $eyy) / 2 + sqrt((($exx - $eyy) / 2)^2 + ($exy)^2)")
    close_to "$lo" "$(calc "log(0.9)")" 1e-12
    near_abs "$hi" 0 1e-15
    close_to "$(col "ev[-]" 1 < s.tsv)" "$(calc "log(0.9)")" 1e-12
    # a rotation alone: no strain
    G=($(awk -v c="$c" 'BEGIN { printf "%.17g %.17g 0 %.17g %.17g 0 0 0 1", c, -0.5, 0.5, c }'))
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice | dem-set-deform "${G[@]}" | dem-stress > g.tsv
    for k in "${STRAIN_COLS[@]}"; do near_abs "$(col "$k" 1 < g.tsv)" 0 1e-15; done
}

@test "strain: simple shear F = I + e_x (x) e_y: principal strains +-asinh(1/2), ev = 0" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice | dem-set-deform 1 1 0 0 1 0 0 0 1 | dem-stress > s.tsv
    exx=$(col "exx[-]" 1 < s.tsv); eyy=$(col "eyy[-]" 1 < s.tsv); exy=$(col "exy[-]" 1 < s.tsv)
    # principal stretches of a shear g: sqrt(1 + g^2/4) +- g/2, logarithms +-asinh(g/2)
    a=$(calc "log(0.5 + sqrt(1.25))")
    close_to "$(calc "($exx + $eyy) / 2 + sqrt((($exx - $eyy) / 2)^2 + ($exy)^2)")" "$a" 1e-12
    close_to "$(calc "($exx + $eyy) / 2 - sqrt((($exx - $eyy) / 2)^2 + ($exy)^2)")" "-$a" 1e-12
    [ "$(col "ev[-]" 1 < s.tsv)" = 0 ]
    for k in "ezz[-]" "exz[-]" "eyz[-]"; do near_abs "$(col "$k" 1 < s.tsv)" 0 1e-16; done
}

@test "strain: without a periodic cell the strains are nan; the void ratio follows the volume" {
    # six walls: their box is the volume, every particle counted
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --enclose > walls.dem
    dem-stress walls.dem > s.tsv
    for c in "${STRAIN_COLS[@]}"; do [ "$(col "$c" 1 < s.tsv)" = nan ]; done
    v=$(col "volume[m^3]" 1 < s.tsv)
    close_to "$(col "void_ratio[-]" 1 < s.tsv)" "$(calc "$v / (32 * 4 / 3 * 4 * atan2(1, 1) * 5e-4^3) - 1")" 1e-12
    # --box: the particles centred in the box (the one sphere here), over the box's volume
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n0.5\t0\t0\t0.001\n' | dem-pack --from - > free.dem
    dem-stress --box -0.1,-0.1,-0.1,0.1,0.1,0.1 free.dem > b.tsv
    for c in "${STRAIN_COLS[@]}"; do [ "$(col "$c" 1 < b.tsv)" = nan ]; done
    close_to "$(col "void_ratio[-]" 1 < b.tsv)" "$(calc "0.008 / (4 / 3 * 4 * atan2(1, 1) * 1e-9) - 1")" 1e-12
    # a box face through the sphere's centre: half of it is inside (exact partial volumes)
    dem-stress --box -0.1,-0.1,-0.1,0,0.1,0.1 free.dem > h.tsv
    close_to "$(col "void_ratio[-]" 1 < h.tsv)" "$(calc "0.004 / (2 / 3 * 4 * atan2(1, 1) * 1e-9) - 1")" 1e-12
    # no particle counted: no void ratio
    [ "$(dem-stress --box 1,1,1,2,2,2 free.dem | col "void_ratio[-]" 1)" = nan ]
    # a cell with --box: the cell's strain still, the void ratio over the box
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice | dem-set-deform 0.9 0 0 0 1 0 0 0 1 |
        dem-stress --box -1,-1,-1,1,1,1 > cb.tsv
    close_to "$(col "exx[-]" 1 < cb.tsv)" "$(calc "log(0.9)")" 1e-12
    close_to "$(col "void_ratio[-]" 1 < cb.tsv)" "$(calc "8 / (32 * 4 / 3 * 4 * atan2(1, 1) * 5e-4^3) - 1")" 1e-12
}

@test "strain: a cell deformed by dem-step: ezz = L_zz t, ev = ln(V / V0), reset by --cell-reset-strain" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --periodic lattice > fcc.dem
    dem-step -q -n 2000 --every 1000 --cell-rate zz=-1 fcc.dem > d.dem
    cat fcc.dem d.dem | dem-stress > s.tsv
    [ "$(wc -l < s.tsv)" -eq 4 ]
    v0=$(col "volume[m^3]" 1 < s.tsv); e0=$(col "void_ratio[-]" 1 < s.tsv)
    for row in 2 3; do
        t=$(col "time[s]" $row < s.tsv); ezz=$(col "ezz[-]" $row < s.tsv); ev=$(col "ev[-]" $row < s.tsv)
        v=$(col "volume[m^3]" $row < s.tsv); e=$(col "void_ratio[-]" $row < s.tsv)
        echo "t $t ezz $ezz ev $ev ln(V/V0) $(calc "log($v / $v0)")"
        # F = I - 2e-8 I_zz after one step holds the strain to a unit in the last place of 1,
        # 1e-16 per step (here a bias of 1.3e-16 per step, 7e-9 relative): absolute tolerances
        near_abs "$ezz" "$(calc "-$t")" 1e-12
        near_abs "$ev" "$ezz" 1e-15
        near_abs "$ev" "$(calc "log($v / $v0)")" 1e-14
        close_to "$ev" "$(calc "-$t")" 1e-6
        close_to "$(calc "(1 + $e) / (1 + $e0)")" "$(calc "$v / $v0")" 1e-14
        for c in "exx[-]" "eyy[-]" "exy[-]" "exz[-]" "eyz[-]"; do near_abs "$(col "$c" $row < s.tsv)" 0 1e-15; done
    done
    # strains count from the reset frame on: after one more step, one step's worth
    dem-step -q -n 1 --cell-reset-strain d.dem | dem-stress > r.tsv
    near_abs "$(col "ezz[-]" 1 < r.tsv)" 0 1e-7
    awk -v e="$(col "ezz[-]" 1 < r.tsv)" 'BEGIN { exit !(e < 0) }'
}

@test "--walls: an unloaded wall's pressure is 0, never -0" {
    dem-pack --random 20 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose > box.dem
    dem-stress --walls box.dem | awk -F'\t' 'NR > 1 { print $9 }' > p.txt
    [ "$(sort -u p.txt)" = "0" ]
}
