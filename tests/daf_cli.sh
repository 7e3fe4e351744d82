#!/usr/bin/env bash
# Bad input to `citcat convert FLOW --daf` (issue 9): every case exits 2
# naming the file (and the byte offset where there is one) and leaves no
# output; a DAF trace replayed over the wrong flow is caught and named at an
# instruction.
# Usage: daf_cli.sh CITCAT SCHED_ELF IDLE_ELF
set -u
citcat=$1 elf=$2 other=$3
. "$(dirname "$0")/testlib.sh"
"$citcat" capture "$elf" -o "$t/a.cat" --oracle "$t/a.itrace" --daf "$t/a.daf" --seed 1 --uart-out /dev/null -q \
  || { echo "FAIL: capture"; exit 1; }
"$citcat" capture "$other" -o "$t/b.cat" --oracle "$t/b.itrace" --daf "$t/b.daf" --seed 1 --uart-out /dev/null -q \
  || { echo "FAIL: capture"; exit 1; }
"$citcat" convert "$t/a.itrace" -o "$t/a.sdc" --to sdclsp || fail "sdc"
size=$(wc -c <"$t/a.daf")

no_output() { [ ! -e "$t/out.din" ] || fail "$1: partial output left behind"; rm -f "$t/out.din"; }

head -c $((size - 30)) "$t/a.daf" >"$t/trunc.daf"
expect 2 "trunc.daf: offset [0-9]" "$citcat" convert "$t/a.sdc" --daf "$t/trunc.daf" --image "$elf" -o "$t/out.din"
no_output truncated
cp "$t/a.daf" "$t/flip.daf"
printf '\x55' | dd of="$t/flip.daf" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 2 "flip.daf: offset [0-9].*checksum" "$citcat" convert "$t/a.sdc" --daf "$t/flip.daf" --image "$elf" -o "$t/out.din"
no_output flipped
: >"$t/empty.daf"
expect 2 "empty.daf" "$citcat" convert "$t/a.sdc" --daf "$t/empty.daf" --image "$elf" -o "$t/out.din"
no_output empty
expect 2 "a.itrace" "$citcat" convert "$t/a.sdc" --daf "$t/a.itrace" --image "$elf" -o "$t/out.din"
no_output "wrong kind"
# another run's DAF over this flow: named at the instruction that needs what is not there
expect 2 "b.daf: offset [0-9]*: DAF: instruction [0-9]* at 0x" \
  "$citcat" convert "$t/a.sdc" --daf "$t/b.daf" --image "$elf" -o "$t/out.din"
no_output "other run (SDC-LSP flow)"
"$citcat" convert "$t/a.itrace" --daf "$t/b.daf" -o "$t/out.din" >/dev/null 2>"$t/err"
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "other run (itrace flow) exited $rc"
grep -q "instruction [0-9]* at 0x" "$t/err" || fail "other run (itrace flow): no instruction named: $(cat "$t/err")"
no_output "other run (itrace flow)"
# usage errors
expect 2 "needs --image" "$citcat" convert "$t/a.sdc" --daf "$t/a.daf" -o "$t/out.din"
"$citcat" convert "$t/a.itrace" -o "$t/a.din" --uncached || fail "din" # device accesses too, as the DAF rebuild
expect 2 "program flow" "$citcat" convert "$t/a.din" --daf "$t/a.daf" -o "$t/out.din"
no_output usage
# and the good case still works
"$citcat" convert "$t/a.sdc" --daf "$t/a.daf" --image "$elf" -o "$t/out.din" --uncached || fail "good case"
cmp -s "$t/a.din" "$t/out.din" || fail "good case differs"
finish daf_cli
