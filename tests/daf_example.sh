#!/usr/bin/env bash
# Data-address filtering on one example (issue 9, part 2): takes the ex_NAME
# fixture's capture, recorded with the DAF trace module (DAFDiff) beside its
# oracle (raw DAF captured here on four examples, one of them Thumb), and checks that SDC-LSP + DAF
# with the firmware image rebuilds, byte for byte, the din that the full
# itrace gives; also the partial replay over the itrace's own flow, which
# checks every rebuilt access against the trace.
# Usage: daf_example.sh CITCAT ELF NAME DIR [capture options...]  (DIR holds NAME.itrace, NAME.daf)
set -u
citcat=$1 elf=$2 name=$3 dir=$4
shift 4
. "$(dirname "$0")/testlib.sh"
r=$t/$name
cp "$dir/$name.itrace" "$r.itrace" && cp "$dir/$name.daf" "$r.daf" || { echo "FAIL: no fixture capture in $dir"; exit 1; }
dafs=$r.daf
case $name in # raw encoding on four examples (the unit test covers it too), to keep CI short
  sched|dijkstra|uartline|sched_thumb)
    "$citcat" capture "$elf" -o "$r.cat" --daf "$r.raw.daf" --daf-raw --seed 1 --uart-out /dev/null -q "$@" \
      || { echo "FAIL: capture --daf --daf-raw exited $?"; exit 1; }
    dafs="$dafs $r.raw.daf" ;;
esac
# --uncached: the DAF rebuild gives every data access of the core, device ones included
"$citcat" convert "$r.itrace" -o "$r.din" --uncached || fail "itrace -> din"
"$citcat" convert "$r.itrace" -o "$r.cached.din" || fail "itrace -> din (cached accesses only)"
"$citcat" convert "$r.itrace" -o "$r.sdc" --to sdclsp:r:32x4,128 || fail "itrace -> sdc"
for d in $dafs; do
  rm -f "$r.flow.din" "$r.it.din"
  "$citcat" convert "$r.sdc" --daf "$d" --image "$elf" -o "$r.flow.din" --uncached || fail "sdc + $(basename "$d") -> din"
  cmp -s "$r.din" "$r.flow.din" || fail "SDC-LSP + $(basename "$d") does not rebuild the itrace's din"
  "$citcat" convert "$r.itrace" --daf "$d" -o "$r.it.din" --uncached || fail "itrace flow + $(basename "$d") -> din"
  cmp -s "$r.din" "$r.it.din" || fail "itrace flow + $(basename "$d") does not rebuild the din"
  # without --uncached both paths leave the device accesses out, as convert RUN.itrace does (issue 29, defect 18)
  "$citcat" convert "$r.sdc" --daf "$d" --image "$elf" -o "$r.flow.din" || fail "sdc + $(basename "$d") -> din (cached)"
  cmp -s "$r.cached.din" "$r.flow.din" || fail "SDC-LSP + $(basename "$d") -> din keeps what convert RUN.itrace leaves out"
  "$citcat" convert "$r.itrace" --daf "$d" -o "$r.it.din" || fail "itrace flow + $(basename "$d") -> din (cached)"
  cmp -s "$r.cached.din" "$r.it.din" || fail "itrace flow + $(basename "$d") -> din keeps what convert RUN.itrace leaves out"
done
echo "$name: din $(wc -c <"$r.din") bytes, DAF files:$(for f in $dafs; do printf ' %s %s bytes' "$(basename "$f")" "$(wc -c <"$f")"; done)"
finish "daf_example $name"
