#!/usr/bin/env bash
# What stays refused on the M7 (WET.md "Checkpointed captures"): the whole
# of a checkpointed capture.  Its IMS is a segment bundle, which `citcat
# wet` without --segment K refuses with exit 2, naming the IMS, the segment
# count and --segment, leaving no output file (one segment's WET:
# tests/wet_m7_seg.sh).
# Usage: wet_m7_ckpt.sh CITCAT ELF
set -u
citcat=$1 elf=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$citcat" capture "$elf" -o "$d/r.cat" --seed 1 --max-insns 30000 --checkpoint-every 5000 -q >/dev/null 2>"$d/log" ||
  { echo "FAIL: capture: $(cat "$d/log")"; exit 1; }
"$citcat" ims "$d/r.cat" -o "$d/r.ims" 2>/dev/null || { echo "FAIL: ims"; exit 1; }
"$citcat" aes "$d/r.cat" -o "$d/r.aes" 2>/dev/null || { echo "FAIL: aes"; exit 1; }
"$citcat" wet "$d/r.ims" "$d/r.aes" -o "$d/r.wet" 2>"$d/err"
rc=$?
[ "$rc" = 2 ] || { echo "FAIL: citcat wet on a checkpointed M7 run exited $rc, want 2: $(cat "$d/err")"; exit 1; }
[ ! -e "$d/r.wet" ] || { echo "FAIL: citcat wet left an output file"; exit 1; }
ls "$d" | grep -q 'r\.wet' && { echo "FAIL: citcat wet left a temporary file: $(ls "$d")"; exit 1; }
grep -q "r\.ims: .*segments.*--segment" "$d/err" || { echo "FAIL: the message does not name the IMS, its segments and --segment: $(cat "$d/err")"; exit 1; }
echo "ok: $(cat "$d/err")"
