# check.awk - the energy budget of the settling run (dem-energy output, frame 0 = initial state).
# Variables: TOL_RES (largest |residual| / potential energy released), TOL_REST (final kinetic
# energy / released), TOL_LOAD (walls' vertical load / weight - 1), WEIGHT (N), WALLS (dem-stress
# --walls of the last frame), TS (time series out), LOG (dem-energy's stderr), SUM (summary out).
BEGIN { FS = OFS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
    t = $c["time[s]"]; ek = $c["ekin_t[J]"] + $c["ekin_r[J]"]; ep = $c["epot_g[J]"]
    el = $c["eel_n[J]"] + $c["eel_t[J]"]; res = $c["residual[J]"]
    if (NR == 2) ep0 = ep
    rel = ep0 - ep
    fr = $c["ediss_friction[J]"]; dn = $c["ediss_damp_n[J]"]; dt = $c["ediss_damp_t[J]"]; lo = $c["ediss_local[J]"]
    if (NR == 2) print "time[s]", "released[J]", "ekin[J]", "eel[J]", "friction[J]", "damp_n[J]", "damp_t[J]", \
                      "local[J]", "residual[J]" > TS
    print t, rel, ek, el, fr, dn, dt, lo, res > TS
    if (rel > relmax) relmax = rel
    r = res < 0 ? -res : res
    if (r > rmax) { rmax = r; rat = t }
    if (ek > ekmax) ekmax = ek
    last_ek = ek; last_rel = rel; last_d = fr + dn + dt + lo + $c["ediss_drag[J]"]
}
END {
    # the vertical load on the walls at rest: the floor and the friction on the side walls
    FS = "\t"
    while ((getline line < WALLS) > 0) {
        n = split(line, f, "\t")
        if (f[1] == "frame") { for (i = 1; i <= n; i++) wc[f[i]] = i; continue }
        load -= f[wc["fz[N]"]]
    }
    noref = 0
    while ((getline line < LOG) > 0) if (line ~ /has no e_initial/) noref = 1
    ratio = rmax / relmax; rest = last_ek / last_rel; lerr = load / WEIGHT - 1
    print "check", "measured", "expected" > SUM
    print "potential energy released [J]", sprintf("%.6g", last_rel), "" > SUM
    print "dissipated [J] (friction, dashpots, local damping)", sprintf("%.6g", last_d), "= released - kinetic - elastic" > SUM
    print "largest |residual| / released", sprintf("%.3g (t = %g s)", ratio, rat), "< " TOL_RES > SUM
    print "final kinetic energy / released", sprintf("%.3g", rest), "< " TOL_REST > SUM
    print "vertical load on the walls / weight - 1", sprintf("%.3g", lerr), "|.| < " TOL_LOAD > SUM
    close(SUM)
    bad = ""
    if (!(ratio < TOL_RES)) bad = bad sprintf(" residual %.3g of the released energy (limit %g)%s;", ratio, TOL_RES,
                                        noref ? " - this dem-step does not keep the energy books of format 1.1 (e_initial, e_ahead)" : "")
    if (!(rest < TOL_REST)) bad = bad sprintf(" still moving: kinetic energy %.3g of the released;", rest)
    if (!(lerr < TOL_LOAD && -lerr < TOL_LOAD)) bad = bad sprintf(" the walls carry %.4g of the weight;", 1 + lerr)
    if (bad == "") printf "PASS: settling: the energy budget closes to %.2g of the %.3g J released; at rest; the walls carry the weight to %.1g\n", ratio, last_rel, lerr
    else { printf "FAIL: settling:%s\n", bad; exit 1 }
}
