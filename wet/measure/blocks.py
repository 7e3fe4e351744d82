#!/usr/bin/env python3
"""Bits per instruction per part of version 7 WETs (WET.md "Measured:
version 7"), one markdown row per `citcat wet --json` build report, the
version 6 report's total beside it when given (same NAME, OLD_DIR).

Usage: wet/measure/blocks.py [--old OLD_DIR] REPORT.json...
  (wet/bench.sh with JSON_DIR keeps NAME.new.json and NAME.old.json)
"""
import json
import os
import sys

args = sys.argv[1:]
old = None
if args[:1] == ["--old"]:
    old, args = args[1], args[2:]
print("| run | M insns | v6 bits/insn | v7 bits/insn | v6/v7 | node | cond | dep | cdep | IMS | AES | graph + index + headers |")
print("|" + "---|" * 12)
for path in args:
    j = json.load(open(path))
    n, fb = j["insns"], j["file_bytes"]
    name = os.path.basename(path).split(".")[0]
    b = lambda k: 8 * j["streams"][k]["bytes"] / n
    rest = 8 * (fb - j["stream_bytes"]) / n
    o = "-"
    ratio = "-"
    if old:
        for cand in (f"{name}.old.json", f"{name}.json"):
            p = os.path.join(old, cand)
            if os.path.exists(p) and os.path.getsize(p):
                oj = json.load(open(p))
                o = f"{8 * oj['file_bytes'] / oj['insns']:.2f}"
                ratio = f"{oj['file_bytes'] / fb:.0f}"
                break
    print(f"| {name} | {n / 1e6:.2f} | {o} | {8 * fb / n:.3f} | {ratio} | {b('node'):.3f} | {b('cond'):.3f} | {b('dep'):.3f} "
          f"| {b('cdep'):.3f} | {b('ims'):.4f} | {b('aes'):.3f} | {rest:.3f} |")
