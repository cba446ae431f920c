# common.sh - the parameters shared by the figures of examples/variational (sourced by the fig
# scripts). De Klerk et al. 2022's spheres in SI: d = 2 mm, rho = 2500 kg/m^3, k = 1000 N/m, and gravity
# g = k d / (195 000 m) = 0.98 m/s^2 (De Klerk et al. 2022, §3: k d / m g = 195 000).
set -euo pipefail
BIN=${BIN:-../../bin}
OUT=${OUT:-out}
mkdir -p "$OUT"
R=0.001
D=0.002
K=1000
# m = 4/3 pi r^3 rho
M=$(awk 'BEGIN { printf "%.17g", 4 / 3 * 3.141592653589793 * 1e-9 * 2500 }')
# the undamped collision time tc = pi sqrt(m / 2k) (Vyas et al. 2025, eq 33 with gamma = 0)
TC=$(awk -v m="$M" -v k="$K" 'BEGIN { printf "%.17g", 3.141592653589793 * sqrt(m / (2 * k)) }')
LAW="--normal hooke --kn $K --tangential none"
verdict() { # NAME OK(0/1) TEXT
    if [ "$2" = 1 ]; then echo "PASS: $1: $3"; else echo "FAIL: $1: $3"; fi | tee -a "$OUT/verdict.txt"
}
# column NAME of a TSV on stdin
col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }'; }
