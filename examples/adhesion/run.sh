#!/bin/sh
# run.sh - the adhesion example's runs and checks (called by the Makefile with BIN and OUT set).
# Two spheres r = 1 mm, density 2500 kg/m^3, E = 1e7 Pa, nu = 0.25, surface energy (the pair's
# work of adhesion) gamma = 1 J/m^2: R* = 0.5 mm, m* = m/2, E* = E / (2 (1 - nu^2)).
# Writes out/pulloff.tsv, out/loop.tsv, out/jkr.tsv (the analytic curve), out/restitution.tsv,
# out/summary.tsv; prints PASS or FAIL lines (the last one is the verdict).
set -eu
: "${BIN:?}" "${OUT:?}"
T=$(printf '\t')
R=0.001 YOUNG=1e7 GAMMA=1 DT=1e-6
# the constants, as awk statements
A="pi = 3.14159265358979; es = $YOUNG / (2 * (1 - 0.0625)); rs = $R / 2; g = $GAMMA; m = 4 / 3 * pi * $R^3 * 2500 / 2"
calc() { awk "BEGIN { $A; $1 }"; }
FC_JKR=$(calc 'printf "%.17g", 1.5 * pi * g * rs')
FC_DMT=$(calc 'printf "%.17g", 2 * pi * g * rs')
DC=$(calc 'ac = exp(log(pi * g * rs^2 / (8 * es)) / 3); printf "%.17g", -3 * ac^2 / rs')
# Thornton & Ning (1998): W_s = 7.09 (gamma^5 R*^4 / E*^2)^(1/3) (the constant exactly:
# (3/5 16^(2/3) + 2/5) pi^(5/3) / 8^(2/3), normal_jkr.c), V_s = sqrt(2 W_s / m*)
VS=$(calc 'k = (0.6 * exp(2 / 3 * log(16)) + 0.4) * exp(5 / 3 * log(pi)) / 4; w = k * exp(log(g^5 * rs^4 / es^2) / 3); printf "%.17g", sqrt(2 * w / m)')
fails=0
verdict() { # NAME VALUE WANT TOL
    if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { if (a !~ /^-?[0-9]/ || b !~ /^-?[0-9]/) exit 1; d = a / b - 1; if (d < 0) d = -d; exit !(d < t) }'; then
        echo "PASS: $1: $2 (analytic $3, tolerance $4)"; else echo "FAIL: $1: $2 (analytic $3, tolerance $4)"; fails=$((fails + 1)); fi
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$OUT/summary.tsv"
}
printf 'quantity\tmeasured\tanalytic\ttolerance\n' > "$OUT/summary.tsv"

# 1. Pull-off: particle 2 driven away at 1 mm/s from an overlap of 2 um (displacement control)
printf 'id\tx\ty\tz\tr\tvx\tfixed\n1\t0\t0\t0\t%s\t0\t1\n2\t0.001998\t0\t0\t%s\t0.001\t1\n' $R $R > "$OUT/pull.tsv"
"$BIN/dem-pack" --from "$OUT/pull.tsv" --young $YOUNG --surface-energy $GAMMA > "$OUT/pull.dem"
printf 'model\toverlap[m]\tfn[N]\n' > "$OUT/pulloff.tsv"
for m in jkr dmt; do
    "$BIN/dem-step" -q -n 8000 --dt $DT --every 10 --normal $m --damping none -o "$OUT/pull-$m.dem" "$OUT/pull.dem"
    "$BIN/dem-probe" --contacts "$OUT/pull-$m.dem" | awk -F'\t' -v m=$m 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%s\t%.17g\t%.17g\n", m, $c["overlap[m]"], -$c["fnx[N]"] }' >> "$OUT/pulloff.tsv"
done
t_jkr=$(awk -F'\t' '$1 == "jkr" && -$3 > t { t = -$3 } END { printf "%.17g", t }' "$OUT/pulloff.tsv")
t_dmt=$(awk -F'\t' '$1 == "dmt" && -$3 > t { t = -$3 } END { printf "%.17g", t }' "$OUT/pulloff.tsv")
d_jkr=$(awk -F'\t' '$1 == "jkr" && (n++ == 0 || $2 < d) { d = $2 } END { printf "%.17g", d }' "$OUT/pulloff.tsv")
verdict "jkr pull-off force [N] (3/2 pi gamma R*)" "$t_jkr" "$FC_JKR" 0.01
verdict "dmt pull-off force [N] (2 pi gamma R*)" "$t_dmt" "$FC_DMT" 0.01
verdict "jkr neck breaks at overlap [m] (-3 a_c^2/R*)" "$d_jkr" "$DC" 0.01

# the analytic JKR curve, parametric in the contact radius a (out/jkr.tsv)
calc 'ac = exp(log(pi * g * rs^2 / (8 * es)) / 3); printf "a[m]\toverlap[m]\tfn[N]\tbranch\n"
      for (k = 0; k <= 400; k++) { a = ac * (0.02 + k * 0.006); if (a > 6 * ac) break
        printf "%.9g\t%.9g\t%.9g\t%s\n", a, a^2 / rs - sqrt(2 * pi * g * a / es), 4 * es * a^3 / (3 * rs) - sqrt(8 * pi * g * es * a^3), a < ac ? "unstable" : "stable" }' > "$OUT/jkr.tsv"

# 2. A collision at 1.5 V_s: the force-overlap loop (out/loop.tsv)
collide() { # F: relative speed F V_s; writes $OUT/c-F.dem; prints the final relative speed along x
    v=$(awk -v f="$1" -v vs="$VS" 'BEGIN { printf "%.17g", f * vs / 2 }')
    printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t%s\t%s\n2\t0.0020005\t0\t0\t%s\t-%s\n' $R "$v" $R "$v" > "$OUT/c.tsv"
    "$BIN/dem-pack" --from "$OUT/c.tsv" --young $YOUNG --surface-energy $GAMMA > "$OUT/c.dem"
    "$BIN/dem-step" -q -n "${2:-30000}" --dt $DT --every "${3:-30000}" --normal jkr --damping none -o "$OUT/c-$1.dem" "$OUT/c.dem"
    held=$("$BIN/dem-probe" --contacts --last "$OUT/c-$1.dem" | awk 'END { print NR - 1 }')
    "$BIN/dem-probe" --particles --last "$OUT/c-$1.dem" | awk -F'\t' -v held="$held" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { v[NR] = $c["vx[m/s]"] } END { printf "%.17g %d\n", v[3] - v[2], held }'
}
collide 1.5 6000 2 > /dev/null
"$BIN/dem-probe" --contacts "$OUT/c-1.5.dem" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "time[s]\toverlap[m]\tfn[N]"; next }
    { printf "%.9g\t%.17g\t%.17g\n", $c["time[s]"], $c["overlap[m]"], -$c["fnx[N]"] }' > "$OUT/loop.tsv"
# every frame on the analytic curve: F(delta) by bisection on a >= a_c
off=$(awk -F'\t' "BEGIN { $A }"' { ac = exp(log(pi * g * rs^2 / (8 * es)) / 3) } NR > 1 { d = $2; lo = ac; hi = 1e-2
        for (k = 0; k < 200; k++) { a = (lo + hi) / 2; if (a^2 / rs - sqrt(2 * pi * g * a / es) < d) lo = a; else hi = a }
        f = 4 * es * a^3 / (3 * rs) - sqrt(8 * pi * g * es * a^3); x = ($3 - f) / (1.5 * pi * g * rs); if (x < 0) x = -x; if (x > w) w = x }
        END { printf "%.3g", w }' "$OUT/loop.tsv")
if awk -v w="$off" 'BEGIN { exit !(w ~ /^[0-9]/ && w < 1e-9) }'; then echo "PASS: the collision's loading and unloading lie on the JKR curve: largest deviation $off of the pull-off force"
else echo "FAIL: the collision's force-overlap points leave the JKR curve: largest deviation $off of the pull-off force"; fails=$((fails + 1)); fi
printf 'jkr loop: largest deviation / F_c\t%s\t0\t1e-9\n' "$off" >> "$OUT/summary.tsv"

# 3. Sticking velocity: bisection between 0.5 V_s (sticks) and 2 V_s (rebounds), 12 halvings
lo=0.5 hi=2
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
    mid=$(awk -v a=$lo -v b=$hi 'BEGIN { printf "%.9g", (a + b) / 2 }')
    set -- $(collide "$mid")
    if [ "$2" -eq 1 ]; then lo=$mid; else hi=$mid; fi
done
vc=$(awk -v a=$lo -v b=$hi -v vs="$VS" 'BEGIN { printf "%.6g", (a + b) / 2 * vs }')
verdict "sticking velocity [m/s] (Thornton & Ning 1998)" "$vc" "$VS" 0.05
# restitution above it: e = sqrt(1 - (V_s/v)^2) for an elastic adhesive collision (energy W_s lost)
printf 'v/V_s\tv[m/s]\te\te_analytic\n' > "$OUT/restitution.tsv"
for f in 0.9 1.02 1.05 1.1 1.2 1.35 1.5 2 3 5; do
    set -- $(collide $f)
    awk -v f=$f -v vs="$VS" -v vr="$1" -v held="$2" 'BEGIN { e = held ? 0 : vr / (f * vs); ea = f > 1 ? sqrt(1 - 1 / f^2) : 0
        printf "%g\t%.6g\t%.6g\t%.6g\n", f, f * vs, e, ea }' >> "$OUT/restitution.tsv"
done
e2=$(awk -F'\t' '$1 == 2 { print $3 }' "$OUT/restitution.tsv")
verdict "restitution at 2 V_s (sqrt(3)/2)" "$e2" "0.8660254" 0.02

# 4. The books: dem-energy's residual after the 1.5 V_s collision (formation, loading, unloading,
# break), against the energy the neck took (work_law), at dt and dt/2. The JKR force jumps by
# 4/3 pi gamma R* as the neck forms, and its stiffness diverges where it breaks: there the
# velocity-Verlet shadow term (dem-energy's e_shadow) cannot follow, and the residual is first
# order in dt (a Hertz collision closes to 1e-8).
printf 'id\tx\ty\tz\tr\tvx\n1\t0\t0\t0\t%s\t%s\n2\t0.0020005\t0\t0\t%s\t-%s\n' $R "$(awk -v vs="$VS" 'BEGIN { printf "%.17g", 0.75 * vs }')" $R "$(awk -v vs="$VS" 'BEGIN { printf "%.17g", 0.75 * vs }')" > "$OUT/c.tsv"
"$BIN/dem-pack" --from "$OUT/c.tsv" --young $YOUNG --surface-energy $GAMMA > "$OUT/c.dem"
for d in 1e-6 5e-7; do
    n=$(awk -v d=$d 'BEGIN { printf "%d", 0.03 / d }')
    "$BIN/dem-step" -q -n $n --dt $d --every $n --normal jkr --damping none -o "$OUT/books-$d.dem" "$OUT/c.dem"
done
r1=$("$BIN/dem-energy" "$OUT/books-1e-6.dem" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { r = $c["residual[J]"] / $c["work_law[J]"]; printf "%.3g", r < 0 ? -r : r }')
r2=$("$BIN/dem-energy" "$OUT/books-5e-7.dem" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { r = $c["residual[J]"] / $c["work_law[J]"]; printf "%.3g", r < 0 ? -r : r }')
if awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a ~ /^[0-9]/ && b ~ /^[0-9]/ && a < 1e-3 && b < 0.7 * a) }'; then
    echo "PASS: energy books of the collision closed to $r1 (dt 1e-6 s) and $r2 (dt 5e-7 s) of the energy the neck took"
else echo "FAIL: energy books of the collision: residual $r1 (dt 1e-6 s), $r2 (dt 5e-7 s) of the energy the neck took"; fails=$((fails + 1)); fi
printf 'residual / work_law (dt 1e-6 s)\t%s\t0\t1e-3\n' "$r1" >> "$OUT/summary.tsv"
printf 'residual / work_law (dt 5e-7 s)\t%s\t0\t0.7 x the above\n' "$r2" >> "$OUT/summary.tsv"

if [ $fails -eq 0 ]; then echo "PASS: adhesion: DMT and JKR pull-off, the JKR loop and the sticking velocity as analysed"
else echo "FAIL: adhesion: $fails check(s) failed"; exit 1; fi
