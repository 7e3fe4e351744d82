#!/usr/bin/env bash
# A crashed run in every tool (issue 35), and the report's summary of it.
#  - M7WILD.elf (tests/firmware/m7wild.c): a Cortex-M7 crash on a wild
#    pointer with SysTick running.  Stated truths: the firmware stores
#    0x80000090 as a list link and loads through it with BusFault
#    disabled, so the run ends with HardFault (3) FORCED PRECISERR, CFSR
#    0x8200, HFSR 0x40000000, BFAR 0x80000090, at the load whose source
#    line addr2line gives for the fault PC; the last entry before it is a
#    SysTick (15); the exceptions drawn are the CAT's EXC events.
#  - CRASH_WILD.elf (tests/firmware/crash.c, CRASH=1): the A target's load
#    from 0x30000000 at crash_pc (nm): fault kind 1, address 0x30000000.
#  - M7WILD.elf captured with --checkpoint-every: replay --jobs 2 gives
#    the oracle, byte for byte, its fault status included.
# For both: ims, aes, replay --verify, every conversion (ChampSim, din,
# xdin, PDATS, PDATS II, SDC-LSP, the listing), dump, info --elf and
# report exit 0; the report's summary says how the run ended and lists the
# last instructions with the fault; sections with nothing to show are
# left out.  With chromium the page is rendered too.
# Usage: report_crash.sh CITCAT M7WILD.elf CRASH_WILD.elf TOOL_PREFIX
set -u
citcat=$1 m7=$2 awild=$3 prefix=$4
. "$(dirname "$0")/testlib.sh"

num() { grep -o "\"$1\": [0-9]*" "$2" | head -n 1 | grep -o '[0-9]*$'; }
attr() { grep -o "<section id=\"run-summary\"[^>]*>" "$1" | grep -o " data-$2=\"[^\"]*\"" | sed 's/.*="\(.*\)"/\1/'; }
row() { tr -d '\n' <"$1" | grep -o "<tr id=\"$2\">.*" | sed 's|</tr>.*||; s|<[^>]*>| |g; s|&amp;|\&|g'; }

every_tool() { # NAME: the run $t/NAME.{cat,itrace} through every tool
  local n=$1 elf=$2 f
  "$citcat" ims "$t/$n.cat" -o "$t/$n.ims" 2>"$t/err" || fail "$n: ims: $(cat "$t/err")"
  "$citcat" aes "$t/$n.cat" -o "$t/$n.aes" 2>"$t/err" || fail "$n: aes: $(cat "$t/err")"
  "$citcat" replay "$t/$n.ims" "$t/$n.aes" --verify "$t/$n.cat" --oracle "$t/$n.itrace" -o "$t/$n.re" 2>"$t/err" ||
    fail "$n: replay: $(cat "$t/err")"
  for f in champsim din xdin pdats pdats2; do
    "$citcat" convert "$t/$n.itrace" -o "$t/$n.$f" 2>"$t/err" || fail "$n: convert to $f: $(cat "$t/err")"
  done
  "$citcat" convert "$t/$n.itrace" -o "$t/$n.sdc" --to sdclsp:r:32x4,128 2>"$t/err" || fail "$n: convert to sdclsp: $(cat "$t/err")"
  "$citcat" convert "$t/$n.itrace" -o "$t/$n.txt" --to text --elf "$elf" 2>"$t/err" || fail "$n: listing: $(cat "$t/err")"
  "$citcat" dump "$t/$n.cat" >/dev/null 2>"$t/err" || fail "$n: dump: $(cat "$t/err")"
  "$citcat" info --elf "$elf" "$t/$n.itrace" >"$t/$n.info" 2>"$t/err" || fail "$n: info --elf: $(cat "$t/err")"
  "$citcat" info --json "$t/$n.cat" >"$t/$n.json" || fail "$n: info --json"
  "$citcat" report "$t/$n.cat" -o "$t/$n.html" --itrace "$t/$n.itrace" 2>"$t/err" || fail "$n: report: $(cat "$t/err")"
  # the summary comes before the charts, and says how the run ended
  local s b
  s=$(grep -bo '<section id="run-summary"' "$t/$n.html" | cut -d: -f1)
  b=$(grep -bo '<svg id="bus-events"' "$t/$n.html" | cut -d: -f1)
  [ -n "$s" ] && [ -n "$b" ] && [ "$s" -lt "$b" ] || fail "$n: no summary before the charts"
  [ "$(attr "$t/$n.html" stop)" = fault ] || fail "$n: data-stop $(attr "$t/$n.html" stop)"
  [ "$(attr "$t/$n.html" insns)" = "$(num instructions "$t/$n.json")" ] || fail "$n: instructions differ from info's"
  [ "$(attr "$t/$n.html" seed)" = "$(num seed "$t/$n.json")" ] || fail "$n: seed differs from info's"
  row "$t/$n.html" target | grep -q "I-cache 16 KiB, 4-way, 32-byte lines, LRU; D-cache 16 KiB, 4-way, 32-byte lines, LRU, write-back" ||
    fail "$n: cache configuration: $(row "$t/$n.html" target)"
  grep -q '<pre id="last-insns">' "$t/$n.html" || fail "$n: no listing of the last instructions"
  tr -d '\n' <"$t/$n.html" | grep -o '<pre id="last-insns">.*</pre>' | grep -q -- "--  fault at $(printf '0x%08x' "$(num fault_pc "$t/$n.json")")" ||
    fail "$n: the listing of the last instructions does not end with the fault"
}

# ---- the Cortex-M7 crash ----
rc=0
"$citcat" capture "$m7" -o "$t/m7.cat" --oracle "$t/m7.itrace" --seed 5 -q >/dev/null 2>"$t/err" || rc=$?
[ $rc -eq 3 ] || fail "m7wild: capture exited $rc (want 3): $(cat "$t/err")"
every_tool m7 "$m7"
h=$t/m7.html
[ "$(attr "$h" fault-kind)" = 11 ] || fail "m7wild: fault kind $(attr "$h" fault-kind)"
[ "$(attr "$h" cfsr)" = $((0x8200)) ] && [ "$(attr "$h" hfsr)" = $((0x40000000)) ] ||
  fail "m7wild: CFSR $(attr "$h" cfsr), HFSR $(attr "$h" hfsr)"
row "$h" fault | grep -q "HardFault FORCED PRECISERR, BFAR 0x80000090" || fail "m7wild: fault row: $(row "$h" fault)"
pc=$(num fault_pc "$t/m7.json")
src=$("${prefix}addr2line" -e "$m7" "$(printf '0x%x' "$pc")" | sed 's|.*/||')
row "$h" fault-pc | grep -q "$(printf '0x%08x' "$pc") main+0x[0-9a-f]* ($src)" ||
  fail "m7wild: fault PC row '$(row "$h" fault-pc)', addr2line says $src"
[ "$(attr "$h" last-irq)" = 15 ] && row "$h" last-irq | grep -q "SysTick (exception 15)" ||
  fail "m7wild: last interrupt: $(row "$h" last-irq)"
exc=$(grep -o '"exc": [0-9]*' "$t/m7.json" | head -n 1 | grep -o '[0-9]*$')
[ "$exc" -gt 5 ] || fail "m7wild: only $exc SysTick exceptions in the CAT"
grep -q "<svg id=\"timeline\"[^>]* data-irq=\"$exc\"" "$h" || fail "m7wild: the timeline does not draw the CAT's $exc exceptions"
grep -q "SysTick (exception 15): $exc;" "$h" || fail "m7wild: exceptions by number"
grep -q 'data-dma="0"' "$h" && grep -q '<text[^>]*>dma ' "$h" && fail "m7wild: an empty DMA strip is drawn"
grep -q "ended by .*HardFault FORCED PRECISERR, BFAR 0x80000090" "$t/m7.info" || fail "m7wild: info --elf: $(cat "$t/m7.info")"
grep -q "fault at $(printf '0x%08x' "$pc") main+0x[0-9a-f]* ($src): .*HardFault FORCED PRECISERR, BFAR 0x80000090" "$t/m7.txt" ||
  fail "m7wild: the listing's fault line: $(tail -n 1 "$t/m7.txt")"

# the same crash captured with checkpoints: the segments' replays (their
# models start at P_k, knowing no fault status from before) give the
# serial replay's itrace, fault status included, and verify against the CAT
rc=0
"$citcat" capture "$m7" -o "$t/k.cat" --oracle "$t/k.itrace" --seed 5 --checkpoint-every 5000 -q >/dev/null 2>"$t/err" || rc=$?
[ $rc -eq 3 ] || fail "m7wild with checkpoints: capture exited $rc (want 3): $(cat "$t/err")"
"$citcat" replay "$t/k.cat" --jobs 2 -o "$t/k.jobs.itrace" --verify "$t/k.cat" >/dev/null 2>"$t/err" ||
  fail "m7wild with checkpoints: replay --jobs 2: $(cat "$t/err")"
cmp -s "$t/k.jobs.itrace" "$t/k.itrace" || fail "m7wild with checkpoints: the segments' itrace differs from the oracle"
"$citcat" dump "$t/k.itrace" | tail -n 1 | grep -q "cfsr=0x00008200;hfsr=0x40000000;bfar=0x80000090" ||
  fail "m7wild with checkpoints: the oracle's STOP: $("$citcat" dump "$t/k.itrace" | tail -n 1)"

# ---- the A target's crash ----
rc=0
"$citcat" capture "$awild" -o "$t/a.cat" --oracle "$t/a.itrace" --seed 5 -q >/dev/null 2>"$t/err" || rc=$?
[ $rc -eq 3 ] || fail "crash_wild: capture exited $rc (want 3): $(cat "$t/err")"
every_tool a "$awild"
h=$t/a.html
crash_pc=$("${prefix}nm" "$awild" | awk '$3 == "crash_pc" { print $1 }')
[ "$(attr "$h" fault-kind)" = 1 ] && [ "$(attr "$h" fault-pc)" = $((0x$crash_pc)) ] &&
  [ "$(attr "$h" fault-addr)" = $((0x30000000)) ] || fail "crash_wild: fault $(attr "$h" fault-kind) at $(attr "$h" fault-pc)"
row "$h" fault | grep -q "address 0x30000000" || fail "crash_wild: fault row: $(row "$h" fault)"
row "$h" fault-pc | grep -q "0x$crash_pc main+0x" || fail "crash_wild: fault PC row: $(row "$h" fault-pc)"
if [ "$(num irq "$t/a.json")" = 0 ] && [ "$(num dma_bytes "$t/a.json")" = 0 ]; then
  grep -q '<svg id="timeline"' "$h" && fail "crash_wild: an empty interrupt/DMA timeline is drawn"
fi

# rendered by a browser, when there is one
if command -v chromium >/dev/null 2>&1; then
  timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$t/chrome" --dump-dom "file://$t/m7.html" \
    >"$t/dom.html" 2>"$t/chrome.err" || fail "chromium failed: $(tail -3 "$t/chrome.err")"
  grep -q '<section id="run-summary" data-stop="fault"' "$t/dom.html" || fail "the rendered page has no summary"
fi
finish report_crash
