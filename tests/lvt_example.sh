#!/usr/bin/env bash
# First-access load-value trace round trip on one example: the LVT the
# ex_NAME fixture recorded in the same run as its oracle, decoded with the
# firmware alone, the regenerated itrace checked against that ground truth
# byte for byte; then again with word granules and a
# 4 KB PLRU D-cache over the first million instructions (its own oracle,
# since the timing changes; the limit keeps the sanitizer build quick).
# Usage: lvt_example.sh CITCAT ELF DIR NAME [capture options...]  (DIR holds NAME.itrace, NAME.lvt)
set -u
citcat=$1 elf=$2 dir=$3 name=$4
shift 4
run=$dir/$name
rm -f "$run.lvt.itrace" "$run.w.lvt" "$run.w.itrace" "$run.w.oracle"
[ -e "$run.lvt" ] || { echo "FAIL: the fixture recorded no $run.lvt"; exit 1; }
"$citcat" replay --lvt "$run.lvt" --image "$elf" -o "$run.lvt.itrace" --oracle "$run.itrace" ||
  { echo "FAIL: replay --lvt exited $?"; exit 1; }
cmp -s "$run.lvt.itrace" "$run.itrace" || { echo "FAIL: the decoded trace differs from the oracle"; exit 1; }
"$citcat" info --json "$run.lvt" | grep -q '"kind": "lvt"' || { echo "FAIL: info --json"; exit 1; }
echo "$name: $("$citcat" info --json "$run.lvt")"
"$citcat" capture "$elf" --lvt "$run.w.lvt" --oracle "$run.w.oracle" --lvt-gran word --dcache 4K:4:32:plru --max-insns 1000000 --seed 1 \
  --uart-out /dev/null -q "$@" || { echo "FAIL: capture --lvt-gran word exited $?"; exit 1; }
"$citcat" replay --lvt "$run.w.lvt" --image "$elf" -o "$run.w.itrace" --oracle "$run.w.oracle" ||
  { echo "FAIL: replay --lvt (word granules) exited $?"; exit 1; }
cmp -s "$run.w.itrace" "$run.w.oracle" || { echo "FAIL: the decoded trace (word granules) differs from its oracle"; exit 1; }
rm -f "$run.lvt.itrace" "$run.w.lvt" "$run.w.itrace" "$run.w.oracle"
echo "$name: LVT round trips exact (byte and word granules)"
