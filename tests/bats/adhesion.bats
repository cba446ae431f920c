#!/usr/bin/env bats
# Adhesion (issue 19b): dem-step --normal dmt and jkr against the analytic contact mechanics.
# Spheres r = 1 mm, E = 1e7 Pa, nu = 0.25 (E* = E / (2 (1 - nu^2))), density 2500, surface
# energy gamma = 1 J/m^2 (the pair's work of adhesion). Pairs: R* = r/2; a sphere on a wall:
# R* = r. The reference values are computed here, in awk, from the formulas (not from dem-step):
#   DMT pull-off 2 pi gamma R*; JKR pull-off 3/2 pi gamma R* (Johnson, Kendall & Roberts 1971)
#   JKR: delta = a^2/R* - sqrt(2 pi gamma a / E*), F = 4 E* a^3 / (3 R*) - sqrt(8 pi gamma E* a^3),
#        the neck breaks at delta_c = -3 a_c^2 / R*, a_c^3 = pi gamma R*^2 / (8 E*)
#   Thornton & Ning (1998): a pair sticks below V_s = sqrt(2 W_s / m*), W_s = 7.09 (gamma^5 R*^4 / E*^2)^(1/3)
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
}

PI=3.14159265358979
ESTAR=5333333.333333333   # 1e7 / (2 (1 - 0.0625))

# Largest tension -min(fn) over the contact records of a run (stdin: dem-probe --contacts), along
# the normal from j to i; and the smallest overlap held. Prints "TENSION DELTA_MIN ROWS".
tension() {
    awk -F'\t' -v ax="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n = $c["n" ax]; f = $c["fn" ax "[N]"] * n; d = $c["overlap[m]"]
          if (f < m) m = f; if (rows == 0 || d < dm) dm = d; rows++ }
        END { printf "%.17g %.17g %d\n", -m, dm, rows }'
}

close_to() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; }

@test "jkr: a pair pulled apart quasistatically comes off at 3/2 pi gamma R* (within 1%), its neck breaking at delta_c" {
    # particle 2 driven away at 1 mm/s from an overlap of 2 um; frames every 10 steps
    printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0\t0\t0\t0.001\t0\t1\n2\t0.001998\t0\t0\t0.001\t0.001\t1\n' > pull.tsv
    dem-pack --from pull.tsv --young 1e7 --surface-energy 1 > pull.dem
    run dem-step -q -n 8000 --dt 1e-6 --every 10 --normal jkr --damping none -o out.dem pull.dem
    [ "$status" -eq 0 ]
    read -r t dmin rows < <(dem-probe --contacts out.dem | tension x)
    fc=$(awk -v p=$PI 'BEGIN { printf "%.17g", 1.5 * p * 1 * 0.0005 }')
    dc=$(awk -v p=$PI -v e=$ESTAR 'BEGIN { ac = exp(log(p * 0.0005^2 / (8 * e)) / 3); printf "%.17g", -3 * ac * ac / 0.0005 }')
    echo "pull-off $t N, analytic $fc N; last overlap held $dmin m, delta_c $dc m ($rows frames)"
    close_to "$t" "$fc" 0.01
    close_to "$dmin" "$dc" 0.01
    # the neck held past zero overlap, and broke: the last frames have no contact
    [ "$rows" -lt 800 ]
}

@test "dmt: a pair pulled apart quasistatically comes off at 2 pi gamma R* (within 1%), at zero overlap" {
    printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0\t0\t0\t0.001\t0\t1\n2\t0.001998\t0\t0\t0.001\t0.001\t1\n' > pull.tsv
    dem-pack --from pull.tsv --young 1e7 --surface-energy 1 > pull.dem
    run dem-step -q -n 4000 --dt 1e-6 --every 10 --normal dmt --damping none -o out.dem pull.dem
    [ "$status" -eq 0 ]
    read -r t dmin rows < <(dem-probe --contacts out.dem | tension x)
    fc=$(awk -v p=$PI 'BEGIN { printf "%.17g", 2 * p * 1 * 0.0005 }')
    echo "pull-off $t N, analytic $fc N; smallest overlap $dmin m"
    close_to "$t" "$fc" 0.01
    awk -v d="$dmin" 'BEGIN { exit !(d > 0) }'   # no neck
}

@test "jkr: a sphere pulled off a wall comes off at 3/2 pi gamma r (within 1%)" {
    printf 'x\ty\tz\tr\tvz\tfixed\n0\t0\t0.000998\t0.001\t0.001\t1\n' > w.tsv
    dem-pack --from w.tsv --wall z=0 --young 1e7 --surface-energy 1 > w.dem
    run dem-step -q -n 9000 --dt 1e-6 --every 10 --normal jkr --damping none -o out.dem w.dem
    [ "$status" -eq 0 ]
    read -r t dmin rows < <(dem-probe --contacts out.dem | tension z)
    fc=$(awk -v p=$PI 'BEGIN { printf "%.17g", 1.5 * p * 1 * 0.001 }')
    dc=$(awk -v p=$PI -v e=$ESTAR 'BEGIN { ac = exp(log(p * 0.001^2 / (8 * e)) / 3); printf "%.17g", -3 * ac * ac / 0.001 }')
    echo "pull-off $t N, analytic $fc N; last overlap $dmin m, delta_c $dc m"
    close_to "$t" "$fc" 0.01
    close_to "$dmin" "$dc" 0.01
}

# The Thornton & Ning sticking velocity of the pair (relative approach speed), m/s.
v_stick() {
    awk -v p=$PI -v e=$ESTAR 'BEGIN { r = 0.0005; g = 1; m = 4 / 3 * p * 1e-9 * 2500 / 2
        w = 7.0922 * exp(log(g^5 * r^4 / e^2) / 3); printf "%.17g", sqrt(2 * w / m) }'
}

# Collide the pair at F times the sticking velocity; print the final gap's rate (m/s, > 0: apart).
collide() {
    local v
    v=$(awk -v f="$1" -v vs="$(v_stick)" 'BEGIN { printf "%.17g", f * vs / 2 }')
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t%s\n2\t0.0020005\t0\t0\t0.001\t-%s\n' "$v" "$v" > c.tsv
    dem-pack --from c.tsv --young 1e7 --surface-energy 1 > c.dem
    dem-step -q -n 20000 --dt 1e-6 --every 100 --normal jkr --damping none -o "c-$1.dem" c.dem
    dem-probe --particles --last "c-$1.dem" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { x[NR] = $c["x[m]"]; v[NR] = $c["vx[m/s]"] } END { printf "%.6g %.6g\n", x[3] - x[2], v[3] - v[2] }'
}

@test "jkr: a collision below the Thornton-Ning sticking velocity ends stuck, above it rebounds (5%)" {
    echo "V_s = $(v_stick) m/s"
    read -r gap rate < <(collide 0.95)
    echo "0.95 V_s: centre distance $gap m, separating at $rate m/s"
    # still held, in compression or by its neck (overlap > delta_c): a contact in the last frame
    [ "$(dem-probe --contacts --last c-0.95.dem | wc -l)" -eq 2 ]
    read -r gap rate < <(collide 1.05)
    echo "1.05 V_s: centre distance $gap m, separating at $rate m/s"
    [ "$(dem-probe --contacts --last c-1.05.dem | wc -l)" -eq 1 ]
    awk -v r="$rate" 'BEGIN { exit !(r > 0) }'
    # the rebound speed of an elastic adhesive collision: sqrt(v^2 - V_s^2) (energy), within 5%
    close_to "$rate" "$(awk -v vs="$(v_stick)" 'BEGIN { print vs * sqrt(1.05^2 - 1) }')" 0.05
}

# JKR force at overlap D (bisection on a >= a_c, where delta(a) rises), N.
jkr_force() {
    awk -v d="$1" -v p=$PI -v e=$ESTAR -v r="$2" -v g=1 'BEGIN {
        lo = exp(log(p * g * r^2 / (8 * e)) / 3); hi = 1e-2
        for (k = 0; k < 200; k++) { a = (lo + hi) / 2; if (a * a / r - sqrt(2 * p * g * a / e) < d) lo = a; else hi = a }
        a = (lo + hi) / 2; printf "%.17g\n", 4 * e * a^3 / (3 * r) - sqrt(8 * p * g * e * a^3) }'
}

@test "jkr: a collision loads and unloads along the analytic force-overlap curve, the neck forming at 0 and breaking at delta_c" {
    read -r gap rate < <(collide 1.5)
    dem-step -q -n 4000 --dt 1e-6 --every 5 --normal jkr --damping none -o loop.dem c.dem
    dem-probe --contacts loop.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%.17g %.17g\n", $c["overlap[m]"], -$c["fnx[N]"] }' > loop.txt
    [ "$(wc -l < loop.txt)" -gt 50 ]
    # every frame on the curve (to 1e-9 of the pull-off force), in compression and in tension
    fc=$(awk -v p=$PI 'BEGIN { printf "%.17g", 1.5 * p * 0.0005 }')
    bad=0 neg=0 pos=0
    while read -r d f; do
        want=$(jkr_force "$d" 0.0005)
        awk -v f="$f" -v w="$want" -v fc="$fc" 'BEGIN { x = f - w; if (x < 0) x = -x; exit !(x <= 1e-9 * fc) }' || { echo "overlap $d: F $f, analytic $want"; bad=$((bad + 1)); }
        awk -v d="$d" 'BEGIN { exit !(d < 0) }' && neg=$((neg + 1)) || pos=$((pos + 1))
    done < loop.txt
    echo "$pos frames in compression, $neg in the neck, $bad off the curve"
    [ "$bad" -eq 0 ] && [ "$neg" -gt 5 ] && [ "$pos" -gt 5 ]
}

# Largest |residual| over the frames of a dem-energy table (stdin) divided by the largest energy
# that moves (as energy.bats).
budget_ratio() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/\[J\]$/, "", n); c[n] = i }; next }
        NR == 2 { ep0 = $c["epot_g"] }
        { ek = $c["ekin_t"] + $c["ekin_r"]; el = $c["eel_n"] + $c["eel_t"]; if (el < 0) el = -el
          d = $c["ediss_friction"] + $c["ediss_damp_n"] + $c["ediss_damp_t"] + $c["ediss_local"] + $c["ediss_drag"]
          w = $c["work_walls"] + $c["work_law"]
          dp = $c["epot_g"] - ep0; if (dp < 0) dp = -dp; if (w < 0) w = -w
          s = ek; if (el > s) s = el; if (d > s) s = d; if (w > s) s = w; if (dp > s) s = dp; if (s > scale) scale = s
          r = $c["residual"]; if (r < 0) r = -r; if (r > m) m = r }
        END { printf "%.3g\n", m / scale }'
}

@test "jkr and dmt: dem-energy's residual stays closed for a sticking pair and a sticky settling bed" {
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t0.02\n2\t0.002001\t0\t0\t0.001\t-0.02\n' > two.tsv
    dem-pack --from two.tsv --young 1e7 --surface-energy 1 > two.dem
    for m in jkr dmt; do
        dem-step -q -n 3000 --dt 1e-6 --every 50 --normal $m --damping none -o pair-$m.dem two.dem
        ratio=$(dem-energy pair-$m.dem | budget_ratio)
        echo "pair $m: residual / scale $ratio"
        awk -v r="$ratio" 'BEGIN { exit !(r < 1e-4) }'
    done
    # the jkr pair sticks: the loss as the neck formed is in work_law, -3/5 pi gamma a_z^2 (a_z^3 = 2 pi gamma R*^2 / E*)
    wl=$(dem-energy pair-jkr.dem | col 'work_law[J]' | tail -1)
    want=$(awk -v p=$PI -v e=$ESTAR 'BEGIN { az = exp(log(2 * p * 0.0005^2 / e) / 3); printf "%.17g", -0.6 * p * az * az }')
    echo "work_law $wl J, neck formation $want J"
    close_to "$wl" "$want" 0.02
    # a bed settling with friction and restitution damping, with and without adhesion
    dem-pack --random 150 --box 0,0,0,0.012,0.012,0.03 --radius 0.001 --enclose --young 1e7 --surface-energy 0.5 --seed 3 > bed0.dem
    for m in hertz jkr dmt; do
        dem-step -q -n 20000 --dt 2e-6 --every 2000 --gravity 0,0,-9.81 --normal $m -o bed-$m.dem bed0.dem
        eval "r_$m=$(dem-energy bed-$m.dem | budget_ratio)"
    done
    echo "bed: residual / scale hertz $r_hertz, jkr $r_jkr, dmt $r_dmt"
    awk -v h="$r_hertz" -v j="$r_jkr" -v d="$r_dmt" 'BEGIN { exit !(j < 3 * h + 1e-6 && d < 3 * h + 1e-6 && j < 1e-3 && d < 1e-3) }'
}

@test "jkr: a run split while a neck holds, or on two threads, gives the same bits" {
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t0.02\n2\t0.002001\t0\t0\t0.001\t-0.02\n' > two.tsv
    dem-pack --from two.tsv --young 1e7 --surface-energy 1 > two.dem
    dem-step -q -n 650 --dt 1e-6 --normal jkr --damping none -o h1.dem two.dem
    # step 650: the pair is held by its neck at a negative overlap (CONT flags bit 2)
    d=$(dem-probe --contacts h1.dem | col 'overlap[m]')
    echo "overlap at the split: $d m"
    awk -v d="$d" 'BEGIN { exit !(d < 0) }'
    dem-step -q -n 650 -o h2.dem h1.dem
    dem-step -q -n 1300 --dt 1e-6 --normal jkr --damping none -o full.dem two.dem
    cmp h2.dem full.dem
    dem-pack --random 150 --box 0,0,0,0.012,0.012,0.03 --radius 0.001 --enclose --young 1e7 --surface-energy 0.5 --seed 3 > bed0.dem
    dem-step -q -n 2000 --dt 2e-6 --gravity 0,0,-9.81 --normal jkr --threads 1 -o t1.dem bed0.dem
    dem-step -q -n 2000 --dt 2e-6 --gravity 0,0,-9.81 --normal jkr --threads 2 -o t2.dem bed0.dem
    cmp t1.dem t2.dem
}

@test "dem-reverse refuses a jkr frame, naming its necks; a dmt pair reverses to round-off" {
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.001\t0.02\n2\t0.002001\t0\t0\t0.001\t-0.02\n' > two.tsv
    dem-pack --from two.tsv --young 1e7 --surface-energy 1 > two.dem
    dem-step -q -n 1000 --dt 1e-6 --normal jkr --tangential none --damping none -o j.dem two.dem
    run --separate-stderr dem-reverse -n 1000 -o back.dem j.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"adhesive necks (model.normal jkr)"* ]]
    dem-step -q -n 3000 --dt 1e-6 --normal dmt --tangential none --damping none -o d.dem two.dem
    dem-reverse -n 3000 -o back.dem d.dem
    x=$(dem-probe --particles back.dem | col 'x[m]' | head -1)
    echo "particle 1 back at x = $x m (started at 0)"
    awk -v x="$x" 'BEGIN { if (x < 0) x = -x; exit !(x < 1e-15) }'
}

@test "dem-step: dmt and jkr need the history or no tangential law; without surface energy they say so" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n' > one.tsv
    dem-pack --from one.tsv --surface-energy 1 > one.dem
    run --separate-stderr dem-step -n 1 --normal jkr --tangential incremental -o out.dem one.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"model.normal jkr works with model.tangential history or none"* ]]
    dem-pack --from one.tsv > dry.dem
    run --separate-stderr dem-step -q -n 1 --normal dmt -o out.dem dry.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"--normal dmt, but every material has surface_energy 0"* ]]
    # the help teaches the laws
    dem-step --help | grep -q "pull-off force 2 pi gamma R\* (dmt)"
}

@test "dmt and jkr: a sphere dragged along a wall slides at mu |F_n + 2 F_pulloff| (LAMMPS' cap)" {
    # held at an overlap of 1 um, driven along x at 1 mm/s; friction 0.3; pull-off with R* = r = 1 mm
    printf 'x\ty\tz\tr\tvx\tfixed\n0\t0\t0.000999\t0.001\t0.001\t1\n' > s.tsv
    dem-pack --from s.tsv --wall z=0 --young 1e7 --surface-energy 1 --friction 0.3 > s.dem
    for m in jkr:1.5 dmt:2; do
        dem-step -q -n 20000 --dt 1e-6 --every 20000 --normal ${m%:*} -o s-${m%:*}.dem s.dem
        read -r fn ft sl < <(dem-probe --contacts --last s-${m%:*}.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { printf "%.17g %.17g %d\n", $c["fnz[N]"], $c["ftx[N]"], $c["sliding"] }')
        cap=$(awk -v fn="$fn" -v k="${m#*:}" -v p=$PI 'BEGIN { c = fn + 2 * k * p * 1 * 0.001; if (c < 0) c = -c; printf "%.17g", 0.3 * c }')
        echo "${m%:*}: F_n $fn N (attractive), F_t $ft N, sliding $sl, cap $cap N"
        [ "$sl" -eq 1 ]
        close_to "${ft#-}" "$cap" 1e-9
    done
}

@test "jkr across a periodic face, with vv and vv-improved: the same pull-off and neck" {
    # particle 2's image (shift -1 along x) is pulled away from particle 1
    printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0.0011\t0.002\t0.002\t0.001\t0\t1\n2\t0.009103\t0.002\t0.002\t0.001\t-0.001\t1\n' > per.tsv
    dem-pack --from per.tsv --periodic 0,0,0,0.01,0.004,0.004 --young 1e7 --surface-energy 1 > per.dem
    fc=$(awk -v p=$PI 'BEGIN { printf "%.17g", 1.5 * p * 1 * 0.0005 }')
    for integ in vv vv-improved; do
        dem-step -q -n 8000 --dt 1e-6 --every 10 --normal jkr --damping none --integrator $integ -o per-$integ.dem per.dem
        read -r t dmin rows < <(dem-probe --contacts per-$integ.dem | tension x)
        echo "$integ: pull-off $t N (analytic $fc N), last overlap $dmin m, $rows frames"
        close_to "$t" "$fc" 0.01
        awk -v d="$dmin" 'BEGIN { exit !(d < -4.1e-6) }'
    done
    [ "$(dem-probe --contacts per-vv.dem | col sx | sort -u)" = "-1" ]
}
