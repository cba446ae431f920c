# deep.awk - the deep bed's trapped fines by depth (make deep): from dem-probe --particles --last
# then dem-probe --contacts --last of one chunk's end, the fines (r < rcut) trapped (centre in the
# bed, z > 0, touching two or more bed spheres, as trapped.awk) counted by the depth of their
# centre below the bed's top (-v top=Z), in layers of -v layer=D m (one large diameter). Since a
# fine trapped at depth h would be trapped in any bed deeper than h, the count trapped above depth
# L layers is the trapped count of a bed L layers deep, as far as the fines have got by that time.
# -v label=TEXT (first columns), -v layers=N, -v vslow=V (m/s). Output (no header): label, fines,
# in_bed, below_bed, the deepest in-bed fine's depth (layers), trapped, those of them slower than
# vslow (a fine held in a valley swings at millimetres per second; one passing through that touches
# two spheres for a moment moves at a tenth of a metre per second), then the trapped counts above
# 1, 2, ..., N layers.
BEGIN { FS = OFS = "\t" }
FNR == 1 { file++; for (k = 1; k <= NF; k++) c[file, $k] = k; next }
file == 1 && $c[1, "r[m]"] + 0 < rcut + 0 {
    id = $c[1, "id"]; fine[id] = 1; n++; z = $c[1, "z[m]"] + 0
    if (z > 0) { inbed[id] = 1; b++; d = (top - z) / layer; depth[id] = d; if (z < top && d > deep) deep = d }
    else below++
    speed[id] = sqrt($c[1, "vx[m/s]"]^2 + $c[1, "vy[m/s]"]^2 + $c[1, "vz[m/s]"]^2)
}
file == 2 && $c[2, "wall"] == 0 && $c[2, "overlap[m]"] + 0 > 0 {
    i = $c[2, "i"]; j = $c[2, "j"]
    if ((i in fine) && !(j in fine)) touch[i]++
    if ((j in fine) && !(i in fine)) touch[j]++
}
END {
    for (id in inbed) if (touch[id] >= 2) {
        all++; if (speed[id] < vslow) slow++
        for (l = 1; l <= layers; l++) if (depth[id] < l) t[l]++
    }
    printf "%s\t%d\t%d\t%d\t%.2f\t%d\t%d", label, n, b + 0, below + 0, deep, all + 0, slow + 0
    for (l = 1; l <= layers; l++) printf "\t%d", t[l] + 0
    print ""
}
