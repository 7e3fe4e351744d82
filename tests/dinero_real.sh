#!/usr/bin/env bash
# Not run by CTest (Dinero IV is not a Debian package): the Dinero interop
# table of formats/DIN.md against a real Dinero IV 7 built from its public
# source.  For each example and configuration: capture, convert the itrace to
# xdin (and din where the run has no DMA), run dineroIV with the same
# geometry, and print the CAT's traced fills and write-backs next to
# Dinero's and the reference simulator's.
# Usage: dinero_real.sh DINEROIV CITCAT REF_CACHE EXAMPLE_DIR DATA_DIR OUTDIR NAME...
# Dinero copies every dirty line back when its input ends, which the target
# does not do: an invalidate-all record ("v 0 0") appended to the input drops
# them first, so "Bytes To Memory" counts the run's own write-backs.
set -u
d4=$1 citcat=$2 ref=$3 exdir=$4 data=$5 out=$6
shift 6
mkdir -p "$out"
num() { grep -o "\"$2\": [0-9]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }
obj() { sed -n "s/.*\"$2\": {\([^}]*\)}.*/\1/p" <<<"$1"; }
# d4opts I|D GEOMETRY: Dinero options for one cache (SIZE:WAYS:LINE:lru|fifo)
d4opts() {
  local c=$1 g=$2 size ways line pol
  IFS=: read -r size ways line pol <<<"$g"
  size=${size/K/k}
  echo "-l1-${c}size $size -l1-${c}assoc $ways -l1-${c}bsize $line -l1-${c}repl ${pol:0:1}"
}
# d4run FORMAT FILE ICACHE DCACHE WT: prints "fill_i fill_d to_memory_bytes"
d4run() {
  local fmt=$1 f=$2 ic=$3 dc=$4 wt=$5 o
  local dw="-l1-dwback a -l1-dwalloc a"
  [ -n "$wt" ] && dw="-l1-dwback n -l1-dwalloc n"
  local v="v 0 0"
  [ "$fmt" = d ] && v="" # din cannot say "whole cache": its write-backs include the final copy-back (not compared)
  o=$( { cat "$f"; [ -n "$v" ] && echo "$v"; } | "$d4" -informat "$fmt" $(d4opts i "$ic") $(d4opts d "$dc") $dw 2>&1)
  local ib db dt
  ib=$(awk '/^l1-icache/{s=1} s&&/Bytes From Memory/{print $4; exit}' <<<"$o")
  db=$(awk '/^l1-dcache/{s=1} s&&/Bytes From Memory/{print $4; exit}' <<<"$o")
  dt=$(awk '/^l1-dcache/{s=1} s&&/Bytes To Memory/{print $4; exit}' <<<"$o")
  echo "$ib $db $dt"
}
printf '| example | I-cache | D-cache | policy | DMA | CAT fill_i/fill_d/wb | Dinero xdin (-informat D) | Dinero din (-informat d) | reference |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for name in "$@"; do
  extra=
  [ "$name" = uartline ] && extra="--uart-in $data/uartline.txt"
  for cfg in "16K:4:32:lru 16K:4:32:lru" "1K:1:16:lru 1K:4:16:fifo" "1K:4:16:fifo 1K:2:16:lru wt" "32K:8:64:lru 32K:8:64:fifo"; do
    set -- $cfg
    ic=$1 dc=$2 wt=${3:-}
    r=$out/$name
    "$citcat" capture "$exdir/$name.elf" -o "$r.cat" --oracle "$r.itrace" --uart-out /dev/null --seed 1 -q \
      --icache "$ic" --dcache "$dc" ${wt:+--dcache-write wt} $extra >/dev/null 2>&1 || { echo "capture $name $cfg failed"; continue; }
    ev=$(obj "$("$citcat" info --json "$r.cat")" events_traced)
    "$citcat" convert "$r.itrace" -o "$r.xdin"
    "$citcat" convert "$r.itrace" -o "$r.din" 2>/dev/null
    il=${ic#*:*:} il=${il%%:*} dl=${dc#*:*:} dl=${dl%%:*}
    read -r xb_i xb_d xt_d <<<"$(d4run D "$r.xdin" "$ic" "$dc" "$wt")"
    dma=$(num "$ev" dma)
    din="n/a (DMA)"
    if [ "$dma" = 0 ]; then
      read -r db_i db_d dt_d <<<"$(d4run d "$r.din" "$ic" "$dc" "$wt")"
      din="$((db_i / il))/$((db_d / dl))/-"
    fi
    rr=$("$ref" --icache "$ic" --dcache "$dc" ${wt:+--wt} "$r.xdin")
    wbx="$((xt_d / dl))"
    [ -n "$wt" ] && wbx="- (write-through: $xt_d bytes written)"
    printf '| %s | %s | %s | %s | %s | %s/%s/%s | %s/%s/%s | %s | %s/%s/%s |\n' "$name" "$ic" "$dc" "${wt:-wb}" "$dma" \
      "$(num "$ev" fill_i)" "$(num "$ev" fill_d)" "$(num "$ev" writeback)" "$((xb_i / il))" "$((xb_d / dl))" "$wbx" \
      "$din" "$(num "$rr" fill_i)" "$(num "$rr" fill_d)" "$(num "$rr" writeback)"
    rm -f "$r.cat" "$r.itrace" "$r.xdin" "$r.din"
  done
done
