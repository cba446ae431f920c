# helpers.bash - shared setup of the bats end-to-end tests.
bats_require_minimum_version 1.5.0
# DEM_BIN points at the programs under test (bin/ by default; `make check` sets it to the
# sanitizer build). DEM_TOOLS points at the test-only helper programs built from tests/tools/.
REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
DEM_BIN="${DEM_BIN:-$REPO/bin}"
DEM_TOOLS="${DEM_TOOLS:-$REPO/build/tests/tools}"
PATH="$DEM_BIN:$DEM_TOOLS:$PATH"
export PATH

# Temporary directory per test, removed by bats.
setup_tmp() { TMP="$BATS_TEST_TMPDIR"; }

# Column NAME of the TSV on stdin, every row after the header (exit 3 if there is no such column).
col() {
    awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; if (!c) exit 3; next } { print $c }'
}
