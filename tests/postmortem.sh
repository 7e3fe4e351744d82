#!/bin/bash
# Post-mortem traces (issue 12, section 1): a capture that ends abnormally
# closes a valid CAT and oracle with its stop reason and exits 3; ims, aes
# and replay accept them and reproduce the run up to its end exactly
# (verified against the CAT and the oracle, and byte for byte); the itrace
# and the listing end with the faulting instruction and the fault.
# The expected fault PCs come from the ELF's symbols (arm-none-eabi-nm), the
# addresses from the firmware's source (tests/firmware/crash.c).
# usage: postmortem.sh SECTION CITCAT FIRMWARE_DIR [NM]
. "$(dirname "$0")/testlib.sh"
section=$1 C=$2 FW=$3 NM=${4:-arm-none-eabi-nm}
export CITCAT_NO_PROGRESS=1

# sym ELF NAME: the address of NAME as 0x%08x
sym() { printf '0x%08x' "0x$("$NM" "$1" | awk -v n="$2" '$3 == n { print $1 }')"; }

# pipeline STEM REASON: the CAT and oracle at $t/STEM.{cat,oracle} have stop
# REASON; extract, replay with --verify and --oracle, the replayed itrace
# equals the oracle byte for byte; writes the listing to $t/STEM.txt.
pipeline() {
  local s=$t/$1
  "$C" info --json "$s.cat" >"$s.json" 2>"$t/err" || fail "$1: info: $(cat "$t/err")"
  grep -q "\"stop\": \"$2\"" "$s.json" || fail "$1: info --json lacks stop $2: $(cat "$s.json")"
  "$C" ims "$s.cat" -o "$s.ims" 2>"$t/err" || fail "$1: ims: $(cat "$t/err")"
  "$C" aes "$s.cat" -o "$s.aes" 2>"$t/err" || fail "$1: aes: $(cat "$t/err")"
  "$C" replay "$s.ims" "$s.aes" -o "$s.itrace" --verify "$s.cat" --oracle "$s.oracle" 2>"$t/err" ||
    fail "$1: replay: $(cat "$t/err")"
  cmp -s "$s.itrace" "$s.oracle" || fail "$1: the replayed itrace differs from the oracle"
  "$C" convert "$s.itrace" -o "$s.txt" --to text 2>"$t/err" || fail "$1: listing: $(cat "$t/err")"
}

# fault STEM ELF KIND_NAME: captures ELF, expecting exit 3 and a fault
# message; runs the pipeline; prints the fault PC
capture_abnormal() {
  local stem=$1 elf=$2
  shift 2
  "$C" capture "$elf" -o "$t/$stem.cat" --oracle "$t/$stem.oracle" --seed 1 "$@" >"$t/$stem.uart" 2>"$t/$stem.err"
  local rc=$?
  [ "$rc" -eq 3 ] || fail "$stem: capture exited $rc, expected 3: $(cat "$t/$stem.err")"
}

# last_lines STEM PC STOPLINE: the listing's last line is STOPLINE and the
# one before it the instruction at PC
last_lines() {
  local txt=$t/$1.txt pcx=${2#0x}
  tail -n 1 "$txt" | grep -q -- "$3" || fail "$1: listing's last line: $(tail -n 1 "$txt"), expected '$3'"
  tail -n 2 "$txt" | head -n 1 | grep -q "  $pcx  " || fail "$1: listing's last instruction: $(tail -n 2 "$txt" | head -n 1), expected pc $pcx"
}

case "$section" in
wild)
  pc=$(sym "$FW/crash_wild.elf" crash_pc)
  capture_abnormal wild "$FW/crash_wild.elf"
  # the PC is named function+offset (file:line) from the ELF's symbols and DWARF
  grep -q "fault at $pc main+0x[0-9a-f]* (crash.c:[0-9]*): bus error (read of an unmapped address), address 0x30000000" "$t/wild.err" ||
    fail "wild: message: $(cat "$t/wild.err")"
  grep -q "crash 1" "$t/wild.uart" || fail "wild: UART output lost: $(cat "$t/wild.uart")"
  pipeline wild fault
  grep -q "\"fault\": \"bus error (read of an unmapped address)\", \"fault_pc\": $((pc)), \"fault_addr\": $((0x30000000))" \
    "$t/wild.json" || fail "wild: info --json: $(cat "$t/wild.json")"
  last_lines wild "$pc" "fault at $pc: bus error (read of an unmapped address), address 0x30000000"
  # dump shows the fault as the itrace's last record, named from the ELF
  "$C" dump --elf "$FW/crash_wild.elf" "$t/wild.itrace" | tail -n 1 |
    grep -q "^[0-9]* stop insn=[0-9]* pc=$pc line=3 accesses=fault1@0x30000000 func=main+0x[0-9a-f]* src=crash.c:[0-9]*\$" ||
    fail "wild: dump --elf: $("$C" dump --elf "$FW/crash_wild.elf" "$t/wild.itrace" | tail -n 1)"
  # the last instruction is the load itself, with no access (it faulted)
  tail -n 2 "$t/wild.txt" | head -n 1 | grep -q "ldr.*\[r1\]$" || fail "wild: $(tail -n 2 "$t/wild.txt")"
  # a tampered END (another fault address) is a divergence, not a pass
  "$C" info "$t/wild.itrace" >"$t/info" || fail "wild: itrace info"
  grep -q "ended by  *bus error (read of an unmapped address) at $pc" "$t/info" || fail "wild: itrace info: $(cat "$t/info")"
  finish postmortem_wild
  ;;
stack)
  capture_abnormal stack "$FW/crash_stack.elf"
  grep -q "fault at 0x[0-9a-f]* dive+0x[0-9a-f]* (crash.c:[0-9]*): bus error (write to an unmapped address), address 0xffffff[0-9a-f][0-9a-f]" "$t/stack.err" ||
    fail "stack: message: $(cat "$t/stack.err")"
  pipeline stack fault
  # the faulting push lies in dive()
  pc=$(sed -n 's/.*fault at \(0x[0-9a-f]*\) .*/\1/p' "$t/stack.err")
  read -r start size < <("$NM" -S "$FW/crash_stack.elf" | awk '$4 == "dive" { print "0x" $1, "0x" $2 }')
  [ -n "$start" ] && [ $((pc)) -ge $((start)) ] && [ $((pc)) -lt $((start + size)) ] ||
    fail "stack: fault pc $pc is not in dive ($start + $size)"
  last_lines stack "$pc" "fault at $pc: bus error (write to an unmapped address), address 0xffffff"
  finish postmortem_stack
  ;;
undef)
  pc=$(sym "$FW/crash_undef.elf" crash_pc)
  capture_abnormal undef "$FW/crash_undef.elf"
  grep -q "fault at $pc [a-z_]*+0x[0-9a-f]* (crash.c:[0-9]*): undefined instruction, address 0x00000000" "$t/undef.err" || fail "undef: message: $(cat "$t/undef.err")"
  pipeline undef fault
  last_lines undef "$pc" "fault at $pc: undefined instruction"
  tail -n 2 "$t/undef.txt" | head -n 1 | grep -q "e7f000f0" || fail "undef: $(tail -n 2 "$t/undef.txt")"
  finish postmortem_undef
  ;;
devjump)
  # a call into the device window (mapped, not executable): a bus error of
  # the fetch at the call's target, the call the last instruction; both
  # replay engines reproduce it
  pc=$(sym "$FW/crash_devjump.elf" crash_pc)
  capture_abnormal devjump "$FW/crash_devjump.elf"
  grep -q "fault at 0x40000040: bus error (instruction fetch outside RAM), address 0x40000040" "$t/devjump.err" ||
    fail "devjump: message: $(cat "$t/devjump.err")"
  pipeline devjump fault
  last_lines devjump "$pc" "fault at 0x40000040: bus error (instruction fetch outside RAM)"
  for e in insn block; do
    "$C" replay "$t/devjump.ims" "$t/devjump.aes" -o "$t/devjump.$e.itrace" --verify "$t/devjump.cat" --engine $e \
      2>"$t/err" || fail "devjump: replay --engine $e: $(cat "$t/err")"
    cmp -s "$t/devjump.$e.itrace" "$t/devjump.oracle" || fail "devjump: --engine $e: the itrace differs from the oracle"
  done
  finish postmortem_devjump
  ;;
limit)
  # a hang stopped by --max-insns (with a suffix): exit 0, stop insn-limit
  pc=$(sym "$FW/crash_hang.elf" crash_pc)
  "$C" capture "$FW/crash_hang.elf" -o "$t/lim.cat" --oracle "$t/lim.oracle" --seed 1 --max-insns 1M \
    >/dev/null 2>"$t/err" || fail "limit: capture: $(cat "$t/err")"
  grep -q "instruction limit after 1000000 instructions" "$t/err" || fail "limit: $(cat "$t/err")"
  pipeline lim insn-limit
  tail -n 1 "$t/lim.txt" | grep -q "  ${pc#0x}  " || fail "limit: last line $(tail -n 1 "$t/lim.txt")"
  finish postmortem_limit
  ;;
sigint)
  # a hang stopped by SIGINT: exit 3, a valid trace ending "interrupted"
  pc=$(sym "$FW/crash_hang.elf" crash_pc)
  mkdir "$t/s"
  "$C" capture "$FW/crash_hang.elf" -o "$t/s/int.cat" --oracle "$t/s/int.oracle" --seed 1 >/dev/null 2>"$t/int.err" &
  pid=$! i=0
  while ! ls "$t"/s/int.cat* >/dev/null 2>&1 && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  sleep 0.5
  kill -INT $pid
  wait $pid
  rc=$?
  [ "$rc" -eq 3 ] || fail "sigint: capture exited $rc, expected 3: $(cat "$t/int.err")"
  grep -q "interrupted after [0-9]* instructions, at $pc" "$t/int.err" || fail "sigint: $(cat "$t/int.err")"
  mv "$t/s/int.cat" "$t/int.cat" && mv "$t/s/int.oracle" "$t/int.oracle" || fail "sigint: outputs missing: $(ls "$t/s")"
  pipeline int interrupted
  tail -n 1 "$t/int.txt" | grep -q -- "-- *interrupted at $pc" || fail "sigint: last line $(tail -n 1 "$t/int.txt")"
  tail -n 2 "$t/int.txt" | head -n 1 | grep -q "  ${pc#0x}  " || fail "sigint: $(tail -n 2 "$t/int.txt")"
  finish postmortem_sigint
  ;;
exit)
  # the firmware's exit value: in info --json, and as the status with --exit-status
  "$C" capture "$FW/crash_exit7.elf" -o "$t/e.cat" --seed 1 -q >/dev/null 2>"$t/err" || fail "exit: capture exited $?"
  [ -s "$t/err" ] && fail "exit: -q printed: $(cat "$t/err")"
  "$C" capture "$FW/crash_exit7.elf" -o "$t/e.cat" --seed 1 -q --exit-status >/dev/null 2>"$t/err"
  rc=$?
  [ "$rc" -eq 7 ] || fail "exit: --exit-status exited $rc, expected 7"
  "$C" info --json "$t/e.cat" >"$t/j" || fail "exit: info"
  # the nominal clock (TARGET.md, CLOCK_HZ): the default, and --clock-hz
  "$C" capture "$FW/crash_exit7.elf" -o "$t/e.cat" --seed 1 -q >"$t/uart" 2>/dev/null
  grep -q "^clock 100000000$" "$t/uart" || fail "exit: default clock: $(cat "$t/uart")"
  "$C" capture "$FW/crash_exit7.elf" -o "$t/k.cat" --oracle "$t/k.oracle" --seed 1 -q --clock-hz 25M >"$t/uart" 2>/dev/null
  grep -q "^clock 25000000$" "$t/uart" || fail "exit: --clock-hz 25M: $(cat "$t/uart")"
  expect 2 "bad clock '0'" "$C" capture "$FW/crash_exit7.elf" -o "$t/k2.cat" --clock-hz 0
  pipeline k exit
  grep -q '"stop": "exit", "exit_value": 7' "$t/j" || fail "exit: info --json: $(cat "$t/j")"
  finish postmortem_exit
  ;;
cli)
  # rough edges of the CLI (issue 12, section 6)
  expect 2 "'captre' is not a citcat command. Did you mean 'capture'?" "$C" captre
  expect 2 "'xyzzy' is not a citcat command." "$C" xyzzy
  grep -q "Did you mean" "$t/err" && fail "cli: a suggestion for xyzzy: $(cat "$t/err")"
  "$C" capture "$FW/crash_hang.elf" --seed=1 -o "$t/c.cat" --max-insns=2K -q >/dev/null 2>"$t/err" ||
    fail "cli: --opt=value: $(cat "$t/err")"
  "$C" info --json "$t/c.cat" | grep -q '"instructions": [0-9]*, .*"stop": "insn-limit"' || fail "cli: --max-insns=2K"
  expect 2 "bad instruction count '2X'" "$C" capture "$FW/crash_hang.elf" --seed 1 -o "$t/d.cat" --max-insns 2X
  expect 2 "bad instruction count '20000000000000000000K'" "$C" capture "$FW/crash_hang.elf" --seed 1 -o "$t/d.cat" \
    --max-insns 20000000000000000000K
  expect 2 "nothing.cat: cannot open: No such file or directory" "$C" info "$t/nothing.cat"
  expect 2 ": cannot read: Is a directory" "$C" info "$t"
  "$C" info - <"$t/c.cat" | grep -q "^-: cache-filtered address trace" || fail "cli: info -"
  echo hi | "$C" capture "$FW/crash_exit7.elf" --seed 1 --uart-in - -o "$t/u.cat" -q >/dev/null 2>"$t/err" ||
    fail "cli: --uart-in -: $(cat "$t/err")"
  finish postmortem_cli
  ;;
*)
  echo "unknown section $section"
  exit 2
  ;;
esac
