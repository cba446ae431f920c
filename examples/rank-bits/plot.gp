# plot.gp - each code's largest distance between a sphere's positions on K ranks and on one process,
# in sphere diameters, against time (gnuplot -e "data='...'; out='...'; d=DIAMETER; lammps='yes' or ''").
set terminal pngcairo size 900,560 font ",11"
set output out
set datafile separator "\t"
set datafile missing "NA"
set logscale y
set format y "10^{%L}"
set yrange [1e-16:10]
set xlabel "time t [s]"
set ylabel "largest |x_K - x_1| / d   [sphere diameters]"
set title "The same column on K ranks: distance from the one-process run"
set key top left
set label 1 "dem-step-mpi on 2, 3, 4 ranks: 0 at every frame (the same bytes)" at graph 0.03, graph 0.06 textcolor rgb "#1b7837"
if (lammps eq "") {
    set label 2 "LAMMPS not installed" at graph 0.5, graph 0.5 center
    plot NaN notitle
} else {
    plot data using 2:(column("lammps_2_ranks[m]") > 0 ? column("lammps_2_ranks[m]") / d : NaN) with linespoints pt 7 ps 0.5 lw 2 title "LAMMPS (pair granular), 2 ranks", \
         data using 2:(column("lammps_4_ranks[m]") > 0 ? column("lammps_4_ranks[m]") / d : NaN) with linespoints pt 5 ps 0.5 lw 2 title "LAMMPS (pair granular), 4 ranks"
}
