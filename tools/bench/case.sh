# case.sh - the dem-step benchmark cases, sourced by step.sh, compare.sh and lammps/run.sh.
#
# A settling case: 20 000 equal glass-like spheres poured at random into a walled box fall
# under gravity and settle into a bed (Hertz-Mindlin contacts with friction and restitution
# damping, six plane walls). Two timed cases continue from two states of that run
# (BENCH_CASE):
#   settled  (default) the dense, contact-rich bed at the end of the warm-up (42 000 contacts,
#            coordination 4.2, and 2200 sphere-wall contacts), where real runs spend most steps
#   pour     the column 0.05 s after release (POUR_STEPS warm-up steps): the lower part
#            packing on the floor, the upper part still falling onto it, contacts forming and
#            breaking (14 000 contacts, coordination 1.4, 1000 sphere-wall contacts), the
#            neighbour list rebuilt often
#   replica  the settled bed tiled TILE_X x TILE_Y (default 4 x 2: 160 000 spheres in a
#            10 cm x 5 cm x 5.6 cm walled box), without contact history: the same physics
#            per particle as settled on 8 times the data, so that its cost per particle-step
#            against settled's measures the cache cliff (REPLICA_STEPS steps, default 300)
#
# Parameters (SI). Every one may be overridden from the environment (BENCH_N=5000 make step);
# the cached state is keyed on all of them, so a change builds a new state.
#   N, R          spheres and their radius: 20 000 x 0.5 mm
#   BOX           the walled box x0,y0,z0,x1,y1,z1: 2.5 cm x 2.5 cm x 5.6 cm, solid fraction
#                 0.30 when poured (a 10 cm tall box would give 0.17)
#   RHO, NU       2500 kg/m^3, 0.25 (glass)
#   E             Young's modulus 5e7 Pa instead of glass's 7e10 Pa: softer contacts (as is
#                 common in DEM) allow a 38x longer time step (the p-wave step r sqrt(rho/E)
#                 is 3.5e-6 s instead of 9.4e-8 s); overlaps in the bed stay below 0.5% of
#                 the radius
#   MU, EREST     sliding friction 0.5, normal coefficient of restitution 0.9
#   G             gravity, m/s^2, along -z
#   SKIN          neighbour skin 1e-4 m = dem-step's default (0.2 of the radius), given
#                 explicitly to both codes
#   DT            time step of the timed run, 1e-6 s = tc/54 (Hertz collision time at 1 m/s,
#                 5.4e-5 s) = 0.28 of the p-wave step
#   STEPS         steps of the timed run (2 ms of physical time)
#   WARM_DT, WARM_STEPS
#                 the warm-up that builds the bed: 0.1 s at 2e-6 s (tc/27) from rest, enough
#                 for the whole column to land; not timed
#   POUR_STEPS    warm-up steps to the pour state (25 000: 0.05 s, the lower half of the column
#                 packed, the upper half still falling onto it)
#   SEED          dem-pack's seed
# shellcheck disable=SC2034 # the variables are used by the scripts that source this file
# BENCH_WARM_THREADS (default 1) threads for the warm-up: the state is the same bits for any.
BENCH_DIR=${BENCH_DIR:-$(cd "$(dirname "$0")" && pwd)}
TOP=${TOP:-$(cd "$BENCH_DIR/../.." && pwd)}

N=${BENCH_N:-20000}
R=${BENCH_R:-5e-4}
X0=0 Y0=0 Z0=0
X1=${BENCH_X1:-0.025}
Y1=${BENCH_Y1:-0.025}
Z1=${BENCH_Z1:-0.056}
RHO=${BENCH_RHO:-2500}
E=${BENCH_E:-5e7}
NU=${BENCH_NU:-0.25}
MU=${BENCH_MU:-0.5}
EREST=${BENCH_EREST:-0.9}
G=${BENCH_G:-9.81}
SKIN=${BENCH_SKIN:-1e-4}
DT=${BENCH_DT:-1e-6}
STEPS=${BENCH_STEPS:-2000}
WARM_DT=${BENCH_WARM_DT:-2e-6}
WARM_STEPS=${BENCH_WARM_STEPS:-50000}
POUR_STEPS=${BENCH_POUR_STEPS:-25000}
SEED=${BENCH_SEED:-1}
BOX=$X0,$Y0,$Z0,$X1,$Y1,$Z1
CASE=${BENCH_CASE:-settled}
case $CASE in
settled | pour | replica) ;;
*) echo "case.sh: BENCH_CASE must be settled, pour or replica, not '$CASE'" >&2; exit 2 ;;
esac
TILE_X=${BENCH_TILE_X:-4}
TILE_Y=${BENCH_TILE_Y:-2}
# The settled bed's own size, box and key, which the replica is made from.
BASE_N=$N BASE_X1=$X1 BASE_Y1=$Y1 BASE_BOX=$BOX

# Where the settled state is kept between runs (gitignored).
CACHE=${BENCH_CACHE:-$BENCH_DIR/cache}

# The dem-step options of the timed run, all explicit but the integrator (step.sh times
# --integrator vv, the standard velocity-Verlet of LAMMPS' fix nve/sphere, and dem-step's
# default vv-improved): the contact law (Hertz normal force, Mindlin tangential spring with
# history and Coulomb cap, restitution dashpots), gravity, skin, time step.
DEM_STEP_OPTS="--normal hertz --tangential history --damping restitution --gravity 0,0,-$G --skin $SKIN --dt $DT"

# The state key: every parameter that shapes the settled bed.
case_key()
{
    echo "dem-bench-1 $N $R $BOX $RHO $E $NU $MU $EREST $G $SKIN $WARM_DT $WARM_STEPS $SEED" | cksum | cut -d' ' -f1
}

BASE_KEY=$(case_key)
if [ "$CASE" = replica ]; then
    N=$((N * TILE_X * TILE_Y))
    X1=$(awk -v a="$X1" -v k="$TILE_X" 'BEGIN { printf "%.17g", a * k }')
    Y1=$(awk -v a="$Y1" -v k="$TILE_Y" 'BEGIN { printf "%.17g", a * k }')
    BOX=$X0,$Y0,$Z0,$X1,$Y1,$Z1
    STEPS=${BENCH_REPLICA_STEPS:-300}
fi

# Seconds since the epoch with nanoseconds.
# bench_work SCRIPT: the programs a case needs (dem-pack, dem-step, dem-probe, strip_history), built,
# copied into a fresh directory $WORK, removed when SCRIPT exits: every run of it times that copy.
bench_work()
{
    for p in dem-pack dem-step dem-probe; do
        [ -x "$TOP/bin/$p" ] || { echo "$1: $TOP/bin/$p missing: run make first" >&2; exit 1; }
    done
    [ -x "$BENCH_DIR/strip_history" ] || { echo "$1: $BENCH_DIR/strip_history missing: make -C tools/bench strip_history" >&2; exit 1; }
    WORK=$(mktemp -d "/tmp/dem-bench-${1%.sh}.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT INT TERM
    cp "$TOP/bin/dem-pack" "$TOP/bin/dem-step" "$TOP/bin/dem-probe" "$BENCH_DIR/strip_history" "$WORK/"
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# Print the path of the state of case CASE, building it first if it is not cached. $1:
# directory holding the dem-pack, dem-step and strip_history to build it with. The pour state
# is the warm-up stopped after POUR_STEPS steps (dem-step continues bit for bit, so the settled
# state is the same whether or not the run stopped there); both are stored without contact
# history, so that LAMMPS and dem-step start from the same information.
case_state()
{
    bin=$1
    [ "$CASE" = replica ] && { replica_state "$bin"; return; }
    if [ "$CASE" = pour ]; then
        state=$CACHE/pour-$(case_key)-$POUR_STEPS.dem steps=$POUR_STEPS
    else
        state=$CACHE/state-$(case_key).dem steps=$WARM_STEPS
    fi
    if [ -s "$state" ]; then
        echo "$state"
        return 0
    fi
    mkdir -p "$CACHE"
    tmp=$CACHE/.build-$$
    echo "# building the $CASE state once (cached as $state): $steps warm-up steps of $N spheres, a few minutes" >&2
    t0=$(now)
    "$bin/dem-pack" --random "$N" --box "$BOX" --radius "$R" --density "$RHO" --young "$E" --poisson "$NU" \
        --friction "$MU" --restitution "$EREST" --enclose --seed "$SEED" > "$tmp.packed" || { rm -f "$tmp".*; return 1; }
    "$bin/dem-step" -q -n "$steps" --threads "${BENCH_WARM_THREADS:-1}" --integrator vv --normal hertz --tangential history --damping restitution \
        --gravity "0,0,-$G" --skin "$SKIN" --dt "$WARM_DT" "$tmp.packed" > "$tmp.warm" || { rm -f "$tmp".*; return 1; }
    { "$bin/strip_history" < "$tmp.warm" > "$tmp.state" && "$bin/dem-probe" "$tmp.warm" > "$state.summary" 2> /dev/null; } ||
        { rm -f "$tmp".*; return 1; }
    mv "$tmp.state" "$state"
    rm -f "$tmp.packed" "$tmp.warm"
    echo "# state built in $(elapsed "$t0" "$(now)") s" >&2
    echo "$state"
}

# The replica: the settled state's particles (positions, velocities, spins) copied TILE_X x
# TILE_Y times side by side, shifted by whole widths of the box, renumbered, in the box of that
# size with the same six walls and material. Printed as case_state prints.
replica_state()
{
    bin=$1
    state=$CACHE/replica-$BASE_KEY-${TILE_X}x$TILE_Y.dem
    if [ -s "$state" ]; then
        echo "$state"
        return 0
    fi
    base=$(CASE=settled N=$BASE_N X1=$BASE_X1 Y1=$BASE_Y1 BOX=$BASE_BOX; case_state "$bin") || return 1
    tmp=$CACHE/.replica-$$
    echo "# building the replica state once (cached as $state): the settled bed tiled ${TILE_X}x$TILE_Y" >&2
    "$bin/dem-probe" --particles --last "$base" 2> /dev/null |
        awk -F'\t' -v tx="$TILE_X" -v ty="$TILE_Y" -v lx="$BASE_X1" -v ly="$BASE_Y1" '
        NR == 1 {
            for (k = 1; k <= NF; k++) { name = $k; sub(/\[.*/, "", name); col[name] = k }
            print "id\tx\ty\tz\tr\tvx\tvy\tvz\twx\twy\twz"
            next
        }
        { row[++n] = $0 }
        END {
            id = 0
            for (ix = 0; ix < tx; ix++)
                for (iy = 0; iy < ty; iy++)
                    for (k = 1; k <= n; k++) {
                        split(row[k], f, "\t")
                        printf "%d\t%.17g\t%.17g\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ++id,
                            f[col["x"]] + ix * lx, f[col["y"]] + iy * ly, f[col["z"]], f[col["r"]],
                            f[col["vx"]], f[col["vy"]], f[col["vz"]], f[col["wx"]], f[col["wy"]], f[col["wz"]]
                    }
        }' > "$tmp.tsv" || { rm -f "$tmp".*; return 1; }
    "$bin/dem-pack" --from "$tmp.tsv" --density "$RHO" --young "$E" --poisson "$NU" --friction "$MU" --restitution "$EREST" \
        --wall "x=$X0" --wall "x=$X1" --wall "y=$Y0" --wall "y=$Y1" --wall "z=$Z0" --wall "z=$Z1" > "$tmp.dem" ||
        { rm -f "$tmp".*; return 1; }
    mv "$tmp.dem" "$state"
    rm -f "$tmp.tsv"
    echo "$state"
}
