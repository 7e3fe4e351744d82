#!/usr/bin/env bash
# Figures for the WET note (issue 10): prints numbers, never passes or
# fails.  For each run: WET sizes per stream original / after tier 1 /
# after tier 2 (paper Tables 1-3), bits per instruction against the itrace,
# xz -9 of the itrace and of IMS+AES, construction speed and peak memory,
# query rates forwards and backwards (Tables 6-8), slice sizes and times
# (Table 9), for path nodes and for basic-block nodes.
# Usage: wet/figures.sh CITCAT DIR NAME... [-- SLICES]
#   DIR holds NAME.cat and NAME.itrace (e.g. build/tests/examples);
#   SLICES (default 5) evenly spaced backward and forward slices per run.
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
  "$citcat" ims "$dir/$n.cat" -o "$t/r.ims" 2>/dev/null || { echo "$n: ims failed"; continue; }
  "$citcat" aes "$dir/$n.cat" -o "$t/r.aes" 2>/dev/null || { echo "$n: aes failed"; continue; }
  it=$(stat -c %s "$dir/$n.itrace")
  # NAME.itrace.xzsize, when present, holds that size (long runs: xz -9 of
  # a few hundred MB takes minutes; compute it once; 0: not measured)
  if [ -s "$dir/$n.itrace.xzsize" ]; then itxz=$(cat "$dir/$n.itrace.xzsize"); else itxz=$(xz -9 -T1 -c "$dir/$n.itrace" | wc -c); fi
  ia=$(( $(stat -c %s "$t/r.ims") + $(stat -c %s "$t/r.aes") ))
  iaxz=$(( $(xz -9 -T1 -c "$t/r.ims" | wc -c) + $(xz -9 -T1 -c "$t/r.aes" | wc -c) ))
  echo "== $n: itrace $it bytes (xz -9: $itxz), IMS+AES $ia bytes (xz -9 each: $iaxz)"
  for kind in ${KINDS:-path bb}; do
    /usr/bin/time -v "$citcat" wet "$t/r.ims" "$t/r.aes" -o "$t/$kind.wet" --nodes $kind --json >"$t/$kind.json" 2>"$t/$kind.time" ||
      { echo "$n $kind: wet failed"; continue; }
    python3 - "$t/$kind.json" "$it" "$itxz" "$kind" "$(peak "$t/$kind.time")" "$(secs "$t/$kind.time")" "$ia" "$iaxz" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1])); it, itxz, kind, rss = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
cpu = float(sys.argv[6]); ia, iaxz = int(sys.argv[7]), int(sys.argv[8])
n = j["insns"]; s = j["streams"]
print(f"-- nodes {kind}: {n} insns, {j['node_execs']} node executions of {j['nodes']} nodes ({j['node_stmts']} statements), "
      f"{j['deps']} data deps ({j['local_deps']} local), {j['cdeps']} control parents; "
      f"CFG {j['cfg']['functions']} functions, {j['cfg']['nodes']} statements, {j['cfg']['branches']} branches, "
      f"{j['cfg']['back_edges']} back edges")
print(f"   built in {cpu:.2f} s CPU = {n / cpu / 1e6:.2f} M insn/s (two replays; wall {j['seconds']:.2f} s), peak RSS {rss} MB")
print(f"   {'stream':8} {'original':>12} {'tier 1':>12} {'tier 2':>12} {'bits/insn':>10}")
# original: 4 bytes per label as the graph would hold it (a register
# result each, every producer including the local ones); tier 1: the
# values the streams hold (unique tuples + patterns for register
# results, and for access addresses and values in version 5); tier 2:
# stored bytes
comp = {"node": "timestamps (node labels)", "cond": "values", "accn": "values", "akind": "values",
        "aaddr": "values", "aval": "values", "avalhi": "values", "uval": "values", "vpat": "values",
        "depn": "edges", "dep": "edges", "cdep": "edges", "apat": "values", "avpat": "values"}
tot = {}
to = t1 = t2 = 0
rows = []
for k, v in s.items():
    if k in ("vpat", "apat", "avpat"):
        continue
    o1, b1, st = 4 * v["values"], 4 * v["values"], v["bytes"]
    name = k
    if k == "uval":
        name = "regval"
        o1 = 4 * j["regvals"]
        b1 = 4 * (v["values"] + s["vpat"]["values"])
        st = v["bytes"] + s["vpat"]["bytes"]
    if k in ("aaddr", "aval") and (k == "aaddr" and "apat" in s or k == "aval" and "avpat" in s):
        # version 5: unique values + patterns where tier 1 paid; original:
        # one value per access
        p = s["apat" if k == "aaddr" else "avpat"]
        o1 = 4 * s["akind"]["values"]
        b1 = 4 * (v["values"] + p["values"])
        st = v["bytes"] + p["bytes"]
    if k == "dep":
        # original: every producer a label of its own (local edges too)
        o1 += 4 * j["local_deps"]
    to += o1; t1 += b1; t2 += st
    c = tot.setdefault(comp[k], [0, 0, 0]); c[0] += o1; c[1] += b1; c[2] += st
    print(f"   {name:8} {o1:12} {b1:12} {st:12} {8 * st / n:10.3f}")
print(f"   {'streams':8} {to:12} {t1:12} {t2:12} {8 * t2 / n:10.3f}")
print(f"   register results: {j['regvals']} values -> {s['uval']['values']} unique in {j['tuples']} tuples "
      f"+ {s['vpat']['values']} patterns ({j['groups']} value groups in the node table)")
print(f"   non-local producers (section 3.3): {s['dep']['values']} edges hold {j['dep_labels']} labels, "
      f"{s['dep']['values'] - j['dep_labels']} name a label of their node execution instead ({s['dep']['bytes']} bytes)")
for c, (o1, b1, st) in tot.items():
    print(f"   {c:26} orig {o1 / 1e6:9.3f} MB  orig/tier-1 {o1 / max(b1, 1):7.2f}  orig/tier-2 {o1 / max(st, 1):7.2f}")
g = j["graph_bytes"] + j["index_bytes"]
print(f"   file {j['file_bytes']} bytes = {8 * j['file_bytes'] / n:.3f} bits/insn (graph+index {g}); "
      f"itrace {8 * it / n:.3f} bits/insn, xz -9 itrace {8 * itxz / n:.3f}; "
      f"WET / itrace {j['file_bytes'] / it:.3f}, WET / xz itrace {j['file_bytes'] / itxz if itxz else float('nan'):.3f}; "
      f"IMS+AES {8 * ia / n:.3f} bits/insn (xz -9 {8 * iaxz / n:.3f})")
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
