#!/bin/bash
# m7imp.sh CITCAT TOOL_PREFIX M7_FW_DIR
#
# Imprecise BusFaults on the Cortex-M7 (capture/TARGET-M7.md, Faults).
# tests/firmware/m7imp.c checks CFSR = 0x400, HFSR, the stacked return
# address and that the write is lost itself; here, worked out by hand:
#  - the dropped writes are no bus event: the CAT has no UWRITE to
#    0x40000008 (SYSCTL ID), and the oracle no access to it;
#  - each fault is an EXC event (asynchronous, taken at a boundary): one
#    EXC 5 (BusFault), then one EXC 3 (HardFault, BusFault disabled), and
#    no other EXC event;
#  - capture -> ims/aes -> replay --verify --oracle exact, the LVT (--lvt,
#    replay --lvt) exact, and the DAF (tests/daf_m7.sh --fix: the store's
#    record is corrected by the entry at the next boundary) rebuilds the din.
#  - m7imp_masked (BusFault masked by BASEPRI at the store): one EXC 5 at
#    m7imp_unmasked (the boundary after the msr that unmasks it), exact
#    replay (AES, LVT); --daf fails (exit 2, no file) naming the str, which
#    no entry follows to correct it.
set -euo pipefail
citcat=$1 prefix=$2 fw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "m7imp: $*" >&2; exit 1; }
. "$(dirname "$0")/m7lib.sh"

run() { # NAME: capture, replay (AES, LVT) exactly; $tmp/$n.cat and $tmp/it left
n=$1 elf=$fw/$1.elf
m7_exact m7imp $n "$elf" --ram 32M
"$citcat" dump "$tmp/$n.itrace" >"$tmp/it"
"$citcat" dump "$tmp/$n.cat" >"$tmp/cat" 2>/dev/null
m7_lvt_exact $n "$elf" --ram 32M
}
sym() { printf '0x%08x' $(($("${prefix}nm" "$elf" | awk -v s="$1" '$3 == s { print "0x" $1; exit }'))); }

run m7imp
# the str before m7imp_after (str r0, [r1], 16 bits) has no access; no
# uncached write of SYSCTL ID anywhere
st=$(printf '0x%08x' $(($(sym m7imp_after) - 2)))
[ "$(grep -c " pc=$st " "$tmp/it")" -eq 2 ] || fail "oracle: not two records of the str at $st"
if grep " pc=$st " "$tmp/it" | grep -q '@'; then fail "oracle: the str at $st has an access"; fi
if grep -q 'w4u@0x40000008' "$tmp/it"; then fail "oracle: a write access to SYSCTL ID"; fi
if grep -q 'uncached_write addr=0x40000008' "$tmp/cat"; then fail "CAT: an uncached write to SYSCTL ID"; fi
[ "$(grep -c '^[0-9]* exc line=5 ' "$tmp/cat")" -eq 1 ] || fail "CAT: not one EXC 5 (BusFault)"
[ "$(grep -c '^[0-9]* exc line=3 ' "$tmp/cat")" -eq 1 ] || fail "CAT: not one EXC 3 (HardFault)"
[ "$(grep -c '^[0-9]* exc ' "$tmp/cat")" -eq 2 ] || fail "CAT: EXC events other than 5 and 3"
[ "$(grep -c "^[0-9]* exc .* pc=$(sym m7imp_after)\( \|\$\)" "$tmp/cat")" -eq 2 ] || fail "CAT: the EXC events are not at m7imp_after"
bash "$(dirname "$0")/daf_m7.sh" "$citcat" "$elf" --fix --ram 32M >"$tmp/daf" 2>&1 || fail "DAF: $(cat "$tmp/daf")"

run m7imp_masked
[ "$(grep -c '^[0-9]* exc ' "$tmp/cat")" -eq 1 ] || fail "masked: not one EXC event"
grep -q "^[0-9]* exc line=5 .* pc=$(sym m7imp_unmasked)\( \|\$\)" "$tmp/cat" || fail "masked: the EXC 5 is not at m7imp_unmasked"
st=$(printf '%08x' $(($(sym m7imp_after) - 2)))
rc=0
"$citcat" capture "$elf" --ram 32M -o "$tmp/d.cat" --daf "$tmp/d.daf" --seed 1 -q >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "masked: capture --daf exited $rc, not 2"
grep -q "instruction at 0x$st .*made no data access" "$tmp/err" || fail "masked: --daf error: $(cat "$tmp/err")"
[ ! -e "$tmp/d.daf" ] || fail "masked: --daf left a file"
echo "m7imp: IMPRECISERR to BusFault and to HardFault, the writes dropped; replayed exactly (AES, LVT, DAF)"
