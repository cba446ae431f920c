# examples/rigid-rotation: the deviation of the stress turned back from the unturned stress, by carry.
# Usage: gnuplot -e "dir='out'" plot.gp
set terminal pngcairo size 900,550 font ",11"
set output dir."/rigid-rotation.png"
set datafile separator "\t"
set title "A loaded assembly (q/p = 0.8) turned rigidly by 90° in 1000 steps: stress turned back vs unturned"
set style data histogram
set style fill solid 0.8 border -1
set boxwidth 0.8
set logscale y
set format y "10^{%T}"
set yrange [1e-9:1]
set ylabel "largest |Δσ_{ij}| / σ_{zz}"
set xlabel "how the tangential history is carried (dem-step --carry)"
set grid y
set bmargin 5
set xlabel offset 0,-1
set key top left
plot dir."/tensors.tsv" using ($9 > 0 ? $9 : 1/0):xtic(sprintf("%s\n%s", stringcolumn(1), substr(stringcolumn(2), 9, 30))) every ::2 skip 1 lc rgb "#1f77b4" title "deviation", \
     1e-4 with lines dt 2 lc rgb "#2ca02c" title "below: coincides", 1e-3 with lines dt 2 lc rgb "red" title "above: does not"
