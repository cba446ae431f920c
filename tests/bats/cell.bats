#!/usr/bin/env bats
# The deforming periodic cell (lib/sim/cell.c): the energy books under deformation, the servo and
# --until, same bits across splits and threads, reversal with --replay, rigid rotation, a pair
# across a periodic face against the same pair inside, the cell flip under simple shear.
load helpers

T=$'\t'

setup() {
    cd "$BATS_TEST_TMPDIR"
    READ=(python3 -S "$BATS_TEST_DIRNAME/../independent/demread.py")
    MODEL=(--normal hooke --kn 1e5 --damping none --dt 1e-6)
}

# Column NAME of the last row of a TSV table on stdin.
last_col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { v = $c } END { print v }'; }
# |a - b| <= tol |c|
near() { awk -v a="$1" -v b="$2" -v c="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; if (c < 0) c = -c; exit !(d <= t * c) }'; }

# 128 equal spheres in an fcc crystal (Hanley 2019, §3.2.3), isotropically compressed to 150 kPa.
fcc_iso() {
    dem-pack --lattice fcc --cells 4,4,2 --radius 0.001 --periodic lattice --friction "${1:-0}" > fcc.dem
    dem-step -q -n 400000 "${MODEL[@]}" --tangential "${2:-none}" --cell-stress xx=1.5e5,yy=1.5e5,zz=1.5e5 \
        --until stress --unbalanced 1e-6 --stress-tol 1e-6 ${3:-} fcc.dem > iso.dem
}

@test "cell: --help teaches the deforming cell, the servo and --until" {
    run dem-step --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--cell-rate IJ=R"* && "$output" == *"--cell-stress II=S"* && "$output" == *"FLUCTUATION"* ]]
    [[ "$output" == *"--until stress"* && "$output" == *"--until strain=IJ:E"* && "$output" == *"--cell-log FILE"* ]]
    run dem-reverse --help
    [[ "$output" == *"--replay FILE"* ]]
}

@test "cell: isotropic compression at a given rate closes the books; the work is work_cell" {
    dem-pack --lattice fcc --cells 4,4,4 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    dem-step -q -n 2000 "${MODEL[@]}" --tangential none --cell-rate xx=-1,yy=-1,zz=-1 --every 500 fcc.dem > iso.dem
    dem-energy iso.dem > e.tsv
    w=$(last_col "work_cell[J]" < e.tsv)
    r=$(last_col "residual[J]" < e.tsv)
    echo "work_cell $w J, residual $r J"
    awk -v w="$w" 'BEGIN { exit !(w > 1e-3) }'
    near "$r" 0 "$w" 1e-9
    # an affine crystal: every particle at rest in the field, all 12 contacts
    [ "$(dem-stress iso.dem | last_col coordination)" = 12 ]
}

@test "cell: the servo reaches its target with --until stress and the frame says why it stopped" {
    fcc_iso
    dem-stress iso.dem > s.tsv
    for c in "sxx[Pa]" "syy[Pa]" "szz[Pa]"; do near "$(last_col "$c" < s.tsv)" 1.5e5 1.5e5 1e-6; done
    "${READ[@]}" --dump iso.dem | grep -q "PARM${T}-${T}meta.stop${T}stress"
    # a run that ends by its count says so
    dem-step -q -n 3 --until stress --stress-tol 0 iso.dem | "${READ[@]}" --dump /dev/stdin | grep -q "meta.stop${T}steps"
}

@test "cell: a servo with shear is the same bits split in two and on 2 threads" {
    fcc_iso
    A=(--cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1,xy=0.3)
    dem-step -q -n 3000 "${A[@]}" iso.dem > a.dem
    dem-step -q -n 1500 "${A[@]}" iso.dem | dem-step -q -n 1500 > b.dem
    dem-step -q -n 3000 --threads 2 "${A[@]}" iso.dem > c.dem
    cmp a.dem b.dem
    cmp a.dem c.dem
    r=$(dem-energy a.dem | last_col "residual[J]")
    w=$(dem-energy a.dem | last_col "work_cell[J]")
    near "$r" 0 "$w" 1e-8
}

@test "cell: a servo-driven triaxial run reverses with --replay to the same positions, bit for bit; without the log it is refused" {
    fcc_iso
    dem-step -q -n 4000 --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1 \
        --cell-log fwd.log iso.dem > fwd.dem
    [ "$(wc -l < fwd.log)" -eq 4001 ]
    run dem-reverse -q -n 10 fwd.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"stress-controlled cell"* ]]
    dem-reverse -q -n 4000 --replay fwd.log fwd.dem > back.dem
    dem-probe --particles --last back.dem | cut -f4-6 > back.tsv
    dem-probe --particles iso.dem | cut -f4-6 > start.tsv
    paste back.tsv start.tsv | awk -F'\t' 'NR > 1 { for (k = 1; k <= 3; k++) { d = $k - $(k + 3); if (d < 0) d = -d; if (d > m) m = d } }
        END { print "largest position error", m, "m"; exit !(m < 1e-13) }'
    # bit for bit: the field's map is applied as an increment, which the reversed step's increment
    # undoes exactly (cell.c; before issue 28 the product M x drifted an ulp per step under the
    # constant zz rate: 1.2e-15 m here, and a strain error of 1.2e-12 in the 15000 steps of
    # examples/fcc-triaxial)
    cmp back.tsv start.tsv
    dem-probe --cell --last back.dem | cut -f9-17,36-44 > back-cell.tsv
    dem-probe --cell iso.dem | cut -f9-17,36-44 > start-cell.tsv
    [ "$(tail -1 back-cell.tsv)" = "$(tail -1 start-cell.tsv)" ] # H and F
    # a log that does not reach back far enough is refused
    run dem-reverse -q -n 4001 --replay fwd.log fwd.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"not of step"* ]]
}

@test "cell: the servo's work_cell is the stress power integrated step by step through the triaxial peak" {
    # issue 28 §2: integrated from frames every 500 steps the stress power missed work_cell by
    # 1e-8 J after the peak. It is the frames' sampling: as 512 contacts open within a few steps
    # the stress changes too fast for a trapezoid over frames (6000 steps at -1/s through the
    # peak: 4.5e-8 J off every 500 steps, 2.2e-7 every 100, 4.7e-9 every 20 of 5.2e-4 J). Step by
    # step the two are the same sum: 1200 steps across the peak, every step: 6.9e-16 J of 1.4e-4 J;
    # here 400 steps every 2: 4.9e-12 J of 5.9e-5 J (8e-8), which this test asks to 1e-6 (the
    # residual, 7e-13 J, to 1e-7).
    fcc_iso
    dem-step -q -n 3300 --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-rate zz=-1 --cell-reset-strain iso.dem > pre.dem
    dem-step -q -n 400 --every 2 pre.dem > peak.dem
    [ "$(dem-stress peak.dem | awk -F'\t' 'NR == 2 { a = $17 } END { print a, $17 }')" = "12 8" ] # through the peak
    paste <(dem-stress --kinetic peak.dem | cut -f3-10,18-23) <(dem-energy peak.dem | cut -f17,20) | awk -F'\t' '
        NR == 1 { ok = $1 == "time[s]" && $3 == "sxx[Pa]" && $8 == "syz[Pa]" && $9 == "exx[-]" && $14 == "eyz[-]" && $15 == "residual[J]" && $16 == "work_cell[J]"; next }
        { V = $2; for (k = 1; k <= 6; k++) { s[k] = $(k + 2); e[k] = $(k + 8) }
          if (n++) for (k = 1; k <= 6; k++) sp -= (k > 3 ? 2 : 1) * 0.5 * (V * s[k] + vs[k]) * (e[k] - pe[k])
          else { w0 = $16; r0 = $15 }
          for (k = 1; k <= 6; k++) { vs[k] = V * s[k]; pe[k] = e[k] }; w = $16 - w0; r = $15 - r0 }
        END { d = w - sp; if (d < 0) d = -d; if (r < 0) r = -r
              printf "%d frames: stress power %.6g J, work_cell %.6g J, difference %.2g, residual %.2g\n", n, sp, w, d, r
              exit !(ok && n == 200 && w > 1e-5 && d < 1e-6 * w && r < 1e-7 * w) }'
}

@test "cell: a rigid quarter turn through an antisymmetric L keeps the stress, rotated" {
    # frictionless: to round-off
    fcc_iso
    dem-step -q -n 3000 --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1,xz=0.05 iso.dem > load.dem
    W=$(awk 'BEGIN { printf "%.17g", 3.14159265358979323846 / 2 / (1000 * 1e-6) }')
    dem-step -q -n 1000 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem > turned.dem
    dem-stress load.dem > a.tsv
    dem-stress turned.dem > b.tsv
    # R_z(90): xx' = yy, yy' = xx, zz' = zz, yz' = xz
    near "$(last_col "sxx[Pa]" < b.tsv)" "$(last_col "syy[Pa]" < a.tsv)" 1.5e5 1e-9
    near "$(last_col "szz[Pa]" < b.tsv)" "$(last_col "szz[Pa]" < a.tsv)" 1.5e5 1e-9
    near "$(last_col "syz[Pa]" < b.tsv)" "$(last_col "sxz[Pa]" < a.tsv)" 1.5e5 1e-9
}

@test "cell: a rigid quarter turn of a loaded frictional crystal in 1000 steps keeps the stress to 1e-6 (vv-improved)" {
    # measured 2.7e-8 of szz; with the projection of Kuhn et al. 2020, eq 22 for the exact turn of the
    # contact plane 4.9e-6 (first order in the step's angle), without the twirl (eq 23) 4.3e-2
    fcc_iso 0.3 history "--local-damping 0.2"
    dem-step -q -n 5000 --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1,xz=0.05 iso.dem > load.dem
    W=$(awk 'BEGIN { printf "%.17g", 3.14159265358979323846 / 2 / (1000 * 1e-6) }')
    dem-step -q -n 1000 --local-damping 0 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem > turned.dem
    dem-stress load.dem > a.tsv
    dem-stress turned.dem > b.tsv
    s=$(last_col "szz[Pa]" < a.tsv)
    near "$(last_col "sxx[Pa]" < b.tsv)" "$(last_col "syy[Pa]" < a.tsv)" "$s" 1e-6
    near "$(last_col "syy[Pa]" < b.tsv)" "$(last_col "sxx[Pa]" < a.tsv)" "$s" 1e-6
    near "$(last_col "szz[Pa]" < b.tsv)" "$s" "$s" 1e-6
    near "$(last_col "syz[Pa]" < b.tsv)" "$(last_col "sxz[Pa]" < a.tsv)" "$s" 1e-6
    near "$(last_col "sxz[Pa]" < b.tsv)" "$(awk -v v="$(last_col "syz[Pa]" < a.tsv)" 'BEGIN { printf "%.17g", -v }')" "$s" 1e-6
    # the standard velocity-Verlet lags the turning normal (Vyas et al. 2025): it does not keep the stress
    dem-step -q -n 1000 --integrator vv --local-damping 0 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem | dem-stress > c.tsv
    ! near "$(last_col "szz[Pa]" < c.tsv)" "$s" "$s" 1e-3 || false
    # without the twirl (Kuhn et al. 2020, eq 23) it does not either (measured 4.3e-2), nor with the
    # projection and rescaling for the carry (first order: 4.9e-6 of szz in yz)
    dem-step -q -n 1000 --carry project-only --local-damping 0 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem | dem-stress > d.tsv
    ! near "$(last_col "szz[Pa]" < d.tsv)" "$s" "$s" 1e-3 || false
    dem-step -q -n 1000 --carry rescale --local-damping 0 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem | dem-stress > e.tsv
    ! near "$(last_col "syz[Pa]" < e.tsv)" "$(last_col "sxz[Pa]" < a.tsv)" "$s" 2e-6 || false
    # the frames say how they carried
    dem-step -q -n 1 --carry project load.dem | "${READ[@]}" --dump /dev/stdin | grep -q "model.carry${T}project"
    run --separate-stderr dem-step -n 1 --carry sideways load.dem
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"--carry: unknown 'sideways' (exact, rescale, project, project-only, none)"* ]]
}

@test "cell: a pair across a periodic face under shear feels the force of the same pair inside the cell" {
    printf 'x\ty\tz\tr\n%s\n%s\n' "0.0005${T}0.005${T}0.005${T}0.000502" "0.0095${T}0.0051${T}0.005${T}0.000502" > across.tsv
    printf 'x\ty\tz\tr\n%s\n%s\n' "0.0055${T}0.005${T}0.005${T}0.000502" "0.0045${T}0.0051${T}0.005${T}0.000502" > inside.tsv
    for k in across inside; do
        dem-pack --from $k.tsv --periodic 0,0,0,0.01,0.01,0.01 --friction 0.5 |
            dem-step -q -n 200 "${MODEL[@]}" --tangential history --cell-rate xy=5,zz=-1 |
            dem-probe --contacts --last | cut -f10-19 | tail -1 > $k.out
    done
    cat across.out inside.out
    # the contact's overlap, normal and forces agree (to rounding of the shifted coordinates)
    paste across.out inside.out | awk -F'\t' '{ for (k = 1; k <= 10; k++) { d = $k - $(k + 10); if (d < 0) d = -d; s = $k < 0 ? -$k : $k;
        if (d > 1e-9 * (s + 1e-12)) { print "column", k, $k, $(k + 10); bad = 1 } } } END { exit bad }'
    awk -F'\t' '{ exit !($7 != 0) }' across.out   # a tangential force is there to compare
}

@test "cell: unlimited simple shear flips the cell and keeps the books" {
    fcc_iso 0.3 history "--local-damping 0.2"
    # shear strain 1.6 at 200/s with the normal stress held (a fast servo lets the crystal dilate):
    # the cell vector b leans past 0.55 a several times and the cell flips back each time
    dem-step -q -n 8000 --cell-still --cell-stress yy=1.5e5 --cell-gain 3e-3 --cell-max-rate 1000 --cell-rate xy=200 \
        --local-damping 0.2 --every 250 iso.dem > shear.dem
    "${READ[@]}" --dump shear.dem > dump.tsv
    awk -F'\t' '$2 == "CELL" && $4 == "h11" { a[$1] = $5 } $2 == "CELL" && $4 == "h12" { b[$1] = $5 }
        END { for (f in b) { r = b[f] / a[f]; if (r > 0.55 || r < -0.55) bad = 1; if (f > 0 && b[f] < b[f - 1]) flips++ }
              print flips, "flips"; exit !(flips >= 2 && !bad) }' dump.tsv
    # the books stay closed through the flips (friction and local damping dissipate)
    r=$(dem-energy shear.dem | last_col "residual[J]")
    w=$(dem-energy shear.dem | last_col "work_cell[J]")
    echo "residual $r of work_cell $w"
    near "$r" 0 "$w" 2e-3
}

@test "cell: exact mode refuses a stretching or servo-driven cell, naming why" {
    dem-pack --lattice fcc --cells 4,4,4 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    run dem-step -q -n 10 "${MODEL[@]}" --tangential none --cell-rate zz=-1 --exact fcc.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"only in simple shear"*"cannot hold this deforming cell"* ]]
    run dem-step -q -n 10 "${MODEL[@]}" --tangential none --cell-rate xy=1,yx=1 --exact fcc.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"only in simple shear"* ]]
    run dem-step -q -n 10 "${MODEL[@]}" --tangential none --cell-stress zz=1e5 --exact fcc.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"stress-controlled cell"*"--cell-rate"* ]]
    # simple shear it holds (shear-flow.bats reverses it bit for bit)
    dem-step -q -n 10 "${MODEL[@]}" --tangential none --cell-rate xy=1 --exact fcc.dem > /dev/null
    run dem-step -q -n 10 --cell-stress xy=5 fcc.dem
    [ "$status" -eq 2 ]
    run dem-step -q -n 10 --cell-rate qq=5 fcc.dem
    [ "$status" -eq 2 ]
}

@test "dem-probe --cell: H, L, the servo's targets, F and the volume of every frame; a frame without a cell is an error" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    dem-step -q -n 100 --every 50 "${MODEL[@]}" --tangential none --cell-rate xy=10 --cell-stress zz=1e5 fcc.dem > run.dem
    dem-probe --cell run.dem > cell.tsv
    [ "$(head -1 cell.tsv | cut -f1-9)" = "$(printf 'frame\tstep\ttime[s]\tflags\tstress_mask\tox[m]\toy[m]\toz[m]\th11[m]')" ]
    [ "$(wc -l < cell.tsv)" -eq 3 ]
    # after 100 steps of 1e-6 s: F12 = 10 t (simple shear: L is nilpotent in xy, and the Cayley
    # map exact for it); H = F H0 (H0 diagonal); zz is the servo's (the crystal is loose: it shrinks)
    awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } NR == 3 {
        t = 100e-6; a2 = 2 * sqrt(2) * 0.002
        ok = $c["flags"] == 7 && $c["stress_mask"] == 4 && $c["s33[Pa]"] == 1e5 && $c["l12[1/s]"] == 10 && $c["l33[1/s]"] < 0
        d1 = $c["f12"] - 10 * t; d2 = $c["f33"] - $c["h33[m]"] / a2; d3 = $c["h12[m]"] - $c["f12"] * $c["h22[m]"] / $c["f22"]
        d4 = $c["volume[m^3]"] - $c["h11[m]"] * $c["h22[m]"] * $c["h33[m]"]
        if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3; if (d4 < 0) d4 = -d4
        print ok, d1, d2, d3, d4
        exit !(ok && d1 < 1e-12 && d2 < 1e-12 && d3 < 1e-15 && d4 < 1e-20 && $c["f33"] < 1) }' cell.tsv
    run --separate-stderr dem-probe --cell fcc.dem
    [ "$status" -eq 0 ]
    dem-pack --lattice sc --cells 2,2,2 --radius 1 > plain.dem
    run --separate-stderr dem-probe --cell plain.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-probe: frame 0 has no periodic cell (dem-pack --periodic makes one)" ]]
}

@test "cell: a periodic random packing at a pressure, and at a solid fraction (the README's pipelines)" {
    L=0.0096
    dem-pack --random 64 --box 0,0,0,$L,$L,$L --periodic 0,0,0,$L,$L,$L --radius-uniform 0.8e-3,1.2e-3 --seed 1 > gas.dem
    # at a pressure: frictionless and damped, the servo on the three normal stresses
    dem-step -q -n 2000000 --dt 8e-7 --normal hooke --kn 2e5 --tangential none --damping restitution --local-damping 0.3 \
        --cell-stress xx=1e5,yy=1e5,zz=1e5 --until stress gas.dem > dense.dem
    "${READ[@]}" --dump dense.dem | grep -q "PARM${T}-${T}meta.stop${T}stress"
    dem-stress dense.dem > s.tsv
    for c in "sxx[Pa]" "syy[Pa]" "szz[Pa]"; do near "$(last_col "$c" < s.tsv)" 1e5 1e5 1e-3; done
    dem-probe dense.dem | awk -F'\t' 'NR == 2 { print "Z", $7, "phi", $8; exit !($8 > 0.62 && $8 < 0.66 && $7 > 5.5 && $7 < 7) }'
    # at a solid fraction: isotropic strain rate until ezz = ln(phi0 / phi) / 3
    phi0=$(dem-probe gas.dem | awk -F'\t' 'NR == 2 { print $8 }')
    E=$(awk -v p0="$phi0" 'BEGIN { printf "%.17g", log(p0 / 0.55) / 3 }')
    dem-step -q -n 2000000 --dt 8e-7 --normal hooke --kn 2e5 --tangential none --damping restitution --local-damping 0.3 \
        --cell-rate xx=-2,yy=-2,zz=-2 --until strain=zz:$E gas.dem > phi.dem
    dem-probe phi.dem | awk -F'\t' 'NR == 2 { print "phi", $8; d = $8 - 0.55; exit !(d < 2e-5 && d > -2e-5) }'
}

@test "cell: a rate the step's map cannot represent stops with a message, prescribed or from the servo (issue 29)" {
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 --periodic lattice > fcc.dem
    # |L| dt = 4: the Cayley map is singular ("went -nan cells" before); 2 and 8 gave the same cell
    for rate in 4e8 8e8 2e8; do
        run --separate-stderr dem-step -q -n 10 --dt 1e-8 --cell-rate xx=$rate --normal hooke --kn 1e5 fcc.dem -o r.dem
        [ "$status" -eq 1 ]
        [[ "$stderr" == "dem-step: step 0: the cell's velocity gradient |L| = "*" 1/s is a strain of "*" per step of 1e-08 s, beyond the 1 per step the cell's map (the Cayley transform of L dt, which turns back at 4) represents: lower --cell-rate or --dt" ]]
    done
    dem-step -q -n 10 --dt 1e-8 --cell-rate xx=5e7 --normal hooke --kn 1e5 fcc.dem > /dev/null
    # an unreachable target (before: 20 000 steps, exit 0, work_cell 3.8e124 J) and an unbounded rate
    for args in "--cell-stress xx=1e300" "--cell-stress xx=1e3 --cell-max-rate 1e300"; do
        run --separate-stderr dem-step -q -n 20000 $args --normal hooke --kn 1e5 fcc.dem -o s.dem
        [ "$status" -eq 1 ]
        [ ! -e s.dem ]
        [[ "$stderr" == "dem-step: step 0: the stress servo asks for |L| = "*" 1/s, a strain of "*"the servo's largest rate "*" 1/s is too fast for this time step (give --cell-max-rate below 1.27e+06 1/s; an unreachable --cell-stress asks for it at once)" ]]
    done
}
