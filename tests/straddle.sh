#!/usr/bin/env bash
# Accesses that cross a D-cache line or a 1 KiB page (issue 36, part 1;
# capture/TARGET.md "Accesses that cross a line"): tests/firmware/straddle.c
# built for ARM, Thumb-2 and the Cortex-M7, captured with 32- and 64-byte
# D lines, LRU and PLRU, write-back and write-through.  For each:
#  - the firmware's self-check passes and prints the same checksum everywhere;
#  - the capture without --oracle records the same CAT byte for byte (a
#    page-crossing load is one access either way: machine/core.h);
#  - ims/aes and replay --verify --oracle (default engine) and replay --verify
#    alone (the UC_HOOK_MEM_READ path, the block engine on the A target) are
#    exact;
#  - in write-through mode a line-crossing store is two WRITE events whose
#    sizes add up to the store's: the 4-byte store of 0x04080c10 at buf+0x13d
#    (64-byte lines) is 3 bytes 0x080c10 at 0x..13d and 1 byte 0x04 at
#    0x..140; of 0x01020304 at buf+0x11d (32-byte lines) 3 bytes 0x020304 and
#    1 byte 0x01 (hand-worked from straddle.c's first stores);
#  - the LVT (byte and word granules) decodes to the oracle, and is the same
#    with and without --oracle;
#  - the DAF rebuilds the itrace's din (SDC-LSP + DAF, and the itrace's own
#    flow), and is the same with and without --oracle;
#  - LRU configurations: the itrace's xdin has the straddling store as one
#    reference of 4 bytes, and the reference simulator (tests/ref_cache.c,
#    Dinero IV's rules: a multi-block reference touches each line) gives the
#    CAT's traced fills, write-backs and writes, and in write-through mode
#    the bytes of its WRITE events;
#  - 64-byte PLRU write-through: the WET built while replaying agrees with
#    the brute-force reference over the itrace (test_wet_ref: def/use sets,
#    walks, slices; before, A32 LDREXD changed r3 outside its def set), and
#    its load and address answers equal the itrace's.
# Usage: straddle.sh CITCAT REF_CACHE NM TEST_WET_REF NAME=ELF...
set -u
citcat=$1 ref=$2 nm=$3 wetref=$4
shift 4
. "$(dirname "$0")/testlib.sh"
num() { grep -o "\"$2\": [0-9]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }
obj() { sed -n "s/.*\"$2\": {\([^}]*\)}.*/\1/p" <<<"$1"; }
sums=
for arg in "$@"; do
  name=${arg%%=*} elf=${arg#*=}
  buf=$("$nm" "$elf" | awk '$3 == "buf" {print $1}')
  [ -n "$buf" ] || { fail "$name: no symbol buf in $elf"; continue; }
  for dc in 4K:2:32:lru 4K:2:64:lru 4K:2:32:plru 4K:2:64:plru; do
    for wr in wb wt; do
      tag="$name $dc $wr" r=$t/$name
      rm -f "$r".*
      opts=(--seed 1 -q --dcache "$dc" --dcache-write "$wr")
      "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" "${opts[@]}" >"$r.out" 2>"$r.err" \
        || { fail "$tag: capture exited $?: $(cat "$r.err")"; continue; }
      grep -q "^straddle: OK " "$r.out" || fail "$tag: firmware self-check: $(cat "$r.out")"
      sums="$sums $(awk '{print $3}' "$r.out")"
      "$citcat" capture "$elf" -o "$r.2.cat" "${opts[@]}" >/dev/null 2>&1 || fail "$tag: capture without --oracle"
      cmp -s "$r.cat" "$r.2.cat" || fail "$tag: the CAT differs without --oracle"
      "$citcat" ims "$r.cat" -o "$r.ims" >/dev/null 2>"$r.err" || fail "$tag: ims: $(cat "$r.err")"
      "$citcat" aes "$r.cat" -o "$r.aes" >/dev/null 2>"$r.err" || fail "$tag: aes: $(cat "$r.err")"
      "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
        && grep -q "bus trace verified.*instruction trace equals the oracle" "$r.err" \
        || fail "$tag: replay --verify --oracle: $(head -c 600 "$r.err")"
      "$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" >/dev/null 2>"$r.err" \
        && grep -q "bus trace verified" "$r.err" || fail "$tag: replay --verify: $(head -c 600 "$r.err")"
      if [ "$wr" = wt ] && [ "$name" = arm ]; then
        line=${dc#*:*:} line=${line%%:*}
        if [ "$line" = 64 ]; then o=13d v3=0x080c10 o1=140 v1=0x04; else o=11d v3=0x020304 o1=120 v1=0x01; fi
        a3=$(printf '0x%08x' $((0x$buf + 0x$o))) a1=$(printf '0x%08x' $((0x$buf + 0x$o1)))
        "$citcat" dump "$r.cat" 2>/dev/null | grep -A1 "write addr=$a3 size=3 value=$v3\$" | tail -n 1 \
          | grep -q "write addr=$a1 size=1 value=$v1\$" || fail "$tag: no WRITE pair $a3/3 $a1/1 in the dump"
      fi
      if [ "$wr" = wt ]; then # some store of every split: sizes 1, 2 and 3 in the CAT
        for s in 1 2 3; do
          "$citcat" dump "$r.cat" 2>/dev/null | grep -q "^[0-9]* write .* size=$s " || fail "$tag: no WRITE of $s bytes"
        done
      fi
      if [ "$dc $wr" = "4K:2:64:plru wt" ]; then
        "$citcat" wet "$r.ims" "$r.aes" -o "$r.wet" >/dev/null 2>"$r.err" || fail "$tag: wet: $(cat "$r.err")"
        mkdir -p "$r.wref"
        "$wetref" "$r.ims" "$r.aes" "$r.itrace" "$r.wet" "$r.wref" 4 >"$r.err" 2>&1 || fail "$tag: WET reference: $(grep FAIL "$r.err" | head -n 3)"
        "$citcat" wet query "$r.wet" --loads 2>/dev/null | cmp -s - "$r.wref/loads.txt" || fail "$tag: WET --loads"
        "$citcat" wet query "$r.wet" --addrs 2>/dev/null | cmp -s - "$r.wref/addrs.txt" || fail "$tag: WET --addrs"
        rm -rf "$r.wref"
      fi
      # LVT, both granules, with and without an oracle
      for g in byte word; do
        "$citcat" capture "$elf" --lvt "$r.$g.lvt" --lvt-gran $g --oracle "$r.lvt.itrace" "${opts[@]}" >/dev/null 2>&1 \
          || fail "$tag: capture --lvt $g"
        if [ $g = byte ]; then
          "$citcat" capture "$elf" --lvt "$r.$g.2.lvt" --lvt-gran $g "${opts[@]}" >/dev/null 2>&1 || fail "$tag: capture --lvt $g without --oracle"
          cmp -s "$r.$g.lvt" "$r.$g.2.lvt" || fail "$tag: the $g LVT differs without --oracle"
        fi
        "$citcat" replay --lvt "$r.$g.lvt" --image "$elf" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
          && grep -q "instruction trace equals the oracle" "$r.err" || fail "$tag: LVT $g decode: $(head -c 600 "$r.err")"
      done
      # DAF, with and without an oracle
      "$citcat" capture "$elf" -o "$r.d.cat" --daf "$r.daf" --oracle "$r.d.itrace" "${opts[@]}" >/dev/null 2>"$r.err" \
        || fail "$tag: capture --daf: $(cat "$r.err")"
      "$citcat" capture "$elf" -o "$r.d2.cat" --daf "$r.2.daf" "${opts[@]}" >/dev/null 2>"$r.err" \
        || fail "$tag: capture --daf without --oracle: $(cat "$r.err")"
      cmp -s "$r.daf" "$r.2.daf" || fail "$tag: the DAF differs without --oracle"
      "$citcat" convert "$r.itrace" -o "$r.din" --uncached && "$citcat" convert "$r.itrace" -o "$r.sdc" --to sdclsp:r:32x4,128 \
        && "$citcat" convert "$r.sdc" --daf "$r.daf" --image "$elf" -o "$r.flow.din" && cmp -s "$r.din" "$r.flow.din" \
        || fail "$tag: SDC-LSP + DAF does not rebuild the din"
      "$citcat" convert "$r.itrace" --daf "$r.daf" -o "$r.it.din" && cmp -s "$r.din" "$r.it.din" \
        || fail "$tag: itrace flow + DAF does not rebuild the din"
      # Dinero's rules (LRU only: the reference simulator has no PLRU)
      case $dc in *:lru) ;; *) continue ;; esac
      "$citcat" convert "$r.itrace" -o "$r.xdin" || { fail "$tag: xdin"; continue; }
      sa=$(printf '%x' $((0x$buf + 0x13d)))
      grep -q "^w $sa 4\$" "$r.xdin" || fail "$tag: the store at $sa is not one 4-byte xdin reference"
      wtopt=
      [ "$wr" = wt ] && wtopt=--wt
      res=$("$ref" --icache 16K:4:32:lru --dcache "$dc" $wtopt "$r.xdin") || { fail "$tag: ref_cache"; continue; }
      ev=$(obj "$("$citcat" info --json "$r.cat")" events_traced)
      for k in fill_i fill_d writeback write; do
        [ "$(num "$res" $k)" = "$(num "$ev" $k)" ] || fail "$tag: $k: reference $(num "$res" $k), CAT $(num "$ev" $k)"
      done
      [ "$(num "$res" multi_d)" -gt 0 ] || fail "$tag: no multi-block data reference"
      if [ "$wr" = wt ]; then # bytes of the traced WRITE events = the reference's bytes to memory
        wb=$("$citcat" dump --csv "$r.cat" 2>/dev/null | awk -F, '$2 == "sync" {s = 1} s && $2 == "write" {n += $5} END {print n + 0}')
        [ "$wb" = "$(num "$res" write_bytes)" ] || fail "$tag: WRITE bytes: CAT $wb, reference $(num "$res" write_bytes)"
      fi
    done
  done
done
# the same checksum in every configuration, and the one straddle.c printed
# when the test was written (ARM, Thumb and the M7 agree on it)
[ "$(tr ' ' '\n' <<<"$sums" | sed '/^$/d' | sort -u)" = 01c40a5a ] || fail "checksums:$sums (want 01c40a5a everywhere)"
finish straddle
