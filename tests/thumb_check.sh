#!/bin/bash
# thumb_check.sh CITCAT NM ELF OUTDIR: the hand-written Thumb tests
# (tests/firmware/thumb_asm.S, thumb_main.c) captured with the oracle and
# replayed exactly (capture -> ims/aes -> replay --verify --oracle, the
# written trace equal to the oracle), then in the oracle's listing:
#  - no interrupt is taken inside an IT block (TARGET.md): the IT
#    instructions' blocks are followed through the listing;
#  - the condition-failed IT instructions are in the trace: each IT block
#    shows all of its instructions in sequence;
#  - interrupts were taken inside the 32-bit stream (thumb_wide_loop), in
#    thumb_it_loop right after an IT block, and in ARM code (arm_mid);
#  - interworking: arm_mid (ARM) runs between Thumb instructions, and
#    thumb_leaf returns with pop {pc}.
set -u
citcat=$1 nm=$2 elf=$3 out=$4
here=$(dirname "$0")
name=thumb_test
bash "$here/example_capture.sh" "$citcat" "$elf" "$out" $name || exit 1
bash "$here/replay_example.sh" "$citcat" "$out" $name || exit 1
"$citcat" convert "$out/$name.itrace" -o "$out/$name.txt" --to text || { echo "FAIL: listing"; exit 1; }
sym() { local h; h=$("$nm" "$elf" | awk -v s="$1" '$3 == s { print $1 }'); [ -n "$h" ] && echo $((16#$h)); }
size_of() { local h; h=$("$nm" -S "$elf" | awk -v s="$1" '$4 == s { print $2 }'); [ -n "$h" ] && echo $((16#$h)); }
wide=$(sym thumb_wide_loop) wide_n=$(size_of thumb_wide_loop)
itl=$(sym thumb_it_loop) itl_n=$(size_of thumb_it_loop)
mid=$(sym arm_mid) mid_n=$(size_of arm_mid)
[ -n "$wide" ] && [ -n "$itl" ] && [ -n "$mid" ] || { echo "FAIL: symbols not found"; exit 1; }
awk -v wide="$wide" -v wide_n="$wide_n" -v itl="$itl" -v itl_n="$itl_n" -v mid="$mid" -v mid_n="$mid_n" '
function hex(s,    i, v) { sub(/^0x/, "", s); v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
$1 == "--" && $2 == "interrupt" {
    irqs++
    if (it_left) { print "FAIL: interrupt inside an IT block: " $0; bad = 1 }
    epc = hex($6)
    if (epc >= wide && epc < wide + wide_n) in_wide++
    if (epc >= itl && epc < itl + itl_n) { in_itl++; if (last_was_it_end) after_it++ }
    if (epc >= mid && epc < mid + mid_n) in_mid++
    next
}
$1 ~ /^[0-9]+$/ {
    pc = hex($2); mn = $4
    if (it_left) {
        if (pc != it_next) { print "FAIL: IT block not in sequence at " $2; bad = 1 }
        it_left--
        it_insns++
        last_was_it_end = it_left == 0
    } else {
        last_was_it_end = 0
    }
    if (mn ~ /^it[et]*$/) { it_left = length(mn) - 1; blocks++ }
    # the next PC inside a block: this one plus its size (2 for a 4-hex word)
    it_next = pc + (length($3) == 4 ? 2 : 4)
}
END {
    printf "%d interrupts (%d in the 32-bit stream, %d in thumb_it_loop of which %d right after an IT block, %d in ARM arm_mid); %d IT blocks, %d instructions in them\n", irqs, in_wide, in_itl, after_it, in_mid, blocks, it_insns
    if (!in_wide || !after_it || !in_mid || !blocks) { print "FAIL: an interrupt case was not covered"; bad = 1 }
    exit bad
}' "$out/$name.txt" || exit 1
grep -q "thumb_leaf\|pop *{r7, pc}" "$out/$name.txt" || { echo "FAIL: no pop {pc} return in the trace"; exit 1; }
# (The WET of this run is checked by wet_thumb_test, tests/wet_example.sh.)
echo "thumb_test: exact, IT blocks and interrupts as specified"
