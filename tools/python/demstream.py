"""demstream - read dem streams (the dem toolchain's .dem files) into numpy.

A dem stream is a sequence of frames, each a complete snapshot of a simulation (particles,
contacts with their history, walls, periodic cell, materials, settings, energy accounts), each
frame one gzip member (formats/dem-stream.md). This module needs only the Python standard
library and numpy.

    import demstream
    for frame in demstream.frames("run.dem"):          # a path, '-' (stdin) or a binary file
        p = frame.particles                             # numpy structured array, in id order
        print(frame.step, frame.time, len(p), p["z"].mean())

    last = demstream.read_last("run.dem")              # the last frame
    import pandas as pd                                 # optional
    df = pd.DataFrame(last.particles)                   # columns id x y z vx ... iz

A Frame has these attributes (units SI: m, s, kg, N, J, Pa, rad):

    index      frame number in the input, from 0 (across concatenated streams: cat a b)
    offset     byte offset of the frame's gzip member in the input
    step       steps taken since the system was created
    time       simulated time, s
    dt         time step, s (0: not chosen yet)
    particles  structured array, one row per particle, sorted by id (the stream keeps the
               simulator's memory order, which changes when it re-sorts; id order makes
               frames comparable row by row). Fields, in dem-probe --particles order:
                 id x y z vx vy vz wx wy wz fx fy fz r mass inertia material flags group
                 clump q0 q1 q2 q3 tx ty tz ix iy iz
               (flags bit 0: fixed; q: orientation quaternion w x y z; t: torque, N m;
               ix iy iz: periodic image counters, unwrapped position = x + H (ix, iy, iz))
    contacts   structured array, one row per contact record in stream order:
                 i j wall sliding flags sx sy sz overlap nx ny nz fnx fny fnz ftx fty ftz
                 diss_friction diss_damp_n diss_damp_t h0 .. h{K-1}
               (wall 1: j is a wall index; n: unit normal from j to i; fn, ft: forces on i;
               s: periodic image of j; h: K model history slots, K = hist_slots)
    bonds      structured array, one row per bond (format 1.5): i j flags sx sy sz kb delta fx fy fz
               (kb in N/m; delta = r_i + r_j - distance, negative stretched; f: force on i)
    walls      structured array: kind (1 plane, 2 cylinder) material flags px py pz nx ny nz
               radius vx vy vz wx wy wz fx fy fz tx ty tz work
    materials  structured array: name density young poisson friction restitution
               rolling_friction twisting_friction surface_energy
    clumps     structured array: id mass i1 i2 i3 x y z vx vy vz wx wy wz q0 q1 q2 q3 fx fy fz
               tx ty tz lx ly lz (l: angular momentum, format 1.6; records of 1.5 and older
               read as l = R I R^T w)
    members    structured array, one row per particle in a clump (format 1.6): id clump bx by bz
               (b: the sphere's centre in its clump's body frame, m)
    cell       None without a periodic cell, else a dict: flags (bits 0..2: periodic along
               a, b, c), stress_mask, origin (3,), h (3, 3; columns a, b, c), l (velocity
               gradient, 1/s), target_stress (Pa), f (deformation gradient), volume (|det H|)
    settings   dict of the frame's settings (formats/dem-stream.md section 7): int, float,
               tuple of floats (gravity) or str
    energy     dict of the energy accumulators (ediss_friction ... work_law), J
    hist_slots K, the contact history slots per record
    flags      HEAD flags (bit 0: forces are those of exactly this state)

Damaged input: the frames before the damage are yielded, then DemStreamError is raised; its
message names the frame number and the byte offset (e.str(): "frame 3, offset 12345: truncated
input: ..."), and e.frame, e.offset hold them. This reader checks the gzip CRC and the
structure of every frame (sections, record sizes, counts) and that its text (material names,
string settings) is UTF-8, as the specification says; dem-probe also checks every value for
physical possibility. Memory is bounded by the frame's known tables: a section this reader does
not know and may skip, and anything after END, is inflated in 1 MB pieces and dropped. A stream that ends without an end-of-stream marker (a killed writer)
gives its frames and a warning (DemStreamWarning), as dem-probe does.

Command line: python3 -m demstream FILE prints one line per frame (frame, step, time,
particles, contacts, walls, cell volume) and exits 1 with the message on damaged input.
"""

import struct
import sys
import warnings
import zlib

import numpy as np

__all__ = ["frames", "read_last", "Frame", "DemStreamError", "DemStreamWarning"]

MAGIC = b"DEMSTRM\0"
MAX_RECORD_SIZE = 65536
MAX_HISTORY_SLOTS = 12
_CHUNK = 1 << 20


class DemStreamError(Exception):
    """Damaged or unreadable input: .frame (number), .offset (byte of its gzip member), .kind
    (the class of formats/dem-stream.md section 6, e.g. 'truncated input') and .detail."""

    def __init__(self, kind, frame, offset, detail):
        Exception.__init__(self, "frame %d, offset %d: %s: %s" % (frame, offset, kind, detail))
        self.kind, self.frame, self.offset, self.detail = kind, frame, offset, detail


class DemStreamWarning(UserWarning):
    """The stream ended without an end-of-stream marker: it may have been cut short."""


# ---- record layouts (formats/dem-stream.md section 5), little-endian -------------------------

def _vec(prefix, off, names="xyz"):
    return [(prefix + c, off + 8 * k, "<f8") for k, c in enumerate(names)]


_LAYOUT = {
    "MATL": [("name", 0, "S32")] + [(n, 32 + 8 * k, "<f8") for k, n in enumerate(
        ["density", "young", "poisson", "friction", "restitution", "rolling_friction",
         "twisting_friction", "surface_energy"])],
    "WALL": ([("kind", 0, "<u4"), ("material", 4, "<u4"), ("flags", 8, "<u4")] + _vec("p", 12)
             + _vec("n", 36) + [("radius", 60, "<f8")] + _vec("v", 68) + _vec("w", 92)
             + _vec("f", 116) + _vec("t", 140) + [("work", 164, "<f8")]),
    "CLMP": ([("id", 0, "<u8"), ("mass", 8, "<f8"), ("i1", 16, "<f8"), ("i2", 24, "<f8"),
              ("i3", 32, "<f8")] + _vec("", 40) + _vec("v", 64) + _vec("w", 88)
             + _vec("q", 112, "0123") + _vec("f", 144) + _vec("t", 168) + _vec("l", 192)),
    "CMBR": [("id", 0, "<u8"), ("clump", 8, "<u8")] + _vec("b", 16),
    "PART": ([("id", 0, "<u8"), ("material", 8, "<u4"), ("flags", 12, "<u4"), ("group", 16, "<u4"),
              ("clump", 20, "<u8"), ("r", 28, "<f8"), ("mass", 36, "<f8"), ("inertia", 44, "<f8")]
             + _vec("", 52) + _vec("v", 76) + _vec("w", 100) + _vec("q", 124, "0123")
             + _vec("f", 156) + _vec("t", 180) + [("ix", 204, "<i4"), ("iy", 208, "<i4"), ("iz", 212, "<i4")]),
    "CONT": ([("i", 0, "<u8"), ("j", 8, "<u8"), ("flags", 16, "<u4"), ("sx", 20, "<i4"),
              ("sy", 24, "<i4"), ("sz", 28, "<i4"), ("overlap", 32, "<f8")] + _vec("n", 40)
             + _vec("fn", 64) + _vec("ft", 88) + [("diss_friction", 112, "<f8"),
                                                  ("diss_damp_n", 120, "<f8"), ("diss_damp_t", 128, "<f8")]),
    "BOND": ([("i", 0, "<u8"), ("j", 8, "<u8"), ("flags", 16, "<u4"), ("sx", 20, "<i4"), ("sy", 24, "<i4"),
              ("sz", 28, "<i4"), ("kb", 32, "<f8"), ("delta", 40, "<f8")] + _vec("f", 48)),
}
# Record sizes of format 1.0 (the least a record may have); CELL and ENRG grew later.
_MIN_SIZE = {"HEAD": 28, "MATL": 96, "WALL": 172, "CELL": 248, "CLMP": 192, "PART": 216,
             "CONT": 136, "ENRG": 80, "BOND": 72, "CMBR": 40}
_TABLES = ("HEAD", "MATL", "WALL", "CELL", "CLMP", "PART", "CONT", "ENRG", "BOND", "CMBR")
_KNOWN = ("PARM",) + _TABLES
_ENERGY = ["ediss_friction", "ediss_damp_n", "ediss_damp_t", "ediss_local", "ediss_drag",
           "ediss_rolling", "ediss_twisting", "work_walls", "work_cell", "work_external",
           "e_initial", "e_ahead", "work_law"]
_ENERGY_DEFAULT = {"e_initial": float("nan"), "e_ahead": 0.0, "work_law": 0.0}

# The order of the delivered particle fields: dem-probe --particles, then the others.
_PART_ORDER = ["id", "x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz", "fx", "fy", "fz", "r",
               "mass", "inertia", "material", "flags", "group", "clump", "q0", "q1", "q2", "q3",
               "tx", "ty", "tz", "ix", "iy", "iz"]


def _clumps_old(clmp):
    """CLMP records of format 1.5 and older: the angular momentum l = R I R^T w (format 1.6)."""
    names = [n for n, _, _ in _LAYOUT["CLMP"]]
    out = np.zeros(len(clmp), dtype=[(n, clmp.dtype.fields[n][0].newbyteorder("=") if n in clmp.dtype.names else "f8")
                                     for n in names])
    for n in clmp.dtype.names:
        out[n] = clmp[n]
    for k in range(len(out)):
        w, x, y, z = (float(out[k]["q%d" % c]) for c in range(4))
        r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        om = np.array([out[k]["wx"], out[k]["wy"], out[k]["wz"]])
        ii = np.array([out[k]["i1"], out[k]["i2"], out[k]["i3"]])
        out[k]["lx"], out[k]["ly"], out[k]["lz"] = r @ (ii * (r.T @ om))
    return out


def _raw_dtype(tag, record_size, extra=()):
    fields = [f for f in _LAYOUT[tag] if f[1] + np.dtype(f[2]).itemsize <= record_size] + list(extra)
    return np.dtype({"names": [f[0] for f in fields], "offsets": [f[1] for f in fields],
                     "formats": [f[2] for f in fields], "itemsize": record_size})


def _packed(raw, order):
    """A packed copy of the structured array raw with its fields in the given order."""
    dt = np.dtype([(n, raw.dtype.fields[n][0].newbyteorder("=")) for n in order])
    out = np.empty(len(raw), dtype=dt)
    for n in order:
        out[n] = raw[n]
    return out


def _volume(m):
    """|det H| of H by rows, in the order of the C library, so the same bits as dem-probe."""
    return abs(m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
               + m[2] * (m[3] * m[7] - m[4] * m[6]))


class Frame:
    """One frame of a dem stream; see the module's documentation for its attributes."""

    def __repr__(self):
        return ("<demstream.Frame %d: step %d, time %r s, %d particles, %d contacts, %d walls%s>"
                % (self.index, self.step, self.time, len(self.particles), len(self.contacts),
                   len(self.walls), ", a periodic cell" if self.cell else ""))


# ---- frame payload ---------------------------------------------------------------------------

class _Bad(Exception):
    def __init__(self, kind, detail):
        Exception.__init__(self, detail)
        self.kind, self.detail = kind, detail


def _malformed(fmt, *args):
    raise _Bad("malformed frame", fmt % args)


def _utf8(raw, what):
    """Text of the stream (material names, PARM strings): UTF-8 by the specification."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        _malformed("%s: not UTF-8 (byte %d is 0x%02x)", what, e.start, raw[e.start])


def _parse_parm(body, count, at):
    settings, p = {}, 0
    for k in range(count):
        if p + 2 > len(body):
            _malformed("PARM entry %d at payload byte %d: past the section's end", k, at + p)
        (klen,) = struct.unpack_from("<H", body, p)
        key = body[p + 2:p + 2 + klen]
        if not 1 <= klen <= 47 or len(key) != klen or any(b < 0x21 or b > 0x7E for b in key):
            _malformed("PARM entry %d at payload byte %d: bad key", k, at + p)
        key = key.decode("ascii")
        p += 2 + klen
        if p + 2 > len(body):
            _malformed("PARM entry %d (%s): past the section's end", k, key)
        typ, n = body[p], body[p + 1]
        p += 2
        if typ == 1 and n == 1 and p + 8 <= len(body):
            (value,) = struct.unpack_from("<q", body, p)
            p += 8
        elif typ == 2 and 1 <= n <= 9 and p + 8 * n <= len(body):
            value = struct.unpack_from("<%dd" % n, body, p)
            value = value[0] if n == 1 else value
            p += 8 * n
        elif typ == 3 and n == 1 and p + 2 <= len(body):
            (slen,) = struct.unpack_from("<H", body, p)
            raw = body[p + 2:p + 2 + slen]
            if slen > 63 or len(raw) != slen or b"\0" in raw:
                _malformed("PARM entry %d (%s): bad string", k, key)
            value = _utf8(raw, "PARM entry %d (%s)" % (k, key))
            p += 2 + slen
        else:
            _malformed("PARM entry %d (%s): type %d, count %d, or past the section's end", k, key, typ, n)
        if key in settings:
            _malformed("PARM: key %s twice", key)
        settings[key] = value
    if p != len(body):
        _malformed("PARM: %d bytes after the last entry", len(body) - p)
    return settings


def _scan(member, head):
    """The known sections of one payload (its first 16 bytes head, the rest read from member, a
    _Member, piece by piece): a dict
    tag -> (payload offset of the body, body bytes). Unknown skippable sections and the bytes
    after END are inflated in pieces and dropped, so memory is bounded by the known tables."""
    if len(head) < 16 or head[:8] != MAGIC:
        raise _Bad("not a dem frame", "the payload does not start with DEMSTRM")
    major, minor = struct.unpack_from("<HH", head, 8)
    if major != 1:
        raise _Bad("unsupported version", "format %d.%d (this reader knows 1.x)" % (major, minor))
    sections, pos = {}, 16
    while True:
        header = member.read(16)
        if not header:
            _malformed("no END section")
        if len(header) < 16:
            _malformed("section header at payload byte %d cut short", pos)
        tag = header[:4].decode("latin-1")
        flags, length = struct.unpack_from("<IQ", header, 4)
        body_at = pos + 16
        if not sections and tag != "HEAD":
            _malformed("the first section is %r, not HEAD", tag)
        if tag == "END ":
            if length:
                _malformed("END with length %d", length)
            after = member.skip_all()
            if after:
                _malformed("bytes after END at payload byte %d", body_at)
            return sections
        if tag in _KNOWN:
            if tag in sections:
                _malformed("section %s twice", tag)
            body = member.read(length)
            got = len(body)
        elif flags & 1:
            raise _Bad("unsupported version", "unknown required section %r" % tag)
        else:
            got = member.skip(length)
        if got != length:
            _malformed("section %r at payload byte %d: length %d past the payload's end", tag, pos, length)
        if tag in _KNOWN:
            sections[tag] = (body_at, body)
        pos = body_at + length


def _decode(sections):
    """A Frame from the known sections of one payload (_scan); raises _Bad."""
    def table(tag):
        if tag not in sections:
            return None
        at, body = sections[tag]
        length = len(body)
        if length < 16:
            _malformed("%s: table header cut short", tag)
        count, size, extra = struct.unpack_from("<QII", body, 0)
        if tag == "PARM":
            if size or extra:
                _malformed("PARM: record size %d, extra %d (both must be 0)", size, extra)
            return count, size, extra, body
        minimum = _MIN_SIZE[tag] + (8 * extra if tag == "CONT" else 0)
        if tag == "CONT" and extra > MAX_HISTORY_SLOTS:
            _malformed("CONT: %d history slots (at most %d)", extra, MAX_HISTORY_SLOTS)
        if size < minimum or size > MAX_RECORD_SIZE:
            _malformed("%s: record size %d (at least %d, at most %d)", tag, size, minimum, MAX_RECORD_SIZE)
        if length != 16 + count * size:
            _malformed("%s: length %d for %d records of %d bytes", tag, length, count, size)
        return count, size, extra, memoryview(body)[16:]

    def records(tag, extra_fields=()):
        t = table(tag)
        if t is None:
            return np.zeros(0, dtype=_raw_dtype(tag, _MIN_SIZE[tag], extra_fields))
        count, size, _, data = t
        return np.frombuffer(data, dtype=_raw_dtype(tag, size, extra_fields), count=count)

    f = Frame()
    count, size, _, data = table("HEAD")
    if count != 1:
        _malformed("HEAD with %d records", count)
    f.step, f.time, f.dt, f.flags = struct.unpack_from("<QddI", data, 0)

    t = table("PARM")
    f.settings = {} if t is None else _parse_parm(t[3][16:], t[0], sections["PARM"][0] + 16)

    mat = records("MATL")
    f.materials = np.empty(len(mat), dtype=[("name", "U32")] + [(n, "<f8") for n in mat.dtype.names[1:]])
    for n in mat.dtype.names[1:]:
        f.materials[n] = mat[n]
    f.materials["name"] = [_utf8(bytes(n).split(b"\0", 1)[0], "MATL: the name of material %d" % k)
                           for k, n in enumerate(mat["name"])]
    wall = records("WALL")
    f.walls = _packed(wall, list(wall.dtype.names))
    clmp = records("CLMP")
    f.clumps = _packed(clmp, [n for n, _, _ in _LAYOUT["CLMP"]]) if "lx" in clmp.dtype.names else _clumps_old(clmp)
    mbr = records("CMBR")
    f.members = _packed(mbr, list(mbr.dtype.names))
    part = records("PART")
    f.particles = _packed(part, _PART_ORDER)[np.argsort(part["id"], kind="stable")]

    bond = records("BOND")
    f.bonds = _packed(bond, list(bond.dtype.names))

    t = table("CONT")
    f.hist_slots = t[2] if t else 0
    k = f.hist_slots
    hist = [("h%d" % s, (t[1] if t else 0) - 8 * k + 8 * s, "<f8") for s in range(k)]
    cont = records("CONT", hist)
    order = ["i", "j", "wall", "sliding", "flags", "sx", "sy", "sz", "overlap", "nx", "ny", "nz",
             "fnx", "fny", "fnz", "ftx", "fty", "ftz", "diss_friction", "diss_damp_n", "diss_damp_t"]
    dt = np.dtype([(n, "u1") if n in ("wall", "sliding") else (n, cont.dtype.fields[n][0].newbyteorder("="))
                   for n in order] + [(h[0], "f8") for h in hist])
    f.contacts = np.empty(len(cont), dtype=dt)
    for n in dt.names:
        if n == "wall":
            f.contacts[n] = cont["flags"] & 1
        elif n == "sliding":
            f.contacts[n] = (cont["flags"] >> 1) & 1
        else:
            f.contacts[n] = cont[n]

    f.cell = None
    t = table("CELL")
    if t and t[0] > 1:
        _malformed("CELL with %d records", t[0])
    if t and t[0] == 1:
        count, size, _, data = t
        flags, mask = struct.unpack_from("<II", data, 0)
        v = struct.unpack_from("<30d", data, 8)
        fgrad = (np.array(struct.unpack_from("<9d", data, 248)).reshape(3, 3) if size >= 320
                 else np.eye(3))
        if flags:
            h = np.array(v[3:12]).reshape(3, 3)
            f.cell = {"flags": flags, "stress_mask": mask, "origin": np.array(v[0:3]), "h": h,
                      "l": np.array(v[12:21]).reshape(3, 3),
                      "target_stress": np.array(v[21:30]).reshape(3, 3), "f": fgrad,
                      "volume": _volume(v[3:12])}

    f.energy = {n: _ENERGY_DEFAULT.get(n, 0.0) for n in _ENERGY}
    t = table("ENRG")
    if t:
        count, size, _, data = t
        if count != 1:
            _malformed("ENRG with %d records", count)
        n = min(len(_ENERGY), size // 8)
        f.energy.update(zip(_ENERGY[:n], struct.unpack_from("<%dd" % n, data, 0)))
    return f


# ---- the gzip members ------------------------------------------------------------------------

def _open(source):
    if source == "-":
        return sys.stdin.buffer, False
    if hasattr(source, "read"):
        return source, False
    return open(source, "rb"), True


def _is_marker(member):
    """The end-of-stream marker: a member with FEXTRA holding subfield 'DE' (and no payload)."""
    return len(member) >= 14 and member[3] & 4 and member[12:14] == b"DE"


def frames(source):
    """Yield the frames of a dem stream as Frame objects, as they are read.

    source: a file name, '-' for standard input, or a binary file object (open(..., 'rb'),
    sys.stdin.buffer, a pipe). Concatenated streams (cat a.dem b.dem) are read on, frames
    numbered across them. On damaged input, the frames before the damage are yielded, then
    DemStreamError names the frame and the byte offset.
    """
    f, owned = _open(source)
    try:
        yield from _frames(f)
    finally:
        if owned:
            f.close()


class _Truncated(Exception):
    pass


class _Member:
    """The payload of one gzip member, inflated on demand in pieces of at most _CHUNK bytes
    (zlib's max_length), so that a section that is skipped is never held in memory."""

    def __init__(self, f, buf, eof):
        self.f, self.inp, self.eof = f, buf, eof
        self.d = zlib.decompressobj(31)
        self.used = 0          # compressed bytes of this member consumed
        self.head = buf[:14]   # its first compressed bytes: is it the end-of-stream marker?

    def _inflate(self, want):
        """Up to want (>= 1) more payload bytes; b"" at the member's end."""
        while not self.d.eof:
            if not self.inp:
                self.inp = self.f.read(_CHUNK) if not self.eof else b""
                if not self.inp:
                    self.eof = True
                    raise _Truncated()
                self.head += self.inp[:14 - len(self.head)]
            given = len(self.inp)
            out = self.d.decompress(self.inp, want)
            self.inp = self.d.unused_data if self.d.eof else self.d.unconsumed_tail
            self.used += given - len(self.inp)
            if out:
                return out
        return b""

    def read(self, n):
        """The next n payload bytes (fewer at the member's end)."""
        parts, left = [], n
        while left:
            out = self._inflate(min(left, _CHUNK))
            if not out:
                break
            parts.append(out)
            left -= len(out)
        return b"".join(parts)

    def skip(self, n):
        """Drop the next n payload bytes; how many there were."""
        left = n
        while left:
            out = self._inflate(min(left, _CHUNK))
            if not out:
                break
            left -= len(out)
        return n - left

    def skip_all(self):
        """Drop the rest of the payload; how many bytes it had."""
        total = 0
        while True:
            out = self._inflate(_CHUNK)
            if not out:
                return total
            total += len(out)


def _member_sections(member):
    """The known sections of one member (_scan), or None for the end-of-stream marker. On
    damage, the member's own zlib error or truncation comes before a structural error."""
    first = member.read(16)
    if not first and _is_marker(member.head):
        return None
    try:
        return _scan(member, first)
    except _Bad:
        member.skip_all()
        raise


def _frames(f):
    buf, base, eof = b"", 0, False   # unread input; its offset in the stream
    index, marker_last, seen_any = 0, False, False
    while True:
        if not buf and not eof:
            buf = f.read(_CHUNK)
            eof = not buf
        if not buf:
            break
        seen_any = True
        start = base
        if buf[:1] != b"\x1f" or (len(buf) > 1 and buf[1:2] != b"\x8b"):
            raise DemStreamError("not gzip data", index, start, "the bytes there do not start a gzip member")
        member = _Member(f, buf, eof)
        try:
            sections = _member_sections(member)
            frame = None if sections is None else _decode(sections)
        except _Truncated:
            raise DemStreamError("truncated input", index, start, "the input ends inside the frame's gzip member") from None
        except zlib.error as e:
            raise DemStreamError("corrupt data", index, start, str(e)) from None
        except _Bad as e:
            raise DemStreamError(e.kind, index, start, e.detail) from None
        buf, eof, base = member.inp, member.eof, start + member.used
        if frame is None:
            marker_last = True
            continue
        marker_last = False
        frame.index, frame.offset = index, start
        index += 1
        yield frame
    if not seen_any:
        raise DemStreamError("empty input", 0, 0, "no byte at all")
    if index == 0:
        raise DemStreamError("empty input", 0, base, "the stream holds end-of-stream markers and no frame")
    if not marker_last:
        warnings.warn("the input ends after frame %d without an end-of-stream marker: it may have "
                      "been cut short" % (index - 1), DemStreamWarning, stacklevel=3)


def read_last(source):
    """The last frame of a stream (of a damaged one: DemStreamError after reading to the
    damage; use frames() to keep the good ones)."""
    last = None
    for last in frames(source):
        pass
    return last


def _main(argv):
    import signal
    if hasattr(signal, "SIGPIPE"):  # `python3 -m demstream run.dem | head` ends quietly, as dem-probe
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        sys.stdout.write("usage: python3 -m demstream FILE|-\n"
                         "one line per frame: frame step time[s] particles contacts walls cell_volume[m^3]\n")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    print("frame\tstep\ttime[s]\tparticles\tcontacts\twalls\tcell_volume[m^3]")
    try:
        for fr in frames(argv[0]):
            print("%d\t%d\t%r\t%d\t%d\t%d\t%s" % (fr.index, fr.step, fr.time, len(fr.particles),
                                                  len(fr.contacts), len(fr.walls),
                                                  repr(fr.cell["volume"]) if fr.cell else "-"))
            sys.stdout.flush()
    except (DemStreamError, OSError) as e:
        sys.stderr.write("demstream: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
