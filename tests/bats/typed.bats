#!/usr/bin/env bats
# The typed-value corpus (issue 21): every numeric field of every record of a walled and a
# periodic frame with contacts set to NaN, +-Inf, +-1e308, 5e-324, 0, -1 and the integer
# extremes (tests/tools/typed.c, driven by the field tables). Under `make check` the library and
# the programs run with AddressSanitizer and UBSan. Every variant must give a clean refusal or a
# valid run.
load helpers

setup_file() {
    cd "$BATS_FILE_TMPDIR"
    dem-pack --random 40 --box 0,0,0,0.004,0.004,0.004 --radius 4e-4 --young 1e7 --enclose --velocity-random 0.3 --seed 4 |
        dem-step -q -n 300 --dt 1e-6 --gravity 0,0,-9.81 > walled.dem
    dem-pack --random 40 --box 0,0,0,0.004,0.004,0.004 --periodic 0,0,0,0.004,0.004,0.004 --radius 4e-4 --young 1e7 \
             --velocity-random 0.3 --seed 4 | dem-step -q -n 300 --dt 1e-6 > periodic.dem
}

@test "the bases hold what the corpus needs: walls, a periodic cell, pair and wall contacts with history" {
    cd "$BATS_FILE_TMPDIR"
    dem-probe walled.dem | awk -F'\t' 'NR == 2 { exit !($5 > 0 && $6 > 0) }'
    dem-probe periodic.dem | awk -F'\t' 'NR == 2 { exit !($5 > 0) }'
    dem-probe --contacts walled.dem | head -1 | grep -q h2
}

@test "typed corpus through the library: set up, 3 steps forward and back, stored and checked" {
    cd "$BATS_FILE_TMPDIR"
    run typed walled.dem periodic.dem
    echo "${lines[-1]}"
    [ "$status" -eq 0 ] || { printf '%s\n' "${lines[@]}" | head -n 40; return 1; }
    [[ "${lines[-1]}" =~ ^typed:\ ([0-9]+)\ passed,\ 0\ failed$ ]]
    [ "${BASH_REMATCH[1]}" -ge 1400 ]
}

@test "typed corpus through the programs: a refusal with a message, or output without nan or inf" {
    cd "$BATS_FILE_TMPDIR"
    run "$REPO/tests/typed/run.sh" walled.dem periodic.dem
    echo "${lines[-1]}"
    [ "$status" -eq 0 ] || { printf '%s\n' "${lines[@]}" | head -n 40; return 1; }
    [[ "${lines[-1]}" == "typed programs: "*" passed, 0 failed" ]]
}
