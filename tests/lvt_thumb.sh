#!/usr/bin/env bash
# The LVT on hand-written Thumb-2 code (tests/firmware/lvt_thumb.S): capture
# with --lvt and the oracle, check the firmware's self-check, decode with the
# firmware alone and compare the regenerated itrace with the oracle byte for
# byte, with byte and with word FA granules.  Then checks in the oracle's
# listing that the case holds what it is for: IT blocks with a
# condition-failed load (retired, no access), PC-relative literal loads at
# word and at halfword addresses (address = Align(PC, 4) + imm, PC = the
# instruction's address + 4), LDRD, and interrupts taken in Thumb code.
# The same run records the DAF (T32 rules, formats/DAF.md): SDC-LSP + DAF
# and the itrace's flow + DAF must rebuild the itrace's din byte for byte.
# Each MORE_ELF (the interworking and IT-block tests of thumb_asm.S) gets
# the same LVT and DAF round trips, without the listing checks.
# Usage: lvt_thumb.sh CITCAT ELF OUTDIR [MORE_ELF...]
set -u
citcat=$1 elf=$2 out=$3
shift 3
name=lvt_thumb
here=$(dirname "$0")
run=$out/$name
mkdir -p "$out"
rm -f "$run.lvt" "$run.w.lvt" "$run.w.itrace" "$run.w.oracle" "$run.lvt.itrace" "$run.txt"
# LVT_AND_DAF RUN ELF: decode RUN.lvt and rebuild RUN.itrace's din from RUN.daf
lvt_and_daf() {
  local run=$1 elf=$2
  rm -f "$run.lvt.itrace" "$run.din" "$run.it.din" "$run.sdc" "$run.flow.din"
  "$citcat" replay --lvt "$run.lvt" --image "$elf" -o "$run.lvt.itrace" --oracle "$run.itrace" ||
    { echo "FAIL: replay --lvt exited $?"; exit 1; }
  cmp -s "$run.lvt.itrace" "$run.itrace" || { echo "FAIL: the decoded trace differs from the oracle"; exit 1; }
  "$citcat" convert "$run.itrace" -o "$run.din" --uncached || { echo "FAIL: itrace -> din"; exit 1; }
  "$citcat" convert "$run.itrace" --daf "$run.daf" -o "$run.it.din" --uncached || { echo "FAIL: itrace flow + DAF -> din"; exit 1; }
  cmp -s "$run.din" "$run.it.din" || { echo "FAIL: itrace flow + DAF does not rebuild the din"; exit 1; }
  "$citcat" convert "$run.itrace" -o "$run.sdc" --to sdclsp:r:32x4,128 || { echo "FAIL: itrace -> sdc"; exit 1; }
  "$citcat" convert "$run.sdc" --daf "$run.daf" --image "$elf" -o "$run.flow.din" --uncached || { echo "FAIL: sdc + DAF -> din"; exit 1; }
  cmp -s "$run.din" "$run.flow.din" || { echo "FAIL: SDC-LSP + DAF does not rebuild the din"; exit 1; }
  rm -f "$run.lvt.itrace" "$run.it.din" "$run.sdc" "$run.flow.din"
}
bash "$here/example_capture.sh" "$citcat" "$elf" "$out" $name --lvt "$run.lvt" --daf "$run.daf" || exit 1
lvt_and_daf "$run" "$elf"
"$citcat" capture "$elf" --lvt "$run.w.lvt" --oracle "$run.w.oracle" --lvt-gran word --dcache 4K:4:32:plru --seed 1 \
  --uart-out /dev/null -q || { echo "FAIL: capture --lvt-gran word exited $?"; exit 1; }
"$citcat" replay --lvt "$run.w.lvt" --image "$elf" -o "$run.w.itrace" --oracle "$run.w.oracle" ||
  { echo "FAIL: replay --lvt (word granules) exited $?"; exit 1; }
cmp -s "$run.w.itrace" "$run.w.oracle" || { echo "FAIL: the decoded trace (word granules) differs from its oracle"; exit 1; }
"$citcat" info --json "$run.lvt"
# what the trace holds: the listing (one line per instruction, accesses on
# the following lines) of the oracle the decoder matched
"$citcat" convert "$run.itrace" -o "$run.txt" --to text || { echo "FAIL: listing"; exit 1; }
awk '
function hex(s,    i, v, neg) { s = tolower(s); neg = sub(/^-/, "", s); sub(/^#/, "", s); sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return neg ? -v : v }
$1 == "--" && $2 == "interrupt" { irqs++; next }
$1 ~ /^[0-9]+$/ {
    pc = hex($2); mn = $4; nacc = 0; addr = -1
    for (i = 5; i <= NF; i++) if ($i ~ /^[RW][0-9]$/) { nacc++; if (nacc == 1) addr = hex($(i + 1)) }
    if (mn ~ /^ldr(eq|ne)/) { if (nacc) passed++; else failed++ }
    if (mn ~ /^ldrd/ && nacc == 2) ldrd++
    if ($0 ~ /\[pc, #/ && mn ~ /^ldr/) {
        s = $0; sub(/.*\[pc, #/, "", s); sub(/\].*/, "", s); off = hex(s)
        if (nacc) {
            if (pc % 4) half++; else word++
            if (off < 0) back++
            want = int((pc + 4) / 4) * 4 + off
            if (addr != want) { printf "FAIL: literal load at 0x%08x read 0x%08x, want 0x%08x\n", pc, addr, want; bad = 1 }
        }
    }
}
END {
    printf "%d interrupts; conditional loads: %d passed, %d condition-failed (no access); literal loads at word %d and halfword %d addresses (%d backwards); %d LDRD\n", irqs, passed, failed, word, half, back, ldrd
    if (!irqs || !failed || !passed || !word || !half || !back || !ldrd) { print "FAIL: a case was not covered"; bad = 1 }
    exit bad
}' "$run.txt" || exit 1
rm -f "$run.w.lvt" "$run.w.itrace" "$run.w.oracle" "$run.lvt.itrace"
echo "$name: LVT round trips exact on Thumb code (byte and word granules), DAF rebuilds the din"
for more in "$@"; do
  m=$(basename "$more" .elf)
  "$citcat" capture "$more" -o "$out/lt_$m.cat" --oracle "$out/lt_$m.itrace" --lvt "$out/lt_$m.lvt" --daf "$out/lt_$m.daf" \
    --seed 1 --uart-out /dev/null -q || { echo "FAIL: capture $m exited $?"; exit 1; }
  lvt_and_daf "$out/lt_$m" "$more"
  echo "$m: LVT round trip exact, DAF rebuilds the din"
done
