#!/bin/sh
# run-seed.sh SEED - pour and settle one seed of the 2000-dimer packing (the Makefile's recipe, kept
# in one place so that the seeds can run in parallel): out/fall-SEED.dem (0.6 s of pouring),
# out/settled-SEED.dem (on until the kinetic energy is below 1e-12 J in all), out/time-SEED.tsv
# (wall-clock seconds of dem-step). BIN, OUT, MU, POUR and SETTLE (the longest settling after the
# 0.6 s of pouring, s; default 2.4) come from the Makefile. POUR:
#   fixpour (default): as LAMMPS' fix pour inserts them in examples/clumps/lammps: 1040 dimers at
#     random positions and orientations without overlaps in the slab 20R < z < 190R, each falling
#     at the speed of a fall from the top of the slab, vz = -sqrt(2 g (190R - z)); after 0.18616 s
#     (the time to fall through the slab from rest at its top: fix pour's next insertion) the other
#     960 likewise, placed among the first batch's dimers still in the slab;
#   once: all 2000 at once in the slab at that speed;  rest: all 2000 at once, at rest.
set -eu
s=$1
: "${BIN:=../../bin}" "${OUT:=out}" "${POUR:=fixpour}"
mkdir -p "$OUT"
CELL="--periodic 0,0,0,0.024,0.024,0.2 --periodic-axes xy --wall z=0 --radius 1e-3 --clump dimer"
MAT="--young 1e8 --poisson 0.25 --friction ${MU:-0.5} --restitution 0.5 --density 2500"
LAW="--gravity 0,0,-9.81 --normal hertz --tangential history --damping restitution --dt 4e-6"
SLAB="--box 0,0,0.02,0.024,0.024,0.19"
# FRAME N0 REST -> a table of the frame's clumps (pose, velocities) in which those with id > N0 fall
# at fix pour's speed (REST=1: at rest); dem-pack --from TABLE --clump dimer rebuilds the frame
speeds() {
    "$BIN"/dem-probe --clumps --last "$1" | awk -F'\t' -v OFS='\t' -v n0="$2" -v rest="$3" '
        NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k
                  print "x", "y", "z", "q0", "q1", "q2", "q3", "vx", "vy", "vz", "wx", "wy", "wz"; next }
        { vz = $c["id"] <= n0 ? $c["vz[m/s]"] : rest ? 0 : sprintf("%.17g", -sqrt(2 * 9.81 * (0.19 - $c["z[m]"])))
          print $c["x[m]"], $c["y[m]"], $c["z[m]"], $c["q0"], $c["q1"], $c["q2"], $c["q3"],
                $c["vx[m/s]"], $c["vy[m/s]"], vz, $c["wx[rad/s]"], $c["wy[rad/s]"], $c["wz[rad/s]"] }'
}
t0=$(date +%s)
case $POUR in
fixpour)
    "$BIN"/dem-pack --random 1040 $SLAB $CELL $MAT --seed "$s" > "$OUT/placed-$s.dem"
    speeds "$OUT/placed-$s.dem" 0 0 > "$OUT/start-$s.tsv"
    "$BIN"/dem-pack --from "$OUT/start-$s.tsv" $CELL $MAT > "$OUT/pour-$s.dem"
    "$BIN"/dem-step -q $LAW --time 0.18616 -o "$OUT/batch1-$s.dem" "$OUT/pour-$s.dem"
    # the second batch: placed among the first's dimers, then the frame rebuilt from its clumps'
    # poses and velocities (the first batch's few contact histories at that instant are dropped)
    "$BIN"/dem-pack --from "$OUT/batch1-$s.dem" --insert 960 $SLAB --radius 1e-3 --clump dimer \
        --seed "$((s + 100))" > "$OUT/placed2-$s.dem"
    speeds "$OUT/placed2-$s.dem" 1040 0 > "$OUT/start2-$s.tsv"
    "$BIN"/dem-pack --from "$OUT/start2-$s.tsv" $CELL $MAT > "$OUT/pour2-$s.dem"
    "$BIN"/dem-step -q --progress 60 $LAW --time 0.41384 -o "$OUT/fall-$s.dem" "$OUT/pour2-$s.dem" ;;
once|rest)
    "$BIN"/dem-pack --random 2000 $SLAB $CELL $MAT --seed "$s" > "$OUT/placed-$s.dem"
    speeds "$OUT/placed-$s.dem" 0 "$([ "$POUR" = rest ] && echo 1 || echo 0)" > "$OUT/start-$s.tsv"
    "$BIN"/dem-pack --from "$OUT/start-$s.tsv" $CELL $MAT > "$OUT/pour-$s.dem"
    "$BIN"/dem-step -q --progress 60 $LAW --time 0.6 -o "$OUT/fall-$s.dem" "$OUT/pour-$s.dem" ;;
*)  echo "run-seed.sh: POUR=$POUR: fixpour, once or rest" >&2; exit 2 ;;
esac
# 1e-12 J over 2000 bodies: 5e-16 J per clump (dem-step's ke counts a clump once); at most SETTLE s more
"$BIN"/dem-step -q --progress 60 --time "${SETTLE:-2.4}" --until ke=5e-16 -o "$OUT/settled-$s.dem" "$OUT/fall-$s.dem"
t1=$(date +%s)
printf '%s\t%s\n' "$s" "$((t1 - t0))" > "$OUT/time-$s.tsv"
