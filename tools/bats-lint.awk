# bats-lint.awk - assertions a bats test cannot fail on. Bash's errexit, which bats uses to fail
# a test, skips a failing command that is not the last of an && list, and a negated one: in
# `[ a ] && [ b ]` or `! grep -q x f` followed by more commands, a false assertion passes
# silently. This names every line made only of tests joined by && ([ ], [[ ]], grep -q, cmp), and
# every line that starts with `! ` without a fallback (`! cmd || false` fails as meant), that is
# not the test's last line.
#
# Usage: awk -f tools/bats-lint.awk tests/bats/*.bats   (exit status 1 if any, each as FILE:LINE)
function flush_pending() {
    if (pending != "") { print pending; bad = 1 }
    pending = ""
}
# whether text is made only of tests joined by " && " (its quoted strings set aside first; a
# test holding " && " inside [[ ]] is read as two, both still tests)
function tests_only(text,    n, parts, k, p) {
    gsub(/"[^"]*"/, "\"\"", text)
    gsub(/'[^']*'/, "''", text)
    n = split(text, parts, / && /)
    if (n < 2) return 0
    for (k = 1; k <= n; k++) {
        p = parts[k]
        sub(/^[ \t]+/, "", p)
        if (p !~ /^(\[ |\[\[ |grep -q|cmp )/) return 0
    }
    return 1
}
FNR == 1 { flush_pending() }
/^[ \t]*$/ { next }
{
    if (pending != "") { if ($0 !~ /^[ \t]*}[ \t]*$/) flush_pending(); else pending = "" }
    line = $0
    sub(/[ \t]+#[^"']*$/, "", line) # a trailing comment
    if (line !~ /\|\|/ && (tests_only(line) || line ~ /^[ \t]*! /)) pending = FILENAME ":" FNR ": " $0
}
END { flush_pending(); exit bad }
