#!/usr/bin/env bats
# rolling.bats - rolling and twisting resistance (issue 19a; lib/laws/rolling.h): a sphere rolling on
# a plane decelerates at 5 mu_r g / 7 and stops where that predicts (epsd, sds); the incline
# threshold tan(theta) = mu_r; a sphere spinning about the normal stops with marshall when the
# twisting cap predicts; the books close; continuation, threads, walls and periodic cells keep the
# same bits; inert material parameters are named; dem-reverse refuses.
load helpers

setup() { setup_tmp; cd "$TMP"; }

last_col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { v = $c } END { print v }'; }
near() { awk -v a="$1" -v b="$2" -v c="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; if (c < 0) c = -c; exit !(d <= t * c) }'; }
# the largest |residual| of the frames on stdin
max_residual() { dem-energy | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { r = $c["residual[J]"]; if (r < 0) r = -r; if (r > m) m = r } END { printf "%.17g", m }'; }

# a 5 mm glass sphere on the floor z = 0, hooke kn 1e5, gravity g along (sin th, 0, -cos th)
# with tan th = $1, rolling at v0 = $2 m/s (w = v0 / r), friction 0.5; extra dem-pack options after
sphere() {
    local t=$1 v=$2; shift 2
    local g
    g=$(awk -v t="$t" 'BEGIN { c = 1 / sqrt(1 + t * t); printf "%.17g,0,%.17g", 9.81 * t * c, -9.81 * c }')
    printf 'x\ty\tz\tr\tvx\twy\n0\t0\t0.005\t0.005\t%s\t%s\n' "$v" "$(awk -v v="$v" 'BEGIN { print v / 0.005 }')" |
        dem-pack --from - --friction 0.5 --wall z=0 "$@" | dem-step -q -n 0 --gravity "$g" --normal hooke --kn 1e5 > s.dem
}

@test "rolling epsd and sds: a sphere rolling on a plane decelerates at 5 mu_r g / 7 and stops at v0^2 / (2 a); the books close" {
    sphere 0 0.1 --rolling-friction 0.05
    a=$(awk 'BEGIN { printf "%.17g", 5 * 0.05 * 9.81 / 7 }')
    for m in epsd sds; do
        dem-step -q --rolling $m --time 0.4 --dt 1e-5 --every 2000 s.dem > r.dem
        # the deceleration from 0.02 s to 0.2 s (past the spring's first loading)
        v1=$(dem-probe --particles r.dem | awk -F'\t' 'NR > 1 && $3 > 0.0199 && $3 < 0.0201 { print $8 }')
        v2=$(dem-probe --particles r.dem | awk -F'\t' 'NR > 1 && $3 > 0.1999 && $3 < 0.2001 { print $8 }')
        d=$(awk -v a="$v1" -v b="$v2" 'BEGIN { printf "%.17g", (a - b) / 0.18 }')
        x=$(dem-probe --particles --last r.dem | last_col "x[m]")
        v=$(dem-probe --particles --last r.dem | last_col "vx[m/s]")
        echo "$m: deceleration $d m/s^2 against 5 mu_r g / 7 = $a; stopped at x = $x m (v $v) against $(awk -v a="$a" 'BEGIN { print 0.01 / (2 * a) }')"
        near "$d" "$a" "$a" 1e-3
        near "$x" "$(awk -v a="$a" 'BEGIN { printf "%.17g", 0.01 / (2 * a) }')" 0.0143 1e-3
        awk -v v="$v" 'BEGIN { exit !(v < 1e-9 && v > -1e-9) }'
        # the kinetic energy 7/10 m v0^2 went to ediss_rolling; the residual stays at round-off
        m0=$(awk 'BEGIN { printf "%.17g", 2500 * 4 / 3 * 3.141592653589793 * 0.005^3 }')
        er=$(dem-energy --last r.dem | last_col "ediss_rolling[J]")
        near "$er" "$(awk -v m="$m0" 'BEGIN { printf "%.17g", 0.7 * m * 0.01 }')" "$er" 1e-3
        r=$(cat s.dem r.dem | max_residual)
        echo "  ediss_rolling $er J, residual $r J"
        awk -v r="$r" -v e="$er" 'BEGIN { exit !(r < 1e-6 * e) }'
        # the same on a fixed sphere of radius 1000 m: the pair path (R* = r to 5e-6)
        printf 'id\tx\ty\tz\tr\tvx\twy\tfixed\n1\t0\t0\t0.005\t0.005\t0.1\t20\t0\n2\t0\t0\t-1000\t1000\t0\t0\t1\n' |
            dem-pack --from - --friction 0.5 --rolling-friction 0.05 |
            dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --kn 1e5 --rolling $m > b0.dem
        dem-step -q --time 0.4 --dt 1e-5 --every 2000 b0.dem > b1.dem
        v1=$(dem-probe --particles --ids 1 b1.dem | awk -F'\t' 'NR > 1 && $3 > 0.0199 && $3 < 0.0201 { print $8 }')
        v2=$(dem-probe --particles --ids 1 b1.dem | awk -F'\t' 'NR > 1 && $3 > 0.1999 && $3 < 0.2001 { print $8 }')
        d=$(awk -v a="$v1" -v b="$v2" 'BEGIN { printf "%.17g", (a - b) / 0.18 }')
        x=$(dem-probe --particles --ids 1 --last b1.dem | last_col "x[m]")
        echo "  on a sphere: deceleration $d m/s^2, stopped at x = $x m"
        near "$d" "$a" "$a" 1e-3
        near "$x" "$(awk -v a="$a" 'BEGIN { printf "%.17g", 0.01 / (2 * a) }')" 0.0143 1e-3
    done
}

@test "rolling: on an incline the sphere stays below tan(theta) = mu_r and rolls away above it at 5/7 g (sin - mu_r cos)" {
    for m in epsd sds; do
        sphere 0.099 0 --rolling-friction 0.1
        dem-step -q --rolling $m --time 0.3 --dt 1e-5 --every 10000 s.dem > stay.dem
        x=$(dem-probe --particles --last stay.dem | last_col "x[m]")
        v=$(dem-probe --particles --last stay.dem | last_col "vx[m/s]")
        echo "$m tan 0.99 mu_r: x $x m, v $v m/s (creep within the spring's elastic range)"
        awk -v x="$x" -v v="$v" 'BEGIN { exit !(x < 1e-5 && x > -1e-5 && v < 1e-9 && v > -1e-9) }'
        sphere 0.101 0 --rolling-friction 0.1
        dem-step -q --rolling $m --time 0.3 --dt 1e-5 --every 10000 s.dem > go.dem
        v2=$(dem-probe --particles go.dem | awk -F'\t' 'NR == 3 { print $8 }')
        v3=$(dem-probe --particles go.dem | awk -F'\t' 'NR == 4 { print $8 }')
        a=$(awk -v a="$v2" -v b="$v3" 'BEGIN { printf "%.17g", (b - a) / 0.1 }')
        p=$(awk 'BEGIN { t = 0.101; c = 1 / sqrt(1 + t * t); printf "%.17g", 5 / 7 * 9.81 * c * (t - 0.1) }')
        echo "$m tan 1.01 mu_r: acceleration $a m/s^2 against $p"
        near "$a" "$p" "$p" 0.01
    done
}

@test "twisting marshall and sds: a sphere spinning about the normal decelerates at its cap over I and stops when that predicts" {
    printf 'x\ty\tz\tr\twz\n0\t0\t0.005\t0.005\t2\n' | dem-pack --from - --friction 0.5 --wall z=0 |
        dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --kn 1e5 --twisting marshall > t0.dem
    dem-step -q --time 0.3 --dt 1e-5 --every 200 t0.dem > t1.dem
    # the cap (2/3) a mu Fn with a = sqrt(R delta), delta = m g / kn; I = 2/5 m r^2
    T=$(awk 'BEGIN { m = 2500 * 4 / 3 * 3.141592653589793 * 0.005^3; d = m * 9.81 / 1e5; a = sqrt(0.005 * d);
                     M = 2 / 3 * a * 0.5 * m * 9.81; printf "%.17g", 0.4 * m * 0.005^2 * 2 / M }')
    w1=$(dem-probe --particles t1.dem | awk -F'\t' 'NR > 1 && $3 > 0.0199 && $3 < 0.0201 { print $13 }')
    w2=$(dem-probe --particles t1.dem | awk -F'\t' 'NR > 1 && $3 > 0.1999 && $3 < 0.2001 { print $13 }')
    d=$(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.17g", (a - b) / 0.18 }')
    # the first frame whose spin has crossed zero, interpolated
    ts=$(dem-probe --particles t1.dem | awk -F'\t' 'NR > 1 { if ($13 <= 0 && !done) { printf "%.17g", t0 + (t0 - $3) * w0 / ($13 - w0) * -1 * -1; done = 1 } t0 = $3; w0 = $13 }')
    echo "deceleration $d rad/s^2 against $(awk -v T="$T" 'BEGIN { print 2 / T }'); stopped at $ts s against $T s"
    near "$d" "$(awk -v T="$T" 'BEGIN { printf "%.17g", 2 / T }')" "$d" 2e-3
    near "$ts" "$T" "$T" 0.01
    tw=$(dem-energy --last t1.dem | last_col "ediss_twisting[J]")
    r=$(cat t0.dem t1.dem | max_residual)
    echo "ediss_twisting $tw J, residual $r J"
    awk -v r="$r" -v e="$tw" 'BEGIN { exit !(e > 0 && r < 1e-3 * e) }'
    # sds with mu_o 0.01: the cap mu_o R* Fn, R* = r on a wall: 49.05 rad/s^2, at rest after 2 I / M
    printf 'x\ty\tz\tr\twz\n0\t0\t0.005\t0.005\t2\n' | dem-pack --from - --friction 0.5 --twisting-friction 0.01 --wall z=0 |
        dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --kn 1e5 --twisting sds > s0.dem
    dem-step -q --time 0.06 --dt 1e-5 --every 500 s0.dem > s1.dem
    w1=$(dem-probe --particles s1.dem | awk -F'\t' 'NR == 2 { print $13 }')
    w2=$(dem-probe --particles s1.dem | awk -F'\t' 'NR == 8 { print $13 }')
    d=$(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.17g", (a - b) / 0.03 }')
    p=$(awk 'BEGIN { printf "%.17g", 0.01 * 0.005 * 9.81 / (0.4 * 0.005^2) }')
    w=$(dem-probe --particles --last s1.dem | last_col "wz[rad/s]")
    echo "sds: deceleration $d rad/s^2 against mu_o R* m g / I = $p; at 0.06 s wz = $w"
    near "$d" "$p" "$p" 2e-3
    awk -v w="$w" 'BEGIN { exit !(w < 1e-6 && w > -1e-6) }'
}

@test "rolling and twisting: the same bits split in two and on 2 threads (walls, periodic cell, both integrators); frames carry slots 3-11" {
    P=(--random 150 --box 0,0,0,0.008,0.008,0.005 --radius 4e-4 --young 5e6 --enclose --seed 2 --velocity-random 0.3 --rolling-friction 0.2)
    dem-pack "${P[@]}" --twisting-friction 0.1 > sds.dem
    dem-pack "${P[@]}" > marshall.dem  # marshall takes its limit from the friction
    for integ in vv vv-improved; do
        for tw in sds marshall; do
            A=(--integrator $integ --gravity 0,0,-9.81 --normal hooke --rolling sds --twisting $tw --dt 1e-6)
            [ $tw = sds ] || A+=(--rolling epsd)
            dem-step -q -n 3000 --every 1000 "${A[@]}" $tw.dem > a.dem
            dem-step -q -n 1300 "${A[@]}" $tw.dem | dem-step -q -n 1700 --every 1000 > b.dem
            dem-step -q -n 3000 --every 1000 --threads 2 "${A[@]}" $tw.dem > c.dem
            for m in --contacts --particles; do cmp <(dem-probe $m --last a.dem | cut -f2-) <(dem-probe $m --last b.dem | cut -f2-); done
            cmp <(dem-energy --last a.dem | cut -f2-) <(dem-energy --last b.dem | cut -f2-)
            cmp a.dem c.dem
            # slots 3-5 (the rolling displacement) lie in the contact plane; slot 11 holds cap flags
            dem-probe --contacts --last a.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!c["h11"]) exit 1; next }
                { d = $c["nx"] * $c["h3"] + $c["ny"] * $c["h4"] + $c["nz"] * $c["h5"]; x = sqrt($c["h3"]^2 + $c["h4"]^2 + $c["h5"]^2)
                  if (d < 0) d = -d; if (d > 1e-9 * x + 1e-300) bad = 1; if (x > 0) any = 1; if ($c["h11"] != int($c["h11"]) || $c["h11"] < 0 || $c["h11"] > 6) bad = 1 }
                END { exit bad || !any }'
            er=$(dem-energy --last a.dem | last_col "ediss_rolling[J]")
            et=$(dem-energy --last a.dem | last_col "ediss_twisting[J]")
            echo "$integ $tw: ediss_rolling $er J, ediss_twisting $et J"
            awk -v a="$er" -v b="$et" 'BEGIN { exit !(a > 0 && b > 0) }'
        done
    done
    # a periodic cell sheared: the couples act across the boundary; split and threads keep the bits
    dem-pack --lattice fcc --cells 4,4,2 --radius 0.001 --periodic lattice --friction 0.3 --rolling-friction 0.1 --twisting-friction 0.1 > f.dem
    A=(--normal hooke --kn 1e5 --rolling sds --twisting sds --dt 1e-6 --cell-rate zz=-2,xy=20)
    dem-step -q -n 3000 "${A[@]}" f.dem > a.dem
    dem-step -q -n 1200 "${A[@]}" f.dem | dem-step -q -n 1800 > b.dem
    dem-step -q -n 3000 --threads 2 "${A[@]}" f.dem > c.dem
    cmp a.dem b.dem
    cmp a.dem c.dem
    er=$(dem-energy --last a.dem | last_col "ediss_rolling[J]")
    echo "periodic: ediss_rolling $er J"
    awk -v a="$er" 'BEGIN { exit !(a > 0) }'
}

@test "rolling: the books close over a poured box (walls, rolling and twisting): the residual stays as small as without them" {
    dem-pack --random 150 --box 0,0,0,0.008,0.008,0.005 --radius 4e-4 --young 5e6 --enclose --seed 2 --velocity-random 0.3 \
        --rolling-friction 0.2 --twisting-friction 0.1 > w.dem
    A=(--gravity 0,0,-9.81 --normal hooke --dt 1e-6)
    dem-step -q -n 0 "${A[@]}" w.dem > w0.dem
    dem-step -q -n 10000 --every 1000 w0.dem > none.dem
    dem-step -q -n 0 "${A[@]}" --rolling sds --twisting sds w.dem > r0.dem
    dem-step -q -n 10000 --every 1000 r0.dem > roll.dem
    r0=$(cat w0.dem none.dem | max_residual)
    r1=$(cat r0.dem roll.dem | max_residual)
    d=$(dem-energy --last roll.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["ediss_rolling[J]"] + $c["ediss_twisting[J]"] }')
    f=$(dem-energy --last roll.dem | last_col "ediss_friction[J]")
    echo "residual without $r0 J, with rolling and twisting $r1 J; they dissipated $d J (friction $f J)"
    awk -v a="$r0" -v b="$r1" -v d="$d" 'BEGIN { exit !(d > 0 && b < 3 * a + 1e-6 * d) }'
}

@test "rolling: inert material parameters and options are named; parameters of a rolling model not chosen are refused; dem-reverse refuses" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - --rolling-friction 0.5 --twisting-friction 0.2 --surface-energy 10 > m.dem
    run dem-step -n 1 -o o.dem m.dem
    [ "$status" -eq 0 ]
    [[ "$output" == *"warning: materials have rolling_friction 0.5 (material 'default') but --rolling is none"* ]]
    [[ "$output" == *"twisting_friction 0.2 (material 'default') but --twisting is none"* ]]
    [[ "$output" == *"surface_energy 10 (material 'default') but --normal is hertz"* ]]
    run dem-step -n 1 --rolling epsd --twisting marshall -o o.dem m.dem
    [ "$status" -eq 0 ]
    [[ "$output" != *"rolling_friction"* ]]
    [[ "$output" == *"twisting_friction 0.2 (material 'default') but --twisting is marshall"* ]]
    # options of sub-models not chosen: said by name
    run dem-step -n 1 --kt 5 --gamma-n 3 --max-overlap 0.01 --local-damping-form yade -o o.dem m.dem
    [ "$status" -eq 0 ]
    [[ "$output" == *"warning: --kt: only --normal hooke uses it, and --normal is hertz"* ]]
    [[ "$output" == *"warning: --gamma-n: only --damping viscous uses it, and --damping is restitution"* ]]
    [[ "$output" == *"warning: --max-overlap: only --normal hooke --kn-from overlap uses it"* ]]
    [[ "$output" == *"warning: --local-damping-form: there is no local damping"* ]]
    run dem-step -n 1 --normal hooke --kn 1e5 --vc 2 --tangential none --carry rescale -o o.dem m.dem
    [[ "$output" == *"warning: --vc: neither"* ]]
    [[ "$output" == *"warning: --carry: --tangential none has no history to carry"* ]]
    # friction without a tangential law, restitution without the restitution dashpot
    [[ "$output" == *"warning: materials have friction 0.5 (material 'default') but --tangential is none: it has no effect"* ]]
    [[ "$output" != *"restitution 0.9"* ]]
    run dem-step -n 1 --damping viscous -o o.dem m.dem
    [[ "$output" == *"warning: materials have restitution 0.9 (material 'default') but --damping is viscous: it has no effect"* ]]
    [[ "$output" != *"have friction 0.5"* ]]
    # restitution 1 is no dissipation: nothing to say with --damping none
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - --restitution 1 > e1.dem
    run dem-step -n 1 --damping none -o o.dem e1.dem
    [[ "$output" != *"restitution"* ]]
    run dem-step -n 1 --rolling-stiffness 3 -o o.dem m.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--rolling-stiffness: --rolling none has no such parameter"* ]]
    run dem-step -n 1 --twisting marshall --twisting-damping 0.1 -o o.dem m.dem
    [ "$status" -eq 2 ]
    run dem-step -n 1 --rolling sds --tangential none -o o.dem m.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"model.rolling sds takes its stiffness from the tangential spring"* ]]
    run dem-step -n 1 --rolling spring -o o.dem m.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--rolling: unknown 'spring' (none, sds, epsd)"* ]]
    dem-step -q -n 1 --rolling sds --twisting sds m.dem > rs.dem
    run dem-reverse -n 1 rs.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"cannot reverse rolling resistance (model.rolling sds)"* ]]
    [[ "$output" == *"cannot reverse twisting resistance (model.twisting sds)"* ]]
    # the settings travel with the frame; without a model the keys are not written at all
    dem-step -q -n 1 rs.dem > again.dem
    run dem-reverse -n 1 again.dem
    [[ "$output" == *"model.rolling sds"* ]]
    dem-step -q -n 1 m.dem > plain.dem
    [ "$(zcat plain.dem | grep -a -c model.rolling)" = 0 ]
    [ "$(zcat rs.dem | grep -a -c model.twisting_damping)" -gt 0 ]
    dem-step -q -n 1 --rolling none --twisting none rs.dem > off.dem  # turned off: no stale key left
    [ "$(zcat off.dem | grep -a -c model.rolling)" = 0 ]
}

@test "rolling and twisting stiffness are in the time-step estimates: a stiff spring is refused like a stiff contact (issue 29)" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 0.001 --periodic lattice --rolling-friction 0.1 --twisting-friction 0.1 > fcc.dem
    for m in "--rolling sds --rolling-stiffness" "--twisting sds --twisting-stiffness"; do
        # the normal law's auto dt (4.6e-6 s with kn 1e3) is 1.46 half periods of a spring 1e4 times the default
        run --separate-stderr dem-step -n 10 --normal hooke --kn 1e3 --dt 4.6e-6 $m 1e4 fcc.dem -o x.dem
        [ "$status" -eq 1 ]
        [ ! -e x.dem ]
        [[ "$stderr" == *"dem-step: dt = 4.6e-06 s is "*" times the collision time "*" s of the smallest pair (here the half period of the stiffest rolling or twisting spring, pi sqrt(I*/k_theta): --rolling-stiffness, --twisting-stiffness): collisions would be skipped or blow up"* ]]
        # --dt auto follows it: 1/50 of that half period
        run --separate-stderr dem-step -n 1 --normal hooke --kn 1e3 $m 1e4 fcc.dem -o y.dem
        [ "$status" -eq 0 ]
        dt=$(dem-probe y.dem | col time[s])   # one step: the time is dt
        tc=$(sed -n 's/.*collision time tc = \([^ ]*\) s at vc (here the half period.*/\1/p' <<< "$stderr")
        [ -n "$tc" ] && awk -v dt="$dt" -v tc="$tc" 'BEGIN { exit !(dt < tc / 49 && dt > tc / 51 && tc < 2e-5) }'
    done
}
