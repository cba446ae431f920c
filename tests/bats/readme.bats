#!/usr/bin/env bats
# readme.bats - the README's first-day walkthrough ("A bed, from pouring to editing") run verbatim:
# its commands are taken from the README's indented blocks, so the README cannot drift from what
# the programs do. About 30 s (it settles 1000 spheres).
load helpers

setup() { setup_tmp; }

@test "the README's first day runs verbatim: settle, measure, look, continue and edit" {
    # Without numpy (an optional package) the Python command is left out, as a user without it
    # would skip it; the rest of the day must still run under bash -e.
    have_numpy=1; python3 -c 'import numpy' 2> /dev/null || have_numpy=0
    awk -v numpy=$have_numpy -v sq="'" '/^### A bed, from pouring to editing/ { on = 1; next } on && /^#/ { exit }
         on && /^    / { sub(/^    /, "")
             if (!numpy && !open && /python3/) open = 1
             if (open) { q += split($0, w, sq) - 1; if (q % 2 == 0) { open = 0; q = 0 }; next }
             print }' "$REPO/README.md" > "$TMP/day.sh"
    [ "$(wc -l < "$TMP/day.sh")" -gt 10 ]
    if [ $have_numpy = 1 ]; then grep -q 'import demstream' "$TMP/day.sh"
    else if grep -q 'python3\|demstream' "$TMP/day.sh"; then false; fi
         echo "# numpy is not installed: the README's Python command was left out" >&3; fi
    cd "$TMP"
    DEM="$REPO" bash -e day.sh > out.txt 2> err.txt || { cat err.txt; false; }
    # settled: the last frame stopped on the unbalanced-force ratio
    [ "$(dem-probe --last bed.dem | awk -F'\t' 'NR == 2 { print ($18 < 1e-2 && $7 > 4) }')" = 1 ]
    # measured: the container's note, and the bulk of the bed in the box
    grep -q 'solid_fraction is over the box enclosed by the six walls' err.txt
    dem-probe --last --box 0,0,0.0008,0.01,0.01,0.004 bed.dem |
        awk -F'\t' 'NR == 2 { exit !($8 > 0.5 && $8 < 0.6) }'
    # looked at: VTK with the prefix and the walls, a LAMMPS dump, Python
    [ -s vtk/bed_particles.pvd ]
    [ -s vtk/bed_walls.pvd ]
    grep -q '^ITEM: ATOMS id' bed.dump
    if [ $have_numpy = 1 ]; then grep -q '^0.166051337089680.* 1000 ' out.txt; fi
    # edited: the platen (wall 5) moved down and touched the bed
    dem-probe --walls --last press.dem | awk -F'\t' '$4 == 5 { exit !($10 < 0.0057 && $23 > 0) }'
}
