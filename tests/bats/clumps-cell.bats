#!/usr/bin/env bats
# Rigid clumps in a deforming periodic cell (issue 30; lib/sim/clumps.c, lib/sim/cell.c): a clump is
# one body of the affine field. Its centroid is mapped as a free sphere's centre and its velocity is
# the fluctuation about the field (du/dt = F/m - L u); its members are placed rigidly from its pose;
# its angular momentum is the laboratory's and only torques change it. The servo's stress counts a
# clump as one body (branch vectors between centroids, as dem-stress), and so does the cell's work.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# |a - b| <= t |c|
near() { awk -v a="$1" -v b="$2" -v c="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; if (c < 0) c = -c; exit !(d <= t * c) }'; }
# Column NAME of the last row of a TSV table on stdin.
last_col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { v = $c } END { print v }'; }

# The dimers of the last frame of $1 (built with --radius $2: members $2 apart, each $2/2 from the
# centroid) are rigid: the largest error of the member distance and of the distance to the centroid,
# with the members unwrapped by their image counters, x + H s; fails past $3 m.
rigid_dimers() {
    dem-probe --cell --last "$1" > h.tsv
    dem-probe --clumps --last "$1" > k.tsv
    dem-probe --particles --last --fields clump,ix,iy,iz "$1" > m.tsv
    awk -F'\t' -v D="$2" -v tol="$3" '
        FNR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; file++; next }
        file == 1 { for (r = 1; r <= 3; r++) for (s = 1; s <= 3; s++) H[r, s] = $c["h" r s "[m]"]; next }
        file == 2 { cx[$c["id"]] = $c["x[m]"]; cy[$c["id"]] = $c["y[m]"]; cz[$c["id"]] = $c["z[m]"]; next }
        { k = $c["clump"]; i = $c["ix"]; j = $c["iy"]; l = $c["iz"]
          x = $c["x[m]"] + H[1, 1] * i + H[1, 2] * j + H[1, 3] * l
          y = $c["y[m]"] + H[2, 1] * i + H[2, 2] * j + H[2, 3] * l
          z = $c["z[m]"] + H[3, 1] * i + H[3, 2] * j + H[3, 3] * l
          e = sqrt((x - cx[k]) ^ 2 + (y - cy[k]) ^ 2 + (z - cz[k]) ^ 2) - D / 2; if (e < 0) e = -e; if (e > worst) worst = e
          if (k in px) { e = sqrt((x - px[k]) ^ 2 + (y - py[k]) ^ 2 + (z - pz[k]) ^ 2) - D; if (e < 0) e = -e; if (e > worst) worst = e; n++ }
          px[k] = x; py[k] = y; pz[k] = z }
        END { printf "%d dimers: largest error of a member distance %.3g m\n", n, worst; exit !(n > 0 && worst < tol) }' h.tsv k.tsv m.tsv
}

# 150 dimers (radius 1 mm) at a solid fraction of 0.13 in a 2 cm cell, flying at 0.3 m/s.
gas() {
    dem-pack --random 150 --box 0,0,0,0.02,0.02,0.02 --periodic 0,0,0,0.02,0.02,0.02 --radius 1e-3 --clump dimer \
        --friction 0.3 --young 1e7 --velocity-random 0.3 --seed 5 "$@" > gas.dem
}
RATE=(--cell-rate xx=-10,yy=5,xy=20,zx=-8)

# 200 frictionless dimers (radius 0.6 mm) compressed by the servo to 100 kPa, made once per file.
dense() {
    local d="$BATS_FILE_TMPDIR/dense.dem"
    if [ ! -s "$d" ]; then
        local L=0.0132
        dem-pack --random 200 --box 0,0,0,$L,$L,$L --periodic 0,0,0,$L,$L,$L --radius 0.6e-3 --clump dimer --seed 1 \
            --friction 0 > "$BATS_FILE_TMPDIR/loose.dem"
        dem-step -q -n 1000000 --dt 8e-7 --normal hooke --kn 2e5 --tangential none --damping restitution --local-damping 0.3 \
            --cell-stress xx=1e5,yy=1e5,zz=1e5 --cell-max-rate 40 --until stress "$BATS_FILE_TMPDIR/loose.dem" 2> /dev/null > "$d.part"
        mv "$d.part" "$d"
    fi
    cp "$d" dense.dem
}

@test "clumps in a deforming cell: a dimer at rest in the field moves with it exactly, rigid, without turning" {
    # no velocity, no contact: each centroid stays at o + F (x0 - o), F the cell's deformation
    # gradient (a stretch, a compression and two shears at once: L^2 != 0); the field's spin does
    # not turn a rigid body (its angular momentum changes only by torques): the orientations stay
    # to rounding (turned with the field's spin, by 0.04 rad). Before, dem-step refused every clump
    # in a deforming cell.
    dem-pack --random 40 --box 0,0,0,0.03,0.03,0.03 --periodic 0,0,0,0.03,0.03,0.03 --radius 1e-3 --clump dimer \
        --young 1e6 --seed 5 > g.dem
    dem-step -q -n 4000 --dt 1e-6 "${RATE[@]}" --every 1000 g.dem > run.dem
    [ "$(dem-probe --cell --last run.dem | last_col f12)" != 0 ]
    F=$(dem-probe --cell --last run.dem | awk -F'\t' 'NR == 2 { print $36, $37, $38, $39, $40, $41, $42, $43, $44 }')
    paste <(dem-probe --clumps g.dem | cut -f9-11,18-21) <(dem-probe --clumps --last run.dem | cut -f9-11,18-21) |
        awk -v F="$F" 'NR > 1 { split(F, f, " ")
            for (i = 0; i < 3; i++) { d = f[3 * i + 1] * $1 + f[3 * i + 2] * $2 + f[3 * i + 3] * $3 - $(8 + i); if (d < 0) d = -d; if (d > m) m = d }
            for (k = 4; k <= 7; k++) { d = $k - $(k + 7); if (d < 0) d = -d; if (d > t) t = d } }
            END { printf "largest |x_c - F x_c0| %.3g m, change of an orientation component %.3g\n", m, t; exit !(NR == 41 && m < 1e-15 && t < 1e-15) }'
    # their members were not stretched: a member distance of 1 mm and 0.5 mm from the centroid
    rigid_dimers run.dem 1e-3 1e-16
    # a member's spin is, as a sphere's, about the field's spin wL = (0, 4, -10) rad/s
    dem-probe --particles --last run.dem | awk -F'\t' 'NR > 1 { if ($11 != 0 || $12 != -4 || $13 != 10) bad++ } END { exit bad }'
}

@test "clumps in a deforming cell: a colliding dimer gas closes the books with the cell's work; threads and splits give the same bits" {
    gas
    dem-step -q -n 20000 --dt 2e-6 "${RATE[@]}" --every 5000 gas.dem > run.dem
    dem-energy run.dem > e.tsv
    r=$(last_col "residual[J]" < e.tsv)
    w=$(last_col "work_cell[J]" < e.tsv)
    d=$(last_col "ediss_friction[J]" < e.tsv)
    echo "work_cell $w J, friction $d J, residual $r J"
    # the residual is the integrator's (the same gas in a fixed cell: 3.7e-8 J); counting each
    # member's contacts at its own centre and its torque against the field's spin, as for spheres,
    # left 5.3e-6 J (8% of work_cell)
    awk -v w="$w" -v d="$d" 'BEGIN { exit !(w > 3e-5 && d > 1e-4) }'
    near "$r" 0 "$w" 2e-3
    # -n 2N = -n N | -n N, 1 and 2 threads, both velocity-Verlet forms, local damping and drag
    for o in "" "--integrator vv-improved --local-damping 0.2 --drag 0.999"; do
        dem-step -q -n 6000 --dt 2e-6 "${RATE[@]}" $o gas.dem > a.dem
        dem-step -q -n 2345 --dt 2e-6 "${RATE[@]}" $o gas.dem | dem-step -q -n 3655 > b.dem
        dem-step -q -n 6000 --dt 2e-6 "${RATE[@]}" $o --threads 2 gas.dem > c.dem
        cmp a.dem b.dem
        cmp a.dem c.dem
    done
    rigid_dimers a.dem 1e-3 1e-16
}

@test "clumps in a deforming cell: the servo compresses 200 dimers to its target; its stress is dem-stress's" {
    dense
    dem-stress dense.dem > s.tsv
    for c in "sxx[Pa]" "syy[Pa]" "szz[Pa]"; do near "$(last_col "$c" < s.tsv)" 1e5 1e5 1e-3; done
    dem-probe dense.dem | awk -F'\t' 'NR == 2 { print "Z", $7, "phi", $8; exit !($7 > 9 && $8 > 0.66 && $8 < 0.72) }'
    # the servo's own stress: one step with a known gain and no clamp sets L_kk = g (sigma_kk - S)
    # from the frame's forces, which --cell-log records: sigma = S + L/g, dem-stress's to rounding
    # (a servo that counted the members' contacts at their own centres ended 12% off dem-stress)
    dem-step -q -n 1 --cell-gain 1e-3 --cell-max-rate 1e6 --cell-log log.tsv dense.dem > /dev/null
    for k in 1 2 3; do
        a=$(awk -F'\t' -v k=$k 'NR == 2 { printf "%.17g", 1e5 + $(1 + 4 * k - 3) / 1e-3 }' log.tsv)
        b=$(last_col "$(echo sxx syy szz | cut -d' ' -f$k)[Pa]" < s.tsv)
        echo "servo $a Pa, dem-stress $b Pa"
        near "$a" "$b" 1e5 1e-9
    done
}

@test "clumps in a deforming cell: simple shear through cell flips, the books closed, the dimers rigid, split across a flip" {
    dense
    dem-pack --from dense.dem --set-material 0:friction=0.3 > f.dem
    S=(--normal hooke --kn 2e5 --damping restitution --dt 8e-7 --tangential history --cell-still --cell-stress yy=1e5
       --cell-gain 3e-3 --cell-max-rate 1000 --cell-rate xy=200)
    dem-step -q -n 6000 "${S[@]}" --every 250 f.dem 2> /dev/null > shear.dem
    # the cell vector b leans past 0.55 a and the cell flips back
    dem-probe --cell shear.dem | awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { t = $c["h12[m]"] / $c["h11[m]"]; if (t > 0.55 || t < -0.55) bad = 1; if (NR > 2 && t < last) flips++; last = t }
        END { print flips, "flips"; exit !(flips >= 1 && !bad) }'
    r=$(dem-energy shear.dem | last_col "residual[J]")
    w=$(dem-energy shear.dem | last_col "work_cell[J]")
    echo "residual $r J of work_cell $w J"
    near "$r" 0 "$w" 1e-3
    rigid_dimers shear.dem 6e-4 1e-16
    dem-step -q -n 3000 "${S[@]}" f.dem 2> /dev/null | dem-step -q -n 3000 --threads 2 > b.dem
    dem-step -q -n 6000 "${S[@]}" f.dem 2> /dev/null > a.dem
    cmp a.dem b.dem
}

@test "clumps in a deforming cell: a cell compressed below a clump's extent stops with a message; it reverses" {
    dem-pack --random 1 --box 0,0,0,0.01,0.01,0.01 --periodic 0,0,0,0.01,0.01,0.01 --radius 1e-3 --clump dimer --young 1e7 \
        --seed 2 > one.dem
    run dem-step -q -n 100000 --dt 1e-6 --cell-rate xx=-100 one.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"step 12040: the deforming cell became"*"narrower than clump 1, 0.003 m across"*"its own image"* ]]
    # a gas at given rates runs back with dem-reverse to round-off (collisions amplify it)
    gas --friction 0
    dem-step -q -n 3000 --dt 2e-6 --tangential none --damping none "${RATE[@]}" gas.dem 2> /dev/null > f.dem
    [ "$(dem-probe f.dem | last_col contacts)" -gt 0 ]
    dem-reverse -n 3000 f.dem > r.dem
    paste <(dem-probe --clumps gas.dem | cut -f9-11) <(dem-probe --clumps r.dem | cut -f9-11) |
        awk 'NR > 1 { for (i = 1; i <= 3; i++) { d = $i - $(i + 3); if (d < 0) d = -d; if (d > m) m = d } }
            END { printf "largest |x_c - x_c0| %.3g m\n", m; exit !(m < 1e-11) }'
}
