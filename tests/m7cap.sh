#!/bin/bash
# m7cap.sh hand|examples CITCAT TOOL_PREFIX M7_FW_DIR EXAMPLE_DIR [NAME...]
#
# Capture on the Cortex-M7 (capture/TARGET-M7.md, "Capture").
#  examples: each NAME_m7.elf is captured with the target taken from its ARM
#    attributes (no --target) and runs to its own self-check ("... OK", exit
#    0); the CAT and the oracle name the Cortex-M7 in `citcat info` and read
#    through `citcat dump`; interrupts are EXC events, never IRQ.  An
#    A-profile ELF on the M7 and an M-profile ELF on the A target are refused
#    with one line naming the --target to use.
#  hand: tests/firmware/m7cap.c checks every stacked word itself; here the
#    oracle's entry records and returns are checked against the same values
#    worked out by hand from the symbols (stack_area, frame_epc, vectors):
#    frame = top - 0x20 without the pad, top - 0x28 with it (SP = top - 4),
#    words R0-R3, R12, LR as frame_test set them, the return address
#    frame_epc, xPSR 0xA1000000 | pad << 9, then the vector read at VTOR +
#    4 x number; pop {r4, pc} lists its two pops and the eight frame reads,
#    bx lr the eight frame reads.  The CAT has one EXC per asynchronous entry
#    (10 SysTick, 1 PendSV, IRQ 4..7) and none for SVC or the UsageFault.
#    m7cap_nohandler.elf stops with exit status 3 naming HardFault,
#    UNDEFINSTR and the PC of its udf.
set -euo pipefail
mode=$1 citcat=$2 prefix=$3 fw=$4 exdir=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7cap: $*" >&2; exit 1; }
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }
hex8() { printf '0x%08x' $(($1)); }

if [ "$mode" = examples ]; then
	first=1
	for n in "$@"; do
		elf=$exdir/m7/${n}_m7.elf
		rc=0
		"$citcat" capture "$elf" -o "$tmp/$n.cat" --oracle "$tmp/$n.itrace" --seed 1 -q >"$tmp/$n.out" 2>"$tmp/$n.err" || rc=$?
		[ $rc -eq 0 ] || fail "$n: capture exited $rc: $(cat "$tmp/$n.err")"
		tail -n 1 "$tmp/$n.out" | grep -q ' OK$' || fail "$n: no self-check OK: $(tail -n 3 "$tmp/$n.out")"
		"$citcat" info "$tmp/$n.cat" >"$tmp/info" || fail "$n: info of the CAT failed"
		grep -q 'CAT v[0-9]*), Cortex-M7' "$tmp/info" || fail "$n: info does not name the Cortex-M7: $(head -n 1 "$tmp/info")"
		grep -q 'stopped by exit' "$tmp/info" || fail "$n: the trace did not end by exit"
		"$citcat" info --json "$tmp/$n.cat" | grep -q '"target": "cortex-m7"' || fail "$n: info --json target"
		"$citcat" info "$tmp/$n.itrace" | grep -q 'Cortex-M7' || fail "$n: info of the oracle"
		"$citcat" dump "$tmp/$n.cat" >"$tmp/dump" 2>/dev/null || fail "$n: dump of the CAT failed"
		grep -q '^[0-9]* sync ' "$tmp/dump" || fail "$n: dump shows no sync"
		! grep -q '^[0-9]* irq ' "$tmp/dump" || fail "$n: an IRQ event in a Cortex-M7 CAT"
		"$citcat" dump "$tmp/$n.itrace" >/dev/null || fail "$n: dump of the oracle failed"
		if [ "$n" = sched ]; then # timer interrupts through the NVIC: IRQ 0 = exception 16
			grep -q '^[0-9]* exc line=16 ' "$tmp/dump" || fail "sched: no EXC event for IRQ 0"
		fi
		if [ $first = 1 ] && [ -f "$exdir/$n.elf" ]; then
			first=0
			rc=0
			"$citcat" capture "$exdir/$n.elf" --target cortex-m7 -o "$tmp/x.cat" -q >/dev/null 2>"$tmp/err" || rc=$?
			[ $rc -eq 2 ] && grep -q -- '--target armv7-a' "$tmp/err" && [ ! -e "$tmp/x.cat" ] ||
				fail "A-profile ELF on the M7: exit $rc, $(cat "$tmp/err")"
			rc=0
			"$citcat" capture "$elf" --target armv7-a -o "$tmp/x.cat" -q >/dev/null 2>"$tmp/err" || rc=$?
			[ $rc -eq 2 ] && grep -q -- '--target cortex-m7' "$tmp/err" && [ ! -e "$tmp/x.cat" ] ||
				fail "M-profile ELF on the A target: exit $rc, $(cat "$tmp/err")"
			"$citcat" capture "$elf" --target armv7 -o "$tmp/x.cat" -q >/dev/null 2>&1 && fail "--target armv7 accepted"
		fi
	done
	echo "m7cap: $# examples captured on the Cortex-M7"
	exit 0
fi

# ---- hand ----
elf=$fw/m7cap.elf
rc=0
"$citcat" capture "$elf" -o "$tmp/h.cat" --oracle "$tmp/h.itrace" --seed 1 -q >"$tmp/h.out" 2>"$tmp/h.err" || rc=$?
[ $rc -eq 0 ] || fail "m7cap: capture exited $rc: $(cat "$tmp/h.err") $(cat "$tmp/h.out")"
grep -qx 'm7cap: 0 failures' "$tmp/h.out" || fail "the firmware's own checks: $(cat "$tmp/h.out")"
"$citcat" dump "$tmp/h.itrace" >"$tmp/it"
"$citcat" dump "$tmp/h.cat" >"$tmp/cat" 2>/dev/null

top=$(($(sym "$elf" stack_area) + 256))
epc=$(sym "$elf" frame_epc)
vt=$(sym "$elf" vectors)
[ -n "$epc" ] && [ -n "$vt" ] && [ $top -gt 256 ] || fail "symbols missing"
# the stub addresses as the vector table holds them (Thumb bit set)
pop_h=$(($(sym "$elf" irq_pop_handler) | 1))
bx_h=$(($(sym "$elf" irq_bx_handler) | 1))

expect_entry() { # IRQ PAD HANDLER: the entry record's accesses, by hand
	local irq=$1 pad=$2 h=$3 f
	f=$((top - 0x20 - 8 * pad))
	printf 'w4@%s=0x11111111;w4@%s=0x22222222;w4@%s=0x33333333;w4@%s=0x44444444;w4@%s=0xcccccccc;w4@%s=0x5555aaab;w4@%s=%s;w4@%s=%s;r4@%s=%s' \
		"$(hex8 $f)" "$(hex8 $((f + 4)))" "$(hex8 $((f + 8)))" "$(hex8 $((f + 12)))" "$(hex8 $((f + 16)))" \
		"$(hex8 $((f + 20)))" "$(hex8 $((f + 24)))" "$(hex8 $epc)" "$(hex8 $((f + 28)))" \
		"$(hex8 $((0xA1000000 | pad << 9)))" "$(hex8 $((vt + 4 * (16 + irq))))" "$(hex8 $h)"
}
unstack() { # PAD: the eight frame reads of the return
	local pad=$1 f
	f=$((top - 0x20 - 8 * pad))
	printf 'r4@%s=0x11111111;r4@%s=0x22222222;r4@%s=0x33333333;r4@%s=0x44444444;r4@%s=0xcccccccc;r4@%s=0x5555aaab;r4@%s=%s;r4@%s=%s' \
		"$(hex8 $f)" "$(hex8 $((f + 4)))" "$(hex8 $((f + 8)))" "$(hex8 $((f + 12)))" "$(hex8 $((f + 16)))" \
		"$(hex8 $((f + 20)))" "$(hex8 $((f + 24)))" "$(hex8 $epc)" "$(hex8 $((f + 28)))" \
		"$(hex8 $((0xA1000000 | pad << 9)))"
}
# the four entries in order: IRQ 4 pad 0, IRQ 4 pad 1, IRQ 5 pad 0, IRQ 5 pad 1
mapfile -t got < <(awk '$2 == "irq" && ($5 == "line=20" || $5 == "line=21")' "$tmp/it")
[ ${#got[@]} -eq 4 ] || fail "expected 4 entries of IRQ 4 and 5 in the oracle, found ${#got[@]}"
k=0
for spec in "4 0 $pop_h" "4 1 $pop_h" "5 0 $bx_h" "5 1 $bx_h"; do
	set -- $spec
	want="pc=$(hex8 $epc) line=$((16 + $1)) accesses=$(expect_entry $1 $2 $3)"
	[[ "${got[$k]}" == *" $want" ]] || fail "IRQ $1 pad $2 entry record:
  got  ${got[$k]}
  want ... $want"
	k=$((k + 1))
done
# the returns: pop {r4, pc} (its two pops, then the frame), bx lr (the frame)
pop_ret=$(hex8 "$(sym "$elf" irq_pop_ret)")
bx_ret=$(hex8 "$(sym "$elf" irq_bx_ret)")
mapfile -t pops < <(awk -v pc="pc=$pop_ret" '$2 == "insn" && $4 == pc' "$tmp/it")
mapfile -t bxs < <(awk -v pc="pc=$bx_ret" '$2 == "insn" && $4 == pc' "$tmp/it")
[ ${#pops[@]} -ge 2 ] && [ ${#bxs[@]} -ge 2 ] || fail "exception returns missing from the oracle"
for pad in 0 1; do
	[[ "${pops[$pad]}" == *";$(unstack $pad)" ]] || fail "pop {r4, pc} return (pad $pad): ${pops[$pad]}"
	[[ "${pops[$pad]}" == *"accesses=r4@"*";r4@"*";$(unstack $pad)" ]] || fail "pop {r4, pc}: its own pops"
	[[ "${bxs[$pad]}" == *" accesses=$(unstack $pad)" ]] || fail "bx lr return (pad $pad): ${bxs[$pad]}"
done
# CAT: EXC for the asynchronous entries only, at their boundary
count() { grep -c "$1" "$2" || true; }
[ "$(count "^[0-9]* exc line=20 .*pc=$(hex8 $epc)\( \|$\)" "$tmp/cat")" -eq 2 ] || fail "CAT: EXC of IRQ 4 at frame_epc"
[ "$(count '^[0-9]* exc line=15 ' "$tmp/cat")" -eq 10 ] || fail "CAT: 10 SysTick EXC events"
[ "$(count '^[0-9]* exc line=14 ' "$tmp/cat")" -eq 1 ] || fail "CAT: 1 PendSV EXC event"
[ "$(count '^[0-9]* exc line=22 ' "$tmp/cat")" -eq 1 ] && [ "$(count '^[0-9]* exc line=23 ' "$tmp/cat")" -eq 1 ] ||
	fail "CAT: nested IRQ 6 and 7"
[ "$(count '^[0-9]* exc line=\(11\|6\|3\) ' "$tmp/cat")" -eq 0 ] || fail "CAT: a synchronous exception recorded as EXC"
[ "$(count '^[0-9]* irq .*line=11 ' "$tmp/it")" -eq 1 ] && [ "$(count '^[0-9]* irq .*line=6 ' "$tmp/it")" -eq 1 ] ||
	fail "oracle: SVC and UsageFault entries"
# IRQ 7 preempts IRQ 6: its entry lies between IRQ 6's entry and IRQ 6's return
awk '$2 == "irq" && ($5 == "line=22" || $5 == "line=23") { print $5 }' "$tmp/it" | tr '\n' ' ' | grep -qx 'line=22 line=23 ' ||
	fail "oracle: nesting order"

# ---- a fault without a handler ----
elf=$fw/m7cap_nohandler.elf
udf=$(sym "$elf" m7cap_udf)
rc=0
"$citcat" capture "$elf" -o "$tmp/n.cat" --oracle "$tmp/n.itrace" --seed 1 -q >"$tmp/n.out" 2>"$tmp/n.err" || rc=$?
[ $rc -eq 3 ] || fail "no handler: exit $rc (want 3): $(cat "$tmp/n.err")"
grep -q "HardFault UNDEFINSTR at pc $(hex8 $udf)" "$tmp/n.err" || fail "no handler: message $(cat "$tmp/n.err")"
grep -qx 'before the fault' "$tmp/n.out" && ! grep -q 'after the fault' "$tmp/n.out" || fail "no handler: output"
"$citcat" info --json "$tmp/n.cat" | grep -q "\"fault_pc\": $((udf)), \"fault_addr\": 3" || fail "no handler: STOP in the CAT"
"$citcat" dump "$tmp/n.itrace" | tail -n 1 | grep -q "stop .*pc=$(hex8 $udf) .*fault11@0x00000003" ||
	fail "no handler: the oracle's last record: $("$citcat" dump "$tmp/n.itrace" | tail -n 1)"
# the fault status (issue 35), by hand: UsageFault disabled, so the UDF
# escalates: HardFault (3), CFSR UNDEFINSTR (bit 16) = 0x10000, HFSR
# FORCED (bit 30), no fault address register valid
"$citcat" info --json "$tmp/n.cat" |
	grep -q '"m7_fault": {"exception": 3, "cfsr": 65536, "hfsr": 1073741824, "mmfar": null, "bfar": null, "text": "HardFault FORCED UNDEFINSTR"}' ||
	fail "no handler: fault status: $("$citcat" info --json "$tmp/n.cat")"
echo "m7cap: hand-written Cortex-M7 exceptions captured as worked out"
