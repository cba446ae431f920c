# plots.gp - examples/rolling: out/plane.png (rolling velocity on the plane and the spin-down) and
# out/groove.png (the fine sphere's angle in the groove, vv and vv-improved).
set terminal pngcairo size 1000,450
set output dir.'/plane.png'
set multiplot layout 1,2
set xlabel 'time [s]'
set ylabel 'v_x [m/s]'
set title 'rolling on a plane, mu_r = 0.05'
set key top left
plot dir.'/plane-epsd.tsv' u 1:3 w l lw 2 t 'epsd', dir.'/plane-sds.tsv' u 1:3 w l dt 2 lw 2 t 'sds', \
     (v0 - a * x > 0 ? v0 - a * x : 0) w l lc rgb 'black' t 'v_0 - 5 mu_r g t / 7'
set ylabel 'w_z [rad/s]'
set title 'spinning about the normal, marshall'
plot dir.'/spin.tsv' u 1:2 w l lw 2 t 'marshall'
unset multiplot
set output dir.'/groove.png'
set title "Vyas et al. 2025's groove with rolling (sds) and twisting (marshall) resistance"
set ylabel 'theta (unwrapped) [rad]'
set key bottom right
plot dir.'/groove-vv.tsv' u 1:3 w l lw 2 t 'vv', dir.'/groove-vv-improved.tsv' u 1:3 w l lw 2 t 'vv-improved'
