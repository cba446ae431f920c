#!/usr/bin/env bats
# dem-probe end to end: every mode and option, usage errors, damaged input, VTK output, and the
# round trip through dem-pack. The streams come from tests/tools/mkframes, whose hand-made frame
# is documented at the top of tests/tools/mkframes.c; VTK files are checked by tests/tools/vtpcheck.
load helpers

BIG=9007199254740993 # 2^53 + 1: an id a double cannot hold
T=$'\t'

setup() {
    setup_tmp
    cd "$TMP"
}

# Exit 0 if the two numbers agree to 1e-12 relative.
close_to() {
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-12 * (m > 1 ? m : 1)) }'
}

# Well-formed XML on stdin (python3 if there, else xmllint; skip if neither).
xml_ok() {
    if command -v python3 >/dev/null; then
        python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.stdin)'
    elif command -v xmllint >/dev/null; then
        xmllint --noout -
    else
        skip "no XML parser (python3 or xmllint)"
    fi
}

SUMMARY_HEADER="frame${T}step${T}time[s]${T}particles${T}contacts${T}wall_contacts${T}coordination${T}solid_fraction${T}vx_mean[m/s]${T}vy_mean[m/s]${T}vz_mean[m/s]${T}granular_temperature[m^2/s^2]${T}ekin_t[J]${T}ekin_r[J]${T}volume[m^3]${T}coordination_mech${T}rattler_fraction${T}unbalanced"
# the note on the container dem-probe writes after a summary over the six walls of mkframes
WALLS_NOTE="dem-probe: solid_fraction is over the box enclosed by the six walls, 2 m^3; the particles reach z = 0.7 of the box's 0 to 2 (last frame): measure the bed with --box or --profile z"
PARTICLE_HEADER="frame${T}step${T}time[s]${T}id${T}x[m]${T}y[m]${T}z[m]${T}vx[m/s]${T}vy[m/s]${T}vz[m/s]${T}wx[rad/s]${T}wy[rad/s]${T}wz[rad/s]${T}fx[N]${T}fy[N]${T}fz[N]${T}r[m]"
CONTACT_HEADER="frame${T}step${T}time[s]${T}i${T}j${T}wall${T}sx${T}sy${T}sz${T}overlap[m]${T}nx${T}ny${T}nz${T}fnx[N]${T}fny[N]${T}fnz[N]${T}ftx[N]${T}fty[N]${T}ftz[N]${T}sliding${T}diss_friction[J]${T}diss_damp_n[J]${T}diss_damp_t[J]"
# 4/3 pi (0.1^3 + 0.1^3 + 0.2^3) / 2 m^3: the three hand-made spheres in the walls box or the cell
SOLID=0.020943951023931956

# ---- help and usage ------------------------------------------------------------------------

@test "--help: usage on stdout, exit 0, every option taught" {
    run --separate-stderr dem-probe --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "${lines[0]}" == "Usage: dem-probe "* ]]
    for opt in --summary --particles --contacts --vtk --vtk-prefix --frame --last --every --select --ids \
               --region --fields --box --profile --bins --range --rattler-contacts --help; do
        [[ "$output" == *" $opt"* ]] || { echo "help does not teach $opt"; return 1; }
    done
    [[ "$output" == *"Examples:"* ]]
    [[ "$output" == *"coordination: mean coordination number Z = 2*contacts/particles"* ]]
    # --fields names every particle field of the stream's table
    mkframes -n 1 > a.dem
    for f in $(dem-probe --particles --fields all a.dem | head -n 1 | cut -f 18- | sed 's/\[[^]]*\]//g'); do
        [[ "$output" == *" $f"[![:alnum:]_]* ]] || { echo "help does not name field $f"; return 1; }
    done
    run dem-probe -h
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "Usage: dem-probe "* ]]
}

@test "usage errors: exit 2, a message and a pointer to --help, nothing on stdout" {
    mkframes -n 1 > a.dem
    bad() {
        run --separate-stderr dem-probe "$@"
        [ "$status" -eq 2 ] || { echo "dem-probe $*: status $status"; return 1; }
        [ -z "$output" ] || { echo "dem-probe $*: printed '$output'"; return 1; }
        [[ "$stderr" == "dem-probe: "*"Try 'dem-probe --help' for more information." ]] || { echo "dem-probe $*: '$stderr'"; return 1; }
    }
    bad --particles --contacts a.dem
    bad --vtk out --particles a.dem
    bad --summary --contacts a.dem
    bad --frame 1 --last a.dem
    bad --every 2 --frame 0 a.dem
    bad --last --every 2 a.dem
    bad --every 0 a.dem
    bad --frame -1 a.dem
    bad --frame x a.dem
    bad --fields mass a.dem
    bad --particles --fields nope a.dem
    bad --particles --fields mass,,r a.dem
    bad --box 0,0,0,1,1 a.dem
    bad --box 1,0,0,0,1,1 a.dem
    bad --box 0,0,0,1,1,nan a.dem
    bad --particles --box 0,0,0,1,1,1 a.dem
    bad --select ids=1 a.dem
    bad --particles --select ids=1 --ids 2 a.dem
    bad --particles --region 0,0,0,1,1,1 --select all a.dem
    bad --particles --select bogus a.dem
    bad --particles --ids 3-1 a.dem
    bad --particles --region 1,2 a.dem
    bad --bogus a.dem
    bad -x a.dem
    bad --vtk
    bad --vtk "" a.dem
    bad a.dem a.dem
}

@test "usage errors say what is wrong" {
    run --separate-stderr dem-probe --particles --fields nope
    [[ "$stderr" == "dem-probe: --fields: unknown particle field 'nope'; fields: id material "*" or all"$'\n'* ]]
    run --separate-stderr dem-probe --frame 1 --last
    [[ "$stderr" == "dem-probe: --frame, --last and --every exclude each other"$'\n'* ]]
    run --separate-stderr dem-probe --particles --contacts
    [[ "$stderr" == "dem-probe: --particles and --contacts exclude each other: choose one mode"$'\n'* ]]
}

# ---- summary -------------------------------------------------------------------------------

@test "summary (default): one row per frame, hand-computed values" {
    mkframes -n 3 > a.dem
    run --separate-stderr dem-probe a.dem
    [ "$status" -eq 0 ]
    [ "$stderr" = "$WALLS_NOTE" ]
    [ "${#lines[@]}" -eq 4 ]
    [ "${lines[0]}" = "$SUMMARY_HEADER" ]
    # 3 particles, contact 2-1 (overlap 0.005), record 2^53+1 - 2 (overlap -0.01: not a contact),
    # wall contact 1 - wall 0; Z = 2/3; mean v = ((1 - 0.1)/3, 2.5e-05/3, 0.001/3)
    [[ "${lines[1]}" == "0${T}0${T}0${T}3${T}1${T}1${T}0.6666666666666666${T}${SOLID}${T}0.3${T}8.333333333333334e-06${T}0.0003333333333333333${T}"* ]]
    [[ "${lines[2]}" == "1${T}100${T}0.001${T}3${T}"* ]]
    [[ "${lines[3]}" == "2${T}200${T}0.002${T}3${T}"* ]]
    run --separate-stderr dem-probe --summary a.dem
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 4 ]
}

@test "summary: granular temperature and kinetic energies match a hand computation" {
    mkframes -n 1 > a.dem
    out=$(dem-probe a.dem)
    # v1 = (1,0,0), v2 = (-0.1, 2.5e-05, 0.001), v3 = 0; vbar = mean
    want_t=$(awk 'BEGIN { mx = 0.9/3; my = 2.5e-05/3; mz = 0.001/3;
        s = (1-mx)^2 + my^2 + mz^2 + (-0.1-mx)^2 + (2.5e-05-my)^2 + (0.001-mz)^2 + mx^2 + my^2 + mz^2;
        printf "%.17g", s / 9 }')
    close_to "$(col 'granular_temperature[m^2/s^2]' <<< "$out")" "$want_t"
    # m = 4/3 pi r^3 2500 kg/m^3 for the two glass spheres of r = 0.1 m
    want_k=$(awk 'BEGIN { pi = atan2(0, -1); m = 4/3*pi*0.001*2500;
        printf "%.17g", 0.5*m*1 + 0.5*m*(0.01 + 2.5e-05^2 + 1e-06) }')
    close_to "$(col 'ekin_t[J]' <<< "$out")" "$want_k"
    # ekin_r = 1/2 I w^2, I = 2/5 m r^2, w = 2 rad/s for particle 1 only
    want_r=$(awk 'BEGIN { pi = atan2(0, -1); m = 4/3*pi*0.001*2500; printf "%.17g", 0.5*0.4*m*0.01*4 }')
    close_to "$(col 'ekin_r[J]' <<< "$out")" "$want_r"
}

@test "summary: solid fraction from the walls box, the periodic cell, or nan" {
    mkframes -n 1 -m walls > w.dem
    mkframes -n 1 -m cell > c.dem
    mkframes -n 1 -m open > o.dem
    [ "$(dem-probe w.dem | col solid_fraction)" = "$SOLID" ]
    [ "$(dem-probe c.dem | col solid_fraction)" = "$SOLID" ]
    [ "$(dem-probe o.dem | col solid_fraction)" = nan ]
    [ "$(dem-probe c.dem | col wall_contacts)" = 0 ]
    [ "$(dem-probe o.dem | col contacts)" = 1 ]
}

@test "summary --box: the parts of the spheres inside the box over its volume" {
    mkframes -n 1 -m open > o.dem
    # particle 1 (x = 0.095 m, r = 0.1 m) sticks out of x = 0 by a cap of height 0.005 m;
    # particle 2 (x = 0.285 m, r = 0.1 m) reaches into x < 0.2 by a cap of height 0.015 m
    want=$(awk 'BEGIN { pi = atan2(0, -1); v = 4/3*pi*0.001; cap1 = pi*0.005^2*(0.3 - 0.005)/3;
        printf "%.17g", (2*v + 8*v - cap1) / 2 }')
    close_to "$(dem-probe --box 0,0,0,1,1,2 o.dem | col solid_fraction)" "$want"
    want=$(awk 'BEGIN { pi = atan2(0, -1); v = 4/3*pi*0.001; cap1 = pi*0.005^2*(0.3 - 0.005)/3;
        cap2 = pi*0.015^2*(0.3 - 0.015)/3; printf "%.17g", (v - cap1 + cap2) / 0.2 }')
    close_to "$(dem-probe --box 0,0,0,0.2,1,1 o.dem | col solid_fraction)" "$want"
    [ "$(dem-probe --box 5,5,5,6,6,6 o.dem | col solid_fraction)" = 0 ]
    # walls: the box wins over them, and no note about the walls
    mkframes -n 1 -m walls > w.dem
    run --separate-stderr dem-probe --box 0,0,0,0.2,1,1 w.dem
    [ -z "$stderr" ]
    close_to "$(col solid_fraction <<< "$output")" "$want"
    [ "$(col 'volume[m^3]' <<< "$output")" = 0.2 ]
    # only particle 1 is centred in the box: 1 particle, its contact with 2 and with wall 0;
    # Z = 1 contact / 1 particle
    [ "$(col particles <<< "$output")" = 1 ]
    [ "$(col contacts <<< "$output")" = 1 ]
    [ "$(col wall_contacts <<< "$output")" = 1 ]
    [ "$(col coordination <<< "$output")" = 1 ]
}

@test "summary --box on a periodic frame: the cell is used, with a warning" {
    mkframes -n 2 -m cell > c.dem
    run --separate-stderr dem-probe --box 0,0,0,0.2,1,1 c.dem
    [ "$status" -eq 0 ]
    [ "$stderr" = "dem-probe: warning: frame 0 has a periodic cell: its solid fraction uses the cell, not --box" ]
    [ "$(col solid_fraction <<< "$output" | sort -u)" = "$SOLID" ]
}

@test "summary without particles: nan where nothing can be averaged" {
    mkframes -n 1 -p 0 > e.dem
    run dem-probe e.dem
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "0${T}0${T}0${T}0${T}0${T}0${T}nan${T}0${T}nan${T}nan${T}nan${T}nan${T}0${T}0${T}2${T}nan${T}nan${T}0" ]
}

# ---- particles -----------------------------------------------------------------------------

@test "--particles: every particle of every frame, exact text, u64 ids exact" {
    mkframes -n 2 > a.dem
    run --separate-stderr dem-probe --particles a.dem
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 7 ]
    [ "${lines[0]}" = "$PARTICLE_HEADER" ]
    [ "${lines[1]}" = "0${T}0${T}0${T}1${T}0.095${T}0.5${T}0.5${T}1${T}0${T}0${T}0${T}0${T}2${T}0.5${T}0${T}-1${T}0.1" ]
    [ "${lines[2]}" = "0${T}0${T}0${T}2${T}0.285${T}0.5${T}0.5${T}-0.1${T}2.5e-05${T}0.001${T}0${T}0${T}0${T}-0.5${T}0${T}-1${T}0.1" ]
    [ "${lines[3]}" = "0${T}0${T}0${T}${BIG}${T}0.595${T}0.5${T}0.5${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0.2" ]
    [ "${lines[4]}" = "1${T}100${T}0.001${T}1${T}0.095${T}0.5${T}0.5${T}1${T}0${T}0${T}0${T}0${T}2${T}0.5${T}0${T}-1${T}0.1" ]
}

@test "--particles --fields: named fields appended, integers as integers" {
    mkframes -n 1 -m cell > c.dem
    run dem-probe --particles --fields flags,group,material,ix,iy,tz,inertia c.dem
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "${PARTICLE_HEADER}${T}flags${T}group${T}material${T}ix${T}iy${T}tz[N*m]${T}inertia[kg*m^2]" ]
    [[ "${lines[3]}" == "0${T}0${T}0${T}${BIG}${T}"*"${T}0.2${T}1${T}2${T}1${T}1${T}-1${T}0.25${T}"* ]]
    [[ "${lines[1]}" == *"${T}0.1${T}0${T}1${T}0${T}0${T}0${T}0${T}"* ]]
    # a field already shown is not repeated
    run dem-probe --particles --fields x,mass,r c.dem
    [ "${lines[0]}" = "${PARTICLE_HEADER}${T}mass[kg]" ]
}

@test "--particles --fields all: every particle field once" {
    mkframes -n 1 > a.dem
    run dem-probe --particles --fields all a.dem
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "${PARTICLE_HEADER}${T}material${T}flags${T}group${T}clump${T}mass[kg]${T}inertia[kg*m^2]${T}q0${T}q1${T}q2${T}q3${T}tx[N*m]${T}ty[N*m]${T}tz[N*m]${T}ix${T}iy${T}iz" ]
    [ "$(head -n 1 <<< "$output" | tr '\t' '\n' | sort | uniq -d)" = "" ]
    [ "$(col q1 <<< "$output" | tr '\n' ' ')" = "0 0 1 " ]
    [ "$(col flags <<< "$output" | tr '\n' ' ')" = "0 0 1 " ]
    [ "$(col clump <<< "$output" | tr '\n' ' ')" = "0 0 0 " ]
}

@test "--particles selections: --ids, --select ids/box/radius/all, --region" {
    mkframes -n 2 > a.dem
    ids() { dem-probe --particles "$@" a.dem | col id | tr '\n' ' '; }
    [ "$(ids)" = "1 2 $BIG 1 2 $BIG " ]
    [ "$(ids --ids 2,$BIG)" = "2 $BIG 2 $BIG " ]
    [ "$(ids --ids 1-2)" = "1 2 1 2 " ]
    [ "$(ids --select ids=1)" = "1 1 " ]
    [ "$(ids --select radius=0.15,1)" = "$BIG $BIG " ]
    [ "$(ids --select box=0,0,0,0.3,1,1)" = "1 2 1 2 " ]
    [ "$(ids --region 0.2,0,0,1,1,1)" = "2 $BIG 2 $BIG " ]
    [ "$(ids --select all)" = "1 2 $BIG 1 2 $BIG " ]
    run dem-probe --particles --ids 77 a.dem
    [ "$status" -eq 0 ]
    [ "$output" = "$PARTICLE_HEADER" ]
}

# ---- contacts ------------------------------------------------------------------------------

@test "--contacts: every record, history slots, flags as 0/1" {
    mkframes -n 2 > a.dem
    run --separate-stderr dem-probe --contacts a.dem
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 7 ]
    [ "${lines[0]}" = "${CONTACT_HEADER}${T}h0${T}h1" ]
    [ "${lines[1]}" = "0${T}0${T}0${T}2${T}1${T}0${T}0${T}0${T}0${T}0.005${T}1${T}0${T}0${T}1.5${T}0${T}0${T}0${T}0.25${T}0${T}1${T}0.001${T}0.002${T}0.003${T}0.1${T}0.2" ]
    [ "${lines[2]}" = "0${T}0${T}0${T}${BIG}${T}2${T}0${T}0${T}0${T}0${T}-0.01${T}1${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0.1${T}0.2" ]
    [ "${lines[3]}" = "0${T}0${T}0${T}1${T}0${T}1${T}0${T}0${T}0${T}0.005${T}1${T}0${T}0${T}2${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0.1${T}0.2" ]
    [[ "${lines[4]}" == "1${T}100${T}0.001${T}2${T}1${T}"* ]]
}

@test "--contacts: periodic shifts; no history slots, no h columns" {
    mkframes -n 1 -m cell -H 0 > c.dem
    run dem-probe --contacts c.dem
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$CONTACT_HEADER" ]
    [[ "${lines[3]}" == "0${T}0${T}0${T}1${T}${BIG}${T}0${T}-1${T}0${T}0${T}-0.2${T}"* ]]
}

@test "--contacts: later frames with other history counts are padded with nan or cut" {
    mkframes -n 3 -H 2 -V > v.dem   # slots 2, 1, 3
    run dem-probe --contacts v.dem
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "${CONTACT_HEADER}${T}h0${T}h1" ]
    [ "$(col h1 <<< "$output" | tr '\n' ' ')" = "0.2 0.2 0.2 nan nan nan 0.2 0.2 0.2 " ]
    [ "$(awk -F'\t' '{ print NF }' <<< "$output" | sort -u)" = 25 ]
    # K comes from the first frame printed
    run dem-probe --contacts --frame 2 v.dem
    [ "${lines[0]}" = "${CONTACT_HEADER}${T}h0${T}h1${T}h2" ]
    [ "$(col h2 <<< "$output" | sort -u)" = 0.30000000000000004 ]
}

@test "--contacts selection: a contact is shown if i or j is selected" {
    mkframes -n 1 > a.dem
    pairs() { dem-probe --contacts "$@" a.dem | awk -F'\t' 'NR > 1 { printf "%s-%s ", $4, $5 }'; }
    [ "$(pairs)" = "2-1 $BIG-2 1-0 " ]
    [ "$(pairs --ids 1)" = "2-1 1-0 " ]
    [ "$(pairs --ids 2)" = "2-1 $BIG-2 " ]
    [ "$(pairs --ids $BIG)" = "$BIG-2 " ]
    [ "$(pairs --select radius=0.15,0.3)" = "$BIG-2 " ]
    [ "$(pairs --region 0,0,0,0.1,1,1)" = "2-1 1-0 " ]
    # wall 0 is not particle 0
    [ "$(dem-probe --contacts --ids 0 a.dem | wc -l)" -eq 1 ]
}

# ---- frame selection -----------------------------------------------------------------------

@test "--frame K, --last, --every K pick frames by their number from 0" {
    mkframes -n 5 > a.dem
    frames() { dem-probe "$@" a.dem | col frame | tr '\n' ' '; }
    [ "$(frames)" = "0 1 2 3 4 " ]
    [ "$(frames --frame 0)" = "0 " ]
    [ "$(frames --frame 3)" = "3 " ]
    [ "$(frames --last)" = "4 " ]
    [ "$(frames --every 2)" = "0 2 4 " ]
    [ "$(frames --every 3)" = "0 3 " ]
    [ "$(frames --every 1)" = "0 1 2 3 4 " ]
    [ "$(frames --every 9)" = "0 " ]
    [ "$(dem-probe --particles --last a.dem | col frame | sort -u)" = 4 ]
    [ "$(dem-probe --contacts --frame 2 a.dem | col step | sort -u)" = 200 ]
}

@test "--frame K past the end: the header, then exit 1 naming the frame count" {
    mkframes -n 3 > a.dem
    run --separate-stderr dem-probe --frame 7 a.dem
    [ "$status" -eq 1 ]
    [ "$output" = "$SUMMARY_HEADER" ]
    [ "$stderr" = "dem-probe: --frame 7: the stream has only 3 frames (0 to 2)" ]
}

@test "--frame K stops reading after frame K: damage after it goes unseen" {
    mkframes -n 2 > a.dem
    { cat a.dem; printf 'garbage'; } > bad.dem
    run --separate-stderr dem-probe --frame 1 bad.dem
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ]
    run --separate-stderr dem-probe bad.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "$stderr" == "dem-probe: after frame 1: trailing data at byte $(wc -c < a.dem) is not a gzip member"* ]]
}

# ---- input ---------------------------------------------------------------------------------

@test "input from a file, from '-' and from stdin give the same output" {
    mkframes -n 2 > a.dem
    want=$(dem-probe --particles a.dem)
    [ "$(dem-probe --particles - < a.dem)" = "$want" ]
    [ "$(dem-probe --particles < a.dem)" = "$want" ]
    [ "$(mkframes -n 2 | dem-probe --particles)" = "$want" ]
}

@test "concatenated streams: cat a b | dem-probe shows the frames of both, numbered on" {
    mkframes -n 2 > a.dem
    mkframes -n 3 -s 1000 > b.dem
    run --separate-stderr bash -c 'cat a.dem b.dem | dem-probe'
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 6 ]
    [ "$(col frame <<< "$output" | tr '\n' ' ')" = "0 1 2 3 4 " ]
    [ "$(col step <<< "$output" | tr '\n' ' ')" = "0 100 1000 1100 1200 " ]
    [ "$(col 'time[s]' <<< "$output" | tr '\n' ' ')" = "0 0.001 0.01 0.011 0.012 " ]
}

@test "a missing file: exit 1 with the reason" {
    run --separate-stderr dem-probe nope.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-probe: cannot open 'nope.dem': No such file or directory" ]
}

@test "empty input and non-dem input: the header, then the reader's message, exit 1" {
    run --separate-stderr dem-probe < /dev/null
    [ "$status" -eq 1 ]
    [ "$output" = "$SUMMARY_HEADER" ]
    [ "$stderr" = "dem-probe: empty input: no frame (0 bytes)" ]
    run --separate-stderr bash -c 'echo hello | dem-probe --particles'
    [ "$status" -eq 1 ]
    [ "$output" = "$PARTICLE_HEADER" ]
    [[ "$stderr" == "dem-probe: not a dem stream: this looks like text (it starts \"hello\"): make a stream with dem-pack --from"* ]]
    run --separate-stderr bash -c 'printf "\001\002\003" | dem-probe --particles'
    [ "$status" -eq 1 ]
    [[ "$stderr" == "dem-probe: not a dem stream: input starts with bytes 0x01 0x02"* ]]
}

# A stream of 2 good frames followed by a third frame cut short.
make_truncated() {
    mkframes -n 2 > a.dem
    mkframes -n 1 -s 500 > c.dem
    { cat a.dem; head -c 60 c.dem; } > trunc.dem
}

@test "truncated after 2 frames: the 2 frames, then the reader's message, exit 1" {
    make_truncated
    run --separate-stderr dem-probe trunc.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 3 ]
    [ "$(col frame <<< "$output" | tr '\n' ' ')" = "0 1 " ]
    [[ "$stderr" == "dem-probe: frame 2 (byte $(wc -c < a.dem)): input ends inside the frame"*"truncated stream" ]]
    run --separate-stderr dem-probe --particles trunc.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 7 ]
    run --separate-stderr dem-probe --contacts - < trunc.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 7 ]
}

@test "truncated stream with --last: the last complete frame, then the error" {
    make_truncated
    run --separate-stderr dem-probe --last trunc.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [[ "${lines[1]}" == "1${T}100${T}"* ]]
    [[ "$stderr" == *"truncated stream" ]]
}

@test "corrupt third frame (CRC-32): 2 frames, then the reader's message, exit 1" {
    mkframes -n 2 > a.dem
    mkframes -n 1 > c.dem
    n=$(($(wc -c < c.dem) - 26))   # the frame's CRC-32: 8 bytes before its end, before the end marker
    b=$(od -An -tu1 -j $((n - 8)) -N1 c.dem | tr -d ' ')
    printf "\\$(printf %03o $(((b + 1) % 256)))" | dd of=c.dem bs=1 seek=$((n - 8)) conv=notrunc 2>/dev/null
    cat a.dem c.dem > bad.dem
    run --separate-stderr dem-probe --particles bad.dem
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 7 ]
    [[ "$stderr" == "dem-probe: frame 2 (byte $(wc -c < a.dem)): corrupt compressed data"*"(CRC-32 mismatch)" ]]
}

# ---- VTK -----------------------------------------------------------------------------------

@test "--vtk: one .vtp per frame, a .pvd listing them with their times, nothing on stdout" {
    mkframes -n 3 > a.dem
    run --separate-stderr dem-probe --vtk out/deep a.dem
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -z "$stderr" ]
    for k in 0 1 2; do
        [ -s out/deep/particles_00000$k.vtp ]
        [ -s out/deep/contacts_00000$k.vtp ]
        [ -s out/deep/walls_00000$k.vtp ]   # mkframes' default frame has walls (tests/bats/vtk.bats)
    done
    [ "$(ls out/deep | wc -l)" -eq 12 ]
    xml_ok < out/deep/particles.pvd
    xml_ok < out/deep/contacts.pvd
    [ "$(grep -c '<DataSet ' out/deep/particles.pvd)" -eq 3 ]
    grep -q '<DataSet timestep="0" group="" part="0" file="particles_000000.vtp"/>' out/deep/particles.pvd
    grep -q '<DataSet timestep="0.001" group="" part="0" file="particles_000001.vtp"/>' out/deep/particles.pvd
    grep -q '<DataSet timestep="0.002" group="" part="0" file="particles_000002.vtp"/>' out/deep/particles.pvd
    grep -q '<DataSet timestep="0.002" group="" part="0" file="contacts_000002.vtp"/>' out/deep/contacts.pvd
    grep -q '<VTKFile type="Collection" version="1.0"' out/deep/particles.pvd
}

@test "--vtk: well-formed XML, appended block exactly as long as the offsets say" {
    mkframes -n 1 > a.dem
    dem-probe --vtk out a.dem
    for f in out/particles_000000.vtp out/contacts_000000.vtp; do
        run vtpcheck "$f"
        [ "$status" -eq 0 ] || { echo "$f: $output"; return 1; }
        vtpcheck -x "$f" | xml_ok
        head -n 2 "$f" | grep -q '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">'
    done
    run vtpcheck out/particles_000000.vtp
    [ "$output" = "PointData id UInt64 1 3
PointData radius Float64 1 3
PointData velocity Float64 3 3
PointData angular_velocity Float64 3 3
PointData force Float64 3 3
PointData material UInt32 1 3
PointData fixed UInt8 1 3
Points Points Float64 3 3
Verts connectivity Int64 1 3
Verts offsets Int64 1 3" ]
    # the checker itself catches a block one byte short
    head -c -31 out/particles_000000.vtp > cut.vtp
    printf '\n  </AppendedData>\n</VTKFile>\n' >> cut.vtp
    run vtpcheck cut.vtp
    [ "$status" -eq 1 ]
}

@test "--vtk: the arrays hold exactly the values --particles prints" {
    mkframes -n 1 -m cell > c.dem
    dem-probe --vtk out c.dem
    p=$(dem-probe --particles --fields material,flags c.dem)
    [ "$(vtpcheck -a id out/particles_000000.vtp)" = "$(col id <<< "$p")" ]
    [ "$(vtpcheck -a Points out/particles_000000.vtp)" = "$(awk -F'\t' 'NR > 1 { print $5 "\t" $6 "\t" $7 }' <<< "$p")" ]
    [ "$(vtpcheck -a velocity out/particles_000000.vtp)" = "$(awk -F'\t' 'NR > 1 { print $8 "\t" $9 "\t" $10 }' <<< "$p")" ]
    [ "$(vtpcheck -a angular_velocity out/particles_000000.vtp)" = "$(awk -F'\t' 'NR > 1 { print $11 "\t" $12 "\t" $13 }' <<< "$p")" ]
    [ "$(vtpcheck -a force out/particles_000000.vtp)" = "$(awk -F'\t' 'NR > 1 { print $14 "\t" $15 "\t" $16 }' <<< "$p")" ]
    [ "$(vtpcheck -a radius out/particles_000000.vtp)" = "$(col 'r[m]' <<< "$p")" ]
    [ "$(vtpcheck -a material out/particles_000000.vtp)" = "$(col material <<< "$p")" ]
    [ "$(vtpcheck -a fixed out/particles_000000.vtp | tr '\n' ' ')" = "0 0 1 " ]
    [ "$(vtpcheck -a offsets out/particles_000000.vtp | tr '\n' ' ')" = "1 2 3 " ]
}

@test "--vtk contacts: one line per particle-particle record, j at its periodic image" {
    mkframes -n 1 -m cell > c.dem
    dem-probe --vtk out c.dem
    vtpcheck out/contacts_000000.vtp > /dev/null
    grep -q 'NumberOfPoints="6" NumberOfVerts="0" NumberOfLines="3"' out/contacts_000000.vtp
    [ "$(vtpcheck -a id out/contacts_000000.vtp | tr '\n' ' ')" = "2 1 $BIG 2 1 $BIG " ]
    # contact 1 - 2^53+1 with shift (-1,0,0): x = 0.595 - 1
    [ "$(vtpcheck -a Points out/contacts_000000.vtp | tail -n 1)" = "-0.405${T}0.5${T}0.5" ]
    [ "$(vtpcheck -a normal_force out/contacts_000000.vtp | tr '\n' ' ')" = "1.5 0 0 " ]
    [ "$(vtpcheck -a tangential_force out/contacts_000000.vtp | tr '\n' ' ')" = "0.25 0 0 " ]
    [ "$(vtpcheck -a sliding out/contacts_000000.vtp | tr '\n' ' ')" = "1 0 0 " ]
    # walls mode: the particle-wall contact is no line
    mkframes -n 1 -m walls > w.dem
    dem-probe --vtk wout w.dem
    grep -q 'NumberOfLines="2"' wout/contacts_000000.vtp
}

@test "--vtk with frame and particle selection" {
    mkframes -n 5 > a.dem
    dem-probe --vtk out --every 2 --ids 2 a.dem
    [ "$(ls out | tr '\n' ' ')" = "contacts.pvd contacts_000000.vtp contacts_000002.vtp contacts_000004.vtp particles.pvd particles_000000.vtp particles_000002.vtp particles_000004.vtp walls.pvd walls_000000.vtp walls_000002.vtp walls_000004.vtp " ]
    [ "$(vtpcheck -a id out/particles_000002.vtp)" = 2 ]
    grep -q 'NumberOfLines="2"' out/contacts_000004.vtp   # 2-1 and 2^53+1 - 2
    dem-probe --vtk last --last a.dem
    [ "$(grep -c '<DataSet ' last/particles.pvd)" -eq 1 ]
    grep -q 'timestep="0.004" group="" part="0" file="particles_000004.vtp"' last/particles.pvd
}

@test "--vtk on a truncated stream: the complete frames and a valid .pvd, then exit 1" {
    make_truncated
    run --separate-stderr dem-probe --vtk out trunc.dem
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *"truncated stream" ]]
    xml_ok < out/particles.pvd
    [ "$(grep -c '<DataSet ' out/particles.pvd)" -eq 2 ]
    [ ! -e out/particles_000002.vtp ]
}

@test "--vtk into a path that is a file: exit 1 with the reason" {
    mkframes -n 1 > a.dem
    touch plain
    run --separate-stderr dem-probe --vtk plain a.dem
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-probe: --vtk: cannot create directory 'plain': a file of that name exists" ]
}

# ---- round trip through dem-pack -----------------------------------------------------------

@test "round trip: dem-pack --from x.tsv | dem-probe --particles gives back the same text" {
    [ -x "$DEM_BIN/dem-pack" ] || skip "dem-pack not built"
    # Values in their shortest round-trip form, which is how dem-probe prints them.
    printf 'x\ty\tz\tr\tid\tvx\tvy\tvz\twx\twy\twz\tmaterial\tfixed\n' > x.tsv
    printf '0.1\t0.001\t2.5e-05\t0.001\t1\t-0.1\t0.30000000000000004\t0\t100\t-2.5e-05\t1e-07\t0\t0\n' >> x.tsv
    printf '0.5\t0.25\t0.125\t0.0125\t7\t3.14159\t1e-07\t-1.5\t0\t0\t0\t0\t1\n' >> x.tsv
    printf '0.9\t0.75\t0.333\t2.5e-05\t%s\t0\t0\t0\t0.001\t0\t-6.02e+23\t0\t0\n' "$BIG" >> x.tsv
    dem-pack --from x.tsv > p.dem
    dem-probe --particles --fields material,flags p.dem |
        awk -F'\t' -v OFS='\t' 'NR > 1 { print $5, $6, $7, $17, $4, $8, $9, $10, $11, $12, $13, $18, $19 % 2 }' |
        sort -t "$T" -k5,5 > got.tsv
    tail -n +2 x.tsv | sort -t "$T" -k5,5 > want.tsv
    diff want.tsv got.tsv
}

@test "round trip: dem-probe --particles | cut | dem-pack --from - | dem-probe --particles is the identity" {
    [ -x "$DEM_BIN/dem-pack" ] || skip "dem-pack not built"
    mkframes -n 1 -m open > a.dem
    dem-probe --particles a.dem > first.tsv
    # id x y z vx vy vz wx wy wz r: the columns dem-pack --from reads, units in brackets
    cut -f 4-13,17 first.tsv | dem-pack --from - > again.dem
    dem-probe --particles again.dem | cut -f 4-13,17 > second.tsv
    diff <(cut -f 4-13,17 first.tsv) second.tsv
}

@test "round trip without cut: dem-probe --particles --last | dem-pack --from - keeps every column dem-pack reads" {
    mkframes -n 2 -m open > a.dem
    dem-probe --particles --last a.dem > first.tsv
    dem-probe --particles --last a.dem | dem-pack --from - > again.dem
    dem-probe --particles again.dem > second.tsv
    # frame, step, time and forces belong to the run, not to a fresh system: compare the rest
    diff <(cut -f 4-13,17 first.tsv) <(cut -f 4-13,17 second.tsv)
    # two frames at once repeat every id: refused, naming the line
    run --separate-stderr dem-pack --from - < <(dem-probe --particles a.dem)
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"column id: id "*"already used on line"* ]]
}

@test "--particles prints in id order after dem-step's spatial sort has reordered the frame" {
    dem-pack --random 60 --box 0,0,0,0.01,0.01,0.01 --radius 5e-4 --enclose --seed 3 > box.dem
    # the spatial sort at step 1000 (setting neighbor.sort_every) orders the frame by space, not id
    dem-step -q -n 1001 --dt 1e-6 --gravity 0,0,-9.81 box.dem > run.dem
    python3 -S "$BATS_TEST_DIRNAME/../independent/demread.py" --dump run.dem | awk -F'\t' '$2 == "PART" && $4 == "id" { print $5 }' > order.txt
    ! sort -n -c order.txt 2> /dev/null || false   # the frame itself is out of id order
    dem-probe --particles run.dem | col id > ids.txt
    [ "$(wc -l < ids.txt)" -eq 60 ]
    sort -n -c ids.txt
    dem-probe --particles --ids 5,1-3 run.dem | col id | tr '\n' ' ' > sel.txt
    [ "$(cat sel.txt)" = "1 2 3 5 " ]
}

@test "--walls: where each wall is, how it moves and the force on it, per frame" {
    dem-pack --lattice sc --cells 2,2,2 --radius 0.001 --spacing 0.0021 --origin 0,0,0 --wall z=0 --wall z=0.00405@0,0,-0.01 > box.dem
    dem-step -q -n 200 --every 100 --dt 1e-6 --normal hooke --kn 1e4 box.dem > run.dem
    dem-probe --walls run.dem > walls.tsv
    [ "$(head -1 walls.tsv | cut -f1-8)" = "$(printf 'frame\tstep\ttime[s]\twall\tkind\tmaterial\tflags\tpx[m]')" ]
    [ "$(wc -l < walls.tsv)" -eq 5 ]   # 2 frames x 2 walls
    # the lid moved down at 0.01 m/s for 200 us: 2 um
    awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } $1 == 1 && $4 == 1 {
        d = $c["pz[m]"] - (0.00405 - 0.01 * 200e-6); if (d < 0) d = -d
        print $c["kind"], $c["pz[m]"], $c["vz[m/s]"]; exit !($c["kind"] == "plane" && d < 1e-12 && $c["vz[m/s]"] == -0.01) }' walls.tsv
    # the force is the one dem-stress --walls reports
    dem-stress --walls run.dem | awk -F'\t' 'NR > 1 { print $6, $7, $8 }' > a.txt
    awk -F'\t' 'NR > 1 { print $21, $22, $23 }' walls.tsv > b.txt
    cmp a.txt b.txt
    awk '{ exit !($3 != 0) }' b.txt   # the floor feels the pressed spheres
    dem-pack --lattice sc --cells 1,1,1 --radius 1 > none.dem
    run --separate-stderr dem-probe --walls none.dem
    [ "$status" -eq 0 ] && [ "$(echo "$output" | wc -l)" -eq 1 ]   # the header only: no wall
}

# Check LAMMPS dump grammar on stdin: blocks of TIMESTEP, NUMBER OF ATOMS, BOX BOUNDS (3 lines of 2
# or 3 numbers), ATOMS header and that many rows of as many fields; prints blocks and the last
# block's lx ly lz xy xz yz and the largest |fractional coordinate outside [0, 1)|.
dump_check() {
    awk '
    function fail(m) { print "dump: line " NR ": " m > "/dev/stderr"; bad = 1; exit 1 }
    state == 0 { if ($0 != "ITEM: TIMESTEP") fail("expected ITEM: TIMESTEP"); state = 1; next }
    state == 1 { if ($0 !~ /^[0-9]+$/) fail("step"); state = 2; next }
    state == 2 { if ($0 != "ITEM: NUMBER OF ATOMS") fail("expected NUMBER OF ATOMS"); state = 3; next }
    state == 3 { n = $1 + 0; state = 4; next }
    state == 4 { if ($0 !~ /^ITEM: BOX BOUNDS/) fail("expected BOX BOUNDS"); tri = ($4 == "xy"); state = 5; b = 0; next }
    state == 5 { if (NF != (tri ? 3 : 2)) fail("bounds"); lo[b] = $1; hi[b] = $2; t[b] = tri ? $3 : 0; if (++b == 3) state = 6; next }
    state == 6 { if ($1 != "ITEM:" || $2 != "ATOMS") fail("expected ATOMS"); nf = NF - 2; for (k = 3; k <= NF; k++) c[$k] = k - 2; state = (n ? 7 : 0); r = 0; blocks++
                 # the box: undo the bounding-box convention of tilted boxes
                 xy = t[0]; xz = t[1]; yz = t[2]
                 mn = 0; if (xy < mn) mn = xy; if (xz < mn) mn = xz; if (xy + xz < mn) mn = xy + xz
                 mx = 0; if (xy > mx) mx = xy; if (xz > mx) mx = xz; if (xy + xz > mx) mx = xy + xz
                 xlo = lo[0] - mn; lx = hi[0] - mx - xlo
                 ylo = lo[1] - (yz < 0 ? yz : 0); ly = hi[1] - (yz > 0 ? yz : 0) - ylo
                 zlo = lo[2]; lz = hi[2] - lo[2]; out = 0; next }
    state == 7 { if (NF != nf) fail(NF " fields, not " nf)
                 z = ($c["z"] - zlo) / lz; y = ($c["y"] - ylo - yz * z) / ly; x = ($c["x"] - xlo - xy * y - xz * z) / lx
                 if (-x > out) out = -x; if (x - 1 > out) out = x - 1; if (-y > out) out = -y; if (y - 1 > out) out = y - 1
                 if (-z > out) out = -z; if (z - 1 > out) out = z - 1
                 if (++r == n) state = 0; next }
    END { if (bad) exit 1; if (state != 0) { print "dump: cut short" > "/dev/stderr"; exit 1 }
          printf "%d %.17g %.17g %.17g %.17g %.17g %.17g %.3g\n", blocks, lx, ly, lz, xy, xz, yz, out }'
}

@test "--lammps-dump: LAMMPS' dump grammar; the box is the cell (tilted when sheared, turned back when rotated)" {
    dem-pack --lattice fcc --cells 3,2,2 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    a=$(awk 'BEGIN { printf "%.17g", 2 * sqrt(2) * 0.001 }')
    # rectangular: the box is the cell, pp pp pp, positions as dem-probe --particles prints them
    dem-probe --lammps-dump fcc.dem > rect.dump
    read -r blocks lx ly lz xy xz yz out < <(dump_check < rect.dump)
    [ "$blocks" -eq 1 ] && awk -v l="$lx" -v a="$a" 'BEGIN { exit !((l - 3 * a) ^ 2 < 1e-30) }'
    grep -q "^ITEM: BOX BOUNDS pp pp pp$" rect.dump
    [ "$(sed -n 10p rect.dump | cut -d' ' -f5-7)" = "$(dem-probe --particles fcc.dem | awk -F'\t' 'NR == 2 { print $5, $6, $7 }')" ]
    # sheared: tilted, xy = F12 ly, every atom inside the tilted box
    dem-step -q -n 200 --every 100 --normal hooke --kn 1e5 --dt 1e-6 --tangential none --cell-rate xy=500 fcc.dem > sh.dem
    dem-probe --lammps-dump sh.dem > sh.dump
    read -r blocks lx ly lz xy xz yz out < <(dump_check < sh.dump)
    [ "$blocks" -eq 2 ]
    grep -q "^ITEM: BOX BOUNDS xy xz yz pp pp pp$" sh.dump
    awk -v xy="$xy" -v ly="$ly" -v o="$out" 'BEGIN { g = 500 * 200e-6; exit !((xy / ly - g) ^ 2 < 1e-20 && o < 1e-12) }'
    # turned by a quarter turn about z: LAMMPS' box is the crystal's own again (lx = 3 cells, ly = 2)
    W=$(awk 'BEGIN { printf "%.17g", 3.14159265358979323846 / 2 / (100 * 1e-6) }')
    dem-step -q -n 100 --normal hooke --kn 1e5 --dt 1e-6 --tangential none --cell-rate "xy=-$W,yx=$W" fcc.dem > rot.dem
    read -r blocks lx ly lz xy xz yz out < <(dem-probe --lammps-dump rot.dem | dump_check)
    awk -v lx="$lx" -v ly="$ly" -v xy="$xy" -v a="$a" -v o="$out" \
        'BEGIN { exit !((lx - 3 * a) ^ 2 < 1e-24 && (ly - 2 * a) ^ 2 < 1e-24 && xy * xy < 1e-24 && o < 1e-9) }'
    # without a cell: the particles' bounding box, ff ff ff, no image columns
    dem-pack --lattice sc --cells 2,1,1 --radius 0.5 | dem-probe --lammps-dump > plain.dump
    grep -q "^ITEM: BOX BOUNDS ff ff ff$" plain.dump
    grep -q "^ITEM: ATOMS id type mass radius x y z vx vy vz omegax omegay omegaz fx fy fz$" plain.dump
    [ "$(sed -n 6p plain.dump)" = "0 2" ]
    dump_check < plain.dump > /dev/null
}

@test "dem-probe --profile bins each contact once: 100 000 slices of a 108-sphere crystal in seconds, not minutes (issue 29)" {
    dem-pack --lattice fcc --cells 3,3,3 --radius 0.001 --periodic lattice > fcc.dem
    L=$(dem-probe --cell fcc.dem | col h11[m])
    dem-probe --particles fcc.dem | awk -F'\t' 'NR == 1 { print "x\ty\tz\tr" } NR > 1 { print $5 "\t" $6 "\t" $7 "\t0.00101" }' > c.tsv
    dem-pack --from c.tsv --periodic 0,0,0,$L,$L,$L | dem-step -q -n 1 --normal hooke --kn 1e3 > comp.dem
    # before: a stress assembly over every contact and particle per slice (over 2 minutes)
    timeout 60 dem-probe --profile x --bins 100000 comp.dem > p.tsv
    [ "$(wc -l < p.tsv)" -eq 100001 ]
    # each slice's stress is dem-stress --box over that slice, bit for bit: 6 slices, whose edges
    # pass through contact points (those count in both neighbours)
    dem-probe --profile x --bins 6 comp.dem > six.tsv
    for b in 0 3 5; do
        lo=$(col lo[m] < six.tsv | sed -n "$((b + 1))p")
        hi=$(col hi[m] < six.tsv | sed -n "$((b + 1))p")
        [ "$(col sxx[Pa] < six.tsv | sed -n "$((b + 1))p")" = "$(dem-stress --box $lo,0,0,$hi,$L,$L comp.dem | col sxx[Pa])" ]
        [ "$(col szz[Pa] < six.tsv | sed -n "$((b + 1))p")" = "$(dem-stress --box $lo,0,0,$hi,$L,$L comp.dem | col szz[Pa])" ]
    done
}
