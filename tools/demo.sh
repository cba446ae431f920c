#!/bin/sh
# demo.sh - the main job on a default case (`make demo`): pack systems and summarise them.
# Later programs (dem-step, dem-stress, dem-energy) extend this into a full pipeline.
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

echo "== 2. 3000 spheres, radius uniform in [0.4, 0.6] mm, poured at random into a walled box"
echo "   dem-pack --random 3000 --box 0,0,0,0.02,0.02,0.04 --radius-uniform 4e-4,6e-4 --seed 7 \\"
echo "            --enclose --velocity-random 0.05 | dem-probe"
dem-pack --random 3000 --box 0,0,0,0.02,0.02,0.04 --radius-uniform 4e-4,6e-4 --seed 7 \
         --enclose --velocity-random 0.05 > "$out/box.dem"
dem-probe "$out/box.dem"
echo

echo "== 3. The first particles of that packing, and a VTK series for ParaView"
dem-probe --particles --ids 1-5 "$out/box.dem"
dem-probe --vtk "$out/vtk" "$out/box.dem"
echo "   wrote $out/vtk/particles.pvd (open it in ParaView; Glyph by radius draws the spheres)"
echo

echo "== 4. A hand-written two-particle experiment: TSV in, TSV out, values exact"
printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t0.005\t0.1\n2\t0.0105\t0\t0\t0.005\t-0.1\n' > "$out/two.tsv"
cat "$out/two.tsv"
dem-pack --from "$out/two.tsv" | dem-probe --particles | cut -f4-8
