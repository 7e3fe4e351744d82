#!/bin/bash
# m7it.sh CITCAT TOOL_PREFIX M7_FW_DIR
#
# BusFaults inside IT blocks on the Cortex-M7 (a data access, a fetch) (capture/
# TARGET-M7.md, "IT blocks and bus errors").  tests/firmware/m7it.c checks
# CFSR, BFAR, the stacked return address and IT bits and the registers
# after the block itself; here the oracle and the CAT, worked out by hand:
#  - (a) the ldreq at m7it_a has a record with no access, then BusFault's
#    entry record (line 5, return address m7it_a) whose stacked xPSR (the
#    eighth write) has IT bits 0x04000800 (ITSTATE 0x0a); after the return
#    the condition-failed movne at m7it_a + 2 still has its record (retired
#    though Unicorn runs no code hook for it), then the moveq at + 4;
#  - (b) the entry at m7it_b stacks IT bits 0x00000c00 (ITSTATE 0x0c), and
#    the ldreq's second record (run again after the return) reads
#    0x12345678, followed by the failed movne's record;
#  - (c) the IBUSERR at 0x01000000 inside ittt ne at 0x00fffffa: the it's
#    record, then records of both condition-failed movne (0x00fffffc word
#    0x2101, 0x00fffffe word 0x2202, retired at the fault though Unicorn
#    runs no code hook for them), then BusFault's entry record (return
#    address 0x01000000) whose stacked xPSR is 0x61001800 (Z and C of
#    cmp r0, r0, T, ITSTATE 0x18);
#  - no EXC event in the CAT (all are synchronous);
#  - capture -> ims/aes -> replay --verify --oracle exact, and the LVT
#    (--lvt, replay --lvt) exact (the DAF: CTest daf_m7it).
set -euo pipefail
citcat=$1 prefix=$2 fw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7it: $*" >&2; exit 1; }
. "$(dirname "$0")/m7lib.sh"
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }
hex8() { printf '0x%08x' $(($1)); }

n=m7it elf=$fw/m7it.elf
m7_exact m7it $n "$elf"

"$citcat" dump "$tmp/$n.itrace" | cut -d' ' -f2- >"$tmp/it"
a=$(hex8 "$(sym "$elf" m7it_a)") b=$(hex8 "$(sym "$elf" m7it_b)")
a2=$(hex8 $((a + 2))) a4=$(hex8 $((a + 4))) b2=$(hex8 $((b + 2)))
# the first record at pc=A and the one after it
mapfile -t got < <(awk -v p="pc=$a" 'k { print; exit } $1 == "insn" && $3 == p { print; k = 1 }' "$tmp/it")
[[ "${got[0]}" != *accesses=* ]] || fail "a: the ldreq's record has an access: ${got[0]}"
[[ "${got[1]}" == "irq "*"pc=$a line=5 accesses="* ]] || fail "a: no BusFault entry after the ldreq: ${got[1]}"
x=$(grep "^irq .*pc=$a line=5 " "$tmp/it" | grep -o '=0x[0-9a-f]*;r4@' | tr -d '=;r4@')
[ $((x & 0x0600fc00)) -eq $((0x04000800)) ] || fail "a: stacked xPSR $x: IT bits not 0x04000800"
grep -q "^insn .*pc=$a2 word=0x2404 " "$tmp/it" || fail "a: no record of the failed movne at $a2"
# the failed movne's record: right after the exception return (the bx lr
# whose unstacked PC is a + 2), right before the moveq's
mapfile -t got < <(awk -v p="pc=$a2" '$1 == "insn" && $3 == p { print prev; getline; print; exit } { prev = $0 }' "$tmp/it")
[[ "${got[0]}" == "insn "*"word=0x4770 "*"=$a2;r4@"* ]] || fail "a: the record before the movne is not the return to it: ${got[0]}"
[[ "${got[1]}" == "insn "*"pc=$a4 "* ]] || fail "a: the moveq does not follow the movne: ${got[1]}"
x=$(grep "^irq .*pc=$b line=5 " "$tmp/it" | grep -o '=0x[0-9a-f]*;r4@' | tr -d '=;r4@')
[ $((x & 0x0600fc00)) -eq $((0x00000c00)) ] || fail "b: stacked xPSR $x: IT bits not 0x00000c00"
[ "$(grep -c "^insn .*pc=$b .*accesses=r4@0x[0-9a-f]*=0x12345678$" "$tmp/it")" -eq 1 ] ||
	fail "b: the ldreq run again does not load 0x12345678"
[ "$(grep -c "^insn .*pc=$b2 word=0x2404 " "$tmp/it")" -eq 1 ] || fail "b: not one record of the failed movne"
mapfile -t got < <(awk '$1 == "insn" && $3 == "pc=0x00fffffa" { print; for (i = 0; i < 3; i++) { getline; print }; exit }' "$tmp/it")
[[ "${got[0]}" == "insn "*"word=0xbf1e "* ]] || fail "c: no record of the ittt ne: ${got[0]}"
[[ "${got[1]}" == "insn "*"pc=0x00fffffc word=0x2101 "* ]] || fail "c: no record of the first failed movne: ${got[1]}"
[[ "${got[2]}" == "insn "*"pc=0x00fffffe word=0x2202 "* ]] || fail "c: no record of the second failed movne: ${got[2]}"
[[ "${got[3]}" == "irq "*"pc=0x01000000 line=5 accesses="*";w4@0x"*"=0x01000000;w4@0x"*"=0x61001800;r4@"* ]] ||
	fail "c: no IBUSERR entry stacking return address 0x01000000 and xPSR 0x61001800: ${got[3]}"
"$citcat" dump "$tmp/$n.cat" >"$tmp/cat" 2>/dev/null
! grep -q '^[0-9]* exc ' "$tmp/cat" || fail "CAT: an EXC event: $(grep '^[0-9]* exc ' "$tmp/cat" | head -n 1)"

m7_lvt_exact $n "$elf"
echo "m7it: BusFaults inside IT blocks (data and fetch) stack ITSTATE and return, as worked out; replayed exactly (AES, LVT)"
