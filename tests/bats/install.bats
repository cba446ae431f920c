#!/usr/bin/env bats
# install.bats - `make install PREFIX=...` as the README describes it: the programs, their man
# pages (made from --help), the Python module and the examples are installed, run from there
# without the checkout, and `make uninstall` takes them away again.
load helpers

# make as a user runs it: not with the variables of a make that runs these tests (make check
# passes BUILD, OPT and BINDIR down, through MAKEFLAGS and the environment, and `make install`
# would then relink bin/ from the sanitizer objects: it did, and the next benchmark ran 2.4 times
# slower). A clean environment with the PATH and HOME of the test.
user_make() { env -i PATH="$PATH" HOME="$HOME" make "$@"; }

setup_file() {
    export PREFIX_DIR="$BATS_FILE_TMPDIR/prefix"
    user_make -s -C "$REPO" install PREFIX="$PREFIX_DIR" PYTHONDIR="$PREFIX_DIR/python" \
        > "$BATS_FILE_TMPDIR/install.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/install.log"; false; }
}

setup() { setup_tmp; }

PROGRAMS="dem-pack dem-step dem-reverse dem-probe dem-stress dem-energy"

@test "make install puts every program, man page, the module, the spec and the examples under PREFIX" {
    for p in $PROGRAMS; do
        [ -x "$PREFIX_DIR/bin/$p" ] || { echo "no $p"; false; }
        [ -s "$PREFIX_DIR/share/man/man1/$p.1" ] || { echo "no man page for $p"; false; }
    done
    [ -s "$PREFIX_DIR/python/demstream.py" ]
    [ -s "$PREFIX_DIR/share/doc/dem/README.md" ]
    [ -s "$PREFIX_DIR/share/doc/dem/formats/dem-stream.md" ]
    [ -s "$PREFIX_DIR/share/doc/dem/docs/models.md" ]
    [ -s "$PREFIX_DIR/share/doc/dem/examples/settle/Makefile" ]
    grep -q "DEM_INSTALLED_BIN := $PREFIX_DIR/bin" "$PREFIX_DIR/share/doc/dem/examples/installed.mk"
    # the example that needs a test tool of the checkout is not installed
    [ ! -e "$PREFIX_DIR/share/doc/dem/examples/kuhn-fig4" ]
    # and the checkout's programs are still the default build, also under make check
    ! grep -q AddressSanitizer "$REPO/bin/dem-step"
}

@test "the man pages are roff made from --help: title, name line, synopsis, every option" {
    for p in $PROGRAMS; do
        page="$PREFIX_DIR/share/man/man1/$p.1"
        up=$(printf %s "$p" | tr a-z A-Z)
        grep -q "^\.TH $up 1 " "$page" || { echo "$p: no .TH"; false; }
        grep -q '^\.SH NAME' "$page"
        grep -q '^\.SH SYNOPSIS' "$page"
        # each long option of --help appears in the page (roff writes - as \-)
        for opt in $("$PREFIX_DIR/bin/$p" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
            esc=$(printf %s "$opt" | sed 's/-/\\\\-/g')
            grep -q -- "$esc" "$page" || { echo "$p.1 lacks $opt"; false; }
        done
    done
    if command -v groff >/dev/null 2>&1; then
        groff -man -Tutf8 -ww "$PREFIX_DIR/share/man/man1/dem-step.1" > "$TMP/page" 2> "$TMP/warn"
        [ ! -s "$TMP/warn" ] || { cat "$TMP/warn"; false; }
        grep -q 'dem-step' "$TMP/page"
    fi
}

@test "the installed programs run without the checkout on PATH" {
    cd "$TMP"
    env PATH="$PREFIX_DIR/bin:/usr/bin:/bin" sh -c \
        'dem-pack --lattice fcc --cells 2,2,2 --radius 0.001 --periodic lattice | dem-step -n 10 | dem-probe' \
        > out.tsv
    [ "$(wc -l < out.tsv)" -eq 2 ]          # the header and the frame at step 10
    awk -F'\t' 'NR == 2 && $2 == 10 && $4 == 32 { ok = 1 } END { exit !ok }' out.tsv
}

@test "the installed Python module imports and reads a stream" {
    python3 -c 'import numpy' 2>/dev/null || skip "numpy is not installed (apt-get install python3-numpy)"
    cd "$TMP"
    "$PREFIX_DIR/bin/dem-pack" --lattice sc --cells 3,1,1 --radius 0.001 > s.dem
    run env PYTHONPATH="$PREFIX_DIR/python" python3 -c '
import demstream
fr = list(demstream.frames("s.dem"))
print(len(fr), len(fr[0].particles))'
    [ "$status" -eq 0 ]
    [ "$output" = "1 3" ]
}

@test "an installed example finds the installed programs, not a checkout" {
    ex="$PREFIX_DIR/share/doc/dem/examples/two-particle-collision"
    run user_make -n -C "$ex"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$PREFIX_DIR/bin/dem-pack"* ]]
    [[ "$output" != *"$REPO/bin"* ]]
}

@test "make uninstall removes what make install put there" {
    user_make -s -C "$REPO" uninstall PREFIX="$PREFIX_DIR" PYTHONDIR="$PREFIX_DIR/python"
    for p in $PROGRAMS; do
        [ ! -e "$PREFIX_DIR/bin/$p" ]
        [ ! -e "$PREFIX_DIR/share/man/man1/$p.1" ]
    done
    [ ! -e "$PREFIX_DIR/python/demstream.py" ]
    [ ! -e "$PREFIX_DIR/share/doc/dem" ]
}
