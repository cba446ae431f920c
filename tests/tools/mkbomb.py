#!/usr/bin/env python3
"""mkbomb.py - a decompression bomb: the first frame of a valid stream with its particle table
replaced by N records of zeros (invalid: radius 0), streamed through zlib so that neither this
script nor the file holds them. 5e6 records of 216 bytes (1.08 GB of payload) deflate to about
1 MB.

Usage: mkbomb.py N < valid.dem > bomb.dem
       mkbomb.py --skippable N < valid.dem > big.dem    (a valid frame with an unknown skippable
                                                           section of N zero bytes after HEAD)
       mkbomb.py --after-end N < valid.dem > tail.dem   (the frame followed by N zero bytes after
                                                           its END section, in the same member)
"""
import struct
import sys
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/independent")
import demcraft  # noqa: E402


def main(argv):
    mode = argv[1] if argv[1].startswith("--") else "--particles"
    n = int(float(argv[-1]))
    data = sys.stdin.buffer.read()
    payload = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)  # the first member
    head, secs = demcraft.split_sections(payload)
    part = demcraft.find(secs, b"PART")
    rsize = struct.unpack_from("<QII", part[2], 0)[1]
    out = sys.stdout.buffer
    out.write(b"\x1f\x8b\x08\x00" + struct.pack("<I", 0) + b"\x00\xff")
    c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    crc, size = 0, 0

    def put(b):
        nonlocal crc, size
        crc = zlib.crc32(b, crc)
        size += len(b)
        out.write(c.compress(b))

    zeros = bytes(1 << 20)

    def put_zeros(count):
        while count:
            k = min(count, len(zeros))
            put(zeros[:k])
            count -= k

    put(bytes(head))
    for tag, flags, body in secs:
        if mode == "--skippable" and tag != b"HEAD" and n is not None:
            put(struct.pack("<4sIQ", b"XTRA", 0, n))
            put_zeros(n)
            n = None
        if tag == b"PART" and mode == "--particles":
            put(struct.pack("<4sIQ", tag, flags, 16 + n * rsize) + struct.pack("<QII", n, rsize, 0))
            zeros = bytes(rsize * 4096)
            left = n
            while left:
                k = min(left, 4096)
                put(zeros[:k * rsize])
                left -= k
        else:
            put(struct.pack("<4sIQ", tag, flags, len(body)) + bytes(body))
    if mode == "--after-end":
        put_zeros(n)
    out.write(c.flush())
    out.write(struct.pack("<II", crc & 0xffffffff, size & 0xffffffff))


if __name__ == "__main__":
    main(sys.argv)
