#!/usr/bin/env bats
# The stream reader against hostile input (issue 21): memory bounded by what is really there.
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    command -v python3 > /dev/null || skip "python3 not installed"
}

# max_rss_mb CMD...: run CMD (stdout discarded), print its exit status and its peak resident
# memory in MB (getrusage of the child)
max_rss_mb() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
sys.stderr.write(r.stderr.decode())
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
}

@test "a decompression bomb (1 MB inflating to 1.08 GB of zero particles) is refused at its first record, in a few MB" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    python3 "$REPO/tests/tools/mkbomb.py" 5e6 < one.dem > bomb.dem
    [ "$(wc -c < bomb.dem)" -lt 1200000 ]
    for prog in dem-probe dem-step dem-stress dem-energy; do
        args=""
        [ $prog = dem-step ] && args="-n 1"
        read -r status mb < <(max_rss_mb $prog $args bomb.dem 2> err.txt)
        [ "$status" -eq 1 ] || { echo "$prog: status $status"; return 1; }
        grep -q "^$prog: frame 0 (byte 0): particle record 0 (id 0): radius 0 must be positive and finite" err.txt
        echo "$prog: peak $mb MB"
        [ "$mb" -lt 200 ] || { echo "$prog held $mb MB"; return 1; }   # 1060 MB before
    done
}
