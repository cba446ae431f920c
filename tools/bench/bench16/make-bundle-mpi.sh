#!/usr/bin/env bash
# make-bundle-mpi.sh - the shared 16-core bundle (../shared/tools/bench16/make-bundle.sh: LAMMPS, Open MPI's
# runtime, dem-pack and dem-step in a chroot tree) with bin/dem-step-mpi added, and the MPI driver beside the
# shared one (issue 31). Run from the project's root after `make` (with libopenmpi-dev installed):
#     tools/bench/bench16/make-bundle-mpi.sh       # writes .bench16/bundle.tar.xz, driver.py, driver_mpi.py
# then on the benchmark machine, from a copy of the project's root that holds .bench16/ (the device tool: carry
# [".bench16"]):
#     mkdir -p /tmp/R && tar -xJf .bench16/bundle.tar.xz -C /tmp/R && OUT=$OUT python3 .bench16/driver.py /tmp/R/root \
#         && OUT=$OUT python3 .bench16/driver_mpi.py /tmp/R/root
# (the shared driver first: it sets the chroot up and measures one process and threads; then ranks, about 6 more
# minutes; RANKS="1 2 4 8 16" and STEPS2 choose). Output: $OUT/bench.log.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shared="$here/../../../../shared/tools/bench16"
[ -x "$shared/make-bundle.sh" ] || { echo "make-bundle-mpi: $shared/make-bundle.sh not found" >&2; exit 1; }
[ -x bin/dem-step-mpi ] || { echo "make-bundle-mpi: no bin/dem-step-mpi: apt-get install libopenmpi-dev, then make" >&2; exit 1; }
"$shared/make-bundle.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
xz -dc .bench16/bundle.tar.xz | tar -C "$work" -xf -
cp bin/dem-step-mpi "$work/root/usr/local/bin/"
# its libraries: Open MPI's are in the bundle already; anything else it links is copied likewise
for lib in $(ldd bin/dem-step-mpi | awk '/=>/ && $3 ~ /^\// {print $3}'); do
    [ -e "$work/root$lib" ] || cp -L --parents "$lib" "$work/root/"
done
tar -C "$work" -cf - root | xz -T0 -6 > .bench16/bundle.tar.xz
cp "$here/driver_mpi.py" .bench16/
echo "make-bundle-mpi: .bench16/bundle.tar.xz $(du -h .bench16/bundle.tar.xz | cut -f1) with dem-step-mpi; .bench16/driver_mpi.py"
