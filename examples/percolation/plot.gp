# plot.gp - out/percolation.png: (a) the fraction of fines still in the bed against time, (b) the
# fines' depth distribution at the end (Fig. 14), (c) the trapped fraction against the friction
# coefficient with mu_c(20) (equations.md §1.4). gnuplot -e "dir='out'; top=...; muc=..." plot.gp
set terminal pngcairo size 1500,480 font ",11"
set output dir.'/percolation.png'
set datafile separator '\t'
set key autotitle columnhead
set multiplot layout 1,3
set title 'fines in the bed (centre above its bottom)'
set xlabel 'time t [s]'
set ylabel 'fraction of the fines'
set yrange [0:1.05]
plot dir.'/frames-vv.tsv' using 1:5 with linespoints lw 2 title 'vv', \
     dir.'/frames-vv-improved.tsv' using 1:5 with linespoints lw 2 title 'vv-improved'
set title 'depth distribution of the fines at the end'
set xlabel 'fraction of the fines per 0.5 mm'
set ylabel 'height z [mm] (bed: 0 to top)'
set autoscale x
set yrange [-20:top*1000 + 2]
set arrow 1 from graph 0, first top*1000 to graph 1, first top*1000 nohead dt 2
set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead dt 2
plot dir.'/depth-vv.tsv' using 2:($1*1000) with steps lw 2 title 'vv', \
     dir.'/depth-vv-improved.tsv' using 2:($1*1000) with steps lw 2 title 'vv-improved'
unset arrow
set title 'trapped fraction against friction (size ratio 20)'
set xlabel 'friction coefficient {/Symbol m}'
set ylabel 'fraction of the fines trapped at the end'
set autoscale y
set yrange [0:*]
set arrow 3 from muc, graph 0 to muc, graph 1 nohead dt 3
set label 3 sprintf(' {/Symbol m}_c(20) = %.3f', muc) at muc, graph 0.92
plot dir.'/sweep.tsv' using ((strcol(1) eq 'vv') ? $2 : NaN):7 with linespoints lw 2 pt 7 title 'vv', \
     dir.'/sweep.tsv' using ((strcol(1) eq 'vv-improved') ? $2 : NaN):7 with linespoints lw 2 pt 5 title 'vv-improved'
unset multiplot
