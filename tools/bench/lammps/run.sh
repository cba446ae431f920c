#!/bin/sh
# run.sh - run the benchmark case in LAMMPS from a dem state and time it.
#
# Usage: tools/bench/lammps/run.sh STATE.dem OUTDIR [NP [STYLE]]
#
# Converts the last frame of STATE.dem (dem-probe --particles, dem2lammps.awk) into
# OUTDIR/data.settle, runs in.settle (STYLE granular, the default: pair granular, the same law
# as dem-step's term by term) or in.settle-classic (STYLE classic: gran/hertz/history, LAMMPS'
# fastest granular style, the same springs and a dashpot matched at one overlap) with the case's
# parameters (../case.sh) on NP MPI processes (default 1: lmp directly; more: mpirun -np NP
# lmp), and prints one TSV row
#   code threads particles steps wall[s] loop[s] ns_per_particle_step
# (code lammps or lammps-classic, with :mpi for NP > 1)
# with wall = the whole lmp process and loop = LAMMPS' "Loop time", the best of BENCH_REPEAT
# runs (default 1). The final particles are
# left in OUTDIR/lammps-TAG.tsv (dem-probe --particles columns), the log in OUTDIR/log.TAG, TAG
# npNP (granular) or classic-npNP. BENCH_DUMP_EVERY=K (default 0: none) also writes the positions
# every K steps, in id order and to the last bit, to OUTDIR/traj.TAG.dump.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_DIR=$(cd "$HERE/.." && pwd)
. "$BENCH_DIR/case.sh"

[ $# -ge 2 ] || { echo "usage: run.sh STATE.dem OUTDIR [NP]" >&2; exit 2; }
state=$1 out=$2 np=${3:-1} style=${4:-granular}
case $style in
granular) input=in.settle tag=np$np code=lammps ;;
classic) input=in.settle-classic tag=classic-np$np code=lammps-classic ;;
*) echo "run.sh: STYLE must be granular or classic, not '$style'" >&2; exit 2 ;;
esac
command -v lmp > /dev/null || { echo "run.sh: lmp not found" >&2; exit 1; }
mkdir -p "$out"

# BENCH_LMP_WRAP: a command put before lmp (1 process), e.g. valgrind for instructions.sh.
# tsuji's number for LAMMPS: the e whose polynomial (pair_granular.cpp) equals dem-step's
# damping factor sqrt(5) beta(EREST) (see in.settle), by bisection
etsuji=$(awk -v e="$EREST" 'function a(c) {
        return 1.2728 - 4.2783*c + 11.087*c^2 - 22.348*c^3 + 27.467*c^4 - 18.022*c^5 + 4.8218*c^6 }
    BEGIN {
        pi = atan2(0, -1); le = log(e); target = sqrt(5) * (-le / sqrt(pi * pi + le * le))
        lo = 0.2; hi = 1.0  # a() decreases from 0.49 to 0 on [0.2, 1]
        for (k = 0; k < 200; k++) { mid = (lo + hi) / 2; if (a(mid) > target) lo = mid; else hi = mid }
        printf "%.17g\n", lo }')

# the classic style's gamma_n (1/(m s)): its dashpot m* gamma_n a v_n equal to dem-step's restitution
# dashpot 2 sqrt(5/6) beta sqrt(2 E* m* a) v_n at a = A_REF (in.settle-classic)
gamman=$(awk -v e="$EREST" -v E="$E" -v nu="$NU" -v rho="$RHO" -v r="$R" -v aref="${BENCH_A_REF:-1.2e-5}" 'BEGIN {
        pi = atan2(0, -1); le = log(e); beta = -le / sqrt(pi * pi + le * le)
        estar = E / (2 * (1 - nu * nu)); mstar = 4 / 3 * pi * r^3 * rho / 2
        printf "%.17g\n", 2 * sqrt(5 / 6) * beta * sqrt(2 * estar / (mstar * aref)) }')

"$TOP/bin/dem-probe" --particles --last "$state" |
    awk -f "$HERE/dem2lammps.awk" -v rho="$RHO" -v box="$BOX" > "$out/data.settle"

# shellcheck disable=SC2086 # the wrapper is a command with its options
set -- ${BENCH_LMP_WRAP:-} lmp
if [ "$np" -gt 1 ]; then
    command -v mpirun > /dev/null || { echo "run.sh: mpirun not found" >&2; exit 1; }
    # Open MPI refuses root without these
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    set -- mpirun -np "$np" --oversubscribe lmp
fi
# the best of BENCH_REPEAT runs (default 1), by loop time
best_loop='' best_wall=''
k=0
while [ "$k" -lt "${BENCH_REPEAT:-1}" ]; do
    t0=$(now)
    (cd "$out" && "$@" -nocite -in "$HERE/$input" -log "log.$tag" -screen none \
        -var data data.settle -var steps "$STEPS" -var dt "$DT" -var skin "$SKIN" \
        -var E "$E" -var nu "$NU" -var mu "$MU" -var etsuji "$etsuji" -var gamman "$gamman" -var g "$G" \
        -var x0 "$X0" -var y0 "$Y0" -var z0 "$Z0" -var x1 "$X1" -var y1 "$Y1" -var z1 "$Z1" \
        -var dump "final.$tag.dump" -var every "${BENCH_DUMP_EVERY:-0}" -var traj "traj.$tag.dump") || { echo "run.sh: lmp failed, see $out/log.$tag" >&2; exit 1; }
    wall=$(elapsed "$t0" "$(now)")
    loop=$(awk '/^Loop time of/ { print $4 }' "$out/log.$tag" | tail -n 1)
    [ -n "$loop" ] || { echo "run.sh: no Loop time in $out/log.$tag" >&2; exit 1; }
    if [ -z "$best_loop" ] || awk -v a="$loop" -v b="$best_loop" 'BEGIN { exit !(a < b) }'; then
        best_loop=$loop best_wall=$wall
    fi
    k=$((k + 1))
done
loop=$best_loop wall=$best_wall
atoms=$(awk '/^Loop time of/ { print $(NF - 1) }' "$out/log.$tag" | tail -n 1)
[ "$atoms" = "$N" ] || echo "run.sh: warning: LAMMPS ended with $atoms atoms, not $N" >&2

# the final particles with dem-probe's column names, for aggregate.awk
awk 'BEGIN { OFS = "\t" }
    /^ITEM: ATOMS/ { print "id", "x[m]", "y[m]", "z[m]", "vx[m/s]", "vy[m/s]", "vz[m/s]", "wx[rad/s]", "wy[rad/s]", "wz[rad/s]", "r[m]"; on = 1; next }
    on { $1 = $1; print }' "$out/final.$tag.dump" > "$out/lammps-$tag.tsv"

awk -v code="$code" -v np="$np" -v n="$atoms" -v steps="$STEPS" -v wall="$wall" -v loop="$loop" 'BEGIN {
    printf "%s%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.1f\n", code, (np > 1 ? ":mpi" : ""), np, n, steps, wall, loop, loop / (n * steps) * 1e9 }'
