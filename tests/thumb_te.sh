#!/bin/bash
# thumb_te.sh CITCAT NM ELF OUTDIR NAME MODE [RETAG]: a firmware built with the BSP's
# THUMB_EXCEPTIONS option (SCTLR.TE = 1 from reset: exceptions are entered
# in Thumb state, TARGET.md "IRQ entry") captured with its oracle, extracted
# and replayed exactly (capture -> ims/aes -> replay --verify --oracle, the
# written trace equal to the oracle), and the same with checkpoints (the
# checkpoint's FIQ entry, serially and with --jobs 2).  Then, in the
# oracle's listing, every interrupt entry as the architecture says with
# TE = 1, whatever the state of the interrupted code:
#  - the first instruction of the handler is the Thumb-2 `b.w` at 0x18
#    (0x1C for a checkpoint): CPSR.T = TE = 1;
#  - the handler's push of lr stores LR_irq = EPC + 4 (ARM or Thumb EPC);
#  - its `subs pc, lr, #4` returns to EPC (EPC + 4 after the BSP's `b .`),
#    that is, to the state SPSR_irq kept (checked by the replay being exact
#    against the capture's own trace);
# and which states interrupts came from (ELF mapping symbols $a/$t).
# The IMS says TE = 1 (citcat info --json: "sctlr_te": 1).
# MODE thumb or arm: at least one interrupt came from code in that state.
# MODE switch (tests/firmware/te_switch.c: TE = 0 at P, set and cleared later
# by the firmware): the IMS says TE = 0, exactly 5 entries are the Thumb
# `ldr.w pc` at 0x18 and the others the ARM `b` there; no checkpoints.
# With RETAG (tests/container_retag, which re-seals a header), a tampered
# IMS: TE cleared (a valid value) makes the replay diverge at the driver's
# store of SCTLR to dump slot 39, found by the AES's device output log;
# a reserved SCTLR bit is refused at its file offset, 296 (exit 2, no output).
set -u
citcat=$1 nm=$2 elf=$3 out=$4 name=$5 mode=$6 retag=${7:-}
case $mode in thumb|arm|switch) ;; *) echo "thumb_te.sh: MODE is thumb, arm or switch"; exit 2 ;; esac
here=$(dirname "$0")
export CITCAT_NO_PROGRESS=1
# --max-insns: a model that entered a handler in the wrong state would run
# wild; the limit (several times each program's length) fails it fast
bash "$here/example_capture.sh" "$citcat" "$elf" "$out" "$name" --max-insns 5000000 >/dev/null || { echo "FAIL: capture"; exit 1; }
bash "$here/replay_example.sh" "$citcat" "$out" "$name" || exit 1
# the LVT of the same run (formats/LVT.md: START keeps SCTLR.TE, version 2),
# decoded with the firmware alone, equal to its oracle
"$citcat" capture "$elf" --lvt "$out/$name.lvt" --oracle "$out/$name.lvt.oracle" --max-insns 5000000 --seed 1 \
  --uart-out /dev/null -q >/dev/null || { echo "FAIL: capture --lvt"; exit 1; }
"$citcat" replay --lvt "$out/$name.lvt" --image "$elf" -o "$out/$name.lvt.itrace" --oracle "$out/$name.lvt.oracle" \
  >/dev/null || { echo "FAIL: replay --lvt"; exit 1; }
cmp -s "$out/$name.lvt.itrace" "$out/$name.lvt.oracle" || { echo "FAIL: the LVT's trace differs from its oracle"; exit 1; }
"$citcat" info --json "$out/$name.ims" >"$out/$name.ims.json" || { echo "FAIL: info"; exit 1; }
"$citcat" convert "$out/$name.itrace" -o "$out/$name.txt" --to text || { echo "FAIL: listing"; exit 1; }
if [ "$mode" = switch ]; then
  grep -q '"sctlr_te": 0' "$out/$name.ims.json" || { echo "FAIL: the IMS does not say SCTLR.TE = 0"; cat "$out/$name.ims.json"; exit 1; }
  grep -A1 "interrupt line 0" "$out/$name.txt" | grep "^ *[0-9]* *00000018 " >"$out/$name.vec"
  nt=$(grep -c " ldr\.w *pc, \[pc\]\| ldr\.w *pc, \[pc, #0\]" "$out/$name.vec") na=$(grep -c " b  *#" "$out/$name.vec")
  [ "$nt" -eq 5 ] && [ "$na" -ge 10 ] && [ $((nt + na)) -eq "$(wc -l <"$out/$name.vec")" ] ||
    { echo "FAIL: $nt Thumb and $na ARM entries at 0x18 (expected 5 and at least 10)"; head -20 "$out/$name.vec"; exit 1; }
  echo "$name: TE changed after P: $nt entries in Thumb state, $na in ARM state, replay exact"
  exit 0
fi
grep -q '"sctlr_te": 1' "$out/$name.ims.json" || { echo "FAIL: the IMS does not say SCTLR.TE = 1"; cat "$out/$name.ims.json"; exit 1; }
"$citcat" dump "$out/$name.ims" --from 39 --count 1 | grep -qx '39 reg reg=sctlr value=0x40000000' ||
  { echo "FAIL: dump does not list SCTLR with TE"; "$citcat" dump "$out/$name.ims" --from 39 --count 1; exit 1; }
"$nm" --special-syms -n "$elf" | awk '$3 ~ /^\$[at](\.|$)/ { print $1, substr($3, 2, 1) }' >"$out/$name.map"
awk -v want_arm="$([ "$mode" = arm ] && echo 1 || echo 0)" -v want_thumb="$([ "$mode" = thumb ] && echo 1 || echo 0)" '
function hex(s,    i, v) { sub(/^0x/, "", s); s = tolower(s); v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
function state(a,    i, st) { st = "?"; for (i = 1; i <= nmap; i++) { if (maddr[i] > a) break; st = mstate[i] } return st }
FNR == NR { nmap++; maddr[nmap] = hex($1); mstate[nmap] = $2; next }
$1 == "--" && $2 == "interrupt" {
    line = $4; sub(/,$/, "", line); epc = hex($6); want_vec = line == 15 ? 28 : 24
    irqs++; if (state(epc) == "a") from_arm++; else if (state(epc) == "t") from_thumb++
    entry = 1; next
}
$1 ~ /^[0-9]+$/ {
    pc = hex($2)
    if (entry) {
        if (pc != want_vec || $4 != "b.w") { print "FAIL: entry at " $2 " with " $4 ", expected the Thumb b.w at " want_vec; bad = 1 }
        entry = 0; in_handler = 1; pushed = 0; next
    }
    if (in_handler && !pushed && $4 ~ /^push/ && $0 ~ /lr}/) {
        n = split($0, f, "= "); lr = hex(substr(f[n], 1, 10)); pushed = 1
        if (lr != epc + 4) { printf "FAIL: LR_irq 0x%08x for EPC 0x%08x\n", lr, epc; bad = 1 }
        checked_lr++
    }
    if (returning) {
        if (pc != epc && pc != epc + 4) { printf "FAIL: return to 0x%08x from an interrupt at EPC 0x%08x\n", pc, epc; bad = 1 }
        returning = 0; returns++
    }
    if (in_handler && $4 == "subs" && $5 == "pc," && $6 == "lr," && $7 == "#4") { returning = 1; in_handler = 0 }
}
END {
    printf "%d interrupts (%d from ARM code, %d from Thumb code), LR_irq checked at %d, %d returns\n", irqs, from_arm, from_thumb, checked_lr, returns
    if (!irqs || checked_lr < 1 || returns < 1) { print "FAIL: no interrupt checked"; bad = 1 }
    if (want_arm && !from_arm) { print "FAIL: no interrupt from ARM state"; bad = 1 }
    if (want_thumb && !from_thumb) { print "FAIL: no interrupt from Thumb state"; bad = 1 }
    exit bad
}' "$out/$name.map" "$out/$name.txt" || exit 1

if [ -n "$retag" ]; then
  # metadata offset 280 is file offset 296; TE is bit 6 of its byte 3 (299)
  cp "$out/$name.ims" "$out/te0.raw" && printf '\x00' | dd of="$out/te0.raw" bs=1 seek=299 conv=notrunc 2>/dev/null &&
    "$retag" "$out/te0.raw" "$out/te0.ims" CIMS 4 || { echo "FAIL: tamper"; exit 1; }
  rm -f "$out/te0.itrace"
  "$citcat" replay "$out/te0.ims" "$out/$name.aes" -o "$out/te0.itrace" 2>"$out/te0.err"; rc=$?
  [ $rc -eq 1 ] || { echo "FAIL: replay with TE cleared exited $rc, expected 1 (diverged)"; cat "$out/te0.err"; exit 1; }
  # the store to slot 39 (0x40000fdc): the recorded SCTLR and the restored
  # one differ in TE (bit 30) alone
  exp=$(sed -n 's/.*expected: a 4-byte write of \(0x[0-9a-f]*\) to 0x40000fdc.*/\1/p' "$out/te0.err")
  got=$(sed -n 's/.*found: *a 4-byte write of \(0x[0-9a-f]*\) to 0x40000fdc.*/\1/p' "$out/te0.err")
  [ -n "$exp" ] && [ -n "$got" ] && [ $(( exp ^ got )) -eq $(( 1 << 30 )) ] ||
    { echo "FAIL: the divergence is not the SCTLR slot's store differing in TE"; cat "$out/te0.err"; exit 1; }
  [ ! -e "$out/te0.itrace" ] || { echo "FAIL: a diverged replay left its output"; exit 1; }
  cp "$out/$name.ims" "$out/res.raw" && printf '\x41' | dd of="$out/res.raw" bs=1 seek=296 conv=notrunc 2>/dev/null &&
    "$retag" "$out/res.raw" "$out/res.ims" CIMS 4 || { echo "FAIL: tamper"; exit 1; }
  rm -f "$out/res.itrace"
  "$citcat" replay "$out/res.ims" "$out/$name.aes" -o "$out/res.itrace" 2>"$out/res.err"; rc=$?
  [ $rc -eq 2 ] || { echo "FAIL: replay with a reserved SCTLR bit exited $rc, expected 2"; cat "$out/res.err"; exit 1; }
  grep -q "res.ims: offset 296: IMS SCTLR 0x40000041: reserved bits set" "$out/res.err" ||
    { echo "FAIL: the refusal does not name the file, offset 296 and SCTLR"; cat "$out/res.err"; exit 1; }
  [ ! -e "$out/res.itrace" ] || { echo "FAIL: a refused replay left an output"; exit 1; }
  echo "tampered IMS: TE cleared diverges at the SCTLR slot, a reserved bit is refused at offset 296"
fi

# With checkpoints: the FIQ entry in Thumb state too, each segment's IMS
# restores TE (serially from the bundle, and segment by segment).
ck=${name}_ck
bash "$here/example_capture.sh" "$citcat" "$elf" "$out" "$ck" --checkpoint-every 20000 --max-insns 5000000 >/dev/null ||
  { echo "FAIL: capture with checkpoints"; exit 1; }
bash "$here/replay_example.sh" "$citcat" "$out" "$ck" || exit 1
"$citcat" convert "$out/$ck.itrace" -o "$out/$ck.txt" --to text || { echo "FAIL: listing"; exit 1; }
k=$(grep -c "interrupt line 15" "$out/$ck.txt")
[ "$k" -ge 1 ] || { echo "FAIL: no checkpoint"; exit 1; }
bad=$(grep -A1 "interrupt line 15" "$out/$ck.txt" | grep -v -e "interrupt line 15" -e '^--$' | grep -v -c "^ *[0-9]* *0000001c  [0-9a-f]*  b\.w ")
[ "$bad" -eq 0 ] || { echo "FAIL: $bad checkpoint entries not at the Thumb b.w at 0x1c"; exit 1; }
rm -f "$out/$ck.jobs.itrace"
"$citcat" replay "$out/$ck.ims" "$out/$ck.aes" -o "$out/$ck.jobs.itrace" --jobs 2 --verify "$out/$ck.cat" --oracle "$out/$ck.itrace" ||
  { echo "FAIL: replay --jobs 2"; exit 1; }
cmp -s "$out/$ck.jobs.itrace" "$out/$ck.itrace" || { echo "FAIL: replay --jobs 2 differs from the oracle"; exit 1; }
echo "$name: SCTLR.TE = 1, exact; $k checkpoints entered in Thumb state, exact serially and with --jobs 2"
