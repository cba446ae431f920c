#!/usr/bin/env bats
# Kuhn's refined linear-frictional contact, dem-step --tangential kuhn (lib/laws/tangential_kuhn.c;
# Kuhn et al. 2020, docs/models.md §2): the command line; Kuhn et al. 2020, Fig. 4 against the contact's rate
# equations; the energy books of frictional assemblies sheared back and forth; the per-contact
# dissipation; a sphere sliding into rolling; a rigid quarter turn (projection and twirl); the same
# bits across splits and thread counts; the refusals of dem-reverse and the exact mode. The unit
# tests (tests/unit/test_kuhn.c) check beta0, beta_s, the force and the work against hand values
# and RK4.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    MODEL=(--normal hooke --kn 1e5 --damping none --dt 1e-6)
}

# Column NAME of the last row of a TSV table on stdin.
last_col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { v = $c } END { print v }'; }
# |a - b| <= tol |c|
near() { awk -v a="$1" -v b="$2" -v c="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; if (c < 0) c = -c; exit !(d <= t * c) }'; }

# 128 equal spheres in an fcc crystal, friction 0.3, isotropically compressed to 150 kPa with kuhn.
fcc_iso() {
    dem-pack --lattice fcc --cells 4,4,2 --radius 0.001 --periodic lattice --friction 0.3 > fcc.dem
    dem-step -q -n 400000 "${MODEL[@]}" --tangential kuhn --local-damping 0.2 --cell-stress xx=1.5e5,yy=1.5e5,zz=1.5e5 \
        --until stress --unbalanced 1e-6 --stress-tol 1e-6 fcc.dem > iso.dem
}

# Shear the cell of iso.dem back and forth at xy = RATE: N steps, 2N back, N forth again, at dt DT,
# with tangential law LAW, no contact damping, local damping LD (default 0). Prints the largest |change of the residual| over the frames
# divided by the friction dissipated in the cycle, then that friction (J). Leaves cyc.dem.
cycle() {
    local law=$1 rate=$2 n=$3 dt=$4 ld=${5:-0}
    dem-step -q -n 0 --normal hooke --kn 1e5 --damping none --local-damping "$ld" --tangential "$law" --dt "$dt" --cell-still iso.dem > c0.dem
    dem-step -q -n "$n" --every $((n / 4)) --cell-still --cell-rate xy="$rate" c0.dem > c1.dem
    dem-step -q -n $((2 * n)) --every $((n / 4)) --cell-still --cell-rate xy=-"$rate" c1.dem > c2.dem
    dem-step -q -n "$n" --every $((n / 4)) --cell-still --cell-rate xy="$rate" c2.dem > c3.dem
    cat c0.dem c1.dem c2.dem c3.dem > cyc.dem
    dem-energy cyc.dem | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { r0 = $c["residual[J]"]; f0 = $c["ediss_friction[J]"] }
        { r = $c["residual[J]"] - r0; if (r < 0) r = -r; if (r > m) m = r; f = $c["ediss_friction[J]"] - f0 }
        END { printf "%.3g %.6g\n", m / f, f }'
}

@test "kuhn: --help names it; it needs the linear normal law: a usage error on the command line, a data error in a frame" {
    run dem-step --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"none|history|incremental|kuhn"* && "$output" == *"Kuhn"* && "$output" == *"Kuhn et al. 2020"* ]]
    dem-pack --lattice fcc --cells 1,1,1 --radius 0.001 --periodic lattice > p.dem
    run dem-step -q -n 1 --tangential kuhn p.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"model.tangential kuhn needs model.normal hooke"*"not model.normal hertz"* ]]
    [[ "$output" == *"Try 'dem-step --help'"* ]]
    python3 "$REPO/tests/independent/demcraft.py" --parm model.tangential=s:kuhn < p.dem > k.dem
    run dem-step -q -n 1 k.dem
    [ "$status" -eq 1 ]
    [[ "$output" == "dem-step: "*"model.tangential kuhn needs model.normal hooke"* ]]
}

@test "kuhn: Kuhn et al. 2020, Fig. 4: the force's turn under sliding is the rate equations' to 1e-10, and not the add-and-project rule's" {
    kuhn-fig4 40 4 > fig4.tsv
    [ "$(wc -l < fig4.tsv)" -eq 41 ]
    # kuhn (dem_contact_probe, one step) against RK4 of the elastic-plastic rate equations, and
    # against gd(m) = 2 atan(tanh(m/2)) (eq 19 for a movement across the force); the conventional
    # rule (the history law) turns by atan(m)
    awk -F'\t' 'NR > 1 { m = $1; g = 2 * atan2(exp(m) - 1, exp(m) + 1); d = $2 - $3; if (d < 0) d = -d; if (d > w) w = d
                         e = $2 - g; if (e < 0) e = -e; if (e > eg) eg = e; c = $4 - atan2(m, 1); if (c < 0) c = -c; if (c > ec) ec = c
                         if (m == 1) gap = $2 - $4 }
        END { printf "kuhn - rk4 %.2g, kuhn - gd %.2g, conventional - atan %.2g; at movement 1 kuhn turns %.4f rad more\n", w, eg, ec, gap
              exit !(w < 1e-10 && eg < 1e-12 && ec < 1e-12 && gap > 0.07) }' fig4.tsv
}

@test "kuhn: a frictional fcc crystal sheared back and forth: it slides, the books close to 3e-7 of the friction, and what is left falls as dt^2" {
    fcc_iso
    read -r r1 f1 <<< "$(cycle kuhn 1 2000 1e-6)"
    [ "$(dem-probe --contacts cyc.dem | awk -F'\t' 'NR > 1 { s += $20 } END { print (s > 0) }')" = 1 ]   # contacts slid
    [ "$(dem-probe cyc.dem | awk -F'\t' 'NR > 1 && $5 != 768 { bad = 1 } END { print !bad }')" = 1 ]     # none opened
    read -r r2 f2 <<< "$(cycle kuhn 1 4000 5e-7)"
    read -r rh fh <<< "$(cycle history 1 2000 1e-6)"
    echo "kuhn: residual $r1 of the friction $f1 J at dt 1e-6 s, $r2 at 5e-7 s; history: $rh of $fh J"
    awk -v a="$r1" -v b="$r2" -v f="$f1" 'BEGIN { exit !(f > 1e-5 && a < 3e-7 && a / b > 2.5) }'
}

@test "kuhn: a random periodic packing compressed and sheared back and forth: residual below 5e-6 of the friction" {
    dem-pack --random 150 --box 0,0,0,0.008,0.008,0.008 --radius-uniform 4e-4,6e-4 --periodic 0,0,0,0.008,0.008,0.008 \
        --friction 0.5 --seed 3 > p.dem
    dem-step -q -n 400000 --normal hooke --kn 1e5 --tangential kuhn --damping none --dt 5e-7 --local-damping 0.3 \
        --cell-stress xx=1e5,yy=1e5,zz=1e5 --cell-max-rate 20 --until stress --unbalanced 1e-4 p.dem > iso.dem
    read -r r f <<< "$(cycle kuhn 1 10000 2e-7 0.3)"
    echo "residual $r of the friction $f J"
    awk -v r="$r" -v f="$f" 'BEGIN { exit !(f > 1e-5 && r < 5e-6) }'
}

@test "kuhn: the contacts' diss_friction add up to ediss_friction, and sliding contacts say so" {
    fcc_iso
    cycle kuhn 1 2000 1e-6 > /dev/null
    s=$(dem-probe --contacts --last cyc.dem | awk -F'\t' 'NR > 1 { s += $21 } END { printf "%.17g", s }')
    e=$(dem-energy --last cyc.dem | last_col "ediss_friction[J]")
    echo "sum of diss_friction $s J, ediss_friction $e J"
    near "$s" "$e" "$e" 1e-12
    awk -v e="$e" 'BEGIN { exit !(e > 1e-5) }'
}

@test "kuhn: a sphere sliding on a wall into rolling (restitution dashpots): friction takes m v0^2/7, it rolls at 5/7 v0" {
    printf 'x\ty\tz\tr\tvx\n0\t0\t0.005\t0.005\t0.5\n' |
        dem-pack --from - --friction 0.3 --restitution 0.3 --wall z=0 |
        dem-step -q -n 0 --gravity 0,0,-9.81 --normal hooke --kn 1e5 --tangential kuhn > s0.dem
    dem-step -q --time 0.06 --dt 3e-6 --every 20 s0.dem > s1.dem
    m=$(awk 'BEGIN { printf "%.17g", 2500 * 4 / 3 * 3.141592653589793 * 0.005^3 }')
    fric=$(dem-energy --last s1.dem | last_col "ediss_friction[J]")
    damp=$(dem-energy --last s1.dem | last_col "ediss_damp_t[J]")
    echo "friction $fric J, tangential dashpot $damp J, m v0^2/7 = $(awk -v m="$m" 'BEGIN { print m * 0.25 / 7 }') J"
    near "$fric" "$(awk -v m="$m" 'BEGIN { printf "%.17g", m * 0.25 / 7 }')" "$fric" 1e-3
    near "$(dem-probe --particles --last s1.dem | last_col "vx[m/s]")" "$(awk 'BEGIN { printf "%.17g", 2.5 / 7 }')" 0.357 1e-3
    # the books: residual below 1e-8 of the energies
    r=$(cat s0.dem s1.dem | dem-energy | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { r = $c["residual[J]"]; if (r < 0) r = -r; if (r > m) m = r } END { printf "%.17g", m }')
    echo "residual $r J"
    awk -v r="$r" -v f="$fric" 'BEGIN { exit !(r < 1e-8 * f) }'
}

@test "kuhn: a loaded frictional crystal turned rigidly by a quarter turn keeps its stress (projection and twirl)" {
    fcc_iso
    dem-step -q -n 5000 --local-damping 0.2 --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1,xz=0.05 \
        iso.dem > load.dem
    W=$(awk 'BEGIN { printf "%.17g", 3.14159265358979323846 / 2 / (1000 * 1e-6) }')
    dem-step -q -n 1000 --local-damping 0 --cell-still --cell-rate "xy=-$W,yx=$W" load.dem > turned.dem
    dem-stress load.dem > a.tsv
    dem-stress turned.dem > b.tsv
    [ "$(dem-probe --contacts --last load.dem | awk -F'\t' 'NR > 1 { t += $17 * $17 + $18 * $18 + $19 * $19 } END { print (t > 0) }')" = 1 ]
    s=$(last_col "szz[Pa]" < a.tsv)
    # R_z(90): xx' = yy, zz' = zz, yz' = xz
    near "$(last_col "sxx[Pa]" < b.tsv)" "$(last_col "syy[Pa]" < a.tsv)" "$s" 1e-5
    near "$(last_col "szz[Pa]" < b.tsv)" "$s" "$s" 1e-5
    near "$(last_col "syz[Pa]" < b.tsv)" "$(last_col "sxz[Pa]" < a.tsv)" "$s" 1e-5
}

@test "kuhn: the same bits split in two and on 2 threads (both integrators, a deforming cell with its servo, walls)" {
    fcc_iso
    for integ in vv vv-improved; do
        A=(--integrator $integ --cell-still --cell-stress xx=1.5e5,yy=1.5e5 --cell-gain 3e-4 --cell-rate zz=-0.1,xy=1)
        dem-step -q -n 3000 "${A[@]}" iso.dem > a.dem
        dem-step -q -n 1400 "${A[@]}" iso.dem | dem-step -q -n 1600 > b.dem
        dem-step -q -n 3000 --threads 2 "${A[@]}" iso.dem > c.dem
        cmp a.dem b.dem
        cmp a.dem c.dem
        [ "$(dem-probe --contacts a.dem | awk -F'\t' 'NR > 1 { s += $20 } END { print (s > 0) }')" = 1 ]  # some slide
    done
    dem-pack --random 150 --box 0,0,0,0.008,0.008,0.005 --radius 4e-4 --young 5e6 --enclose --seed 2 --velocity-random 0.3 > w.dem
    A=(--gravity 0,0,-9.81 --normal hooke --tangential kuhn --dt 1e-6)
    dem-step -q -n 20000 --every 5000 "${A[@]}" w.dem > a.dem
    dem-step -q -n 7000 "${A[@]}" w.dem | dem-step -q -n 13000 --every 5000 > b.dem
    dem-step -q -n 20000 --every 5000 --threads 2 "${A[@]}" w.dem > c.dem
    for m in --contacts --particles; do cmp <(dem-probe $m --last a.dem | cut -f2-) <(dem-probe $m --last b.dem | cut -f2-); done
    cmp <(dem-energy --last a.dem | cut -f2-) <(dem-energy --last b.dem | cut -f2-)
    cmp a.dem c.dem
    [ "$(dem-probe a.dem | awk -F'\t' 'NR > 1 { w += $6 } END { print (w > 0) }')" = 1 ]            # wall contacts
    [ "$(dem-probe --contacts a.dem | awk -F'\t' 'NR > 1 { s += $20 } END { print (s > 0) }')" = 1 ]  # some slide
}

@test "kuhn: dem-reverse refuses it like any friction; the exact mode refuses it" {
    dem-pack --lattice fcc --cells 2,2,2 --radius 0.001 --periodic lattice --friction 0 |
        dem-step -q -n 5 "${MODEL[@]}" --tangential kuhn > k.dem
    run dem-reverse -q -n 5 k.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"cannot reverse tangential springs (model.tangential kuhn)"* ]]
    run dem-step -q -n 5 --exact k.dem
    [ "$status" -eq 1 ]
    [[ "$output" == *"tangential model 'kuhn'"* ]]
}
