# Momentum components of A and B against time (Hanley 2019, Fig. 1).
# Usage: gnuplot -e "data='out/momentum.tsv'; out='out/momentum.png'" plot.gp
set terminal pngcairo size 1000,620 font ",11"
set output out
set datafile separator "\t"
set key outside right center
set xlabel "time [ms]"
set ylabel "momentum [10^{-4} kg m/s]"
set title "Two-particle collision (Hanley §3.2.1): Hertz, frictionless, undamped, dt = 100 ns"
set grid
s = 1e4
plot data using ($1*1e3):($2*s) skip 1 with lines lw 3 lc rgb "#1f77b4" title "A, x", \
     data using ($1*1e3):($3*s) skip 1 with lines lw 3 lc rgb "#ff7f0e" title "A, y", \
     data using ($1*1e3):($4*s) skip 1 with lines lw 3 lc rgb "#2ca02c" title "A, z", \
     data using ($1*1e3):($5*s) skip 1 with lines lw 2 dt 2 lc rgb "#d62728" title "B, x", \
     data using ($1*1e3):($6*s) skip 1 with lines lw 2 dt 2 lc rgb "#9467bd" title "B, y", \
     data using ($1*1e3):($7*s) skip 1 with lines lw 2 dt 2 lc rgb "#8c564b" title "B, z", \
     data using ($1*1e3):($8*s) skip 1 with lines lw 1 lc rgb "black" title "A+B, x"
