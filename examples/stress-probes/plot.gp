# examples/stress-probes: Kuhn's Fig. 5 (Kuhn et al. 2020) - each strain probe a point along its stress
# increment (Rendulic plane, orthonormal basis: v = trace/sqrt 3, q = (2 zz - xx - yy)/sqrt 6,
# compression positive) at radius |plastic strain increment| / |stress increment|, with the circle
# through the origin fitted to the loading points; one panel per steps per probe.
# Usage: gnuplot -e "dir='out'; what='1000 spheres'" plot.gp
set terminal pngcairo size 1500,600 font ",11"
set output dir."/stress-probes.png"
set datafile separator "\t"
set multiplot layout 1,3 title "Stress probes at q/p = 0.8 (".what.", |Δε| = 10^{-6}): plastic |Δε^p| / |Δσ| along Δσ, with the fitted circles (H = 1/diameter)"
set size ratio -1
set grid
set xlabel "along Δσ_v:  |Δε^p|/|Δσ| (1/GPa)"
set ylabel "along Δσ_q:  |Δε^p|/|Δσ| (1/GPa)"
set key below font ",10"
set xzeroaxis lt -1; set yzeroaxis lt -1
do for [S in "10 30 100"] {
    set title S." steps per probe"
    plot dir."/circles.tsv" using (strcol(1) eq "history" && $2 == S ? 1e9 * $3 : 1/0):(1e9 * $4) with lines lc rgb "#d62728" notitle, \
         dir."/circles.tsv" using (strcol(1) eq "kuhn" && $2 == S ? 1e9 * $3 : 1/0):(1e9 * $4) with lines lc rgb "#1f77b4" notitle, \
         dir."/points.tsv" using (strcol(1) eq "history" && $2 == S && $12 == 1 ? 1e9 * $9 : 1/0):(1e9 * $10) every ::1 with points pt 7 ps 0.7 lc rgb "#d62728" title "history, fitted", \
         dir."/points.tsv" using (strcol(1) eq "history" && $2 == S && $12 == 0 ? 1e9 * $9 : 1/0):(1e9 * $10) every ::1 with points pt 6 ps 0.7 lc rgb "#d62728" title "history, unloading", \
         dir."/points.tsv" using (strcol(1) eq "kuhn" && $2 == S && $12 == 1 ? 1e9 * $9 : 1/0):(1e9 * $10) every ::1 with points pt 5 ps 0.5 lc rgb "#1f77b4" title "kuhn, fitted", \
         dir."/points.tsv" using (strcol(1) eq "kuhn" && $2 == S && $12 == 0 ? 1e9 * $9 : 1/0):(1e9 * $10) every ::1 with points pt 4 ps 0.5 lc rgb "#1f77b4" title "kuhn, unloading"
}
unset multiplot
