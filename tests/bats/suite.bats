#!/usr/bin/env bats
# The test suite's own hygiene (tools/bats-lint.awk): no assertion that cannot fail.
load helpers

@test "bats-lint: no test's assertion hides in an && list or behind a bare !, where bats' errexit skips a false one" {
    run awk -f "$REPO/tools/bats-lint.awk" "$REPO"/tests/bats/*.bats
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "bats-lint names an && list of tests and a bare ! before a test's end, and passes them at its end or with a fallback" {
    # the fixture's lines quoted (so that neither bats nor the lint reads them here)
    printf '%s\n' \
        '@TEST "hidden" {' \
        '    [ 1 -eq 2 ] && [ 1 -eq 1 ]' \
        '    true' \
        '}' \
        '@TEST "last" {' \
        '    true' \
        '    [ "$a" = 1 ] && [[ "$b" == *x* ]]' \
        '}' \
        '@TEST "fallback and conditional" {' \
        '    [ -f a ] && [ -f b ] || { echo no; return 1; }' \
        '    [ "$p" = x ] && run true' \
        '    grep -q y f && cmp a b # a comment' \
        '    [[ "$s" == *" && "* ]]' \
        '    ! grep -q z f' \
        '    ! grep -q z f || false' \
        '    true' \
        '}' | sed 's/^@TEST/@test/' > "$BATS_TEST_TMPDIR/x.bats"
    run awk -f "$REPO/tools/bats-lint.awk" "$BATS_TEST_TMPDIR/x.bats"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "${lines[0]}" == *"x.bats:2: "* ]]
    [[ "${lines[1]}" == *"x.bats:12: "* ]]
    [[ "${lines[2]}" == *"x.bats:14: "* ]]
}
