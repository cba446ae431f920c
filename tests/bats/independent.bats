#!/usr/bin/env bats
# An independent reader, tests/independent/demread.py, written from formats/dem-stream.md alone
# (standard-library Python, no look at lib/), must read what dem-pack writes exactly as dem-probe
# does: this shows that the spec is enough to implement the format. tests/independent/demcraft.py
# (also written from the spec) rewrites streams into ones dem-pack never makes (newer minor
# versions, unknown sections, contacts with history slots, settings, unusual gzip headers).
load helpers

T=$'\t'

setup() {
    setup_tmp
    cd "$TMP"
    command -v python3 >/dev/null || skip "python3 is missing"
    # -S: no site module (the scripts use the standard library only), a faster start
    READ=(python3 -S "$REPO/tests/independent/demread.py")
    CRAFT=(python3 -S "$REPO/tests/independent/demcraft.py")
}

# The header, then the rows sorted by frame and id (columns 1 and 2).
sort_rows() { awk 'NR == 1 { print; next } { print | "sort -t \"\t\" -k1,1n -k2,2n" }'; }

# dem-probe --particles FILE cut to the reader's columns (frame id x y z vx vy vz wx wy wz r),
# units dropped from the header.
probe_particles() {
    dem-probe --particles "$@" | cut -f1,4-13,17 | sed '1s/\[[^]]*\]//g'
}

# The reader and dem-probe give the same particles, text for text, for FILE (dem-probe prints
# each frame in id order, the reader in the frame's order: both sorted by frame and id).
same_particles() {
    probe_particles "$1" | sort_rows > probe.tsv
    "${READ[@]}" "$1" > read.tsv   # in the frame's order (tests read it)
    sort_rows < read.tsv | diff probe.tsv -
    [ "$(wc -l < read.tsv)" -gt 1 ]
}

# Field NAME of summary row ROW (0-based frame) of the reader on FILE.
summary_field() {
    "${READ[@]}" --summary "$1" |
        awk -F'\t' -v name="$2" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } $1 == row { print $c }'
}

# Xor the byte at OFFSET (negative: from the end) of FILE with 0xff.
flip_byte() {
    local off=$2 byte
    [ "$off" -ge 0 ] || off=$(($(wc -c < "$1") + off))
    byte=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %o $((byte ^ 255)))" | dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}

@test "independent: fcc lattice in its periodic cell reads as dem-probe reads it" {
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 --periodic lattice > fcc.dem
    same_particles fcc.dem
    [ "$(wc -l < read.tsv)" -eq 109 ]
    [ "$(head -1 read.tsv)" = "frame${T}id${T}x${T}y${T}z${T}vx${T}vy${T}vz${T}wx${T}wy${T}wz${T}r" ]
}

@test "independent: hcp lattice with wrapped sites and an omega reads as dem-probe reads it" {
    dem-pack --lattice hcp --cells 2,2,2 --radius 0.0005 --spacing 0.00125 --origin -0.01,0,1e-5 \
        --periodic lattice --omega 0,-0,3.5 > hcp.dem
    same_particles hcp.dem
}

@test "independent: random packing with walls and random velocities reads as dem-probe reads it" {
    dem-pack --random 300 --box 0,0,0,0.02,0.02,0.04 --lognormal 0.001,0.2 --enclose \
        --velocity-random 0.05 --seed 7 > box.dem
    same_particles box.dem
    [ "$(wc -l < read.tsv)" -eq 301 ]
}

@test "independent: --from table with ids, velocities and awkward numbers reads back bit for bit" {
    printf 'id\tx\ty\tz\tr\tvx\tvy\tvz\twx\n' > in.tsv
    printf '17\t0\t-0\t1e-05\t0.001\t-0.0\t0.1\t-3.25\t1e15\n' >> in.tsv
    # coordinates up to 2^40 radii from the origin (dem-pack's range)
    printf '5\t0.30000000000000004\t123456\t1e9\t0.002\t2.5e-310\t5e-324\t-1e+22\t0\n' >> in.tsv
    printf '9007199254740993\t1099511627775.9998\t-2.2250738585072014e-308\t0.0001\t1\t1e-7\t100\t0.1\t-0.5\n' >> in.tsv
    dem-pack --from in.tsv > from.dem
    same_particles from.dem
    # the ids come from the table, in table order
    [ "$(cut -f2 read.tsv | tail -n +2 | paste -sd,)" = "17,5,9007199254740993" ]
    # the velocities are the table's (the reader prints the same double as the table's text)
    [ "$(awk -F'\t' '$2 == 17 { print $6, $7, $8 }' read.tsv)" = "-0 0.1 -3.25" ]
}

@test "independent: materials and --assign: every particle field reads as dem-probe reads it" {
    dem-pack --random 60 --box 0,0,0,0.01,0.01,0.01 --bidisperse 0.0008,0.0005,0.5 \
        --material name=steel,density=7800,young=2e11,poisson=0.3 \
        --material name=rubber,density=1100,young=1e7,poisson=0.49,restitution=0.5 \
        --assign steel:radius=0.0008,0.0008 --assign rubber:ids=1-5 \
        --fixed box=0,0,0,0.01,0.01,0.002 --omega 1,2,3 > mat.dem
    same_particles mat.dem
    dem-probe --particles --fields all mat.dem | cut -f1,4- | sed '1s/\[[^]]*\]//g' > probe.tsv
    "${READ[@]}" --all-fields mat.dem > read.tsv
    diff probe.tsv read.tsv
    # all three materials are used
    [ "$(cut -f16 read.tsv | tail -n +2 | sort -u | paste -sd,)" = "0,1,2" ]
    [ "$(summary_field mat.dem materials 0)" = 3 ]
}

@test "independent: concatenated streams give every frame, numbered in order" {
    dem-pack --lattice sc --cells 2,2,2 --radius 0.001 > a.dem
    dem-pack --random 10 --box 0,0,0,0.01,0.01,0.01 --radius 0.001 --seed 3 > b.dem
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > c.dem
    cat a.dem b.dem c.dem a.dem > abca.dem
    same_particles abca.dem
    [ "$(cut -f1 read.tsv | tail -n +2 | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd,)" = "0:8,1:10,2:1,3:8" ]
    "${READ[@]}" --summary abca.dem > sum.tsv
    [ "$(cut -f1,6 sum.tsv | tail -n +2 | tr '\t' : | paste -sd,)" = "0:8,1:10,2:1,3:8" ]
}

@test "independent: --summary counts what dem-pack created: walls of --enclose box, materials" {
    dem-pack --random 40 --box 0,0,0,0.01,0.01,0.01 --radius 0.0005 --enclose \
        --material name=steel,density=7800 --material name=lead,density=11000 > enc.dem
    "${READ[@]}" --summary enc.dem > sum.tsv
    [ "$(head -1 sum.tsv)" = "frame${T}step${T}time${T}materials${T}walls${T}particles${T}contacts${T}history_slots${T}periodic" ]
    # frame 0, step 0, time 0, 3 materials, 6 walls, 40 particles, no contacts, no cell
    [ "$(sed -n 2p sum.tsv)" = "0${T}0${T}0${T}3${T}6${T}40${T}0${T}0${T}0" ]
    [ "$(wc -l < sum.tsv)" -eq 2 ]
}

@test "independent: --summary counts what dem-pack created: cylinder walls, periodic cells" {
    dem-pack --random 30 --cylinder z,0,0,0.01,0,0.02 --radius 0.001 --enclose \
        --wall z=0.03 > cyl.dem
    dem-pack --lattice bcc --cells 2,3,4 --radius 0.001 --periodic lattice > bcc.dem
    dem-pack --random 20 --box 0,0,0,0.01,0.01,0.01 --radius 0.0005 \
        --periodic 0,0,0,0.01,0.01,0.01 --periodic-axes xy --enclose > xy.dem
    cat cyl.dem bcc.dem xy.dem > all.dem
    "${READ[@]}" --summary all.dem > sum.tsv
    # --wall first, then the mantle and the 2 end planes
    [ "$(sed -n 2p sum.tsv)" = "0${T}0${T}0${T}1${T}4${T}30${T}0${T}0${T}0" ]
    [ "$(sed -n 3p sum.tsv)" = "1${T}0${T}0${T}1${T}0${T}48${T}0${T}0${T}1" ]
    # periodic along x and y: only the two z walls
    [ "$(sed -n 4p sum.tsv)" = "2${T}0${T}0${T}1${T}2${T}20${T}0${T}0${T}1" ]
}

@test "independent: the reader refuses a truncated stream after delivering the frames before it" {
    dem-pack --lattice sc --cells 3,3,3 --radius 0.001 > a.dem
    size=$(wc -c < a.dem)
    head -c $((size - 3)) a.dem > cut.dem
    run -1 "${READ[@]}" cut.dem
    [[ "$output" == *"truncated input"* ]]
    head -c 40 a.dem > cut.dem
    run -1 "${READ[@]}" cut.dem
    [[ "$output" == *"truncated input"* ]]
    # a whole frame, then a cut one: the first is delivered, then the error
    { cat a.dem; head -c $((size / 2)) a.dem; } > two.dem
    run -1 --separate-stderr "${READ[@]}" --summary two.dem
    [ "${#lines[@]}" -eq 2 ]
    [[ "$stderr" == *"frame 1"*"truncated input"* ]]
    # dem-probe agrees on the frames it delivers
    run -1 --separate-stderr dem-probe --particles two.dem
}

@test "independent: the reader refuses damaged CRC, length and deflate data" {
    dem-pack --lattice sc --cells 3,3,3 --radius 0.001 > a.dem
    cp a.dem crc.dem
    flip_byte crc.dem -8
    run -1 "${READ[@]}" crc.dem
    [[ "$output" == *"corrupt data"*"CRC-32"* ]]
    run ! gzip -t crc.dem
    cp a.dem len.dem
    flip_byte len.dem -1
    run -1 "${READ[@]}" len.dem
    [[ "$output" == *"corrupt data"* ]]
    cp a.dem body.dem
    flip_byte body.dem 40
    run -1 "${READ[@]}" body.dem
    [[ "$output" == *"corrupt data"* || "$output" == *"truncated"* ]]
    # a payload byte changed with a valid CRC (the magic): refused for what it is
    "${CRAFT[@]}" --corrupt-payload 0 < a.dem > magic.dem
    run -1 "${READ[@]}" magic.dem
    [[ "$output" == *"not a dem frame"* ]]
}

@test "independent: the reader refuses empty input, non-gzip data and trailing garbage" {
    : > empty.dem
    run -1 "${READ[@]}" empty.dem
    [[ "$output" == *"empty input"* ]]
    printf 'x\ty\tz\tr\n' > notgz.dem
    run -1 "${READ[@]}" notgz.dem
    [[ "$output" == *"not gzip data"* ]]
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    { cat one.dem; printf 'garbage'; } > tail.dem
    run -1 --separate-stderr "${READ[@]}" tail.dem
    [ "${#lines[@]}" -eq 2 ]
    [[ "$stderr" == *"frame 1"*"not gzip data"* ]]
}

@test "independent: unknown major versions and unknown required sections are refused" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    "${CRAFT[@]}" --major 2 < one.dem > v2.dem
    run -1 "${READ[@]}" v2.dem
    [[ "$output" == *"unsupported version"*"major version 2"* ]]
    run -1 dem-probe v2.dem
    "${CRAFT[@]}" --minor 7 --add XTRA:1:0011 < one.dem > req.dem
    run -1 "${READ[@]}" req.dem
    [[ "$output" == *"malformed frame"*"XTRA"* ]]
    run -1 dem-probe req.dem
}

@test "independent: newer minor versions: unknown optional sections and longer records are skipped" {
    dem-pack --random 12 --box 0,0,0,0.01,0.01,0.01 --radius 0.001 --enclose --omega 1,0,0 \
        --periodic 0,0,0,0.01,0.01,0.01 --periodic-axes x > base.dem
    "${CRAFT[@]}" --minor 5 --add XTRA:0:00112233 --add ABCD:2: --grow PART:12 --grow MATL:3 \
        --grow WALL:8 --grow HEAD:4 --grow CELL:16 --grow ENRG:8 --reverse \
        --parm meta.creator=s:demcraft --parm x-note=i:-42 --parm some.gain=f:1,2.5,-0 \
        < base.dem > newer.dem
    probe_particles base.dem > base.tsv
    "${READ[@]}" newer.dem > read.tsv
    diff base.tsv read.tsv
    same_particles newer.dem
    "${READ[@]}" --dump newer.dem > dump.tsv
    grep -qx "0${T}frame${T}-${T}version${T}1.5" dump.tsv
    grep -qx "0${T}PARM${T}-${T}x-note${T}-42" dump.tsv
    grep -qx "0${T}PARM${T}-${T}some.gain${T}1 2.5 -0" dump.tsv
    grep -qx "0${T}PARM${T}-${T}meta.creator${T}demcraft" dump.tsv
    grep -qx "0${T}CELL${T}0${T}flags${T}1" dump.tsv
}

@test "independent: contacts with history slots read as dem-probe reads them" {
    dem-pack --random 12 --box 0,0,0,0.01,0.01,0.01 --radius 0.001 --enclose > base.dem
    "${CRAFT[@]}" --slots 3 --contact 1,2,0,5 --contact 3,4,0,6 --contact 5,2,1,7 \
        --contact 6,7,0,2 < base.dem > c3.dem
    # a newer minor version appends 24 bytes to the fixed part, before the slots
    "${CRAFT[@]}" --minor 1 --grow CONT:24 --level 0 --gzip-header < c3.dem > c3new.dem
    dem-probe --contacts c3.dem | cut -f1,4- | sed '1s/\[[^]]*\]//g' > probe.tsv
    cat c3.dem c3new.dem > both.dem
    "${READ[@]}" --contacts both.dem > read.tsv
    { cat probe.tsv; tail -n +2 probe.tsv | sed 's/^0/1/'; } > expected.tsv
    diff expected.tsv read.tsv
    [ "$(wc -l < read.tsv)" -eq 9 ]
    "${READ[@]}" --summary c3new.dem > sum.tsv
    [ "$(sed -n 2p sum.tsv)" = "0${T}0${T}0${T}1${T}6${T}12${T}4${T}3${T}0" ]
}

@test "independent: contacts naming a missing particle or a particle with itself are refused" {
    dem-pack --random 12 --box 0,0,0,0.01,0.01,0.01 --radius 0.001 > base.dem
    "${CRAFT[@]}" --contact 1,99,0,5 < base.dem > missing.dem
    run -1 "${READ[@]}" missing.dem
    [[ "$output" == *"impossible value"*"99"* ]]
    "${CRAFT[@]}" --contact 3,3,0,4 < base.dem > self.dem
    run -1 "${READ[@]}" self.dem
    [[ "$output" == *"impossible value"*"itself"* ]]
    # a wall index out of range (the frame has no walls)
    "${CRAFT[@]}" --contact 3,0,1,4 < base.dem > wall.dem
    run -1 "${READ[@]}" wall.dem
    [[ "$output" == *"impossible value"*"wall index 0"* ]]
}

@test "independent: reading from standard input equals reading the file" {
    dem-pack --lattice sc --cells 2,2,2 --radius 0.001 > a.dem
    "${READ[@]}" a.dem > file.tsv
    "${READ[@]}" < a.dem > stdin.tsv
    "${READ[@]}" - < a.dem > dash.tsv
    diff file.tsv stdin.tsv
    diff file.tsv dash.tsv
}
