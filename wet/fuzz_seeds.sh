#!/usr/bin/env bash
# Regenerates the WET fuzz seeds (tests/fuzz/corpus/wet, WET.md "Fuzzing
# the reader") with the current format.  Each seed is one flag byte (odd:
# the fuzz target reseals the checksums first) followed by a WET:
#   small.wet           0x00 + counter, first 560 instructions run (402 traced), --seg-insns 128 (4 segments)
#   small_resealed.wet  0x07 + the same WET (resealed; the replay walk backwards, with register results)
#   bb.wet              0x00 + sched, first 3000 instructions run (2833 traced, 2 interrupts), --nodes bb
#   irqs.wet            0x02 + the same run, path nodes, --seg-insns 1024 (3 segments; register results)
#   trunc.wet           the first 3001 bytes of irqs.wet (a WET cut short)
#   thumb.wet           0x00 + sched_thumb, first 3000 instructions run, --seg-insns 1024 (Thumb
#                       statements, 16- and 32-bit, some in IT blocks)
#   thumb_bb.wet        0x01 + the same run, --nodes bb
#   m7.wet              0x03 + sched_m7, first 3000 instructions run, --seg-insns 1024 (version 7:
#                       the Cortex-M7 register model, exception entries and returns as events)
# (flag bits: 1 reseal, 2 the replay walk with register results, 4 that walk backwards)
# Captures use --seed 1.  Usage: wet/fuzz_seeds.sh CITCAT EXAMPLES_DIR OUT_DIR
# (EXAMPLES_DIR: build/examples, holding counter.elf, sched.elf, sched_thumb.elf and m7/sched_m7.elf).
set -eu
citcat=$1 ex=$2 out=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
run() { # NAME ELF MAX
  "$citcat" capture "$ex/$2.elf" -o "$t/$1.cat" --seed 1 --max-insns "$3" -q
  "$citcat" ims "$t/$1.cat" -o "$t/$1.ims" 2>/dev/null
  "$citcat" aes "$t/$1.cat" -o "$t/$1.aes" 2>/dev/null
}
seed() { # FLAG OUT WET
  { printf "\\x$1"; cat "$3"; } >"$out/$2"
}
run small counter 560
"$citcat" wet "$t/small.ims" "$t/small.aes" -o "$t/small.wet" --seg-insns 128 2>/dev/null
run sched sched 3000
"$citcat" wet "$t/sched.ims" "$t/sched.aes" -o "$t/bb.wet" --nodes bb 2>/dev/null
"$citcat" wet "$t/sched.ims" "$t/sched.aes" -o "$t/irqs.wet" --seg-insns 1024 2>/dev/null
seed 00 small.wet "$t/small.wet"
seed 07 small_resealed.wet "$t/small.wet"
seed 00 bb.wet "$t/bb.wet"
seed 02 irqs.wet "$t/irqs.wet"
head -c 3001 "$out/irqs.wet" >"$out/trunc.wet"
run sthumb sched_thumb 3000
"$citcat" wet "$t/sthumb.ims" "$t/sthumb.aes" -o "$t/thumb.wet" --seg-insns 1024 2>/dev/null
"$citcat" wet "$t/sthumb.ims" "$t/sthumb.aes" -o "$t/thumb_bb.wet" --nodes bb 2>/dev/null
seed 00 thumb.wet "$t/thumb.wet"
seed 01 thumb_bb.wet "$t/thumb_bb.wet"
run sm7 m7/sched_m7 3000
"$citcat" wet "$t/sm7.ims" "$t/sm7.aes" -o "$t/m7.wet" --seg-insns 1024 2>/dev/null
seed 03 m7.wet "$t/m7.wet"
