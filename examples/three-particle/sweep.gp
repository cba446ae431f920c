# Part C: trapped/free map of both integrators against mu_c = sqrt(1+2R)/R (Vyas et al. 2025, Fig. 5, eq 21).
# Usage: gnuplot -e "data='out/sweep.tsv'; out='out/sweep-map.png'; u=0.1" sweep.gp
set terminal pngcairo size 1200,560 font ",11"
set output out
set datafile separator "\t"
set multiplot layout 1,2 title "Fine sphere between two large spheres: trapped or free ({/Symbol q}_0 = 10°, dt = 0.5 {/Symbol m}s)"
set grid
set xrange [2:21]
set yrange [0:1.5]
set xlabel "size ratio R/r"
set ylabel "friction coefficient {/Symbol m}"
set key top right
set samples 400
muc(x) = sqrt(1 + 2 * x) / x
do for [integ in "vv vv-improved"] {
    set title integ eq "vv" ? "standard velocity-Verlet" : "improved velocity-Verlet"
    plot muc(x) with lines lw 2 lc rgb "black" title "{/Symbol m}_c = (1+2R)^{1/2}/R (eq 21)", \
         (1 + u) * muc(x) with lines dt 2 lc rgb "#777777" notitle, \
         (1 - u) * muc(x) with lines dt 2 lc rgb "#777777" title sprintf("%.0f%% band (undecided)", 100 * u), \
         data using 2:((strcol(1) eq integ && strcol(5) eq "trapped") ? $3 : NaN) skip 1 with points pt 5 ps 1.6 lc rgb "#d62728" title "trapped", \
         data using 2:((strcol(1) eq integ && strcol(5) eq "free") ? $3 : NaN) skip 1 with points pt 6 ps 1.6 lw 2 lc rgb "#1f77b4" title "free (separates)", \
         data using 2:((strcol(1) eq integ && strcol(5) eq "timeout") ? $3 : NaN) skip 1 with points pt 2 ps 1.6 lc rgb "black" title "timeout"
}
unset multiplot
