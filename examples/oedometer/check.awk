# check.awk - the reversed oedometric compression against the forward one (Hanley 2019, §3.2.2).
# Files: forward.tsv, reversed.tsv (frames.awk), then dem-probe --particles of the compression's
# initial state and of the reversed run's last frame.
# Variables: STEP (time between frames, s), TOL_F (largest platen-force deviation / forward peak
# force), TOL_PHI (|solid fraction back - initial|), AREA (platen area, m^2), CMP (joined series
# out), SUM (summary out).
# Frames are matched by their time: frame k of the forward run (time t0 + k STEP) against the
# reversed frame of the same time.
function abs(x) { return x < 0 ? -x : x }
# the frame number of time t ("-0" for a time a round-off below t0 would miss frame 0)
function frame_key(t,    k) { k = sprintf("%.0f", (t - t0) / STEP); return k == "-0" ? "0" : k }
BEGIN { FS = OFS = "\t" }
FNR == 1 { file++; for (k = 1; k <= NF; k++) col[file, $k] = k; next }
file == 1 {
    t = $1; if (nf == 0) t0 = t
    k = frame_key(t); key[nf++] = k
    T[k] = t; D[k] = $3; FL[k] = $4; FU[k] = $5; PHI[k] = $6; EK[k] = $7; Z[k] = $8
    if (abs($4) > peak) peak = abs($4)
    if (abs($5) > peak) peak = abs($5)
    last = k
    next
}
file == 2 {
    k = frame_key($1)
    if (k in T) { RL[k] = $4; RU[k] = $5; RPHI[k] = $6; REK[k] = $7; RZ[k] = $8; nrev++ }
    else unmatched++
    next
}
{   # particles: id x y z vx vy vz, r
    id = $col[file, "id"]
    x = $col[file, "x[m]"]; y = $col[file, "y[m]"]; z = $col[file, "z[m]"]
    vx = $col[file, "vx[m/s]"]; vy = $col[file, "vy[m/s]"]; vz = $col[file, "vz[m/s]"]
    if (file == 3) { X[id] = x; Y[id] = y; ZZ[id] = z; VX[id] = vx; VY[id] = vy; VZ[id] = vz; R[id] = $col[file, "r[m]"]; np++; next }
    if (!(id in X)) { missing++; next }
    dx = sqrt((x - X[id])^2 + (y - Y[id])^2 + (z - ZZ[id])^2) / (2 * R[id])
    dv = sqrt((vx - VX[id])^2 + (vy - VY[id])^2 + (vz - VZ[id])^2)
    if (dx > dxmax) dxmax = dx
    if (dv > dvmax) dvmax = dv
    v0 = sqrt(VX[id]^2 + VY[id]^2 + VZ[id]^2); if (v0 > v0max) v0max = v0
    nback++
}
END {
    print "time[s]", "displacement[m]", "f_lower_fwd[N]", "f_lower_rev[N]", "f_upper_fwd[N]", "f_upper_rev[N]", \
          "dev_lower", "dev_upper", "phi_fwd", "phi_rev", "ekin_fwd[J]", "ekin_rev[J]" > CMP
    for (i = 0; i < nf; i++) {
        k = key[i]
        if (!(k in RL)) { if (k != last) nomatch++; continue }
        dl = abs(RL[k] - FL[k]) / peak; du = abs(RU[k] - FU[k]) / peak
        if (dl > dlmax) { dlmax = dl; tl = D[k] }
        if (du > dumax) { dumax = du; tu = D[k] }
        printf "%.17g\t%.17g\t%s\t%s\t%s\t%s\t%.6g\t%.6g\t%s\t%s\t%s\t%s\n", T[k], D[k], FL[k], RL[k], FU[k], RU[k], dl, du, PHI[k], RPHI[k], EK[k], REK[k] > CMP
    }
    close(CMP)
    # frame "0": the initial state, the reversed run's last frame
    dphi = abs(RPHI["0"] - PHI["0"])
    print "check", "measured", "expected" > SUM
    print "frames compared (forward initial .. last-but-one)", nrev, nf - 1 > SUM
    print "platen displacement [mm]", sprintf("%.4g", D[last] * 1e3), "" > SUM
    print "forward: lower / upper platen force at the start [N]", sprintf("%.4g / %.4g", FL["0"], FU["0"]), "Hanley -323 / 318 (900 spheres, larger area)" > SUM
    print "forward: lower / upper platen force at the end [N]", sprintf("%.4g / %.4g", FL[last], FU[last]), "Hanley about -700 / 700" > SUM
    print "forward: pressure on the upper platen, start -> end [kPa]", sprintf("%.3g -> %.3g", FU["0"] / AREA / 1e3, FU[last] / AREA / 1e3), "Hanley about 10 -> 22" > SUM
    print "forward: solid fraction, start -> end", sprintf("%.4f -> %.4f", PHI["0"], PHI[last]), "Hanley 0.606 -> 0.625" > SUM
    print "forward: kinetic energy, start -> end [J]", sprintf("%.3g -> %.3g", EK["0"], EK[last]), "" > SUM
    print "largest |F_rev - F_fwd| / peak force, lower platen", sprintf("%.3g (at %.3g mm)", dlmax, tl * 1e3), "< " TOL_F > SUM
    print "largest |F_rev - F_fwd| / peak force, upper platen", sprintf("%.3g (at %.3g mm)", dumax, tu * 1e3), "< " TOL_F > SUM
    print "peak platen force [N]", sprintf("%.4g", peak), "" > SUM
    print "solid fraction back / initial", sprintf("%.16g / %.16g", RPHI["0"], PHI["0"]), "" > SUM
    print "|solid fraction back - initial|", sprintf("%.3g", dphi), "< " TOL_PHI > SUM
    print "lower / upper platen force back [N]", sprintf("%.6g / %.6g", RL["0"], RU["0"]), sprintf("%.6g / %.6g", FL["0"], FU["0"]) > SUM
    print "coordination back / initial", sprintf("%s / %s", RZ["0"], Z["0"]), "" > SUM
    print "kinetic energy back / initial [J]", sprintf("%.6g / %.6g", REK["0"], EK["0"]), "" > SUM
    print "largest |x_back - x_0| / diameter over " nback " particles", sprintf("%.3g", dxmax), "info" > SUM
    print "largest |v_back - v_0| [m/s] (largest |v_0|)", sprintf("%.3g (%.3g)", dvmax, v0max), "info" > SUM
    close(SUM)
    bad = ""
    if (nrev != nf - 1 || unmatched || nomatch) bad = bad sprintf(" %d of %d frames matched (%d reversed frames unmatched);", nrev, nf - 1, unmatched)
    if (nback != np || missing) bad = bad sprintf(" %d particles back of %d;", nback, np)
    if (!(dlmax < TOL_F && dumax < TOL_F)) bad = bad sprintf(" the reversed platen forces deviate by %.3g (lower) and %.3g (upper) of the peak force (limit %g);", dlmax, dumax, TOL_F)
    if (!(dphi < TOL_PHI)) bad = bad sprintf(" solid fraction back %.10g, initial %.10g;", RPHI["0"], PHI["0"])
    if (bad == "") printf "PASS: oedometer: the reversed run retraces the platen forces to %.2g (lower) and %.2g (upper) of the peak %.3g N over %d frames and recovers the solid fraction %.4f (to %.1g; forward %.4f -> %.4f)\n", dlmax, dumax, peak, nrev, PHI["0"], dphi, PHI["0"], PHI[last]
    else { printf "FAIL: oedometer:%s\n", bad; exit 1 }
}
