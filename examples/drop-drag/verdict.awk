# verdict.awk - prints the cases' summary tables and one PASS or FAIL line (exit status 1 on FAIL).
BEGIN { FS = "\t"; bad = 0 }
FNR == 1 { files[FILENAME] = 0; if (NR == 1) printf "%-4s %-100s %-20s %-20s %-10s %s\n", "case", "quantity", "measured", "expected", "rel.diff", "verdict"; next }
{
    printf "%-4s %-100s %-20s %-20s %-10s %s\n", $1, $2, $3, $4, $5, $6
    if ($6 == "FAIL") { bad++; failed = failed " " $1 ":" $2 }
    if ($6 == "ok") files[FILENAME]++
    if ($2 ~ /^terminal velocity from the pre-impact approach w_n/) vt[$1] = $3
    if ($2 ~ /^velocity at the last frame before impact/) vc = $3
    if ($2 ~ /^final overlap/) { ov[$1] = $5 }
    if ($2 ~ /^reversed: max \|v_rev - v_fwd\|/) { split($3, w, " "); dev[$1] = w[1] }
    if ($2 ~ /^reversed: agrees within/) agree[$1] = $3
    if ($2 ~ /^reversed: forward impact/) imp[$1] = $3
}
END {
    for (f in files) if (files[f] == 0) { bad++; failed = failed " " f ": no check passed" }
    msg = sprintf("terminal velocity A %.9g, B %.9g, C %.9g m/s (from the approach), C plateau %.9g m/s; g dt/(1-gd) = -0.00981, full step -0.0098099509; rest overlap vs static Hertz: B %s, C %s",
                  vt["a"], vt["b"], vt["c"], vc, ov["b"], ov["c"])
    msg = msg sprintf("; reversed (dem-reverse), largest |v_rev - v_fwd| / peak speed: A %s (recovered), B %s, C %s (not recovered; C retraced back to %s ms, impact at %s ms)",
                      dev["a"], dev["b"], dev["c"], agree["c"], imp["c"])
    if (bad) { print "FAIL: drop-drag:" failed; print "      " msg; exit 1 }
    print "PASS: drop-drag: " msg
}
