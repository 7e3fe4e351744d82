#!/usr/bin/env bash
# WET speeds, an old citcat against a new one in one script run (issue 32;
# prints numbers, never passes or fails).  For each run: both builds
# (CPU seconds user + system, peak RSS, bytes and bits per instruction),
# then each query of the paper's Tables 6-8 (--cf forwards and backwards,
# --loads, --addrs) and SLICES evenly spaced backward and forward slices
# (Table 9), the old tool's and the new tool's runs interleaved, with the
# answers' MD5 compared (they must be equal: "same").  Rates are answers
# (PCs, accesses, slice instances) per CPU second.
# Usage: wet/bench.sh OLD_CITCAT NEW_CITCAT DIR NAME... [-- SLICES]
#   DIR holds NAME.ims and NAME.aes; the WETs are built into a temporary
#   directory (OLD_WETS / NEW_WETS in the environment: directories whose
#   NAME.wet, when present, is used instead of building: long runs
#   measured again).  JSON_DIR (environment): a directory that keeps each
#   build's --json report as NAME.old.json / NAME.new.json (Tables 1-3:
#   wet/measure/tables.py).
# Needs /usr/bin/time and md5sum.  Run it under nice on a shared machine.
set -u
old=$1 new=$2 dir=$3
shift 3
names=()
slices=2
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then slices=$2; shift 2; continue; fi
  names+=("$1"); shift
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

peak() { awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }' "$1"; }
secs() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"; }

for n in "${names[@]}"; do
  insns=
  for v in old new; do
    tool=${!v}
    w="$t/$n.$v.wet"
    pre=$( [ $v = old ] && echo "${OLD_WETS:-}" || echo "${NEW_WETS:-}" )
    [ -n "$pre" ] && pre="$pre/$n.wet"
    if [ -n "$pre" ] && [ -s "$pre" ]; then
      ln -sf "$(realpath "$pre")" "$w"
      echo "$n $v: using $pre ($(stat -L -c %s "$w") bytes)"
      continue
    fi
    /usr/bin/time -v "$tool" wet "$dir/$n.ims" "$dir/$n.aes" -o "$w" --json >"$t/b.json" 2>"$t/b.time" ||
      { echo "$n $v: build failed: $(tail -3 "$t/b.time")"; continue 2; }
    insns=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['insns'])" "$t/b.json")
    [ -n "${JSON_DIR:-}" ] && cp "$t/b.json" "$JSON_DIR/$n.$v.json" && cp "$t/b.time" "$JSON_DIR/$n.$v.time"
    sz=$(stat -c %s "$w")
    c=$(secs "$t/b.time")
    python3 -c "import sys; n, sz, c = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]); print(f'{sys.argv[4]:12} {sys.argv[5]} build: {sz} bytes = {8 * sz / n:.3f} bits/insn, {c:.2f} s CPU = {n / max(c, 1e-9) / 1e6:.2f} M insn/s, peak RSS {sys.argv[6]} MB')" \
      "$insns" "$sz" "$c" "$n" "$v" "$(peak "$t/b.time")"
  done
  [ -n "$insns" ] || insns=$("$new" wet query "$t/$n.new.wet" --info --json | python3 -c "import json,sys; print(json.load(sys.stdin)['insns'])")
  q() { # LABEL ARGS...: both tools, interleaved
    local label=$1; shift
    local line="" sum_old sum_new
    for v in old new; do
      tool=${!v}
      /usr/bin/time -v "$tool" wet query "$t/$n.$v.wet" "$@" 2>"$t/q.time" | md5sum >"$t/$v.md5"
      cnt=$(sed -n 's/.*query: \([0-9]*\) .*/\1/p' "$t/q.time")
      line="$line $v $(secs "$t/q.time") s $(peak "$t/q.time") MB $cnt"
    done
    cmp -s "$t/old.md5" "$t/new.md5" && same=same || same=DIFFERENT
    python3 - "$n" "$label" "$same" $line <<'EOF'
import sys
n, label, same = sys.argv[1:4]
f = sys.argv[4:]
o_s, o_rss, o_cnt = float(f[1]), f[3], int(f[5] or 0)
n_s, n_rss, n_cnt = float(f[7]), f[9], int(f[11] or 0)
r = lambda c, s: c / max(s, 1e-9) / 1e6
print(f"{n:12} {label:24} old {o_s:7.2f} s {r(o_cnt, o_s):7.2f} M/s {o_rss:>6} MB | new {n_s:7.2f} s {r(n_cnt, n_s):7.2f} M/s {n_rss:>6} MB"
      f" | {o_s / max(n_s, 1e-9):5.2f}x | {n_cnt} answers {same}")
EOF
  }
  q "cf (Table 6)" --cf
  q "cf backward (Table 6)" --cf --backward
  q "loads (Table 7)" --loads
  q "addrs (Table 8)" --addrs
  for i in $(seq 0 $((slices - 1))); do
    s=$(( insns * (2 * i + 1) / (2 * slices) ))
    q "slice $s (Table 9)" --slice "$s"
    q "forward-slice $s" --forward-slice "$s"
  done
done
