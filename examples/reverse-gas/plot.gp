# The reversal error of a floating-point gas against the number of steps each way.
# Usage: gnuplot -e "dir='out'" plot.gp
set terminal pngcairo size 1200,650 font ",11"
set output dir."/reverse-gas.png"
set datafile separator "\t"
set multiplot layout 1,2 title "1000 frictionless elastic spheres in a box: forward N steps, then dem-reverse N steps (floating point;\nexact mode comes back bit for bit at N = 100 000)"
set grid
set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "steps each way N (dt = 5 {/Symbol m}s)"
set ylabel "error after N forward + N reversed steps"
set key top left
set yrange [1e-19:1e3]
plot dir."/errors.tsv" using 1:($3 > 0 ? $3 : 1/0) skip 1 with linespoints lw 2 pt 7 title "max |x_{back} - x_0| / d", \
     "" using 1:($4 > 0 ? $4 : 1/0) skip 1 with linespoints lw 1 pt 6 title "rms |x_{back} - x_0| / d", \
     "" using 1:($5 > 0 ? $5 : 1/0) skip 1 with linespoints lw 2 pt 5 title "max |v_{back} - v_0| / v_{rms}", \
     "" using 1:($6 > 0 ? $6 : 1/0) skip 1 with linespoints lw 1 pt 4 title "rms |v_{back} - v_0| / v_{rms}", \
     15 with lines dt 2 lc rgb "gray" title "box size (15 d)", \
     1.1e-16 with lines dt 3 lc rgb "black" title "2^{-53}"
# the same on a linear N axis: exponential growth is a straight line
unset logscale x
set format x "%g"
set xrange [0:30000]
set xlabel "steps each way N"
set key bottom right
plot dir."/errors.tsv" using 1:($3 > 0 ? $3 : 1/0) skip 1 with linespoints lw 2 pt 7 title "max |x_{back} - x_0| / d", \
     "" using 1:($5 > 0 ? $5 : 1/0) skip 1 with linespoints lw 2 pt 5 title "max |v_{back} - v_0| / v_{rms}", \
     15 with lines dt 2 lc rgb "gray" title "box size (15 d)"
unset multiplot
