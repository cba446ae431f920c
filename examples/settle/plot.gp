# The settling run: energies, dissipation by mechanism, budget residual, coordination and stress.
# Usage: gnuplot -e "dir='out'" plot.gp
set terminal pngcairo size 1000,1200 font ",11"
set output dir."/settle.png"
set datafile separator "\t"
set key autotitle columnhead top left
set multiplot layout 4,1 title "400 frictional spheres poured into a box: where the potential energy goes"
set grid
set xrange [0:150]
set format y "%.1t{/Symbol \264}10^{%T}"
set ylabel "energy [J]"
plot dir."/budget.tsv" using ($1*1e3):2 with lines lw 2 title "potential energy released", \
     "" using ($1*1e3):3 with lines lw 2 title "kinetic", \
     "" using ($1*1e3):4 with lines lw 2 title "elastic"
set ylabel "dissipated [J]"
plot dir."/budget.tsv" using ($1*1e3):5 with lines lw 2 title "sliding friction", \
     "" using ($1*1e3):6 with lines lw 2 title "normal dashpot", \
     "" using ($1*1e3):7 with lines lw 2 title "tangential dashpot", \
     "" using ($1*1e3):8 with lines lw 2 title "local damping", \
     "" using ($1*1e3):($5+$6+$7+$8) with lines lw 1 dt 2 lc rgb "black" title "total"
set ylabel "residual / released"
set format y "%g"
plot dir."/budget.tsv" using ($1*1e3):($9/($2 > 0 ? $2 : 1/0)) with lines lw 2 lc rgb "red" title "residual = e_{initial} + W - (E + D)"
set xlabel "time [ms]"
set ylabel "stress [Pa] (z < 4 mm)"
set y2label "coordination"
set y2tics
set ytics nomirror
plot dir."/stress.tsv" using ($3*1e3):"p[Pa]" with lines lw 2 title "p", \
     "" using ($3*1e3):"szz[Pa]" with lines lw 2 title "s_{zz}", \
     "" using ($3*1e3):"q[Pa]" with lines lw 2 title "q", \
     dir."/summary-probe.tsv" using ($3*1e3):"coordination" axes x1y2 with lines lw 2 dt 2 title "coordination (all)"
unset multiplot
