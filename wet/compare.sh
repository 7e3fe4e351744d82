#!/usr/bin/env bash
# Every query answer of an old citcat against a new one (issue 32: a new
# WET format must answer exactly as the old one did).  For each run, both
# tools build their WET (path nodes, and basic-block nodes), then each
# query below runs on both and the answers are compared byte for byte
# (cmp): --cf, --cf --backward, --cf --range, --loads, --loads --pc,
# --addrs, --addrs --pc, their --json forms, and backward and forward
# slices (text and --json) at SLICES evenly spaced instructions.  Prints one
# line per run; exits 1 when any answer differs.
# Usage: wet/compare.sh OLD_CITCAT NEW_CITCAT DIR NAME... [-- SLICES]
#   DIR holds NAME.ims and NAME.aes.  Environment: KINDS (default "path
#   bb") the node kinds; OLD_WETS / NEW_WETS directories whose NAME.wet,
#   when present, is used instead of building (path nodes: the long runs,
#   built once).  The two tools run side by side, their answers (and exit
#   codes) streamed into cmp: nothing is written to disk, so the long runs'
#   gigabytes of answers need no space.
set -u
old=$1 new=$2 dir=$3
shift 3
names=()
slices=3
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then slices=$2; shift 2; continue; fi
  names+=("$1"); shift
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bad=0
for n in "${names[@]}"; do
  for kind in ${KINDS:-path bb}; do
    for v in old new; do
      tool=${!v}
      pre=$( [ $v = old ] && echo "${OLD_WETS:-}" || echo "${NEW_WETS:-}" )
      if [ -n "$pre" ] && [ -s "$pre/$n.wet" ] && [ $kind = path ]; then
        ln -sf "$(realpath "$pre/$n.wet")" "$t/$v.wet"; continue
      fi
      rm -f "$t/$v.wet"
      "$tool" wet "$dir/$n.ims" "$dir/$n.aes" -o "$t/$v.wet" --nodes $kind 2>"$t/err" ||
        { echo "$n $kind: $v build failed: $(cat "$t/err")"; bad=1; continue 3; }
    done
    insns=$("$new" wet query "$t/new.wet" --info --json | sed 's/.*"insns": \([0-9]*\).*/\1/')
    pc=$("$new" wet query "$t/new.wet" --loads 2>/dev/null | awk 'NR == 100 { print $2; exit }')
    [ -n "$pc" ] || pc=0x0
    queries=("--cf" "--cf --backward" "--cf --range 10:2000" "--cf --range 50000:" "--loads" "--loads --pc $pc"
             "--addrs" "--addrs --pc $pc" "--cf --json" "--loads --json" "--addrs --pc $pc --json")
    for i in $(seq 0 $((slices - 1))); do
      s=$(( insns * (2 * i + 1) / (2 * slices) ))
      queries+=("--slice $s" "--forward-slice $s")
      [ "$i" = 0 ] && queries+=("--slice $s --json" "--forward-slice $s --json")
    done
    queries+=("--slice $((insns - 1))" "--forward-slice 0")
    same=0 diff=0 list=""
    for q in "${queries[@]}"; do
      # each side's answer, then its exit code as a last line
      if cmp -s <("$old" wet query "$t/old.wet" $q 2>/dev/null; echo "exit $?") \
                <("$new" wet query "$t/new.wet" $q 2>/dev/null; echo "exit $?"); then
        same=$((same + 1))
      else
        diff=$((diff + 1)) list="$list [$q]"
      fi
    done
    if [ $diff = 0 ]; then
      echo "$n $kind: $same queries, every answer the same ($insns instructions)"
    else
      echo "$n $kind: $diff of $((same + diff)) answers DIFFER:$list"
      bad=1
    fi
  done
done
exit $bad
