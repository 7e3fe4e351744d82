#!/usr/bin/env python3
"""Shows that tests/wet_spec.py can fail: one field at a time of a version 7
WET is set to what WET.md forbids, every checksum above it resealed (so
that only the field is wrong), and wet_spec.py must refuse the file naming
that field.
With CITCAT, `citcat wet query M.wet --check` (every block read) must refuse each one too (the
library's reader against the same spec).
Usage: wet_spec_mutate.py RUN.wet [CITCAT] [--skip1]
"""
import ctypes
import os
import struct
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
path = args[0]
citcat = args[1] if len(args) > 1 else None
data = bytearray(open(path, "rb").read())
if "--skip1" in sys.argv:
    data = data[1:]
lib = ctypes.CDLL("libxxhash.so.0")
lib.XXH32.restype = ctypes.c_uint32
lib.XXH32.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]
lib.XXH64.restype = ctypes.c_uint64
lib.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
fo = len(data) - 64
ioff = struct.unpack_from("<Q", data, fo + 16)[0]


def reseal(b):
    struct.pack_into("<I", b, 12, lib.XXH32(bytes(b[0:12]), 12, 0))
    idx = bytes(b[ioff:fo])
    struct.pack_into("<Q", b, fo + 40, lib.XXH64(idx, len(idx), 0))
    struct.pack_into("<I", b, fo + 56, lib.XXH32(bytes(b[fo:fo + 56]), 56, 0))


def put(b, off, fmt, v):
    struct.pack_into(fmt, b, off, v)


seg0 = ioff + 96
# (what, offset, format, value, the words wet_spec.py must print)
cases = [
    ("header version 6", 8, "<H", 6, "version 6, not 7"),
    ("header reserved", 10, "<H", 1, "header reserved"),
    ("footer reserved", fo + 60, "<I", 1, "footer reserved"),
    ("blocks per segment 3", ioff + 28, "<I", 3, "blocks per segment"),
    ("target 2", ioff + 88, "<I", 2, "target 2"),
    ("index reserved", ioff + 92, "<I", 1, "index reserved"),
    ("segment 0 first INDEX 1", seg0 + 0, "<Q", 1, "segment 0: first INDEX"),
    ("segment 0 reach after its start", seg0 + 24, "<Q", 1, "reach after its start"),
    ("segment 0 node block one byte later", seg0 + 40, "<Q", 17, "segment 0 block 0: offset"),
    ("segment 0 cond block reserved", seg0 + 40 + 24 + 12, "<I", 1, "segment 0 block 1: reserved"),
    ("segment 0 dep block XXH64", seg0 + 40 + 48 + 16, "<Q", 1, "segment 0 block 2: XXH64"),
    ("instructions in the run + 1", ioff + 0, "<Q", None, "segment totals"),
]
bad = 0
with tempfile.TemporaryDirectory() as t:
    for what, off, fmt, v, words in cases:
        b = bytearray(data)
        if v is None:
            v = struct.unpack_from(fmt, b, off)[0] + 1
        put(b, off, fmt, v)
        reseal(b)
        f = os.path.join(t, "m.wet")
        open(f, "wb").write(b)
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "wet_spec.py"), f],
                           capture_output=True, text=True)
        if r.returncode == 0 or words not in r.stdout:
            print(f"FAIL: {what}: wet_spec.py said (exit {r.returncode}): {r.stdout.strip()}")
            bad += 1
            continue
        print(f"ok: {what}: {r.stdout.strip()}")
        if citcat:
            c = subprocess.run([citcat, "wet", "query", f, "--check"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            if c.returncode == 0:
                print(f"FAIL: {what}: citcat wet query --check read it")
                bad += 1
            else:
                print(f"ok: {what}: citcat (exit {c.returncode}): {c.stderr.strip()}")
sys.exit(1 if bad else 0)
