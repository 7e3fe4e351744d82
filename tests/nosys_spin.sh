#!/usr/bin/env bash
# Firmware built without citcat's BSP (issue 35): plain
# arm-none-eabi-gcc --specs=nosys.specs, whose _exit is `b .` with
# interrupts masked, never reaches a trace start point.  The capture stops
# at once (exit 2, no output left) naming _exit's address (nm) and pointing
# to the BSP, instead of spinning until it is killed; the same under the
# per-instruction engine.  A Cortex-M7 build without the BSP has no vector
# table at 0: the reset error points to the BSP too.
# Usage: nosys_spin.sh CITCAT TOOL_PREFIX
set -u
citcat=$1 prefix=$2
. "$(dirname "$0")/testlib.sh"
printf '#include <stdio.h>\nint main(void) { printf("hello\\n"); return 0; }\n' >"$t/hello.c"
"${prefix}gcc" -mcpu=cortex-a9 -marm -O2 --specs=nosys.specs "$t/hello.c" -o "$t/a.elf" 2>"$t/cc.err" ||
  { fail "nosys build: $(cat "$t/cc.err")"; finish nosys_spin; }
exit_pc=$("${prefix}nm" "$t/a.elf" | awk '$3 == "_exit" { print $1 }')
[ -n "$exit_pc" ] || fail "no _exit in the nosys build"
for engine in auto insn; do
  rc=0
  timeout 60 "$citcat" capture "$t/a.elf" -o "$t/a.cat" --engine "$engine" -q >/dev/null 2>"$t/err" || rc=$?
  [ $rc -eq 2 ] || fail "$engine: exit $rc (want 2; 124 is the timeout: it spun): $(cat "$t/err")"
  grep -q "spins at 0x$exit_pc before any trace start point" "$t/err" && grep -q "BSP" "$t/err" &&
    grep -q "examples/README.md" "$t/err" || fail "$engine: message: $(cat "$t/err")"
  [ ! -e "$t/a.cat" ] || fail "$engine: a CAT was left behind"
done
"${prefix}gcc" -mcpu=cortex-m7 -mthumb -O2 --specs=nosys.specs "$t/hello.c" -o "$t/m.elf" 2>"$t/cc.err" ||
  fail "M7 nosys build: $(cat "$t/cc.err")"
expect 2 "examples/bsp-m7" "$citcat" capture "$t/m.elf" -o "$t/m.cat" -q
finish nosys_spin
