#!/usr/bin/env bats
# dem-step --integrator variational (issue 16; De Klerk et al. 2022, eqs 29-31 as corrected in docs/models.md §3):
# the bonded pair as a harmonic oscillator (x(t) = r + v/w sin wt, w = sqrt(2 kb/m)), the damped
# impact against the corrected analytic restitution e = exp(-pi gamma t_g / m) with
# t_g = (2k/m - (gamma/m)^2)^-1/2 (Vyas et al. 2025, eqs 33-34), energy books, determinism, errors.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    printf 'id\tx\ty\tz\tr\tvx\n1\t-0.001\t0\t0\t0.001\t-0.01\n2\t0.001\t0\t0\t0.001\t0.01\n' > two.tsv
    printf 'i\tj\n1\t2\n' > one.tsv
    dem-pack --from two.tsv --bonds one.tsv --bond-stiffness 100 > pair.dem
}

LAW="--normal hooke --kn 1000 --tangential none"

@test "variational: the bonded oscillator, alpha 1/2 against the analytic solution, energy conserved to the solver's tolerance" {
    dem-step -q --integrator variational --alpha 0.5 $LAW --damping none --dt 1e-7 -n 3000 --every 500 pair.dem > a.dem
    dem-probe --particles --ids 2 a.dem > p.tsv
    paste <(col time[s] < p.tsv) <(col x[m] < p.tsv) <(col vx[m/s] < p.tsv) | awk '
        BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; w = sqrt(2 * 100 / m) }
        { x = 0.001 + 0.01 / w * sin(w * $1); v = 0.01 * cos(w * $1)
          ex = ($2 - x) / (0.01 / w); ev = ($3 - v) / 0.01; if (ex < 0) ex = -ex; if (ev < 0) ev = -ev
          print $1, ex, ev; if (ex > 1e-7 || ev > 1e-7) bad = 1 }
        END { exit bad }'
    # E = kinetic + bond energy is constant to 1e-11 of itself (measured 2e-12 over 3000 steps,
    # the Newton tolerance 1e-12 of |p| per step)
    dem-energy a.dem > e.tsv
    e0=$(awk 'BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; printf "%.17g", m * 0.01 * 0.01 }')
    col total[J] < e.tsv | awk -v e0="$e0" '{ d = ($1 - e0) / e0; print d; if (d < 0) d = -d; if (d > 1e-11) exit 1 }'
    for r in $(col residual[J] < e.tsv); do awk -v r="$r" 'BEGIN { exit !(r < 1e-20 && r > -1e-20) }'; done
    # at a step of 1.2 sqrt(m/kb) (vv is stable below sqrt(2 m/kb) = 1.41), alpha 1/2 still
    # conserves E to 1e-10
    dem-step -q --integrator variational $LAW --damping none --dt 3.9e-4 -n 200 --every 20 pair.dem | dem-energy |
        col total[J] | awk 'NR == 1 { e0 = $1 } { d = ($1 - e0) / e0; if (d < 0) d = -d; if (d > 1e-10) exit 1 }'
}

@test "variational: alpha 0 takes velocity Verlet's positions (De Klerk et al. 2022, Fig. 9), its velocity is the half-step one" {
    dem-step -q --integrator variational --alpha 0 $LAW --damping none --dt 1e-7 -n 3000 --every 1000 pair.dem > a0.dem
    dem-step -q --integrator vv $LAW --damping none --dt 1e-7 -n 3000 --every 1000 pair.dem > vv.dem
    xa=$(dem-probe --particles --ids 2 a0.dem | col x[m] | tr '\n' ' ')
    xv=$(dem-probe --particles --ids 2 vv.dem | col x[m] | tr '\n' ' ')
    echo "$xa / $xv"
    paste <(dem-probe --particles --ids 2 a0.dem | col x[m]) <(dem-probe --particles --ids 2 vv.dem | col x[m]) |
        awk '{ d = ($1 - $2) / ($2 - 0.001); if (d < 0) d = -d; if (d > 1e-9) exit 1 }'
    # v(t - dt/2) of the analytic solution, to 1e-7
    paste <(dem-probe --particles --ids 2 a0.dem | col time[s]) <(dem-probe --particles --ids 2 a0.dem | col vx[m/s]) | awk '
        BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; w = sqrt(2 * 100 / m) }
        { v = 0.01 * cos(w * ($1 - 0.5e-7)); d = ($2 - v) / 0.01; if (d < 0) d = -d; if (d > 1e-7) exit 1 }'
}

@test "variational: a damped impact restitutes as the corrected analytic solution; the books close" {
    # spheres 20 um apart closing at 2 x 0.01 m/s; gamma 0.02 kg/s: e = 0.64509; h = tc/143
    printf 'id\tx\ty\tz\tr\tvx\n1\t-0.00101\t0\t0\t0.001\t0.01\n2\t0.00101\t0\t0\t0.001\t-0.01\n' > imp.tsv
    dem-pack --from imp.tsv > imp.dem
    e=$(awk 'BEGIN { m = 4 / 3 * 3.141592653589793 * 1e-9 * 2500; k = 1000; g = 0.02
        tg = 1 / sqrt(2 * k / m - (g / m)^2); printf "%.10f", exp(-3.141592653589793 * g * tg / m) }')
    for a in 0.5 0; do
        dem-step -q --integrator variational --alpha $a $LAW --damping viscous --gamma-n 0.02 --dt 1.6e-6 -n 1000 imp.dem > o.dem
        v=$(dem-probe --particles --ids 2 o.dem | col vx[m/s])
        awk -v v="$v" -v e="$e" 'BEGIN { d = (v / 0.01 - e) / e; print v / 0.01, e, d; if (d < 0) d = -d; exit !(d < 0.005) }'
        dem-energy o.dem > en.tsv
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { r = $c["residual[J]"]; d = $c["ediss_damp_n[J]"]; print r, d; if (r < 0) r = -r; exit !(d > 5e-10 && r < 1e-3 * d) }' en.tsv
    done
}

@test "variational: a damped periodic gas with spins: the same bits on 2 threads and split; the Newton report" {
    dem-pack --random 150 --box 0,0,0,0.01,0.01,0.01 --periodic 0,0,0,0.01,0.01,0.01 --radius 7e-4 --velocity-random 0.3 \
        --omega 0,0,50 --seed 3 > gas.dem
    opts="--integrator variational $LAW --damping viscous --gamma-n 0.005 --gamma-t 0.002 --dt 2e-6"
    run --separate-stderr dem-step $opts -n 1000 --threads 1 gas.dem -o g1.dem
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"variational (alpha 0.5): 1000 steps, "*" Newton iterations (at most "*"largest final residual"* ]]
    dem-step -q $opts -n 1000 --threads 2 gas.dem > g2.dem
    cmp g1.dem g2.dem
    dem-step -q $opts -n 350 gas.dem | dem-step -q -n 650 > gs.dem
    cmp g1.dem gs.dem
    # the tangential dashpot turned spins into heat, and the books hold it
    dem-energy g1.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { d = $c["ediss_damp_n[J]"] + $c["ediss_damp_t[J]"]; r = $c["residual[J]"]; print d, r; if (r < 0) r = -r
          exit !($c["ediss_damp_t[J]"] > 0 && r < 1e-3 * d) }'
    # with the dashpots' position Jacobian (BiCGSTAB) the same trajectory to the Newton tolerance
    dem-step -q $opts --jacobian full -n 1000 gas.dem > gf.dem
    paste <(dem-probe --particles g1.dem | col x[m]) <(dem-probe --particles gf.dem | col x[m]) |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-12) exit 1 }'
    # -v: one line per step
    run --separate-stderr dem-step -v $opts -n 3 gas.dem -o v.dem
    [ "$(grep -c 'Newton .* iterations, residual' <<< "$stderr")" -eq 3 ]
}

@test "variational: a step that does not converge stops the run, naming the step and the residual" {
    printf 'id\tx\ty\tz\tr\tvx\n1\t-0.00101\t0\t0\t0.001\t0.01\n2\t0.00101\t0\t0\t0.001\t-0.01\n' > imp.tsv
    dem-pack --from imp.tsv > imp.dem
    # a tolerance no iteration can meet, 2 iterations at most
    run --separate-stderr dem-step --integrator variational --newton-tol 1e-30 --newton-max 2 $LAW --damping viscous --gamma-n 0.02 --dt 1.6e-6 -n 1000 imp.dem -o x.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" =~ "step "[0-9]+": the variational integrator's Newton iteration did not converge: residual "[0-9.e-]+" of its scale after 2 iterations" ]]
}

@test "variational: what it does not do is refused" {
    run dem-step --integrator variational --normal hertz --tangential none -n 1 pair.dem -o x.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"Hookean"* ]]
    run dem-step --integrator variational --normal hooke --kn 1e3 --tangential history -n 1 pair.dem -o x.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"--tangential none"* ]]
    run dem-step --integrator vv --alpha 0 -n 1 pair.dem -o x.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--alpha: applies to --integrator variational"* ]]
    run dem-step --integrator variational --alpha 0.3 -n 1 pair.dem -o x.dem
    [ "$status" -eq 2 ]
}
