#!/usr/bin/env bash
# Figures for the WET notes (issues 10 and 32): prints numbers, never passes
# or fails.  For each run: the paper's Tables 1-3 (WET sizes; node labels
# and edge labels, original / after tier 1 / after tier 2, WET.md "Measured:
# version 7" defines the three for version 7), bits per instruction per
# block, against the itrace and xz -9 of it when DIR holds NAME.itrace,
# construction speed and peak memory, query rates forwards and backwards
# (Tables 6-8) and slice sizes and times (Table 9), for path nodes and for
# basic-block nodes.  (Old against new in one script: wet/bench.sh.)
# Usage: wet/figures.sh CITCAT DIR NAME... [-- SLICES]
#   DIR holds NAME.ims and NAME.aes, or NAME.cat (extracted here), and
#   optionally NAME.itrace; SLICES (default 5) evenly spaced backward and
#   forward slices per run.
# Needs python3, xz and /usr/bin/time.  Run it under nice on a shared machine.
# KINDS="path" (environment) limits the node kinds (default "path bb").
set -u
citcat=$1 dir=$2
shift 2
names=()
slices=5
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then slices=$2; shift 2; continue; fi
  names+=("$1"); shift
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

peak() { awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }' "$1"; }
# CPU seconds (user + system) from /usr/bin/time -v: the machine is shared,
# so wall-clock times would measure the other jobs too
secs() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.3f", s }' "$1"; }

for n in "${names[@]}"; do
  if [ -s "$dir/$n.ims" ] && [ -s "$dir/$n.aes" ]; then
    cp "$dir/$n.ims" "$t/r.ims" && cp "$dir/$n.aes" "$t/r.aes"
  else
    "$citcat" ims "$dir/$n.cat" -o "$t/r.ims" 2>/dev/null || { echo "$n: ims failed"; continue; }
    "$citcat" aes "$dir/$n.cat" -o "$t/r.aes" 2>/dev/null || { echo "$n: aes failed"; continue; }
  fi
  it=0 itxz=0
  if [ -s "$dir/$n.itrace" ]; then
    it=$(stat -c %s "$dir/$n.itrace")
    # NAME.itrace.xzsize, when present, holds that size (long runs: xz -9 of
    # a few hundred MB takes minutes; compute it once; 0: not measured)
    if [ -s "$dir/$n.itrace.xzsize" ]; then itxz=$(cat "$dir/$n.itrace.xzsize"); else itxz=$(xz -9 -T1 -c "$dir/$n.itrace" | wc -c); fi
  fi
  iaxz=$(( $(xz -9 -T1 -c "$t/r.ims" | wc -c) + $(xz -9 -T1 -c "$t/r.aes" | wc -c) ))
  echo "== $n: itrace $it bytes (xz -9: $itxz), IMS+AES xz -9 each: $iaxz bytes"
  for kind in ${KINDS:-path bb}; do
    /usr/bin/time -v "$citcat" wet "$t/r.ims" "$t/r.aes" -o "$t/$kind.wet" --nodes $kind --json >"$t/$kind.json" 2>"$t/$kind.time" ||
      { echo "$n $kind: wet failed"; continue; }
    python3 - "$t/$kind.json" "$it" "$itxz" "$kind" "$(peak "$t/$kind.time")" "$(secs "$t/$kind.time")" "$iaxz" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1])); it, itxz, kind, rss = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
cpu = float(sys.argv[6]); iaxz = int(sys.argv[7])
n = j["insns"]; s = j["streams"]
b = lambda k: s[k]["bytes"]
conds = s["cond"]["values"] - j["events"]
print(f"-- nodes {kind}: {n} insns, {j['node_execs']} node executions of {j['nodes']} nodes ({j['node_stmts']} statements), "
      f"{j['deps']} data deps ({j['mem_deps']} through memory), {j['cdeps']} control parents; "
      f"CFG {j['cfg']['functions']} functions, {j['cfg']['nodes']} statements, {j['cfg']['branches']} branches, "
      f"{j['cfg']['back_edges']} back edges")
print(f"   built in {cpu:.2f} s CPU = {n / max(cpu, 1e-9) / 1e6:.2f} M insn/s (two replays; wall {j['seconds']:.2f} s), peak RSS {rss} MB")
print(f"   {'block':8} {'bytes':>12} {'bits/insn':>10}")
for k in ("node", "cond", "dep", "cdep", "ims", "aes"):
    print(f"   {k:8} {b(k):12} {8 * b(k) / n:10.4f}")
g = j["graph_bytes"] + j["index_bytes"]
print(f"   {'graph':8} {j['graph_bytes']:12} {8 * j['graph_bytes'] / n:10.4f}  (node table {j['graph_raw_bytes']} bytes before xz)")
print(f"   {'index':8} {j['index_bytes']:12} {8 * j['index_bytes'] / n:10.4f}")
# Tables 1-3.  original: 4 bytes per label as version 6's figures counted
# them (values: outcomes, access counts, kinds, addresses, values and
# register results; edges: a producer count and a control parent per
# instance and every producer, local ones included).  tier 1: what is left
# to code after the customized step (values: the IMS and AES, which replace
# them, and the outcomes and events; edges: memory producers, register
# writers from before a segment, a control parent per instance; the node
# ids all).  tier 2: the stored bytes.
ts = (4 * j["node_execs"], 4 * j["node_execs"], b("node"))
vals = (4 * (conds + n + 3 * j["accesses"] + j["regvals"]), b("ims") + b("aes") + 4 * s["cond"]["values"],
        b("cond") + b("ims") + b("aes"))
edges = (4 * (2 * n + j["deps"]), 4 * (j["mem_deps"] + j["reg_coded"] + n), b("dep") + b("cdep"))
tot = j["file_bytes"]
orig = ts[0] + vals[0] + edges[0]
print(f"   Table 1: {n / 1e6:.2f} M statements, original {orig / 1e6:.1f} MB, compressed {tot / 1e6:.3f} MB, orig/comp {orig / tot:.1f}")
for name, (o, t1, t2) in (("Table 2 timestamps", ts), ("Table 2 values", vals), ("Table 3 edges", edges)):
    print(f"   {name:20} orig {o / 1e6:10.3f} MB  orig/tier-1 {o / max(t1, 1):9.2f}  orig/tier-2 {o / max(t2, 1):9.2f}")
print(f"   memory producers named by a predictor: {j['mem_predicted']} of {j['mem_deps']}; control parents (or none): "
      f"{j['cdep_predicted']} of {n}; register writers coded at segment starts: {j['reg_coded']}; events {j['events']}")
itxt = (f"; itrace {8 * it / n:.3f} bits/insn, xz -9 itrace {8 * itxz / n:.3f}; WET / itrace {tot / it:.4f}, "
        f"WET / xz itrace {tot / itxz if itxz else float('nan'):.4f}") if it else ""
print(f"   file {tot} bytes = {8 * tot / n:.3f} bits/insn (graph+index {g}); IMS+AES {8 * (b('ims') + b('aes')) / n:.3f} bits/insn "
      f"(xz -9 {8 * iaxz / n:.3f}){itxt}")
EOF
    w="$t/$kind.wet"
    for q in "--cf" "--cf --backward" "--loads" "--addrs"; do
      /usr/bin/time -v "$citcat" wet query "$w" $q >/dev/null 2>"$t/q"
      cnt=$(sed -n 's/.*query: \([0-9]*\) .*/\1/p' "$t/q")
      s=$(secs "$t/q")
      python3 -c "import sys; c, s = int(sys.argv[1]), float(sys.argv[2]); print(f'   query {sys.argv[3]:16} {c:10} answers in {s:.3f} s CPU = {c / max(s, 1e-9) / 1e6:.2f} M/s, peak RSS {sys.argv[4]} MB')" \
        "$cnt" "$s" "$q" "$(peak "$t/q")"
    done
    insns=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['insns'])" "$t/$kind.json")
    for dirn in slice forward-slice; do
      tot=0 tsec=0 maxrss=0
      for i in $(seq 0 $((slices - 1))); do
        s=$(( insns * (2 * i + 1) / (2 * slices) ))
        /usr/bin/time -v "$citcat" wet query "$w" --$dirn "$s" >/dev/null 2>"$t/q"
        c=$(sed -n 's/.*query: \([0-9]*\) .*/\1/p' "$t/q")
        tot=$((tot + c))
        tsec=$(python3 -c "print($tsec + $(secs "$t/q"))")
        maxrss=$(python3 -c "print(max($maxrss, $(peak "$t/q")))")
      done
      python3 -c "print(f'   {\"$dirn\":14} avg {$tot / $slices:.1f} instances ({100 * $tot / $slices / $insns:.2f}% of the run), avg {$tsec / $slices:.3f} s CPU, max peak RSS $maxrss MB over $slices')"
    done
  done
done
