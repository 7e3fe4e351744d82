#!/bin/bash
# m7rep.sh examples|hand|tamper CITCAT EDIT EXAMPLE_DIR M7_FW_DIR [NAME...]
#
# Extraction and replay on the Cortex-M7 (capture/TARGET-M7.md, replay/REPLAY.md).
#  examples: each NAME_m7.elf is captured with its oracle, extracted (the
#    IMS names the Cortex-M7 and holds 23 registers, the AES is version 3)
#    and replayed with --verify and --oracle: exit 0, the bus trace verified
#    and the instruction trace equal to the oracle (for the hand-written
#    firmware also the regenerated itrace, -o, dumped record for record).
#  hand: the capture tests' hand-written firmware (SysTick, PendSV, IRQs
#    with nested preemption, SVC, a UsageFault, returns by bx lr and
#    pop {pc}, stacking with and without the pad: tests/firmware/m7cap.c)
#    and the fault without a handler (its recorded end, fault kind 11),
#    replayed exactly in the same way.
#  tamper: on crc32 (DMA, IRQs) and the hand firmware (SVC, faults, nested
#    exceptions): bytes flipped in the CAT, IMS and AES give exit 2 naming
#    the file and its byte offset and leave no output; well-formed edits give
#    exit 2 naming what is wrong (an A-profile IMS retagged as M7, an M7 IMS
#    retagged as A, an AES of the other target, a start in handler mode, an
#    inconsistent CONTROL/SP dump) or exit 1 with a divergence (an exception
#    number changed, an exception moved by one branch, dropped) - never a
#    trace.
set -euo pipefail
mode=$1 citcat=$2 edit=$3 exdir=$4 fw=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7rep: $*" >&2; exit 1; }

# capture ELF as NAME, extract, replay exactly; the result stays in $tmp
exact() {
	local n=$1 elf=$2 want=$3 rc=0
	"$citcat" capture "$elf" -o "$tmp/$n.cat" --oracle "$tmp/$n.itrace" --seed 1 -q >"$tmp/$n.out" 2>"$tmp/$n.err" || rc=$?
	[ $rc -eq "$want" ] || fail "$n: capture exited $rc (want $want): $(cat "$tmp/$n.err")"
	"$citcat" ims "$tmp/$n.cat" -o "$tmp/$n.ims" 2>"$tmp/err" || fail "$n: ims: $(cat "$tmp/err")"
	"$citcat" aes "$tmp/$n.cat" -o "$tmp/$n.aes" 2>"$tmp/err" || fail "$n: aes: $(cat "$tmp/err")"
	"$citcat" info "$tmp/$n.ims" >"$tmp/info"
	grep -q '^  target     Cortex-M7' "$tmp/info" || fail "$n: IMS info does not name the Cortex-M7"
	grep -q '^  registers  23$' "$tmp/info" || fail "$n: IMS info: not 23 registers"
	grep -q '^    xpsr     0x01000000\|^    xpsr     0x[0-9a-f]1000000' "$tmp/info" || fail "$n: xPSR at P is not thread mode with T"
	# dump lists the M7's 23 slots by their names, then the memory runs
	"$citcat" dump "$tmp/$n.ims" --from 16 --count 8 --csv | cut -d, -f1-3 | tr '\n' ' ' |
		grep -qx 'rec,kind,reg 16,reg,xpsr 17,reg,msp 18,reg,psp 19,reg,primask 20,reg,basepri 21,reg,faultmask 22,reg,control 23,mem, ' ||
		fail "$n: dump of the IMS does not list the M7 registers"
	"$citcat" info "$tmp/$n.aes" | grep -q '(AES v3)' || fail "$n: AES not version 3"
	rc=0
	"$citcat" replay "$tmp/$n.ims" "$tmp/$n.aes" --verify "$tmp/$n.cat" --oracle "$tmp/$n.itrace" -o "$tmp/$n.re" \
		>"$tmp/rep" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "$n: replay exited $rc: $(cat "$tmp/rep")"
	grep -q 'bus trace verified' "$tmp/rep" && grep -q 'instruction trace equals the oracle' "$tmp/rep" ||
		fail "$n: replay not verified: $(cat "$tmp/rep")"
	# -o alone: no --verify, so the memory-system model is skipped (REPLAY.md,
	# "When the memory-system model runs"); the same itrace byte for byte
	"$citcat" replay "$tmp/$n.ims" "$tmp/$n.aes" -o "$tmp/$n.nomodel" -q 2>"$tmp/rep" ||
		fail "$n: replay without --verify failed: $(cat "$tmp/rep")"
	cmp -s "$tmp/$n.re" "$tmp/$n.nomodel" || fail "$n: the itrace written without the model differs"
	if [ "$mode" = hand ]; then # small traces: the written itrace too, record for record
		cmp -s <("$citcat" dump "$tmp/$n.itrace") <("$citcat" dump "$tmp/$n.re") ||
			fail "$n: the regenerated itrace differs from the oracle"
	fi
	echo "$n: $(grep -o '[0-9]* instructions, [0-9]* interrupts' "$tmp/rep")"
}

case $mode in
examples)
	for n in "$@"; do
		exact "$n" "$exdir/m7/${n}_m7.elf" 0
	done
	echo "m7rep: $# examples replayed exactly on the Cortex-M7"
	;;
hand)
	exact m7cap "$fw/m7cap.elf" 0
	exact m7cap_nohandler "$fw/m7cap_nohandler.elf" 3
	"$citcat" dump "$tmp/m7cap_nohandler.re" | tail -n 1 | grep -q 'stop.*fault' ||
		fail "nohandler: the regenerated trace does not end with the fault"
	echo "m7rep: hand-written firmware replayed exactly"
	;;
tamper)
	exact crc32 "$exdir/m7/crc32_m7.elf" 0
	exact m7cap "$fw/m7cap.elf" 0
	# must fail: exit WANT and, for 2, a message naming FILE (and PATTERN); no output left
	refuse() {
		local want=$1 file=$2 pat=$3 rc=0
		shift 3
		rm -f "$tmp/o.itrace"
		"$citcat" replay "$@" -o "$tmp/o.itrace" >"$tmp/o" 2>&1 || rc=$?
		[ $rc -eq "$want" ] || fail "$file: exit $rc, want $want: $(cat "$tmp/o")"
		grep -qi -- "$pat" "$tmp/o" || fail "$file: no '$pat' in: $(cat "$tmp/o")"
		[ $want -ne 2 ] || grep -q "$(basename "$file")" "$tmp/o" || fail "$file: the message does not name it: $(cat "$tmp/o")"
		[ ! -e "$tmp/o.itrace" ] && ! ls "$tmp"/o.itrace.tmp-* >/dev/null 2>&1 || fail "$file: output left behind"
	}
	flips=0
	for n in crc32 m7cap; do
		for k in ims aes cat; do
			f=$tmp/$n.$k
			size=$(stat -c %s "$f")
			for i in $(seq 0 5); do
				off=$(( (size - 1) * i / 5 ))
				cp "$f" "$tmp/t.$k"
				b=$(od -An -tu1 -j "$off" -N1 "$f" | tr -d ' ')
				printf "\\x$(printf %02x $((b ^ 0x10)))" | dd of="$tmp/t.$k" bs=1 seek="$off" conv=notrunc 2>/dev/null
				case $k in
				ims) refuse 2 "$tmp/t.ims" 'offset [0-9]' "$tmp/t.ims" "$tmp/$n.aes" ;;
				aes) refuse 2 "$tmp/t.aes" 'offset [0-9]' "$tmp/$n.ims" "$tmp/t.aes" ;;
				cat) refuse 2 "$tmp/t.cat" 'offset [0-9]' "$tmp/$n.ims" "$tmp/$n.aes" --verify "$tmp/t.cat" ;;
				esac
				flips=$((flips + 1))
			done
		done
	done
	# well-formed but wrong metadata (IMS.md: configuration at 0, registers
	# at 116 + 4k; AES.md: the target byte at 24)
	"$citcat" capture "$exdir/crc32.elf" -o "$tmp/a.cat" -q >/dev/null 2>&1 || fail "A-target capture"
	"$citcat" ims "$tmp/a.cat" -o "$tmp/a.ims" 2>/dev/null && "$citcat" aes "$tmp/a.cat" -o "$tmp/a.aes" 2>/dev/null
	"$edit" meta "$tmp/a.ims" "$tmp/t.ims" 0 2
	refuse 2 "$tmp/t.ims" 'register slot [0-9]* is .* on the Cortex-M7' "$tmp/t.ims" "$tmp/a.aes"
	"$edit" meta "$tmp/crc32.ims" "$tmp/t.ims" 0 1
	refuse 2 "$tmp/t.ims" 'different targets' "$tmp/t.ims" "$tmp/crc32.aes"
	"$edit" meta "$tmp/crc32.aes" "$tmp/t.aes" 24 0
	refuse 2 "$tmp/t.aes" 'different targets' "$tmp/crc32.ims" "$tmp/t.aes"
	"$edit" meta "$tmp/a.aes" "$tmp/t.aes" 24 1
	refuse 2 "$tmp/t.aes" 'different targets' "$tmp/a.ims" "$tmp/t.aes"
	"$edit" meta "$tmp/crc32.ims" "$tmp/t.ims" $((116 + 4 * 16)) 3 # xPSR: IPSR 3 (HardFault active)
	refuse 2 "$tmp/t.ims" 'handler mode' "$tmp/t.ims" "$tmp/crc32.aes"
	"$edit" meta "$tmp/crc32.ims" "$tmp/t.ims" $((116 + 4 * 22)) 2 # CONTROL.SPSEL: SP would be PSP
	refuse 2 "$tmp/t.ims" 'register dump is inconsistent' "$tmp/t.ims" "$tmp/crc32.aes"
	# the schedule edited: a divergence at the exception, never a trace
	for n in crc32 m7cap; do
		for e in "exc 0 1" "exc 0 -1" "move 0 1" "move 1 -1" "drop 0 0" "drop 3 0"; do
			set -- $e
			"$edit" "$1" "$tmp/$n.aes" "$tmp/t.aes" "$2" "$3"
			refuse 1 "$tmp/t.aes" 'diverged\|divergence' "$tmp/$n.ims" "$tmp/t.aes" --oracle "$tmp/$n.itrace"
		done
	done
	# the report of such a divergence lists Thumb-2 (a 16-bit cmp in the
	# crc32 loop) and the xPSR in thread mode, not A32 decodings and a CPSR
	"$edit" move "$tmp/crc32.aes" "$tmp/t.aes" 1 -1
	refuse 1 "$tmp/t.aes" 'xpsr 0x[0-9a-f]* (thread mode, Thumb)' "$tmp/crc32.ims" "$tmp/t.aes"
	grep -q ': [0-9a-f]\{4\}      cmp ' "$tmp/o" || fail "no 16-bit Thumb instruction in the report: $(cat "$tmp/o")"
	echo "m7rep: $flips flipped bytes and 18 edits refused"
	;;
*) fail "unknown mode $mode" ;;
esac
