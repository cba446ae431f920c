# geometry.awk - the three-sphere system as a dem-pack --from table (docs/models.md §1.7):
# large spheres (ids 2, 3, fixed) of radius R at (-R,0,0) and (R,0,0), touching at the origin;
# the fine sphere (id 1) of radius r = R/ratio in the groove at angle th0deg from the upward
# vertical, its centre at rho (0, sin th0, cos th0), rho = sqrt(r^2 + 2 R r): touching both.
BEGIN {
    pi = atan2(0, -1); th = th0deg * pi / 180; r = R / ratio
    rho = sqrt(r * r + 2 * R * r)
    print "id\tx\ty\tz\tr\tfixed"
    printf "1\t0\t%.17g\t%.17g\t%.17g\t0\n", rho * sin(th), rho * cos(th), r
    printf "2\t%.17g\t0\t0\t%.17g\t1\n", -R, R
    printf "3\t%.17g\t0\t0\t%.17g\t1\n", R, R
}
