# plot.gp - the figures of examples/variational (gnuplot -e "dir='out'" plot.gp)
set terminal pngcairo size 1000,700 noenhanced
set datafile separator "\t"
set key top right
set grid

# Fig 6: kinetic energy of sphere 2, h = tc/160, vv and the variational integrator
set output dir."/fig6.png"
unset title
set multiplot layout 2,2 title "De Klerk et al. 2022, Fig 6: kinetic energy of sphere 2, h = tc/160"
do for [c in "dy=0,gamma=0 dy=0,gamma=0.02 dy=0.00020000000000000001,gamma=0 dy=0.00020000000000000001,gamma=0.02"] {
    set title c
    set xlabel "t [s]"; set ylabel "kinetic energy [J]"
    plot dir."/fig6.tsv" using (strcol(1) eq c ? $2 : NaN):3 with lines lw 3 title "vv", \
         "" using (strcol(1) eq c ? $2 : NaN):4 with lines dt 2 lw 2 title "variational 1/2", \
         "" using (strcol(1) eq c ? $2 : NaN):5 with lines lw 1 title "rotational, gamma_t = gamma_n/2"
}
unset multiplot

# Fig 8: against the corrected analytic solution
set output dir."/fig8.png"
set title "De Klerk et al. 2022, Fig 8: head-on damped impact, h = tc/160, against Vyas et al. 2025, eqs 33-34"
set xlabel "t [s]"; set ylabel "kinetic energy of sphere 2 [J]"
plot dir."/fig8.tsv" using 1:2 with lines lw 4 title "analytic", "" using 1:3 with lines lw 2 title "vv", "" using 1:4 with lines dt 2 lw 2 title "variational 1/2"

# Fig 9: errors of the bonded oscillator against h
set output dir."/fig9.png"
unset title
set multiplot layout 1,3 title "De Klerk et al. 2022, Fig 9: bonded oscillator, RMS errors over t = 30 sqrt(m/k)"
set logscale xy
set xlabel "h [sqrt(m/k)]"
set format y "%.0e"
do for [i=3:5] {
    set ylabel (i == 3 ? "position error / amplitude" : i == 4 ? "velocity error / v" : "energy error / E")
    plot dir."/fig9.tsv" using (strcol(2) eq "vv" ? $1 : NaN):i with linespoints title "vv", \
         "" using (strcol(2) eq "alpha0" ? $1 : NaN):i with linespoints title "alpha 0", \
         "" using (strcol(2) eq "alpha05" ? $1 : NaN):i with linespoints title "alpha 1/2"
}
unset multiplot
unset logscale
set format y "%g"

# Fig 10: energy error of the sphere between walls
set output dir."/fig10.png"
unset title
set multiplot layout 1,2 title "De Klerk et al. 2022, Fig 10: one sphere between walls 1.01 d apart, 250 bounces"
set logscale xy
set xlabel "h [tc]"; set ylabel "RMS energy error / E0"
plot dir."/fig10.tsv" using (strcol(2) eq "vv" ? 1/$1 : NaN):3 with linespoints title "vv", \
     "" using (strcol(2) eq "alpha0" ? 1/$1 : NaN):3 with linespoints title "alpha 0", \
     "" using (strcol(2) eq "alpha05" ? 1/$1 : NaN):3 with linespoints title "alpha 1/2"
unset logscale
set xlabel "t [s]"; set ylabel "(E - E0) / E0 at h = tc/160"
plot dir."/fig10b.tsv" using (strcol(1) eq "vv" ? $2 : NaN):3 with lines title "vv", \
     "" using (strcol(1) eq "alpha0" ? $2 : NaN):3 with lines title "alpha 0", \
     "" using (strcol(1) eq "alpha05" ? $2 : NaN):3 with lines title "alpha 1/2"
unset multiplot

# Fig 11: forces of the bond 1-2 and the contact 1-3
set output dir."/fig11.png"
set title "De Klerk et al. 2022, Fig 11: a bonded pair (kb = 4k) hit by a third sphere"
set xlabel "t [s]"; set ylabel "|force| [N]"
plot dir."/fig11.tsv" using (strcol(2) eq "vv" ? $1 : NaN):3 with lines lw 3 title "bond 1-2, vv", \
     "" using (strcol(2) eq "alpha05" ? $1 : NaN):3 with lines dt 2 lw 2 title "bond 1-2, variational 1/2", \
     "" using (strcol(2) eq "vv" ? $1 : NaN):4 with lines lw 3 title "contact 1-3, vv", \
     "" using (strcol(2) eq "alpha05" ? $1 : NaN):4 with lines dt 2 lw 2 title "contact 1-3, variational 1/2"

# Fig 12: settling in a box
set output dir."/fig12.png"
unset title
set multiplot layout 1,2 title "De Klerk et al. 2022, Fig 12: 218 spheres settling under gravity"
set logscale y
set xlabel "t [s]"; set ylabel "mean kinetic energy per particle (eq 35) [J]"
plot dir."/fig12.tsv" using (strcol(1) eq "vv" ? $2 : NaN):3 with lines lw 3 title "vv", \
     "" using (strcol(1) eq "alpha05" ? $2 : NaN):3 with lines dt 2 lw 2 title "variational 1/2"
set ylabel "velocity fluctuation (eq 36) [m^2/s^2]"
plot dir."/fig12.tsv" using (strcol(1) eq "vv" ? $2 : NaN):4 with lines lw 3 title "vv", \
     "" using (strcol(1) eq "alpha05" ? $2 : NaN):4 with lines dt 2 lw 2 title "variational 1/2"
unset multiplot
