#!/bin/bash
# Regression tests for the hardening defects of issue 15 (hostile ELFs,
# unwakeable WFI, AES REPEAT bombs, signals during convert and capture,
# bounded SDC-LSP memory, replay --max-insns).  Each section is one CTest.
# usage: robust_cli.sh SECTION CITCAT ELFGEN PCS_GEN FIRMWARE_DIR TESTS_SRC_DIR [EXAMPLE.elf]
. "$(dirname "$0")/testlib.sh"
section=$1 C=$2 ELFGEN=$3 PCSGEN=$4 FW=$5 SRC=$6 EXAMPLE=${7:-}
export CITCAT_NO_PROGRESS=1

# bounded LIMIT_KB SECONDS CODE PATTERN CMD...: CMD exits with CODE, its
# stderr matches PATTERN (unless empty), its peak RSS stays under LIMIT_KB and
# it ends within SECONDS (else it is killed).
bounded() {
  local lim=$1 secs=$2 code=$3 pat=$4
  /usr/bin/time -f %M -o "$t/rss" timeout -s KILL "$secs" "${@:5}" >"$t/stdout" 2>"$t/err"
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "'${*:5}' exited $rc, expected $code ($(head -c 300 "$t/err"))"
  [ -z "$pat" ] || grep -q -- "$pat" "$t/err" || fail "'${*:5}': stderr lacks '$pat': $(head -c 300 "$t/err")"
  local rss
  rss=$(tail -n 1 "$t/rss")
  case "$rss" in
  '' | *[!0-9]*) fail "'${*:5}': no peak RSS measured ($(cat "$t/rss"))" ;;
  *) [ "$rss" -lt "$lim" ] || fail "'${*:5}': peak RSS ${rss} kB, limit ${lim} kB" ;;
  esac
}

# stopped PID SIG DESC GLOB: PID (started in the background a moment ago)
# gets SIG a second after its temporary output file (matching GLOB) appears,
# so its signal handlers are in place even on a slow machine; it must still
# be running then, must end within 10 s of SIG with a non-zero status, and
# must leave no file matching GLOB (its output or temporary).
stopped() {
  local pid=$1 sig=$2 desc=$3 glob=$4 i=0
  # shellcheck disable=SC2086
  while ! ls -d $glob >/dev/null 2>&1 && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  # shellcheck disable=SC2086
  ls -d $glob >/dev/null 2>&1 || fail "$desc: no output file $glob appeared"
  i=0
  sleep 1
  if ! kill -0 "$pid" 2>/dev/null; then
    fail "$desc ended before SIG$sig was sent"
    wait "$pid"
    return
  fi
  kill -"$sig" "$pid"
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    fail "$desc ignored SIG$sig for 10 s"
    kill -KILL "$pid"
  fi
  wait "$pid"
  local rc=$?
  [ "$rc" -ne 0 ] || fail "$desc exited 0 after SIG$sig"
  # shellcheck disable=SC2086
  if ls -d $glob >/dev/null 2>&1; then fail "$desc left $(ls -d $glob)"; fi
}

# stopped_valid PID SIG DESC GLOB: as stopped, for a capture, which ends
# with exit 3 and leaves its outputs complete (issue 12: post-mortem traces)
stopped_valid() {
  local pid=$1 sig=$2 desc=$3 glob=$4 i=0
  # shellcheck disable=SC2086
  while ! ls -d $glob >/dev/null 2>&1 && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  sleep 1
  kill -0 "$pid" 2>/dev/null || fail "$desc ended before SIG$sig was sent"
  kill -"$sig" "$pid"
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -0 "$pid" 2>/dev/null && { fail "$desc ignored SIG$sig for 10 s"; kill -KILL "$pid"; }
  wait "$pid"
  local rc=$?
  [ "$rc" -eq 3 ] || fail "$desc exited $rc after SIG$sig, expected 3"
}

case "$section" in
elf)
  # Defects 1 and 4: segments outside RAM, wrapping, huge or too many,
  # overlapping; each refused before anything is allocated for it, naming
  # the program header's offset (52 = the first), in little memory and time.
  # Before the fix: exit 139 (uc_emu_stop(NULL)); the 15 x 255 MiB file took
  # 4.2 GB and 54 s, the 1000 overlapping segments 5 s.
  lim=300000
  bounded $lim 30 2 "spin_hi.elf: offset 52: segment 0 at 0x20000000..0x20000003 (4 bytes) lies outside RAM" \
    "$C" capture "$FW/spin_hi.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/straddle.elf" 0xfffff8 0xfffff8,16,16
  bounded $lim 30 2 "offset 52: segment 0 at 0x00fffff8..0x01000007 (16 bytes) lies outside RAM (0x00000000..0x00ffffff)" \
    "$C" capture "$t/straddle.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/wrap.elf" 0xfffffff8 0xfffffff8,16,16
  bounded $lim 30 2 "offset 52: segment 0 at 0xfffffff8 (16 bytes) wraps past the end of the 32-bit address space" \
    "$C" capture "$t/wrap.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/big.elf" 0 0,4,0xff00000
  bounded $lim 30 2 "segment 0 at 0x00000000..0x0fefffff (267386880 bytes) lies outside RAM" \
    "$C" capture "$t/big.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/fat.elf" 0 0,4,0x20000
  bounded $lim 30 2 "segment 0 at 0x00000000..0x0001ffff (131072 bytes) lies outside RAM (0x00000000..0x0000ffff)" \
    "$C" capture "$t/fat.elf" -o "$t/a.cat" --seed 1 --ram 64K
  "$ELFGEN" "$t/many.elf" 0 0,4,0xff00000,15,0x10000000
  bounded $lim 30 2 "offset 52: segment 0 .* lies outside RAM" "$C" capture "$t/many.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/o1000.elf" 0 0,4,0x1000,1000
  bounded $lim 30 2 "offset 2100: more than 64 loadable segments" "$C" capture "$t/o1000.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/o64.elf" 0 0,4,0x1000,64
  bounded $lim 30 2 "segments 0 and 1 overlap at 0x00000000" "$C" capture "$t/o64.elf" -o "$t/a.cat" --seed 1
  "$ELFGEN" "$t/half.elf" 0 0,4,0x1000 0x800,4,0x1000
  bounded $lim 30 2 "offset 84: segments 0 and 1 overlap at 0x00000800" "$C" capture "$t/half.elf" -o "$t/a.cat" --seed 1
  # found by fuzz_elf: tiny.elf entered at its "subs pc, lr, #4" with LR = 0
  # sends the PC to 0xfffffffc, Unicorn's until address, where the capture
  # restarted the engine for ever and never saw a signal
  # (a fault now ends the run with a valid CAT and exit 3: issue 12)
  bounded $lim 30 3 "fault at 0xfffffffc: bus error (instruction fetch outside RAM)" \
    "$C" capture "$SRC/fuzz/corpus/elf/hang_until_pc.elf" -o "$t/f.cat" --seed 1
  ls "$t"/a.cat* >/dev/null 2>&1 && fail "a refused capture left $(ls "$t"/a.cat*)"
  # the same loader serves convert --image (its map: the largest RAM, 1 GiB)
  bounded $lim 30 2 "wrap.elf: offset 52: segment 0 at 0xfffffff8 (16 bytes) wraps past" \
    "$C" convert "$t/none.sdc" --from sdclsp --to din -o "$t/a.din" --image "$t/wrap.elf"
  "$ELFGEN" "$t/dev.elf" 0x40000000 0x40000000,4,4
  bounded $lim 30 2 "dev.elf: offset 52: .* lies outside the largest RAM the target can have (0x00000000..0x3fffffff)" \
    "$C" convert "$t/none.sdc" --from sdclsp --to din -o "$t/a.din" --image "$t/dev.elf"
  # what is legal still loads: 64 adjacent segments, RAM filled to its last
  # byte.  Their code is `b .` with interrupts masked, which the capture
  # refuses once it runs (issue 35's check for firmware built without the
  # BSP): that message comes after the loader accepted every segment.
  "$ELFGEN" "$t/adj64.elf" 0 0,4,0x4000,64,0x4000
  expect 2 "spins at 0x00000000 before any trace start point" "$C" capture "$t/adj64.elf" -o "$t/a.cat" --seed 1 --max-insns 10
  "$ELFGEN" "$t/top.elf" 0xfff000 0xfff000,4,0x1000 0,4,4
  expect 2 "spins at 0x00fff000 before any trace start point" "$C" capture "$t/top.elf" -o "$t/a.cat" --seed 1 --max-insns 10
  finish robust_elf
  ;;
wfi)
  # Defect 3: a WFI nothing can wake ends the run, promptly, with a valid
  # CAT (stop reason wfi-deadlock) and exit 3 (issue 12: post-mortem
  # traces); a long sleep that can wake is stopped by SIGTERM, SIGINT and
  # SIGHUP with exit 3 and a valid CAT (stop reason interrupted); a sleep
  # that wakes completes.
  mkdir "$t/w"
  expect 3 "WFI at 0x0000001c can never wake: no enabled interrupt line.*lines enabled 0x0; timer running" \
    timeout -s KILL 20 "$C" capture "$FW/wfi_dead.elf" -o "$t/w/d.cat" --seed 1
  "$C" info --json "$t/w/d.cat" 2>&1 | grep -q '"stop": "none"' || fail "wfi_dead: $("$C" info --json "$t/w/d.cat" 2>&1)"
  rm -f "$t/w/d.cat"
  head -c 4096 /dev/zero >"$t/dma.bin"
  expect 0 "exit after 12 instructions" timeout -s KILL 20 "$C" capture "$FW/wfi_dma.elf" -o "$t/w/ok.cat" \
    --seed 1 --ram 64M --dma-in "$t/dma.bin"
  rm -f "$t/w/ok.cat"
  for sig in TERM INT HUP; do
    "$C" capture "$FW/wfi_dma.elf" -o "$t/w/s.cat" --seed 1 --ram 64M --dma-burst 1 2>"$t/err" &
    # (the CAT's temporary file exists once loading is over and the run
    # starts; the core is asleep ten instructions later: the WFI retires
    # and the run ends at the next instruction)
    stopped_valid $! $sig "capture asleep in WFI" "$t/w/s.cat*"
    grep -q "interrupted after 10 instructions, at 0x00000028" "$t/err" ||
      fail "SIG$sig in WFI: $(cat "$t/err")"
    "$C" info "$t/w/s.cat" >/dev/null 2>&1 || fail "SIG$sig in WFI: the CAT is not valid"
    rm -f "$t/w/s.cat"
  done
  finish robust_wfi
  ;;
aes)
  # Defect 5: REPEAT bombs (tests/fuzz/corpus/aes/repeat_bomb*.aes, 127 and
  # 137 bytes, claiming 2^63 - 1 instructions) are counted, not expanded:
  # 1 INPUT record + 2 REPEATs of 2^63 - 1 = 2^64 - 1 records.
  bounded 300000 20 0 "" "$C" info "$SRC/fuzz/corpus/aes/repeat_bomb.aes"
  grep -q "input  *18446744073709551615 " "$t/stdout" || fail "repeat_bomb: $(cat "$t/stdout")"
  expect 2 "REPEAT records claim more than 2^64 input records" \
    timeout -s KILL 20 "$C" info "$SRC/fuzz/corpus/aes/repeat_bomb3.aes"
  finish robust_aes
  ;;
signals)
  # Defect 6: convert stops on SIGTERM/SIGINT in every direction, even on
  # endless standard input, leaving no output and no temporary file.
  mkdir "$t/s"
  yes "0 abc" | "$C" convert - -o "$t/s/z.p2" --from din --to pdats2 2>/dev/null &
  stopped $! TERM "convert din -> pdats2 (endless stdin)" "$t/s/z.p2*"
  yes "2 1000" | "$C" convert - -o "$t/s/z.pdats" --from din --to pdats 2>/dev/null &
  stopped $! INT "convert din -> pdats (endless stdin)" "$t/s/z.pdats*"
  "$PCSGEN" - 4096 0 2>/dev/null | "$C" convert - --from itrace -o "$t/s/z.din" --to din 2>/dev/null &
  stopped $! TERM "convert itrace -> din (endless stdin)" "$t/s/z.din*"
  "$PCSGEN" - 4096 0 2>/dev/null | "$C" convert - --from itrace -o "$t/s/z.sdc" --to sdclsp 2>/dev/null &
  stopped $! TERM "convert itrace -> sdclsp (endless stdin)" "$t/s/z.sdc*"
  ELFGEN_FILL=0xE1A00000 "$ELFGEN" "$t/nop.elf" 0 0,16384,16384
  "$PCSGEN" - 4096 0 2>/dev/null | "$C" convert - --from itrace -o - --to sdclsp 2>/dev/null |
    "$C" convert - --from sdclsp --to din -o "$t/s/y.din" --image "$t/nop.elf" 2>/dev/null &
  stopped $! TERM "convert sdclsp -> din (endless stdin)" "$t/s/y.din*"
  "$PCSGEN" - 4096 0 2>/dev/null | "$C" convert - --from itrace -o "$t/s/z.txt" --to text 2>/dev/null &
  stopped $! TERM "convert itrace -> text (endless stdin)" "$t/s/z.txt*"
  finish robust_signals
  ;;
sdclsp_rss)
  # Defect 7: 4 M distinct PCs; the classifier's cache is bounded (1.5 MiB),
  # where it used to grow by ~75 bytes a PC (> 300 MB here).
  "$PCSGEN" "$t/pcs.itrace" 4000000 || fail "pcs_gen"
  bounded 150000 300 0 "" "$C" convert "$t/pcs.itrace" -o "$t/pcs.sdc" --to sdclsp
  finish robust_sdclsp_rss
  ;;
replay)
  # Defect 10: replay --max-insns stops a long claim with exit 2 and no
  # output; the claimed length and an ETA show up front on a terminal.
  [ -n "$EXAMPLE" ] || { echo "robust_replay: needs an example firmware"; exit 2; }
  "$C" capture "$EXAMPLE" -o "$t/r.cat" --seed 1 -q >/dev/null 2>&1 || fail "capture $EXAMPLE"
  "$C" ims "$t/r.cat" -o "$t/r.ims" >/dev/null 2>&1 || fail "ims"
  "$C" aes "$t/r.cat" -o "$t/r.aes" >/dev/null 2>&1 || fail "aes"
  n=$("$C" info --json "$t/r.ims" | sed -n 's/.*"instructions": \([0-9]*\).*/\1/p')
  [ -n "$n" ] && [ "$n" -gt 1000 ] || fail "tiny's IMS claims '$n' instructions"
  expect 2 "stopped at the instruction limit after 1000 of the $n instructions the IMS claims" \
    "$C" replay "$t/r.ims" "$t/r.aes" -o "$t/r.itrace" --verify "$t/r.cat" --max-insns 1000
  ls "$t"/r.itrace* >/dev/null 2>&1 && fail "replay --max-insns left $(ls "$t"/r.itrace*)"
  expect 0 "$n instructions" "$C" replay "$t/r.ims" "$t/r.aes" -o "$t/r.itrace" --verify "$t/r.cat" --max-insns "$n"
  expect 2 "bad instruction count" "$C" replay "$t/r.ims" "$t/r.aes" --max-insns 0
  # the progress line on a terminal (script gives the command a pty)
  script -qec "env -u CITCAT_NO_PROGRESS $C replay $t/r.ims $t/r.aes" /dev/null >"$t/tty" 2>&1
  grep -q "replay: 0 / $n insn (0%, .*ETA ?)" "$t/tty" || fail "no claimed length up front: $(head -c 300 "$t/tty")"
  finish robust_replay
  ;;
*)
  echo "robust_cli.sh: unknown section $section"
  exit 2
  ;;
esac
