#!/usr/bin/env python3
"""demcraft.py - rewrite the frames of a dem stream, written from formats/dem-stream.md alone.

Usage: demcraft.py [OPTIONS] < in.dem > out.dem

Decompresses every frame, applies the options to its payload at the level of raw sections,
and writes each frame again as one gzip member. Used by tests/bats/independent.bats to make
streams that dem-pack does not write (newer minor versions, unknown sections, contacts with
history slots, settings, unusual gzip headers) so that demread.py and dem-probe can be compared.

  --major N / --minor N      set the version fields of the frame header
  --add TAG:FLAGS:HEX        add a section (body given in hex, may be empty) before END
  --drop TAG                 remove a section (TAG padded with spaces to 4 bytes)
  --reverse                  reverse the order of the sections between HEAD and END
  --grow TAG:N               append N bytes (0xa5) to every record of a table section, the way
                             a newer minor version appends fields (CONT: before the history)
  --slots K                  give CONT K history slots (existing records keep theirs, zero-padded)
  --contact I,J,WALL,SEED    append a CONT record between particle I and particle (or wall) J,
                             its float fields and history slots filled from SEED
  --parm KEY=TYPE:VALUE      append a PARM entry: TYPE i (i64), f (comma separated f64), s
  --gzip-header              write FTEXT, FEXTRA, FNAME, FCOMMENT and FHCRC fields
  --level L                  deflate level (0: stored blocks)
  --set TAG:K:OFF:FMT:VALUE  pack VALUE with struct format FMT at byte OFF of record K of TAG
                             (K = -1: the 16-byte table header)
  --corrupt-payload OFF      xor the payload byte at OFF with 0xff (CRC recomputed)
  --no-end                   leave out the end-of-stream marker (written after the last frame)
"""

import struct
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, __file__.rsplit("/", 1)[0])
import demread  # noqa: E402  (for its gzip member reader only)


def split_sections(p):
    head = p[:16]
    secs = []
    off = 16
    while off < len(p):
        tag, flags, length = struct.unpack_from("<4sIQ", p, off)
        secs.append([tag, flags, bytearray(p[off + 16:off + 16 + length])])
        off += 16 + length
    return bytearray(head), secs


def join_sections(head, secs):
    out = bytearray(head)
    for tag, flags, body in secs:
        out += struct.pack("<4sIQ", tag, flags, len(body)) + body
    return bytes(out)


def find(secs, tag):
    for s in secs:
        if s[0] == tag:
            return s
    return None


def table(body):
    count, rsize, extra = struct.unpack_from("<QII", body, 0)
    recs = [bytes(body[16 + k * rsize:16 + (k + 1) * rsize]) for k in range(count)]
    return rsize, extra, recs


def make_table(rsize, extra, recs):
    return bytearray(struct.pack("<QII", len(recs), rsize, extra) + b"".join(recs))


def tagname(t):
    return (t + "    ")[:4].encode("ascii")


def gzip_member(payload, level, fancy):
    flg = 0
    extra = b""
    if fancy:
        flg = 1 | 2 | 4 | 8 | 16
        sub = b"DM" + struct.pack("<H", 3) + b"abc"
        extra = struct.pack("<H", len(sub)) + sub + b"frame.dem\0" + b"made by demcraft\0"
    header = b"\x1f\x8b\x08" + bytes([flg]) + struct.pack("<I", 12345) + b"\x00\xff" + extra
    if fancy:
        header += struct.pack("<H", zlib.crc32(header) & 0xffff)
    c = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = c.compress(payload) + c.flush()
    return header + data + struct.pack("<II", zlib.crc32(payload) & 0xffffffff,
                                       len(payload) & 0xffffffff)


END_MARKER = bytes.fromhex("1f8b08040000000000030400444500000300" + "00" * 8)


def main(argv):
    ops = []
    level = 6
    fancy = False
    end = True
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--gzip-header":
            fancy = True
        elif a == "--reverse":
            ops.append((a, None))
        elif a == "--level":
            level = int(args.pop(0))
        elif a == "--no-end":
            end = False
        else:
            ops.append((a, args.pop(0)))
    src = demread.Source(sys.stdin.buffer)
    frame = 0
    while True:
        p = demread.read_member(src, frame)
        if p is None:
            break
        if p is demread.END_MARKER:  # written again at the end (unless --no-end)
            continue
        head, secs = split_sections(p)
        for op, v in ops:
            if op == "--major":
                struct.pack_into("<H", head, 8, int(v))
            elif op == "--minor":
                struct.pack_into("<H", head, 10, int(v))
            elif op == "--add":
                tag, flags, hexbody = v.split(":")
                secs.insert(len(secs) - 1, [tagname(tag), int(flags), bytearray.fromhex(hexbody)])
            elif op == "--drop":
                secs = [s for s in secs if s[0] != tagname(v)]
            elif op == "--reverse":
                secs = secs[:1] + secs[1:-1][::-1] + secs[-1:]
            elif op == "--grow":
                tag, n = v.split(":")
                n = int(n)
                s = find(secs, tagname(tag))
                rsize, extra, recs = table(s[2])
                if tag == "CONT":
                    fixed = rsize - 8 * extra
                    recs = [r[:fixed] + b"\xa5" * n + r[fixed:] for r in recs]
                else:
                    recs = [r + b"\xa5" * n for r in recs]
                s[2] = make_table(rsize + n, extra, recs)
            elif op == "--slots":
                k = int(v)
                s = find(secs, b"CONT")
                rsize, extra, recs = table(s[2])
                fixed = rsize - 8 * extra
                recs = [(r + b"\0" * (8 * k))[:fixed + 8 * k] for r in recs]
                s[2] = make_table(fixed + 8 * k, k, recs)
            elif op == "--contact":
                i, j, wall, seed = (int(x) for x in v.split(","))
                s = find(secs, b"CONT")
                rsize, extra, recs = table(s[2])
                fixed = rsize - 8 * extra
                vals = [seed * 1.0e-3 + 0.1 * k + 1.0 / (k + 3) for k in range(13)]
                rec = struct.pack("<QQIiii13d", i, j, (1 if wall else 0) | (seed & 2),
                                  seed % 3 - 1, 0, -(seed % 2), *vals)
                rec = rec.ljust(fixed, b"\0")
                rec += struct.pack("<%dd" % extra, *[-(seed + h) * 1e-6 for h in range(extra)])
                recs.append(rec)
                s[2] = make_table(rsize, extra, recs)
            elif op == "--parm":
                key, tv = v.split("=", 1)
                t, val = tv.split(":", 1)
                s = find(secs, b"PARM")
                count = struct.unpack_from("<Q", s[2], 0)[0]
                struct.pack_into("<Q", s[2], 0, count + 1)
                kb = key.encode("utf-8")  # non-ASCII keys too, to test that readers refuse them
                e = struct.pack("<H", len(kb)) + kb
                if t == "i":
                    e += bytes([1, 1]) + struct.pack("<q", int(val))
                elif t == "f":
                    xs = [float(x) for x in val.split(",")]
                    e += bytes([2, len(xs)]) + struct.pack("<%dd" % len(xs), *xs)
                else:
                    sb = val.encode("utf-8")
                    e += bytes([3, 1]) + struct.pack("<H", len(sb)) + sb
                s[2] += e
            elif op == "--set":
                tag, k, off, fm, val = v.split(":")
                s = find(secs, tagname(tag))
                rsize = struct.unpack_from("<I", s[2], 8)[0]
                at = int(off) if int(k) < 0 else 16 + int(k) * rsize + int(off)
                conv = float if fm[-1] in "fd" else (lambda x: int(x, 0))
                struct.pack_into("<" + fm, s[2], at, conv(val))
            elif op == "--corrupt-payload":
                pass
            else:
                sys.stderr.write("demcraft: unknown option %s\n" % op)
                return 2
        payload = bytearray(join_sections(head, secs))
        for op, v in ops:
            if op == "--corrupt-payload":
                payload[int(v)] ^= 0xff
        sys.stdout.buffer.write(gzip_member(bytes(payload), level, fancy))
        frame += 1
    if end:  # spec §3.1: the end-of-stream marker, 26 bytes
        sys.stdout.buffer.write(END_MARKER)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
