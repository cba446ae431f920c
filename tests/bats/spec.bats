#!/usr/bin/env bats
# formats/dem-stream.md must describe the layouts lib/io/fields.c really uses.
load helpers

@test "the spec's field tables match lib/io/fields.c" {
    cp "$REPO/formats/dem-stream.md" "$BATS_TEST_TMPDIR/spec.md"
    "$REPO/tools/spec-tables.sh" "$DEM_TOOLS/dem-fields" "$BATS_TEST_TMPDIR/spec.md"
    diff -u "$REPO/formats/dem-stream.md" "$BATS_TEST_TMPDIR/spec.md"
}

@test "the spec documents every record field" {
    for tag in HEAD MATL WALL CELL CLMP PART CMBR CONT ENRG BOND; do
        grep -q "<!-- fields:$tag -->" "$REPO/formats/dem-stream.md"
    done
}
