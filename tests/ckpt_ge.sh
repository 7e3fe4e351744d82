#!/usr/bin/env bash
# The GE bits across checkpoints and interrupts (tests/firmware/ckpt_ge.c;
# issue 36): ARM, Thumb-2 and the Cortex-M7 captured with a timer interrupt
# and --checkpoint-every 1003.  The firmware checks every SEL against its C
# model (on the M7 it failed while the exception return kept the handler's
# GE); its sum is the same on the three cores; checkpoints and timer
# interrupts land between the UADD8 and the SEL (EPC in (ckpt_ge_set,
# ckpt_ge_use]); the CAT replays exactly serially, with --jobs 2 (byte-equal
# to the oracle) and segment by segment (on the M7 a segment began with GE
# clear: the checkpoint handler's dump of xPSR diverged at its first store).
# Usage: ckpt_ge.sh CITCAT NM ELF...
set -u
citcat=$1 nm=$2
shift 2
. "$(dirname "$0")/testlib.sh"
sums=
for elf in "$@"; do
  sym() { echo $((0x$("$nm" "$elf" | awk -v s="$1" '$3 == s {print $1}'))); }
  lo=$(sym ckpt_ge_set) hi=$(sym ckpt_ge_use)
  n=$(basename "$elf" .elf) r=$t/$(basename "$elf" .elf)
  "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" --seed 1 -q --checkpoint-every 1003 >"$r.out" 2>"$r.err" \
    || { fail "$n: capture: $(cat "$r.err")"; continue; }
  grep -q "^ckpt_ge: [0-9]* ticks, sum [0-9a-f]* OK$" "$r.out" || fail "$n: firmware: $(cat "$r.out")"
  sums="$sums $(sed -n 's/.*sum \([0-9a-f]*\) OK$/\1/p' "$r.out")"
  # interrupts inside the pair: checkpoints (A: line 15, M7: NMI, exception 2) and the timer's
  ck=0 tm=0
  while read -r kind pc; do
    pc=$((pc & ~1))
    [ "$pc" -gt "$lo" ] && [ "$pc" -le "$hi" ] || continue
    if [ "$kind" = ck ]; then ck=$((ck + 1)); else tm=$((tm + 1)); fi
  done < <("$citcat" dump "$r.cat" 2>/dev/null | awk '/ (irq|exc) line=/ {
      k = ($0 ~ / irq line=15 | exc line=2 /) ? "ck" : "tm"
      for (i = 1; i <= NF; i++) if ($i ~ /^pc=/) { sub(/^pc=/, "", $i); print k, $i } }')
  [ "$ck" -gt 0 ] || fail "$n: no checkpoint landed between the UADD8 and the SEL"
  [ "$tm" -gt 0 ] || fail "$n: no timer interrupt landed between the UADD8 and the SEL"
  "$citcat" ims "$r.cat" -o "$r.ims" >/dev/null 2>&1 && "$citcat" aes "$r.cat" -o "$r.aes" >/dev/null 2>&1 || fail "$n: ims/aes"
  "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
    && grep -q "equals the oracle" "$r.err" || fail "$n: replay: $(head -c 400 "$r.err")"
  "$citcat" replay "$r.ims" "$r.aes" --jobs 2 -o "$r.j.itrace" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
    && cmp -s "$r.j.itrace" "$r.itrace" || fail "$n: replay --jobs 2: $(head -c 600 "$r.err")"
  segs=$("$citcat" info "$r.ims" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) segments.*/\1/p' | head -1)
  echo "$n: $ck checkpoints and $tm timer interrupts between UADD8 and SEL${segs:+, $segs segments}"
done
[ "$(echo $sums | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ] || fail "the sums differ between the cores:$sums"
finish ckpt_ge
