#!/usr/bin/env bats
# tools/python/demstream.py: frames as numpy structured arrays, equal bit for bit to what dem-probe
# prints; stdin, concatenated streams, damaged input. Skipped without numpy.
load helpers

setup() {
    setup_tmp
    cd "$TMP"
    python3 -c 'import numpy' 2> /dev/null ||
        skip "numpy is not installed (python3 -c 'import numpy' fails): demstream.py is not tested"
    export PYTHONPATH="$REPO/tools/python${PYTHONPATH:+:$PYTHONPATH}"
}

# A sheared periodic fcc crystal (cell, contacts with 3 history slots) and a pressed box (walls,
# wall contacts, a moving lid): two frames each.
runs() {
    dem-pack --lattice fcc --cells 3,2,2 --radius 0.001 --periodic lattice --friction 0.3 > fcc.dem
    dem-step -q -n 200 --every 100 --normal hooke --kn 1e5 --dt 1e-6 --cell-rate xy=500 fcc.dem > sh.dem
    dem-pack --lattice sc --cells 2,2,2 --radius 0.001 --spacing 0.0021 --origin 0,0,0 --wall z=0 \
        --wall z=0.00405@0,0,-0.01 > box.dem
    dem-step -q -n 200 --every 100 --dt 1e-6 --normal hooke --kn 1e4 --gravity 0,0,-9.81 box.dem > box-run.dem
}

# compare.py STREAM MODE TSV: every value of demstream's frames against dem-probe's TSV of that
# MODE (particles, contacts, walls, cell): same rows, same bits (doubles compared as their 8 bytes).
cat_compare() {
    cat > compare.py <<'EOF'
import csv, re, struct, sys
import demstream
path, mode, tsv = sys.argv[1:]
with open(tsv, newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
frames = list(demstream.frames(path))
bits = lambda v: struct.pack("<d", float(v))
n = 0
for row in rows:
    fr = frames[int(row["frame"])]
    assert int(row["step"]) == fr.step and bits(row["time[s]"]) == bits(fr.time), row["frame"]
    if mode == "cell":
        rec = {"flags": fr.cell["flags"], "stress_mask": fr.cell["stress_mask"], "volume": fr.cell["volume"]}
        for k, c in enumerate("xyz"):
            rec["o" + c] = fr.cell["origin"][k]
        for m, key in (("h", "h"), ("l", "l"), ("s", "target_stress"), ("f", "f")):
            for r in range(3):
                for c in range(3):
                    rec["%s%d%d" % (m, r + 1, c + 1)] = fr.cell[key][r, c]
    else:
        table = {"particles": fr.particles, "contacts": fr.contacts, "walls": fr.walls}[mode]
        k = sum(1 for r in rows[:rows.index(row)] if r["frame"] == row["frame"])
        rec = table[k]
    for name, text in row.items():
        key = re.sub(r"\[.*\]$", "", name)
        if key in ("frame", "step", "time"):
            continue
        value = k if mode == "walls" and key == "wall" else rec[key]  # dem-probe's wall index: its place in the frame
        if mode == "walls" and key == "wall":
            ok = int(text) == k
        elif mode == "walls" and key == "kind":
            ok = {"plane": 1, "cylinder": 2}[text] == value
        elif isinstance(value, float) or getattr(value, "dtype", None) is not None and value.dtype.kind == "f":
            ok = bits(text) == bits(value)
        else:
            ok = int(text) == int(value)
        if not ok:
            sys.exit("frame %s row %d %s: dem-probe %s, demstream %r" % (row["frame"], k if mode != "cell" else 0, key, text, value))
        n += 1
print("%d values equal" % n)
EOF
}

@test "demstream: particles, contacts, walls and cell equal dem-probe's TSV bit for bit" {
    runs
    cat_compare
    dem-probe --particles --fields all sh.dem > p.tsv
    run python3 compare.py sh.dem particles p.tsv
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    [ "$output" = "$((2 * 48 * 30)) values equal" ]
    dem-probe --contacts sh.dem > c.tsv
    [ "$(head -n 1 c.tsv | cut -f 24-)" = "$(printf 'h0\th1\th2')" ]
    run python3 compare.py sh.dem contacts c.tsv
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    [ "$output" = "$(( ($(wc -l < c.tsv) - 1) * 23 )) values equal" ]
    dem-probe --cell sh.dem > cell.tsv
    python3 compare.py sh.dem cell cell.tsv
    dem-probe --particles --fields all box-run.dem > bp.tsv
    python3 compare.py box-run.dem particles bp.tsv
    dem-probe --contacts box-run.dem > bc.tsv
    awk -F'\t' 'NR > 1 && $6 == 1 { w = 1 } END { exit !w }' bc.tsv   # wall contacts among them
    python3 compare.py box-run.dem contacts bc.tsv
    dem-probe --walls box-run.dem > bw.tsv
    run python3 compare.py box-run.dem walls bw.tsv
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    [ "$output" = "$((2 * 2 * 24)) values equal" ]
    # the comparison itself fails on a changed last bit
    python3 -c 'import math, sys
lines = open("p.tsv").read().split("\n")
f = lines[1].split("\t")
f[4] = repr(math.nextafter(float(f[4]), math.inf))
lines[1] = "\t".join(f)
open("bad.tsv", "w").write("\n".join(lines))'
    run python3 compare.py sh.dem particles bad.tsv
    [ "$status" -eq 1 ] && [[ "$output" == "frame 0 row 0 x: "* ]]
}

@test "demstream: the frame's other tables, settings and energy; id order; read_last; repr" {
    runs
    run python3 - <<'EOF'
import numpy as np
import demstream
fr = list(demstream.frames("box-run.dem"))
last = demstream.read_last("box-run.dem")
assert len(fr) == 2 and last.index == 1 and last.step == 200 and fr[0].step == 100
assert list(last.particles.dtype.names[:14]) == "id x y z vx vy vz wx wy wz fx fy fz r".split()
assert (np.diff(last.particles["id"].astype(np.int64)) > 0).all()
assert last.settings["gravity"] == (0.0, 0.0, -9.81), last.settings["gravity"]
assert last.settings["model.normal"] == "hooke" and last.settings["model.kn"] == 1e4
assert last.materials["name"][0] == "glass" or len(last.materials["name"][0]) > 0
assert last.materials["density"][0] > 0 and last.cell is None and len(last.clumps) == 0
# the lid (wall 1) moved down 1 cm/s for 200 us
assert abs(last.walls["pz"][1] - (0.00405 - 0.01 * 200e-6)) < 1e-15 and last.walls["vz"][1] == -0.01
assert last.energy["work_walls"] != 0 and set(last.energy) >= {"e_initial", "e_ahead", "work_law"}
print(repr(last))
s = list(demstream.frames("sh.dem"))[1]
assert s.cell["flags"] == 7 and s.hist_slots == 3 and abs(s.cell["h"][0, 1] / s.cell["h"][1, 1] - 0.1) < 1e-12
assert abs(s.cell["volume"] - abs(np.linalg.det(s.cell["h"]))) < 1e-15 * s.cell["volume"]
EOF
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    [ "$output" = "<demstream.Frame 1: step 200, time 0.00019999999999999955 s, 8 particles, $(dem-probe --contacts --last box-run.dem | tail -n +2 | wc -l) contacts, 2 walls>" ]
}

@test "demstream: stdin, a file object, concatenated streams; python3 -m demstream" {
    runs
    python3 -m demstream sh.dem > a.txt
    [ "$(head -n 1 a.txt)" = "$(printf 'frame\tstep\ttime[s]\tparticles\tcontacts\twalls\tcell_volume[m^3]')" ]
    [ "$(sed -n 2p a.txt | cut -f 1-2,4,6)" = "$(printf '0\t100\t48\t0')" ]
    python3 -m demstream - < sh.dem > b.txt
    cmp a.txt b.txt
    cat sh.dem box-run.dem sh.dem | python3 -m demstream - > c.txt
    [ "$(cut -f 1,2 c.txt | tail -n +2 | tr '\n' ' ')" = "0	100 1	200 2	100 3	200 4	100 5	200 " ]
    python3 -c 'import demstream, sys; print(sum(1 for f in demstream.frames(open("sh.dem", "rb"))))' > n.txt
    [ "$(cat n.txt)" = 2 ]
    run python3 -m demstream --help
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: python3 -m demstream FILE|-"* ]]
    run python3 -m demstream
    [ "$status" -eq 2 ]
}

@test "demstream: damaged input yields the good frames, then names the frame and the offset" {
    runs
    cat sh.dem box-run.dem > ab.dem
    size=$(wc -c < ab.dem)
    head -c $((size - 100)) ab.dem > cut.dem
    run --separate-stderr python3 -m demstream cut.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 4 ]   # header and frames 0, 1, 2
    # the offset is the byte where frame 3's gzip member starts, as dem-probe says
    probe=$(dem-probe cut.dem 2>&1 > /dev/null | tail -n 1)
    byte=$(sed -n 's/.*frame 3 (byte \([0-9]*\)).*/\1/p' <<< "$probe")
    [ -n "$byte" ]
    [ "$stderr" = "demstream: frame 3, offset $byte: truncated input: the input ends inside the frame's gzip member" ]
    # a changed byte inside frame 1's deflate data: CRC or deflate error, frame 0 delivered
    s0=$(python3 -c 'import demstream; print([f.offset for f in demstream.frames("sh.dem")][1])')
    cp sh.dem bad.dem
    printf '\xff\xff\xff\xff' | dd of=bad.dem bs=1 seek=$((s0 + 200)) conv=notrunc 2> /dev/null
    run --separate-stderr python3 -m demstream bad.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [[ "$stderr" == "demstream: frame 1, offset $s0: corrupt data: "* ]]
    # not gzip after the frames; and the Python exception's attributes
    { cat sh.dem; echo garbage; } > tail.dem
    run python3 - <<'EOF'
import demstream
got = []
try:
    for f in demstream.frames("tail.dem"):
        got.append(f.index)
except demstream.DemStreamError as e:
    print(got, e.frame, e.kind)
EOF
    [ "$output" = "[0, 1] 2 not gzip data" ]
    # empty input; a stream without its end-of-stream marker warns
    run --separate-stderr python3 -m demstream /dev/null
    [ "$status" -eq 1 ]
    [ "$stderr" = "demstream: frame 0, offset 0: empty input: no byte at all" ]
    head -c $(( $(wc -c < sh.dem) - 26 )) sh.dem > nomarker.dem
    run --separate-stderr python3 -m demstream nomarker.dem
    [ "$status" -eq 0 ] && [ "${#lines[@]}" -eq 3 ] && [[ "$stderr" == *"DemStreamWarning: the input ends after frame 1 without an end-of-stream marker"* ]]
}

@test "demstream: a UTF-8 material name is read as text; bytes that are not UTF-8 raise DemStreamError (issue 29)" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n2\t0.003\t0\t0\t0.001\n' > two.tsv
    dem-pack --from two.tsv --material name=Stahl_ü,density=7800 --assign 1:all > u.dem
    run --separate-stderr python3 -m demstream u.dem
    [ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
    run python3 -c 'import demstream; print(demstream.read_last("u.dem").materials["name"][1])'
    [ "$status" -eq 0 ]
    [ "$output" = "Stahl_ü" ]
    # the name's two bytes of ü replaced by 0xff 0xfe: the frame is refused, naming the material
    python3 - <<'PY'
import gzip, zlib
data = open("u.dem", "rb").read()
payload = zlib.decompressobj(31).decompress(data)
assert payload.count("Stahl_ü".encode()) == 1
open("bad.dem", "wb").write(gzip.compress(payload.replace("Stahl_ü".encode(), b"Stahl_\xff\xfe")) + data[-26:])
PY
    run --separate-stderr python3 -m demstream bad.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "demstream: frame 0, offset 0: malformed frame: MATL: the name of material 1: not UTF-8 (byte 6 is 0xff)" ]
}

@test "demstream: a 400 MB skippable section and 400 MB after END are inflated in pieces, not held (issue 29)" {
    printf 'id\tx\ty\tz\tr\n1\t0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    python3 "$REPO/tests/tools/mkbomb.py" --skippable 4e8 < one.dem > skip.dem
    python3 "$REPO/tests/tools/mkbomb.py" --after-end 4e8 < one.dem > after.dem
    [ "$(wc -c < skip.dem)" -lt 1000000 ]
    cat > rss.py <<'PY'
import resource, sys, warnings
import demstream
warnings.simplefilter("ignore")
try:
    print(len(list(demstream.frames(sys.argv[1]))), end=" ")
except demstream.DemStreamError as e:
    print(e, end=" ")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
PY
    read -r n mb < <(python3 rss.py skip.dem)
    echo "skippable: $n frame(s), peak $mb MB"
    [ "$n" = 1 ]
    [ "$mb" -lt 150 ]          # 800 MB before: the payload, then a join
    run python3 rss.py after.dem
    echo "$output"
    [[ "$output" == "frame 0, offset 0: malformed frame: bytes after END at payload byte "*" "* ]]
    [ "${output##* }" -lt 150 ]
}
