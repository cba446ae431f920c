# Velocity against time of the three drag-damped drops (Hanley 2019, Fig. 6), forward in time
# (dem-step) and reversed from the last frame (dem-reverse).
# Usage: gnuplot -e "dir='out'; vt=-0.00981; tol=1e-4" plot.gp
set terminal pngcairo size 1000,1250 font ",11"
set output dir."/velocity.png"
set datafile separator "\t"
set multiplot layout 5,1 title "Sphere dropped on a plane with drag damping, {/Symbol g}_d = 0.99999, dt = 10 ns (Hanley §5.2), forward and reversed"
set grid
set ylabel "v_z [mm/s]"
set xrange [0:80]
set yrange [-11:11]
set key top right
do for [c in "a b c"] {
    title = c eq "a" ? "A: gap 20 {/Symbol m}m, 50 ms" : c eq "b" ? "B: gap 20 {/Symbol m}m, 80 ms" : "C: gap 300 {/Symbol m}m, 80 ms"
    plot dir."/".c."-velocity.tsv" using ($1*1e3):($3*1e3) skip 1 with lines lw 2 lc rgb "#1f77b4" title title." forward", \
         dir."/".c."-reversed-velocity.tsv" using ($1*1e3):($5*1e3) skip 1 with lines lw 1 dt 2 lc rgb "#d62728" title "reversed", \
         vt*1e3 with lines dt 3 lc rgb "gray" title "g dt/(1-{/Symbol g}_d)"
}
set ylabel "|v_z| [m/s]"
set logscale y
set format y "10^{%T}"
set yrange [1e-14:1e-1]
plot dir."/a-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 3 lc rgb "#1f77b4" title "A forward", \
     dir."/b-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 1 lc rgb "#ff7f0e" title "B forward", \
     dir."/c-velocity.tsv" using ($1*1e3):(abs($3)) skip 1 with lines lw 1 lc rgb "#2ca02c" title "C forward"
set xlabel "time [ms]"
set ylabel "|v_{rev} - v_{fwd}| / peak |v|"
set yrange [1e-16:1e10]
set key bottom right
plot dir."/a-reversed-velocity.tsv" using ($1*1e3):($6 > 0 ? $6 : 1/0) skip 1 with lines lw 2 lc rgb "#1f77b4" title "A", \
     dir."/b-reversed-velocity.tsv" using ($1*1e3):($6 > 0 ? $6 : 1/0) skip 1 with lines lw 2 lc rgb "#ff7f0e" title "B", \
     dir."/c-reversed-velocity.tsv" using ($1*1e3):($6 > 0 ? $6 : 1/0) skip 1 with lines lw 2 lc rgb "#2ca02c" title "C", \
     tol with lines dt 2 lc rgb "red" title "tolerance for A"
unset multiplot
