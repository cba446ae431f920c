# loop.gp - the JKR force-overlap loop of a collision at 1.5 V_s against the analytic curve,
# with the jumps of the hysteresis: the neck forms at delta = 0 (F: 0 -> -4/3 pi gamma R*) and
# breaks at delta_c = -3 a_c^2 / R* (F: -5/6 pi gamma R* -> 0). DMT pulled apart for comparison.
set terminal pngcairo size 900,600
set output out
set datafile separator "\t"
set key top left
set xlabel "overlap delta [um]"
set ylabel "normal force F [mN] (> 0 repulsive)"
set title "JKR: collision at 1.5 V_s (gamma = 1 J/m^2, E = 10 MPa, R* = 0.5 mm)"
set grid
g = 1.0; rs = 5e-4; es = 1e7 / (2 * (1 - 0.0625))
ac = (pi * g * rs**2 / (8 * es))**(1.0/3); dc = -3 * ac**2 / rs
set arrow 1 from 0, 0 to 0, -4.0/3 * pi * g * rs * 1e3 lw 2 lc rgb "dark-green"
set arrow 2 from dc * 1e6, -5.0/6 * pi * g * rs * 1e3 to dc * 1e6, 0 lw 2 lc rgb "dark-green"
set arrow 3 from -6, 0 to 0, 0 nohead lw 2 lc rgb "dark-green"
set label 1 "neck forms" at 0.2, -1.0 tc rgb "dark-green"
set label 2 "neck breaks at delta_c" at dc * 1e6 - 1.7, -0.5 tc rgb "dark-green"
plot dir."/loop.tsv" using ($2*1e6):($3*1e3) every ::1 with points pt 7 ps 0.6 lc rgb "blue" title "dem-step --normal jkr (every 2nd step)", \
     dir."/jkr.tsv" using ($2*1e6):($3*1e3) every ::1 with lines lw 1 lc rgb "black" title "JKR, analytic (parametric in the contact radius a)", \
     dir."/pulloff.tsv" using ($2*1e6):(strcol(1) eq "dmt" ? $3*1e3 : 1/0) every ::1 with lines lw 2 lc rgb "red" title "dmt, pulled apart: Hertz - 2 pi gamma R*"
