# plot.gp - out/percolation.png: (a) the fraction of fines still in the bed against time, (b) the
# fines in the bed by height at three times (Fig. 14), (c) the trapped fraction against the friction
# coefficient with mu_c(20) (docs/models.md §1.4). gnuplot -e "dir='out'; top=...; muc=..." plot.gp
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
set title 'fines in the bed by height at t = 0.1, 0.2, 0.3 s (Fig. 14)'
set xlabel 'fines per 0.5 mm of height'
set ylabel 'height z above the bed bottom [mm]'
set autoscale x
set logscale x
set xrange [0.8:*]
set yrange [0:top*1000]
plot dir.'/depth-vv.tsv' using 2:($1*1000) with steps lw 2 lc rgb '#1f77b4' title 'vv 0.1 s', \
     dir.'/depth-vv.tsv' using 3:($1*1000) with steps lw 2 lc rgb '#ff7f0e' title 'vv 0.2 s', \
     dir.'/depth-vv.tsv' using 4:($1*1000) with steps lw 3 lc rgb '#d62728' title 'vv 0.3 s', \
     dir.'/depth-vv-improved.tsv' using 2:($1*1000) with steps lw 2 dt 2 lc rgb '#1f77b4' title 'vv-improved 0.1 s', \
     dir.'/depth-vv-improved.tsv' using 3:($1*1000) with steps lw 2 dt 2 lc rgb '#ff7f0e' title 'vv-improved 0.2 s', \
     dir.'/depth-vv-improved.tsv' using 4:($1*1000) with steps lw 3 dt 2 lc rgb '#2ca02c' title 'vv-improved 0.3 s'
unset logscale x
set autoscale x
unset arrow
set title 'trapped fraction against friction (size ratio 20)'
set key left top
set xlabel 'friction coefficient {/Symbol m}'
set ylabel 'fraction of the fines trapped at the end'
set autoscale y
set yrange [0:*]
set arrow 3 from muc, graph 0 to muc, graph 1 nohead dt 3
set label 3 sprintf(' {/Symbol m}_c(20) = %.3f', muc) at muc, graph 0.92
plot dir.'/sweep.tsv' using ((strcol(1) eq 'vv') ? $2 : NaN):7 with linespoints lw 2 pt 7 title 'vv', \
     dir.'/sweep.tsv' using ((strcol(1) eq 'vv-improved') ? $2 : NaN):7 with linespoints lw 2 pt 5 title 'vv-improved'
unset multiplot
