# The oedometric compression forward and reversed (Hanley 2019, §3.2.2, Fig. 3).
# Usage: gnuplot -e "dir='out'; tol=0.01" plot.gp
set terminal pngcairo size 1000,1100 font ",11"
set output dir."/oedometer.png"
set datafile separator "\t"
set multiplot layout 3,1 title "Oedometric compression of 400 frictionless spheres without dissipation, forward and reversed in time"
set grid
set key center left opaque
set xlabel "upper platen displacement [mm]"
set ylabel "platen force [N]"
plot dir."/forward.tsv" using ($3*1e3):5 skip 1 with lines lw 2 lc rgb "#1f77b4" title "upper platen, forward", \
     dir."/reversed.tsv" using ($3*1e3):5 skip 1 every 2 with points pt 6 ps 0.6 lc rgb "#d62728" title "upper platen, reversed", \
     dir."/forward.tsv" using ($3*1e3):4 skip 1 with lines lw 2 lc rgb "#2ca02c" title "lower platen, forward", \
     dir."/reversed.tsv" using ($3*1e3):4 skip 1 every 2 with points pt 6 ps 0.6 lc rgb "#ff7f0e" title "lower platen, reversed"
set key top left
set ylabel "solid fraction"
set y2label "kinetic energy [mJ]"
set y2tics
set ytics nomirror
plot dir."/forward.tsv" using ($3*1e3):6 skip 1 with lines lw 2 lc rgb "#1f77b4" title "solid fraction, forward", \
     dir."/reversed.tsv" using ($3*1e3):6 skip 1 every 4 with points pt 6 ps 0.6 lc rgb "#d62728" title "solid fraction, reversed", \
     dir."/forward.tsv" using ($3*1e3):($7*1e3) skip 1 axes x1y2 with lines lw 1 lc rgb "#7f7f7f" title "kinetic energy, forward", \
     dir."/reversed.tsv" every 4 using ($3*1e3):($7*1e3) skip 1 axes x1y2 with points pt 1 ps 0.5 lc rgb "black" title "kinetic energy, reversed"
unset y2label
set key top right
unset y2tics
set ytics mirror
set ylabel "|F_{rev} - F_{fwd}| / peak force"
set logscale y
set format y "10^{%T}"
plot dir."/compare.tsv" using ($2*1e3):($8 > 0 ? $8 : 1/0) skip 1 with linespoints pt 7 ps 0.4 lc rgb "#1f77b4" title "upper platen", \
     dir."/compare.tsv" using ($2*1e3):($7 > 0 ? $7 : 1/0) skip 1 with linespoints pt 7 ps 0.4 lc rgb "#2ca02c" title "lower platen", \
     tol with lines dt 2 lc rgb "red" title "tolerance"
unset multiplot
