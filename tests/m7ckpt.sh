#!/bin/bash
# Checkpoints on the Cortex-M7 (issue 14 part 3; capture/TARGET-M7.md,
# "Checkpoints").  usage: m7ckpt.sh SECTION CITCAT EDIT M7_EXAMPLE_DIR M7_FW_DIR
#   segments_sched, segments_crc32: the example captured with checkpoints
#     (sched every 20000 instructions, which puts some inside its timer
#     handler: IABR0 = 1 in the dump; crc32, with DMA, in about 4
#     segments); ims/aes write version 5 / version 4 bundles; the serial
#     replay, --jobs 2 and --jobs 1 (with --verify and --oracle), and
#     plan + GNU parallel + merge all give the same itrace, equal to the
#     capture's oracle byte for byte; segment 1 cut alone (ims/aes
#     --segment 1) replays to the same bytes as from the bundles.
#   nested: tests/firmware/m7ckpt.c (its own VTOR, PRIGROUP 4, priorities,
#     nesting SysTick > IRQ 6 > SVCall > IRQ 7 / UsageFault) with a
#     checkpoint every 1000 instructions: its self-check passes, the dumps
#     show the state away from reset (VTOR, AIRCR, SysTick, SVCall and IRQ 6
#     active, IRQ 7 active), FAULTMASK is 0 at every checkpoint although the
#     firmware spends about 2400 instructions under FAULTMASK (checkpoints
#     wait), and the segments replay exactly as above.
#   dilation: matmul (its path does not depend on time) with and without
#     checkpoints: exactly 85 instructions, 3 branches, 43 uncached writes and
#     16 uncached reads more per checkpoint (counted from the disassembly:
#     TARGET-M7.md); the first NMI exactly N instructions after P; the j-th
#     CKPT at j * (N + 12) instructions, its branch count the NMI's + 1.
#   usage: an interval below 1000, --lvt with checkpoints, and firmware
#     with its own NMI_Handler (tests/firmware/m7ckpt_nmi.c): it runs
#     without checkpoints, and with them the capture stops (exit 2) at the
#     first checkpoint, leaving no CAT.
#   tamper: a segment's state edited in its IMS (checksums redone): a
#     reserved CCR bit and SCS state in a segment that starts at P are
#     refused (exit 2, the file and the offset named); a moved VTOR, an
#     IRQ made active, a SysTick made active diverge (exit 1, "SCS state")
#     at the driver's own read of that register.  No output is left.
. "$(dirname "$0")/testlib.sh"
section=$1 C=$2 EDIT=$3 EX=$4 FW=$5
export CITCAT_NO_PROGRESS=1

# jnum FILE KEY: the first number after "KEY": in a JSON file
jnum() { grep -o "\"$2\": [0-9]*" "$1" | head -n 1 | grep -o '[0-9]*$'; }

# dumps STEM: one line per checkpoint dump in $t/STEM.cat (DUMP_DONE = 39):
# xPSR FAULTMASK VTOR AIRCR SHCSR IABR0 (slots 16, 21, 23, 24, 26, 30)
dumps() {
  "$C" dump "$t/$1.cat" 2>/dev/null | awk '
    /uncached_write addr=0x40000f80 / { x = $5 } /uncached_write addr=0x40000f94 / { f = $5 }
    /uncached_write addr=0x40000f9c / { v = $5 } /uncached_write addr=0x40000fa0 / { a = $5 }
    /uncached_write addr=0x40000fa8 / { s = $5 } /uncached_write addr=0x40000fb8 / { i = $5 }
    /uncached_write addr=0x40000ffc size=4 value=0x00000027/ { print x, f, v, a, s, i }' | sed 's/value=//g'
}

# segments STEM [quick]: the checks of segments_* on $t/STEM.cat and its
# oracle; quick: the serial replay and --jobs 2 only
segments() {
  local n=$1 s=$t/$1 quick=${2:-}
  "$C" ims "$s.cat" -o "$s.ims" 2>"$t/err" && "$C" aes "$s.cat" -o "$s.aes" 2>"$t/err" ||
    { fail "$n: ims/aes: $(cat "$t/err")"; return; }
  [ "$(head -c 10 "$s.ims" | od -An -tx1 | tr -d ' \n')" = 43494d530d0a1a0a0500 ] || fail "$n: the IMS is not a version 5 bundle"
  [ "$(head -c 10 "$s.aes" | od -An -tx1 | tr -d ' \n')" = 434145530d0a1a0a0400 ] || fail "$n: the AES is not a version 4 bundle"
  "$C" replay "$s.ims" "$s.aes" -o "$s.itrace" --verify "$s.cat" --oracle "$s.oracle" 2>"$t/err" ||
    { fail "$n: serial replay: $(cat "$t/err")"; return; }
  cmp -s "$s.itrace" "$s.oracle" || fail "$n: the serial itrace differs from the oracle"
  for j in 2 ${quick:+x}1; do
    [ "$j" = x1 ] && break
    "$C" replay "$s.ims" "$s.aes" --jobs $j -o "$t/j.itrace" --verify "$s.cat" --oracle "$s.oracle" 2>"$t/err" ||
      fail "$n: replay --jobs $j: $(cat "$t/err")"
    grep -q "equals the oracle" "$t/err" || fail "$n: --jobs $j did not compare with the oracle"
    grep -q "every segment's bus trace verified" "$t/err" || fail "$n: --jobs $j did not verify every segment"
    cmp -s "$t/j.itrace" "$s.itrace" || fail "$n: the --jobs $j itrace differs from the serial one"
  done
  if [ -n "$quick" ]; then
    echo "$n: replayed serially and with --jobs 2: identical"
    return
  fi
  rm -f "$t"/seg.*.itrace
  "$C" plan "$s.ims" "$s.aes" --verify "$s.cat" -o "$t/jobs.txt" --prefix "$t/seg" --citcat "$C" 2>"$t/err" ||
    fail "$n: plan: $(cat "$t/err")"
  local k
  k=$(wc -l <"$t/jobs.txt")
  "$C" info --json "$s.cat" >"$t/$n.json" || fail "$n: info"
  [ "$k" -eq $(( $(jnum "$t/$n.json" ckpt) + 1 )) ] && [ "$k" -ge 3 ] ||
    fail "$n: $k jobs for $(jnum "$t/$n.json" ckpt) checkpoints"
  if command -v parallel >/dev/null; then
    parallel --halt now,fail=1 -j 2 <"$t/jobs.txt" >"$t/par.out" 2>&1 || fail "$n: a segment job failed: $(tail -n 5 "$t/par.out")"
  else
    echo "GNU parallel is missing: the job lines run one by one"
    bash "$t/jobs.txt" >"$t/par.out" 2>&1 || fail "$n: a segment job failed: $(tail -n 5 "$t/par.out")"
  fi
  "$C" merge "$t"/seg.*.itrace -o "$t/merged.itrace" 2>"$t/err" || fail "$n: merge: $(cat "$t/err")"
  cmp -s "$t/merged.itrace" "$s.oracle" || fail "$n: the merged itrace differs from the oracle"
  "$C" ims "$s.cat" --segment 1 -o "$t/one.ims" 2>"$t/err" && "$C" aes "$s.cat" --segment 1 -o "$t/one.aes" 2>"$t/err" &&
    "$C" replay "$t/one.ims" "$t/one.aes" --segment 1 --verify "$s.cat" -o "$t/one.itrace" -q 2>"$t/err" ||
    fail "$n: segment 1 alone: $(cat "$t/err")"
  cmp -s "$t/one.itrace" "$t/seg.000001.itrace" || fail "$n: segment 1 alone differs from segment 1 of the bundles"
  echo "$n: $(jnum "$t/$n.json" instructions) instructions, $k segments, replayed serially, by segment and with --jobs: identical"
}

case $section in
segments_sched | segments_crc32)
  n=${section#segments_}
  N=20001 # (20000 until the handler's CLREX moved the checkpoints by one instruction each: issue 36)
  if [ "$n" = crc32 ]; then
    "$C" capture "$EX/${n}_m7.elf" -o "$t/p.cat" --seed 1 -q >/dev/null 2>"$t/err" || fail "capture: $(cat "$t/err")"
    "$C" info --json "$t/p.cat" >"$t/p.json"
    N=$(( $(jnum "$t/p.json" instructions) / 4 ))
  fi
  "$C" capture "$EX/${n}_m7.elf" -o "$t/$n.cat" --oracle "$t/$n.oracle" --seed 1 -q --checkpoint-every $N \
    >/dev/null 2>"$t/err" || fail "$n: capture: $(cat "$t/err")"
  segments "$n"
  if [ "$n" = sched ]; then # some checkpoints inside the timer handler (IRQ 0 active)
    dumps sched >"$t/d"
    [ "$(awk '$6 == "0x00000001"' "$t/d" | wc -l)" -ge 1 ] || fail "sched: no checkpoint inside the timer handler: $(sort "$t/d" | uniq -c)"
  fi
  finish "m7ckpt_$section"
  ;;
nested) # the interval puts dumps in every case below (1000 before the handler's CLREX, issue 36)
  "$C" capture "$FW/m7ckpt.elf" -o "$t/n.cat" --oracle "$t/n.oracle" --seed 1 -q --exit-status --checkpoint-every 1001 \
    >"$t/out" 2>"$t/err" || fail "capture: exit $?: $(cat "$t/out" "$t/err")"
  grep -q "m7ckpt: 0 failures" "$t/out" || fail "self-check: $(cat "$t/out")"
  dumps n >"$t/d"
  # has EXPR WHAT: some dump satisfies the bash arithmetic EXPR over
  # x (xPSR) f (FAULTMASK) v (VTOR) a (AIRCR) s (SHCSR) i (IABR0)
  has() {
    local x f v a s i
    while read -r x f v a s i; do (( $1 )) && return 0; done <"$t/d"
    fail "no checkpoint dump with $2: $(sort "$t/d" | uniq -c)"
  }
  has 'v != 0' "VTOR moved"
  has 'a == 0xfa050400' "PRIGROUP 4"
  has 's & 0x800' "SysTick active"
  has 's & 0x80' "SVCall active"
  has 'i == 0x40' "IRQ 6 active"
  has 'i == 0xc0' "IRQ 6 and 7 active"
  has '(s & 0x88) == 0x88' "SVCall and UsageFault active"
  # never under FAULTMASK, always in the NMI (IPSR 2)
  while read -r x f v a s i; do
    (( f == 0 && (x & 0x1ff) == 2 )) || fail "a dump under FAULTMASK or outside the NMI: $x $f"
  done <"$t/d"
  segments n quick # the many short segments: no process per segment here (segments_* do that)
  finish m7ckpt_nested
  ;;
dilation)
  N=25000
  "$C" capture "$EX/matmul_m7.elf" -o "$t/a.cat" --seed 1 -q >/dev/null 2>"$t/err" || fail "capture: $(cat "$t/err")"
  "$C" capture "$EX/matmul_m7.elf" -o "$t/b.cat" --oracle "$t/b.oracle" --seed 1 -q --checkpoint-every $N >/dev/null 2>"$t/err" ||
    fail "capture with checkpoints: $(cat "$t/err")"
  "$C" info --json "$t/a.cat" >"$t/a.json" && "$C" info --json "$t/b.cat" >"$t/b.json" || fail "info"
  k=$(jnum "$t/b.json" ckpt)
  [ "$k" -ge 10 ] || fail "only $k checkpoints"
  [ "$(jnum "$t/a.json" ckpt)" -eq 0 ] && [ "$(jnum "$t/a.json" exc)" -eq 0 ] || fail "checkpoints without the option"
  [ "$(jnum "$t/b.json" exc)" -eq "$k" ] || fail "$(jnum "$t/b.json" exc) exceptions for $k checkpoints"
  d() { echo $(( $(jnum "$t/b.json" "$1") - $(jnum "$t/a.json" "$1") )); }
  [ "$(d instructions)" -eq $((85 * k)) ] || fail "instructions +$(d instructions) for $k checkpoints, expected 85 each"
  [ "$(d branches)" -eq $((3 * k)) ] || fail "branches +$(d branches) for $k checkpoints, expected 3 each"
  [ "$(d uncached_write)" -eq $((43 * k)) ] || fail "uncached writes +$(d uncached_write), expected 43 each"
  [ "$(d uncached_read)" -eq $((16 * k)) ] || fail "uncached reads +$(d uncached_read), expected 16 each"
  "$C" dump "$t/b.cat" >"$t/b.dump" 2>"$t/err" || fail "dump: $(cat "$t/err")"
  awk -v n=$N '/ exc line=2 / { sub("bcount=", "", $4); b = $4 }
    / ckpt / { j++; sub("insns=", "", $4); sub("bcount=", "", $5)
               if ($4 != j * (n + 12) || $5 != b + 1) { print "ckpt " j ": " $0; exit } }' "$t/b.dump" >"$t/bad"
  [ -s "$t/bad" ] && fail "$(cat "$t/bad")"
  # the first checkpoint: N instruction lines before the NMI's entry in the oracle listing
  "$C" convert "$t/b.oracle" -o "$t/b.txt" --to text 2>"$t/err" || fail "listing: $(cat "$t/err")"
  first=$(grep -n -m1 "exception 2 (NMI)" "$t/b.txt" | cut -d: -f1)
  before=$(head -n "$first" "$t/b.txt" | grep -c '^ *[0-9]')
  [ "$before" -eq "$N" ] || fail "first checkpoint after $before instructions, expected $N"
  echo "matmul: $k checkpoints: +$(d instructions) instructions, +$(d branches) branches, +$(d uncached_write) uncached" \
    "writes, +$(d uncached_read) uncached reads, +$(d file_bytes) CAT bytes, +$(d cycles) cycles"
  finish m7ckpt_dilation
  ;;
usage)
  expect 2 "checkpoint interval" "$C" capture "$EX/idle_m7.elf" -o "$t/x.cat" --checkpoint-every 999
  expect 2 "LVT or DAF" "$C" capture "$EX/idle_m7.elf" -o "$t/x.cat" --checkpoint-every 1000 --lvt "$t/x.lvt"
  "$C" capture "$FW/m7ckpt_nmi.elf" -o "$t/y.cat" -q --exit-status >/dev/null 2>"$t/err" || fail "m7ckpt_nmi: $(cat "$t/err")"
  expect 2 "NMI handler returned .* without running the CITCAT driver" \
    "$C" capture "$FW/m7ckpt_nmi.elf" -o "$t/x.cat" -q --checkpoint-every 1000
  [ -e "$t/x.cat" ] && fail "a CAT was left behind"
  finish m7ckpt_usage
  ;;
tamper)
  "$C" capture "$FW/m7ckpt.elf" -o "$t/n.cat" --seed 1 -q --checkpoint-every 1000 >/dev/null 2>"$t/err" ||
    fail "capture: $(cat "$t/err")"
  # a segment whose start state has SysTick active (SHCSR bit 11), cut alone
  K= j=0
  while read -r x f v a s i; do
    j=$((j + 1))
    (( s & 0x800 )) && { K=$j; break; }
  done < <(dumps n)
  [ -n "$K" ] || fail "no segment starts with SysTick active"
  "$C" ims "$t/n.cat" --segment "$K" -o "$t/k.ims" 2>"$t/err" && "$C" aes "$t/n.cat" --segment "$K" -o "$t/k.aes" 2>"$t/err" ||
    fail "segment $K: $(cat "$t/err")"
  "$C" replay "$t/k.ims" "$t/k.aes" --segment "$K" --verify "$t/n.cat" -o "$t/k.itrace" -q 2>"$t/err" ||
    fail "segment $K untouched: $(cat "$t/err")"
  "$C" info "$t/k.ims" | grep -q '^  registers  39$' || fail "info does not list the 39 slots of a checkpoint's segment"
  "$C" ims "$t/n.cat" --segment 0 -o "$t/z.ims" 2>"$t/err" && "$C" aes "$t/n.cat" --segment 0 -o "$t/z.aes" 2>"$t/err" ||
    fail "segment 0: $(cat "$t/err")"
  # the register area is at metadata offset 116 (IMS.md), slot k at 116 + 4k
  slot() { echo $((116 + 4 * $1 + ${2:-0})); }
  byte() { "$C" dump "$t/$1.ims" >/dev/null 2>&1; od -An -tu1 -j $((16 + $2)) -N1 "$t/$1.ims" | tr -d ' '; }
  # refuse WANT PATTERN IMS AES: exit WANT, the message matches, no output
  refuse() {
    rm -f "$t/o.itrace"
    expect "$1" "$2" "$C" replay "$3" "$4" -o "$t/o.itrace"
    [ ! -e "$t/o.itrace" ] || fail "output left behind for $3"
  }
  ccr=$(byte k "$(slot 25)")
  "$EDIT" meta "$t/k.ims" "$t/t.ims" "$(slot 25)" $((ccr | 4)) # CCR bit 2: reserved
  refuse 2 "t.ims.*offset $((16 + $(slot 25))).*slot 25" "$t/t.ims" "$t/k.aes"
  "$EDIT" meta "$t/z.ims" "$t/t.ims" "$(slot 23 1)" 1 # VTOR 0x100 in a segment that starts at P
  refuse 2 "t.ims.*slot 23.*does not start in the checkpoint's NMI" "$t/t.ims" "$t/z.aes"
  v=$(byte k "$(slot 23 1)")
  "$EDIT" meta "$t/k.ims" "$t/t.ims" "$(slot 23 1)" $((v ^ 1)) # VTOR moved by 0x100
  refuse 1 "SCS state" "$t/t.ims" "$t/k.aes"
  "$EDIT" meta "$t/k.ims" "$t/t.ims" "$(slot 30 3)" 128 # IABR0: IRQ 31 active
  refuse 1 "SCS state" "$t/t.ims" "$t/k.aes"
  s=$(byte k "$(slot 26 1)")
  "$EDIT" meta "$t/k.ims" "$t/t.ims" "$(slot 26 1)" $((s ^ 8)) # SHCSR: SysTick not active
  refuse 1 "SCS state" "$t/t.ims" "$t/k.aes"
  echo "segment $K: 2 edits refused, 3 diverged"
  finish m7ckpt_tamper
  ;;
*) echo "unknown section $section"; exit 2 ;;
esac
