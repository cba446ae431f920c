#!/usr/bin/env bash
# without-optional.sh - run a command as on a machine without the optional Python packages
# (numpy, vtk): python3 starts without its site directories (python3 -S), where Debian's
# python3-numpy and python3-vtk9 live, so `import numpy` fails as it would on a fresh install.
# PYTHONPATH still works, as it does for a user. `make test-bare` runs the README's first day
# and the suites that use the optional packages this way: they must pass or skip, never fail.
#
# Usage: tests/without-optional.sh COMMAND [ARG...]
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
real=$(command -v python3) || { echo "without-optional: no python3 on PATH" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#!/bin/sh\nexec %s -S "$@"\n' "$real" > "$dir/python3"
chmod +x "$dir/python3"
if PATH="$dir:$PATH" python3 -c 'import numpy' 2> /dev/null; then
    echo "without-optional: numpy is still importable with python3 -S (installed outside site-packages?)" >&2
    exit 1
fi
PATH="$dir:$PATH" "$@"
