#!/usr/bin/env bash
# A long interrupt- and DMA-heavy run replays exactly in bounded memory
# (issue 36 part 2; replay/REPLAY.md "Interrupts, DMA and the block
# engine").  ELF (irqdma_big: a fast timer interrupt and a DMA stream
# restarted from its completion interrupt) is captured for INSNS
# instructions with a DMA input of DMA_BYTES, which the run uses up early,
# then replayed with --verify by each ENGINE given (default: the default
# engine, and the block engine forced).  Each replay must pass and stay
# under MAX_RSS_MB of peak RSS (default 160; the replay keeps RAM, its
# known-bytes bitmap, the caches and Unicorn's translations, whatever the
# run's length); the time and peak RSS of each are printed.
# Usage: long_replay.sh CITCAT ELF INSNS DMA_BYTES OUTDIR [ENGINE...]
# Environment: MAX_RSS_MB.
# The CTest long_replay_500M (label slow) runs irqdma_big for 500 M
# instructions; the figures of 1 B instructions come from
#   tests/long_replay.sh build/cli/citcat build/examples/irqdma_big.elf 1000000000 2097152 /tmp/lr auto insn block
set -u
[ $# -ge 5 ] || { echo "usage: $0 CITCAT ELF INSNS DMA_BYTES OUTDIR [ENGINE...]" >&2; exit 2; }
citcat=$1 elf=$2 insns=$3 dma=$4 out=$5
shift 5
engines=${*:-"auto block"}
max=${MAX_RSS_MB:-160}
mkdir -p "$out"
r=$out/run
head -c "$dma" /dev/zero | tr '\0' '\145' >"$out/dma.bin"
fail() { echo "FAIL: $*"; exit 1; }
t0=$(date +%s)
"$citcat" capture "$elf" --seed 1 -q -o "$r.cat" --dma-in "$out/dma.bin" --max-insns "$insns" --uart-out "$r.uart" \
  2>"$r.log" || fail "capture: $(cat "$r.log")"
"$citcat" ims "$r.cat" -o "$r.ims" 2>>"$r.log" || fail "ims: $(cat "$r.log")"
"$citcat" aes "$r.cat" -o "$r.aes" 2>"$r.aes.log" || fail "aes: $(cat "$r.aes.log")"
echo "captured in $(($(date +%s) - t0)) s: $(cat "$r.aes.log")"
# the DMA input was used up: every byte of it went to RAM
grep -q "DMA transfers ($dma bytes)" "$r.aes.log" || fail "the DMA input was not used up: $(cat "$r.aes.log")"
grep -Eq "[1-9][0-9]{3,} interrupts" "$r.aes.log" || fail "too few interrupts: $(cat "$r.aes.log")"
for e in $engines; do
  /usr/bin/time -f "%e %U %S %M" -o "$r.time" "$citcat" replay "$r.ims" "$r.aes" --engine "$e" --verify "$r.cat" \
    2>"$r.$e.log"
  rc=$?
  read -r wall user sys rss <"$r.time"
  echo "replay --engine $e --verify: exit $rc, $wall s wall, $user s user, $sys s system, peak RSS $((rss / 1024)) MB"
  grep -E "^citcat replay|block engine" "$r.$e.log" | sed 's/^/  /'
  [ $rc = 0 ] || fail "engine $e: $(tail -5 "$r.$e.log")"
  grep -q "bus trace verified" "$r.$e.log" || fail "engine $e: no verification"
  [ $((rss / 1024)) -le "$max" ] || fail "engine $e: peak RSS $((rss / 1024)) MB over $max MB"
done
echo "ok"
