#!/usr/bin/env bash
# The WET of segments of a checkpointed Cortex-M7 capture (WET.md
# "Checkpointed captures"): sched_m7, its first 200,100 instructions with a
# checkpoint every 20,001 (9 checkpoints, counted in instructions run with
# the checkpoints' own: segments 0 to 9, the last one cut short).  For segments 1 and 9:
#  - `citcat wet RUN.ims RUN.aes --segment K` on the bundles builds the same
#    bytes as `citcat wet` on the segment cut alone (ims/aes --segment K);
#  - test_wet_ref checks that WET against the segment's itrace as `citcat
#    replay --segment K` regenerates it (verified against the CAT's slice),
#    and the query answers (--cf, --loads, --addrs, slices) equal the
#    reference's;
#  - segment 9 lands inside an exception handler: its checkpoint dump shows
#    IRQ 0 (the timer) active (IABR0 = 1, written at 0x40000fb8), and its
#    itrace reaches citcat_irq_timer before any exception entry, so the
#    segment starts in the NMI over the timer handler and returns into it.
# The whole run (no --segment) stays refused: exit 2, naming the IMS, its
# segments and --segment, no output file.  With A_ELF (the A target's
# sched): its checkpointed capture's segments stay refused, exit 2 and no
# output, both through --segment (naming it) and cut alone (a segment
# starting in abort mode, the CPSR named).
# Usage: wet_m7_seg.sh CITCAT TEST_WET_REF ELF NM [A_ELF]
set -u
citcat=$1 ref=$2 elf=$3 nm=$4 aelf=${5:-}
. "$(dirname "$0")/testlib.sh"

# (20001: 20000 until the NMI handler's CLREX moved each checkpoint by one instruction, issue 36; as tests/m7ckpt.sh)
"$citcat" capture "$elf" -o "$t/r.cat" --seed 1 --max-insns 200100 --checkpoint-every 20001 -q >/dev/null 2>"$t/err" ||
  fail "capture: $(cat "$t/err")"
"$citcat" ims "$t/r.cat" -o "$t/r.ims" 2>/dev/null && "$citcat" aes "$t/r.cat" -o "$t/r.aes" 2>/dev/null || fail "ims/aes"
# the checkpoint dumps' IABR0, one line per checkpoint (1, 2, ...)
"$citcat" dump "$t/r.cat" 2>/dev/null | awk '/uncached_write addr=0x40000fb8 / { i = $5 }
  /uncached_write addr=0x40000ffc size=4 value=0x00000027/ { print i }' >"$t/iabr"
[ "$(wc -l <"$t/iabr")" -eq 9 ] || fail "want 9 checkpoint dumps: $(wc -l <"$t/iabr")"
[ "$(sed -n 9p "$t/iabr")" = value=0x00000001 ] || fail "checkpoint 9 not inside the timer handler: $(sed -n 9p "$t/iabr")"
[ "$(sed -n 1p "$t/iabr")" = value=0x00000000 ] || fail "checkpoint 1 inside an IRQ handler: $(sed -n 1p "$t/iabr")"
timer=$("$nm" "$elf" | awk '$3 == "citcat_irq_timer" { print "0x" $1 }')
soft=$("$nm" "$elf" | awk '$3 == "citcat_irq_soft" { print "0x" $1 }')
[ -n "$timer" ] && [ -n "$soft" ] || fail "no citcat_irq_timer/citcat_irq_soft in $elf"

for k in 1 9; do
  s=$t/s$k
  "$citcat" replay "$t/r.ims" "$t/r.aes" --segment $k -o "$s.itrace" --verify "$t/r.cat" >"$t/rep" 2>&1 ||
    fail "replay --segment $k: $(cat "$t/rep")"
  grep -q 'bus trace verified' "$t/rep" || fail "replay --segment $k not verified: $(cat "$t/rep")"
  "$citcat" wet "$t/r.ims" "$t/r.aes" --segment $k -o "$s.wet" 2>"$t/err" || fail "wet --segment $k: $(cat "$t/err")"
  "$citcat" ims "$t/r.cat" --segment $k -o "$s.ims" 2>/dev/null && "$citcat" aes "$t/r.cat" --segment $k -o "$s.aes" 2>/dev/null ||
    fail "ims/aes --segment $k"
  "$citcat" wet "$s.ims" "$s.aes" -o "$s.alone.wet" 2>"$t/err" || fail "wet on segment $k cut alone: $(cat "$t/err")"
  cmp -s "$s.wet" "$s.alone.wet" || fail "segment $k: the WET from the bundles differs from the one from the segment cut alone"
  # where the segment goes first: the timer handler (before any entry) or not
  first=$("$citcat" dump "$s.itrace" | awk -v a="$timer" -v b="$soft" '$2 == "irq" { print "entry"; exit }
    $2 == "insn" { p = substr($4, 4); if (p >= sprintf("0x%08s", substr(a, 3)) && p < sprintf("0x%08s", substr(b, 3))) { print "timer"; exit } }')
  if [ $k = 9 ]; then want=timer; else want=entry; fi
  [ "$first" = $want ] || fail "segment $k: first reaches '$first', want '$want'"
  mkdir -p "$s.ref"
  "$ref" "$s.ims" "$s.aes" "$s.itrace" "$s.wet" "$s.ref" 8 >"$t/refout" 2>&1 || fail "segment $k: reference: $(cat "$t/refout")"
  cat "$t/refout"
  q() { "$citcat" wet query "$s.wet" "$@" 2>/dev/null; }
  q --cf | cmp -s - "$s.ref/cf.txt" || fail "segment $k: --cf differs from the itrace's PCs"
  q --loads | cmp -s - "$s.ref/loads.txt" || fail "segment $k: --loads differs"
  q --addrs | cmp -s - "$s.ref/addrs.txt" || fail "segment $k: --addrs differs"
  i=0
  while read -r x; do
    q --slice "$x" | cmp -s - "$s.ref/slice$i.txt" || fail "segment $k: --slice $x differs"
    q --forward-slice "$x" | cmp -s - "$s.ref/fslice$i.txt" || fail "segment $k: --forward-slice $x differs"
    i=$((i + 1))
  done <"$s.ref/starts.txt"
done

# the whole run stays refused
expect 2 "r\.ims: .*10 segments.*--segment" "$citcat" wet "$t/r.ims" "$t/r.aes" -o "$t/all.wet"
[ ! -e "$t/all.wet" ] || fail "citcat wet on the whole bundle left an output file"

if [ -n "$aelf" ]; then
  "$citcat" capture "$aelf" -o "$t/a.cat" --seed 1 --max-insns 30000 --checkpoint-every 10000 -q >/dev/null 2>"$t/err" ||
    fail "A capture: $(cat "$t/err")"
  "$citcat" ims "$t/a.cat" -o "$t/a.ims" 2>/dev/null && "$citcat" aes "$t/a.cat" -o "$t/a.aes" 2>/dev/null || fail "A ims/aes"
  expect 2 "a\.ims: --segment 2: .*Cortex-M7 runs only" "$citcat" wet "$t/a.ims" "$t/a.aes" --segment 2 -o "$t/a2.wet"
  "$citcat" ims "$t/a.cat" --segment 2 -o "$t/a2.ims" 2>/dev/null && "$citcat" aes "$t/a.cat" --segment 2 -o "$t/a2.aes" 2>/dev/null ||
    fail "A ims/aes --segment 2"
  expect 2 "a2\.wet: the run starts in abort mode (CPSR 0x[0-9a-f]*d7)" "$citcat" wet "$t/a2.ims" "$t/a2.aes" -o "$t/a2.wet"
  [ ! -e "$t/a2.wet" ] || fail "a refused A-target segment left an output file"
fi
finish wet_m7_seg
