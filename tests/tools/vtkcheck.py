#!/usr/bin/env python3
"""vtkcheck.py - test helper: read dem-probe --vtk output with VTK itself (python3-vtk9) and check
it against dem-probe's TSV, so that a file ParaView would refuse or misread fails a test.

Usage:
  vtkcheck.py summary FILE...           each .vtp (or each data set of a .pvd), one line:
                                          NAME points=N verts=N lines=N polys=N point=A,B cell=C,D
                                        a .pvd is parsed by VTK's own XML parser (vtkXMLDataParser,
                                        what ParaView's reader uses), its timesteps must increase
                                        and every file it names must read.
  vtkcheck.py particles TSV VTP         TSV from dem-probe --particles --fields material,flags (one
                                        frame): the points (matched by id), radius, velocity,
                                        angular_velocity, force, material, fixed equal, bit for bit
  vtkcheck.py contacts TSV VTP          TSV from dem-probe --contacts (one frame): one line cell
                                        per particle-particle record, in order, normal_force =
                                        |fn| and tangential_force = |ft| (to 1 ulp-ish, 1e-15),
                                        overlap and sliding equal, the line's first point is i
  vtkcheck.py walls TSV VTP FRAME       TSV from dem-probe --walls: for every polygon, its wall's
                                        kind, material, velocity, force, torque, work equal the
                                        row's; a plane's corners lie in the plane and its normal
                                        (right-hand rule) is the wall's; a cylinder's corners lie at
                                        its radius from its axis, its 48 quads face the particles and
                                        their area is 2 pi R L sin(pi/48)/(pi/48)
  vtkcheck.py cell TSV VTP FRAME        TSV from dem-probe --cell: the 8 corners are o + H s and the
                                        12 edges join corners that differ in one cell vector

Exit status 0 if every check passes; 1 with a message naming the file, cell and quantity if not;
2 on bad usage.
"""

import csv
import math
import os
import sys

import vtk


class CheckError(Exception):
    pass


def fail(msg):
    raise CheckError(msg)


class ErrorCatcher:
    """Collects VTK's error events (which it would otherwise only print)."""

    def __init__(self, obj):
        self.errors = []
        obj.AddObserver("ErrorEvent", self)

    def __call__(self, obj, event):
        self.errors.append(event)


def read_vtp(path):
    if not os.path.exists(path):
        fail("%s: no such file" % path)
    r = vtk.vtkXMLPolyDataReader()
    catcher = ErrorCatcher(r)
    r.SetFileName(path)
    r.Update()
    if catcher.errors or r.GetErrorCode():
        fail("%s: VTK could not read it" % path)
    return r.GetOutput()


def read_pvd(path):
    """The (timestep, file) pairs of a .pvd, parsed as VTK parses it."""
    p = vtk.vtkXMLDataParser()
    catcher = ErrorCatcher(p)
    p.SetFileName(path)
    if not p.Parse() or catcher.errors:
        fail("%s: vtkXMLDataParser refused it" % path)
    root = p.GetRootElement()
    if root.GetName() != "VTKFile" or root.GetAttribute("type") != "Collection":
        fail("%s: not a VTKFile of type Collection" % path)
    coll = root.FindNestedElementWithName("Collection")
    if coll is None:
        fail("%s: no Collection element" % path)
    out = []
    for k in range(coll.GetNumberOfNestedElements()):
        e = coll.GetNestedElement(k)
        if e.GetName() != "DataSet":
            fail("%s: element %s in the Collection" % (path, e.GetName()))
        out.append((float(e.GetAttribute("timestep")), e.GetAttribute("file")))
    times = [t for t, _ in out]
    if times != sorted(times):
        fail("%s: timesteps do not increase" % path)
    return [(t, os.path.join(os.path.dirname(path), f)) for t, f in out]


def array_names(data):
    return [data.GetArrayName(k) for k in range(data.GetNumberOfArrays())]


def summary_line(path, pd):
    return "%s points=%d verts=%d lines=%d polys=%d point=%s cell=%s" % (
        os.path.basename(path), pd.GetNumberOfPoints(), pd.GetNumberOfVerts(), pd.GetNumberOfLines(),
        pd.GetNumberOfPolys(), ",".join(array_names(pd.GetPointData())),
        ",".join(array_names(pd.GetCellData())))


def cmd_summary(paths):
    for path in paths:
        if path.endswith(".pvd"):
            for t, f in read_pvd(path):
                print("%s %s" % (repr(t), summary_line(f, read_vtp(f))))
        else:
            print(summary_line(path, read_vtp(path)))


def read_tsv(path, frame=None):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if frame is not None:
        rows = [r for r in rows if r["frame"] == str(frame)]
    return rows


def arr(pd, where, name):
    data = pd.GetPointData() if where == "point" else pd.GetCellData()
    a = data.GetArray(name)
    if a is None:
        fail("no %s array %s" % (where, name))
    return a


def vec(row, names):
    return tuple(float(row[n]) for n in names)


def same(what, got, want):
    if tuple(got) != tuple(want):
        fail("%s: VTK has %r, the TSV %r" % (what, tuple(got), tuple(want)))


def close(what, got, want, tol):
    for g, w in zip(got, want):
        if not abs(g - w) <= tol * max(1.0, abs(w)):
            fail("%s: VTK has %r, expected %r (tolerance %g)" % (what, tuple(got), tuple(want), tol))


def cmd_particles(tsv, path):
    rows = read_tsv(tsv)
    pd = read_vtp(path)
    if pd.GetNumberOfPoints() != len(rows) or pd.GetNumberOfVerts() != len(rows):
        fail("%s: %d points, %d verts for %d particles" % (path, pd.GetNumberOfPoints(), pd.GetNumberOfVerts(), len(rows)))
    ids, rad, vel = arr(pd, "point", "id"), arr(pd, "point", "radius"), arr(pd, "point", "velocity")
    om, frc = arr(pd, "point", "angular_velocity"), arr(pd, "point", "force")
    mat, fixed = arr(pd, "point", "material"), arr(pd, "point", "fixed")
    if ids.GetDataType() not in (vtk.VTK_UNSIGNED_LONG, vtk.VTK_UNSIGNED_LONG_LONG) or ids.GetDataTypeSize() != 8:
        fail("%s: id is %s, not UInt64" % (path, ids.GetDataTypeAsString()))
    by_id = {row["id"]: row for row in rows}
    for k in range(len(rows)):
        # the file keeps the stream's order; the TSV is in id order
        row = by_id.get(str(int(ids.GetValue(k))))
        if row is None:
            fail("%s point %d: id %d is not in the TSV" % (path, k, int(ids.GetValue(k))))
        w = "%s point %d (id %s)" % (path, k, row["id"])
        same(w + " position", pd.GetPoint(k), vec(row, ["x[m]", "y[m]", "z[m]"]))
        same(w + " radius", [rad.GetValue(k)], [float(row["r[m]"])])
        same(w + " velocity", vel.GetTuple3(k), vec(row, ["vx[m/s]", "vy[m/s]", "vz[m/s]"]))
        same(w + " angular_velocity", om.GetTuple3(k), vec(row, ["wx[rad/s]", "wy[rad/s]", "wz[rad/s]"]))
        same(w + " force", frc.GetTuple3(k), vec(row, ["fx[N]", "fy[N]", "fz[N]"]))
        same(w + " material", [mat.GetValue(k)], [int(row["material"])])
        same(w + " fixed", [fixed.GetValue(k)], [int(row["flags"]) & 1])
        cell = pd.GetCell(k)
        if cell.GetCellType() != vtk.VTK_VERTEX or cell.GetPointId(0) != k:
            fail("%s: cell %d is not the vertex of point %d" % (path, k, k))
    print("%s: %d particles agree with the TSV" % (path, len(rows)))


def cmd_contacts(tsv, path):
    rows = [r for r in read_tsv(tsv) if r["wall"] == "0"]
    pd = read_vtp(path)
    if pd.GetNumberOfLines() != len(rows):
        fail("%s: %d lines for %d particle-particle contacts" % (path, pd.GetNumberOfLines(), len(rows)))
    ids, fn, ft = arr(pd, "point", "id"), arr(pd, "cell", "normal_force"), arr(pd, "cell", "tangential_force")
    ov, sl = arr(pd, "cell", "overlap"), arr(pd, "cell", "sliding")
    for k, row in enumerate(rows):
        w = "%s line %d (%s-%s)" % (path, k, row["i"], row["j"])
        cell = pd.GetCell(k)
        if cell.GetCellType() != vtk.VTK_LINE:
            fail("%s: not a line" % w)
        a, b = cell.GetPointId(0), cell.GetPointId(1)
        same(w + " ends", [int(ids.GetValue(a)), int(ids.GetValue(b))], [int(row["i"]), int(row["j"])])
        close(w + " normal_force", [fn.GetValue(k)], [math.sqrt(sum(v * v for v in vec(row, ["fnx[N]", "fny[N]", "fnz[N]"])))], 1e-15)
        close(w + " tangential_force", [ft.GetValue(k)], [math.sqrt(sum(v * v for v in vec(row, ["ftx[N]", "fty[N]", "ftz[N]"])))], 1e-15)
        same(w + " overlap", [ov.GetValue(k)], [float(row["overlap[m]"])])
        same(w + " sliding", [sl.GetValue(k)], [int(row["sliding"])])
    print("%s: %d contact lines agree with the TSV" % (path, len(rows)))


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a):
    return math.sqrt(dot(a, a))


def cmd_walls(tsv, path, frame):
    rows = read_tsv(tsv, frame)
    if not rows:
        fail("%s: no wall rows for frame %s" % (tsv, frame))
    pd = read_vtp(path)
    index, kind = arr(pd, "cell", "wall"), arr(pd, "cell", "kind")
    mat, v, f = arr(pd, "cell", "material"), arr(pd, "cell", "velocity"), arr(pd, "cell", "force")
    t, work, om = arr(pd, "cell", "torque"), arr(pd, "cell", "work"), arr(pd, "cell", "angular_velocity")
    seen, mantle = {}, {}
    for c in range(pd.GetNumberOfCells()):
        cell = pd.GetCell(c)
        if cell.GetCellType() != vtk.VTK_QUAD:
            fail("%s: cell %d is not a quad" % (path, c))
        wi = int(index.GetValue(c))
        if wi >= len(rows):
            fail("%s: cell %d names wall %d of %d" % (path, c, wi, len(rows)))
        row = rows[wi]
        w = "%s cell %d (wall %d)" % (path, c, wi)
        seen[wi] = seen.get(wi, 0) + 1
        same(w + " kind", [kind.GetValue(c)], [{"plane": 1, "cylinder": 2}[row["kind"]]])
        same(w + " material", [mat.GetValue(c)], [int(row["material"])])
        same(w + " velocity", v.GetTuple3(c), vec(row, ["vx[m/s]", "vy[m/s]", "vz[m/s]"]))
        same(w + " angular_velocity", om.GetTuple3(c), vec(row, ["wx[rad/s]", "wy[rad/s]", "wz[rad/s]"]))
        same(w + " force", f.GetTuple3(c), vec(row, ["fx[N]", "fy[N]", "fz[N]"]))
        same(w + " torque", t.GetTuple3(c), vec(row, ["tx[N*m]", "ty[N*m]", "tz[N*m]"]))
        same(w + " work", [work.GetValue(c)], [float(row["work[J]"])])
        pts = [pd.GetPoint(cell.GetPointId(k)) for k in range(4)]
        p, n = vec(row, ["px[m]", "py[m]", "pz[m]"]), vec(row, ["nx", "ny", "nz"])
        size = max(norm(sub(pts[2], pts[0])), norm(sub(pts[3], pts[1])))
        # the polygon's normal by the right-hand rule (Newell), and its area
        newell = (0.0, 0.0, 0.0)
        for k in range(4):
            newell = tuple(a + b for a, b in zip(newell, cross(pts[k], pts[(k + 1) % 4])))
        area = norm(newell) / 2
        if row["kind"] == "plane":
            for x in pts:
                if abs(dot(sub(x, p), n)) > 1e-12 * max(size, 1e-300):
                    fail("%s: corner %r is not in the plane" % (w, x))
            close(w + " normal", tuple(a / (2 * area) for a in newell), n, 1e-12)
        else:
            R = float(row["radius[m]"])
            mid = tuple(sum(x[k] for x in pts) / 4 for k in range(3))
            d = sub(mid, p)
            radial = sub(d, tuple(dot(d, n) * a for a in n))
            inward = dot(newell, radial) < 0
            if inward != (int(row["flags"]) & 1 == 0):
                fail("%s: the quad faces away from the particles" % w)
            for x in pts:
                d = sub(x, p)
                r = norm(sub(d, tuple(dot(d, n) * a for a in n)))
                close(w + " distance of a corner from the axis", [r], [R], 1e-12)
            m = mantle.setdefault(wi, [0.0, float("inf"), float("-inf"), R])
            m[0] += area
            for x in pts:
                m[1] = min(m[1], dot(sub(x, p), n))
                m[2] = max(m[2], dot(sub(x, p), n))
    for wi in range(len(rows)):
        want = 48 if rows[wi]["kind"] == "cylinder" else 1
        if seen.get(wi, 0) != want:
            fail("%s: wall %d has %d quads, not %d" % (path, wi, seen.get(wi, 0), want))
    for wi, (area, t0, t1, R) in sorted(mantle.items()):
        h = math.pi / 48
        close("%s wall %d mantle area" % (path, wi), [area], [2 * math.pi * R * (t1 - t0) * math.sin(h) / h], 1e-12)
        print("%s: wall %d mantle R %r from %r to %r along the axis" % (path, wi, R, t0, t1))
    print("%s: %d walls, %d quads agree with the TSV" % (path, len(rows), pd.GetNumberOfCells()))


def cmd_cell(tsv, path, frame):
    rows = read_tsv(tsv, frame)
    if len(rows) != 1:
        fail("%s: %d cell rows for frame %s" % (tsv, len(rows), frame))
    row = rows[0]
    pd = read_vtp(path)
    if pd.GetNumberOfPoints() != 8 or pd.GetNumberOfLines() != 12:
        fail("%s: %d points and %d lines, not 8 and 12" % (path, pd.GetNumberOfPoints(), pd.GetNumberOfLines()))
    o = vec(row, ["ox[m]", "oy[m]", "oz[m]"])
    h = [[float(row["h%d%d[m]" % (r + 1, c + 1)]) for c in range(3)] for r in range(3)]
    scale = max(abs(x) for r in h for x in r)
    corners = {}
    for k in range(8):
        s = (k & 1, k >> 1 & 1, k >> 2 & 1)
        corners[k] = tuple(o[r] + sum(h[r][c] * s[c] for c in range(3)) for r in range(3))
    vector, periodic = arr(pd, "cell", "vector"), arr(pd, "cell", "periodic")
    flags = int(row["flags"])
    edges = set()
    for c in range(12):
        cell = pd.GetCell(c)
        a, b = (pd.GetPoint(cell.GetPointId(k)) for k in range(2))
        ka = [k for k in range(8) if max(abs(x - y) for x, y in zip(a, corners[k])) <= 1e-15 * scale]
        kb = [k for k in range(8) if max(abs(x - y) for x, y in zip(b, corners[k])) <= 1e-15 * scale]
        if len(ka) != 1 or len(kb) != 1:
            fail("%s: edge %d does not end at corners o + H s" % (path, c))
        d = ka[0] ^ kb[0]
        if d not in (1, 2, 4):
            fail("%s: edge %d joins corners %d and %d, not one cell vector apart" % (path, c, ka[0], kb[0]))
        same("%s edge %d vector" % (path, c), [vector.GetValue(c)], [d.bit_length() - 1])
        same("%s edge %d periodic" % (path, c), [periodic.GetValue(c)], [(flags >> (d.bit_length() - 1)) & 1])
        edges.add((min(ka[0], kb[0]), max(ka[0], kb[0])))
    if len(edges) != 12:
        fail("%s: the 12 edges are not all different" % path)
    print("%s: the cell's 12 edges agree with the TSV" % path)


def main(argv):
    cmds = {"particles": (cmd_particles, 2), "contacts": (cmd_contacts, 2), "walls": (cmd_walls, 3),
            "cell": (cmd_cell, 3)}
    if len(argv) >= 2 and argv[0] == "summary":
        cmd = lambda: cmd_summary(argv[1:])
    elif argv and argv[0] in cmds and len(argv) == 1 + cmds[argv[0]][1]:
        fn = cmds[argv[0]][0]
        cmd = lambda: fn(*argv[1:])
    else:
        sys.stderr.write(__doc__)
        return 2
    try:
        cmd()
    except CheckError as e:
        sys.stderr.write("vtkcheck: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
