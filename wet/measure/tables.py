#!/usr/bin/env python3
"""The paper's Tables 1-3 (issue 32) from `citcat wet --json` build reports
of version 6 and of version 7, one markdown row per report.

Usage: wet/measure/tables.py REPORT.json...  (wet/bench.sh with JSON_DIR
keeps them as NAME.old.json and NAME.new.json).

The three columns of each component, as the paper's Tables 2 and 3 count
them: *original*, 4 bytes per label as an uncompressed graph holds it;
*tier 1*, what is left to code after the customized step; *tier 2*, the
stored bytes.
* version 6 (figures.sh of commit fb656a4): timestamps the node stream;
  values the outcome, access and register-result streams (original: one
  4-byte value per outcome, access count, kind, address, value and
  register result; tier 1: the unique values and patterns the streams
  held); edges depn, dep (local producers included in the original) and
  cdep.
* version 7 (wet/figures.sh): values: original the same labels; tier 1 the
  IMS and AES that replace them plus the outcomes and events; tier 2 the
  cond block, the IMS and the AES.  Edges: original a producer count and
  a control parent per instance and every producer; tier 1 what the
  models leave to code (memory producers, register writers from before a
  segment, a control parent per instance); tier 2 the dep and cdep blocks.
  Timestamps: the node block.
The whole file (graph, index, headers) is the "compressed" size of Table
1, and bits per instruction are the whole file's.
"""
import json
import os
import sys


def v6(j):
    s = j["streams"]
    comp = {"node": "ts", "cond": "val", "accn": "val", "akind": "val", "aaddr": "val", "aval": "val",
            "avalhi": "val", "uval": "val", "depn": "edge", "dep": "edge", "cdep": "edge"}
    tot = {"ts": [0, 0, 0], "val": [0, 0, 0], "edge": [0, 0, 0]}
    for k, v in s.items():
        if k in ("vpat", "apat", "avpat"):
            continue
        o1, b1, st = 4 * v["values"], 4 * v["values"], v["bytes"]
        if k == "uval":
            o1 = 4 * j["regvals"]
            b1 = 4 * (v["values"] + s["vpat"]["values"])
            st = v["bytes"] + s["vpat"]["bytes"]
        if k in ("aaddr", "aval"):
            p = s["apat" if k == "aaddr" else "avpat"]
            o1 = 4 * s["akind"]["values"]
            b1 = 4 * (v["values"] + p["values"])
            st = v["bytes"] + p["bytes"]
        if k == "dep":
            o1 += 4 * j["local_deps"]
        c = tot[comp[k]]
        c[0] += o1
        c[1] += b1
        c[2] += st
    return tot


def v7(j):
    n = j["insns"]
    s = j["streams"]
    b = lambda k: s[k]["bytes"]
    conds = s["cond"]["values"] - j["events"]
    return {"ts": [4 * j["node_execs"], 4 * j["node_execs"], b("node")],
            "val": [4 * (conds + n + 3 * j["accesses"] + j["regvals"]), b("ims") + b("aes") + 4 * s["cond"]["values"],
                    b("cond") + b("ims") + b("aes")],
            "edge": [4 * (2 * n + j["deps"]), 4 * (j["mem_deps"] + j["reg_coded"] + n), b("dep") + b("cdep")]}


print("| run | version | M insns | original MB | file MB | orig/file | bits/insn "
      "| timestamps orig MB | orig/tier 1 | orig/tier 2 | values orig MB | orig/tier 1 | orig/tier 2 "
      "| edges orig MB | orig/tier 1 | orig/tier 2 |")
print("|" + "---|" * 16)
for path in sys.argv[1:]:
    j = json.load(open(path))
    ver = "v7" if "mem_deps" in j else "v6"
    t = (v7 if ver == "v7" else v6)(j)
    n, fb = j["insns"], j["file_bytes"]
    orig = sum(c[0] for c in t.values())
    r = lambda c: f"{c[0] / 1e6:.2f} | {c[0] / max(c[1], 1):.2f} | {c[0] / max(c[2], 1):.1f}"
    name = os.path.basename(path).split(".")[0]
    print(f"| {name} | {ver} | {n / 1e6:.2f} | {orig / 1e6:.1f} | {fb / 1e6:.3f} | {orig / fb:.1f} | {8 * fb / n:.3f} "
          f"| {r(t['ts'])} | {r(t['val'])} | {r(t['edge'])} |")
