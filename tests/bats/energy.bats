#!/usr/bin/env bats
# dem-energy: options, errors, the budget's reference, and the budget of verification cases:
# elastic and damped collisions, a sphere sliding into rolling (friction against the analytic
# value), a frictional cloud, a settling packing, a wall doing work, an elastic gas.
#
# The residual checks of damped, frictional and wall-driven runs rely on dem-step keeping its
# books as formats/dem-stream.md §5.9 (format 1.1) says: it sets e_initial and e_ahead and counts
# dissipation with full-step velocities. A dem-step that stops doing so fails them.
load helpers

T=$'\t'

setup() {
    cd "$BATS_TEST_TMPDIR"
    # two spheres 10 um apart, closing at 0.2 m/s
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t0.1\n2\t0.00201\t0\t0\t0.001\t-0.1\n' > two.tsv
}

# Largest |residual| over the frames of a dem-energy table (stdin) divided by the largest energy
# that moves: kinetic, elastic, dissipated, boundary work, or the change of potential energy.
# Columns by name.
budget_ratio() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[J\]$/, "", n); c[n] = i }; next }
        NR == 2 { ep0 = $c["epot_g"] }
        { ek = $c["ekin_t"] + $c["ekin_r"]; el = $c["eel_n"] + $c["eel_t"]
          d = $c["ediss_friction"] + $c["ediss_damp_n"] + $c["ediss_damp_t"] + $c["ediss_local"] + $c["ediss_drag"] + \
              $c["ediss_rolling"] + $c["ediss_twisting"]
          w = $c["work_walls"] + $c["work_cell"] + $c["work_external"] + $c["work_law"]
          dp = $c["epot_g"] - ep0; if (dp < 0) dp = -dp; if (w < 0) w = -w
          s = ek; if (el > s) s = el; if (d > s) s = d; if (w > s) s = w; if (dp > s) s = dp; if (s > scale) scale = s
          r = $c["residual"]; if (r < 0) r = -r; if (r > m) m = r }
        END { printf "%.3g\n", m / scale }'
}

# Whether dem-step keeps the books of format 1.1: it sets e_initial at step 0, so dem-energy
# need not take its reference from the first frame.
books_kept() {
    ! dem-pack --from two.tsv | dem-step -q -n 0 | dem-energy 2>&1 > /dev/null | grep -q "has no e_initial"
}

# Check RATIO < LIMIT for WHAT (dem-step must keep the books: set e_initial).
check_budget() {
    books_kept || { echo "dem-step does not set e_initial: $3: residual $1, limit $2"; return 1; }
    echo "$3: residual $1 (limit $2)"
    awk -v r="$1" -v l="$2" 'BEGIN { exit !(r < l) }'
}

# Column NAME of data row ROW of a TSV table on stdin.
col() {
    awk -F'\t' -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                                          NR - 1 == row { print $c; exit }'
}

close_to() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; }

@test "--help teaches on stdout and exits 0" {
    run --separate-stderr dem-energy --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "$output" == "Usage: dem-energy"* ]]
    [[ "$output" == *"e_initial + W - (E + D)"* ]]
    [[ "$output" == *"8/15 E* sqrt(R*) delta^(5/2)"* ]]
    [[ "$output" == *"unwrapped position"* && "$output" == *"dt^2"* && "$output" == *"Mindlin"* ]]
    [[ "$output" == *"e_shadow[J]"* && "$output" == *"dt^2/12 sum over contacts of v.U''.v - dt^2/24 sum (|F|^2/m + |T|^2/I)"* ]]
    [[ "$output" == *"0 when the frame's forces are not current"* ]]
    [[ "$output" == *"--frame K"* && "$output" == *"--last"* && "$output" == *"--every K"* ]]
}

@test "usage errors exit 2 with a pointer to --help" {
    dem-pack --from two.tsv > two.dem
    for args in "--frame x" "--every 0" "--frame 1 --last" "--every 2 --last" "--bogus" "-x" "--frame" "two.dem two.dem"; do
        run --separate-stderr dem-energy $args two.dem
        [ "$status" -eq 2 ] || { echo "args '$args': status $status"; return 1; }
        [[ "$stderr" == *"Try 'dem-energy --help'"* ]] || { echo "args '$args': $stderr"; return 1; }
        [ -z "$output" ]
    done
}

@test "data errors: the header, then the message, exit 1" {
    run --separate-stderr dem-energy /dev/null
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-energy: empty input: no frame (0 bytes)" ]
    [ "${lines[0]}" = "frame${T}step${T}time[s]${T}ekin_t[J]${T}ekin_r[J]${T}epot_g[J]${T}eel_n[J]${T}eel_t[J]${T}ediss_friction[J]${T}ediss_damp_n[J]${T}ediss_damp_t[J]${T}ediss_local[J]${T}ediss_drag[J]${T}work_walls[J]${T}e_shadow[J]${T}total[J]${T}residual[J]${T}ediss_rolling[J]${T}ediss_twisting[J]${T}work_cell[J]${T}work_external[J]${T}e_initial[J]${T}e_ahead[J]${T}work_law[J]${T}eel_b[J]" ]
    run --separate-stderr dem-energy missing.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-energy: cannot open 'missing.dem'"* ]]
    dem-pack --from two.tsv > two.dem
    run --separate-stderr dem-energy --frame 5 two.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"--frame 5: the stream has only 1 frames"* ]]
}

@test "a dem-pack frame: energies by hand, no e_initial (a warning), residual 0 against itself" {
    printf 'id\tx\ty\tz\tr\tvx\twz\n1\t0\t0\t0.5\t0.01\t2\t3\n' | dem-pack --from - --density 1000 > one.dem
    run --separate-stderr dem-energy one.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: frame 0 (step 0) has no e_initial"* ]]
    m=$(awk 'BEGIN { printf "%.17g", 1000 * 4 / 3 * 3.141592653589793 * 0.01^3 }')
    close_to "$(echo "$output" | col "ekin_t[J]" 1)" "$(awk -v m=$m 'BEGIN { printf "%.17g\n", 0.5 * m * 4 }')" 1e-15
    close_to "$(echo "$output" | col "ekin_r[J]" 1)" "$(awk -v m=$m 'BEGIN { printf "%.17g\n", 0.5 * 0.4 * m * 1e-4 * 9 }')" 1e-15
    [ "$(echo "$output" | col "epot_g[J]" 1)" = 0 ]      # dem-pack sets no gravity
    [ "$(echo "$output" | col "residual[J]" 1)" = 0 ]
    [ "$(echo "$output" | col "e_shadow[J]" 1)" = 0 ]    # no forces in dem-pack's frame
    # the same ekin_t as dem-probe, to the last digit
    [ "$(echo "$output" | col "ekin_t[J]" 1)" = "$(dem-probe one.dem | col "ekin_t[J]" 1)" ]
    # gravity, from the frame's settings, zero at the origin
    dem-step -q -n 0 --gravity 0,0,-9.81 one.dem > g.dem
    close_to "$(dem-energy g.dem 2> /dev/null | col "epot_g[J]" 1)" "$(awk -v m=$m 'BEGIN { printf "%.17g\n", m * 9.81 * 0.5 }')" 1e-15
}

@test "the reference: the first frame read, whatever is printed; a new run after cat" {
    dem-pack --from two.tsv | dem-step -q -n 0 --normal hooke --kn 1000 --damping none --tangential none > a0.dem
    dem-step -q -n 400 --dt 1e-6 --every 50 a0.dem > a1.dem
    cat a0.dem a1.dem > a.dem
    dem-energy a.dem 2> /dev/null > all.tsv
    [ "$(col "residual[J]" 1 < all.tsv)" = 0 ]
    [ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_initial[J]") c = i; next } { print $c }' all.tsv | sort -u | wc -l)" -eq 1 ]
    diff <(dem-energy --last a.dem 2> /dev/null) <(awk 'NR == 1; END { print }' all.tsv)
    diff <(dem-energy --every 3 a.dem 2> /dev/null) <(awk 'NR == 1 || ($1 % 3 == 0)' all.tsv)
    diff <(dem-energy --frame 4 a.dem 2> /dev/null) <(awk 'NR == 1 || $1 == 4' all.tsv)
    # a second run after the first: its step goes back to 0, it gets its own reference (its
    # e_initial, or without one, its first frame, with a second warning)
    cat a.dem a.dem | dem-energy 2> err.txt > twice.tsv
    if books_kept; then want=0; else want=2; fi
    [ "$(grep -c 'has no e_initial' err.txt)" -eq $want ]
    [ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "residual[J]") c = i; next } $2 == 0 { print $c }' twice.tsv | sort -u)" = 0 ]
}

@test "elastic head-on collisions (hooke, hertz): residual below 1e-4 of the kinetic energy at dt ~ tc/300" {
    for law in "--normal hooke --kn 1000 --dt 7.5e-7" "--normal hertz --vc 0.2 --dt 1e-6"; do
        dem-pack --from two.tsv --young 1e7 --restitution 1 | dem-step -q -n 0 $law --damping none --tangential none > c0.dem
        dem-step -q --time 4e-4 --every 10 c0.dem > c1.dem
        r=$(cat c0.dem c1.dem | dem-energy 2> /dev/null | budget_ratio)
        # they did collide and separate
        [ "$(cat c0.dem c1.dem | dem-probe | awk -F'\t' 'NR > 1 && $5 > 0' | wc -l)" -gt 10 ]
        [[ "$(dem-probe --last --particles c1.dem | col "vx[m/s]" 1)" == -* ]]
        echo "$law: residual $r"
        awk -v r="$r" 'BEGIN { exit !(r < 1e-4) }'
    done
}

@test "e_shadow: 0 without forces, not 0 during a contact, part of total and of e_initial" {
    dem-pack --from two.tsv --young 1e7 --restitution 1 | dem-step -q -n 0 --normal hooke --kn 1000 --dt 7.5e-7 \
        --damping none --tangential none > c0.dem
    dem-step -q --time 4e-4 --every 10 c0.dem | cat c0.dem - | dem-energy > e.tsv
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { sh = $c["e_shadow[J]"]; el = $c["eel_n[J]"]
          e = $c["ekin_t[J]"] + $c["ekin_r[J]"] + $c["epot_g[J]"] + el + $c["eel_t[J]"] + sh
          d = e - $c["total[J]"]; if (d < 0) d = -d; if (d > 1e-12 * $c["ekin_t[J]"]) bad = bad " total " NR
          if (el == 0 && sh != 0) bad = bad " shadow-without-contact " NR
          if (el > 0 && sh != 0) touching++ }
        END { if (bad != "" || touching < 5) { print bad, touching; exit 1 } }' e.tsv
    # e_initial at step 0 is E of the initial frame, e_shadow included: the residual there is 0
    [ "$(col "residual[J]" 1 < e.tsv)" = 0 ]
}

@test "the residual of an elastic collision falls as dt^2" {
    dem-pack --from two.tsv --young 1e7 --restitution 1 | dem-step -q -n 0 --normal hertz --damping none --tangential none > c0.dem
    r1=$(dem-step -q --time 4e-4 --dt 4e-6 --every 5 c0.dem | cat c0.dem - | dem-energy 2> /dev/null | budget_ratio)
    r2=$(dem-step -q --time 4e-4 --dt 2e-6 --every 10 c0.dem | cat c0.dem - | dem-energy 2> /dev/null | budget_ratio)
    echo "dt 4e-6: $r1, dt 2e-6: $r2"
    awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a / b > 3 && a / b < 6) }'
}

@test "damped collisions (restitution 0.5, hooke and hertz): residual below 1e-4" {
    for law in "--normal hooke --kn 1000 --dt 7.5e-7" "--normal hertz --vc 0.2 --dt 1e-6"; do
        dem-pack --from two.tsv --young 1e7 --restitution 0.5 | dem-step -q -n 0 $law --damping restitution --tangential none > c0.dem
        dem-step -q --time 4e-4 --every 10 c0.dem > c1.dem
        cat c0.dem c1.dem | dem-energy 2> /dev/null > e.tsv
        # energy went to the normal dashpot: e = 0.5 keeps a quarter of the kinetic energy
        close_to "$(awk -F'\t' 'END { print $4 }' e.tsv)" "$(awk -F'\t' 'NR == 2 { print $4 / 4 }' e.tsv)" 0.01
        check_budget "$(budget_ratio < e.tsv)" 1e-4 "restitution collision ($law)"
    done
}

# A sphere launched at v0 = 0.5 m/s without spin on a floor (mu = 0.3) slides until it rolls at
# 5/7 v0: friction dissipates m v0^2 / 7 = mu m g x the slip distance v0^2 / (7 mu g).
slide() {
    printf 'x\ty\tz\tr\tvx\n0\t0\t0.005\t0.005\t0.5\n' |
        dem-pack --from - --friction 0.3 --restitution 0.3 --wall z=0 |
        dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --kn 1e5 > s0.dem
    dem-step -q --time 0.06 --dt 3e-6 --every 20 s0.dem > s1.dem
    cat s0.dem s1.dem > s.dem
}

# Largest |residual| / E0 of a head-on collision of equal spheres (restitution $1, normal law $2)
# at dt = tc / $3, tc as dem-step estimates it, with a frame at every step.
collision_residual() {
    dem-pack --from two.tsv --young 1e7 --restitution "$1" > p.dem
    local tc dt
    tc=$(dem-step -n 0 --normal "$2" --damping restitution --tangential none --vc 0.2 p.dem 2>&1 > /dev/null |
         grep -o 'tc = [0-9.e+-]*' | cut -d' ' -f3)
    dt=$(awk -v t="$tc" -v k="$3" 'BEGIN { printf "%.6g", t / k }')
    dem-step -q -n 0 --dt "$dt" --normal "$2" --damping restitution --tangential none --vc 0.2 p.dem > c0.dem
    dem-step -q --time "$(awk -v t="$tc" 'BEGIN { print 2 * t + 1e-5 / 0.2 }')" --every 1 c0.dem > c1.dem
    cat c0.dem c1.dem | dem-energy 2> /dev/null | budget_ratio
}

@test "damped collisions (e 0.5, 0.8, 0.95; hooke, hertz): residual below 1e-4 at tc/200, falling as dt^2; 1e-4 to 3e-4 at tc/100" {
    for e in 0.5 0.8 0.95; do
        for law in hertz hooke; do
            r=$(collision_residual $e $law 200)
            echo "$law e=$e tc/200: $r"
            awk -v r="$r" 'BEGIN { exit !(r < 1e-4) }'
        done
    done
    # the worst case, e = 0.5: second order in dt, and at tc/100 above 1e-4 (as the README says)
    for law in hertz hooke; do
        r100=$(collision_residual 0.5 $law 100)
        r200=$(collision_residual 0.5 $law 200)
        echo "$law e=0.5: tc/100 $r100, tc/200 $r200"
        awk -v a="$r100" -v b="$r200" 'BEGIN { exit !(a > 1e-4 && a < 3e-4 && a / b > 3 && a / b < 16) }'
    done
}

@test "a sphere sliding into rolling: friction dissipates m v0^2 / 7 and mu m g x slip distance, within 1%" {
    slide
    m=$(awk 'BEGIN { printf "%.17g", 2500 * 4 / 3 * 3.141592653589793 * 0.005^3 }')
    fric=$(dem-energy --last s.dem 2> /dev/null | col "ediss_friction[J]" 1)
    # slip distance: the integral of the contact point's speed, vx - r wy, over the frames
    slip=$(dem-probe --particles s.dem | awk -F'\t' 'NR > 1 { t = $3; s = $8 - 0.005 * $12; if (NR > 2) x += 0.5 * (s + ps) * (t - pt); pt = t; ps = s } END { printf "%.17g", x }')
    echo "friction $fric J, m v0^2/7 = $(awk -v m=$m 'BEGIN { printf "%.17g\n", m * 0.25 / 7 }') J; slip $slip m, v0^2/(7 mu g) = $(awk 'BEGIN { printf "%.17g\n", 0.25 / (7 * 0.3 * 9.81) }') m"
    close_to "$fric" "$(awk -v m=$m 'BEGIN { printf "%.17g", m * 0.25 / 7 }')" 0.01
    close_to "$fric" "$(awk -v m=$m -v x=$slip 'BEGIN { printf "%.17g", 0.3 * m * 9.81 * x }')" 0.01
    close_to "$slip" "$(awk 'BEGIN { printf "%.17g", 0.25 / (7 * 0.3 * 9.81) }')" 0.01
    # it rolls at 5/7 v0
    close_to "$(dem-probe --particles --last s.dem | col "vx[m/s]" 1)" "$(awk 'BEGIN { printf "%.17g\n", 2.5 / 7 }')" 0.01
}

@test "a sphere sliding into rolling: the budget closes, no dashpot work while sliding" {
    slide
    damp_t=$(dem-energy --last s.dem 2> /dev/null | col "ediss_damp_t[J]" 1)
    check_budget "$(dem-energy s.dem 2> /dev/null | budget_ratio)" 1e-4 "sliding sphere (ediss_damp_t = $damp_t J)"
}

@test "a frictional cloud (hooke, mu 0.5, e 0.8) in a periodic cell: residual below 1e-4" {
    dem-pack --random 100 --box 0,0,0,0.008,0.008,0.008 --radius 6e-4 --young 5e6 --friction 0.5 --restitution 0.8 \
             --periodic 0,0,0,0.008,0.008,0.008 --velocity-random 0.3 --seed 3 |
        dem-step -q -n 0 --normal hooke > c0.dem
    dem-step -q --time 0.01 --dt 1e-6 --every 1000 c0.dem > c1.dem
    cat c0.dem c1.dem | dem-energy 2> /dev/null > e.tsv
    awk -F'\t' 'END { exit !($9 > 0 && $10 > 0) }' e.tsv      # it did slide and damp
    check_budget "$(budget_ratio < e.tsv)" 1e-4 "frictional cloud"
}

@test "Hertz-Mindlin (the defaults, mu 0.5, e 0.8): the law's work is booked and the residual is below 1e-4" {
    dem-pack --random 100 --box 0,0,0,0.008,0.008,0.008 --radius 6e-4 --young 5e6 --friction 0.5 --restitution 0.8 \
             --periodic 0,0,0,0.008,0.008,0.008 --velocity-random 0.3 --seed 3 | dem-step -q -n 0 > c0.dem
    # dt = 5e-7 s: 2.3e-5 (at 1e-6 s: 9.1e-5; the residual falls as dt^2)
    dem-step -q --time 0.01 --dt 5e-7 --every 2000 c0.dem > c1.dem
    cat c0.dem c1.dem | dem-energy 2> /dev/null > e.tsv
    law=$(col 'work_law[J]' < e.tsv | tail -n 1)
    awk -v w="$law" 'BEGIN { exit !(w != 0) }'   # Mindlin's stiffness change did work
    check_budget "$(budget_ratio < e.tsv)" 1e-4 "Hertz-Mindlin cloud (work_law $law J)"
}

@test "settling with Hertz-Mindlin (gravity, friction, restitution, walls): residual below 1e-4" {
    dem-pack --random 150 --box 0,0,0,0.008,0.008,0.02 --radius 4e-4 --young 5e6 --enclose --seed 2 |
        dem-step -q -n 0 --gravity 0,0,-9.81 > s0.dem
    dem-step -q --time 0.05 --dt 1e-6 --every 5000 s0.dem > s1.dem
    cat s0.dem s1.dem | dem-energy 2> /dev/null > e.tsv
    check_budget "$(budget_ratio < e.tsv)" 1e-4 "Hertz-Mindlin settling"
}

@test "the settling case (gravity, hooke, friction, restitution, local damping): residual below 1e-4" {
    dem-pack --random 150 --box 0,0,0,0.008,0.008,0.02 --radius 4e-4 --young 5e6 --enclose --seed 2 |
        dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --local-damping 0.2 > s0.dem
    dem-step -q --time 0.05 --dt 1e-6 --every 5000 s0.dem > s1.dem
    cat s0.dem s1.dem | dem-energy 2> /dev/null > e.tsv
    # potential energy went into dissipation, mostly through local damping
    awk -F'\t' 'NR == 2 { p = $6 } END { exit !($6 < p && $12 > 0 && $9 > 0) }' e.tsv
    check_budget "$(budget_ratio < e.tsv)" 1e-4 "settling"
}

@test "a moving wall squeezing an elastic crystal: its work is in the budget" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 5e-4 --enclose --friction 0 --restitution 1 |
        dem-step -q -n 0 --normal hooke --kn 1e4 --damping none > w0.dem
    dem-step -q --time 0.004 --wall-velocity 5=0,0,-0.005 --every 100 w0.dem > w1.dem
    cat w0.dem w1.dem | dem-energy 2> /dev/null > e.tsv
    awk -F'\t' 'END { exit !($14 > 0) }' e.tsv                 # the wall did work on the particles
    check_budget "$(budget_ratio < e.tsv)" 1e-4 "moving wall"
}

@test "an undamped frictionless elastic gas in a walled box keeps its budget (residual below 1e-4)" {
    dem-pack --random 150 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose --seed 9 --velocity-random 0.2 --young 1e7 |
        dem-step -q -n 0 --damping none --tangential none > g0.dem
    dem-step -q -n 5000 --every 250 g0.dem > g1.dem
    cat g0.dem g1.dem | dem-energy 2> /dev/null > e.tsv
    [ "$(dem-probe g1.dem | awk -F'\t' 'NR > 1 { c += $5 + $6 } END { print (c > 0) }')" = 1 ]   # collisions happened
    r=$(budget_ratio < e.tsv)
    echo "residual $r"
    awk -v r="$r" 'BEGIN { exit !(r < 1e-4) }'
}

@test "dem-step -n N | dem-step -n N | dem-energy gives the budget of dem-step -n 2N" {
    books_kept
    dem-pack --random 60 --box 0,0,0,0.006,0.006,0.01 --radius 4e-4 --young 5e6 --enclose --seed 4 > p.dem
    dem-step -q -n 3000 --gravity 0,0,-9.81 p.dem | dem-step -q -n 3000 | dem-energy > split.tsv
    dem-step -q -n 6000 --gravity 0,0,-9.81 p.dem | dem-energy > whole.tsv
    diff split.tsv whole.tsv
    # the reference is the initial state's, not the frame's own: the residual is not 0 by construction
    dem-step -q -n 0 --gravity 0,0,-9.81 p.dem | dem-energy | col "e_initial[J]" 1 > e0.txt
    [ "$(col "e_initial[J]" 1 < whole.tsv)" = "$(cat e0.txt)" ]
}
