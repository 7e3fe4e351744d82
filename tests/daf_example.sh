#!/usr/bin/env bash
# Data-address filtering on one example (issue 9, part 2): captures it with
# the DAF trace module (DAFDiff, then raw), and checks that SDC-LSP + DAF
# with the firmware image rebuilds, byte for byte, the din that the full
# itrace gives; also the partial replay over the itrace's own flow, which
# checks every rebuilt access against the trace.
# Usage: daf_example.sh CITCAT ELF NAME [capture options...]
set -u
citcat=$1 elf=$2 name=$3
shift 3
. "$(dirname "$0")/testlib.sh"
r=$t/$name
"$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" --daf "$r.daf" --seed 1 --uart-out /dev/null -q "$@" \
  || { echo "FAIL: capture --daf exited $?"; exit 1; }
"$citcat" capture "$elf" -o "$r.cat" --daf "$r.raw.daf" --daf-raw --seed 1 --uart-out /dev/null -q "$@" \
  || { echo "FAIL: capture --daf --daf-raw exited $?"; exit 1; }
"$citcat" convert "$r.itrace" -o "$r.din" || fail "itrace -> din"
"$citcat" convert "$r.itrace" -o "$r.sdc" --to sdclsp:r:32x4,128 || fail "itrace -> sdc"
for d in "$r.daf" "$r.raw.daf"; do
  rm -f "$r.flow.din" "$r.it.din"
  "$citcat" convert "$r.sdc" --daf "$d" --image "$elf" -o "$r.flow.din" || fail "sdc + $(basename "$d") -> din"
  cmp -s "$r.din" "$r.flow.din" || fail "SDC-LSP + $(basename "$d") does not rebuild the itrace's din"
  "$citcat" convert "$r.itrace" --daf "$d" -o "$r.it.din" || fail "itrace flow + $(basename "$d") -> din"
  cmp -s "$r.din" "$r.it.din" || fail "itrace flow + $(basename "$d") does not rebuild the din"
done
echo "$name: din $(wc -c <"$r.din") bytes; DAFDiff file $(wc -c <"$r.daf"), raw $(wc -c <"$r.raw.daf") bytes"
finish "daf_example $name"
