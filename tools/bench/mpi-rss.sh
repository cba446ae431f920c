#!/bin/sh
# mpi-rss.sh - what each rank of dem-step-mpi holds in memory through a run: its resident set
# sampled every 3 s (the last sample before the run ends is printed: the state after the start,
# when the store is slim), and each rank's peak (/usr/bin/time -f %M).
#
# Usage: tools/bench/mpi-rss.sh FRAME [RANKS [STEPS [BIN]]]
#   RANKS default 4, STEPS 300, BIN the checkout's bin/ (make MPI=1); the run is
#   mpirun --oversubscribe -np RANKS dem-step-mpi -q -n STEPS --dt 2e-6 -o /dev/null FRAME
# Give it a run long enough for a few samples (tens of seconds).
set -eu
[ $# -ge 1 ] || { echo "usage: mpi-rss.sh FRAME [RANKS [STEPS [BIN]]]" >&2; exit 2; }
F=$1; NP=${2:-4}; N=${3:-300}; B=${4:-$(cd "$(dirname "$0")/../.." && pwd)/bin}
[ -x "$B/dem-step-mpi" ] || { echo "mpi-rss.sh: no $B/dem-step-mpi (make MPI=1)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "mpi-rss.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np "$NP" sh -c "/usr/bin/time -f 'peak %M kB' '$B/dem-step-mpi' -q -n $N --dt 2e-6 -o /dev/null '$F'" 2>&1 &
last=""
while sleep 3; do
    s=$(ps -C dem-step-mpi -o rss= | tr -s ' \n' ' ')
    [ -n "$s" ] || break
    last=$s
done
echo "each rank late in the run:$last kB"
wait
