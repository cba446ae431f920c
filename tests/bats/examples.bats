#!/usr/bin/env bats
# examples/Makefile and the examples' own Makefiles (issue 29): what `make -C examples` runs, and
# each verdict printed once. Dry runs and stubbed scripts: the examples themselves take minutes.
load helpers
setup() { setup_tmp; }

# the examples a dry run of TARGET would run, one a line, in order
examples_run() {
    make -n -C "$REPO/examples" "$@" 2>/dev/null | sed -n 's/^\([a-z0-9-]*\): done in .*/\1/p'
}

@test "make -C examples runs every example but percolation, dimer-packing and rank-bits, rolling included" {
    run examples_run all
    [ "$status" -eq 0 ]
    grep -qx rolling <<<"$output"
    ! grep -qx percolation <<<"$output" || false
    ! grep -qx dimer-packing <<<"$output" || false
    ! grep -qx rank-bits <<<"$output" || false
    # every example directory but the opt-in ones is in the default run
    for d in "$REPO"/examples/*/Makefile; do
        e=$(basename "$(dirname "$d")")
        [ "$e" = percolation ] || [ "$e" = dimer-packing ] || [ "$e" = rank-bits ] && continue
        grep -qx "$e" <<<"$output" || { echo "missing from make -C examples: $e"; false; }
    done
}

@test "percolation, dimer-packing and rank-bits are opt-in: their own targets, and 'everything' runs them with the rest" {
    run examples_run percolation
    [ "$output" = percolation ]
    run examples_run dimer-packing
    [ "$output" = dimer-packing ]
    run examples_run rank-bits
    [ "$output" = rank-bits ]
    run examples_run everything
    grep -qx percolation <<<"$output"
    grep -qx dimer-packing <<<"$output"
    grep -qx rank-bits <<<"$output"
    grep -qx rolling <<<"$output"
}

@test "each example reports its wall and CPU time" {
    # examples/Makefile over a stub example that spends some CPU
    mkdir -p "$TMP/examples/kuhn-fig4"
    cp "$REPO/examples/Makefile" "$TMP/examples/"
    printf 'all:\n\tawk "BEGIN { for (i = 0; i < 3e7; i++) s += i }"\n' > "$TMP/examples/kuhn-fig4/Makefile"
    run make -s --no-print-directory -C "$TMP/examples" BUILD=: kuhn-fig4
    [ "$status" -eq 0 ]
    [[ "$output" =~ kuhn-fig4:\ done\ in\ [0-9]+\ s\ \(CPU\ ([0-9.]+)\ s\) ]]
    awk -v c="${BASH_REMATCH[1]}" 'BEGIN { exit !(c > 0) }'
}

# examples/variational with its figure scripts replaced by stubs of one verdict each
stub_variational() {
    mkdir -p "$TMP/examples"
    cp "$REPO/examples/gnuplot.mk" "$REPO/examples/programs.mk" "$TMP/examples/"
    cp -r "$REPO/examples/variational" "$TMP/examples/"
    rm -rf "$TMP/examples/variational/out"
    for f in fig678 fig9 fig10 fig11 fig12; do
        printf 'source common.sh\nverdict "%s" %s "stub"\n' "$f" "$1" > "$TMP/examples/variational/$f.sh"
    done
}

@test "examples/variational prints each PASS line once" {
    stub_variational 1
    run make -s -C "$TMP/examples/variational" BUILD_PROGRAMS=: GNUPLOT=: check
    [ "$status" -eq 0 ]
    [ "$(grep -c '^PASS: fig678: stub' <<<"$output")" -eq 1 ]
    [ "$(grep -c '^PASS' <<<"$output")" -eq 5 ]
}

@test "examples/variational: a FAIL is printed once and fails the make" {
    stub_variational 0
    sed -i 's/verdict "fig9" 0/verdict "fig9" 1/' "$TMP/examples/variational/fig9.sh"
    run make -s -C "$TMP/examples/variational" BUILD_PROGRAMS=: GNUPLOT=: check
    [ "$status" -ne 0 ]
    [ "$(grep -c '^FAIL: fig678: stub' <<<"$output")" -eq 1 ]
    [ "$(grep -c '^PASS' <<<"$output")" -eq 1 ]
    [[ "$output" == *"4 of 5 checks failed"* ]]
}
