#!/usr/bin/env bats
# Measuring a bed, not its container (issue 20): 400 spheres settled in a tall walled box with
# dem-step --until unbalanced=1e-2 (about 5 s, made once for the file). The whole box is mostly
# empty and dem-probe says so; --box over the bulk of the bed and --profile z measure the bed;
# the rattler-free coordination on hand-made lattices; dem-probe's unbalanced ratio against the
# frame where dem-step stopped.
load helpers

T=$'\t'

setup_file() {
    export BED="$BATS_FILE_TMPDIR/bed.dem"
    dem-pack --random 400 --box 0,0,0,0.006,0.006,0.03 --radius 4e-4 --young 5e6 --enclose --seed 3 |
        dem-step -q --gravity 0,0,-9.81 --time 1 --every-time 0.02 --local-damping 0.2 \
            --until unbalanced=1e-2 -o "$BED"
}

setup() {
    setup_tmp
    cd "$TMP"
}

# Exit 0 if a and b agree to tol relative.
close_to() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t * m) }'
}

# Exit 0 if lo <= x <= hi.
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

@test "the whole box: a small solid fraction, its volume, and one note on stderr naming it" {
    run --separate-stderr dem-probe --last "$BED"
    [ "$status" -eq 0 ]
    [ "$(col 'volume[m^3]' <<< "$output")" = 1.08e-06 ]
    between "$(col solid_fraction <<< "$output")" 0.05 0.15
    [[ "$stderr" == "dem-probe: solid_fraction is over the box enclosed by the six walls, 1.08e-06 m^3; the particles reach z = 0.00"*" of the box's 0 to 0.03 (last frame): measure the bed with --box or --profile z" ]]
    # one note per run, not per frame
    run --separate-stderr dem-probe "$BED"
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    # dem-stress says the same of its volume
    run --separate-stderr dem-stress --last "$BED"
    [ "$status" -eq 0 ]
    [[ "$stderr" == "dem-stress: the stress is averaged over the box enclosed by the six walls, 1.08e-06 m^3;"*"measure the bed with --box" ]]
}

@test "--box over the bulk of the bed: a random packing's solid fraction, no note" {
    run --separate-stderr dem-probe --last --box 0,0,0.001,0.006,0.006,0.004 "$BED"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    between "$(col solid_fraction <<< "$output")" 0.5 0.65
    [ "$(col 'volume[m^3]' <<< "$output")" = 1.08e-07 ]
    # the coordination of the particles centred in the box: above the whole bed's (no free surface)
    whole=$(dem-probe --last "$BED" 2> /dev/null | col coordination)
    awk -v a="$(col coordination <<< "$output")" -v b="$whole" 'BEGIN { exit !(a > b) }'
    run --separate-stderr dem-stress --last --box 0,0,0.001,0.006,0.006,0.004 "$BED"
    [ -z "$stderr" ]
}

@test "--profile z: the bed and the empty box above it; the solid sums to the spheres' volume" {
    run --separate-stderr dem-probe --last --profile z --bins 30 --range -0.001,0.031 "$BED"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "frame${T}step${T}time[s]${T}bin${T}lo[m]${T}hi[m]${T}volume[m^3]${T}particles${T}solid_fraction${T}coordination${T}sxx[Pa]${T}syy[Pa]${T}szz[Pa]${T}p[Pa]${T}q[Pa]" ]
    [ "${#lines[@]}" -eq 31 ]
    printf '%s\n' "$output" > p.tsv
    # every particle in one slice
    [ "$(col particles < p.tsv | awk '{ s += $1 } END { print s }')" = 400 ]
    # above z = 0.01 m (the bed is about 6 mm high): nothing
    [ "$(awk -F'\t' 'NR > 1 && $5 >= 0.01 && ($9 != 0 || $8 != 0) { n++ } END { print n + 0 }' p.tsv)" = 0 ]
    # in the bulk (1 to 4 mm): a packing
    awk -F'\t' 'NR > 1 && $5 >= 0.001 && $6 <= 0.004 { if ($9 < 0.45 || $9 > 0.7) bad++; n++ } END { exit !(n >= 2 && !bad) }' p.tsv
    # sum of solid_fraction * volume over the slices = sum of 4/3 pi r^3, to 1e-12
    solid=$(awk -F'\t' 'NR > 1 { s += $9 * $7 } END { printf "%.17g", s }' p.tsv)
    spheres=$(dem-probe --particles --last "$BED" | awk -F'\t' 'NR > 1 { s += 4 / 3 * atan2(0, -1) * $17^3 } END { printf "%.17g", s }')
    close_to "$solid" "$spheres" 1e-12
    # the default range is the walls' box along z: 30 slices of 1 mm
    [ "$(dem-probe --last --profile z --bins 30 "$BED" | col 'hi[m]' | tail -n 1)" = 0.03 ]
}

@test "--profile z: szz grows with depth like the weight of the bed above (rho_bulk g (H - z))" {
    dem-probe --last --profile z --bins 6 --range 0,0.006 "$BED" > p.tsv
    # the weight per area of the solid above the middle of each of the two lowest slices
    rho=$(dem-probe --particles --fields mass --last "$BED" |
        awk -F'\t' 'NR > 1 { m += $18; v += 4 / 3 * atan2(0, -1) * $17^3 } END { printf "%.17g", m / v }')
    awk -F'\t' -v rho="$rho" '
        NR > 1 { lo[NR] = $5; hi[NR] = $6; phi[NR] = $9; szz[NR] = $13; n = NR }
        END {
            # the slices from 1 to 4 mm (the lowest one, at the floor, has the wall layer)
            for (r = 3; r <= 5; r++) {
                w = 0
                for (k = r; k <= n; k++) w += rho * 9.81 * phi[k] * (hi[k] - lo[k]) * (k == r ? 0.5 : 1)
                # the walls carry part of the weight (Janssen): between 0.6 and 1.2 times it
                if (!(szz[r] > 0.6 * w && szz[r] < 1.2 * w)) { print "slice " r ": szz " szz[r] ", weight " w; exit 1 }
                if (!(szz[r] > szz[r + 1] && szz[r + 1] > 0)) { print "slice " r ": szz does not fall upwards"; exit 1 }
            }
        }' p.tsv
}

@test "--profile: usage errors, and a frame without a cross-section" {
    for args in "--profile w" "--profile z --bins 0" "--profile z --range 1,0" "--bins 3" \
                "--range 0,1" "--profile z --ids 1" "--profile z --summary"; do
        run --separate-stderr dem-probe $args "$BED"
        [ "$status" -eq 2 ] || { echo "args '$args': $status $stderr"; return 1; }
    done
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > free.dem
    run --separate-stderr dem-probe --profile z free.dem
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-probe: frame 0: no cross-section for a profile along z"*"give a box"* ]]
    # with a box: its cross-section; the sphere centred on the slice edge z = 0 splits in two
    dem-probe --profile z --bins 2 --box -0.001,-0.001,-0.001,0.001,0.001,0.001 free.dem > f.tsv
    close_to "$(col solid_fraction < f.tsv | head -n 1)" "$(awk 'BEGIN { printf "%.17g", 2 / 3 * atan2(0, -1) * 1e-9 / 4e-9 }')" 1e-13
}

# fcc, 3x3x3 cells (108 spheres) in its periodic cell, the lattice shrunk by 0.1% so that every
# sphere overlaps its 12 neighbours; dem-step -n 0 computes the contacts. $1: radius of sphere 1.
fcc() {
    awk -v r1="$1" 'BEGIN {
        R = 1e-3; s = 0.999; a = 2 * sqrt(2) * R * s; OFS = "\t"
        print "x", "y", "z", "r"
        split("0 0 0 0.5 0.5 0 0.5 0 0.5 0 0.5 0.5", b, " ")
        for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) for (k = 0; k < 3; k++) for (q = 0; q < 4; q++) {
            n++
            print (i + b[3*q+1]) * a, (j + b[3*q+2]) * a, (k + b[3*q+3]) * a, n == 1 ? r1 : R
        }
    }' > fcc.tsv
    L=$(awk 'BEGIN { printf "%.17g", 3 * 2 * sqrt(2) * 1e-3 * 0.999 }')
    dem-pack --from fcc.tsv --periodic 0,0,0,$L,$L,$L | dem-step -q -n 0 -o fcc.dem
}

@test "coordination without rattlers: 12 in a compressed fcc lattice, a loose sphere removed" {
    fcc 1e-3
    dem-probe fcc.dem > s.tsv
    [ "$(col coordination < s.tsv)" = 12 ]
    [ "$(col coordination_mech < s.tsv)" = 12 ]
    [ "$(col rattler_fraction < s.tsv)" = 0 ]
    # sphere 1 shrunk: it touches nothing; its 12 neighbours keep 11 contacts each
    fcc 5e-4
    dem-probe fcc.dem > s.tsv
    [ "$(col contacts < s.tsv)" = 636 ]
    close_to "$(col coordination < s.tsv)" "$(awk 'BEGIN { printf "%.17g", 1272 / 108 }')" 1e-15
    close_to "$(col coordination_mech < s.tsv)" "$(awk 'BEGIN { printf "%.17g", 1272 / 107 }')" 1e-15
    close_to "$(col rattler_fraction < s.tsv)" "$(awk 'BEGIN { printf "%.17g", 1 / 108 }')" 1e-15
    # K = 11 keeps the neighbours; K = 12 removes them, then theirs, ... the whole lattice
    dem-probe --rattler-contacts 11 fcc.dem > s.tsv
    close_to "$(col rattler_fraction < s.tsv)" "$(awk 'BEGIN { printf "%.17g", 1 / 108 }')" 1e-15
    dem-probe --rattler-contacts 12 fcc.dem > s.tsv
    [ "$(col rattler_fraction < s.tsv)" = 1 ]
    [ "$(col coordination_mech < s.tsv)" = 0 ]
    # dem-stress prints the same at the end of its row
    [ "$(dem-stress --rattler-contacts 12 fcc.dem | col rattler_fraction)" = 1 ]
    run --separate-stderr dem-probe --rattler-contacts 0 fcc.dem
    [ "$status" -eq 2 ]
    run --separate-stderr dem-probe --particles --rattler-contacts 3 fcc.dem
    [ "$status" -eq 2 ]
}

@test "unbalanced: below the --until threshold on the frame dem-step stopped at, above it before" {
    dem-probe "$BED" > s.tsv
    n=$(($(wc -l < s.tsv) - 1))
    [ "$n" -ge 2 ]
    last=$(col unbalanced < s.tsv | tail -n 1)
    before=$(col unbalanced < s.tsv | tail -n 2 | head -n 1)
    awk -v u="$last" 'BEGIN { exit !(u > 0 && u < 1e-2) }'
    awk -v u="$before" 'BEGIN { exit !(u > 1e-2) }'
}
