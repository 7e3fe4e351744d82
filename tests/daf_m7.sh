#!/usr/bin/env bash
# Data-address filtering on the Cortex-M7 (formats/DAF.md, "The Cortex-M7"):
# FIRMWARE is captured with its oracle and a DAF (DAFDiff; with --raw also
# a second capture with --daf-raw); SDC-LSP + DAF with the firmware image,
# and the itrace's own flow + DAF (which checks every rebuilt access and
# entry against the trace), must rebuild byte for byte the din the oracle
# itrace converts to, stacking, unstacking and vector reads included.  With
# --tamper: a flipped byte is refused with the file name and its offset,
# exit 2 and no output.  `citcat dump` walks the DAF beside the itrace
# (every entry checked against the itrace's); with --fix it must list an
# entry that corrects the instruction a fault cut short.  With --long (the
# 200 M-instruction examples, label slow) the dins, a few GB each, are never
# written: the three streams are compared by their MD5 sums, each pipeline
# failing on its own exit status.
# Usage: daf_m7.sh CITCAT FIRMWARE.elf [--raw] [--tamper] [--fix] [--long] [capture options...]
set -u
citcat=$1 elf=$2
shift 2
raw=0 tamper=0 fix=0 long=0
while [ $# -gt 0 ]; do
  case $1 in
    --raw) raw=1; shift ;;
    --fix) fix=1; shift ;;
    --tamper) tamper=1; shift ;;
    --long) long=1; shift ;;
    *) break ;;
  esac
done
. "$(dirname "$0")/testlib.sh"
name=$(basename "$elf" .elf)
r=$t/$name
"$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" --daf "$r.daf" --seed 1 --uart-out /dev/null -q "$@" \
  >"$t/cap.out" 2>&1 || { echo "FAIL: capture --daf exited $?: $(head -c 400 "$t/cap.out")"; exit 1; }
dafs=$r.daf
if [ $raw = 1 ]; then
  "$citcat" capture "$elf" -o "$r.raw.cat" --daf "$r.raw.daf" --daf-raw --seed 1 --uart-out /dev/null -q "$@" \
    >"$t/cap.out" 2>&1 || { echo "FAIL: capture --daf-raw exited $?: $(head -c 400 "$t/cap.out")"; exit 1; }
  dafs="$dafs $r.raw.daf"
fi
"$citcat" convert "$r.itrace" -o "$r.sdc" --to sdclsp:r:32x4,128 || fail "itrace -> sdc"
if [ $long = 1 ]; then
  set -o pipefail
  want=$("$citcat" convert "$r.itrace" -o - --to din --uncached | md5sum) || fail "itrace -> din"
  flow=$("$citcat" convert "$r.sdc" --daf "$r.daf" --image "$elf" -o - --to din --uncached | md5sum) || fail "sdc + daf -> din"
  [ "$want" = "$flow" ] || fail "SDC-LSP + DAF does not rebuild the itrace's din"
  it=$("$citcat" convert "$r.itrace" --daf "$r.daf" -o - --to din --uncached | md5sum) || fail "itrace flow + daf -> din"
  [ "$want" = "$it" ] || fail "itrace flow + DAF does not rebuild the din"
  echo "$name: $(wc -c <"$r.itrace") itrace bytes, $(wc -c <"$r.daf") DAF bytes, din md5 ${want%% *}"
  finish "daf_m7 $name (long)"
fi
"$citcat" convert "$r.itrace" -o "$r.din" --uncached || fail "itrace -> din"
"$citcat" convert "$r.itrace" -o "$r.cached.din" || fail "itrace -> din (cached accesses only)"
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
"$citcat" dump "$r.daf" --itrace "$r.itrace" >"$t/dump" 2>"$t/dump.err" || fail "dump exited $?: $(head -c 300 "$t/dump.err")"
grep -q ' end insns=[0-9]' "$t/dump" || fail "dump: no end record"
[ $fix = 0 ] || grep -q ' entry+fix insn=' "$t/dump" || fail "dump: no entry corrects an instruction"
if [ $tamper = 1 ]; then
  size=$(stat -c %s "$r.daf")
  cp "$r.daf" "$t/bad.daf"
  off=$((size / 2))
  printf '\x5a' | dd of="$t/bad.daf" bs=1 seek=$off conv=notrunc 2>/dev/null
  cmp -s "$t/bad.daf" "$r.daf" && printf '\xa5' | dd of="$t/bad.daf" bs=1 seek=$off conv=notrunc 2>/dev/null
  rm -f "$t/bad.din"
  expect 2 "bad.daf: .*offset [0-9]" "$citcat" convert "$r.sdc" --daf "$t/bad.daf" --image "$elf" -o "$t/bad.din"
  [ -e "$t/bad.din" ] && fail "a corrupted DAF left output behind"
fi
echo "$name: din $(wc -c <"$r.din") bytes, DAF files:$(for f in $dafs; do printf ' %s %s bytes' "$(basename "$f")" "$(wc -c <"$f")"; done)"
finish "daf_m7 $name"
