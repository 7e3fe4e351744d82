#!/usr/bin/env python3
"""A version 7 WET read from wet/WET.md alone (issue 32: the layout, every
field's width and byte order, the reserved fields), not from the reader's
code: header, footer, index header and segment entries, every block's
place and XXH64 (libxxhash through ctypes, an implementation of its own),
the embedded IMS and AES (against the files they came from, when given),
the xz-compressed node table statement by statement, and the range
coder's first byte of every block.  Prints what it found; exits 1 naming
the first field that does not match WET.md.
Usage: wet_spec.py RUN.wet [RUN.ims RUN.aes] [--skip1]
  (--skip1: the file starts with a one-byte flag, as the fuzz seeds do)
"""
import ctypes
import lzma
import struct
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
data = open(args[0], "rb").read()
if "--skip1" in sys.argv:
    data = data[1:]
lib = ctypes.CDLL("libxxhash.so.0")
lib.XXH32.restype = ctypes.c_uint32
lib.XXH32.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]
lib.XXH64.restype = ctypes.c_uint64
lib.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
x32 = lambda b: lib.XXH32(bytes(b), len(b), 0)
x64 = lambda b: lib.XXH64(bytes(b), len(b), 0)


def fail(msg):
    print(f"wet_spec: {args[0]}: {msg}")
    sys.exit(1)


def want(cond, msg):
    if not cond:
        fail(msg)


u16 = lambda b, o: struct.unpack_from("<H", b, o)[0]
u32 = lambda b, o: struct.unpack_from("<I", b, o)[0]
u64 = lambda b, o: struct.unpack_from("<Q", b, o)[0]

# Header (16 bytes)
want(len(data) >= 16 + 64, "shorter than a header and a footer")
want(data[0:8] == b"CITCWET\0", "header magic")
want(u16(data, 8) == 7, f"version {u16(data, 8)}, not 7")
want(u16(data, 10) == 0, "header reserved bytes 10..11")
want(u32(data, 12) == x32(data[0:12]), "header XXH32 (offset 12)")

# Footer (64 bytes, at the end)
fo = len(data) - 64
f = data[fo:]
goff, glen, ioff, ilen = u64(f, 0), u64(f, 8), u64(f, 16), u64(f, 24)
want(f[48:56] == b"CWETEND\0", "footer magic")
want(u32(f, 56) == x32(f[0:56]), "footer XXH32 (footer offset 56)")
want(u32(f, 60) == 0, "footer reserved bytes 60..63")
want(ioff == goff + glen, "index offset = graph offset + graph length")
want(ilen == fo - ioff, "index length = footer offset - index offset")
want(glen <= 256 << 20 and ilen <= 256 << 20, "graph or index above 256 MiB")
graph, index = data[goff:goff + glen], data[ioff:ioff + ilen]
want(u64(f, 32) == x64(graph), "graph XXH64 (footer offset 32)")
want(u64(f, 40) == x64(index), "index XXH64 (footer offset 40)")

# Index header (96 bytes)
want(len(index) >= 96, "index shorter than its header")
insns, execs, irqs = u64(index, 0), u64(index, 8), u64(index, 16)
nseg, nblk = u32(index, 24), u32(index, 28)
imso, imsl, imsh = u64(index, 32), u64(index, 40), u64(index, 48)
aeso, aesl, aesh = u64(index, 56), u64(index, 64), u64(index, 72)
rawlen, target = u64(index, 80), u32(index, 88)
want(nblk == 4, "blocks per segment not 4")
want(target in (0, 1), f"target {target}")
want(u32(index, 92) == 0, "index reserved bytes 92..95")
want(len(index) == 96 + nseg * (40 + 4 * 24), "index length = 96 + S x 136")
want(aeso == imso + imsl, "AES offset = IMS offset + IMS length")
want(aesl == goff - aeso, "AES length = graph offset - AES offset")
ims, aes = data[imso:imso + imsl], data[aeso:aeso + aesl]
want(x64(ims) == imsh, "IMS XXH64 (index offset 48)")
want(x64(aes) == aesh, "AES XXH64 (index offset 72)")
if len(args) >= 3:
    want(ims == open(args[1], "rb").read(), "the embedded IMS is not the IMS file byte for byte")
    want(aes == open(args[2], "rb").read(), "the embedded AES is not the AES file byte for byte")

# Segment entries: 40 + 4 x 24 bytes each, blocks contiguous from 16
at, first, ts, pos = 96, 0, 1, 16
tot_i = tot_e = 0
for k in range(nseg):
    e = index[at:at + 136]
    want(u64(e, 0) == first, f"segment {k}: first INDEX")
    want(u64(e, 8) == ts, f"segment {k}: first timestamp")
    ni, ne, reach = u32(e, 16), u32(e, 20), u64(e, 24)
    want(ni <= 1 << 20 and ne <= 1 << 20 and ni <= 1024 * ne, f"segment {k}: counts above the limits")
    want(reach <= first, f"segment {k}: reach after its start")
    for b in range(4):
        bo, bl, br, bh = u64(e, 40 + 24 * b), u32(e, 48 + 24 * b), u32(e, 52 + 24 * b), u64(e, 56 + 24 * b)
        want(bo == pos, f"segment {k} block {b}: offset {bo}, not {pos}")
        want(br == 0, f"segment {k} block {b}: reserved")
        blk = data[bo:bo + bl]
        want(x64(blk) == bh, f"segment {k} block {b}: XXH64")
        want(bl >= 5 and blk[0] == 0, f"segment {k} block {b}: a range-coded block starts with 0 and has 5 bytes")
        pos += bl
    first += ni
    ts += ne
    tot_i += ni
    tot_e += ne
    at += 136
want(pos == imso, "IMS offset = end of the last block")
want(tot_i == insns and tot_e == execs, "segment totals against the index header")

# Graph: xz of the node table
raw = lzma.decompress(graph, format=lzma.FORMAT_XZ)
want(len(raw) == rawlen, "node table length (index offset 80)")
n = u32(raw, 0)
p, stmts, kinds = 4, 0, [0, 0, 0]
size = {0: 4, 1: 2, 2: 4}
for i in range(n):
    kind, line, res, start, cnt = raw[p], raw[p + 1], u16(raw, p + 2), u32(raw, p + 4), u32(raw, p + 8)
    want(kind <= 2 and res == 0, f"node {i}: kind {kind} or reserved")
    want((kind == 1) == (cnt == 0) and cnt <= 1024, f"node {i}: count {cnt}")
    want(kind != 1 and line == 0 or kind == 1, f"node {i}: line byte on a kind {kind}")
    kinds[kind] += 1
    p += 12
    nxt = start
    for s in range(cnt):
        if kind == 2:
            a = u32(raw, p)
            p += 4
            want(s or a == start, f"node {i}: a path's first address is its start")
        else:
            a = nxt
        word, isa, it = u32(raw, p), raw[p + 4], raw[p + 5]
        p += 6
        want(isa <= 2, f"node {i} statement {s}: ISA {isa}")
        want(a % (4 if isa == 0 else 2) == 0, f"node {i} statement {s}: address 0x{a:x} not aligned")
        want(isa != 1 or word <= 0xffff, f"node {i} statement {s}: a 16-bit word above 0xffff")
        want(isa != 0 or it == 0, f"node {i} statement {s}: IT byte on A32")
        want(it & 15 or it == 0, f"node {i} statement {s}: IT bits 3:0 zero with others set")
        nxt = a + size[isa]
        stmts += 1
want(p == len(raw), "trailing bytes after the node table")
print(f"wet_spec: {args[0]}: version 7, target {'Cortex-M7' if target else 'ARMv7-A'}, {insns} instructions, "
      f"{execs} node executions, {irqs} interrupt entries, {nseg} segments; blocks {imso - 16} B, IMS {imsl} B, "
      f"AES {aesl} B, graph {glen} B ({rawlen} B: {n} nodes, {kinds[0]} blocks, {kinds[1]} entries, {kinds[2]} paths, "
      f"{stmts} statements), index {ilen} B: every field as WET.md says")
