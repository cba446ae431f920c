# plot.gp - the dimer packing's solid fraction and contacts per dimer, seed by seed, dem beside
# LAMMPS fix rigid/small (examples/clumps/lammps). Called with dem=, lmp=, mu= and out= (the Makefile).
set terminal pngcairo size 1000,500
set output out
set multiplot layout 1,2 title sprintf("2000 dimers (aspect ratio 1.5, μ = %g) poured and settled: dem and LAMMPS, seed by seed", mu)
set datafile separator "\t"
set key below
set xlabel "seed"
set xrange [0.5:3.5]
set xtics 1
sel(m, v) = (abs(m - mu) < 1e-9 ? v : NaN)
set ylabel "solid fraction of the measuring slab φ (-)"
plot lmp skip 1 using ($2 - 0.05):(sel($1, $7)) with points pt 7 ps 1.5 title "LAMMPS fix rigid/small", \
     dem skip 1 using ($2 + 0.05):(sel($1, $7)) with points pt 5 ps 1.5 title "dem"
set ylabel "contact points per dimer z (-)"
plot lmp skip 1 using ($2 - 0.05):(sel($1, $8)) with points pt 7 ps 1.5 title "LAMMPS fix rigid/small", \
     dem skip 1 using ($2 + 0.05):(sel($1, $8)) with points pt 5 ps 1.5 title "dem"
unset multiplot
