#!/usr/bin/env bash
# A load and a store straddling the end of RAM (tests/firmware/ramend.c;
# issue 36, capture/TARGET.md "Accesses that cross a line"), captured with
# --ram 32M in write-back and write-through mode, with and without an
# oracle: a bus error of the whole access at the first byte past RAM
# (0x02000000), nothing of it in the CAT.  Before, the model filled or wrote
# through the line at 0x02000000 (reading past its RAM buffer) and ims
# refused the CAT ("fill_d at 0x02000000 lies outside RAM").
#  - ARMv7-A (ld, st): exit status 3, STOP fault kind 1 (read) or 2 (write)
#    at 0x02000000; the same CAT without --oracle; ims/aes and replay
#    --verify (--oracle) exact up to the fault.
#  - Cortex-M7: both fault into HardFault (CFSR = PRECISERR | BFARVALID =
#    0x8200, BFAR = 0x02000000, r0 kept 0x5a: the load did not complete),
#    the store's two bytes inside RAM written (0x44 0x33: Unicorn's byte
#    loop; before the fix its second byte outside RAM was a second BusFault,
#    a lockup); replay, LVT and DAF exact.
# Usage: ramend.sh CITCAT ARM_LD.elf ARM_ST.elf M7.elf
set -u
citcat=$1 ld=$2 st=$3 m7=$4
. "$(dirname "$0")/testlib.sh"
for w in wb wt; do
  for v in ld st m7; do
    case $v in ld) elf=$ld want=3 kind=1 ;; st) elf=$st want=3 kind=2 ;; m7) elf=$m7 want=0 ;; esac
    r=$t/$v.$w tag="$v $w"
    o=(--seed 1 -q --ram 32M --dcache 4K:2:32:lru --dcache-write $w)
    "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" "${o[@]}" >"$r.out" 2>"$r.err"
    rc=$?
    [ $rc = $want ] || { fail "$tag: capture exited $rc, want $want: $(cat "$r.err")"; continue; }
    "$citcat" capture "$elf" -o "$r.2.cat" "${o[@]}" >/dev/null 2>&1
    cmp -s "$r.cat" "$r.2.cat" || fail "$tag: the CAT differs without --oracle"
    if [ $v = m7 ]; then
      grep -q "^ramend: faults 2 cfsr 00008200 bfar 02000000 r0 0000005a after 44 33$" "$r.out" \
        || fail "$tag: firmware: $(cat "$r.out")"
    else
      "$citcat" dump "$r.cat" 2>/dev/null | tail -n 1 | grep -q "stop .* reason=fault .* value=$kind .* addr=0x02000000" \
        || fail "$tag: STOP: $("$citcat" dump "$r.cat" 2>/dev/null | tail -n 1)"
    fi
    "$citcat" ims "$r.cat" -o "$r.ims" >/dev/null 2>"$r.err" || fail "$tag: ims: $(cat "$r.err")"
    "$citcat" aes "$r.cat" -o "$r.aes" >/dev/null 2>"$r.err" || fail "$tag: aes: $(cat "$r.err")"
    "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
      && grep -q "bus trace verified.*instruction trace equals the oracle" "$r.err" \
      || fail "$tag: replay --verify --oracle: $(head -c 600 "$r.err")"
    "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" >/dev/null 2>"$r.err" \
      && grep -q "bus trace verified" "$r.err" || fail "$tag: replay --verify: $(head -c 600 "$r.err")"
    [ $v = m7 ] || continue # the A target's LVT and DAF refuse faults (LVT.md, DAF.md)
    "$citcat" capture "$elf" --lvt "$r.lvt" "${o[@]}" >/dev/null 2>&1 || fail "$tag: capture --lvt"
    "$citcat" replay --lvt "$r.lvt" --image "$elf" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
      && grep -q "instruction trace equals the oracle" "$r.err" || fail "$tag: LVT decode: $(head -c 600 "$r.err")"
    "$citcat" capture "$elf" -o "$r.d.cat" --daf "$r.daf" "${o[@]}" >/dev/null 2>"$r.err" || fail "$tag: capture --daf: $(cat "$r.err")"
    "$citcat" convert "$r.itrace" -o "$r.din" --uncached && "$citcat" convert "$r.itrace" --daf "$r.daf" --uncached -o "$r.it.din" \
      && cmp -s "$r.din" "$r.it.din" || fail "$tag: itrace flow + DAF does not rebuild the din"
  done
done
finish ramend
