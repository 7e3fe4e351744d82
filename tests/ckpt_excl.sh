#!/usr/bin/env bash
# Checkpoints between LDREX and STREX (tests/firmware/ckpt_excl.c; issue 36):
# ARM, Thumb-2 and the Cortex-M7 captured with --checkpoint-every 1003;
# at least one checkpoint's interrupt must land between the LDREX and
# the STREX (its EPC in (ckpt_excl_ldrex, ckpt_excl_strex]), and the CAT
# must replay exactly serially, segment by segment with --jobs 2, and
# against the oracle.  Without the BSP handlers' CLREX the segment replay
# diverged at the next checkpoint.
# Usage: ckpt_excl.sh CITCAT NM ELF...
set -u
citcat=$1 nm=$2
shift 2
. "$(dirname "$0")/testlib.sh"
for elf in "$@"; do
  lo=$((0x$("$nm" "$elf" | awk '$3 == "ckpt_excl_ldrex" {print $1}'))) hi=$((0x$("$nm" "$elf" | awk '$3 == "ckpt_excl_strex" {print $1}')))
  n=$(basename "$elf" .elf) hits=0
  for ck in 1003; do
    r=$t/$n.$ck
    "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" --seed 1 -q --checkpoint-every $ck >"$r.out" 2>"$r.err" \
      || { fail "$n $ck: capture: $(cat "$r.err")"; continue; }
    grep -q "^ckpt_excl: [0-9]* retries, counter 600$" "$r.out" || fail "$n $ck: firmware: $(cat "$r.out")"
    # checkpoint interrupts: IRQ line 15 (A target) or EXC 2 (M7), EPC inside the pair
    for pc in $("$citcat" dump "$r.cat" 2>/dev/null | awk '/ irq line=15 | exc line=2 /' | grep -o 'pc=0x[0-9a-f]*' | sed 's/pc=//'); do
      [ $((pc & ~1)) -gt "$lo" ] && [ $((pc & ~1)) -le "$hi" ] && hits=$((hits + 1))
    done
    "$citcat" ims "$r.cat" -o "$r.ims" >/dev/null 2>&1 && "$citcat" aes "$r.cat" -o "$r.aes" >/dev/null 2>&1 || fail "$n $ck: ims/aes"
    "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
      && grep -q "equals the oracle" "$r.err" || fail "$n $ck: replay: $(head -c 400 "$r.err")"
    "$citcat" replay "$r.ims" "$r.aes" --jobs 2 -o "$r.j.itrace" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
      && cmp -s "$r.j.itrace" "$r.itrace" || fail "$n $ck: replay --jobs 2: $(head -c 400 "$r.err")"
  done
  [ "$hits" -gt 0 ] || fail "$n: no checkpoint landed between the LDREX and the STREX"
  echo "$n: $hits checkpoints between LDREX and STREX"
done
finish ckpt_excl
