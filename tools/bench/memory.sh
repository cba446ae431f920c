#!/bin/sh
# memory.sh - peak memory per particle: dem-step and LAMMPS' classic granular style on the
# benchmark's cases (case.sh: the settled bed of 20 000 spheres and its 4x2 replica of 160 000),
# and dem-step on a dense fcc crystal of about 10^6 spheres in a periodic cell (6 neighbour pairs
# a sphere: the contact-store issue's memory case, under 1 KB a sphere wanted).
#
# Usage: tools/bench/memory.sh     (make -C tools/bench memory; a few minutes)
#
# Each figure is the maximum resident set of the whole process (/usr/bin/time -f %M) over its
# particles, so it counts what a run holds at its worst moment: the state read, the neighbour
# list and contact histories, the steps, the frame written.
#   dem-step -q -n 10 --threads 1 (the case's law, as step.sh times it; the crystal with dt 1e-7)
#   LAMMPS: lammps/run.sh in its classic style (gran/hertz/history), one process, the case's steps
# BENCH_FCC_CELLS: the crystal's cells a side (default 63: 4 x 63^3 = 1 000 188 spheres; 30
# gives 108 000 for a quick look). BENCH_CASES: the bench's cases (default "settled replica").
# Prints TSV: case, code, particles, peak[kB], bytes_per_particle; then, with both bench cases,
# the case "marginal": what each particle more costs, (peak of the replica - peak of the bed) /
# (140 000 particles), which leaves out the fixed cost of the program (its code, libraries and
# buffers: tens of MB, most of LAMMPS' figure on the 20 000-sphere bed).
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/case.sh"

[ -x /usr/bin/time ] || { echo "memory.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
bench_work memory.sh

# row CASE CODE N KB: one output line
row() { awk -v c="$1" -v k="$2" -v n="$3" -v kb="$4" 'BEGIN { printf "%s\t%s\t%d\t%d\t%.0f\n", c, k, n, kb, kb * 1024 / n }'; }
particles() { "$WORK/dem-probe" --last "$1" 2> /dev/null | awk -F'\t' 'NR == 2 { print $4 }'; }
# peak_dem STATE ARGS...: the peak resident set (kB) of dem-step ARGS on STATE
peak_dem()
{
    s=$1
    shift
    /usr/bin/time -f %M -o "$WORK/mem" "$WORK/dem-step" -q -n 10 --threads 1 "$@" "$s" > "$WORK/out.dem" 2> "$WORK/err" ||
        { cat "$WORK/err" >&2; exit 1; }
    tail -n 1 "$WORK/mem"
}

printf 'case\tcode\tparticles\tpeak[kB]\tbytes_per_particle\n'
for case in ${BENCH_CASES:-settled replica}; do
    # case.sh's parameters depend on the case: read them again for this one
    state=$(BENCH_CASE=$case BENCH_DIR=$BENCH_DIR TOP=$TOP sh -c '. "$BENCH_DIR/case.sh"; case_state "$1"' sh "$WORK")
    n=$(particles "$state")
    kb=$(peak_dem "$state" $DEM_STEP_OPTS)
    row "$case" dem-step "$n" "$kb"
    echo "$case dem-step $n $kb" >> "$WORK/peaks"
    if command -v lmp > /dev/null; then
        BENCH_CASE=$case BENCH_LMP_WRAP="/usr/bin/time -f %M -o $WORK/lmp.mem" \
            "$BENCH_DIR/lammps/run.sh" "$state" "$WORK/lammps-$case" 1 classic > /dev/null
        kb=$(tail -n 1 "$WORK/lmp.mem")
        row "$case" lammps-classic "$n" "$kb"
        echo "$case lammps-classic $n $kb" >> "$WORK/peaks"
    fi
done
[ -s "$WORK/peaks" ] && awk '$1 == "settled" { n[$2] = $3; k[$2] = $4 } $1 == "replica" { m[$2] = $3; l[$2] = $4 }
    END { for (c in n) if (c in m) printf "marginal\t%s\t%d\t%d\t%.0f\n", c, m[c] - n[c], l[c] - k[c], (l[c] - k[c]) * 1024 / (m[c] - n[c]) }' \
    "$WORK/peaks" | sort

cells=${BENCH_FCC_CELLS:-63}
"$WORK/dem-pack" --lattice fcc --cells "$cells,$cells,$cells" --radius "$R" --periodic lattice > "$WORK/fcc.dem" 2> /dev/null
n=$(particles "$WORK/fcc.dem")
row fcc dem-step "$n" "$(peak_dem "$WORK/fcc.dem" --normal hertz --tangential history --damping restitution --dt 1e-7)"
