# Parts A and B: theta(t), |omega|(t) and the radial offset of the fine sphere (Vyas et al. 2025, Figs 2-4),
# improved and standard velocity-Verlet against the rigid-body solution.
# Usage: gnuplot -e "dir='out'; tsep=0.14479" trajectory.gp   (tsep: the analytic separation time)
set terminal pngcairo size 1000,1000 font ",11"
set output dir."/trajectory.png"
set datafile separator "\t"
set multiplot layout 3,1 title "Fine sphere (r = 0.25 mm) rolling off two large spheres (R = 5 mm), {/Symbol m} = 0.5, {/Symbol q}_0 = 1°"
set grid
set key left center
set xrange [0:0.3]
set arrow 1 from tsep, graph 0 to tsep, graph 1 nohead dt 3 lc rgb "black"
set label 1 "analytic separation" at tsep, graph 0.95 offset 1,0
set ylabel "{/Symbol q} [rad] (unwrapped)"
plot dir."/a-analytic.tsv" using 1:2 skip 1 with lines lw 4 lc rgb "#999999" title "rigid-body solution (eqs 39, 45, then free flight)", \
     dir."/a-improved.tsv" using 1:3 skip 1 with lines lw 2 lc rgb "#1f77b4" title "DEM, vv-improved", \
     dir."/a-vv.tsv" using 1:3 skip 1 with lines lw 2 lc rgb "#d62728" title "DEM, standard vv (trapped)", \
     pi/2 with lines dt 2 lc rgb "black" title "90°"
set key left top
set ylabel "|{/Symbol w}| [rad/s]"
plot dir."/a-analytic.tsv" using 1:3 skip 1 with lines lw 4 lc rgb "#999999" title "rigid-body solution", \
     dir."/a-improved.tsv" using 1:4 skip 1 with lines lw 2 lc rgb "#1f77b4" title "DEM, vv-improved", \
     dir."/a-vv.tsv" using 1:4 skip 1 with lines lw 2 lc rgb "#d62728" title "DEM, standard vv"
set xlabel "time [s]"
set ylabel "radial offset [nm]"
set key left bottom
set yrange [-25:2]
plot dir."/a-improved.tsv" using 1:($7*1e9) skip 1 with lines lw 2 lc rgb "#1f77b4" title "vv-improved (leaves the groove at separation)", \
     dir."/a-vv.tsv" using 1:($7*1e9) skip 1 with lines lw 2 lc rgb "#d62728" title "standard vv (sinks deeper into the groove)"
unset multiplot
