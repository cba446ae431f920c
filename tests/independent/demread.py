#!/usr/bin/env python3
"""demread.py - an independent reader of the dem stream, format version 1.0.

Written from formats/dem-stream.md alone (no look at the C code), with nothing but the Python
standard library, to show that the specification is enough to read the format.

Usage: demread.py [--particles | --summary | --contacts | --all-fields | --dump] [--repr] [FILE|-]

  --particles   (default) one TSV row per particle per frame:
                  frame id x y z vx vy vz wx wy wz r
  --all-fields  the same rows followed by every other PART field, in the order of
                `dem-probe --particles --fields all`:
                  fx fy fz r material flags group clump mass inertia q0 q1 q2 q3 tx ty tz ix iy iz
                (columns: frame id x y z vx vy vz wx wy wz fx fy fz r material ... iz)
  --summary     one row per frame:
                  frame step time materials walls particles contacts history_slots periodic
  --contacts    one row per CONT record: frame i j wall sx sy sz overlap nx ny nz fnx fny fnz
                  ftx fty ftz sliding diss_friction diss_damp_n diss_damp_t h0 .. h{K-1}
  --dump        every decoded field of every section (HEAD, PARM, MATL, WALL, CELL, CLMP,
                PART, CONT, ENRG) as `frame section index field value` lines
  --repr        print doubles with Python's repr() instead of the default C-like text

Doubles are printed by default as dem-probe prints them: the first of '%.15g', '%.16g',
'%.17g' (for subnormals: of '%.1g' .. '%.17g') that reads back to the same double. For every
double this has the same digits as Python's repr(), the shortest round-trip text, but the
notation differs: repr writes 1000000000000000.0 and 123456.0 where '%g' writes 1e+15 and
123456.

Frames are printed as soon as they are decoded and fully checked. On damaged input, the frames
before the damage are printed, then one line `demread: frame N, offset B (where): class: detail`
goes to standard error and the exit status is 1. Bad usage: exit status 2.
"""

import math
import struct
import sys
import zlib

# ---------------------------------------------------------------------------------------------
# Field tables of format 1.0, copied from section 5 of the spec: (offset, name, type).

TYPE_SIZE = {"u32": 4, "u64": 8, "i32": 4, "f64": 8, "char32": 32}
TYPE_CODE = {"u32": "I", "u64": "Q", "i32": "i", "f64": "d", "char32": "32s"}


def _vec(prefix, off, names="xyz"):
    return [(off + 8 * k, prefix + c, "f64") for k, c in enumerate(names)]


HEAD_FIELDS = [(0, "step", "u64"), (8, "time", "f64"), (16, "dt", "f64"), (24, "flags", "u32")]

MATL_FIELDS = [(0, "name", "char32"), (32, "density", "f64"), (40, "young", "f64"),
               (48, "poisson", "f64"), (56, "friction", "f64"), (64, "restitution", "f64"),
               (72, "rolling_friction", "f64"), (80, "twisting_friction", "f64"),
               (88, "surface_energy", "f64")]

WALL_FIELDS = ([(0, "kind", "u32"), (4, "material", "u32"), (8, "flags", "u32")]
               + _vec("p", 12) + _vec("n", 36) + [(60, "radius", "f64")]
               + _vec("v", 68) + _vec("w", 92) + _vec("f", 116) + _vec("t", 140)
               + [(164, "work", "f64")])

CELL_FIELDS = ([(0, "flags", "u32"), (4, "stress_mask", "u32")] + _vec("o", 8)
               + [(32 + 8 * (3 * r + c), "h%d%d" % (r + 1, c + 1), "f64")
                  for r in range(3) for c in range(3)]
               + [(104 + 8 * (3 * r + c), "l%d%d" % (r + 1, c + 1), "f64")
                  for r in range(3) for c in range(3)]
               + [(176 + 8 * (3 * r + c), "s%d%d" % (r + 1, c + 1), "f64")
                  for r in range(3) for c in range(3)])

CLMP_FIELDS = ([(0, "id", "u64"), (8, "mass", "f64"), (16, "i1", "f64"), (24, "i2", "f64"),
                (32, "i3", "f64")] + _vec("", 40) + _vec("v", 64) + _vec("w", 88)
               + _vec("q", 112, "0123") + _vec("f", 144) + _vec("t", 168))

PART_FIELDS = ([(0, "id", "u64"), (8, "material", "u32"), (12, "flags", "u32"),
                (16, "group", "u32"), (20, "clump", "u64"), (28, "r", "f64"),
                (36, "mass", "f64"), (44, "inertia", "f64")]
               + _vec("", 52) + _vec("v", 76) + _vec("w", 100) + _vec("q", 124, "0123")
               + _vec("f", 156) + _vec("t", 180)
               + [(204, "ix", "i32"), (208, "iy", "i32"), (212, "iz", "i32")])

CONT_FIELDS = ([(0, "i", "u64"), (8, "j", "u64"), (16, "flags", "u32"), (20, "sx", "i32"),
                (24, "sy", "i32"), (28, "sz", "i32"), (32, "overlap", "f64")]
               + _vec("n", 40) + _vec("fn", 64) + _vec("ft", 88)
               + [(112, "diss_friction", "f64"), (120, "diss_damp_n", "f64"),
                  (128, "diss_damp_t", "f64")])

ENRG_FIELDS = [(8 * k, n, "f64") for k, n in enumerate(
    ["ediss_friction", "ediss_damp_n", "ediss_damp_t", "ediss_local", "ediss_drag",
     "ediss_rolling", "ediss_twisting", "work_walls", "work_cell", "work_external"])]

# "Record size in format 1.0" of each table (section 5).
RECORD_SIZE = {"HEAD": 28, "MATL": 96, "WALL": 172, "CELL": 248, "CLMP": 192, "PART": 216,
               "CONT": 136, "ENRG": 80}
FIELDS = {"HEAD": HEAD_FIELDS, "MATL": MATL_FIELDS, "WALL": WALL_FIELDS, "CELL": CELL_FIELDS,
          "CLMP": CLMP_FIELDS, "PART": PART_FIELDS, "CONT": CONT_FIELDS, "ENRG": ENRG_FIELDS}
KNOWN_TAGS = ("HEAD", "PARM", "MATL", "WALL", "CELL", "CLMP", "PART", "CONT", "ENRG", "END ")
MAX_RECORD_SIZE = 65536
MAX_HISTORY_SLOTS = 12


def _compile(tag, fields):
    """A struct for the record's known prefix; checks the offsets against the types."""
    off = 0
    fmt = "<"
    for o, name, typ in fields:
        if o != off:
            raise AssertionError("%s.%s: offset %d, expected %d" % (tag, name, o, off))
        fmt += TYPE_CODE[typ]
        off += TYPE_SIZE[typ]
    if off != RECORD_SIZE[tag]:
        raise AssertionError("%s: fields end at %d, record size %d" % (tag, off, RECORD_SIZE[tag]))
    return struct.Struct(fmt), [name for _, name, _ in fields]


STRUCTS = {tag: _compile(tag, f) for tag, f in FIELDS.items()}


# ---------------------------------------------------------------------------------------------
# Errors

class DemError(Exception):
    """A refused input: class is one of the section 6 classes."""

    def __init__(self, klass, frame, offset, where, detail):
        Exception.__init__(self, detail)
        self.klass, self.frame, self.offset, self.where, self.detail = \
            klass, frame, offset, where, detail

    def __str__(self):
        return "frame %d, offset %d (%s): %s: %s" % (self.frame, self.offset, self.where,
                                                      self.klass, self.detail)


EMPTY = "empty input"
NOT_GZIP = "not gzip data"
NOT_DEM = "not a dem frame"
VERSION = "unsupported version"
TRUNCATED = "truncated input"
CORRUPT = "corrupt data"
MALFORMED = "malformed frame"
IMPOSSIBLE = "impossible value"


# ---------------------------------------------------------------------------------------------
# gzip members (RFC 1952), read incrementally so that frames are delivered as they arrive.

class Source:
    """Buffered byte input with the absolute stream offset of every byte."""

    CHUNK = 1 << 16

    def __init__(self, f):
        self.f = f
        self.buf = b""
        self.pos = 0          # index into buf
        self.base = 0         # stream offset of buf[0]
        self.eof = False

    def offset(self):
        return self.base + self.pos

    def fill(self):
        """Reads one more chunk; False at end of input."""
        if self.eof:
            return False
        data = self.f.read(self.CHUNK)
        if not data:
            self.eof = True
            return False
        self.buf = self.buf[self.pos:] + data
        self.base += self.pos
        self.pos = 0
        return True

    def have(self, n):
        """True if n bytes are available at pos (reading more as needed)."""
        while len(self.buf) - self.pos < n:
            if not self.fill():
                return False
        return True

    def take(self, n):
        s = self.buf[self.pos:self.pos + n]
        self.pos += n
        return s


FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 1, 2, 4, 8, 16


def read_member(src, frame):
    """Returns the payload of the next gzip member, or None at the end of the input."""
    start = src.offset()
    if not src.have(1):
        if frame == 0:
            raise DemError(EMPTY, 0, start, "stream", "no byte at all")
        return None

    def truncated(what):
        raise DemError(TRUNCATED, frame, src.offset(), "gzip " + what,
                       "input ends inside a member (member starts at byte %d)" % start)

    if not src.have(2):
        if src.buf[src.pos] == 0x1f:
            truncated("header")
        raise DemError(NOT_GZIP, frame, start, "gzip header", "frame does not start with 1f 8b")
    if src.buf[src.pos:src.pos + 2] != b"\x1f\x8b":
        raise DemError(NOT_GZIP, frame, start, "gzip header", "frame does not start with 1f 8b")
    if not src.have(10):
        truncated("header")
    header = src.take(10)
    cm, flg = header[2], header[3]
    if cm != 8:
        raise DemError(CORRUPT, frame, start + 2, "gzip header",
                       "compression method %d is not deflate (8)" % cm)
    if flg & 0xe0:
        raise DemError(CORRUPT, frame, start + 3, "gzip header",
                       "reserved FLG bits set (0x%02x)" % flg)
    subfields = []
    if flg & FEXTRA:
        if not src.have(2):
            truncated("FEXTRA")
        xlen_bytes = src.take(2)
        header += xlen_bytes
        xlen = struct.unpack("<H", xlen_bytes)[0]
        if not src.have(xlen):
            truncated("FEXTRA")
        extra = src.take(xlen)
        header += extra
        at = 0
        while at + 4 <= len(extra):  # RFC 1952 subfields: SI1 SI2 LEN data
            ln = struct.unpack_from("<H", extra, at + 2)[0]
            subfields.append(bytes(extra[at:at + 2]))
            at += 4 + ln
    for bit, name in ((FNAME, "FNAME"), (FCOMMENT, "FCOMMENT")):
        if flg & bit:
            while True:
                if not src.have(1):
                    truncated(name)
                c = src.take(1)
                header += c
                if c == b"\0":
                    break
    if flg & FHCRC:
        if not src.have(2):
            truncated("FHCRC")
        hcrc = struct.unpack("<H", src.take(2))[0]
        if hcrc != zlib.crc32(header) & 0xffff:
            raise DemError(CORRUPT, frame, src.offset() - 2, "gzip header",
                           "header CRC-16 mismatch")

    # deflate data
    d = zlib.decompressobj(-zlib.MAX_WBITS)
    parts = []
    while not d.eof:
        if src.pos >= len(src.buf) and not src.fill():
            truncated("deflate data")
        chunk = src.buf[src.pos:]
        chunk_start = src.offset()
        try:
            parts.append(d.decompress(chunk))
        except zlib.error as e:
            raise DemError(CORRUPT, frame, chunk_start, "deflate data", "deflate error: %s" % e)
        src.pos += len(chunk) - len(d.unused_data)
    payload = b"".join(parts)

    if not src.have(8):
        truncated("trailer")
    trailer_at = src.offset()
    crc, isize = struct.unpack("<II", src.take(8))
    if crc != zlib.crc32(payload) & 0xffffffff:
        raise DemError(CORRUPT, frame, trailer_at, "gzip trailer",
                       "CRC-32 mismatch (stored %08x, computed %08x)"
                       % (crc, zlib.crc32(payload) & 0xffffffff))
    if isize != len(payload) & 0xffffffff:
        raise DemError(CORRUPT, frame, trailer_at + 4, "gzip trailer",
                       "length mismatch (stored %d, payload %d bytes)" % (isize, len(payload)))
    if b"DE" in subfields and len(payload) == 0:
        return END_MARKER  # spec §3.1: the end-of-stream marker
    return payload


END_MARKER = b"end-of-stream marker"  # read_member's value for it: not a payload


# ---------------------------------------------------------------------------------------------
# Frame payload

MAGIC = b"DEMSTRM\0"
KNOWN_MAJOR = 1


def decode_frame(p, frame):
    """Decodes and checks one payload; returns a dict of the frame's tables."""

    def malformed(off, where, detail):
        raise DemError(MALFORMED, frame, off, where, detail)

    if len(p) < 8 or p[:8] != MAGIC:
        raise DemError(NOT_DEM, frame, 0, "magic", "payload does not start with DEMSTRM\\0")
    if len(p) < 16:
        malformed(len(p), "header", "payload ends inside the 16-byte frame header")
    major, minor, _reserved = struct.unpack_from("<HHI", p, 8)
    if major != KNOWN_MAJOR:
        raise DemError(VERSION, frame, 8, "major",
                       "major version %d (this reader knows %d)" % (major, KNOWN_MAJOR))

    fr = {"frame": frame, "major": major, "minor": minor, "sections": [],
          "PARM": [], "MATL": [], "WALL": [], "CELL": [], "CLMP": [], "PART": [], "CONT": [],
          "ENRG": [], "HEAD": [], "history_slots": 0}
    seen = set()
    off = 16
    ended = False
    first = True
    while off < len(p):
        if len(p) - off < 16:
            malformed(off, "section header", "payload ends inside a section header")
        tag_b, flags, length = struct.unpack_from("<4sIQ", p, off)
        tag = tag_b.decode("latin-1")
        body = off + 16
        if length > len(p) - body:
            malformed(off + 8, tag, "section length %d runs past the payload (%d bytes left)"
                      % (length, len(p) - body))
        if first and tag != "HEAD":
            malformed(off, tag, "the first section is not HEAD")
        first = False
        if tag in KNOWN_TAGS:
            if tag in seen:
                malformed(off, tag, "duplicate section")
            seen.add(tag)
        fr["sections"].append((tag, flags, length))
        if tag == "END ":
            if length != 0:
                malformed(off + 8, tag, "END section with length %d" % length)
            ended = True
            off = body
            break
        if tag not in KNOWN_TAGS:
            if flags & 1:
                malformed(off, tag, "unknown required section %r" % tag)
            off = body + length           # unknown optional section: skip it
            continue
        if tag == "PARM":
            fr["PARM"] = decode_parm(p, body, length, frame)
        else:
            decode_table(p, tag, body, length, frame, fr)
        off = body + length
    if not ended:
        malformed(off, "END ", "no END section")
    if off != len(p):
        malformed(off, "END ", "%d bytes after END" % (len(p) - off))
    for tag in ("HEAD", "ENRG"):
        if len(fr[tag]) != 1:
            malformed(0, tag, "%s has %d records, needs exactly 1"
                      % (tag, len(fr[tag])) if tag in seen else "missing %s section" % tag)
    check_values(fr)
    return fr


def decode_table(p, tag, body, length, frame, fr):
    def malformed(off, detail):
        raise DemError(MALFORMED, frame, off, tag, detail)

    if length < 16:
        malformed(body, "section length %d is shorter than the 16-byte table header" % length)
    count, rsize, extra = struct.unpack_from("<QII", p, body)
    known = RECORD_SIZE[tag]
    slots = 0
    if tag == "CONT":
        slots = extra
        if slots > MAX_HISTORY_SLOTS:
            malformed(body + 12, "%d history slots (at most %d)" % (slots, MAX_HISTORY_SLOTS))
        known = RECORD_SIZE["CONT"] + 8 * slots
    if rsize > MAX_RECORD_SIZE:
        malformed(body + 8, "record size %d exceeds %d" % (rsize, MAX_RECORD_SIZE))
    if rsize < known:
        malformed(body + 8, "record size %d is below the format 1.0 size %d" % (rsize, known))
    if length != 16 + count * rsize:
        malformed(body, "length %d != 16 + count %d * record size %d" % (length, count, rsize))
    if tag in ("HEAD", "ENRG") and count != 1:
        malformed(body, "%d records, needs exactly 1" % count)
    if tag == "CELL" and count > 1:
        malformed(body, "%d records, at most 1" % count)
    st, names = STRUCTS[tag]
    recs = []
    at = body + 16
    for k in range(count):
        rec = dict(zip(names, st.unpack_from(p, at)))
        if tag == "CONT":
            # the fixed part is record_size - 8K bytes; the K slots are the last 8K bytes
            fixed = rsize - 8 * slots
            rec["history"] = list(struct.unpack_from("<%dd" % slots, p, at + fixed))
        if tag == "MATL":
            rec["name"] = decode_name(rec["name"], frame, at, "MATL[%d].name" % k)
        if tag == "CELL":
            # format 1.4 appends F (9 f64 at byte 248); identity before
            f = struct.unpack_from("<9d", p, at + 248) if rsize >= 320 else (1, 0, 0, 0, 1, 0, 0, 0, 1)
            for i in range(9):
                rec["f%d%d" % (i // 3 + 1, i % 3 + 1)] = f[i]
        rec["_offset"] = at
        recs.append(rec)
        at += rsize
    fr[tag] = recs
    if tag == "CONT":
        fr["history_slots"] = slots


def decode_name(raw, frame, at, where):
    if b"\0" not in raw:
        raise DemError(MALFORMED, frame, at, where, "char[32] without a NUL byte")
    text = raw.split(b"\0", 1)[0]
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        raise DemError(MALFORMED, frame, at, where, "name is not UTF-8")


def decode_parm(p, body, length, frame):
    def malformed(off, detail):
        raise DemError(MALFORMED, frame, off, "PARM", detail)

    if length < 16:
        malformed(body, "section length %d is shorter than the 16-byte table header" % length)
    count, rsize, extra = struct.unpack_from("<QII", p, body)
    if rsize != 0:
        malformed(body + 8, "PARM record size %d, must be 0" % rsize)
    if extra != 0:
        malformed(body + 12, "PARM extra %d, must be 0" % extra)
    end = body + length
    at = body + 16
    entries = []
    keys = set()
    while at < end:
        start = at
        if end - at < 2:
            malformed(at, "entry header runs past the section")
        klen = struct.unpack_from("<H", p, at)[0]
        if not 1 <= klen <= 47:
            malformed(at, "key length %d not in 1..47" % klen)
        if end - at < 2 + klen + 2:
            malformed(at, "entry runs past the section")
        key_b = p[at + 2:at + 2 + klen]
        if any(c < 0x21 or c > 0x7e for c in key_b):  # section 5.2: printable ASCII
            malformed(at + 2, "key is not printable ASCII (bytes 0x21..0x7e)")
        key = key_b.decode("ascii")
        if key in keys:
            malformed(at, "duplicate key %r" % key)
        keys.add(key)
        typ, cnt = p[at + 2 + klen], p[at + 3 + klen]
        at += 4 + klen
        if typ == 1:
            if cnt != 1:
                malformed(at - 1, "key %r: count %d for an i64" % (key, cnt))
            if end - at < 8:
                malformed(at, "key %r: value runs past the section" % key)
            value = struct.unpack_from("<q", p, at)[0]
            at += 8
        elif typ == 2:
            if not 1 <= cnt <= 9:
                malformed(at - 1, "key %r: count %d not in 1..9" % (key, cnt))
            if end - at < 8 * cnt:
                malformed(at, "key %r: value runs past the section" % key)
            value = list(struct.unpack_from("<%dd" % cnt, p, at))
            at += 8 * cnt
        elif typ == 3:
            if cnt != 1:
                malformed(at - 1, "key %r: count %d for a string" % (key, cnt))
            if end - at < 2:
                malformed(at, "key %r: value runs past the section" % key)
            slen = struct.unpack_from("<H", p, at)[0]
            if slen > 63:
                malformed(at, "key %r: string length %d > 63" % (key, slen))
            if end - at < 2 + slen:
                malformed(at, "key %r: value runs past the section" % key)
            sb = p[at + 2:at + 2 + slen]
            if b"\0" in sb:
                malformed(at + 2, "key %r: string holds a NUL byte" % key)
            try:
                value = sb.decode("utf-8")
            except UnicodeDecodeError:
                malformed(at + 2, "key %r: string is not UTF-8" % key)
            at += 2 + slen
        else:
            malformed(at - 2, "key %r: unknown type %d" % (key, typ))
        entries.append({"key": key, "type": typ, "value": value, "_offset": start})
    if len(entries) != count:
        malformed(body, "count %d but %d entries" % (count, len(entries)))
    return entries


# ---------------------------------------------------------------------------------------------
# Section 6, "impossible value"

def _finite(*xs):
    return all(math.isfinite(x) for x in xs)


def _pos_finite(x):
    return math.isfinite(x) and x > 0


def check_values(fr):
    """Every rule of section 6.1 of the spec, in the spec's words, table by table."""
    frame = fr["frame"]

    def bad(rec, where, detail):
        raise DemError(IMPOSSIBLE, frame, rec.get("_offset", 0), where, detail)

    def finite(rec, where, names):
        for f in names:
            if not math.isfinite(rec[f]):
                bad(rec, where + "." + f, "%s %r not finite" % (f, rec[f]))

    def positive(rec, where, names):
        for f in names:
            if not _pos_finite(rec[f]):
                bad(rec, where + "." + f, "%s %r not positive and finite" % (f, rec[f]))

    def vec(prefix):
        return [prefix + c for c in "xyz"]

    def unit_quat(rec, where, names):
        qn = math.sqrt(sum(rec[f] ** 2 for f in names))
        if not abs(qn - 1) <= 1e-6:
            bad(rec, where + ".q", "orientation of norm %r, not a unit quaternion (+-1e-6)" % qn)

    head = fr["HEAD"][0]
    if not math.isfinite(head["time"]):
        bad(head, "HEAD.time", "time %r not finite" % head["time"])
    if not (math.isfinite(head["dt"]) and head["dt"] >= 0):
        bad(head, "HEAD.dt", "dt %r negative or not finite" % head["dt"])

    nmat = len(fr["MATL"])
    nwall = len(fr["WALL"])
    for k, m in enumerate(fr["MATL"]):
        w = "MATL[%d]" % k
        # a name without a NUL among its 32 bytes: refused by decode_name as it is read
        positive(m, w, ("density", "young"))
        if not -1 < m["poisson"] < 0.5:
            bad(m, w + ".poisson", "Poisson's ratio %r not in (-1, 0.5)" % m["poisson"])
        for f in ("friction", "rolling_friction", "twisting_friction", "surface_energy"):
            if not (math.isfinite(m[f]) and m[f] >= 0):
                bad(m, w + "." + f, "%s %r negative or not finite" % (f, m[f]))
        if not 0 < m["restitution"] <= 1:
            bad(m, w + ".restitution", "restitution %r not in (0, 1]" % m["restitution"])
    for k, wl in enumerate(fr["WALL"]):
        w = "WALL[%d]" % k
        if wl["kind"] not in (1, 2):
            bad(wl, w + ".kind", "kind %d is not 1 (plane) or 2 (cylinder)" % wl["kind"])
        if wl["material"] >= nmat:
            bad(wl, w + ".material", "material index %d out of range (%d materials)"
                % (wl["material"], nmat))
        finite(wl, w, vec("p") + vec("v") + vec("w") + vec("f") + vec("t") + ["work"])
        n = math.sqrt(wl["nx"] ** 2 + wl["ny"] ** 2 + wl["nz"] ** 2)
        if not abs(n - 1) <= 1e-9:
            bad(wl, w + ".n", "normal of length %r, not 1 (+-1e-9)" % n)
        if wl["kind"] == 2:
            positive(wl, w, ("radius",))
    if fr["CELL"] and fr["CELL"][0]["flags"] != 0:
        c = fr["CELL"][0]
        for m in ("h", "f"):  # the cell vectors right-handed; F (format 1.4) invertible
            a = [[c["%s%d%d" % (m, r, s)] for s in (1, 2, 3)] for r in (1, 2, 3)]
            det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                   - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                   + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
            if not (math.isfinite(det) and det > 0):
                bad(c, "CELL." + m.upper(), "det %s = %r not positive and finite" % (m.upper(), det))
        finite(c, "CELL", vec("o") + ["l%d%d" % (r, s) for r in (1, 2, 3) for s in (1, 2, 3)]
               + ["s%d%d" % (r, s) for r in (1, 2, 3) for s in (1, 2, 3)])
    clumps = set()
    for k, cl in enumerate(fr["CLMP"]):
        w = "CLMP[%d]" % k
        if cl["id"] == 0 or cl["id"] in clumps:
            bad(cl, w + ".id", "clump id %d is 0 or repeated" % cl["id"])
        clumps.add(cl["id"])
        positive(cl, w, ("mass", "i1", "i2", "i3"))
        finite(cl, w, vec("") + vec("v") + vec("w") + vec("f") + vec("t"))
        unit_quat(cl, w, ("q0", "q1", "q2", "q3"))
    ids = set()
    for k, pt in enumerate(fr["PART"]):
        w = "PART[%d]" % k
        positive(pt, w, ("r", "mass", "inertia"))
        finite(pt, w, vec("") + vec("v") + vec("w") + vec("f") + vec("t"))
        unit_quat(pt, w, ("q0", "q1", "q2", "q3"))
        for f in ("ix", "iy", "iz"):
            if abs(pt[f]) > 2 ** 30:
                bad(pt, w + "." + f, "image counter %s = %d beyond +-2^30" % (f, pt[f]))
        if pt["material"] >= nmat:
            bad(pt, w + ".material", "material index %d out of range (%d materials)"
                % (pt["material"], nmat))
        if pt["clump"] != 0 and pt["clump"] not in clumps:
            bad(pt, w + ".clump", "clump %d does not exist" % pt["clump"])
        if pt["id"] in ids:
            bad(pt, w + ".id", "duplicate particle id %d" % pt["id"])
        ids.add(pt["id"])
    pairs = set()
    for k, ct in enumerate(fr["CONT"]):
        w = "CONT[%d]" % k
        if ct["i"] not in ids:
            bad(ct, w + ".i", "contact names particle %d, which does not exist" % ct["i"])
        shift = (ct["sx"], ct["sy"], ct["sz"])
        if any(abs(x) > 2 ** 30 for x in shift):
            bad(ct, w + ".s", "image shift %r beyond +-2^30" % (shift,))
        if ct["flags"] & 1:
            if ct["j"] >= nwall:
                bad(ct, w + ".j", "wall index %d out of range (%d walls)" % (ct["j"], nwall))
            key = ("wall", ct["i"], ct["j"])
        else:
            if ct["j"] not in ids:
                bad(ct, w + ".j", "contact names particle %d, which does not exist" % ct["j"])
            if ct["j"] == ct["i"] and shift == (0, 0, 0):
                bad(ct, w + ".j", "particle %d in contact with itself" % ct["i"])
            # (i, j, s) and (j, i, -s) are the same pair
            key = min((ct["i"], ct["j"], shift), (ct["j"], ct["i"], tuple(-x for x in shift)))
        if key in pairs:
            bad(ct, w, "the pair %r appears twice" % (key,))
        pairs.add(key)
        finite(ct, w, ["overlap"] + vec("n") + vec("fn") + vec("ft")
               + ["diss_friction", "diss_damp_n", "diss_damp_t"])
        for s, h in enumerate(ct["history"]):
            if not math.isfinite(h):
                bad(ct, w + ".h%d" % s, "history slot %d %r not finite" % (s, h))
    en = fr["ENRG"][0]
    for f in [name for _, name, _ in ENRG_FIELDS]:  # e_initial (1.1) is beyond this reader's prefix
        if not math.isfinite(en[f]):
            bad(en, "ENRG." + f, "accumulator %s %r not finite" % (f, en[f]))


# ---------------------------------------------------------------------------------------------
# Output

USE_REPR = False


def fmt(x):
    """A double as text: see the module doc string."""
    if USE_REPR:
        return repr(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    first = 1 if 0 < abs(x) < 2.2250738585072014e-308 else 15  # subnormals: search from 1 digit
    for prec in range(first, 18):
        s = "%.*g" % (prec, x)
        if float(s) == x:
            return s
    return s


PART_MAIN = ["x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"]
PART_REST = ["fx", "fy", "fz", "r", "material", "flags", "group", "clump", "mass", "inertia",
             "q0", "q1", "q2", "q3", "tx", "ty", "tz", "ix", "iy", "iz"]


def _cell(v):
    return fmt(v) if isinstance(v, float) else str(v)


def header(mode, out):
    """The header line of the modes whose columns do not depend on the first frame."""
    if mode == "particles":
        out.write("frame\tid\t" + "\t".join(PART_MAIN) + "\tr\n")
    elif mode == "all-fields":
        out.write("frame\tid\t" + "\t".join(PART_MAIN + PART_REST) + "\n")
    elif mode == "summary":
        out.write("frame\tstep\ttime\tmaterials\twalls\tparticles\tcontacts\thistory_slots"
                  "\tperiodic\n")


def emit(mode, fr, out, first):
    n = fr["frame"]
    if mode == "particles":
        for pt in fr["PART"]:
            out.write("%d\t%d\t%s\t%s\n" % (n, pt["id"], "\t".join(fmt(pt[f]) for f in PART_MAIN),
                                            fmt(pt["r"])))
    elif mode == "all-fields":
        for pt in fr["PART"]:
            out.write("%d\t%d\t%s\n" % (n, pt["id"], "\t".join(_cell(pt[f])
                                                              for f in PART_MAIN + PART_REST)))
    elif mode == "summary":
        head = fr["HEAD"][0]
        periodic = 1 if fr["CELL"] and fr["CELL"][0]["flags"] != 0 else 0
        out.write("%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n"
                  % (n, head["step"], fmt(head["time"]), len(fr["MATL"]), len(fr["WALL"]),
                     len(fr["PART"]), len(fr["CONT"]), fr["history_slots"], periodic))
    elif mode == "contacts":
        cols = ["i", "j", "wall", "sx", "sy", "sz", "overlap", "nx", "ny", "nz", "fnx", "fny",
                "fnz", "ftx", "fty", "ftz", "sliding", "diss_friction", "diss_damp_n",
                "diss_damp_t"]
        if first:
            out.write("frame\t" + "\t".join(cols + ["h%d" % k for k in range(fr["history_slots"])])
                      + "\n")
        for ct in fr["CONT"]:
            row = dict(ct, wall=ct["flags"] & 1, sliding=(ct["flags"] >> 1) & 1)
            out.write("%d\t%s\n" % (n, "\t".join([_cell(row[c]) for c in cols]
                                                 + [fmt(h) for h in ct["history"]])))
    elif mode == "dump":
        out.write("%d\tframe\t-\tversion\t%d.%d\n" % (n, fr["major"], fr["minor"]))
        for tag, flags, length in fr["sections"]:
            out.write("%d\tsection\t-\t%s\tflags=%d length=%d\n" % (n, tag.rstrip(), flags,
                                                                   length))
        for e in fr["PARM"]:
            v = e["value"]
            text = (" ".join(fmt(x) for x in v) if isinstance(v, list) else str(v))
            out.write("%d\tPARM\t-\t%s\t%s\n" % (n, e["key"], text))
        for tag in ("HEAD", "MATL", "WALL", "CELL", "CLMP", "PART", "CONT", "ENRG"):
            for k, rec in enumerate(fr[tag]):
                for name in STRUCTS[tag][1]:
                    out.write("%d\t%s\t%d\t%s\t%s\n" % (n, tag, k, name, _cell(rec[name])))
                if tag == "CONT":
                    for s, h in enumerate(rec["history"]):
                        out.write("%d\tCONT\t%d\th%d\t%s\n" % (n, k, s, fmt(h)))


def main(argv):
    global USE_REPR
    mode = "particles"
    path = "-"
    modes = {"--particles": "particles", "--summary": "summary", "--contacts": "contacts",
             "--all-fields": "all-fields", "--dump": "dump"}
    paths = []
    for a in argv[1:]:
        if a in modes:
            mode = modes[a]
        elif a == "--repr":
            USE_REPR = True
        elif a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        elif a.startswith("--"):
            sys.stderr.write("demread: unknown option %s\n" % a)
            return 2
        else:
            paths.append(a)
    if len(paths) > 1:
        sys.stderr.write("demread: at most one FILE\n")
        return 2
    if paths:
        path = paths[0]
    try:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as e:
        sys.stderr.write("demread: %s: %s\n" % (path, e.strerror))
        return 1
    out = sys.stdout
    src = Source(f)
    frame = 0
    header(mode, out)
    ended_with_marker = False
    try:
        while True:
            at = src.offset()
            payload = read_member(src, frame)
            if payload is None:
                break
            ended_with_marker = payload is END_MARKER
            if ended_with_marker:  # skipped: it ends the stream, or a part of a concatenation
                continue
            try:
                fr = decode_frame(payload, frame)
            except DemError as e:
                e.where = "%s, payload of the member at byte %d" % (e.where, at)
                raise
            emit(mode, fr, out, frame == 0)
            out.flush()
            frame += 1
    except DemError as e:
        out.flush()
        sys.stderr.write("demread: %s\n" % e)
        return 1
    if frame == 0:
        sys.stderr.write("demread: frame 0: the stream holds no frame\n")
        return 1
    if not ended_with_marker:
        sys.stderr.write("demread: warning: no end-of-stream marker after frame %d: the stream may be cut short\n"
                         % (frame - 1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.exit(1)
