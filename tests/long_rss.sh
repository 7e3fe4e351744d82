#!/usr/bin/env bash
# Issue 36 part 2's figures (not a CTest; replay/REPLAY.md "Interrupts, DMA
# and the block engine"): the time and peak RSS of `replay --verify` of an
# interrupt- and DMA-heavy run at several lengths, on both targets, with
# each engine.  For each target (irqdma_big: a timer interrupt every 3000
# cycles, a DMA stream restarted from its completion interrupt; ARM on the
# ARMv7-A target and the Cortex-M7) and each length, the run is captured
# with a DMA input of DMA_BYTES (1 MiB by default: used up before 100 M
# instructions on both targets, so every length replays past the end of
# the DMA stream), extracted, and replayed with each engine in turn (the
# order alternates from one length to the next), every replay verified
# against the CAT.  With BEFORE=CITCAT2, that binary's default engine is
# timed too, on the runs of at most BEFORE_MAX instructions (default
# 100 M: the block engine before issue 31 grows about 7 MB per million
# instructions there and crashed at about 1 B).
# It prints one line per capture and replay (wall, user and system CPU
# seconds, peak RSS) and exits 1 if a replay fails; it never fails on time
# or memory (tests/long_replay.sh, CTest long_replay_500M, bounds the RSS).
# Usage: long_rss.sh CITCAT EXAMPLES OUTDIR [LENGTH...]
#   (default lengths: 100000000 500000000 1000000000)
# Environment: ENGINES (default "auto insn"), TARGETS (default
#   "irqdma_big.elf m7/irqdma_big_m7.elf"), DMA_BYTES, BEFORE, BEFORE_MAX.
# Example (the figures of issue 36): bash tests/long_rss.sh build/cli/citcat build/examples /tmp/lrss
set -u
[ $# -ge 3 ] || { echo "usage: $0 CITCAT EXAMPLES OUTDIR [LENGTH...]" >&2; exit 2; }
citcat=$(realpath -e -- "$1") || exit 2
ex=$(realpath -e -- "$2") || exit 2
out=$3
shift 3
lengths=${*:-100000000 500000000 1000000000}
engines=${ENGINES:-auto insn}
targets=${TARGETS:-irqdma_big.elf m7/irqdma_big_m7.elf}
dma=${DMA_BYTES:-1048576}
before=${BEFORE:+$(realpath -e -- "$BEFORE")}
bmax=${BEFORE_MAX:-100000000}
mkdir -p "$out" || exit 2
head -c "$dma" /dev/zero | tr '\0' '\145' >"$out/dma.bin"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "long_rss: $citcat${before:+ (before: $before)}; DMA input $dma bytes; load $(load)"
bad=0 flip=0
for t in $targets; do
  elf=$ex/$t
  [ -f "$elf" ] || { echo "skipped $t: no $elf"; continue; }
  tn=$(basename "$t" .elf)
  for n in $lengths; do
    r=$out/$tn.$n
    /usr/bin/time -f "%e %U %S %M" -o "$r.time" "$citcat" capture "$elf" --seed 1 -q -o "$r.cat" --dma-in "$out/dma.bin" \
      --max-insns "$n" --uart-out /dev/null 2>"$r.log"
    rc=$?
    read -r w u s m <"$r.time"
    if [ $rc != 0 ] && [ $rc != 3 ] || ! "$citcat" ims "$r.cat" -o "$r.ims" 2>>"$r.log" ||
       ! "$citcat" aes "$r.cat" -o "$r.aes" 2>"$r.aes.log"; then
      echo "$tn $n: capture or extraction failed: $(cat "$r.log" "$r.aes.log" 2>/dev/null)"; bad=1; continue
    fi
    echo "$tn $n capture: $w s wall, $u s user, $s s system, peak RSS $((m / 1024)) MB; $(cat "$r.aes.log")"
    list=()
    for e in $engines; do list+=("A:$e"); done
    [ -n "$before" ] && [ "$n" -le "$bmax" ] && list+=("B:auto")
    if [ $flip = 1 ]; then
      rev=(); for ((i = ${#list[@]} - 1; i >= 0; i--)); do rev+=("${list[i]}"); done; list=("${rev[@]}")
    fi
    flip=$((1 - flip))
    for be in "${list[@]}"; do
      b=${be%%:*} e=${be#*:}
      bin=$citcat
      [ "$b" = B ] && bin=$before
      /usr/bin/time -f "%e %U %S %M" -o "$r.time" "$bin" replay "$r.ims" "$r.aes" --engine "$e" --verify "$r.cat" \
        2>"$r.$b.$e.log"
      rc=$?
      read -r w u s m <"$r.time"
      tag=$e
      [ "$b" = B ] && tag="$e (before)"
      echo "$tn $n replay --engine $tag: exit $rc, $w s wall, $u s user, $s s system, peak RSS $((m / 1024)) MB; load $(load)"
      grep -E "block engine" "$r.$b.$e.log" | sed 's/^/  /'
      if [ $rc != 0 ] || ! grep -q "bus trace verified" "$r.$b.$e.log"; then
        echo "  FAILED: $(tail -3 "$r.$b.$e.log")"; bad=1
      fi
    done
    rm -f "$r.cat" "$r.ims" "$r.aes"
  done
done
echo "load at the end: $(load)"
exit $bad
