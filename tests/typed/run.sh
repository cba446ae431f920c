#!/usr/bin/env bash
# run.sh - the typed-value corpus through the programs: each variant written by tests/tools/typed
# goes through one program (in turn: dem-probe, dem-probe --contacts, dem-stress, dem-energy,
# dem-step -n 3, dem-reverse -n 3 --force, dem-probe --salvage), so that every field meets the
# programs and the run stays short under the sanitizers.
#
# Usage: tests/typed/run.sh BASE.dem...      (PATH must hold the programs and tests/tools' typed)
# PASS: exit 0 with output and no nan or inf printed where the help does not document it, or
# exit 1 with a last stderr line 'program: message'; FAIL: anything else (a signal, a sanitizer
# report, exit 0 without output, a usage error). Prints the failures and "N passed, M failed".
# Documented nan: dem-stress's seven strain columns, all nan together, in a frame without a
# periodic cell ("nan: no periodic cell, strain not defined"); a nan in some of them still fails.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
typed -o "$dir" "$@" > "$dir/names" || exit 1
progs=("dem-probe" "dem-probe --contacts" "dem-stress" "dem-energy" "dem-step -q -n 3" "dem-reverse -q -n 3 --force"
       "dem-probe --salvage")

# Blank dem-stress's strain columns (exx .. eyz, ev) in rows where all seven are nan.
drop_cellless_strain() {
    awk -F'\t' -v OFS='\t' '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^e(xx|yy|zz|xy|xz|yz|v)\[-\]$/) col[++n] = i }
        NR > 1 && n == 7 { all = 1; for (k = 1; k <= n; k++) if ($col[k] != "nan") all = 0
                           if (all) for (k = 1; k <= n; k++) $col[k] = "" }
        { print }' "$1"
}

pass=0 fail=0 k=0
while read -r name; do
    cmd=${progs[$((k % ${#progs[@]}))]}
    k=$((k + 1))
    $cmd "$dir/$name.dem" > "$dir/out" 2> "$dir/err"
    status=$?
    prog=${cmd%% *}
    last=$(grep -v ": warning: " "$dir/err" | tail -n 1)
    why=
    if grep -q -E "runtime error|AddressSanitizer|LeakSanitizer" "$dir/err"; then
        why="sanitizer report: $(grep -m1 -E 'runtime error|ERROR' "$dir/err")"
    elif [ "$status" -eq 0 ]; then
        [ "$prog" = dem-stress ] && drop_cellless_strain "$dir/out" > "$dir/out.tmp" && mv "$dir/out.tmp" "$dir/out"
        if [ ! -s "$dir/out" ]; then
            why="exit 0 without output"
        elif [ "$prog" != dem-step ] && [ "$prog" != dem-reverse ] && [[ "$cmd" != *salvage* ]] &&
            grep -q -w -E "nan|-nan|inf|-inf" "$dir/out"; then
            why="nan or inf printed: $(grep -m1 -w -E 'nan|-nan|inf|-inf' "$dir/out" | cut -c1-160)"
        fi
    elif [ "$status" -eq 1 ]; then
        [[ "$last" == "$prog: "* ]] || why="exit 1 without a 'prog: message' line: $last"
    else
        why="exit status $status: $last"
    fi
    if [ -n "$why" ]; then
        echo "FAIL $name ($cmd): $why"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done < "$dir/names"
echo "typed programs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
