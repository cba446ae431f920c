# dem2lammps.awk - one frame of `dem-probe --particles` (TSV) as a LAMMPS data file for
# atom_style sphere (units si).
#
# Usage: dem-probe --particles --last state.dem |
#            awk -f dem2lammps.awk -v rho=2500 -v box=X0,Y0,Z0,X1,Y1,Z1 > data.settle
#
# Columns are found by name (their [unit] suffix ignored), so the column order does not matter.
# Every particle becomes type 1 with diameter 2r and density rho (LAMMPS makes the mass
# 4/3 pi r^3 rho, as dem-pack does); positions, velocities and angular velocities are copied as
# text, so they reach LAMMPS bit for bit. The box is the walls' box. Only the first frame of
# the input is converted.
BEGIN {
    FS = "\t"
    if (rho == "" || box == "") {
        print "dem2lammps.awk: give -v rho=DENSITY -v box=X0,Y0,Z0,X1,Y1,Z1" > "/dev/stderr"
        exit 2
    }
    split(box, b, ",")
}
NR == 1 {
    for (k = 1; k <= NF; k++) {
        name = $k
        sub(/\[.*/, "", name)
        col[name] = k
    }
    split("frame step id x y z vx vy vz wx wy wz r", need, " ")
    for (k in need)
        if (!(need[k] in col)) {
            print "dem2lammps.awk: input has no column '" need[k] "' (expected dem-probe --particles)" > "/dev/stderr"
            exit 1
        }
    next
}
NR == 2 { frame = $col["frame"]; step = $col["step"] }
$col["frame"] != frame { next }
{
    n++
    atoms[n] = sprintf("%s 1 %.17g %s %s %s %s", $col["id"], 2 * $col["r"], rho, $col["x"], $col["y"], $col["z"])
    vel[n] = sprintf("%s %s %s %s %s %s %s", $col["id"], $col["vx"], $col["vy"], $col["vz"], $col["wx"], $col["wy"], $col["wz"])
}
END {
    if (n == 0) exit 1
    printf "LAMMPS data file: frame %s (step %s) of a dem stream, made by dem2lammps.awk\n\n", frame, step
    printf "%d atoms\n1 atom types\n\n", n
    printf "%s %s xlo xhi\n%s %s ylo yhi\n%s %s zlo zhi\n\n", b[1], b[4], b[2], b[5], b[3], b[6]
    print "Atoms # sphere\n"
    for (k = 1; k <= n; k++) print atoms[k]
    print "\nVelocities\n"
    for (k = 1; k <= n; k++) print vel[k]
}
