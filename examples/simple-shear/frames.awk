# frames.awk - joins, frame by frame, dem-stress, dem-probe (summary), dem-probe --cell and
# dem-energy of the compressed packing followed by the shear run, into one table:
# gamma = RATE (t - t0), the shear strain (dv_x/dy = RATE integrated over time), the stresses, the stress ratio
# -sigma_xy / sigma_yy, solid fraction, coordination, h12/h11 (the cell's lean, which jumps back
# at a flip), the cell's work, the dissipation and the books' residual (J).
BEGIN { FS = OFS = "\t" }
FNR == 1 { file++; for (k = 1; k <= NF; k++) col[file, $k] = k; next }
function v(name) { return $col[file, name] }
file == 1 { n1++; SXX[n1] = v("sxx[Pa]"); SYY[n1] = v("syy[Pa]"); SZZ[n1] = v("szz[Pa]"); SXY[n1] = v("sxy[Pa]"); next }
file == 2 { n2++; PHI[n2] = v("solid_fraction"); Z[n2] = v("coordination"); next }
file == 3 { n3++; G[n3] = v("f12"); LEAN[n3] = v("h12[m]") / v("h11[m]"); T[n3] = v("time[s]"); next }
file == 4 { n4++; W[n4] = v("work_cell[J]"); R[n4] = v("residual[J]")
            D[n4] = v("ediss_friction[J]") + v("ediss_damp_n[J]") + v("ediss_damp_t[J]") + v("ediss_local[J]"); next }
END {
    if (n1 != n2 || n1 != n3 || n1 != n4 || n1 < 2) { print "frames.awk: the tables disagree: " n1 ", " n2 ", " n3 ", " n4 " frames" > "/dev/stderr"; exit 1 }
    print "frame", "time[s]", "gamma", "sxx[Pa]", "syy[Pa]", "szz[Pa]", "sxy[Pa]", "ratio", "solid_fraction", "coordination", "lean", "work_cell[J]", "dissipated[J]", "residual[J]"
    # frame 1 is the compressed packing, where the shear starts
    for (k = 1; k <= n1; k++)
        print k - 1, T[k], RATE * (T[k] - T[1]), SXX[k], SYY[k], SZZ[k], SXY[k], -SXY[k] / SYY[k], PHI[k], Z[k], LEAN[k], W[k], D[k], R[k]
}
