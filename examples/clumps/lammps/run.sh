#!/bin/sh
# run.sh - the LAMMPS reference for the dimer packing of issue 30: in.dimers for three seeds, one
# after the other on one core, each measured by analyze.py. Writes out/packing.tsv (one row a seed)
# and out/summary.tsv (mean and sample standard deviation over the seeds). MU=0 runs the
# frictionless control instead, into out/mu0-*.
# Usage: examples/clumps/lammps/run.sh        (SEEDS="1 2 3" by default; about 4 min a seed)
#        MU=0 examples/clumps/lammps/run.sh
set -eu
cd "$(dirname "$0")"
command -v lmp > /dev/null || { echo "run.sh: lmp (Debian's lammps) is not installed" >&2; exit 1; }
PY=/usr/bin/python3 # Debian's, with numpy
MU=${MU:-0.5}
tag=$([ "$MU" = 0.5 ] && echo "" || echo "mu$MU-")
mkdir -p out
printf 'seed\tdimers\tz_lo[m]\tz_hi[m]\tin_slab\tphi\tz_contacts\tz_neighbours\trattlers\twall[s]\n' > out/${tag}packing.tsv
for seed in ${SEEDS:-1 2 3}; do
    start=$(date +%s)
    lmp -nocite -var seed "$seed" -var mu "$MU" -var out "out/${tag}seed$seed" -in in.dimers -log "out/${tag}seed$seed.log" -screen none
    end=$(date +%s)
    "$PY" analyze.py "out/${tag}seed$seed.dump" "$seed" $((end - start)) >> out/${tag}packing.tsv
    tail -n 1 out/${tag}packing.tsv
done
awk -F'\t' 'NR > 1 { n++; p[n] = $6; z[n] = $7; zn[n] = $8 }
    function mean(a,   s, i) { s = 0; for (i = 1; i <= n; i++) s += a[i]; return s / n }
    function sd(a, m,   s, i) { s = 0; for (i = 1; i <= n; i++) s += (a[i] - m) ^ 2; return n > 1 ? sqrt(s / (n - 1)) : 0 }
    END {
        printf "quantity\tmean\tsd\tseeds\n"
        mp = mean(p); mz = mean(z); mn = mean(zn)
        printf "phi\t%.4f\t%.4f\t%d\n", mp, sd(p, mp), n
        printf "z_contacts\t%.3f\t%.3f\t%d\n", mz, sd(z, mz), n
        printf "z_neighbours\t%.3f\t%.3f\t%d\n", mn, sd(zn, mn), n
    }' out/${tag}packing.tsv > out/${tag}summary.tsv
cat out/${tag}summary.tsv
