#!/usr/bin/env bats
# tools/layers.sh (make test): libdem's folders include one another one way only.
load helpers

@test "layers.sh: the lib/ folders form no include cycle, and the order is core, io, laws, analysis, sim" {
    run "$REPO/tools/layers.sh" "$REPO/lib"
    [ "$status" -eq 0 ]
    [[ "$output" == *"no cycle"* ]]
    # the layering docs/architecture.md draws: nothing below includes anything above it
    for edge in "core  *->" "io  *-> laws" "io  *-> analysis" "io  *-> sim" "laws  *-> analysis" "laws  *-> sim" "analysis  *-> sim" "pack  *-> sim"; do
        ! grep -qE "^$edge" <<< "$output" || { echo "edge against the layers: $edge"; return 1; }
    done
}

@test "layers.sh fails on a cycle and names the files that make it" {
    cp -r "$REPO/lib" "$BATS_TEST_TMPDIR/lib"
    echo '#include "analysis/energy.h"' >> "$BATS_TEST_TMPDIR/lib/io/system.h"
    run "$REPO/tools/layers.sh" "$BATS_TEST_TMPDIR/lib"
    [ "$status" -eq 1 ]
    [[ "$output" == *"form a cycle"* ]]
    [[ "$output" == *"io -> analysis: io/system.h"* ]]
}

@test "the simulator's internal headers (lib/sim/internal/) are included by lib/sim alone (and the unit tests), and every exported symbol of libdem has the dem_ prefix" {
    run grep -rlE '#include "sim/internal/' "$REPO/lib" "$REPO/bin"
    for f in $output; do
        [[ "$f" == "$REPO/lib/sim/"* ]] || { echo "$f includes an internal header of the simulator"; return 1; }
    done
    [ -f "$REPO/lib/sim/sim.h" ]
    [ ! -f "$REPO/lib/sim/state.h" ]
    command -v nm > /dev/null || skip "nm not installed"
    [ -d "$REPO/build/lib/sim" ] || skip "not built"
    bad=$(for o in "$REPO"/build/lib/*/*.o; do
        [ -f "${o%.o}.d" ] || continue
        nm -g --defined-only "$o" | awk '$2 ~ /[TDRB]/ {print $3}'
    done | grep -v '^dem_' || true)
    [ -z "$bad" ] || { echo "exported without the dem_ prefix: $bad"; return 1; }
}

@test "papers are cited by their keys (docs/references.md), never by a seed number or the reconstruction's file name" {
    cd "$REPO"
    run grep -rIiE 'seed 00[0-4]|equations\.md' README.md docs bin lib examples formats tools tests
    [ "$status" -eq 1 ] || { echo "$output" | head -5; return 1; }
    grep -q '^| Hanley 2019 |' docs/references.md
    grep -q '^| De Klerk et al. 2022 |' docs/references.md
}
