#!/usr/bin/env bats
# The deforming cell's streaming velocity (issue 28 §1): the frames hold the fluctuation velocity
# u about the field L (x - o), and dem-step integrates du/dt = F/m - L u (cell.h), so that a free
# particle keeps its laboratory velocity u + L (x - o) in simple shear (Lees-Edwards; LAMMPS fix
# deform remap v; Yade's homogeneous deformation). A sheared granular gas heats by the stress
# power, which the books put in work_cell, and cools by its collisions.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
}

@test "shear flow: a free sphere keeps its laboratory velocity and moves as it says (vv and vv-improved)" {
    # L = [[0, 10, 0], ...]: the field at the sphere (y = 2 mm) is 0.02 m/s in x; it moves up at
    # 0.1 m/s, so the old fixed fluctuation velocity gave 0.03 m/s at y = 3 mm (0.25 mm in x)
    printf 'x\ty\tz\tr\tvx\tvy\tvz\n0.005\t0.002\t0.005\t0.0005\t0\t0.1\t0\n' > one.tsv
    dem-pack --from one.tsv --periodic 0,0,0,0.01,0.01,0.01 > one.dem
    for integ in vv vv-improved; do
        dem-step -q -n 1000 --every 100 --dt 1e-5 --integrator $integ --cell-rate xy=10 one.dem 2> /dev/null > run.dem
        dem-probe --particles run.dem > p.tsv
        # laboratory velocity vx + 10 (y - 0): 0.02 m/s in every frame to round-off (measured 1.7e-15;
        # before the fix 0.01); x - x0 = 0.02 t (1.5e-17 m; before, 5e-5 m)
        awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
            { lab = $c["vx[m/s]"] + 10 * $c["y[m]"]; d = lab - 0.02; if (d < 0) d = -d; if (d > dv) dv = d
              e = $c["x[m]"] - 0.005 - 0.02 * $c["time[s]"]; if (e < 0) e = -e; if (e > dx) dx = e; last = $c["x[m]"] }
            END { printf "largest |v_lab - 0.02| %.3g m/s, |x - x0 - 0.02 t| %.3g m, x at the end %.17g m\n", dv, dx, last
                  exit !(NR == 11 && dv < 1e-14 && dx < 1e-15) }' p.tsv
    done
    # the fluctuation velocity it ends with: -gamma vy t = -0.01 m/s
    awk -F'\t' 'END { d = $8 + 0.01; if (d < 0) d = -d; exit !(d < 1e-15) }' p.tsv
}

@test "shear flow: the field's map of the fluctuation velocity is the same bits split in two, and reverses to round-off" {
    printf 'x\ty\tz\tr\tvx\tvy\tvz\n0.005\t0.002\t0.005\t0.0005\t0.01\t0.1\t0.02\n0.002\t0.007\t0.004\t0.0005\t-0.01\t-0.05\t0\n' > two.tsv
    dem-pack --from two.tsv --periodic 0,0,0,0.01,0.01,0.01 > two.dem
    A=(--dt 1e-5 --normal hooke --kn 10 --tangential none --damping none --cell-rate xy=10,zz=-3,yx=1)
    dem-step -q -n 2000 "${A[@]}" two.dem 2> /dev/null > a.dem
    dem-step -q -n 1000 "${A[@]}" two.dem 2> /dev/null | dem-step -q -n 1000 > b.dem
    cmp a.dem b.dem
    dem-reverse -q -n 2000 a.dem | dem-probe --particles --last | cut -f5-10 > back.tsv
    dem-probe --particles two.dem | cut -f5-10 > start.tsv
    paste back.tsv start.tsv | awk -F'\t' 'NR > 1 { for (k = 1; k <= 6; k++) { d = $k - $(k + 6); if (d < 0) d = -d; if (d > m) m = d } }
        END { print "largest difference", m; exit !(m < 1e-13) }'
}
