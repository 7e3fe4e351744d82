#!/usr/bin/env bash
# Conditional loads and stores decided on flags a later compare in the same
# block overwrites (tests/firmware/condflags.c; replay/REPLAY.md
# "Attribution with the flags of an earlier point"), ARM and Thumb-2: the
# firmware's own check passes, and the block engine replays it exactly
# with --verify --oracle, with --verify alone and writing the itrace alone
# (the itrace equal to the oracle), running blocks (its summary), not
# only per instruction.
# Usage: condflags.sh CITCAT ARM.elf THUMB.elf
set -u
citcat=$1
shift
. "$(dirname "$0")/testlib.sh"
for elf in "$@"; do
  n=$(basename "$elf" .elf) r=$t/$n
  "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.oracle" --seed 1 -q --uart-out "$r.uart" 2>"$r.err" \
    || { fail "$n: capture: $(cat "$r.err")"; continue; }
  grep -q '^condflags: ok ' "$r.uart" || fail "$n: firmware: $(cat "$r.uart")"
  "$citcat" ims "$r.cat" -o "$r.ims" 2>/dev/null && "$citcat" aes "$r.cat" -o "$r.aes" 2>/dev/null \
    || { fail "$n: extraction"; continue; }
  "$citcat" replay "$r.ims" "$r.aes" --engine block --verify "$r.cat" --oracle "$r.oracle" 2>"$r.err" \
    || fail "$n: replay --verify --oracle: $(cat "$r.err")"
  grep -q 'block engine: [1-9][0-9]* blocks without the code hook' "$r.err" || fail "$n: no blocks: $(cat "$r.err")"
  "$citcat" replay "$r.ims" "$r.aes" --engine block --verify "$r.cat" -q 2>"$r.err" \
    || fail "$n: replay --verify: $(cat "$r.err")"
  "$citcat" replay "$r.ims" "$r.aes" --engine block -o "$r.itrace" -q 2>"$r.err" \
    || fail "$n: replay -o: $(cat "$r.err")"
  cmp -s "$r.itrace" "$r.oracle" || fail "$n: the itrace differs from the oracle"
done
finish condflags
