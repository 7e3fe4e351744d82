#!/bin/bash
# m7fault.sh CITCAT EDIT TOOL_PREFIX M7_FW_DIR
#
# Precise BusFault on the Cortex-M7 (capture/TARGET-M7.md, Faults).
#  - tests/firmware/m7fault.c checks CFSR, BFAR, HFSR and the stacked frame
#    itself; here the oracle's four entry records are checked against the
#    values worked out by hand: exception 5 (BusFault) for the load at
#    m7fault_ld and the store at m7fault_st, then 3 (HardFault, the masked
#    and the disabled BusFault), each with the faulting instruction as
#    return address and its vector read at VTOR (0) + 4 x number last; the
#    faulting instruction's own record has no access; the CAT has no EXC
#    event for them (synchronous: the replayer re-derives them).
#  - IBUSERR: the blx at m7fault_call to the unmapped 0x30000101 enters
#    BusFault (5) with the unmapped address 0x30000100 as return address,
#    the stacked LR = m7fault_call + 2 + 1 (the blx is 16-bit), xPSR =
#    0x01000000 (T, no padding); the record before it is the blx's: the
#    instruction that could not be fetched has none.
#  - capture -> ims/aes -> replay --verify --oracle exact, the regenerated
#    itrace equal to the oracle record for record.
#  - m7fault_nohandler.elf: exit 3 naming BusFault, PRECISERR and the PC,
#    fault kind 11 with address 5 in the CAT, replayed exactly too; the
#    fault status (CFSR, HFSR, BFAR; CAT version 7, the itrace's STOP)
#    worked out by hand and shown by info, dump and the listing; a CAT or
#    oracle recording another BFAR is a divergence (issue 35).
#  - tampering: the AES's CPUID read changed, so the firmware's load goes to
#    RAM: the replay from IMS + AES alone diverges (exit 1) after the load:
#    the BusFault is not in the schedule, the replayer must see the
#    unmapped access itself.
set -euo pipefail
citcat=$1 edit=$2 prefix=$3 fw=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7fault: $*" >&2; exit 1; }
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }
hex8() { printf '0x%08x' $(($1)); }

. "$(dirname "$0")/m7lib.sh"

# ---- with handlers ----
elf=$fw/m7fault.elf
m7_roundtrip 0 m7fault "$elf"
grep -qx 'm7fault: 0 failures' "$tmp/m7fault.out" || fail "the firmware's own checks: $(cat "$tmp/m7fault.out")"
ld=$(hex8 "$(sym "$elf" m7fault_ld)")
st=$(hex8 "$(sym "$elf" m7fault_st)")
call=$(hex8 "$(sym "$elf" m7fault_call)")
bf=$(hex8 $(($(sym "$elf" BusFault_Handler) | 1)))
hf=$(hex8 $(($(sym "$elf" HardFault_Handler) | 1)))
"$citcat" dump "$tmp/m7fault.itrace" >"$tmp/it"
"$citcat" dump "$tmp/m7fault.cat" >"$tmp/cat" 2>/dev/null
mapfile -t got < <(awk '$2 == "irq" && ($5 == "line=5" || $5 == "line=3")' "$tmp/it")
[ ${#got[@]} -eq 5 ] || fail "expected 5 fault entries in the oracle, found ${#got[@]}"
k=0
for spec in "$ld 5 0x00000014 $bf" "$st 5 0x00000014 $bf" "0x30000100 5 0x00000014 $bf" "$ld 3 0x0000000c $hf" \
	"$st 3 0x0000000c $hf"; do
	set -- $spec
	[[ "${got[$k]}" == *" pc=$1 line=$2 accesses=w4@"* ]] || fail "entry $k: ${got[$k]}"
	[[ "${got[$k]}" == *";r4@$3=$4" ]] || fail "entry $k: the vector read: ${got[$k]}"
	[ "$(grep -o 'w4@' <<<"${got[$k]}" | wc -l)" -eq 8 ] || fail "entry $k: not 8 stacking writes: ${got[$k]}"
	k=$((k + 1))
done
# the IBUSERR frame: r0 = 0x3c, r1 = the target, LR, return address, xPSR
ib=${got[2]}
[[ "$ib" == *"=0x0000003c;w4@"*"=0x30000101;"* ]] || fail "IBUSERR: stacked r0/r1: $ib"
[[ "$ib" == *"=$(hex8 $((call + 3)));w4@"*"=0x30000100;w4@"*"=0x01000000;r4@"* ]] ||
	fail "IBUSERR: stacked LR, return address, xPSR: $ib"
[ "$(awk '$2 == "irq" && $4 == "pc=0x30000100" { print prev } { prev = $0 }' "$tmp/it" | awk '{ print $4 }')" = "pc=$call" ] ||
	fail "IBUSERR: the record before the entry is not the blx at $call"
# the record before each entry is the faulting instruction's, with no access
awk -v ld="pc=$ld" -v st="pc=$st" '$2 == "irq" && ($5 == "line=5" || $5 == "line=3") { print prev } { prev = $0 }' "$tmp/it" >"$tmp/before"
[ "$(grep -c "insn .*\($ld\|$st\)" "$tmp/before")" -eq 4 ] || fail "the faulting instructions before the entries: $(cat "$tmp/before")"
! grep -q 'accesses=' "$tmp/before" || fail "a faulting instruction lists an access: $(cat "$tmp/before")"
! grep -q '^[0-9]* exc line=\(5\|3\) ' "$tmp/cat" || fail "CAT: a BusFault recorded as EXC"

# ---- no handler ----
elf=$fw/m7fault_nohandler.elf
ldn=$(hex8 "$(sym "$elf" m7fault_ld)")
m7_roundtrip 3 m7fault_nohandler "$elf"
grep -q "BusFault PRECISERR at pc $ldn, no handler" "$tmp/m7fault_nohandler.err" ||
	fail "no handler: message $(cat "$tmp/m7fault_nohandler.err")"
grep -qx 'before the fault' "$tmp/m7fault_nohandler.out" && ! grep -q 'after the fault' "$tmp/m7fault_nohandler.out" ||
	fail "no handler: output"
"$citcat" info --json "$tmp/m7fault_nohandler.cat" | grep -q "\"fault_pc\": $((ldn)), \"fault_addr\": 5" ||
	fail "no handler: STOP in the CAT"
# the fault status in the CAT (version 7) and the itrace, worked out by
# hand: the load from 0x30000004 with BusFault enabled (no escalation):
# CFSR = PRECISERR (bit 9) | BFARVALID (bit 15) = 0x8200, HFSR 0, BFAR
# 0x30000004, no MMFAR
"$citcat" info --json "$tmp/m7fault_nohandler.cat" |
	grep -q '"m7_fault": {"exception": 5, "cfsr": 33280, "hfsr": 0, "mmfar": null, "bfar": 805306372, "text": "BusFault PRECISERR, BFAR 0x30000004"}' ||
	fail "no handler: fault status in the CAT: $("$citcat" info --json "$tmp/m7fault_nohandler.cat")"
"$citcat" info "$tmp/m7fault_nohandler.cat" | grep -q "fault      .* at $ldn main+0x[0-9a-f]* (m7fault_nohandler.c:[0-9]*): BusFault PRECISERR, BFAR 0x30000004" ||
	fail "no handler: info's fault line: $("$citcat" info "$tmp/m7fault_nohandler.cat" | grep fault)"
"$citcat" dump "$tmp/m7fault_nohandler.cat" | tail -n 1 | grep -q "cfsr=0x00008200 hfsr=0x00000000 bfar=0x30000004" ||
	fail "no handler: dump of the CAT's STOP: $("$citcat" dump "$tmp/m7fault_nohandler.cat" | tail -n 1)"
"$citcat" dump "$tmp/m7fault_nohandler.itrace" | tail -n 1 | grep -q "fault11@0x00000005;cfsr=0x00008200;hfsr=0x00000000;bfar=0x30000004" ||
	fail "no handler: the oracle's STOP: $("$citcat" dump "$tmp/m7fault_nohandler.itrace" | tail -n 1)"
"$citcat" convert "$tmp/m7fault_nohandler.itrace" -o - --to text --elf "$elf" | tail -n 1 |
	grep -q "fault at $ldn main+0x[0-9a-f]* (m7fault_nohandler.c:[0-9]*): exception that cannot be taken (Cortex-M7): BusFault PRECISERR, BFAR 0x30000004" ||
	fail "no handler: the listing's last line: $("$citcat" convert "$tmp/m7fault_nohandler.itrace" -o - --to text | tail -n 1)"
"$citcat" info --elf "$elf" "$tmp/m7fault_nohandler.itrace" | grep -q "ended by .* at $ldn main+0x[0-9a-f]* (m7fault_nohandler.c:[0-9]*): BusFault PRECISERR" ||
	fail "no handler: info --elf of the itrace: $("$citcat" info --elf "$elf" "$tmp/m7fault_nohandler.itrace")"
# a CAT or oracle whose status differs from the replay's exception model's
"$edit" catstat "$tmp/m7fault_nohandler.cat" "$tmp/s.cat" 0 4 || fail "catstat edit"
rc=0
"$citcat" replay "$tmp/m7fault_nohandler.ims" "$tmp/m7fault_nohandler.aes" --verify "$tmp/s.cat" >"$tmp/o" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q "BFAR 0x30000008" "$tmp/o" && grep -q "fault status" "$tmp/o" ||
	fail "a CAT with another BFAR: exit $rc: $(cat "$tmp/o")"
"$edit" itstat "$tmp/m7fault_nohandler.itrace" "$tmp/s.itrace" 0 4 || fail "itstat edit"
rc=0
"$citcat" replay "$tmp/m7fault_nohandler.ims" "$tmp/m7fault_nohandler.aes" --oracle "$tmp/s.itrace" >"$tmp/o" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q "BFAR 0x30000008" "$tmp/o" || fail "an oracle with another BFAR: exit $rc: $(cat "$tmp/o")"

# ---- tampering: the load made a RAM access through the AES ----
# Only the IMS and the AES (no --verify, no --oracle, which would catch the
# edited value at the read itself): the replayer makes its own access, to
# RAM now, takes no BusFault and diverges after the load, not before.
"$edit" input "$tmp/m7fault.aes" "$tmp/t.aes" 0xE000ED00 1 || fail "no CPUID read in the AES"
first=$(awk -v pc="pc=$ld" '$2 == "insn" && $4 == pc { sub("insn=", "", $3); print $3; exit }' "$tmp/it")
[ -n "$first" ] || fail "the load is not in the oracle"
rc=0
"$citcat" replay "$tmp/m7fault.ims" "$tmp/t.aes" -o "$tmp/o.itrace" >"$tmp/o" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q 'DIVERGED' "$tmp/o" || fail "tampered CPUID: exit $rc: $(cat "$tmp/o")"
at=$(grep -o 'failed at instruction #[0-9]*' "$tmp/o" | head -n 1 | tr -dc 0-9)
[ -n "$at" ] && [ "$at" -gt "$first" ] || fail "tampered CPUID: diverged at #$at, not after the load (#$first): $(head -n 3 "$tmp/o")"
[ ! -e "$tmp/o.itrace" ] || fail "tampered: output left behind"
echo "m7fault: BusFault vectored, escalated and stopped as worked out; replayed exactly; tampering diverges"
