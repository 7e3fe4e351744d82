#!/bin/bash
# citcat gdb with the real client: gdb-multiarch in batch mode, connected
# through `target remote | citcat gdb --stdio RUN.cat --elf FW.elf`, on
# firmware captured here (tests/firmware/gdbcrash.c, the crc32 example).
# The expected values are stated by hand from the firmware's source
# (gdbcrash.c's head comment: 1000, 7, 6327, 0x30000020, 0x30000000,
# 0x30000001, the functions), and the instants and PCs the stops land on
# are checked against the oracle itrace of the same capture (citcat dump).
#
# usage: gdb.sh SECTION TARGET CITCAT GDB FW_DIR [EXAMPLE_ELF] [EDIT_TOOL]
# (TARGET: arm, thumb or m7; - for exit and bad)
#   basic arm|thumb|m7   break on a function, continue, bt, info locals;
#                        stepi 1000 and reverse-stepi 1000 to the same
#                        registers; continue to the crash; reverse-continue
#                        from the end to the breakpoint
#   wild arm|thumb|m7    a wild pointer: the fault's signal at the faulting
#                        instruction; watch the pointer, reverse-continue to
#                        the instruction that wrote it
#   stack arm|thumb|m7   a smashed stack: the same for the return address
#   events arm|m7        monitor events, monitor event K at an interrupt
#                        handler's first instruction, a step into a
#                        handler, a watchpoint on a DMA buffer (EXAMPLE_ELF:
#                        crc32)
#   signals              an undefined instruction (SIGILL), a hang stopped by
#                        --max-insns (SIGTRAP) (FW_DIR: tests/firmware/crash.c's)
#   interrupt            Ctrl-C: GDB's SIGINT (sent to gdb-multiarch by a
#                        timer started when the target resumes) interrupts a
#                        long continue and a long reverse-continue in the
#                        middle of a hang stopped by --max-insns (FW_DIR as
#                        for signals)
#   exit                 the end of a run that exited: no more history, then
#                        the exit status
#   bad                  a CAT that does not replay, an ELF of another build,
#                        a replay that diverges (EXAMPLE_ELF: crc32_m7,
#                        EDIT_TOOL: tests/m7rep_edit)
. "$(dirname "$0")/testlib.sh"
section=$1 what=$2 C=$3 GDB=$4 FW=$5 EX=${6:-} EDIT=${7:-}
export CITCAT_NO_PROGRESS=1

case $what in
arm) suffix= ;;
thumb) suffix=_thumb ;;
m7) suffix=_m7 ;;
*) suffix= ;;
esac

# capture NAME ELF WANT: the CAT and oracle in $t/NAME.*, the oracle dumped
capture() {
  local rc=0
  "$C" capture "$2" -o "$t/$1.cat" --oracle "$t/$1.itrace" --seed 1 -q >"$t/$1.uart" 2>"$t/$1.err" || rc=$?
  [ "$rc" -eq "$3" ] || { fail "$1: capture exited $rc, expected $3: $(cat "$t/$1.err")"; finish "gdb_${section}_$what"; }
  "$C" dump "$t/$1.itrace" >"$t/$1.dump" || fail "$1: dump"
}

# run NAME TARGET_ARGS COMMANDS...: gdb-multiarch on the ELF of the last
# argument pair, output (stdout and stderr) in $t/NAME.out
run() {
  local n=$1 elf=$2 args=$3
  shift 3
  {
    echo "set pagination off"
    echo "set confirm off"
    echo "set width 0"
    echo "target remote | $C gdb --stdio $args"
    printf '%s\n' "$@"
  } >"$t/$n.gdb"
  timeout 300 "$GDB" -nx -batch -x "$t/$n.gdb" "$elf" >"$t/$n.out" 2>&1
}

has() { grep -q -- "$2" "$t/$1.out" || fail "$1: no '$2' in the session: $(tail -n 25 "$t/$1.out")"; }
# the Nth 'monitor when' instant of session NAME
instant() { grep -o 'instant [0-9]* of' "$t/$1.out" | sed -n "${2}p" | tr -dc 0-9; }
# the Nth 'pc' register value shown
pcval() { grep -o '^pc  *0x[0-9a-f]*' "$t/$1.out" | sed -n "${2}p" | awk '{ print $2 }'; }
hex8() { printf '0x%08x' $(($1)); }
# first / last instruction index at PC in the oracle
first_at() { awk -v p="pc=$(hex8 "$2")" '$2 == "insn" && $4 == p { sub("insn=", "", $3); print $3; exit }' "$t/$1.dump"; }
last_at() { awk -v p="pc=$(hex8 "$2")" '$2 == "insn" && $4 == p { sub("insn=", "", $3); k = $3 } END { print k }' "$t/$1.dump"; }
# the last instruction writing the byte at ADDR: "INDEX PC"
last_write() {
  awk -v a=$(($2)) '
    function h(s,   i, v) { s = tolower(substr(s, 3)); v = 0
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v }
    $2 == "insn" {
      for (i = 5; i <= NF; i++) if ($i ~ /^accesses=/) {
        n = split(substr($i, 10), acc, ";")
        for (j = 1; j <= n; j++) if (acc[j] ~ /^w/) {
          split(acc[j], f, "[@=]"); sz = substr(f[1], 2) + 0; ad = h(f[2])
          if (ad <= a && a < ad + sz) { sub("insn=", "", $3); k = $3; p = $4 }
        }
      }
    }
    END { sub("pc=", "", p); print k, p }' "$t/$1.dump"
}
sym() { "${NM:-arm-none-eabi-nm}" "$1" | awk -v s="$2" '$3 == s { print "0x" $1; exit }'; }

case $section in
basic)
  n=gdbcrash1$suffix elf=$FW/gdbcrash1$suffix.elf
  capture "$n" "$elf" 3
  sig=SIGSEGV
  [ "$what" = m7 ] && sig=SIGBUS
  run s "$elf" "$t/$n.cat --elf $elf" "break report" "continue" "bt" "up" "info locals" "down" \
    "echo ==A==\n" "info registers" "echo ==A==\n" "stepi 1000" "info registers pc" "reverse-stepi 1000" \
    "echo ==B==\n" "info registers" "echo ==B==\n" "monitor when" "continue" "reverse-continue" "monitor when"
  has s "Breakpoint 1, report (code=[a-z@=]*1, value=6327)"
  has s "^#0  report (code=[a-z@=]*1, value=6327)"
  has s "^#1  0x[0-9a-f]* in main ()"
  has s "^base = 1000$"
  has s "^step = 7$"
  has s "^w = 6327$"
  a=$(sed -n '/^==A==/,/^==A==/p' "$t/s.out" | grep -v '==A==')
  b=$(sed -n '/^==B==/,/^==B==/p' "$t/s.out" | grep -v '==B==')
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "registers after stepi 1000 and reverse-stepi 1000 differ: $(diff <(echo "$a") <(echo "$b"))"
  [ "$(grep -c '^r[0-9]' <<<"$a")" -eq 13 ] || fail "info registers: $a"
  [ "$what" != m7 ] || grep -q '^xpsr' <<<"$a" && grep -q '^msp' <<<"$a" && grep -q '^primask' <<<"$a" &&
    grep -q '^control' <<<"$a" || [ "$what" != m7 ] || fail "M7 registers: $a"
  [ "$what" = m7 ] || grep -q '^cpsr' <<<"$a" || fail "cpsr: $a"
  [ "$(pcval s 1)" != "$(pcval s 2)" ] || fail "stepi 1000 did not move: $(pcval s 1)"
  has s "Program received signal $sig"
  grep -A3 'reverse-continue\|Program received' "$t/s.out" | grep -q "Breakpoint 1, report" || has s "Breakpoint 1, report"
  bp=$(sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\):.*/\1/p' "$t/s.out")
  [ -n "$bp" ] || fail "no breakpoint address"
  f=$(first_at "$n" "$bp") l=$(last_at "$n" "$bp")
  [ "$(instant s 1)" = "$f" ] || fail "continue stopped at instant $(instant s 1), the oracle's first $bp is $f"
  [ "$(instant s 2)" = "$l" ] || fail "reverse-continue stopped at instant $(instant s 2), the oracle's last $bp is $l"
  # reverse-finish, reverse-next and reverse-step by source lines: main()
  # calls report() on line 94 (report(1, w);), line 95 comes next, report's
  # body is line 59
  run r "$elf" "$t/$n.cat --elf $elf" "break report" "continue" "reverse-finish" "delete" "echo ==1==\n" "next" \
    "echo ==2==\n" "reverse-next" "echo ==3==\n" "step" "echo ==4==\n" "reverse-step" "echo ==5==\n" "step" \
    "echo ==6==\n" "finish" "echo ==7==\n"
  line_after() { sed -n "/^==$1==/,/^==/p" "$t/r.out" | grep -o '^[0-9][0-9]*	' | head -n 1 | tr -dc 0-9; }
  sed -n '/^Breakpoint 1, report/,/^==1==/p' "$t/r.out" | grep -q "^0x[0-9a-f]* in main () at .*:94$" ||
    fail "reverse-finish did not return to main, line 94: $(cat "$t/r.out")"
  [ "$(line_after 1)" = 95 ] || fail "next: line $(line_after 1), want 95"
  [ "$(line_after 2)" = 94 ] || fail "reverse-next: line $(line_after 2), want 94"
  [ "$(line_after 3)" = 59 ] || fail "step: line $(line_after 3), want 59 (in report)"
  [ "$(line_after 4)" = 94 ] || fail "reverse-step: line $(line_after 4), want 94"
  [ "$(line_after 5)" = 59 ] || fail "step again: line $(line_after 5), want 59"
  sed -n '/^==6==/,/^==7==/p' "$t/r.out" | grep -Eq "main \(\) at .*:9[45]$" || fail "finish: $(tail -n 8 "$t/r.out")"
  # device registers (the UART's data register) and the M7's SCS (CFSR)
  # have no replayable value: an error, no device touched
  dev=0x40000400
  [ "$what" = m7 ] && dev=0xe000ed28
  run d "$elf" "$t/$n.cat --elf $elf" "x/wx $dev"
  has d "Cannot access memory at address $dev"
  ;;
wild | stack)
  k=1
  [ "$section" = stack ] && k=2
  n=gdbcrash$k$suffix elf=$FW/gdbcrash$k$suffix.elf
  capture "$n" "$elf" 3
  sig=SIGSEGV
  [ "$what" = m7 ] && sig=SIGBUS
  stop=$(awk '$2 == "stop" { sub("pc=", "", $4); print $4 }' "$t/$n.dump")
  if [ $section = wild ]; then
    run s "$elf" "$t/$n.cat --elf $elf" "continue" "info registers pc" "bt" "print rec.out" "print &rec.out" \
      "watch rec.out" "reverse-continue" "info registers pc" "monitor when"
    has s "in store_result (v=6327)"
    has s '= (uint32_t \*) 0x30000020$'
    has s "Old value = (uint32_t \*) 0x30000020$"
    has s "New value = (uint32_t \*) 0x[0-9a-f]* <result>$"
    has s "in collect ("
    addr=$(sed -n 's/^\$[0-9]* = (uint32_t \*\*) \(0x[0-9a-f]*\) <rec+32>$/\1/p' "$t/s.out")
    [ -n "$addr" ] || fail "the address of rec.out: $(grep '<rec' "$t/s.out")"
    # a read watchpoint: backwards from the fault, the last read of rec.out
    # is store_result's load of the pointer, just before the faulting store
    run rw "$elf" "$t/$n.cat --elf $elf" "continue" "rwatch rec.out" "reverse-continue" "info registers pc" "monitor when"
    has rw "Hardware read watchpoint 1: rec.out"
    has rw "Value = (uint32_t \*) 0x30000020$"
    has rw "in store_result (v=6327)"
    read -r ridx rpc < <(awk -v a=$((addr)) '
      function h(s,   i, v) { s = tolower(substr(s, 3)); v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
      $2 == "insn" { for (i = 5; i <= NF; i++) if ($i ~ /^accesses=/) {
        n = split(substr($i, 10), acc, ";")
        for (j = 1; j <= n; j++) if (acc[j] ~ /^r/) { split(acc[j], f, "[@=]"); if (h(f[2]) == a) { sub("insn=", "", $3); k = $3; p = $4 } } } }
      END { sub("pc=", "", p); print k, p }' "$t/$n.dump")
    [ "$(pcval rw 1)" = "$(printf 0x%x $((rpc)))" ] || fail "rwatch: reverse-continue stopped at pc $(pcval rw 1), the last read of $addr is at $rpc"
    [ "$(instant rw 1)" = "$ridx" ] || fail "rwatch: instant $(instant rw 1), the last read is instruction $ridx"
  else
    run s "$elf" "$t/$n.cat --elf $elf" "continue" "info registers pc" "print/x \$sp - 4" \
      "x/wx \$sp - 4" "watch -l *(unsigned *)(\$sp - 4)" "reverse-continue" "info registers pc" "bt" "monitor when"
    has s "0x30000000 in ?? ()"
    has s ":	0x30000001$"
    has s "Old value = 805306369$"
    has s "in parse ()"
    addr=$(sed -n 's/^\$[0-9]* = \(0x[0-9a-f]*\)$/\1/p' "$t/s.out" | head -n 1)
    [ -n "$addr" ] || fail "\$sp - 4: $(grep '^\$' "$t/s.out")"
    stop=0x30000000
  fi
  has s "Program received signal $sig"
  [ "$(pcval s 1)" = "$(printf 0x%x $((stop)))" ] || fail "the fault: pc $(pcval s 1), the oracle's end is at $stop"
  read -r idx wpc < <(last_write "$n" "$addr")
  [ -n "$idx" ] || fail "no write to $addr in the oracle"
  [ "$(pcval s 2)" = "$(printf 0x%x $((wpc)))" ] || fail "reverse-continue stopped at pc $(pcval s 2), the last write to $addr is at $wpc"
  [ "$(instant s 1)" = "$idx" ] || fail "reverse-continue stopped at instant $(instant s 1), the last write to $addr is instruction $idx"
  ;;
events)
  n=ev$suffix
  capture "$n" "$EX" 0
  "$C" aes "$t/$n.cat" -o "$t/$n.aes" 2>/dev/null || fail "aes"
  "$C" dump "$t/$n.aes" >"$t/$n.aesdump"
  # the first interrupt of the AES, its instant and handler in the oracle:
  # the instruction after the oracle's irq record of the same EPC
  k=$(awk '$2 == "irq" { print $1; exit }' "$t/$n.aesdump")
  epc=$(awk '$2 == "irq" { sub("pc=", "", $5); print $5; exit }' "$t/$n.aesdump")
  read -r irq_at handler < <(awk -v e="pc=$epc" '$2 == "irq" && $4 == e { sub("insn=", "", $3); at = $3; next }
    at != "" && $2 == "insn" { sub("pc=", "", $4); print at, $4; exit }' "$t/$n.dump")
  # the first DMA transfer no instruction wrote before (its instant: insn=)
  read -r dma_at dma_addr < <(awk '$2 == "insn" && /accesses=.*w/ { w = w " " $0 } $2 == "dma" { sub("insn=", "", $3); sub("pc=", "", $4); print $3, $4; exit }' "$t/$n.dump")
  [ -n "$k" ] && [ -n "$irq_at" ] && [ -n "$dma_at" ] || fail "no interrupt or DMA in the run: k=$k irq=$irq_at dma=$dma_at"
  run s "$EX" "$t/$n.cat --elf $EX" "monitor events 0 2000" "monitor event $k" "maintenance flush register-cache" \
    "info registers pc" "monitor when" "monitor goto $((irq_at - 1))" "maintenance flush register-cache" "stepi" \
    "info registers pc" "monitor goto 0" "maintenance flush register-cache" "watch -l *(unsigned *)$dma_addr" \
    "continue" "monitor when"
  grep -q "^  #$k  *insn $irq_at  *irq" "$t/s.out" || fail "monitor events: event #$k is not an interrupt at instant $irq_at: $(grep "#$k " "$t/s.out")"
  grep -q "insn $dma_at  *dma  *[0-9]* bytes to $dma_addr" "$t/s.out" || fail "monitor events: no DMA to $dma_addr at instant $dma_at"
  [ "$(pcval s 1)" = "$(printf 0x%x $((handler)))" ] || fail "monitor event $k: pc $(pcval s 1), the handler's first instruction is $handler"
  [ "$(instant s 1)" = "$irq_at" ] && [ "$(instant s 2)" = "$irq_at" ] ||
    fail "monitor event $k: instant $(instant s 2), the oracle has it at $irq_at"
  [ "$(pcval s 2)" = "$(printf 0x%x $((handler)))" ] || fail "stepi into the interrupt: pc $(pcval s 2), the handler's first instruction is $handler"
  has s "^cycle: not in the IMS and AES"
  has s "Hardware watchpoint 1: -location"
  has s "New value = "
  # 'monitor event' and 'goto' print the instant too: the last one is the watchpoint's
  [ "$(instant s 5)" = "$dma_at" ] || fail "the watchpoint on the DMA buffer stopped at instant $(instant s 5), the transfer is at $dma_at"
  ;;
signals)
  # tests/firmware/crash.c (FW_DIR: where postmortem.cmake built it): an
  # undefined instruction (UDF #0 at crash_pc) is SIGILL, a hang (b . at
  # crash_pc) stopped by --max-insns is SIGTRAP; both at crash_pc
  capture undef "$FW/crash_undef.elf" 3
  pc=$(sym "$FW/crash_undef.elf" crash_pc)
  run u "$FW/crash_undef.elf" "$t/undef.cat --elf $FW/crash_undef.elf" "continue" "info registers pc" "continue"
  has u "Program received signal SIGILL, Illegal instruction."
  [ "$(pcval u 1)" = "$(printf 0x%x $((pc)))" ] || fail "SIGILL at pc $(pcval u 1), crash_pc is $pc"
  has u "No more reverse-execution history."
  "$C" capture "$FW/crash_hang.elf" -o "$t/hang.cat" --seed 1 --max-insns 200K -q >/dev/null 2>"$t/err" ||
    fail "hang: capture: $(cat "$t/err")"
  pc=$(sym "$FW/crash_hang.elf" crash_pc)
  run h "$FW/crash_hang.elf" "$t/hang.cat --elf $FW/crash_hang.elf" "continue" "info registers pc" "continue"
  has h "Program received signal SIGTRAP"
  has h "the recording ends here: insn-limit"
  [ "$(pcval h 1)" = "$(printf 0x%x $((pc)))" ] || fail "SIGTRAP at pc $(pcval h 1), crash_pc is $pc"
  has h "No more reverse-execution history."
  ;;
interrupt)
  # a 30M-instruction hang (b . at crash_pc, tests/firmware/crash.c): a
  # continue from the start or a reverse-continue from the end takes well
  # over a second, and nothing but Ctrl-C stops it before the other end.
  # The SIGINT goes to gdb-multiarch 0.3 s after it resumed the target (the
  # python timer below, as a terminal's Ctrl-C would); GDB sends 0x03 on the
  # remote connection.  A server that ignored 0x03 would run to the end
  # (SIGTRAP, instant = the length) and to the start (no more history).
  "$C" capture "$FW/crash_hang.elf" -o "$t/hang.cat" --seed 1 --max-insns 30M -q >/dev/null 2>"$t/err" ||
    fail "hang: capture: $(cat "$t/err")"
  len=$("$C" info "$t/hang.cat" | sed -n 's/^  trace .* \([0-9]*\) instructions,.*/\1/p')
  cat >"$t/ctrlc.py" <<'PY'
import gdb, os, signal, threading
_delay = [None]
def _on_cont(ev):
    d, _delay[0] = _delay[0], None
    if d is not None:
        threading.Timer(d, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
gdb.events.cont.connect(_on_cont)
def ctrl_c_after(d):
    """Ctrl-C D seconds after the next resumption of the target."""
    _delay[0] = d
PY
  run i "$FW/crash_hang.elf" "$t/hang.cat --elf $FW/crash_hang.elf" "source $t/ctrlc.py" \
    "python ctrl_c_after(0.3)" "continue" "monitor when" "stepi" "monitor when" \
    "continue" "monitor when" "python ctrl_c_after(0.3)" "reverse-continue" "monitor when" "reverse-stepi" "monitor when"
  [ "$(grep -c 'Program received signal SIGINT, Interrupt.' "$t/i.out")" -eq 2 ] ||
    fail "two interrupts: $(cat "$t/i.out")"
  i1=$(instant i 1) i2=$(instant i 2) e=$(instant i 3) i3=$(instant i 4) i4=$(instant i 5)
  [ -n "$len" ] && [ "$e" = "$len" ] || fail "the end: instant $e, info says $len instructions"
  [ -n "$i1" ] && [ "$i1" -gt 0 ] && [ "$i1" -lt "$len" ] || fail "continue interrupted at instant $i1 of $len"
  [ "$i2" = $((i1 + 1)) ] || fail "stepi after the interrupt: $i1 -> $i2"
  [ -n "$i3" ] && [ "$i3" -gt 0 ] && [ "$i3" -lt "$len" ] || fail "reverse-continue interrupted at instant $i3 of $len"
  [ "$i4" = $((i3 - 1)) ] || fail "reverse-stepi after the interrupt: $i3 -> $i4"
  ! grep -q "No more reverse-execution history" "$t/i.out" || fail "reverse-continue reached the start: $(cat "$t/i.out")"
  ;;
exit)
  n=gdbcrash0 elf=$FW/gdbcrash0.elf
  capture "$n" "$elf" 0
  run s "$elf" "$t/$n.cat --elf $elf" "continue" "monitor when" "continue"
  has s "the firmware exited with status 3"
  has s "No more reverse-execution history."
  has s "exited with code 03"
  # with timestamps, 'when' gives the cycles of the events around the
  # instant: at the end, from the last event to the STOP's cycle count
  "$C" capture "$elf" -o "$t/ts.cat" --timestamps --seed 1 -q >/dev/null 2>&1 || fail "capture --timestamps"
  run c "$elf" "$t/ts.cat --elf $elf" "monitor when" "continue" "monitor when"
  cyc=$(sed -n 's/.*, \([0-9]*\) cycles, stopped by exit.*/\1/p' <("$C" info "$t/ts.cat"))
  [ -n "$cyc" ] && grep -q "^cycle between [0-9]* and $cyc " "$t/c.out" || fail "cycles at the end (info: $cyc): $(grep cycle "$t/c.out")"
  # backwards from the end to the start of the history, no breakpoint
  run b "$elf" "$t/$n.cat --elf $elf" "continue" "reverse-continue" "monitor when" "monitor checkpoints"
  [ "$(grep -c "No more reverse-execution history." "$t/b.out")" -eq 2 ] || fail "the two ends: $(cat "$t/b.out")"
  [ "$(instant b 1)" = 0 ] || fail "reverse-continue to the start: instant $(instant b 1)"
  has b "^snapshot budget 268435456 bytes, [0-9]* used"
  has b "^[0-9]* snapshots kept, instants 0\.\.[0-9]*"
  [ "$(instant s 1)" = "$(awk '$2 == "insn" { n++ } END { print n }' "$t/$n.dump")" ] || fail "the end: instant $(instant s 1)"
  # over TCP (--port 0: a free port, named on stderr): one client, then the
  # command exits 0
  "$C" gdb "$t/$n.cat" --elf "$elf" --port 0 2>"$t/port.err" &
  srv=$!
  for _ in $(seq 100); do grep -q 'listening on' "$t/port.err" && break; sleep 0.1; done
  port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\);.*/\1/p' "$t/port.err")
  [ -n "$port" ] || fail "--port 0: $(cat "$t/port.err")"
  printf '%s\n' "set pagination off" "target remote 127.0.0.1:$port" "continue" "detach" >"$t/tcp.gdb"
  timeout 120 "$GDB" -nx -batch -x "$t/tcp.gdb" "$elf" >"$t/tcp.out" 2>&1
  grep -q "the firmware exited with status 3" "$t/tcp.out" || fail "over TCP: $(cat "$t/tcp.out")"
  wait $srv || fail "citcat gdb --port exited $?"
  ;;
bad)
  n=gdbcrash1 elf=$FW/gdbcrash1.elf
  capture "$n" "$elf" 3
  "$C" ims "$t/$n.cat" -o "$t/$n.ims" 2>/dev/null && "$C" aes "$t/$n.cat" -o "$t/$n.aes" 2>/dev/null || fail "extract"
  # a CAT that does not replay: cut short, it is not even a CAT any more
  head -c 3000 "$t/$n.cat" >"$t/cut.cat"
  expect 2 "cut.cat" timeout 60 "$C" gdb --stdio "$t/cut.cat"
  ! grep -q '^\$' "$t/stdout" || fail "a packet was sent for a bad CAT: $(cat "$t/stdout")"
  # an IMS and an AES of two captures
  capture other "$FW/gdbcrash2.elf" 3
  "$C" aes "$t/other.cat" -o "$t/other.aes" 2>/dev/null
  expect 2 "come from different captures" timeout 60 "$C" gdb --stdio "$t/$n.ims" "$t/other.aes"
  # through GDB, the session ends with the reason
  run s "$elf" "$t/cut.cat" "info registers pc"
  has s "cut.cat"
  # ... in the server's first reply too, so GDB shows it even when it finds
  # the server gone before reading its standard error
  has s "Remote failure reply: E.citcat gdb: offset [0-9]*: .*cut.cat"
  # an ELF of another build: a warning, the session goes on
  run e "$FW/gdbcrash2.elf" "$t/$n.cat --elf $FW/gdbcrash2.elf" "info registers pc" "monitor when"
  has e "warning: .*gdbcrash2.elf is not"
  has e "instant 0 of"
  run e2 "$FW/gdbcrash2.elf" "$t/$n.ims $t/$n.aes --elf $FW/gdbcrash2.elf" "info registers pc"
  has e2 "warning: .*gdbcrash2.elf is not the firmware of this run"
  # writes are refused, saying why (GDB's error for a register; the stub's
  # line on stderr, which GDB's terminal shows, for memory)
  run w "$elf" "$t/$n.cat --elf $elf" "set var result = 5" "echo ==next==\n" "jump main"
  has w "refused a write of 4 bytes at 0x[0-9a-f]*: citcat replays a recording, history cannot change"
  has w "Cannot access memory at address"
  run j "$elf" "$t/$n.cat --elf $elf" "jump main"
  has j "Could not write register \"pc\"; remote failure reply 'E.citcat replays a recording: history cannot change'"
  # a replay that diverges: the AES's first interrupt moved (crc32 on the
  # Cortex-M7, which the edit tool writes): the history ends where the
  # replay found it, GDB says why
  if [ -n "$EDIT" ] && [ -n "$EX" ]; then
    capture dv "$EX" 0
    "$C" ims "$t/dv.cat" -o "$t/dv.ims" 2>/dev/null && "$C" aes "$t/dv.cat" -o "$t/dv.aes" 2>/dev/null
    "$EDIT" move "$t/dv.aes" "$t/dvx.aes" 0 1 || fail "edit"
    run d "$EX" "$t/dv.ims $t/dvx.aes" "continue" "monitor when" "reverse-stepi" "monitor when"
    has d "the replay diverged from the recording at instruction"
    has d "No more reverse-execution history."
    a1=$(instant d 1) a2=$(instant d 2)
    [ -n "$a1" ] && [ "$a2" = $((a1 - 1)) ] || fail "after the divergence: instants $a1, $a2"
  fi
  ;;
*)
  echo "usage: gdb.sh basic|wild|stack|events|signals|interrupt|exit|bad ..." >&2
  exit 2
  ;;
esac
finish "gdb_${section}_$what"
