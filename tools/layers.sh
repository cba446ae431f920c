#!/bin/sh
# layers.sh - the include edges between libdem's folders (lib/FOLDER/), with how many #include
# lines make each, and a check that they form no cycle (docs/architecture.md "Layers": core ->
# io -> laws -> analysis -> sim, pack on io). `make test` runs it; exit 1 on a cycle, naming the
# folders in it and the files that make its edges.
# Usage: tools/layers.sh [LIBDIR]   (default: lib beside this script)
set -eu
lib=${1:-$(dirname "$0")/../lib}
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in "$lib"/*/*.c "$lib"/*/*.h "$lib"/*/*/*.h; do
    [ -f "$f" ] || continue
    from=$(printf '%s\n' "${f#"$lib"/}" | cut -d/ -f1)
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$f" |
        while read -r to; do
            if [ "$to" != "$from" ]; then printf '%s %s %s\n' "$from" "$to" "${f#"$lib"/}"; fi
        done
done > "$edges"
echo "# include edges between lib/ folders (from -> to: #include lines)"
cut -d' ' -f1,2 "$edges" | sort | uniq -c | awk '{printf "%-9s -> %-9s %d\n", $2, $3, $1}'
# tsort orders the folders, or reports a loop
if order=$(cut -d' ' -f1,2 "$edges" | sort -u | tsort 2> "$edges.err"); then
    if [ -s "$edges.err" ]; then :; else
        echo "# no cycle; an order in which each folder includes only those after it:"
        echo "$order" | tr '\n' ' ' | sed 's/ $/\n/'
        rm -f "$edges.err"
        exit 0
    fi
fi
echo "layers.sh: the folders' includes form a cycle:" >&2
sed 's/^tsort: /  /' "$edges.err" >&2
# name the files behind each edge of the loop (the folders tsort listed)
loop=$(sed -n 's/^tsort: \([a-z_]*\)$/\1/p' "$edges.err" | tr '\n' ' ')
for a in $loop; do for b in $loop; do
    [ "$a" = "$b" ] && continue
    awk -v a="$a" -v b="$b" '$1 == a && $2 == b {print "  " a " -> " b ": " $3}' "$edges" | sort -u >&2
done; done
rm -f "$edges.err"
exit 1
