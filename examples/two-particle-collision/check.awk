# check.awk - checks of the two-particle collision against the physics.
#
# Input: dem-probe --particles --fields mass output of the whole run (frame 0 = the initial
# state), particles 1 (A) and 2 (B). Variables: E, NU (the material), TOL_DUR (relative tolerance
# of the collision duration against the Hertz formula), TS (the time-series file to write:
# time, momenta of A and B, total momentum, kinetic energy, total energy, gap).
#
# Frictionless elastic spheres interact by a central force that depends on the distance only,
# so the collision is a two-body scattering problem with an exact solution: the relative
# position moves in the potential V(delta) = 8/15 E* sqrt(R*) delta^(5/2) (Hertz), delta =
# 2r - |x_A - x_B|. With b the impact parameter and u the relative speed, the apse distance
# r_min solves F(r) = 1 - b^2/r^2 - V/(m* u^2/2) = 0, the half-angle swept is
# arcsin(b/d) + int_{r_min}^{d} b dr / (r^2 sqrt(F)), the time in contact is
# 2 int_{r_min}^{d} dr / (u sqrt(F)), d = 2r. The integrals are done here with r = r_min + w^2
# (which removes the square-root singularity) and a 20000-point midpoint rule. This gives the
# final velocities and the contact duration to ~1e-7; the Hertz formula
# 2.868 (m*^2/(R* E*^2 v))^(1/5) (docs/models.md §1.6 eq 30) is the head-on limit.
function asin(x) { return atan2(x, sqrt(1 - x * x)) }
function V(delta) { return delta > 0 ? 8 / 15 * Es * sqrt(Rs) * delta * delta * sqrt(delta) : 0 }
function F(rr) { return 1 - bb * bb / (rr * rr) - V(d - rr) / Erel }
function abs(x) { return x < 0 ? -x : x }
BEGIN { FS = OFS = "\t"; nf = 0 }
NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
{
    f = $col["frame"] + 0
    if (!(f in T)) { order[nf++] = f; T[f] = $col["time[s]"] }
    id = $col["id"]
    X[f, id] = $col["x[m]"]; Y[f, id] = $col["y[m]"]; Z[f, id] = $col["z[m]"]
    VX[f, id] = $col["vx[m/s]"]; VY[f, id] = $col["vy[m/s]"]; VZ[f, id] = $col["vz[m/s]"]
    M[id] = $col["mass[kg]"]; RAD[id] = $col["r[m]"]
}
END {
    pi = atan2(0, -1)
    mA = M[1]; mB = M[2]; r = RAD[1]
    Es = 1 / (2 * (1 - NU * NU) / E)          # E* of two equal materials (Vyas et al. 2025, eq 4)
    Rs = r * r / (2 * r); ms = mA * mB / (mA + mB); d = 2 * r
    # ---- time series, conservation, contact interval
    f0 = order[0]; fl = order[nf - 1]
    for (k = 0; k < 3; k++) P0[k] = 0
    P0[0] = mA * VX[f0, 1] + mB * VX[f0, 2]; P0[1] = mA * VY[f0, 1] + mB * VY[f0, 2]; P0[2] = mA * VZ[f0, 1] + mB * VZ[f0, 2]
    P0n = sqrt(P0[0]^2 + P0[1]^2 + P0[2]^2)
    K0 = 0.5 * mA * (VX[f0,1]^2 + VY[f0,1]^2 + VZ[f0,1]^2) + 0.5 * mB * (VX[f0,2]^2 + VY[f0,2]^2 + VZ[f0,2]^2)
    print "time[s]", "pAx[kg*m/s]", "pAy[kg*m/s]", "pAz[kg*m/s]", "pBx[kg*m/s]", "pBy[kg*m/s]", "pBz[kg*m/s]",
          "Px[kg*m/s]", "Py[kg*m/s]", "Pz[kg*m/s]", "ekin[J]", "etot[J]", "gap[m]" > TS
    dPmax = 0; dEmax = 0; tin = tout = -1; gprev = ""
    for (i = 0; i < nf; i++) {
        f = order[i]
        px = mA * VX[f,1] + mB * VX[f,2]; py = mA * VY[f,1] + mB * VY[f,2]; pz = mA * VZ[f,1] + mB * VZ[f,2]
        dP = sqrt((px - P0[0])^2 + (py - P0[1])^2 + (pz - P0[2])^2) / P0n
        if (dP > dPmax) dPmax = dP
        K = 0.5 * mA * (VX[f,1]^2 + VY[f,1]^2 + VZ[f,1]^2) + 0.5 * mB * (VX[f,2]^2 + VY[f,2]^2 + VZ[f,2]^2)
        dist = sqrt((X[f,1] - X[f,2])^2 + (Y[f,1] - Y[f,2])^2 + (Z[f,1] - Z[f,2])^2)
        gap = dist - d
        Et = K + V(-gap)
        if (abs(Et - K0) / K0 > dEmax) dEmax = abs(Et - K0) / K0
        printf "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n",
               T[f], mA * VX[f,1], mA * VY[f,1], mA * VZ[f,1], mB * VX[f,2], mB * VY[f,2], mB * VZ[f,2],
               px, py, pz, K, Et, gap > TS
        # first and last crossing of gap = 0, interpolated linearly between frames
        if (gprev != "" && gprev >= 0 && gap < 0 && tin < 0) tin = tprev + (T[f] - tprev) * gprev / (gprev - gap)
        if (gprev != "" && gprev < 0 && gap >= 0) tout = tprev + (T[f] - tprev) * (-gprev) / (gap - gprev)
        gprev = gap; tprev = T[f]
    }
    KL = 0.5 * mA * (VX[fl,1]^2 + VY[fl,1]^2 + VZ[fl,1]^2) + 0.5 * mB * (VX[fl,2]^2 + VY[fl,2]^2 + VZ[fl,2]^2)
    dK = abs(KL - K0) / K0
    # ---- exact central-force scattering from the initial state
    ux = VX[f0,1] - VX[f0,2]; uy = VY[f0,1] - VY[f0,2]; uz = VZ[f0,1] - VZ[f0,2]
    rx = X[f0,1] - X[f0,2]; ry = Y[f0,1] - Y[f0,2]; rz = Z[f0,1] - Z[f0,2]
    u = sqrt(ux^2 + uy^2 + uz^2); ex = ux / u; ey = uy / u; ez = uz / u
    ru = rx * ex + ry * ey + rz * ez
    bx = rx - ru * ex; by = ry - ru * ey; bz = rz - ru * ez      # impact-parameter vector
    bb = sqrt(bx^2 + by^2 + bz^2); bx /= bb; by /= bb; bz /= bb
    Erel = 0.5 * ms * u * u
    vn = u * sqrt(1 - bb * bb / (d * d))                          # normal approach speed at touch
    lo = d / 2; hi = d
    for (k = 0; k < 200; k++) { mid = (lo + hi) / 2; if (F(mid) > 0) hi = mid; else lo = mid }
    rmin = hi; W = sqrt(d - rmin); N = 20000; phi = 0; tc = 0
    for (k = 0; k < N; k++) {
        w = (k + 0.5) * W / N; rr = rmin + w * w; s = sqrt(F(rr))
        phi += 2 * w * bb / (rr * rr * s) * W / N
        tc += 2 * w / (u * s) * W / N
    }
    tc *= 2
    chi = pi - 2 * (asin(bb / d) + phi)                           # scattering angle
    upx = u * (cos(chi) * ex + sin(chi) * bx); upy = u * (cos(chi) * ey + sin(chi) * by); upz = u * (cos(chi) * ez + sin(chi) * bz)
    cx = (mA * VX[f0,1] + mB * VX[f0,2]) / (mA + mB); cy = (mA * VY[f0,1] + mB * VY[f0,2]) / (mA + mB); cz = (mA * VZ[f0,1] + mB * VZ[f0,2]) / (mA + mB)
    pAx = cx + mB / (mA + mB) * upx; pAy = cy + mB / (mA + mB) * upy; pAz = cz + mB / (mA + mB) * upz
    pBx = cx - mA / (mA + mB) * upx
    # ---- Hertz formula (head-on) with the normal approach speed
    tH = 2.868 * (ms * ms / (Rs * Es * Es * vn)) ^ 0.2
    dur = tout - tin
    # ---- verdicts
    vxA0 = VX[f0,1]; vxAf = VX[fl,1]; vxBf = VX[fl,2]
    transfer = 1 - vxAf / vxA0                                    # fraction of A's x momentum given to B
    errscat = sqrt((VX[fl,1] - pAx)^2 + (VY[fl,1] - pAy)^2 + (VZ[fl,1] - pAz)^2) / u
    ok = 1; why = ""
    if (!(dPmax < 1e-13)) { ok = 0; why = why " momentum" }
    if (!(dK < 1e-6)) { ok = 0; why = why " kinetic-energy" }
    if (!(transfer > 0.995 && transfer < 1.005)) { ok = 0; why = why " x-transfer" }
    if (!(errscat < 1e-4)) { ok = 0; why = why " scattering" }
    if (!(tin > 0 && tout > tin && abs(dur / tH - 1) < TOL_DUR)) { ok = 0; why = why " duration" }
    printf "quantity\tmeasured\texpected\trelative_difference\n" > SUM
    printf "max |P(t)-P(0)|/|P(0)|\t%.3g\t0\t\n", dPmax > SUM
    printf "kinetic energy after/before - 1\t%.3g\t0\t\n", (KL - K0) / K0 > SUM
    printf "max |E_kin+E_hertz - E0|/E0 during contact\t%.3g\t0\t\n", dEmax > SUM
    printf "vx of A after [m/s]\t%.9g\t%.9g\t%.3g\n", vxAf, pAx, (vxAf - pAx) / vxA0 > SUM
    printf "vx of B after [m/s]\t%.9g\t%.9g\t%.3g\n", vxBf, pBx, (vxBf - pBx) / vxA0 > SUM
    printf "fraction of A's x momentum given to B\t%.6f\t1 (head-on limit)\t%.3g\n", transfer, transfer - 1 > SUM
    printf "final velocity of A vs central-force scattering\t%.3g\t0\t\n", errscat > SUM
    printf "contact start [s]\t%.9g\t\t\n", tin > SUM
    printf "contact end [s]\t%.9g\t\t\n", tout > SUM
    printf "normal approach speed [m/s]\t%.9g\t\t\n", vn > SUM
    printf "collision duration vs Hertz formula [s]\t%.9g\t%.9g\t%.3g\n", dur, tH, dur / tH - 1 > SUM
    printf "collision duration vs central-force integral [s]\t%.9g\t%.9g\t%.3g\n", dur, tc, dur / tc - 1 > SUM
    printf "scattering angle of the relative velocity [rad]\t\t%.9g\t\n", chi > SUM
    msg = sprintf("momentum drift %.1e, KE change %.1e, x momentum transferred %.4f (scattering theory %.4f), duration %.6g s vs Hertz %.6g s (%+.3f%%)",
                  dPmax, (KL - K0) / K0, transfer, 1 - pAx / vxA0, dur, tH, 100 * (dur / tH - 1))
    if (ok) print "PASS: two-particle collision: " msg
    else { print "FAIL:" why ": two-particle collision: " msg; exit 1 }
}
