# frames.awk - one row per frame of the oedometric compression, from dem-stress --walls (first
# file) and dem-probe's summary (second file) of the same frames, in the same order.
# Variables: V (platen speed, m/s), LOWER, UPPER (wall indices), T0 (time of zero displacement, s;
# default: the first frame's).
# Output: time[s] step displacement[m] f_lower[N] f_upper[N] solid_fraction ekin_t[J] coordination
# displacement = V (time - T0), the upper platen's travel downwards; f_lower, f_upper: the z force
# the particles exert on the platens (dem-stress --walls fz: the lower one negative, as in Hanley).
BEGIN { FS = OFS = "\t" }
FNR == 1 { for (k = 1; k <= NF; k++) col[FILENAME, $k] = k; next }
FILENAME == ARGV[1] {
    f = $col[FILENAME, "frame"]; w = $col[FILENAME, "wall"]
    if (w == LOWER) lo[f] = $col[FILENAME, "fz[N]"]
    if (w == UPPER) up[f] = $col[FILENAME, "fz[N]"]
    next
}
{
    f = $col[FILENAME, "frame"]; t = $col[FILENAME, "time[s]"]
    if (T0 == "") T0 = t
    if (!(f in lo) || !(f in up)) { printf "frames.awk: frame %s has no platen forces\n", f > "/dev/stderr"; exit 1 }
    if (!header++) print "time[s]", "step", "displacement[m]", "f_lower[N]", "f_upper[N]", "solid_fraction", "ekin_t[J]", "coordination"
    printf "%.17g\t%s\t%.17g\t%s\t%s\t%s\t%s\t%s\n", t, $col[FILENAME, "step"], V * (t - T0), lo[f], up[f],
           $col[FILENAME, "solid_fraction"], $col[FILENAME, "ekin_t[J]"], $col[FILENAME, "coordination"]
}
