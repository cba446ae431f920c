#!/bin/sh
# run-seed.sh SEED - pour and settle one seed of the 2000-dimer packing (the Makefile's recipe, kept
# in one place so that the seeds can run in parallel): out/pour-SEED.dem (placed, falling), out/fall-SEED.dem
# (0.6 s of pouring), out/settled-SEED.dem (on until the kinetic energy is below 1e-12 J in all),
# out/time-SEED.tsv (wall-clock seconds of dem-step). BIN and the material come from the Makefile.
set -eu
s=$1
: "${BIN:=../../bin}" "${OUT:=out}"
mkdir -p "$OUT"
CELL="--periodic 0,0,0,0.024,0.024,0.2 --periodic-axes xy --wall z=0 --radius 1e-3 --clump dimer"
MAT="--young 1e8 --poisson 0.25 --friction ${MU:-0.5} --restitution 0.5 --density 2500"
# 2000 dimers at random positions and orientations, no overlaps, in the slab 20R < z < 190R of the
# 24R x 24R cross-section periodic in x and y, above a floor at z = 0 (out/placed-SEED.dem, at rest)
"$BIN"/dem-pack --random 2000 --box 0,0,0.02,0.024,0.024,0.19 $CELL $MAT --seed "$s" > "$OUT/placed-$s.dem"
# as LAMMPS' fix pour does, each falling at the speed it would have gained falling from the top of
# the slab, vz = -sqrt(2 g (190R - z)) at its centre of mass (FROM_REST=1: all at rest instead)
"$BIN"/dem-probe --clumps "$OUT/placed-$s.dem" | awk -F'\t' -v OFS='\t' -v rest="${FROM_REST:-0}" '
    NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; print "x", "y", "z", "q0", "q1", "q2", "q3", "vz"; next }
    { print $c["x[m]"], $c["y[m]"], $c["z[m]"], $c["q0"], $c["q1"], $c["q2"], $c["q3"],
            rest ? 0 : sprintf("%.17g", -sqrt(2 * 9.81 * (0.19 - $c["z[m]"]))) }' > "$OUT/start-$s.tsv"
"$BIN"/dem-pack --from "$OUT/start-$s.tsv" $CELL $MAT > "$OUT/pour-$s.dem"
t0=$(date +%s)
"$BIN"/dem-step -q --progress 60 --gravity 0,0,-9.81 --normal hertz --tangential history --damping restitution --dt 4e-6 \
    --time 0.6 -o "$OUT/fall-$s.dem" "$OUT/pour-$s.dem"
# 1e-12 J over 2000 bodies: 5e-16 J per clump (dem-step's ke counts a clump once); at most 2.4 s more
"$BIN"/dem-step -q --progress 60 --time 2.4 --until ke=5e-16 -o "$OUT/settled-$s.dem" "$OUT/fall-$s.dem"
t1=$(date +%s)
printf '%s\t%s\n' "$s" "$((t1 - t0))" > "$OUT/time-$s.tsv"
