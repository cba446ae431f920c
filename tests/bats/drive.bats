#!/usr/bin/env bats
# Kinematic driving: a fixed particle moves at its prescribed velocity and spins at its
# prescribed angular velocity (like a moving wall), pushes on the others, and the work of its
# drive closes the energy books.
load helpers

# Two spheres of radius 5 mm pressed together by 0.1 mm (both fixed), hooke kn 1000 N/m, kt
# 800 N/m, no damping, friction 0.5: fn = kn delta = 0.1 N, the Coulomb cap mu fn = 0.05 N.
setup() {
    cd "$BATS_TEST_TMPDIR"
    LAW="--normal hooke --kn 1000 --kt 800 --damping none --dt 1e-5"
}

# pack COLUMNS ROW2: sphere 1 fixed at rest at the origin, sphere 2 fixed at x = 9.9 mm with
# the given extra columns
pack() {
    printf "id\tx\ty\tz\tr\tfixed\t%s\n1\t0\t0\t0\t0.005\t1\t%s\n2\t0.0099\t0\t0\t0.005\t1\t%s\n" "$1" "$2" "$3" |
        dem-pack --from - --friction 0.5
}

@test "a driven sphere spinning against another: |ft| = kt l w t up to the cap mu fn, exactly" {
    # sphere 2 spins at 1 rad/s about z; the centres stay put, so the contact point slides at
    # l w (l = r - delta/2 = 4.95 mm) along y and the spring grows linearly: kt l w t = 3.96 t N,
    # until it reaches mu fn = 0.05 N at t = 12.6 ms, then slides at the cap
    pack wz 0 1 | dem-step -q -n 2000 --every 100 $LAW > spin.dem
    dem-probe --contacts spin.dem | awk -F'\t' '
        NR > 1 { t = $3; ft = sqrt($17^2 + $18^2 + $19^2); fn = sqrt($14^2 + $15^2 + $16^2)
                 want = 800 * (0.005 - $10 / 2) * t; if (want > 0.5 * fn) want = 0.5 * fn
                 e = (ft - want) / want; if (e < 0) e = -e; if (e > worst) worst = e
                 if (($20 == 1) != (800 * 0.00495 * t > 0.05)) { print "sliding flag wrong at t = " t; bad = 1 }
                 n++ }
        END { printf "frames %d, worst relative deviation %.3g\n", n, worst; exit !(n == 20 && worst < 1e-12 && !bad) }'
    # the driven sphere turned by w t about z, its centre did not move
    dem-probe --particles --last spin.dem | awk -F'\t' 'NR > 1 && $4 == 2 { print; exit !($5 == 0.0099 && $6 == 0 && $7 == 0) }'
}

@test "a driven sphere sliding past another: moves at its velocity, spring then cap against the analytic path" {
    # sphere 2 moves along y at 1 cm/s: it stays on its line (x, z unchanged, y = v t), the
    # overlap follows 2r - sqrt(d0^2 + (v t)^2), the spring grows as kt v t (to first order in the
    # contact plane's turn, 1e-4 at most here) until the cap, then |ft| = mu fn exactly
    pack vy 0 0.01 | dem-step -q -n 1200 --every 50 $LAW > slide.dem
    dem-probe --particles slide.dem | awk -F'\t' '
        NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k }
        NR > 1 && $c["id"] == 2 { t = $c["time[s]"]; y = 0.01 * t; e = $c["y[m]"] - y; if (e < 0) e = -e
                                  if (e > 1e-15 || $c["x[m]"] != 0.0099 || $c["z[m]"] != 0) { print "position at t = " t ": " $0; bad = 1 } }
        END { exit bad }'
    dem-probe --contacts slide.dem | awk -F'\t' '
        NR > 1 { t = $3; y = 0.01 * t; delta = 0.01 - sqrt(0.0099^2 + y^2)
                 fn = sqrt($14^2 + $15^2 + $16^2); ft = sqrt($17^2 + $18^2 + $19^2)
                 en = (fn - 1000 * delta) / (1000 * delta); if (en < 0) en = -en; if (en > wn) wn = en
                 if ($20 == 1) { e = (ft - 0.5 * fn) / (0.5 * fn); if (e < 0) e = -e; if (e > wc) wc = e; ns++ }
                 else { e = (ft - 8 * t) / (8 * t); if (e < 0) e = -e; if (e > ws) ws = e; nk++ } }
        END { printf "normal %.3g, spring %.3g (%d frames), cap %.3g (%d frames)\n", wn, ws, nk, wc, ns
              exit !(wn < 1e-9 && ws < 2e-4 && wc < 1e-12 && nk >= 10 && ns >= 10) }'
}

@test "the drive's work closes the energy books (work_external), forwards and split" {
    pack wz 0 1 | dem-step -q -n 2000 --every 250 $LAW > spin.dem
    dem-energy spin.dem | awk -F'\t' '
        NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { w = $c["work_external[J]"]; r = $c["residual[J]"]; if (r < 0) r = -r; if (r > worst) worst = r; last = w
          f = $c["ediss_friction[J]"] }
        END { printf "work_external %.6g J, friction %.6g J, worst |residual| %.3g J\n", last, f, worst
              exit !(last > 0 && f > 0 && worst < 1e-6 * last) }'
    # the residual is the shadow term's 1.6e-13 J, 5e-8 of the drive's work; and a split run
    # gives the same bits
    pack wz 0 1 | dem-step -q -n 2000 $LAW > whole.dem
    pack wz 0 1 | dem-step -q -n 700 $LAW | dem-step -q -n 1300 > split.dem
    cmp whole.dem split.dem
}

@test "a fixed sphere at rest stays where it is, and local damping does not act on it" {
    pack vx 0 0 | dem-step -q -n 100 $LAW --local-damping 0.5 --gravity 0,0,-9.81 > rest.dem
    dem-probe --particles --last rest.dem | awk -F'\t' 'NR > 1 && $4 == 2 { exit !($5 == 0.0099 && $8 == 0) }'
    dem-energy --last rest.dem | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { exit !($c["ediss_local[J]"] == 0 && $c["work_external[J]"] == 0) }'
}

@test "a driven sphere hits a free one like a moving wall (v' = 2 V) and the exact mode reverses it bit for bit" {
    # sphere 2, driven at -5 cm/s, meets sphere 1 at rest: an elastic collision with an infinitely
    # heavy body sends sphere 1 off at -10 cm/s; dem-reverse --exact brings back the start
    printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0\t0\t0\t0.005\t0\t0\n2\t0.0102\t0\t0\t0.005\t-0.05\t1\n' |
        dem-pack --from - --friction 0 --restitution 1 |
        dem-step -q --exact --normal hooke --kn 1000 --tangential none --damping none --dt 1e-5 -n 0 > start.dem
    dem-step -q -n 1000 start.dem > out.dem
    dem-probe --particles --last out.dem | awk -F'\t' 'NR > 1 && $4 == 1 { e = $8 + 0.1; if (e < 0) e = -e; print $8; exit !(e < 1e-5) }'
    dem-reverse -q -n 1000 out.dem > back.dem
    cmp <(dem-probe --particles start.dem | cut -f4-) <(dem-probe --particles back.dem | cut -f4-)
}
