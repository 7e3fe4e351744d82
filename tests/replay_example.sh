#!/usr/bin/env bash
# Replays one example's capture from its IMS and AES alone and checks it
# exactly: the regenerated bus trace against the CAT and the instruction
# trace against the oracle (both from the ex_NAME fixture); then once more
# with -o alone (no --verify: the memory-system model is skipped), which
# must write the same bytes.
# Usage: replay_example.sh CITCAT DIR NAME [extracted [ENGINE]]   (DIR holds NAME.cat, NAME.itrace)
# ENGINE (insn, block, auto; default insn) is the replay's --engine: every
# engine must write the same bytes, the oracle's.
# With "extracted", the IMS and AES are the ones extract_NAME wrote from the
# same CAT (NAME.x.ims, NAME.x.aes: its fixture), not extracted again.
set -u
citcat=$1 dir=$2 name=$3 extracted=${4:-} engine=${5:-insn}
run=$dir/$name
out=$run.replay.itrace
[ "$engine" = insn ] || out=$run.replay-$engine.itrace
rm -f "$out"
if [ "$extracted" = extracted ]; then
  ims=$run.x.ims aes=$run.x.aes
  [ -e "$ims" ] && [ -e "$aes" ] || { echo "FAIL: extract_$name left no $ims, $aes"; exit 1; }
else
  ims=$run.ims aes=$run.aes
  rm -f "$ims" "$aes"
  "$citcat" ims "$run.cat" -o "$ims" || { echo "FAIL: citcat ims exited $?"; exit 1; }
  "$citcat" aes "$run.cat" -o "$aes" || { echo "FAIL: citcat aes exited $?"; exit 1; }
fi
"$citcat" replay "$ims" "$aes" -o "$out" --verify "$run.cat" --oracle "$run.itrace" --engine "$engine"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: citcat replay exited $rc"; exit 1; }
# the written trace is the oracle, byte for byte (the encoding is canonical)
cmp -s "$out" "$run.itrace" || { echo "FAIL: the written trace differs from the oracle"; exit 1; }
# without --verify nothing reads the memory-system model, so the replay
# skips it (REPLAY.md, "When the memory-system model runs"): the same bytes
rm -f "$out"
"$citcat" replay "$ims" "$aes" -o "$out" --engine "$engine" -q
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: citcat replay without --verify exited $rc"; exit 1; }
cmp -s "$out" "$run.itrace" || { echo "FAIL: the trace written without the model differs from the oracle"; exit 1; }
rm -f "$out"
echo "$name: replay exact (engine $engine)"
