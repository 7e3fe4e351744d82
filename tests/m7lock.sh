#!/bin/bash
# m7lock.sh CITCAT TOOL_PREFIX M7_FW_DIR
#
# Lockups from stacking and vector-read errors on the Cortex-M7
# (capture/TARGET-M7.md, "Stacking, unstacking and vector-read errors";
# firmware tests/firmware/m7lock.c).  Worked out by hand, for each of the two
# builds, with P = m7lock_pend + 2, the instruction after the store that
# pends the exception (the boundary where it is taken, and the return
# address of the frame being made):
#  - m7lock_vecttbl: IRQ 16's vector read at VTOR + 0x80 = 0x02000080 fails,
#    and HardFault's at 0x0200000C too: "lockup: IRQ 16 VECTTBL at pc P",
#    CAT STOP fault kind 11 at P with address 32;
#  - m7lock_stkerr: NMI's eight stacking writes below PSP = 0x30000000 fail,
#    and the derived BusFault cannot be taken at priority -2: "lockup: NMI
#    STKERR at pc P", address 2.
# Each: exit status 3 within seconds (the STKERR lockup is found after the
# entry's register writes, where Unicorn once dropped the stop request and
# ran on into the handler: tests/test_unicorn.c), the firmware's output
# ends before the lockup, the oracle ends with the store and a stop record
# (fault kind 11 at P, the exception number; no entry record), and ims/aes -> replay --verify --oracle is exact up to the
# lockup (the replayer takes the recorded exception at the last boundary
# and finds the same lockup).
set -euo pipefail
citcat=$1 prefix=$2 fw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7lock: $*" >&2; exit 1; }
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }

for c in "vecttbl IRQ\\ 16 VECTTBL 32" "stkerr NMI STKERR 2"; do
	eval "set -- $c"
	n=m7lock_$1 exc=$2 err=$3 num=$4
	elf=$fw/$n.elf
	pend=$(sym "$elf" m7lock_pend)
	[ -n "$pend" ] || fail "$n: no m7lock_pend"
	p=$((pend + 2))
	ph=$(printf '0x%08x' $p)
	rc=0
	timeout 60 "$citcat" capture "$elf" --ram 32M -o "$tmp/$n.cat" --oracle "$tmp/$n.itrace" --seed 1 -q \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc -eq 3 ] || fail "$n: capture exited $rc (want 3): $(cat "$tmp/err")"
	grep -q "lockup: $exc $err at pc $ph;" "$tmp/err" || fail "$n: message: $(cat "$tmp/err")"
	[ "$(cat "$tmp/out")" = "before the lockup" ] || fail "$n: firmware output: $(cat "$tmp/out")"
	"$citcat" info --json "$tmp/$n.cat" | grep -q "\"fault_pc\": $p, \"fault_addr\": $num" ||
		fail "$n: STOP in the CAT: $("$citcat" info --json "$tmp/$n.cat")"
	mapfile -t last < <("$citcat" dump "$tmp/$n.itrace" | tail -n 2)
	[[ "${last[0]}" == *" insn "*"pc=$(printf '0x%08x' $((pend))) "* ]] || fail "$n: the oracle's last instruction: ${last[0]}"
	# (then the fault status, CAT.md version 7: ";cfsr=...;hfsr=...")
	[[ "${last[1]}" == *" stop "*"pc=$ph line=3 accesses=fault11@$(printf '0x%08x' $num);cfsr="* ]] ||
		fail "$n: the oracle's stop record: ${last[1]}"
	"$citcat" ims "$tmp/$n.cat" -o "$tmp/$n.ims" 2>"$tmp/err" || fail "$n: ims: $(cat "$tmp/err")"
	"$citcat" aes "$tmp/$n.cat" -o "$tmp/$n.aes" 2>"$tmp/err" || fail "$n: aes: $(cat "$tmp/err")"
	rc=0
	timeout 60 "$citcat" replay "$tmp/$n.ims" "$tmp/$n.aes" --verify "$tmp/$n.cat" --oracle "$tmp/$n.itrace" \
		-o "$tmp/$n.re" >"$tmp/rep" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "$n: replay exited $rc: $(cat "$tmp/rep")"
	grep -q 'bus trace verified' "$tmp/rep" && grep -q 'instruction trace equals the oracle' "$tmp/rep" ||
		fail "$n: replay not verified: $(cat "$tmp/rep")"
	echo "$n: lockup: $exc $err at $ph, replayed exactly"
done
