# verdict.awk - PASS or FAIL of the percolation example (Vyas et al. 2025, §5.2), from sweep.tsv (integrator,
# mu, fines, in_bed, trapped, fractions): at mu = MU (the two main runs) the fraction trapped with
# vv-improved under 2%, and clearly larger with vv (at least 3 times, and 1 point more); over the
# friction sweep, vv traps more above mu_c(20) = sqrt(41)/20 than below it.
BEGIN { FS = "\t"; muc = sqrt(41) / 20 }
NR == 1 { next }
$2 == mu && $1 == "vv" { vv = $7; nvv = $5; fvv = $3 }
$2 == mu && $1 == "vv-improved" { im = $7; nim = $5; fim = $3 }
$1 == "vv" && $2 + 0 < muc { lo += $7; nlo++ }
$1 == "vv" && $2 + 0 > muc { hi += $7; nhi++ }
END {
    printf "trapped at t = %s s, mu = %s: vv %d of %d (%.1f%%), vv-improved %d of %d (%.1f%%) (Vyas et al. 2025: about 25%% and under 2%%)\n",
        time, mu, nvv, fvv, 100 * vv, nim, fim, 100 * im
    if (nlo && nhi) printf "friction sweep, vv: %.1f%% trapped below mu_c(20) = %.3f, %.1f%% above (means)\n", 100 * lo / nlo, muc, 100 * hi / nhi
    ok = im < 0.02 && vv >= 3 * im && vv >= im + 0.01
    sweep = nlo && nhi && hi / nhi > lo / nlo + 0.01
    if (ok && sweep) print "PASS: percolation: vv-improved traps under 2% of the fines, vv clearly more, and vv's trapping sets in above mu_c"
    else { print "FAIL: percolation" (ok ? "" : ": the trapped fractions") (sweep ? "" : ": the friction sweep"); exit 1 }
}
