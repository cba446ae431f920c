# Simple shear of a dense random packing (examples/simple-shear).
# Usage: gnuplot -e "dir='out'; lo=0.32; hi=0.42" plot.gp
set terminal pngcairo size 1000,1100 font ",11"
set output dir."/simple-shear.png"
set datafile separator "\t"
set multiplot layout 3,1 title "Simple shear of 400 frictional spheres (μ = 0.5) at σ_{yy} = 100 kPa, periodic cell with flips"
set grid
set xlabel "shear strain γ"
set xrange [0:5]
set ylabel "-σ_{xy}/σ_{yy}"
set key top right opaque
plot dir."/shear.tsv" using 3:8 skip 1 with linespoints pt 7 ps 0.4 lw 1.5 lc rgb "#1f77b4" title "stress ratio", \
     lo with lines dt 2 lc rgb "red" title "accepted range (README)", hi with lines dt 2 lc rgb "red" notitle
set ylabel "solid fraction"
set y2label "coordination number"
set y2tics
set ytics nomirror
plot dir."/shear.tsv" using 3:9 skip 1 with lines lw 2 lc rgb "#2ca02c" title "solid fraction", \
     dir."/shear.tsv" using 3:10 skip 1 axes x1y2 with lines lw 1 lc rgb "#7f7f7f" title "coordination (right)"
unset y2label
unset y2tics
set ytics mirror
set ylabel "energy [J]"
set key top left
plot dir."/shear.tsv" using 3:12 skip 1 with lines lw 2 lc rgb "#d62728" title "work of the cell", \
     dir."/shear.tsv" using 3:13 skip 1 with lines lw 2 lc rgb "#9467bd" title "dissipated", \
     dir."/shear.tsv" using 3:(100*$14) skip 1 with lines lw 2 lc rgb "black" title "books' residual × 100"
unset multiplot
