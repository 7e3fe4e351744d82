#!/usr/bin/env bash
# DMA input that ends (issue 12): crc32 restarts only after full-length
# transfers, so an input shorter than its 32 KiB gives one DMA-done
# interrupt per chunk plus at most one zero-length completion - no storm -
# and the run still replays exactly.
# Usage: dma_input_end.sh CITCAT crc32.elf
set -u
citcat=$1 elf=$2
. "$(dirname "$0")/testlib.sh"
# bytes -> interrupts: 5000 = 4096 + 904 (short: stop); 8192 = two full
# chunks, then a restart that completes with COUNT 0 (stop); 1 byte: one
for case in 5000:2 8192:3 1:1; do
  bytes=${case%:*} want=${case#*:}
  head -c "$bytes" /dev/urandom >"$t/in.bin"
  "$citcat" capture "$elf" -o "$t/run.cat" --oracle "$t/run.itrace" --dma-in "$t/in.bin" --uart-out "$t/uart" \
    --seed 1 -q 2>"$t/log" || fail "$bytes bytes: capture: $(cat "$t/log")"
  grep -q "crc32: $bytes bytes .* OK" "$t/uart" || fail "$bytes bytes: $(cat "$t/uart")"
  irqs=$("$citcat" info --json "$t/run.cat" | grep -o '"irq": [0-9]*' | head -n 1 | grep -o '[0-9]*$')
  [ "$irqs" = "$want" ] || fail "$bytes bytes of input: $irqs DMA-done interrupts, expected $want"
  "$citcat" ims "$t/run.cat" -o "$t/run.ims" 2>/dev/null && "$citcat" aes "$t/run.cat" -o "$t/run.aes" 2>/dev/null &&
    "$citcat" replay "$t/run.ims" "$t/run.aes" --verify "$t/run.cat" --oracle "$t/run.itrace" -q ||
    fail "$bytes bytes: the replay is not exact"
done
finish dma_input_end
