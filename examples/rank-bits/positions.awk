# positions.awk - sphere positions as "step id x y z" rows (TSV, no header) from either code's output:
# a LAMMPS dump (ITEM: TIMESTEP ... ITEM: ATOMS id x y z, as tools/bench/lammps/in.settle writes
# with run.sh's BENCH_DUMP_EVERY) or dem-probe --particles (columns found by name). The numbers are
# copied as text: both codes print 17 significant digits, so equal text is equal bits.
BEGIN { FS = "[ \t]+" }
/^ITEM: TIMESTEP/ { dump = 1; getline; step = $1 + 0; next }
dump && /^ITEM: ATOMS/ { atoms = 1; next }
dump && /^ITEM:/ { atoms = 0; next }
dump { if (atoms && NF >= 4) printf "%d\t%s\t%s\t%s\t%s\n", step, $1, $2, $3, $4; next }
FNR == 1 {
    for (k = 1; k <= NF; k++) { name = $k; sub(/\[.*/, "", name); col[name] = k }
    if (!("step" in col) || !("id" in col) || !("x" in col)) { print "positions.awk: neither a LAMMPS dump nor dem-probe --particles" > "/dev/stderr"; exit 1 }
    next
}
{ printf "%d\t%s\t%s\t%s\t%s\n", $col["step"], $col["id"], $col["x"], $col["y"], $col["z"] }
