#!/usr/bin/env bash
# The WET refuses a Cortex-M7 run (issue 11 follow-up): the builder's
# register model knows the A-profile IRQ-mode entry only, not the M-profile
# exception entry (eight words stacked, SP switched, LR = EXC_RETURN) and
# return, so `citcat wet` on an M7 IMS must exit 2 with a message naming
# the IMS and the target, and leave no output file.  Captures the first MAX
# instructions of ELF (--seed 1).
# Usage: wet_m7.sh CITCAT ELF MAX
set -u
citcat=$1 elf=$2 max=$3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$citcat" capture "$elf" -o "$d/r.cat" --seed 1 --max-insns "$max" -q 2>"$d/log" ||
  { echo "FAIL: capture: $(cat "$d/log")"; exit 1; }
"$citcat" ims "$d/r.cat" -o "$d/r.ims" 2>"$d/log" || { echo "FAIL: ims: $(cat "$d/log")"; exit 1; }
"$citcat" aes "$d/r.cat" -o "$d/r.aes" 2>"$d/log" || { echo "FAIL: aes: $(cat "$d/log")"; exit 1; }
"$citcat" wet "$d/r.ims" "$d/r.aes" -o "$d/r.wet" 2>"$d/err"
rc=$?
[ "$rc" = 2 ] || { echo "FAIL: citcat wet on a Cortex-M7 run exited $rc, want 2: $(cat "$d/err")"; exit 1; }
[ ! -e "$d/r.wet" ] || { echo "FAIL: citcat wet left an output file"; exit 1; }
ls "$d" | grep -q 'r\.wet' && { echo "FAIL: citcat wet left a temporary file: $(ls "$d")"; exit 1; }
grep -q "r\.ims: .*Cortex-M7" "$d/err" || { echo "FAIL: the message does not name the IMS and the target: $(cat "$d/err")"; exit 1; }
echo "ok: $(cat "$d/err")"
