#!/usr/bin/env bash
# citcat dump, golden: the tiny firmware (tests/firmware/tiny.S, linked at 0)
# captured with --seed 1, then its CAT, itrace, AES, din and PDATS II dumped.
# Every expected line below is written by hand from what tiny.S must do on
# the target (TARGET.md), not copied from the tool: the addresses come from
# counting tiny.S's instructions (4 bytes each from 0: _start = 0x20,
# P = 0x44, loop 1 at 0x5c..0x70, the DMA poll at 0x94..0x9c, loop 3 at
# 0xc8..0xcc, wait_here = 0xd0, wfi = 0xd4; every one A32, size 4), the words from the ARM A32
# encodings (GNU as turns `ldr rX, =C` into `mov rX, #C` when C is an ARM
# immediate, as for 0x200000), data bytes little-endian.  Fields the program
# cannot fix (cycle-counter and entropy values, DMA data, interrupt timing)
# are matched by pattern or not checked.
# Usage: dump_golden.sh CITCAT TINY.elf
set -u
citcat=$1 elf=$2
. "$(dirname "$0")/testlib.sh"

"$citcat" capture "$elf" -o "$t/run.cat" --oracle "$t/run.itrace" --seed 1 -q >/dev/null || fail "capture"
"$citcat" aes "$t/run.cat" -o "$t/run.aes" >/dev/null || fail "aes"
"$citcat" convert "$t/run.itrace" -o "$t/run.din" --uncached || fail "convert din"
"$citcat" convert "$t/run.itrace" -o "$t/run.pdats2" --to pdats2 --uncached || fail "convert pdats2"

# same FILE OPTIONS...: the dump equals the lines on standard input
same() {
  local what=$1
  shift
  cat >"$t/want"
  "$citcat" dump "$@" >"$t/got" 2>"$t/err" || fail "$what: dump $* exited $? ($(head -c 300 "$t/err"))"
  diff -u "$t/want" "$t/got" >"$t/diff" || fail "$what: $(cat "$t/diff")"
}

# ---- CAT: the bus, from recording start ----
# 0: the TRC1 store at 0x38 arms the trace (START); it is not itself recorded.
# 1: CLEAN_INV_D (0x3c): the caches hold nothing dirty yet, so no write-back.
# 2: the INV_I store at 0x40 is the first instruction of line 0x40..0x5f,
#    which was never fetched: its fill shows the words at 0x40..0x5c:
#    str r0,[r4,#0x100] e5840100; add r1,r4,#0xf00 e2841c0f;
#    str r0,[r1,#0x40] e5810040; mov r2,#39 e3a02027; str r2,[r1,#0xfc]
#    e58120fc; mov r5,#0x200000 e3a05602; mov r6,#0 e3a06000;
#    ldr r7,[r5,r6] e7957006.
# 3: INV_I.  4: SYNC at P = 0x44; LRU caches, so both generator states 0.
# 5: INV_I emptied the I-cache: P's line is fetched again.
# 6, 7: the register dump (slot 0 at 0x40000f40 = r0 = 'TRC1') and DUMP_DONE = 39.
# 8: the first load of loop 1 misses on 0x200000; RAM starts zeroed.
# 9: then the next I line, 0x60..0x7c: add r7,r7,r6 e0877006;
#    str r7,[r5,r6] e7857006; add r6,r6,#32 e2866020; cmp r6,#0x10000
#    e3560801; blt 1b (-7 words) bafffff9; ldr r0,[r4,#0x600] e5940600;
#    ldr r0,[r4,#0x700] e5940700; mov r0,#0x300000 e3a00603.
same "CAT head" "$t/run.cat" --count 10 <<'EOF'
0 start
1 uncached_write addr=0x40000108 size=4 value=0x54524331
2 fill_i addr=0x00000040 len=32 data=000184e50f1c84e2400081e52720a0e3fc2081e50256a0e30060a0e3067095e7
3 uncached_write addr=0x40000100 size=4 value=0x54524331
4 sync pc=0x00000044 gi=0x00000000 gd=0x00000000
5 fill_i addr=0x00000040 len=32 data=000184e50f1c84e2400081e52720a0e3fc2081e50256a0e30060a0e3067095e7
6 uncached_write addr=0x40000f40 size=4 value=0x54524331
7 uncached_write addr=0x40000ffc size=4 value=0x00000027
8 fill_d addr=0x00200000 len=32 data=0000000000000000000000000000000000000000000000000000000000000000
9 fill_i addr=0x00000060 len=32 data=067087e0067085e7206086e2010856e3f9ffffba000694e5000794e50306a0e3
EOF
# --from/--count select by record number; CSV has a header line and one
# column per field of the kind (formats/DUMP.md); JSON Lines one object.
same "CAT --from" "$t/run.cat" --from 4 --count 1 <<'EOF'
4 sync pc=0x00000044 gi=0x00000000 gd=0x00000000
EOF
same "CAT csv" "$t/run.cat" --csv --from 6 --count 2 <<'EOF'
rec,kind,cycle,addr,size,value,len,line,bcount,pc,gi,gd,reason,insns,cycles,cfsr,hfsr,mmfar,bfar,data
6,uncached_write,,0x40000f40,4,0x54524331,,,,,,,,,,,,,,
7,uncached_write,,0x40000ffc,4,0x00000027,,,,,,,,,,,,,,
EOF
same "CAT json" "$t/run.cat" --json --from 4 --count 1 <<'EOF'
{"rec": 4, "kind": "sync", "pc": "0x00000044", "gi": "0x00000000", "gd": "0x00000000"}
EOF
same "CAT count 0" "$t/run.cat" --csv --count 0 <<'EOF'
rec,kind,cycle,addr,size,value,len,line,bcount,pc,gi,gd,reason,insns,cycles,cfsr,hfsr,mmfar,bfar,data
EOF
"$citcat" dump "$t/run.cat" >"$t/cat.txt" || fail "CAT dump"
# The DMA: 64 bytes to 0x300000 in 8-byte bursts (the default burst), all
# while the core polls STATUS at 0x94..0x9c, after loop 1's 2047 taken
# branches (2048 iterations, the last blt falls through).
grep ' dma ' "$t/cat.txt" | sed 's/ data=.*//' >"$t/dma"
[ "$(wc -l <"$t/dma")" -eq 8 ] || fail "CAT: $(wc -l <"$t/dma") DMA events, expected 8"
k=0
while read -r rec kind addr len bcount pc; do
  want=$(printf 'addr=0x%08x' $((0x300000 + 8 * k)))
  [ "$addr $len" = "$want len=8" ] || fail "CAT DMA $k: '$addr $len', expected '$want len=8'"
  case "$pc" in pc=0x00000094 | pc=0x00000098 | pc=0x0000009c) ;; *) fail "CAT DMA $k: $pc outside the poll loop" ;; esac
  [ "${bcount#bcount=}" -ge 2047 ] || fail "CAT DMA $k: $bcount < 2047"
  k=$((k + 1))
done <"$t/dma"
# Interrupts, line 0 (the timer): three while loop 3 waits for r8 = 3
# (EPC 0xc8 or 0xcc), the fourth in `b wait_here` (EPC 0xd0; the handler
# resumes after it), the fifth wakes the wfi (EPC 0xd8, the next instruction).
grep ' irq ' "$t/cat.txt" | sed 's/^[0-9]* irq line=\([0-9]*\) bcount=[0-9]* pc=/\1 /' >"$t/irqs"
printf '0 0x000000c8|0x000000cc\n0 0x000000c8|0x000000cc\n0 0x000000c8|0x000000cc\n0 0x000000d0\n0 0x000000d8\n' >"$t/irqs.want"
paste -d' ' "$t/irqs" "$t/irqs.want" | while read -r l pc wl wpc; do
  [ "$l" = "$wl" ] && echo "$pc" | grep -Eqx "$wpc" || echo "bad"
done | grep -q bad && fail "CAT interrupts: $(tr '\n' ' ' <"$t/irqs")"
[ "$(wc -l <"$t/irqs")" -eq 5 ] || fail "CAT: $(wc -l <"$t/irqs") interrupts, expected 5"
# The last event: STOP, because the firmware wrote STOP to CMD (0xe8).
tail -n 1 "$t/cat.txt" | grep -Eq '^[0-9]+ stop bcount=[0-9]+ reason=command insns=[0-9]+ cycles=[0-9]+$' ||
  fail "CAT: last event $(tail -n 1 "$t/cat.txt")"

# With --timestamps every event but STOP carries its bus cycle (STOP has its
# cycle total instead); the events themselves are the same.
"$citcat" capture "$elf" -o "$t/ts.cat" --timestamps --seed 1 -q >/dev/null || fail "capture --timestamps"
"$citcat" dump "$t/ts.cat" --from 4 --count 1 | grep -Eqx '4 sync cycle=[0-9]+ pc=0x00000044 gi=0x00000000 gd=0x00000000' ||
  fail "timestamped SYNC: $("$citcat" dump "$t/ts.cat" --from 4 --count 1)"
# standard input
"$citcat" dump - --from 4 --count 1 <"$t/run.cat" | grep -qx '4 sync pc=0x00000044 gi=0x00000000 gd=0x00000000' || fail "dump -"

# ---- itrace: the retired instructions from P ----
# P's instructions (words as in CAT event 2) and their accesses (device-window
# accesses are uncached, marked u): r0 =
# 'TRC1' to slot 0, 39 to DUMP_DONE, then loop 1's first load of 0x200000
# (zero) and the add after it.
same "itrace head" "$t/run.itrace" --count 8 <<'EOF'
0 insn insn=0 pc=0x00000044 word=0xe2841c0f size=4 isa=arm
1 insn insn=1 pc=0x00000048 word=0xe5810040 size=4 isa=arm accesses=w4u@0x40000f40=0x54524331
2 insn insn=2 pc=0x0000004c word=0xe3a02027 size=4 isa=arm
3 insn insn=3 pc=0x00000050 word=0xe58120fc size=4 isa=arm accesses=w4u@0x40000ffc=0x00000027
4 insn insn=4 pc=0x00000054 word=0xe3a05602 size=4 isa=arm
5 insn insn=5 pc=0x00000058 word=0xe3a06000 size=4 isa=arm
6 insn insn=6 pc=0x0000005c word=0xe7957006 size=4 isa=arm accesses=r4@0x00200000=0x00000000
7 insn insn=7 pc=0x00000060 word=0xe0877006 size=4 isa=arm
EOF
same "itrace json" "$t/run.itrace" --json --from 1 --count 1 <<'EOF'
{"rec": 1, "kind": "insn", "insn": 1, "pc": "0x00000048", "word": "0xe5810040", "size": 4, "isa": "arm", "accesses": "w4u@0x40000f40=0x54524331"}
EOF
# The interrupt in `b wait_here`, between two instructions: the handler's
# first instruction is the IRQ vector (0x18), the next record.
"$citcat" dump "$t/run.itrace" >"$t/itrace.txt" || fail "itrace dump"
n=$(grep -n ' irq insn=[0-9]* pc=0x000000d0 line=0$' "$t/itrace.txt" | cut -d: -f1)
[ -n "$n" ] || fail "itrace: no interrupt entry with EPC 0xd0"
[ -n "$n" ] && { sed -n "$((n + 1))p" "$t/itrace.txt" | grep -q ' insn insn=[0-9]* pc=0x00000018 word=0xea000036 size=4 isa=arm$' ||
  fail "itrace: after the EPC-0xd0 entry: $(sed -n "$((n + 1))p" "$t/itrace.txt") (expected b irq at 0x18, irq = 0xf8)"; }
[ "$(grep -c ' irq ' "$t/itrace.txt")" -eq 5 ] || fail "itrace: interrupt entries != 5"

# ---- AES: what the replayer needs, in bus order from P ----
# 0, 1: the register dump's two stores (outputs); 2: the cycle counter read
# at 0x74 (COUNTER, value unknown); 3: entropy at 0x78 (INPUT); 4..6: the
# DMA's destination 0x300000, length 64 and start (outputs); 7: the first
# STATUS poll (INPUT).
"$citcat" dump "$t/run.aes" --count 8 >"$t/aes.txt" || fail "aes dump"
cat >"$t/aes.want" <<'EOF'
^0 output addr=0x40000f40 size=4 value=0x54524331$
^1 output addr=0x40000ffc size=4 value=0x00000027$
^2 counter addr=0x40000600 size=4 value=0x[0-9a-f]{8}$
^3 input addr=0x40000700 size=4 value=0x[0-9a-f]{8}$
^4 output addr=0x40000500 size=4 value=0x00300000$
^5 output addr=0x40000504 size=4 value=0x00000040$
^6 output addr=0x40000508 size=4 value=0x00000001$
^7 input addr=0x4000050c size=4 value=0x[0-9a-f]{8}$
EOF
paste -d'\n' "$t/aes.want" "$t/aes.txt" | while read -r re && read -r line; do
  echo "$line" | grep -Eq "$re" || echo "AES line '$line' does not match '$re'"
done >"$t/aes.bad"
[ -s "$t/aes.bad" ] && fail "$(cat "$t/aes.bad")"
[ "$(wc -l <"$t/aes.txt")" -eq 8 ] || fail "AES: $(wc -l <"$t/aes.txt") lines for --count 8"
"$citcat" dump "$t/run.aes" >"$t/aes_all.txt" || fail "aes dump all"
# the AES's interrupts are the CAT's (same line and EPC, same branch count)
grep ' irq ' "$t/aes_all.txt" | sed 's/^[0-9]* irq //' >"$t/a_irq"
grep ' irq ' "$t/cat.txt" | sed 's/^[0-9]* irq //' >"$t/c_irq"
diff -u "$t/c_irq" "$t/a_irq" >/dev/null || fail "AES interrupts differ from the CAT's"
tail -n 1 "$t/aes_all.txt" | grep -Eq '^[0-9]+ end bcount=[0-9]+ insns=[0-9]+ reason=command$' ||
  fail "AES: last record $(tail -n 1 "$t/aes_all.txt")"
# Each interrupt's handler first stores LR_irq = EPC + 4 to SCRATCH (0x40000004).
grep -A1 ' irq ' "$t/aes_all.txt" | grep -v '^--' | paste -d' ' - - |
  while read -r _ _ _ _ pc _ _ addr size value; do
    want=$(printf 'addr=0x40000004 size=4 value=0x%08x' $((${pc#pc=} + 4)))
    [ "$addr $size $value" = "$want" ] || echo "after the interrupt at $pc: '$addr $size $value', expected '$want'"
  done >"$t/aes.lr"
[ -s "$t/aes.lr" ] && fail "$(cat "$t/aes.lr")"

# ---- din and PDATS II: the same references (ITRACE -> din order: fetch, then data) ----
cat >"$t/refs" <<'EOF'
0 ifetch addr=0x00000044
1 ifetch addr=0x00000048
2 write addr=0x40000f40
3 ifetch addr=0x0000004c
4 ifetch addr=0x00000050
5 write addr=0x40000ffc
6 ifetch addr=0x00000054
EOF
same "din" "$t/run.din" --count 7 <"$t/refs"
same "pdats2" "$t/run.pdats2" --count 7 <"$t/refs"

# ---- errors: exit 2, file and offset named, nothing on standard output ----
size=$(stat -c %s "$t/run.cat")
cp "$t/run.cat" "$t/corrupt.cat"
printf '\xff' | dd of="$t/corrupt.cat" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 2 "corrupt.cat: offset [0-9]*: chunk checksum mismatch" "$citcat" dump "$t/corrupt.cat"
: >"$t/empty"
expect 2 "empty: offset 0: file is empty" "$citcat" dump "$t/empty"
expect 2 "exclude each other" "$citcat" dump --csv --json "$t/run.cat"
expect 2 "unknown option" "$citcat" dump --bogus "$t/run.cat"
expect 2 "not a number" "$citcat" dump --from x "$t/run.cat"
expect 2 "no file given" "$citcat" dump
"$citcat" dump --help | grep -q 'usage: citcat dump' || fail "dump --help"

finish dump_golden
