#!/bin/sh
# spec-tables.sh - rewrite the field tables of the format spec from lib/io/fields.c.
# Usage: tools/spec-tables.sh [DEM_FIELDS_BINARY [SPEC]]   (run after changing lib/io/fields.c)
set -eu
fields=${1:-build/tests/tools/dem-fields}
spec=${2:-formats/dem-stream.md}
tmp=$(mktemp)
awk -v tool="$fields" '
/^<!-- fields:[A-Z]+ -->$/ { print; tag = substr($2, 8); print ""; system(tool " " tag); print ""; skip = 1; next }
/^<!-- \/fields -->$/ { skip = 0 }
!skip { print }
' "$spec" > "$tmp"
cat "$tmp" > "$spec"
rm -f "$tmp"
