#!/bin/sh
# demo.sh - the main job on a default case (`make demo`): pack systems, run them with dem-step,
# and summarise them with dem-probe.
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
out=build/demo
mkdir -p "$out"

echo "== 1. An fcc crystal of 864 touching glass spheres (r = 1 mm) in its periodic cell"
echo "   dem-pack --lattice fcc --cells 6,6,6 --radius 0.001 --periodic lattice | dem-probe"
dem-pack --lattice fcc --cells 6,6,6 --radius 0.001 --periodic lattice > "$out/fcc.dem"
dem-probe "$out/fcc.dem"
echo "   (solid fraction of touching fcc spheres: pi/sqrt(18) = 0.74048)"
echo

echo "== 2. Pour 1000 soft spheres (r = 0.4 mm, E = 5 MPa) into a walled box and let them settle"
echo "   dem-pack --random 1000 --box 0,0,0,0.01,0.01,0.03 --radius 4e-4 --young 5e6 --enclose --seed 2 |"
echo "   dem-step --gravity 0,0,-9.81 --time 1 --every-time 0.02 --local-damping 0.2 --until unbalanced=1e-2 |"
echo "   tee settle.dem | dem-probe"
dem-pack --random 1000 --box 0,0,0,0.01,0.01,0.03 --radius 4e-4 --young 5e6 --enclose --seed 2 |
    dem-step --gravity 0,0,-9.81 --time 1 --every-time 0.02 --local-damping 0.2 --until unbalanced=1e-2 |
    tee "$out/settle.dem" | dem-probe
echo "   (the spheres fall, touch the floor and each other: contacts and coordination rise; the run"
echo "    stops when the unbalanced-force ratio is below 1e-2: the bed is settled)"
echo

echo "== 3. The first particles of the last frame, and a VTK series of the run for ParaView"
dem-probe --particles --last --ids 1-5 "$out/settle.dem"
dem-probe --vtk "$out/vtk" "$out/settle.dem"
echo "   wrote $out/vtk/particles.pvd (open it in ParaView; Glyph by radius draws the spheres)"
echo

echo "== 4. A hand-written two-particle experiment: an elastic head-on collision swaps the velocities"
printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.005\t0.1\n2\t0.0105\t0\t0\t0.005\t-0.1\n' > "$out/two.tsv"
cat "$out/two.tsv"
echo "   dem-pack --from two.tsv | dem-step --time 0.005 --damping none --tangential none | dem-probe --particles"
dem-pack --from "$out/two.tsv" | dem-step -q --time 0.005 --damping none --tangential none | dem-probe --particles | cut -f4-8
echo

echo "== 5. Back in time: the collision of 4., run forwards, then backwards with dem-reverse"
echo "   dem-pack --from two.tsv | dem-step --time 0.005 ... | dem-reverse --time 0.005 | dem-probe --particles"
dem-pack --from "$out/two.tsv" | dem-step -q --time 0.005 --damping none --tangential none |
    dem-reverse --time 0.005 | dem-probe --particles | cut -f3-8
echo "   and bit for bit in the exact (fixed-point) mode, however many threads:"
dem-pack --from "$out/two.tsv" | dem-step -q --exact --time 0 --damping none --tangential none > "$out/start.dem"
dem-step -q --time 0.005 "$out/start.dem" | dem-reverse -q --time 0.005 --threads 2 > "$out/back.dem"
dem-probe --particles "$out/start.dem" | cut -f4- | sort -n > "$out/start.tsv"
dem-probe --particles "$out/back.dem" | cut -f4- | sort -n > "$out/back.tsv"
if cmp -s "$out/start.tsv" "$out/back.tsv"; then echo "   the same bits: positions, velocities and forces"
else echo "   DIFFERENT: the exact reversal failed"; exit 1; fi
echo

echo "== 6. The stress the contacts carry in the settled packing (compression positive, Pa)"
echo "   dem-stress --box 0,0,0,0.01,0.01,0.004 --every 2 settle.dem    (the lowest 4 mm)"
dem-stress --box 0,0,0,0.01,0.01,0.004 --every 2 "$out/settle.dem" | cut -f1-3,11-17
echo "   dem-stress --walls --last settle.dem    (the floor, wall 4, carries the weight)"
dem-stress --walls --last "$out/settle.dem" | cut -f4-9
echo

echo "== 7. The energy budget of the settling run"
echo "   dem-energy settle.dem | cut -f1-4,6,9-12,16,17,24"
dem-energy "$out/settle.dem" | cut -f1-4,6,9-12,16,17,24
echo "   (residual = e_initial + W - (E + D) + e_ahead: energy the integration lost (> 0) or created (< 0);"
echo "    here about 1e-4 of the energy released, shrinking as dt^2; work_law, the last column: what Mindlin's stiffness change put in)"
echo
