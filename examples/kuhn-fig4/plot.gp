# examples/kuhn-fig4: the turn of a sliding force against the movement across it (Kuhn et al. 2020, Fig. 4).
# Usage: gnuplot -e "dir='out'" plot.gp
set terminal pngcairo size 900,600 font ",11"
set output dir."/kuhn-fig4.png"
set datafile separator "\t"
set title "A force at its friction limit moved across itself in one step (Kuhn et al. 2020, Fig. 4)"
set xlabel "movement across the force, m = k_t |Δu| / (μ f_n)"
set ylabel "angle the force turns [rad]"
set grid
set key bottom right
gd(m) = 2 * atan(tanh(m / 2))
plot gd(x) with lines lw 6 lc rgb "#cccccc" title "gd(m) = 2 atan(tanh(m/2)), closed form (19)", \
     dir."/fig4.tsv" using 1:3 skip 1 with lines lw 2 lc rgb "#2ca02c" title "RK4 of the rate equations", \
     dir."/fig4.tsv" using 1:2 skip 1 with points pt 7 ps 0.8 lc rgb "#1f77b4" title "--tangential kuhn", \
     dir."/fig4.tsv" using 1:4 skip 1 with points pt 6 ps 0.8 lc rgb "#d62728" title "--tangential history (add and project: atan m)", \
     pi / 2 dt 2 lc rgb "black" title "π/2: along the movement"
