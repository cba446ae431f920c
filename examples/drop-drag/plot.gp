# Velocity against time of the three drag-damped drops (Hanley, seed 000, Fig. 6, forward time).
# Usage: gnuplot -e "dir='out'; vt=-0.00981" plot.gp
set terminal pngcairo size 1000,1000 font ",11"
set output dir."/velocity.png"
set datafile separator "\t"
set multiplot layout 4,1 title "Sphere dropped on a plane with drag damping, {/Symbol g}_d = 0.99999, dt = 10 ns (Hanley §5.2)"
set grid
set ylabel "v_z [mm/s]"
set xrange [0:80]
set yrange [-11:11]
set key top right
do for [c in "a b c"] {
    title = c eq "a" ? "A: gap 20 {/Symbol m}m, 50 ms" : c eq "b" ? "B: gap 20 {/Symbol m}m, 80 ms" : "C: gap 300 {/Symbol m}m, 80 ms"
    plot dir."/".c."-velocity.tsv" using ($1*1e3):($3*1e3) skip 1 with lines lw 2 lc rgb "#1f77b4" title title, \
         vt*1e3 with lines dt 2 lc rgb "red" title "g dt/(1-{/Symbol g}_d)"
}
set xlabel "time [ms]"
set ylabel "|v_z| [m/s]"
set logscale y
set format y "10^{%T}"
set yrange [1e-14:1e-1]
plot dir."/a-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 3 lc rgb "#1f77b4" title "A", \
     dir."/b-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 1 lc rgb "#ff7f0e" title "B", \
     dir."/c-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 1 lc rgb "#2ca02c" title "C"
unset multiplot
