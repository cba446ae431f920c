# restitution.gp - restitution of elastic adhesive (JKR) collisions against Thornton & Ning.
set terminal pngcairo size 900,600
set output out
set datafile separator "\t"
set key bottom right
set xlabel "impact speed v / V_s (V_s: Thornton and Ning 1998 sticking velocity)"
set ylabel "coefficient of restitution e"
set logscale x
set xrange [0.8:6]
set samples 400
set grid
set yrange [-0.05:1.05]
plot (x > 1 ? sqrt(1 - 1 / x**2) : 0) with lines lw 2 lc rgb "gray" title "elastic, energy W_s lost: sqrt(1 - (V_s/v)^2), 0 below V_s", \
     dir."/restitution.tsv" using 1:3 every ::1 with points pt 7 ps 1.2 lc rgb "blue" title "dem-step --normal jkr"
