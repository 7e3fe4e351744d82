#!/bin/bash
# m7dev.sh CITCAT TOOL_PREFIX M7_FW_DIR
#
# Device and SCS bus errors on the Cortex-M7 (capture/TARGET-M7.md,
# "BusFault (device and SCS bus errors)").  tests/firmware/m7dev.c checks
# CFSR, BFAR, HFSR, the stacked frame and the registers after each faulting
# instruction itself; here the CAT and the oracle, worked out by hand:
#  - each precise fault (m7dev_ldr, _post, _byte, _ldm, _pc, _sp, _scsr,
#    _scsw) is a record of the instruction followed at once by the entry
#    record of BusFault (line 5) with return address = the instruction; the
#    disabled case (the second m7dev_ldr) by HardFault (line 3);
#  - the failed access is no oracle access and no bus event: the records of
#    those instructions have no access, except the ldm's, whose first word
#    (CLOCK_HZ at 0x4000000c, read) is its only access and is the stacked
#    r2; no UREAD of 0x40000000, 0x40000010, 0xe000ed40 or a 1-byte one of
#    0x40000008, no UWRITE of 0xe000ed08 or a 1-byte one of 0x40000004;
#  - precise faults have no EXC event (the replayer decides them from the
#    static device table and the SCS map); the imprecise strb has exactly
#    one, EXC 5 at m7dev_strb + 2 (the boundary after it);
#  - capture -> ims/aes -> replay --verify --oracle exact, and the LVT
#    (--lvt, replay --lvt) exact (the DAF: CTest daf_m7dev);
#  - without handlers (m7dev_nohandler) the first ldr stops the capture as
#    an exception that cannot be taken, and the run replays exactly.
set -euo pipefail
citcat=$1 prefix=$2 fw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7dev: $*" >&2; exit 1; }
. "$(dirname "$0")/m7lib.sh"
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }
hex8() { printf '0x%08x' $(($1)); }

n=m7dev elf=$fw/m7dev.elf
m7_exact m7dev $n "$elf"

"$citcat" dump "$tmp/$n.itrace" >"$tmp/it"
"$citcat" dump "$tmp/$n.cat" >"$tmp/cat" 2>/dev/null
# after LABEL: the lines "record-before entry" for each entry at pc=LABEL
entries() { awk -v p="pc=$1" '$2 == "irq" && $4 == p { print prev " | " $5 } { prev = $0 }' "$tmp/it"; }
for l in ldr post byte ldm pc sp scsr scsw; do
	a=$(hex8 "$(sym "$elf" m7dev_$l)")
	mapfile -t got < <(entries "$a")
	want=1 lines="line=5"
	[ $l = ldr ] && want=2 lines="line=5 line=3"
	[ ${#got[@]} -eq $want ] || fail "$l: $want entries returning to $a expected, found ${#got[@]}: ${got[*]}"
	k=0
	for line in $lines; do
		g=${got[$k]}
		k=$((k + 1))
		[[ "$g" == *" insn "*"pc=$a "*" | $line" ]] || fail "$l: the faulting record and its entry: $g"
		if [ $l = ldm ]; then
			[[ "$g" == *" accesses=r4u@0x4000000c=0x"*" | "* ]] || fail "ldm: its access: $g"
		else
			[[ "${g%% | *}" != *accesses=* ]] || fail "$l: the failed access is in the record: $g"
		fi
	done
done
hz=$(awk -v p="pc=$(hex8 "$(sym "$elf" m7dev_ldm)")" '$2 == "insn" && $4 == p { sub(/.*=/, "", $NF); print $NF }' "$tmp/it")
grep -q " irq .*pc=$(hex8 "$(sym "$elf" m7dev_ldm)") line=5 accesses=w4@0x[0-9a-f]*=0x0000005a;w4@0x[0-9a-f]*=0x4000000c;w4@0x[0-9a-f]*=$hz;w4@0x[0-9a-f]*=0x00000033;" "$tmp/it" ||
	fail "ldm: the stacked r1, r2 (CLOCK_HZ $hz, loaded) and r3 (unchanged)"
for ev in 'uncached_read addr=0x40000000 ' 'uncached_read addr=0x40000010 ' 'uncached_read addr=0xe000ed40 ' \
	'uncached_read addr=0x40000008 size=1 ' 'uncached_write addr=0xe000ed08 size=2 ' \
	'uncached_write addr=0x40000004 size=1 '; do
	! grep -q "$ev" "$tmp/cat" || fail "CAT: a failed access is a bus event: $ev"
done
strb=$(hex8 $(($(sym "$elf" m7dev_strb) + 2)))
[ "$(grep -c '^[0-9]* exc ' "$tmp/cat")" -eq 1 ] && grep -q "^[0-9]* exc line=5 .*pc=$strb\( \|$\)" "$tmp/cat" ||
	fail "CAT: not exactly one EXC event, 5 at $strb: $(grep '^[0-9]* exc ' "$tmp/cat" | tr '\n' ' ')"

m7_lvt_exact $n "$elf"
# no handler (m7dev_nohandler.elf): the first ldr stops the capture, exit 3,
# STOP fault kind 11 at m7dev_ldr with address 5 (BusFault), and the run up
# to there replays exactly
elf=$fw/m7dev_nohandler.elf
ldr=$(hex8 "$(sym "$elf" m7dev_ldr)")
m7_roundtrip 3 n "$elf"
grep -q "BusFault PRECISERR at pc $ldr, no handler" "$tmp/n.err" || fail "no handler: the message: $(cat "$tmp/n.err")"
# then the fault status (CAT.md version 7), as the firmware's header works it
# out for the first ldr: PRECISERR | BFARVALID, BusFault enabled (no
# escalation), BFAR the write-only SYSCTL EXIT register read
"$citcat" dump "$tmp/n.itrace" | tail -n 1 |
	grep -q " stop .*pc=$ldr line=3 accesses=fault11@0x00000005;cfsr=0x00008200;hfsr=0x00000000;bfar=0x40000000$" ||
	fail "no handler: the oracle's STOP: $("$citcat" dump "$tmp/n.itrace" | tail -n 1)"
echo "m7dev: 8 precise device and SCS bus errors, 1 escalated, 1 imprecise write, as worked out; replayed exactly (AES, LVT); no handler: stop"
