# plot.gp - the distribution of the dimers' axes, |cos| of their angle with the vertical, as placed
# (isotropic: a flat density of 1) and settled. Called with in= and out= (the Makefile).
set terminal pngcairo size 800,560
set output out
set xlabel "|cos θ|, θ the angle between a dimer's axis and the vertical (-)"
set ylabel "probability density (-)"
set yrange [0:*]
set key top right
set title "400 dimers (aspect ratio 1.5, μ = 0.5) poured into a box"
plot in using 1:2 with linespoints title "placed at random", \
     in using 1:3 with linespoints title "settled", \
     1 with lines dashtype 2 title "isotropic"
