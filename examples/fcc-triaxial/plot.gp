# The FCC triaxial test (Hanley 2019, §3.2.3, Fig. 4), forward and reversed.
# Usage: gnuplot -e "dir='out'" plot.gp
set terminal pngcairo size 1000,1000 font ",11"
set output dir."/fcc-triaxial.png"
set datafile separator "\t"
set multiplot layout 2,1 title "Drained triaxial compression of a 128-sphere FCC crystal at 150 kPa lateral stress"
set grid
set xlabel "axial strain -ε_{zz} [10^{-4}]"
set ylabel "σ_{zz}/σ_{xx} (axial / confining)"
set key bottom right opaque
set xrange [0:*]
set yrange [1:4.2]
plot 2 dt 2 lc rgb "#1f77b4" notitle, 2*1.1/0.9 dt 2 lc rgb "#2ca02c" notitle, 2*1.3/0.7 dt 2 lc rgb "#d62728" title "2(1+μ)/(1-μ)", \
     dir."/tri-0.tsv" using (-$2*1e4):6 skip 1 with lines lw 2 lc rgb "#1f77b4" title "μ = 0, forward", \
     dir."/path.tsv" using (-$3*1e4):5 skip 1 every 4 with points pt 6 ps 0.7 lc rgb "black" title "μ = 0, reversed", \
     dir."/tri-0.1.tsv" using (-$2*1e4):6 skip 1 with lines lw 2 lc rgb "#2ca02c" title "μ = 0.1", \
     dir."/tri-0.3.tsv" using (-$2*1e4):6 skip 1 with lines lw 2 lc rgb "#d62728" title "μ = 0.3", \
     dir."/long-0.tsv" using (-$2*1e4):6 skip 1 with lines lw 1 dt 3 lc rgb "#1f77b4" title "μ = 0, continued"
set ylabel "coordination number"
set yrange [7.5:12.5]
set key top right
plot dir."/tri-0.tsv" using (-$2*1e4):7 skip 1 with lines lw 2 lc rgb "#1f77b4" title "μ = 0, forward", \
     dir."/path.tsv" using (-$3*1e4):7 skip 1 every 4 with points pt 6 ps 0.7 lc rgb "black" title "μ = 0, reversed", \
     dir."/tri-0.1.tsv" using (-$2*1e4):7 skip 1 with lines lw 2 lc rgb "#2ca02c" title "μ = 0.1", \
     dir."/tri-0.3.tsv" using (-$2*1e4):7 skip 1 with lines lw 2 lc rgb "#d62728" title "μ = 0.3", \
     dir."/long-0.tsv" using (-$2*1e4):7 skip 1 with lines lw 1 dt 3 lc rgb "#1f77b4" title "μ = 0, continued"
unset multiplot
