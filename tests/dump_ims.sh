#!/usr/bin/env bash
# citcat dump of an IMS, golden: the counter example (built with the BSP's
# CITCAT driver, examples/bsp/citcat_driver.S) captured with --seed 1.  The
# driver's contract (its header comment) fixes the registers at P:
# r0 = 0x40000F00 (the trace module base), r1 = 0x54524331 ('TRC1'),
# r15 = P, the address of the symbol citcat_trace_point (read here with
# arm-none-eabi-nm, independently of citcat), CPSR = the caller's with I set,
# the caller being main in SYS mode (0x1f).  P's own line is fetched right
# after P, so a memory run holds P's first instruction, the first dump
# store `str r0, [r0, #0x40]` = 0xe5800040 (bytes 40 00 80 e5).
# Usage: dump_ims.sh CITCAT COUNTER.cat COUNTER.elf NM
set -u
citcat=$1 cat=$2 elf=$3 nm=$4
. "$(dirname "$0")/testlib.sh"

"$citcat" ims "$cat" -o "$t/run.ims" >/dev/null 2>&1 || fail "ims"
p=$("$nm" "$elf" | awk '$3 == "citcat_trace_point" { print $1 }')
[ -n "$p" ] || fail "no citcat_trace_point in $elf"
printf -v pc '0x%08x' $((0x$p))
"$citcat" dump "$t/run.ims" --count 2 >"$t/regs" || fail "dump"
printf '0 reg reg=r0 value=0x40000f00\n1 reg reg=r1 value=0x54524331\n' | diff -u - "$t/regs" || fail "r0, r1"
"$citcat" dump "$t/run.ims" --from 15 --count 1 | grep -qx "15 reg reg=pc value=$pc" || fail "r15 is not P = $pc"
cpsr=$("$citcat" dump "$t/run.ims" --from 16 --count 1 | sed -n 's/^16 reg reg=cpsr value=//p')
[ -n "$cpsr" ] && [ $((cpsr & 0x9f)) -eq $((0x9f)) ] || fail "CPSR '$cpsr': not SYS mode with I set"
# record 39 is SCTLR: the counter runs with TE = 0 (the BSP's default)
"$citcat" dump "$t/run.ims" --from 39 --count 1 | grep -qx "39 reg reg=sctlr value=0x00000000" || fail "SCTLR record"
# the memory runs follow the 39 registers and SCTLR; find the one holding P
"$citcat" dump "$t/run.ims" --csv --from 40 >"$t/runs.csv" || fail "dump runs"
head -n 1 "$t/runs.csv" | grep -qx 'rec,kind,reg,addr,len,value,data' || fail "CSV header"
word=
while IFS=, read -r rec kind reg addr len value data; do
  [ "$rec" = rec ] && continue
  if [ $((addr)) -le $((0x$p)) ] && [ $((0x$p)) -lt $((addr + len)) ]; then
    off=$((2 * (0x$p - addr)))
    word=${data:off:8}
  fi
done <"$t/runs.csv"
[ "$word" = "400080e5" ] || fail "the run holding P has '$word' at P, expected 400080e5"
# the JSON of a run names its fields
"$citcat" dump "$t/run.ims" --json --from 40 --count 1 | grep -Eq '^\{"rec": 40, "kind": "mem", "addr": "0x[0-9a-f]{8}", "len": [0-9]+, "data": "[0-9a-f]+"\}$' ||
  fail "JSON of a memory run"
finish dump_ims
