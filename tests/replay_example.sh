#!/usr/bin/env bash
# Replays one example's capture from its IMS and AES alone and checks it
# exactly: the regenerated bus trace against the CAT and the instruction
# trace against the oracle (both from the ex_NAME fixture).
# Usage: replay_example.sh CITCAT DIR NAME   (DIR holds NAME.cat, NAME.itrace)
set -u
citcat=$1 dir=$2 name=$3
run=$dir/$name
rm -f "$run.ims" "$run.aes" "$run.replay.itrace"
"$citcat" ims "$run.cat" -o "$run.ims" || { echo "FAIL: citcat ims exited $?"; exit 1; }
"$citcat" aes "$run.cat" -o "$run.aes" || { echo "FAIL: citcat aes exited $?"; exit 1; }
"$citcat" replay "$run.ims" "$run.aes" -o "$run.replay.itrace" --verify "$run.cat" --oracle "$run.itrace"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: citcat replay exited $rc"; exit 1; }
# the written trace is the oracle, byte for byte (the encoding is canonical)
cmp -s "$run.replay.itrace" "$run.itrace" || { echo "FAIL: the written trace differs from the oracle"; exit 1; }
rm -f "$run.replay.itrace"
echo "$name: replay exact"
