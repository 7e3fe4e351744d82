#!/bin/bash
# m7stk.sh CITCAT TOOL_PREFIX M7_FW_DIR
#
# Stacking, unstacking and vector-read bus errors on the Cortex-M7
# (capture/TARGET-M7.md, Faults).  tests/firmware/m7stk.c checks CFSR, HFSR,
# the stacked return addresses and PSP itself; here the oracle's entry
# records and the CAT against values worked out by hand:
#  - STKERR: the SVCall entry (line 11, return address m7stk_svc + 2) has
#    no stacking write (all eight at 0x2FFFFFE0.. failed) and one access,
#    its vector read r4@0x0000002c = SVC_Handler; then the derived BusFault
#    (line 5, return address SVC_Handler, eight stacking writes on MSP,
#    vector read at 0x14), recorded in the CAT as an EXC event 5 (taken at
#    a boundary, the handler's first instruction).
#  - UNSTKERR: the record before the next BusFault entry is the bx lr at
#    m7stk_ret with no access (its first unstacking read failed); the entry's
#    return address is m7stk_ret; no EXC event for it (synchronous).
#  - in part (PSP = 0x02000010, RAM ends at 0x02000000): the second SVCall
#    entry has exactly four stacking writes, r0..r3 at 0x01fffff0..0x01fffffc
#    (0x02000010, CONTROL 0x2, 0x22, 0x33), then its vector read; BusFault
#    STKERR follows as above (a second EXC 5).  The bx lr before the next
#    BusFault entry reads those four words back and fails at the fifth.
#  - VECTTBL: EXC 32 (IRQ 16) in the CAT, its entry record is line 3
#    (HardFault): eight stacking writes, then the HardFault vector read at
#    VTOR + 12 = 0x01ffff8c (the failed read of 0x02000000 is no access).
#  - capture -> ims/aes -> replay --verify --oracle exact, and the LVT
#    (--lvt, replay --lvt) exact too.
set -euo pipefail
citcat=$1 prefix=$2 fw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7stk: $*" >&2; exit 1; }
. "$(dirname "$0")/m7lib.sh"
sym() { "${prefix}nm" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }
hex8() { printf '0x%08x' $(($1)); }

n=m7stk elf=$fw/m7stk.elf
m7_exact m7stk $n "$elf" --ram 32M

svc=$(hex8 $(($(sym "$elf" m7stk_svc) + 2)))
ret=$(hex8 "$(sym "$elf" m7stk_ret)")
svch=$(($(sym "$elf" SVC_Handler)))
svca=$(hex8 $((svch & ~1))) svcv=$(hex8 $((svch | 1)))
bf=$(hex8 $(($(sym "$elf" BusFault_Handler) | 1)))
hf=$(hex8 $(($(sym "$elf" HardFault_Handler) | 1)))
"$citcat" dump "$tmp/$n.itrace" >"$tmp/it"
"$citcat" dump "$tmp/$n.cat" >"$tmp/cat" 2>/dev/null
mapfile -t got < <(awk '$2 == "irq"' "$tmp/it")
[ ${#got[@]} -eq 7 ] || fail "expected 7 entries in the oracle, found ${#got[@]}: ${got[*]}"
[[ "${got[0]}" == *" pc=$svc line=11 accesses=r4@0x0000002c=$svcv" ]] || fail "STKERR: the SVCall entry: ${got[0]}"
[[ "${got[1]}" == *" pc=$svca line=5 accesses=w4@"*";r4@0x00000014=$bf" ]] || fail "STKERR: the BusFault entry: ${got[1]}"
[[ "${got[2]}" == *" pc=$ret line=5 accesses=w4@"*";r4@0x00000014=$bf" ]] || fail "UNSTKERR: the BusFault entry: ${got[2]}"
part="w4@0x01fffff0=0x02000010;w4@0x01fffff4=0x00000002;w4@0x01fffff8=0x00000022;w4@0x01fffffc=0x00000033"
[[ "${got[3]}" == *" pc=$svc line=11 accesses=$part;r4@0x0000002c=$svcv" ]] || fail "part: the SVCall entry: ${got[3]}"
[[ "${got[4]}" == *" pc=$svca line=5 accesses=w4@"*";r4@0x00000014=$bf" ]] || fail "part: the STKERR BusFault entry: ${got[4]}"
[[ "${got[5]}" == *" pc=$ret line=5 accesses=w4@"*";r4@0x00000014=$bf" ]] || fail "part: the UNSTKERR BusFault entry: ${got[5]}"
[[ "${got[6]}" == *" line=3 accesses=w4@"*";r4@0x01ffff8c=$hf" ]] || fail "VECTTBL: the HardFault entry: ${got[6]}"
for k in 1 2 4 5 6; do
	[ "$(grep -o 'w4@' <<<"${got[$k]}" | wc -l)" -eq 8 ] || fail "entry $k: not 8 stacking writes: ${got[$k]}"
done
# the stacked xPSR of the derived BusFault: T and IPSR 11 (the flags and
# bit 9, the padding, as they happen to be)
x=$(grep -o '=0x[0-9a-f]*;r4@' <<<"${got[1]}" | tr -d '=;r4@')
[ $((x & 0x010001ff)) -eq $((0x0100000b)) ] || fail "STKERR: stacked xPSR $x: ${got[1]}"
mapfile -t before < <(awk -v p="pc=$ret" '$2 == "irq" && $4 == p { print prev } { prev = $0 }' "$tmp/it")
[ ${#before[@]} -eq 2 ] || fail "UNSTKERR: not two entries returning to m7stk_ret: ${before[*]}"
[[ "${before[0]}" == *" insn "*"pc=$ret"* && "${before[0]}" != *accesses=* ]] || fail "UNSTKERR: the record before: ${before[0]}"
[[ "${before[1]}" == *" insn "*"pc=$ret "*" accesses=${part//w4@/r4@}" ]] || fail "part: the bx lr's unstacking reads: ${before[1]}"
[ "$(grep -c '^[0-9]* exc line=5 ' "$tmp/cat")" -eq 2 ] || fail "CAT: not two EXC 5 (the derived BusFaults)"
[ "$(grep -c '^[0-9]* exc line=32 ' "$tmp/cat")" -eq 1 ] || fail "CAT: not one EXC 32 (IRQ 16)"
[ "$(grep -c '^[0-9]* exc ' "$tmp/cat")" -eq 3 ] || fail "CAT: EXC events other than 5 and 32"
# the LVT (formats/LVT.md): the failed accesses make no record; the decoder
# drives the same model and regenerates the same itrace
m7_lvt_exact $n "$elf" --ram 32M
# checkpoints (TARGET-M7.md, "Checkpoints"): every 1000 instructions, so
# one falls due in each 2000-instruction spin before m7stk_svc, in thread
# mode on PSP = 0x30000000 and 0x02000010, where the NMI's frame would not
# be in RAM (its stacking would fail at priority -2: a lockup).  It waits:
# through the svc, to the first boundary with a frame in RAM, SVC_Handler's
# first instruction (before the derived BusFault, pending there: the
# checkpoint goes first).  So exactly two NMIs at SVC_Handler, none between
# m7stk_run and m7stk_svc, the firmware's checks pass, and the checkpointed
# CAT replays exactly serially and by segments.
rc=0
"$citcat" capture "$elf" --ram 32M --checkpoint-every 1000 -o "$tmp/c.cat" --oracle "$tmp/c.itrace" --seed 1 -q \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 0 ] || fail "checkpointed capture exited $rc: $(cat "$tmp/err") $(cat "$tmp/out")"
grep -qx 'm7stk: 0 failures' "$tmp/out" || fail "checkpoints: the firmware's own checks: $(cat "$tmp/out")"
"$citcat" dump "$tmp/c.cat" 2>/dev/null | awk '$2 == "exc" && $3 == "line=2" { sub("pc=", "", $5); print $5 }' >"$tmp/nmi"
[ "$(grep -cx "$svca" "$tmp/nmi")" -eq 2 ] || fail "checkpoints: not two NMIs at SVC_Handler: $(tr '\n' ' ' <"$tmp/nmi")"
lo=$(($(sym "$elf" m7stk_run))) hi=$(($(sym "$elf" m7stk_svc)))
while read -r p; do
	[ $((p)) -lt $lo ] || [ $((p)) -gt $hi ] || fail "checkpoints: an NMI at $p, in the thread code on the bad PSP"
done <"$tmp/nmi"
"$citcat" ims "$tmp/c.cat" -o "$tmp/c.ims" 2>"$tmp/err" && "$citcat" aes "$tmp/c.cat" -o "$tmp/c.aes" 2>"$tmp/err" ||
	fail "checkpoints: ims/aes: $(cat "$tmp/err")"
for j in 1 2; do
	"$citcat" replay "$tmp/c.ims" "$tmp/c.aes" --jobs $j -o "$tmp/c$j.re" --verify "$tmp/c.cat" --oracle "$tmp/c.itrace" \
		>"$tmp/rep" 2>&1 || fail "checkpoints: replay --jobs $j: $(cat "$tmp/rep")"
	grep -q 'equals the oracle' "$tmp/rep" || fail "checkpoints: replay --jobs $j not compared: $(cat "$tmp/rep")"
	cmp -s "$tmp/c$j.re" "$tmp/c.itrace" || fail "checkpoints: the --jobs $j itrace differs from the oracle"
done
echo "m7stk: STKERR, UNSTKERR (whole and in part) and VECTTBL vectored as worked out; replayed exactly;" \
	"checkpoints wait while the thread stack is outside RAM"
