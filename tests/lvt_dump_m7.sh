#!/usr/bin/env bash
# citcat dump --itrace of a Cortex-M7 LVT with exceptions (issue 36: it
# stopped at the first interrupt's vector read with "exception number out
# of range (2..47)": the dumper took the IRQ record's vector read as the
# handler's first load, and every later record was read one record early).
# Each firmware is captured with --lvt and its oracle in the same run (the
# first 150000 instructions: sha256_m7's 2048 DMA transfers come before), and
# the LVT dumped beside the oracle must (formats/LVT.md, "The Cortex-M7";
# formats/DUMP.md):
#  - decode to its STOP record, exit 0;
#  - list one hit or value record per read of the oracle, in order: the
#    instructions' loads, each exception return's eight unstacking reads and
#    each entry's vector read, with the oracle's address and size, and a
#    value record with the oracle's value;
#  - list one irq record per asynchronous exception entry of the oracle
#    (NMI, PendSV, SysTick, external IRQs: numbers 2 and 14..47) with its
#    number and return address, and none for a synchronous one (HardFault,
#    MemManage, BusFault, UsageFault, SVC: 3..6 and 11 in these firmware);
#  - list one dma record per DMA transfer of the oracle.
# Usage: lvt_dump_m7.sh CITCAT ELF...
set -u
citcat=$1
shift
. "$(dirname "$0")/testlib.sh"
for elf in "$@"; do
  n=$(basename "$elf" .elf) r=$t/$(basename "$elf" .elf)
  "$citcat" capture "$elf" --lvt "$r.lvt" --oracle "$r.itrace" --seed 1 --max-insns 150000 --uart-out /dev/null -q >"$r.out" 2>"$r.err" \
    || { fail "$n: capture: $(cat "$r.err")"; continue; }
  "$citcat" dump --itrace "$r.itrace" "$r.lvt" >"$r.d" 2>"$r.derr" || { fail "$n: dump: $(cat "$r.derr")"; continue; }
  tail -1 "$r.d" | grep -q "^[0-9]* stop .*reason=\(exit\|insn-limit\)" || fail "$n: the dump does not end with STOP: $(tail -1 "$r.d")"
  "$citcat" dump "$r.itrace" >"$r.id" || fail "$n: dump of the oracle"
  # the oracle's reads: ADDR SIZE VALUE (value masked to the size)
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^accesses=/) {
           sub(/^accesses=/, "", $i); k = split($i, a, ";")
           for (j = 1; j <= k; j++) if (a[j] ~ /^r/) {
             split(a[j], p, /[@=]/); s = p[1]; gsub(/[^0-9]/, "", s)
             printf "%s %s %s\n", p[2], s, substr(p[3], 1, 2) "" substr(p[3], length(p[3]) - 2 * s + 1) } } }' \
    "$r.id" >"$r.ireads"
  # the LVT's: ADDR SIZE VALUE (a hit: the oracle's, which it infers)
  awk '$2 == "hit" || $2 == "value" { a = s = v = ""
         for (i = 3; i <= NF; i++) { split($i, p, "="); if (p[1] == "addr") a = p[2]; if (p[1] == "size") s = p[2]; if (p[1] == "value") v = p[2] }
         print a, s, ($2 == "value" ? v : "hit") }' "$r.d" >"$r.lreads"
  ni=$(wc -l <"$r.ireads") nl=$(wc -l <"$r.lreads")
  [ "$ni" -eq "$nl" ] || fail "$n: $nl load records in the LVT, $ni reads in the oracle"
  bad=$(paste -d' ' "$r.ireads" "$r.lreads" | awk '$1 != $4 || $2 != $5 || ($6 != "hit" && $3 != $6) { print NR ": " $0; exit }')
  [ -z "$bad" ] || fail "$n: load record differs from the oracle's read: $bad"
  vec=$(grep -c " irq .*;r4@" "$r.id")
  # the asynchronous entries: number and return address
  grep " irq " "$r.id" | sed 's/.* pc=\(0x[0-9a-f]*\) line=\([0-9]*\).*/\2 \1/' \
    | awk '$1 == 2 || $1 >= 14' >"$r.iirq"
  grep " irq " "$r.d" | sed 's/.* pc=\(0x[0-9a-f]*\) line=\([0-9]*\).*/\2 \1/' >"$r.lirq"
  cmp -s "$r.iirq" "$r.lirq" || fail "$n: the LVT's irq records are not the oracle's asynchronous entries: $(diff "$r.iirq" "$r.lirq" | head -4 | tr '\n' ' ')"
  [ "$(grep -c " dma " "$r.d")" -eq "$(grep -c " dma " "$r.id")" ] || fail "$n: the LVT's dma records are not the oracle's"
  echo "$n: $nl load records ($vec vector reads), $(wc -l <"$r.lirq") irq records of $(grep -c " irq " "$r.id") entries, $(grep -c " dma " "$r.d") dma"
done
finish lvt_dump_m7
