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
