#!/usr/bin/env bash
# Dinero interop (formats/DIN.md, "Agreement with the model"): the itrace's
# xdin, fed to an independent reference cache simulator (tests/ref_cache.c,
# which simulates split caches the way Dinero IV does) with the capture's
# geometry, must give exactly the CAT's fills and write-backs of the traced
# interval.  Runs on the ex_NAME fixture's capture (default geometry), then
# captures again under each extra configuration given.
# Usage: dinero_example.sh CITCAT REF_CACHE ELF OUTDIR NAME [CONFIG...]
#   CONFIG: "ICACHE DCACHE [wt]", e.g. "1K:2:16:lru 1K:4:16:fifo wt"
#   extra capture options (UART input) come from $CAPTURE_OPTS
set -u
citcat=$1 ref=$2 elf=$3 out=$4 name=$5
shift 5
mkdir -p "$out"
fails=0
fail() { echo "FAIL ($name): $*"; fails=$((fails + 1)); }
num() { grep -o "\"$2\": [0-9]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }
obj() { sed -n "s/.*\"$2\": {\([^}]*\)}.*/\1/p" <<<"$1"; }

# check TAG RUN.cat RUN.itrace ICACHE DCACHE WT
check() {
  local tag=$1 cat=$2 it=$3 ic=$4 dc=$5 wt=$6
  local x=$out/$name.$tag.xdin
  rm -f "$x"
  "$citcat" convert "$it" -o "$x" || { fail "$tag: itrace -> xdin"; return; }
  local cj r
  cj=$("$citcat" info --json "$cat") || { fail "$tag: info"; return; }
  local ev
  ev=$(obj "$cj" events_traced)
  r=$("$ref" --icache "$ic" --dcache "$dc" ${wt:+--wt} "$x") || { fail "$tag: ref_cache"; return; }
  for k in fill_i fill_d writeback write; do
    [ "$(num "$r" $k)" = "$(num "$ev" $k)" ] || fail "$tag ($ic $dc ${wt:-wb}): $k: reference $(num "$r" $k), CAT $(num "$ev" $k)"
  done
  echo "$name $tag ($ic $dc ${wt:-wb}): CAT traced {fill_i $(num "$ev" fill_i), fill_d $(num "$ev" fill_d), writeback $(num "$ev" writeback), write $(num "$ev" write), dma $(num "$ev" dma)} reference $r xdin $(wc -l <"$x") lines"
  rm -f "$x"
}

check default "$out/$name.cat" "$out/$name.itrace" 16K:4:32:lru 16K:4:32:lru ""
i=0
for cfg in "$@"; do
  set -- $cfg
  i=$((i + 1))
  ic=$1 dc=$2 wt=${3:-}
  c=$out/$name.dinero$i
  rm -f "$c.cat" "$c.itrace"
  "$citcat" capture "$elf" -o "$c.cat" --oracle "$c.itrace" --uart-out /dev/null --seed 1 \
    --icache "$ic" --dcache "$dc" ${wt:+--dcache-write wt} ${CAPTURE_OPTS:-} 2>"$c.log" || { fail "capture $cfg: $(cat "$c.log")"; continue; }
  check "cfg$i" "$c.cat" "$c.itrace" "$ic" "$dc" "$wt"
  rm -f "$c.cat" "$c.itrace" "$c.log"
done
[ "$fails" -eq 0 ] || { echo "$name: $fails check(s) failed"; exit 1; }
echo "$name: the reference simulator agrees with the CAT"
