#!/usr/bin/env bash
# citcat dump of the formats whose records decode only against the program:
# LVT and DAF (walked beside an itrace of the same run, --itrace) and
# SDC-LSP (decoded with the program image, --image).  The tiny firmware
# (tests/firmware/tiny.S, linked at 0) captured with --seed 1, as in
# dump_golden.sh, whose header gives the addresses: P = 0x44, loop 1 at
# 0x5c..0x70 (6 instructions, `ldr r7, [r5, r6]` at 0x5c), the cycle counter
# read at 0x74, entropy at 0x78, the DMA poll at 0x94..0x9c, cpsie at 0xc4,
# cpsid at 0xd8, the timer-off store at 0xe0; the IRQ handler from 0xf8
# (push 0xf8, `ldr r1, =wait_here` 0x11c, pop 0x128), its literal pool at
# 0x130 (0x54524331), 0x134 (0x53544f50), 0x138 (wait_here).  Every expected
# line is reasoned from tiny.S and the specs (formats/LVT.md, formats/DAF.md,
# formats/SDCLSP.md), not copied from the tool; what interrupt and DMA
# timing decides is matched by pattern.
# Usage: dump_flow.sh CITCAT TINY.elf
set -u
citcat=$1 elf=$2
. "$(dirname "$0")/testlib.sh"

"$citcat" capture "$elf" -o "$t/run.cat" --oracle "$t/run.itrace" --lvt "$t/run.lvt" --daf "$t/run.daf" \
  --seed 1 -q >/dev/null || fail "capture"
"$citcat" convert "$t/run.itrace" -o "$t/run.sdc" --to sdclsp || fail "convert sdclsp"
"$citcat" dump "$t/run.cat" | tail -n 1 | sed 's/.* insns=\([0-9]*\) .*/\1/' >"$t/insns"
insns=$(cat "$t/insns")

same() {
  local what=$1
  shift
  cat >"$t/want"
  "$citcat" dump "$@" >"$t/got" 2>"$t/err" || fail "$what: dump $* exited $? ($(head -c 300 "$t/err"))"
  diff -u "$t/want" "$t/got" >"$t/diff" || fail "$what: $(cat "$t/diff")"
}
# like same, but each line of standard input is an extended regex for a line
like() {
  local what=$1
  shift
  cat >"$t/want"
  "$citcat" dump "$@" >"$t/got" 2>"$t/err" || fail "$what: dump $* exited $? ($(head -c 300 "$t/err"))"
  [ "$(wc -l <"$t/want")" -eq "$(wc -l <"$t/got")" ] || fail "$what: $(wc -l <"$t/got") lines: $(cat "$t/got")"
  paste -d'\n' "$t/want" "$t/got" | while read -r re && read -r line; do
    echo "$line" | grep -Eqx "$re" || echo "$what: '$line' does not match '$re'"
  done >"$t/bad"
  [ -s "$t/bad" ] && fail "$(cat "$t/bad")"
}

# ---- LVT (byte granules, the D-cache emptied by CLEAN_INV_D before P) ----
# 0: START.  Its pc is dump slot 15; tiny's driver dumps only slot 0 (r0),
#    so the others, pc included, are 0.  Code hash and D-cache generator
#    state are not worked out by hand.
# 1..2048: loop 1's 2048 loads, one each 32-byte line of 0x200000..0x20ffff:
#    every one misses (a fill clears the line's flags), so every one is a
#    traced value, of zeroed RAM; instruction 6 + 6k (P..0x58 are 0..5).
# 2049, 2050: the cycle-counter and entropy reads (device reads: always
#    traced), instructions 12294 and 12295 (loop 1 ends with instruction
#    12293); their values are the devices'.
# 2051: the first STATUS poll, instruction 12302 (0x7c..0x90 are 12296..12301).
like "LVT head" "$t/run.lvt" --itrace "$t/run.itrace" --count 3 <<'EOF'
0 start insn=0 pc=0x00000000 hash=0x[0-9a-f]{16} rng=0x[0-9a-f]{8}
1 value insn=6 pc=0x0000005c addr=0x00200000 size=4 value=0x00000000
2 value insn=12 pc=0x0000005c addr=0x00200020 size=4 value=0x00000000
EOF
like "LVT devices" "$t/run.lvt" --itrace "$t/run.itrace" --from 2048 --count 4 <<'EOF'
2048 value insn=12288 pc=0x0000005c addr=0x0020ffe0 size=4 value=0x00000000
2049 value insn=12294 pc=0x00000074 addr=0x40000600 size=4 value=0x[0-9a-f]{8}
2050 value insn=12295 pc=0x00000078 addr=0x40000700 size=4 value=0x[0-9a-f]{8}
2051 value insn=12302 pc=0x00000094 addr=0x4000050c size=4 value=0x[0-9a-f]{8}
EOF
"$citcat" dump "$t/run.lvt" --itrace "$t/run.itrace" >"$t/lvt.txt" || fail "LVT dump"
# FA hits: in every interrupt the pop at 0x128 reloads the two words the push
# at 0xf8 just stored on the IRQ stack (0xffff8, 0xffffc: sp_irq = 0x100000),
# whose flags the stores set; from the second interrupt on, the literal of
# `ldr r1, =wait_here` (0x138) too, which the first interrupt's load flagged.
grep ' hit ' "$t/lvt.txt" | sed 's/^[0-9]* hit insn=[0-9]* //' >"$t/hits"
{
  printf 'pc=0x00000128 addr=0x000ffff8 size=4\npc=0x00000128 addr=0x000ffffc size=4\n'
  for k in 2 3 4 5; do
    printf 'pc=0x0000011c addr=0x00000138 size=4\npc=0x00000128 addr=0x000ffff8 size=4\npc=0x00000128 addr=0x000ffffc size=4\n'
  done
} >"$t/hits.want"
diff -u "$t/hits.want" "$t/hits" >"$t/diff" || fail "LVT hits: $(cat "$t/diff")"
# The DMA: 8 bursts of 8 bytes to 0x300000.., placed at their boundary in the
# poll loop (the next instruction 0x94, 0x98 or 0x9c), as in the CAT.
grep ' dma ' "$t/lvt.txt" | sed 's/^[0-9]* dma insn=[0-9]* //' >"$t/dma"
k=0
while read -r pc addr bcount len; do
  want=$(printf 'addr=0x%08x len=8' $((0x300000 + 8 * k)))
  [ "$addr $len" = "$want" ] || fail "LVT DMA $k: '$addr $len', expected '$want'"
  case "$pc" in pc=0x00000094 | pc=0x00000098 | pc=0x0000009c) ;; *) fail "LVT DMA $k: $pc outside the poll loop" ;; esac
  k=$((k + 1))
done <"$t/dma"
[ "$k" -eq 8 ] || fail "LVT: $k DMA records, expected 8"
# Interrupts: the CAT's (line, EPC, branch count), in the same order.
grep ' irq ' "$t/lvt.txt" | sed 's/^[0-9]* irq insn=[0-9]* pc=\(0x[0-9a-f]*\) line=\([0-9]*\) bcount=\([0-9]*\)$/\2 \3 \1/' >"$t/l_irq"
"$citcat" dump "$t/run.cat" | grep ' irq ' | sed 's/^[0-9]* irq line=\([0-9]*\) bcount=\([0-9]*\) pc=\(0x[0-9a-f]*\)$/\1 \2 \3/' >"$t/c_irq"
[ -s "$t/c_irq" ] && diff -u "$t/c_irq" "$t/l_irq" >"$t/diff" || fail "LVT interrupts differ from the CAT's: $(cat "$t/diff")"
# The last record: STOP, the firmware's STOP command, the CAT's instruction
# count.  Load records: loop 1's 2048, the 2 device reads, the STATUS polls,
# 0xa4's read of the DMA data, 0xe4's literal and 3 per interrupt (the pop's
# two words and the wait_here literal): 2048 + 2 + polls + 1 + 1 + 15.
tail -n 1 "$t/lvt.txt" | grep -Eqx "[0-9]+ stop bcount=[0-9]+ reason=command insns=$insns bits=[0-9]+" ||
  fail "LVT: last record $(tail -n 1 "$t/lvt.txt"), expected a STOP with insns=$insns"
polls=$(grep -c ' value insn=[0-9]* pc=0x00000094 ' "$t/lvt.txt")
[ "$(grep -c ' hit \| value ' "$t/lvt.txt")" -eq $((2048 + 2 + polls + 2 + 15)) ] ||
  fail "LVT: $(grep -c ' hit \| value ' "$t/lvt.txt") load records, expected $((2048 + 2 + polls + 2 + 15))"
grep -Eq '^[0-9]+ value insn=[0-9]+ pc=0x000000a4 addr=0x00300000 size=4 value=0x[0-9a-f]{8}$' "$t/lvt.txt" ||
  fail "LVT: no traced load of the DMA data at 0xa4 (the DMA snoop clears the line)"
grep -Eq '^[0-9]+ value insn=[0-9]+ pc=0x000000e4 addr=0x00000134 size=4 value=0x53544f50$' "$t/lvt.txt" ||
  fail "LVT: no traced literal 'STOP' at 0xe4"
# CSV and JSON
same "LVT csv" "$t/run.lvt" --itrace "$t/run.itrace" --csv --from 1 --count 1 <<'EOF'
rec,kind,insn,pc,addr,size,value,line,bcount,len,reason,insns,hash,rng,bits
1,value,6,0x0000005c,0x00200000,4,0x00000000,,,,,,,,
EOF
same "LVT json" "$t/run.lvt" --itrace "$t/run.itrace" --json --from 1 --count 1 <<'EOF'
{"rec": 1, "kind": "value", "insn": 6, "pc": "0x0000005c", "addr": "0x00200000", "size": 4, "value": "0x00000000"}
EOF

# ---- DAF (formats/DAF.md: every register invalid at P) ----
# 0: instruction 1, `str r0, [r1, #0x40]`: r1 = r4 + 0xf00 and r4 was set
#    before P, so r1 is invalid: the address is traced.  `str r2, [r1, #0xfc]`
#    next is inferred (r1 = DA - 0x40 became valid); loop 1's `[r5, r6]`
#    are inferred (r5, r6 set by mov).
# 1: instruction 12294, `ldr r0, [r4, #0x600]`: r4 still invalid; valid
#    afterwards, so the device accesses up to cpsie are inferred.
# 2: cpsie (0xc4): an escape (CPS), no accesses; every register invalid.
# 3..7: each interrupt's push (STMDB sp!) with sp invalid (the vector rule):
#    traced at 0xffff8, two accesses; everything else in the handler is
#    inferred (r1 = mov, sp written back), and `subs pc, lr, #4` invalidates.
# 8: cpsid (0xd8): an escape.  9: `str r0, [r4, #0x304]` at 0xe0: r4 invalid
#    again.  The literal load at 0xe4 is pc-relative (inferred) and the STOP
#    store uses r4, valid by then.  Then the end chunk: the run's count.
like "DAF" "$t/run.daf" --itrace "$t/run.itrace" <<EOF
0 addr insn=1 pc=0x00000048 addr=0x40000f40 accesses=w4@0x40000f40
1 addr insn=12294 pc=0x00000074 addr=0x40000600 accesses=r4@0x40000600
2 escape insn=[0-9]+ pc=0x000000c4
3 addr insn=[0-9]+ pc=0x000000f8 addr=0x000ffff8 accesses=w4@0x000ffff8;w4@0x000ffffc
4 addr insn=[0-9]+ pc=0x000000f8 addr=0x000ffff8 accesses=w4@0x000ffff8;w4@0x000ffffc
5 addr insn=[0-9]+ pc=0x000000f8 addr=0x000ffff8 accesses=w4@0x000ffff8;w4@0x000ffffc
6 addr insn=[0-9]+ pc=0x000000f8 addr=0x000ffff8 accesses=w4@0x000ffff8;w4@0x000ffffc
7 addr insn=[0-9]+ pc=0x000000f8 addr=0x000ffff8 accesses=w4@0x000ffff8;w4@0x000ffffc
8 escape insn=[0-9]+ pc=0x000000d8
9 addr insn=$((insns - 3)) pc=0x000000e0 addr=0x40000304 accesses=w4@0x40000304
10 end insns=$insns
EOF
same "DAF csv" "$t/run.daf" --itrace "$t/run.itrace" --csv --count 1 <<'EOF'
rec,kind,insn,pc,executed,addr,accesses,insns
0,addr,1,0x00000048,,0x40000f40,w4@0x40000f40,
EOF

# ---- SDC-LSP (the default: rSDC-LSP, 32 sets x 4 ways, shift 4, LSP 128,
# history 1, MRU; SDCLSP.md).  One record per stream, in order.
# 0: P..0x70 up to the first taken blt, SL 12: a miss with no inference
#    (no previous stream), so the SA is sent.
# 1: 0x5c, SL 6: a miss, the SA inferred from the blt's target.
# 2, 3: the same descriptor hits the SDC in set ((0x5c >> 4) ^ 6) & 31 = 3,
#    way 0: SI 12; the LSP still predicts 0 at index 0 (history: the misses'
#    SI 0) and then at index 12, each then learning 12.
# 4..: LSP hits.  AOLC (k = 0, M = 8): records of R = 2^k streams raise M by
#    3; at M = 15 k grows and M = 8: 3 records of 1 stream (4, 5, 6), 3 of
#    2 (7, 9, 11, their second streams copies), then runs of 4 (13..16).
same "SDC-LSP" "$t/run.sdc" --image "$elf" --count 17 <<'EOF'
0 sdc_miss insn=0 pc=0x00000044 sl=12 sa_sent=1
1 sdc_miss insn=12 pc=0x0000005c sl=6 sa_sent=0
2 sdc_hit insn=18 pc=0x0000005c sl=6 si=12
3 sdc_hit insn=24 pc=0x0000005c sl=6 si=12
4 lsp_hit run=1 insn=30 pc=0x0000005c sl=6 si=12
5 lsp_hit run=1 insn=36 pc=0x0000005c sl=6 si=12
6 lsp_hit run=1 insn=42 pc=0x0000005c sl=6 si=12
7 lsp_hit run=2 insn=48 pc=0x0000005c sl=6 si=12
8 lsp_hit repeat=1 insn=54 pc=0x0000005c sl=6 si=12
9 lsp_hit run=2 insn=60 pc=0x0000005c sl=6 si=12
10 lsp_hit repeat=1 insn=66 pc=0x0000005c sl=6 si=12
11 lsp_hit run=2 insn=72 pc=0x0000005c sl=6 si=12
12 lsp_hit repeat=1 insn=78 pc=0x0000005c sl=6 si=12
13 lsp_hit run=4 insn=84 pc=0x0000005c sl=6 si=12
14 lsp_hit repeat=1 insn=90 pc=0x0000005c sl=6 si=12
15 lsp_hit repeat=1 insn=96 pc=0x0000005c sl=6 si=12
16 lsp_hit repeat=1 insn=102 pc=0x0000005c sl=6 si=12
EOF
# the streams' lengths add up to the run's instructions
"$citcat" dump "$t/run.sdc" --image "$elf" --csv | awk -F, 'NR > 1 { n += $7 } END { print n }' >"$t/sum"
[ "$(cat "$t/sum")" = "$insns" ] || fail "SDC-LSP: stream lengths add up to $(cat "$t/sum"), not $insns"

# ---- errors: exit 2, the file (and offset) named ----
expect 2 "run.lvt: the records of a .*--itrace" "$citcat" dump "$t/run.lvt"
expect 2 "run.daf: the records of a .*--itrace" "$citcat" dump "$t/run.daf"
expect 2 "run.sdc: an SDC-LSP stream decodes only with the program image" "$citcat" dump "$t/run.sdc"
expect 2 "does not take --itrace" "$citcat" dump "$t/run.cat" --itrace "$t/run.itrace"
expect 2 "does not take --image" "$citcat" dump "$t/run.lvt" --image "$elf"
expect 2 "run.lvt: the flow .*missing: cannot open" "$citcat" dump "$t/run.lvt" --itrace "$t/missing"
# A flow of another run: tiny without its last 40 instructions is still the
# same program, but the LVT's STOP comes where the flow has loads left, or
# the flow ends before the STOP; either way the dump stops naming the LVT.
"$citcat" capture "$elf" -o "$t/short.cat" --oracle "$t/short.itrace" --max-insns 12300 --seed 1 -q >/dev/null 2>&1
expect 2 "run.lvt: .*where the flow .*short.itrace has .*not the same run" "$citcat" dump "$t/run.lvt" --itrace "$t/short.itrace"
expect 2 "run.daf: " "$citcat" dump "$t/run.daf" --itrace "$t/short.itrace"
# a damaged LVT (one bit flipped in the middle): a checksum names the place
size=$(stat -c %s "$t/run.lvt")
cp "$t/run.lvt" "$t/bad.lvt"
b=$(od -An -tu1 -j $((size / 2)) -N 1 "$t/run.lvt")
printf "\\x$(printf %02x $((b ^ 1)))" | dd of="$t/bad.lvt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 2 "bad.lvt: offset [0-9]*: " "$citcat" dump "$t/bad.lvt" --itrace "$t/run.itrace"

finish dump_flow
