# deep.gp - out/deep/deep.png, the deep bed (make deep): (a) the fraction of fines in the bed and
# the fraction trapped against time, both integrators; (b) the fraction trapped above each depth
# (in large diameters) at the end and at half of it: a fine trapped at depth h would be trapped in
# any bed deeper than h, so this is the trapped fraction of a bed that deep.
# gnuplot -e "dir='out/deep'" deep.gp
set terminal pngcairo size 1100,480 font ",11"
set output dir.'/deep.png'
set datafile separator '\t'
set multiplot layout 1,2
set title 'fines in the bed, and trapped (in the bed, touching two bed spheres)'
set xlabel 'time t [s]'
set ylabel 'fraction of the fines'
set logscale y
set yrange [1e-3:1.5]
set key top right
plot dir.'/deep.tsv' using (strcol(1) eq 'vv' ? $2 : NaN):($4/$3) skip 1 with linespoints lw 2 lc 1 title 'vv: in the bed', \
     ''              using (strcol(1) eq 'vv-improved' ? $2 : NaN):($4/$3) skip 1 with linespoints lw 2 lc 2 title 'vv-improved: in the bed', \
     ''              using (strcol(1) eq 'vv' ? $2 : NaN):($7/$3) skip 1 with linespoints lw 2 dt 2 lc 1 title 'vv: trapped', \
     ''              using (strcol(1) eq 'vv-improved' ? $2 : NaN):($7/$3) skip 1 with linespoints lw 2 dt 2 lc 2 title 'vv-improved: trapped'
unset logscale y
set autoscale y
set title 'trapped above a depth: a bed that deep'
set xlabel 'depth below the bed top [large diameters, 4 mm]'
set ylabel 'fraction of the fines trapped'
set key top left
plot dir.'/depth.tsv' using 1:2 with linespoints lw 2 lc 1 title columnhead(2), \
     ''               using 1:3 with linespoints lw 2 lc 2 title columnhead(3), \
     ''               using 1:4 with linespoints lw 1 dt 2 lc 1 title columnhead(4), \
     ''               using 1:5 with linespoints lw 1 dt 2 lc 2 title columnhead(5)
unset multiplot
