#!/usr/bin/env bats
# edit.bats - dem-pack --from a dem stream: the frame kept whole (bit for bit without an edit),
# --frame, and the edits --delete, --remove-wall, --set-material, --insert, with their contacts,
# the energy budget after an edit, and the usage errors of options that do not apply.
load helpers

# A settled frictional bed of 150 spheres in a walled box (walls 0..5: x lo, x hi, y lo, y hi,
# floor z = 0, lid z = 0.02) under gravity, with contacts and tangential springs; made once.
setup_file() {
    local d="$BATS_FILE_TMPDIR"
    dem-pack --random 150 --box 0,0,0,0.006,0.006,0.02 --radius 4e-4 --young 5e6 --friction 0.4 --enclose --seed 3 |
        dem-step --gravity 0,0,-9.81 --time 0.1 --local-damping 0.2 -q -o "$d/bed.dem"
    dem-step -n 300 --every 100 -q -o "$d/run.dem" "$d/bed.dem"
}

setup() {
    setup_tmp
    BED="$BATS_FILE_TMPDIR/bed.dem"
    RUN="$BATS_FILE_TMPDIR/run.dem"
}

# The ids (one a line, sorted) of the particles of stream $1 whose centre z is above $2.
ids_above() { dem-probe --particles "$1" | awk -F'\t' -v h="$2" 'NR > 1 && $7 > h { print $4 }' | sort; }

@test "--help says what a stream source keeps and which options apply" {
    dem-pack --help > "$TMP/help"
    for opt in --frame --remove-wall --delete --set-material --insert --insert-material above=AXIS,H below=AXIS,H \
               "Editing a stream" "bit for bit" "Order of work: --remove-wall" "Refused with a stream" "Energy books"; do
        grep -q -- "$opt" "$TMP/help" || { echo "help lacks $opt"; false; }
    done
}

@test "a stream is told from a table by its first bytes; a gzip member that is no dem frame is a data error" {
    dem-pack --from "$BED" -o "$TMP/a.dem"
    [ "$(dem-count < "$TMP/a.dem")" = "$(dem-count < "$BED")" ]
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' > "$TMP/one.tsv"
    dem-pack --from "$TMP/one.tsv" -o "$TMP/t.dem"
    [[ "$(dem-count < "$TMP/t.dem")" == *"particles=1 "* ]]
    printf 'x\ty\tz\tr\n' | gzip > "$TMP/tsv.gz"
    run dem-pack --from "$TMP/tsv.gz" -o "$TMP/bad.dem"
    [ "$status" -eq 1 ]
    [[ "$output" == "dem-pack: $TMP/tsv.gz: "* ]]
    [ ! -e "$TMP/bad.dem" ]
}

@test "without an edit the frame is written bit for bit, from a file and through a pipe" {
    dem-pack --from "$BED" -o "$TMP/same.dem"
    cmp <(gzip -dc "$BED") <(gzip -dc "$TMP/same.dem")
    dem-pack --from - < "$BED" > "$TMP/pipe.dem"
    cmp <(gzip -dc "$BED") <(gzip -dc "$TMP/pipe.dem")
    # the settings came along: dem-step continues it as it continues the original
    dem-step -n 200 -q -o "$TMP/a.dem" "$BED"
    dem-step -n 200 -q -o "$TMP/b.dem" "$TMP/same.dem"
    cmp <(gzip -dc "$TMP/a.dem") <(gzip -dc "$TMP/b.dem")
    # dem-step -n N | dem-pack --from - | dem-step -n N = dem-step -n 2N
    dem-step -n 100 -q "$BED" | dem-pack --from - | dem-step -n 100 -q -o "$TMP/c.dem"
    cmp <(gzip -dc "$TMP/a.dem") <(gzip -dc "$TMP/c.dem")
    # its budget continues: e_initial kept, so dem-energy does not warn
    dem-energy "$TMP/same.dem" > /dev/null 2> "$TMP/err"
    [ ! -s "$TMP/err" ]
}

@test "--frame K takes frame K (0-based), whole; past the end it says how many there are" {
    [ "$(dem-probe --summary "$RUN" | wc -l)" -eq 4 ] # header and frames 0, 1, 2
    dem-pack --from "$RUN" --frame 1 -o "$TMP/f1.dem"
    diff <(dem-probe --particles --frame 1 "$RUN" | cut -f2-) <(dem-probe --particles "$TMP/f1.dem" | cut -f2-)
    diff <(dem-probe --contacts --frame 1 "$RUN" | cut -f2-) <(dem-probe --contacts "$TMP/f1.dem" | cut -f2-)
    dem-pack --from "$RUN" -o "$TMP/last.dem"
    diff <(dem-probe --particles --frame 2 "$RUN" | cut -f2-) <(dem-probe --particles "$TMP/last.dem" | cut -f2-)
    run dem-pack --from "$RUN" --frame 3 -o "$TMP/none.dem"
    [ "$status" -eq 1 ]
    [[ "$output" == "dem-pack: --frame 3: $RUN has only 3 frames (0 to 2)" ]]
    [ ! -e "$TMP/none.dem" ]
}

@test "--delete above=z,H removes those ids and their contacts, keeps every other record exactly, and dem-step goes on" {
    ids_above "$BED" 0.0018 > "$TMP/gone"
    n=$(wc -l < "$TMP/gone")
    [ "$n" -ge 10 ]
    [ "$n" -le 140 ] # the cut is inside the bed
    dem-pack --from "$BED" --delete above=z,0.0018 -v -o "$TMP/cut.dem" 2> "$TMP/err"
    grep -q "deleted $n particles" "$TMP/err"
    grep -q "the energy budget restarts here" "$TMP/err"
    [[ "$(dem-count < "$TMP/cut.dem")" == *"particles=$((150 - n)) "* ]]
    [ -z "$(ids_above "$TMP/cut.dem" 0.0018)" ]
    # no contact names a removed particle (as i, or as j of a pair)
    dem-probe --contacts "$TMP/cut.dem" |
        awk -F'\t' 'NR == FNR { gone[$1] = 1; next } FNR > 1 && (gone[$4] || ($6 == 0 && gone[$5])) { bad++ } END { exit bad > 0 }' "$TMP/gone" -
    # every other particle and contact record is the same, field for field, bits for bits
    dem-probe --particles "$BED" | awk -F'\t' 'NR == FNR { gone[$1] = 1; next } !gone[$4]' "$TMP/gone" - > "$TMP/p0"
    cmp "$TMP/p0" <(dem-probe --particles "$TMP/cut.dem")
    dem-probe --contacts "$BED" | awk -F'\t' 'NR == FNR { gone[$1] = 1; next } !(gone[$4] || ($6 == 0 && gone[$5]))' "$TMP/gone" - > "$TMP/c0"
    cmp "$TMP/c0" <(dem-probe --contacts "$TMP/cut.dem")
    [ "$(wc -l < "$TMP/c0")" -gt 50 ] # the kept contacts are many: the comparison means something
    # the budget restarts at the edit: e_initial unknown there (dem-energy says so) ...
    dem-energy "$TMP/cut.dem" > /dev/null 2> "$TMP/err"
    grep -q "has no e_initial" "$TMP/err"
    # ... and dem-step takes it as its reference: the residual stays below 1e-6 of the energy
    dem-step -n 3000 --every 1000 -q "$TMP/cut.dem" | dem-energy |
        awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
                    { r = $c["residual[J]"]; e = $c["total[J]"]; if (r < 0) r = -r; if (!(e > 0) || r > 1e-6 * e) bad++; n++ }
                    END { exit !(n == 3 && !bad) }'
}

@test "--remove-wall: walls renumbered in order, wall contacts remapped or gone; without its floor the bed falls" {
    dem-probe --contacts "$BED" | awk -F'\t' 'NR > 1 && $6 == 1 { print $5 }' | sort | uniq -c > "$TMP/before"
    grep -q ' 4$' "$TMP/before" # the floor carries the bed
    dem-pack --from "$BED" --remove-wall 4 --remove-wall 0 -o "$TMP/rw.dem"
    [[ "$(dem-count < "$TMP/rw.dem")" == *"walls=4 "* ]]
    # walls 1, 2, 3, 5 of the frame, in order
    dem-count wall px,py,pz,nx,ny,nz,fx,fy,fz < "$BED" > "$TMP/w0"
    dem-count wall px,py,pz,nx,ny,nz,fx,fy,fz < "$TMP/rw.dem" > "$TMP/w1"
    [ "$(wc -l < "$TMP/w0")" -eq 6 ]
    diff <(sed -n '2p;3p;4p;6p' "$TMP/w0") "$TMP/w1"
    # the wall contacts: those of walls 0 and 4 gone, the others renamed 1->0, 2->1, 3->2, 5->3
    dem-probe --contacts "$BED" | awk -F'\t' -v OFS='\t' 'NR == 1 { print; next }
        $6 == 1 && ($5 == 0 || $5 == 4) { next } $6 == 1 { $5 = $5 - 1 - ($5 > 4) } { print }' > "$TMP/expect"
    cmp "$TMP/expect" <(dem-probe --contacts "$TMP/rw.dem")
    # gravity and the rest came along: with the floor gone the bed falls. Its mean vertical
    # velocity after t lies between free fall's -g t and half of it (the side walls' friction
    # holds it back a little); on its floor it stays at rest
    dem-step -n 3000 -q -o "$TMP/fall.dem" "$TMP/rw.dem"
    t=$(cat "$TMP/fall.dem" "$BED" | dem-probe --summary | awk -F'\t' 'NR == 2 { t1 = $3 } NR == 3 { t0 = $3 } END { print t1 - t0 }')
    dem-probe --particles "$TMP/fall.dem" | awk -F'\t' -v t="$t" 'NR > 1 { v += $10; n++ }
        END { v /= n; print v, -9.81 * t; exit !(t > 0.004 && v < -0.5 * 9.81 * t && v > -9.81 * t * (1 + 1e-9)) }'
    dem-step -n 3000 -q -o "$TMP/stay.dem" "$BED"
    dem-probe --particles "$TMP/stay.dem" | awk -F'\t' -v t="$t" 'NR > 1 { v += $10; n++ } END { v /= n; exit !(v > -0.05 * 9.81 * t) }'
}

@test "--set-material density doubles masses and inertias exactly; other keys leave them; bad values are usage errors" {
    dem-pack --from "$BED" --set-material 0:density=5000,friction=0.3 -o "$TMP/heavy.dem"
    paste <(dem-count particle mass,inertia < "$BED") <(dem-count particle mass,inertia < "$TMP/heavy.dem") |
        awk -F'\t' '{ if ($3 != 2 * $1 || $4 != 2 * $2) bad++; n++ } END { exit !(n == 150 && !bad) }'
    [ "$(dem-count material density,friction,young < "$TMP/heavy.dem")" = "$(printf '5000\t0.3\t5000000')" ]
    dem-pack --from "$BED" --set-material default:young=1e7 -o "$TMP/stiff.dem"
    cmp <(dem-count particle mass,inertia < "$BED") <(dem-count particle mass,inertia < "$TMP/stiff.dem")
    [ "$(dem-count material young < "$TMP/stiff.dem")" = "10000000" ]
    run dem-pack --from "$BED" --set-material 0:density=-1
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == *"density -1 must be positive"* ]]
    run dem-pack --from "$BED" --set-material 3:density=1
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == *"material '3' does not exist"* ]]
}

@test "--insert N: no overlap with the bed, the walls or each other; ids continue; velocities of the new ones only" {
    dem-pack --from "$BED" --insert 60 --box 0,0,0,0.006,0.006,0.01 --radius-uniform 3e-4,4e-4 --seed 9 \
        --velocity 0,0,-0.2 -v -o "$TMP/ins.dem" 2> "$TMP/err"
    grep -q "inserted 60 particles (ids 151 to 210)" "$TMP/err"
    dem-probe --particles "$TMP/ins.dem" > "$TMP/p"
    [ "$(awk -F'\t' 'NR > 1 { print $4 }' "$TMP/p" | sort -n | tr '\n' ' ')" = "$(seq 1 210 | tr '\n' ' ')" ]
    # the region starts at the floor, so new spheres pack onto the bed: the smallest gap between
    # a new sphere and an old one is small (under a radius) but >= 0 (touching allowed), as is
    # the smallest between two new ones; every new sphere lies inside the box's walls
    awk -F'\t' 'NR > 1 { n++; id[n] = $4; x[n] = $5; y[n] = $6; z[n] = $7; r[n] = $17; vz[n] = $10 }
        END { mold = 1; mnew = 1
              for (i = 1; i <= n; i++) { if (id[i] <= 150) continue
                  if (vz[i] != -0.2) bad++
                  if (x[i] < r[i] || x[i] > 0.006 - r[i] || y[i] < r[i] || y[i] > 0.006 - r[i] || z[i] < r[i]) bad++
                  for (j = 1; j <= n; j++) { if (j == i) continue
                      g = sqrt((x[i]-x[j])^2 + (y[i]-y[j])^2 + (z[i]-z[j])^2) - r[i] - r[j]
                      if (id[j] <= 150 && g < mold) mold = g; if (id[j] > 150 && g < mnew) mnew = g } }
              print mold, mnew, bad + 0; exit !(mold >= 0 && mold < 3e-4 && mnew >= 0 && !bad) }' "$TMP/p"
    # the old particles and contacts are the same records
    cmp <(awk -F'\t' 'NR == 1 || $4 <= 150' "$TMP/p") <(dem-probe --particles "$BED")
    cmp <(dem-probe --contacts "$BED") <(dem-probe --contacts "$TMP/ins.dem")
    # and dem-step runs the whole of it
    dem-step -n 500 -q -o "$TMP/go.dem" "$TMP/ins.dem"
    [[ "$(dem-count < "$TMP/go.dem")" == *"particles=210 "* ]]
}

@test "--insert that finds no room: status 1 with --random's message, no output" {
    run dem-pack --from "$BED" --insert 2000 --box 0,0,0,0.006,0.006,0.01 --radius 4e-4 --max-attempts 200 -o "$TMP/jam.dem"
    [ "$status" -eq 1 ]
    [[ "$output" == "dem-pack: placed "*" of 2000 spheres (solid fraction "*"found no free position in 200 attempts; random sequential addition jams"* ]]
    [ ! -e "$TMP/jam.dem" ]
}

@test "--insert into a periodic cell judges overlaps through the periodic images" {
    dem-pack --lattice sc --cells 4,4,2 --radius 5e-4 --spacing 0.002 --periodic lattice -o "$TMP/lat.dem"
    dem-pack --from "$TMP/lat.dem" --insert 40 --box 0,0,0,0.008,0.008,0.004 --radius 5e-4 --seed 4 -o "$TMP/pi.dem"
    dem-probe --particles "$TMP/pi.dem" | awk -F'\t' 'NR > 1 { n++; x[n] = $5; y[n] = $6; z[n] = $7; r[n] = $17 }
        function img(d, L) { return d - L * int(d / L + (d < 0 ? -0.5 : 0.5)) }
        END { min = 1
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
                  dx = img(x[i] - x[j], 0.008); dy = img(y[i] - y[j], 0.008); dz = img(z[i] - z[j], 0.004)
                  g = sqrt(dx * dx + dy * dy + dz * dz) - r[i] - r[j]; if (g < min) min = g }
              exit !(n == 72 && min >= -1e-15) }'
}

@test "options for a new system are usage errors with a stream; edits are usage errors with a table" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' > "$TMP/one.tsv"
    for args in "--cells 2,2,2" "--density 3000" "--enclose" "--periodic 0,0,0,1,1,1" "--velocity 0,0,1" \
                "--radius 1e-3" "--insert 5 --radius 1e-3" "--insert 5 --box 0,0,0,1,1,1" "--remove-wall 6" \
                "--remove-wall 1 --remove-wall 1" "--delete bogus" "--delete above=w,1" "--set-material 0" \
                "--insert-material 0" "--seed 3" "--wall-material 0" "--insert 5 --box 0,0,0,0.006,0.006,0.01 --radius 1e-4 --insert-material steel"; do
        run dem-pack --from "$BED" $args -o "$TMP/x.dem"
        [ "$status" -eq 2 ] || { echo "status $status for: $args"; false; }
        [[ "$output" == *"Try 'dem-pack --help' for more information."* ]] || { echo "no hint for: $args"; false; }
        [ ! -e "$TMP/x.dem" ] || { echo "output left for: $args"; false; }
    done
    run dem-pack --from "$BED" --density 3000
    [[ "${lines[0]}" == *"use"*"--set-material 0:KEY=VALUE"* || "${lines[0]}" == *"--set-material 0:KEY=VALUE"* ]]
    for args in "--delete all" "--remove-wall 0" "--set-material 0:density=1" "--frame 0" \
                "--insert 1 --box 0,0,0,1,1,1 --radius 0.1"; do
        run dem-pack --from "$TMP/one.tsv" $args
        [ "$status" -eq 2 ] || { echo "status $status for table with: $args"; false; }
        [[ "${lines[0]}" == *"applies only to a dem stream"* ]] || { echo "message for table with: $args: ${lines[0]}"; false; }
    done
    run dem-pack --lattice sc --cells 1,1,1 --radius 1 --delete all
    [ "$status" -eq 2 ]
    [[ "${lines[0]}" == "dem-pack: --delete applies only to --from with a dem stream" ]]
}

@test "--insert draws a stream of its own: 1 sphere into a --random bed of 10 000 made with the same seed (issue 29)" {
    dem-pack --random 10000 --box 0,0,0,0.1,0.1,0.1 --radius 5e-4 > "$TMP/r.dem"
    # both seed 1: the plain seed replayed the bed's own centres and jammed near phi 0.38
    run --separate-stderr dem-pack --from "$TMP/r.dem" --insert 1 --box 0,0,0,0.1,0.1,0.1 --radius 5e-4 -o "$TMP/r1.dem"
    [ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
    [[ "$(dem-count < "$TMP/r1.dem")" == *"particles=10001 "* ]]
    # the same frame and seed: the same insertion; another seed: another place
    dem-pack --from "$TMP/r.dem" --insert 1 --box 0,0,0,0.1,0.1,0.1 --radius 5e-4 -o "$TMP/r2.dem"
    cmp "$TMP/r1.dem" "$TMP/r2.dem"
    dem-pack --from "$TMP/r.dem" --insert 1 --box 0,0,0,0.1,0.1,0.1 --radius 5e-4 --seed 2 -o "$TMP/r3.dem"
    ! cmp -s "$TMP/r1.dem" "$TMP/r3.dem"
}
