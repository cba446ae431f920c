# fan.awk - examples/stress-probes: out/probes.tsv (probes.sh) to Kuhn's Fig. 5 (Kuhn et al. 2020).
# For each law and steps per probe: the elastic stiffness D_e (2x2, Rendulic plane, Pa) from the
# two tiny probes, D_e = [ds(v) ds(q)] / DELTA_E; each probe's plastic strain
# de_p = de - D_e^-1 ds; its point along ds at radius |de_p| / |ds| (1/Pa); the loading points
# (radius above LOADING times the largest of the fan); the least-squares circle through the
# origin, x^2 + y^2 = a x + b y, fitted to them: diameter sqrt(a^2 + b^2), H = 1/diameter; the
# RMS distance of the loading points from that circle over the diameter.
# Writes POINTS (one row per probe) and CIRCLES (the fitted circles, 181 points each, a block
# per law and steps); prints the fits as TSV.
BEGIN { FS = OFS = "\t"; if (LOADING == "") LOADING = 0.2 }
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{
    key = $1 SUBSEP $2
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key; law[key] = $1; steps[key] = $2 }
    if ($3 == "elastic") {
        d = ($c["e_v"] != 0) ? $c["e_v"] : $c["e_q"]
        col = ($c["e_v"] != 0) ? 1 : 2
        D[key, 1, col] = $c["ds_v[Pa]"] / d; D[key, 2, col] = $c["ds_q[Pa]"] / d
        if ($c["changed"] + 0 > echanged[key] + 0) echanged[key] = $c["changed"]
        esliding[key] = $c["sliding_null"]
        next
    }
    n = ++np[key]
    det = D[key, 1, 1] * D[key, 2, 2] - D[key, 1, 2] * D[key, 2, 1]
    sv = $c["ds_v[Pa]"]; sq = $c["ds_q[Pa]"]
    eev = ( D[key, 2, 2] * sv - D[key, 1, 2] * sq) / det
    eeq = (-D[key, 2, 1] * sv + D[key, 1, 1] * sq) / det
    pv = $c["e_v"] - eev; pq = $c["e_q"] - eeq
    s = sqrt(sv * sv + sq * sq); ep = sqrt(pv * pv + pq * pq); r = ep / s
    K[key, n] = $4; TH[key, n] = $5; SV[key, n] = sv; SQ[key, n] = sq; PV[key, n] = pv; PQ[key, n] = pq
    X[key, n] = sv / s * r; Y[key, n] = sq / s * r; R[key, n] = r
    CH[key, n] = $c["changed"]
    if (r > rmax[key]) rmax[key] = r
}
END {
    print "law", "steps", "probes", "loading", "D_vv[Pa]", "D_vq[Pa]", "D_qv[Pa]", "D_qq[Pa]", "sliding", "changed_elastic", \
          "changed_probe_max", "diameter[1/Pa]", "H[Pa]", "tilt[deg]", "rms/diameter"
    print "law", "steps", "k", "theta", "ds_v[Pa]", "ds_q[Pa]", "dep_v", "dep_q", "x[1/Pa]", "y[1/Pa]", "r[1/Pa]", "loading", "changed" > POINTS
    for (i = 1; i <= nkeys; i++) {
        key = keys[i]; sxx = sxy = syy = sxr = syr = 0; m = 0; chmax = 0
        for (n = 1; n <= np[key]; n++) {
            ld = R[key, n] > LOADING * rmax[key]
            if (CH[key, n] > chmax) chmax = CH[key, n]
            print law[key], steps[key], K[key, n], TH[key, n], SV[key, n], SQ[key, n], PV[key, n], PQ[key, n], \
                  X[key, n], Y[key, n], R[key, n], ld, CH[key, n] > POINTS
            if (!ld) continue
            x = X[key, n]; y = Y[key, n]; rr = x * x + y * y; m++
            sxx += x * x; sxy += x * y; syy += y * y; sxr += x * rr; syr += y * rr
        }
        det = sxx * syy - sxy * sxy
        a = (syy * sxr - sxy * syr) / det; b = (sxx * syr - sxy * sxr) / det
        dia = sqrt(a * a + b * b); ss = 0
        for (n = 1; n <= np[key]; n++) {
            if (!(R[key, n] > LOADING * rmax[key])) continue
            dd = sqrt((X[key, n] - a / 2) ^ 2 + (Y[key, n] - b / 2) ^ 2) - dia / 2; ss += dd * dd
        }
        # tilt: the direction of the diameter through the origin (the yield direction), degrees from v
        printf "%s\t%s\t%d\t%d\t%.6g\t%.6g\t%.6g\t%.6g\t%d\t%d\t%d\t%.6g\t%.6g\t%.4g\t%.4g\n", law[key], steps[key], np[key], m, \
            D[key, 1, 1], D[key, 1, 2], D[key, 2, 1], D[key, 2, 2], esliding[key], echanged[key], chmax, \
            dia, 1 / dia, atan2(b, a) * 180 / 3.14159265358979324, sqrt(ss / m) / dia
        for (t = 0; t <= 180; t++) {
            ph = 2 * 3.14159265358979324 * t / 180
            print law[key], steps[key], a / 2 + dia / 2 * cos(ph), b / 2 + dia / 2 * sin(ph) > CIRCLES
        }
        print "" > CIRCLES; print "" > CIRCLES
    }
}
