#!/bin/bash
# model_thread_m7.sh CITCAT TEST_MODEL_THREAD M7REP_EDIT M7CAP.elf DIR
#
# The replay's model thread on the Cortex-M7 (replay/REPLAY.md "session 13:
# the model thread"): m7cap (SysTick, PendSV, SVC, nested NVIC interrupts, a
# UsageFault with its handler; every entry stacks through the exception
# model's own RAM writes) captured with --seed 1 and a 512-byte D-cache (so
# that stacked lines are written back and filled again after the start
# point: some 1100 write-backs, whose data the model thread's RAM copy
# must hold, stacking included), its IMS and AES extracted,
# then test_model_thread's checks in its m7 mode: the thread forced against
# the inline model, good run, the AES's first exception made exception 19
# instead of 20 (the bus trace's EXC event differs at instruction #282,
# found by the thread), flipped bytes, and a stop request after the thread
# found the difference.
set -euo pipefail
citcat=$1 tmt=$2 edit=$3 elf=$4 dir=$5
mkdir -p "$dir"
"$citcat" capture "$elf" --dcache 512:2:32 -o "$dir/m7cap.cat" --seed 1 -q >"$dir/m7cap.out" 2>&1
grep -qx 'm7cap: 0 failures' "$dir/m7cap.out"
"$citcat" ims "$dir/m7cap.cat" -o "$dir/m7cap.ims" 2>/dev/null
"$citcat" aes "$dir/m7cap.cat" -o "$dir/m7cap.aes" 2>/dev/null
"$edit" exc "$dir/m7cap.aes" "$dir/exc.aes" 0 -1
exec "$tmt" "$citcat" "$dir/m7cap.cat" "$dir/m7cap.ims" "$dir/m7cap.aes" "$dir/t" m7 "$dir/exc.aes"
