#!/usr/bin/env bash
# test_wet_ref on whole runs of every example, on each instruction set and
# target (issue 32: the reference keeps passing everywhere): for each NAME
# and each SUFFIX ("" the ARMv7-A target in A32, _thumb the A target in
# Thumb-2, _m7 the Cortex-M7), tests/wet_thumb.sh captures the whole run
# (--seed 1, with the oracle itrace; uartline with its UART input) and runs
# tests/wet_example.sh on it: the WET against the brute-force reference
# (walks both ways, SPACED evenly spaced backward and forward slices and
# more), the CLI's answers against the reference's, basic-block nodes.
# Prints one line per run; exits 1 when any fails.  (CTest runs the A32
# examples whole, the Thumb and M7 ones on prefixes: this is the rest.)
# Usage: wet/ref_all.sh CITCAT TEST_WET_REF EXAMPLE_DIR SPACED SUFFIX... [-- NAME...]
set -u
citcat=$1 ref=$2 ex=$3 spaced=$4
shift 4
sufs=() names=(counter crc32 dijkstra idle matmul qsort sched sha256 strsearch uartline)
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; names=("$@"); break; fi
  sufs+=("$1"); shift
done
here=$(cd "$(dirname "$0")/.." && pwd)
bad=0
for s in "${sufs[@]}"; do
  for n in "${names[@]}"; do
    elf="$ex/$n$s.elf"
    [ "$s" = _m7 ] && elf="$ex/m7/$n$s.elf"
    opts=()
    [ "$n" = uartline ] && opts=(--uart-in "$here/examples/data/uartline.txt")
    start=$(date +%s)
    if out=$(bash "$here/tests/wet_thumb.sh" "$citcat" "$ref" "$elf" "$n$s" 4000000000 "$spaced" "${opts[@]}" 2>&1); then
      echo "$n$s: pass ($(( $(date +%s) - start )) s wall) $(echo "$out" | grep -i 'instructions' | tail -1)"
    else
      echo "$n$s: FAIL: $(echo "$out" | tail -5)"; bad=1
    fi
  done
done
exit $bad
