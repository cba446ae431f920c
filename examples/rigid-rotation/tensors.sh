#!/bin/sh
# tensors.sh BIN OUT "TANGENTIALS" "CARRIES" - the stress tensors of examples/rigid-rotation as
# TSV: for each tangential law, the loaded state ("original"), the unturned one after the turn's
# steps ("unturned"), and each carry's turned state rotated back by R_x(-90) (Kuhn et al. 2020, eq 24:
# sigma' = R^T sigma R; for a quarter turn about x: yy' = zz, zz' = yy, yz' = -yz, xy' = xz,
# xz' = -xy), with the largest |component - unturned| over sigma_zz of the unturned.
set -eu
BIN=$1 OUT=$2
printf 'law\tcase\tsxx[Pa]\tsyy[Pa]\tszz[Pa]\tsyz[Pa]\tsxz[Pa]\tsxy[Pa]\tdeviation\n'
row() { # law case file back(0/1) ref-file
    "$BIN/dem-stress" "$3" | awk -F'\t' -v law="$1" -v case="$2" -v back="$4" -v ref="$5" -v bin="$BIN" '
        NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
        { xx = $c["sxx[Pa]"]; yy = $c["syy[Pa]"]; zz = $c["szz[Pa]"]; yz = $c["syz[Pa]"]; xz = $c["sxz[Pa]"]; xy = $c["sxy[Pa]"] }
        END {
            if (back) { t = yy; yy = zz; zz = t; yz = -yz; t = xy; xy = xz; xz = -t }
            dev = "-"
            if (ref != "") {
                cmd = bin "/dem-stress " ref
                while ((cmd | getline line) > 0) {
                    split(line, f, "\t")
                    if (f[1] == "frame") { for (k in f) r[f[k]] = k; continue }
                    R["xx"] = f[r["sxx[Pa]"]]; R["yy"] = f[r["syy[Pa]"]]; R["zz"] = f[r["szz[Pa]"]]
                    R["yz"] = f[r["syz[Pa]"]]; R["xz"] = f[r["sxz[Pa]"]]; R["xy"] = f[r["sxy[Pa]"]]
                }
                close(cmd)
                m = 0
                d = xx - R["xx"]; if (d < 0) d = -d; if (d > m) m = d
                d = yy - R["yy"]; if (d < 0) d = -d; if (d > m) m = d
                d = zz - R["zz"]; if (d < 0) d = -d; if (d > m) m = d
                d = yz - R["yz"]; if (d < 0) d = -d; if (d > m) m = d
                d = xz - R["xz"]; if (d < 0) d = -d; if (d > m) m = d
                d = xy - R["xy"]; if (d < 0) d = -d; if (d > m) m = d
                dev = sprintf("%.3g", m / R["zz"])
            }
            printf "%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\n", law, case, xx, yy, zz, yz, xz, xy, dev
        }'
}
for t in $3; do
    row "$t" original "$OUT/loaded-$t.dem" 0 ""
    row "$t" unturned "$OUT/still-$t.dem" 0 ""
    for c in $4; do row "$t" "turned, $c" "$OUT/turned-$t-$c.dem" 1 "$OUT/still-$t.dem"; done
done
