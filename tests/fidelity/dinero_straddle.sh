#!/usr/bin/env bash
# Not run by CTest (Dinero IV is not a Debian package; build dineroIV from its
# public source, d4-7): real Dinero IV 7 against the CAT on the line-crossing
# firmware (issue 36, tests/firmware/straddle.c): fills, write-backs (Bytes To
# Memory / line in write-back mode), the WRITE events' bytes (Bytes To Memory in
# write-through mode) and Dinero's "Multi-block refs" next to tests/ref_cache.c's.
# Prints a markdown table (tests/fidelity/README.md has the one of issue 36).
# Usage: dinero_straddle.sh DINEROIV CITCAT REF_CACHE ELF...
d4=$1 citcat=$2 ref=$3; shift 3
num() { grep -o "\"$2\": [0-9]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }
obj() { sed -n "s/.*\"$2\": {\([^}]*\)}.*/\1/p" <<<"$1"; }
printf '| firmware | D-cache | mode | CAT fill_i/fill_d/wb/write/write bytes | Dinero fills i/d, bytes to memory, multi-block refs i/d | ref_cache multi_d |\n|---|---|---|---|---|---|\n'
for elf in "$@"; do
  for dc in 4K:2:32:lru 4K:2:64:lru; do
    for wr in wb wt; do
      t=$(mktemp -d)
      "$citcat" capture "$elf" -o $t/r.cat --oracle $t/r.itrace --seed 1 -q --dcache $dc --dcache-write $wr >/dev/null 2>&1
      "$citcat" convert $t/r.itrace -o $t/r.xdin
      IFS=: read -r size ways line pol <<<"$dc"
      dw="-l1-dwback a -l1-dwalloc a"; [ $wr = wt ] && dw="-l1-dwback n -l1-dwalloc n"
      o=$( { cat $t/r.xdin; echo "v 0 0"; } | "$d4" -informat D -l1-isize 16k -l1-iassoc 4 -l1-ibsize 32 -l1-irepl l \
            -l1-dsize ${size/K/k} -l1-dassoc $ways -l1-dbsize $line -l1-drepl l $dw 2>&1)
      ib=$(awk '/^l1-icache/{s=1} s&&/Bytes From Memory/{print $4; exit}' <<<"$o")
      db=$(awk '/^l1-dcache/{s=1} s&&/Bytes From Memory/{print $4; exit}' <<<"$o")
      dt=$(awk '/^l1-dcache/{s=1} s&&/Bytes To Memory/{print $4; exit}' <<<"$o")
      mi=$(awk '/^l1-icache/{s=1} s&&/Multi-block refs/{print $3; exit}' <<<"$o")
      md=$(awk '/^l1-dcache/{s=1} s&&/Multi-block refs/{print $3; exit}' <<<"$o")
      ev=$(obj "$("$citcat" info --json $t/r.cat)" events_traced)
      wbytes=$("$citcat" dump --csv $t/r.cat 2>/dev/null | awk -F, '$2 == "sync" {s = 1} s && $2 == "write" {n += $5} END {print n + 0}')
      rr=$("$ref" --icache 16K:4:32:lru --dcache $dc $([ $wr = wt ] && echo --wt) $t/r.xdin)
      echo "| $(basename $elf) | $dc | $wr | $(num "$ev" fill_i)/$(num "$ev" fill_d)/$(num "$ev" writeback)/$(num "$ev" write)/$wbytes | $((ib / 32))/$((db / line)), $dt, $mi/$md | $(num "$rr" multi_d) |"
      rm -rf $t
    done
  done
done
