#!/bin/bash
# Segment checkpoints (issue 14 part 3, capture --checkpoint-every;
# capture/TARGET.md, Checkpoints).
#   example NAME: an example firmware captured with checkpoints replays
#     serially exactly: --verify against the CAT and --oracle against the
#     capture's ground truth (which holds the checkpoint handler's
#     instructions), and the replayed itrace equals the oracle byte for byte.
#   dilation: matmul (its path does not depend on time) captured with and
#     without checkpoints differs by exactly 78 instructions, 4 branches and
#     44 uncached writes per checkpoint (TARGET.md, counted from the
#     disassembly), and every checkpoint is on line 15 at the FIQ vector.
#   postmortem: faults and an instruction limit that fall in a later
#     segment still replay exactly up to the end.
#   usage: errors for intervals below the minimum and with --lvt.
#   segments NAME: the example captured with checkpoints (about 4
#     segments); citcat ims/aes write IMS version 5 / AES version 4 bundles
#     holding every segment (common/SEGIDX.md), replayed serially and segment
#     by segment: citcat plan RUN.ims RUN.aes --verify RUN.cat's lines run
#     through GNU parallel (each replays its segment through the index, with
#     --verify against its slice of the CAT), then citcat merge; the merged
#     itrace equals the serial one and the oracle byte for byte; so do
#     replay RUN.ims RUN.aes --jobs 2 and --jobs 1 (threads) with --verify and
#     --oracle, and replay RUN.cat --jobs 2; segment 1 of the bundles replays
#     to the same itrace as segment 1 cut alone (ims/aes --segment 1).  Also: a segment number past the end, a segment verified against
#     another segment's slice, merge refusing records after an abnormal end.
#   irq: tests/firmware/ckpt.c sees no line 15 in the interrupt controller
#     (with and without checkpoints), and checkpoints that land inside its
#     timer handler (IRQ mode, CPSR.I = 1) replay exactly.
# usage: checkpoint.sh SECTION CITCAT EXAMPLE_DIR DATA_DIR FIRMWARE_DIR [NM]
. "$(dirname "$0")/testlib.sh"
section=$1 C=$2 EX=$3 DATA=$4 FW=$5 NM=${6:-arm-none-eabi-nm}
export CITCAT_NO_PROGRESS=1

# pipeline STEM: extract $t/STEM.cat, replay with --verify and --oracle,
# compare the itrace with the oracle byte for byte
pipeline() {
  local s=$t/$1
  "$C" ims "$s.cat" -o "$s.ims" 2>"$t/err" || { fail "$1: ims: $(cat "$t/err")"; return; }
  "$C" aes "$s.cat" -o "$s.aes" 2>"$t/err" || { fail "$1: aes: $(cat "$t/err")"; return; }
  "$C" replay "$s.ims" "$s.aes" -o "$s.itrace" --verify "$s.cat" --oracle "$s.oracle" 2>"$t/err" ||
    { fail "$1: replay: $(cat "$t/err")"; return; }
  cmp -s "$s.itrace" "$s.oracle" || fail "$1: the replayed itrace differs from the oracle"
}

# jnum FILE KEY: the first number after "KEY": in a JSON file
jnum() { grep -o "\"$2\": [0-9]*" "$1" | head -n 1 | grep -o '[0-9]*$'; }

# ckpts STEM: checkpoint interrupts in the listing of $t/STEM.oracle (line 15)
ckpts() {
  "$C" convert "$t/$1.oracle" -o "$t/$1.txt" --to text 2>"$t/err" || fail "$1: listing: $(cat "$t/err")"
  grep -c "interrupt line 15" "$t/$1.txt"
}

case $section in
example)
  # one example (NAME in $6; $7.. extra capture options), N = 20000: a
  # segment is N instructions from its start point plus the checkpoint's
  # entry (under 100), so there are at least I / (N + 100) - 1 interrupts
  n=$6
  shift 6
  "$C" capture "$EX/$n.elf" -o "$t/$n.cat" --oracle "$t/$n.oracle" --seed 1 -q --checkpoint-every 20000 "$@" \
    >/dev/null 2>"$t/err" || fail "$n: capture: $(cat "$t/err")"
  "$C" info --json "$t/$n.cat" >"$t/$n.json" || fail "$n: info"
  i=$(jnum "$t/$n.json" instructions) k=$(jnum "$t/$n.json" irq)
  [ "$k" -ge $((i / 20100 - 1)) ] && [ "$k" -ge 1 ] || fail "$n: $k interrupts for $i instructions"
  pipeline "$n"
  echo "$n: $i instructions, $k interrupts, replayed exactly"
  finish "checkpoint_example_$n"
  ;;
segments)
  n=$6
  shift 6
  command -v parallel >/dev/null || { echo "GNU parallel is missing (.ci/setup installs it)"; exit 1; }
  # about 4 segments whatever the length: N from a capture without checkpoints
  "$C" capture "$EX/$n.elf" -o "$t/p.cat" --seed 1 -q "$@" >/dev/null 2>"$t/err" || fail "$n: capture: $(cat "$t/err")"
  "$C" info --json "$t/p.cat" >"$t/p.json" || fail "$n: info"
  N=$(( $(jnum "$t/p.json" instructions) / 4 ))
  [ "$N" -ge 1000 ] || N=1000
  "$C" capture "$EX/$n.elf" -o "$t/$n.cat" --oracle "$t/$n.oracle" --seed 1 -q --checkpoint-every $N "$@" \
    >/dev/null 2>"$t/err" || fail "$n: capture: $(cat "$t/err")"
  # ims/aes write every segment behind an index (common/SEGIDX.md); the
  # serial replay goes through them one after the other
  "$C" ims "$t/$n.cat" -o "$t/$n.ims" 2>"$t/err" && "$C" aes "$t/$n.cat" -o "$t/$n.aes" 2>"$t/err" &&
    "$C" replay "$t/$n.ims" "$t/$n.aes" -o "$t/$n.itrace" -q 2>"$t/err" || fail "$n: serial replay: $(cat "$t/err")"
  [ "$(head -c 10 "$t/$n.ims" | od -An -tx1 | tr -d ' \n')" = 43494d530d0a1a0a0500 ] || fail "$n: the IMS is not version 5"
  [ "$(head -c 10 "$t/$n.aes" | od -An -tx1 | tr -d ' \n')" = 434145530d0a1a0a0400 ] || fail "$n: the AES is not version 4"
  "$C" plan "$t/$n.ims" "$t/$n.aes" --verify "$t/$n.cat" -o "$t/jobs.txt" --prefix "$t/seg" --citcat "$C" 2>"$t/err" ||
    fail "$n: plan: $(cat "$t/err")"
  k=$(wc -l <"$t/jobs.txt")
  "$C" info --json "$t/$n.cat" >"$t/$n.json" || fail "$n: info"
  [ "$k" -eq $(( $(jnum "$t/$n.json" ckpt) + 1 )) ] || fail "$n: $k jobs for $(jnum "$t/$n.json" ckpt) checkpoints"
  [ "$k" -ge 2 ] || fail "$n: only $k segment(s)"
  grep -q -- "--segment 1 --verify" "$t/jobs.txt" || fail "$n: plan lines: $(head -n 2 "$t/jobs.txt")"
  parallel --halt now,fail=1 -j 2 <"$t/jobs.txt" >"$t/par.out" 2>&1 || fail "$n: a segment job failed: $(tail -n 5 "$t/par.out")"
  "$C" merge "$t"/seg.*.itrace -o "$t/merged.itrace" 2>"$t/err" || fail "$n: merge: $(cat "$t/err")"
  cmp -s "$t/merged.itrace" "$t/$n.itrace" || fail "$n: the merged itrace differs from the serial one"
  cmp -s "$t/merged.itrace" "$t/$n.oracle" || fail "$n: the merged itrace differs from the oracle"
  # the same in one process: --jobs 2 (threads, one Unicorn each) and --jobs 1, verified and against the oracle
  for n_jobs in 2 1; do
    "$C" replay "$t/$n.ims" "$t/$n.aes" --jobs $n_jobs -o "$t/j.itrace" --verify "$t/$n.cat" --oracle "$t/$n.oracle" \
      2>"$t/err" || fail "$n: replay --jobs $n_jobs: $(cat "$t/err")"
    grep -q "equals the oracle" "$t/err" || fail "$n: --jobs $n_jobs did not compare with the oracle"
    cmp -s "$t/j.itrace" "$t/$n.itrace" || fail "$n: the --jobs $n_jobs itrace differs from the serial one"
  done
  # the RUN.cat form still works
  "$C" replay "$t/$n.cat" --jobs 2 -o "$t/j.itrace" --verify "$t/$n.cat" -q 2>"$t/err" ||
    fail "$n: replay RUN.cat --jobs 2: $(cat "$t/err")"
  cmp -s "$t/j.itrace" "$t/$n.itrace" || fail "$n: the RUN.cat --jobs 2 itrace differs from the serial one"
  # a segment of the bundles equals the same segment cut on its own (ims/aes --segment K)
  "$C" ims "$t/$n.cat" --segment 1 -o "$t/one.ims" 2>"$t/err" && "$C" aes "$t/$n.cat" --segment 1 -o "$t/one.aes" 2>"$t/err" &&
    "$C" replay "$t/one.ims" "$t/one.aes" --segment 1 --verify "$t/$n.cat" -o "$t/one.itrace" -q 2>"$t/err" ||
    fail "$n: segment 1 alone: $(cat "$t/err")"
  cmp -s "$t/one.itrace" "$t/seg.000001.itrace" || fail "$n: segment 1 from the bundles differs from segment 1 alone"
  expect 2 "takes RUN.cat" "$C" replay "$t/$n.cat" --jobs 2 -o "$t/k.itrace" --oracle "$t/$n.oracle"
  expect 2 "bad job count" "$C" replay "$t/$n.ims" "$t/$n.aes" --jobs 0 -o "$t/k.itrace"
  expect 2 "--segment K replays one" "$C" replay "$t/$n.ims" "$t/$n.aes" --jobs 2 --segment 1 -o "$t/k.itrace"
  # errors: no segment K; segment 1's files checked against segment 0's slice
  expect 2 "no segment $k" "$C" ims "$t/$n.cat" --segment "$k" -o "$t/x.ims"
  expect 2 "no segment $k" "$C" aes "$t/$n.cat" --segment "$k" -o "$t/x.aes"
  expect 2 "holds $k segments, no segment $k" "$C" replay "$t/$n.ims" "$t/$n.aes" --segment "$k" -o "$t/x.itrace"
  [ -e "$t/x.ims" ] || [ -e "$t/x.aes" ] || [ -e "$t/x.itrace" ] && fail "$n: output left for a missing segment"
  expect 2 "is not the CAT" "$C" replay "$t/one.ims" "$t/one.aes" --verify "$t/$n.cat" --segment 0 -q
  expect 2 "is not the CAT" "$C" replay "$t/$n.ims" "$t/$n.aes" --segment 1 --verify "$t/p.cat" -q
  expect 2 "bad segment" "$C" replay "$t/$n.ims" "$t/$n.aes" --segment x
  echo "$n: $k segments of $N instructions, replayed in parallel and merged: identical"
  finish "checkpoint_segments_$n"
  ;;
merge)
  # an abnormal end in the middle: crash_wild faults in a later segment
  "$C" capture "$FW/crash_wild.elf" -o "$t/w.cat" --oracle "$t/w.oracle" --seed 1 -q --checkpoint-every 1000 \
    >/dev/null 2>"$t/err"
  [ $? -eq 3 ] || fail "capture: $(cat "$t/err")"
  "$C" plan "$t/w.cat" -o "$t/jobs.txt" --prefix "$t/w" --citcat "$C" 2>"$t/err" || fail "plan: $(cat "$t/err")"
  while read -r line; do
    bash -c "$line" >"$t/out" 2>&1 || fail "job failed: $line: $(tail -n 5 "$t/out")"
  done <"$t/jobs.txt"
  "$C" merge "$t"/w.*.itrace -o "$t/m.itrace" 2>"$t/err" || fail "merge: $(cat "$t/err")"
  cmp -s "$t/m.itrace" "$t/w.oracle" || fail "the merged itrace of a faulting run differs from the oracle"
  last=$(ls "$t"/w.*.itrace | tail -n 1)
  expect 2 "not the last segment" "$C" merge "$last" "$t/w.000000.itrace" -o "$t/bad.itrace"
  [ -e "$t/bad.itrace" ] && fail "merge left an output behind"
  expect 2 "need the segments" "$C" merge -o "$t/bad.itrace"
  expect 2 "need RUN.ims RUN.aes (or RUN.cat)" "$C" plan "$t/w.cat"
  finish checkpoint_merge
  ;;
dilation)
  N=25000
  "$C" capture "$EX/matmul.elf" -o "$t/a.cat" --oracle "$t/a.oracle" --seed 1 -q >/dev/null 2>"$t/err" ||
    fail "capture: $(cat "$t/err")"
  "$C" capture "$EX/matmul.elf" -o "$t/b.cat" --oracle "$t/b.oracle" --seed 1 -q --checkpoint-every $N >/dev/null 2>"$t/err" ||
    fail "capture with checkpoints: $(cat "$t/err")"
  "$C" info --json "$t/a.cat" >"$t/a.json" && "$C" info --json "$t/b.cat" >"$t/b.json" || fail "info"
  k=$(ckpts b)
  [ "$(ckpts a)" -eq 0 ] || fail "checkpoints without the option"
  [ "$k" -ge 10 ] || fail "only $k checkpoints"
  [ "$(jnum "$t/b.json" irq)" -eq "$k" ] || fail "CAT irq events $(jnum "$t/b.json" irq), listing $k"
  di=$(( $(jnum "$t/b.json" instructions) - $(jnum "$t/a.json" instructions) ))
  db=$(( $(jnum "$t/b.json" branches) - $(jnum "$t/a.json" branches) ))
  du=$(( $(jnum "$t/b.json" uncached_write) - $(jnum "$t/a.json" uncached_write) ))
  [ "$di" -eq $((78 * k)) ] || fail "instructions +$di for $k checkpoints, expected 78 each"
  [ "$db" -eq $((4 * k)) ] || fail "branches +$db for $k checkpoints, expected 4 each"
  [ "$du" -eq $((44 * k)) ] || fail "uncached writes +$du for $k checkpoints, expected 44 each"
  # each checkpoint enters at the FIQ vector: the line after it is 0x1c
  grep -A1 "interrupt line 15" "$t/b.txt" | grep -v "interrupt line 15" | grep -v -- '^--$' |
    grep -v "^ *[0-9]* *0000001c" | head -n 1 >"$t/bad"
  [ -s "$t/bad" ] && fail "a checkpoint not followed by the FIQ vector: $(cat "$t/bad")"
  # the first one is exactly N instructions after P: N instruction lines
  # precede the first checkpoint in the listing
  first=$(grep -n -m1 "interrupt line 15" "$t/b.txt" | cut -d: -f1)
  before=$(head -n "$first" "$t/b.txt" | grep -c '^ *[0-9]')
  [ "$before" -eq "$N" ] || fail "first checkpoint after $before instructions, expected $N"
  # CAT version 5: one CKPT event per checkpoint at its start point P_k,
  # which is 14 instructions into the checkpoint (the vector's b, 6 handler
  # instructions, the driver's 7 up to and including the INV_I store), so the
  # j-th CKPT counts j * (N + 14) instructions since P, and its branch
  # counter is the checkpoint IRQ's plus 2 (the vector's b, the bl to the
  # driver)
  [ "$(jnum "$t/b.json" ckpt)" -eq "$k" ] || fail "CAT ckpt events $(jnum "$t/b.json" ckpt), checkpoints $k"
  [ "$(jnum "$t/a.json" ckpt)" -eq 0 ] || fail "ckpt events without the option"
  "$C" dump "$t/b.cat" >"$t/b.dump" 2>"$t/err" || fail "dump: $(cat "$t/err")"
  awk -v n=$N '/ irq line=15 / { sub("bcount=", "", $4); b = $4 }
    / ckpt / { j++; sub("insns=", "", $4); sub("bcount=", "", $5)
               if ($4 != j * (n + 14) || $5 != b + 2) { print "ckpt " j ": " $0; exit } }' "$t/b.dump" >"$t/bad"
  [ -s "$t/bad" ] && fail "$(cat "$t/bad")"
  pipeline b
  echo "matmul: $k checkpoints: +$di instructions, +$db branches, +$du uncached writes"
  finish checkpoint_dilation
  ;;
postmortem)
  for n in wild stack undef; do
    "$C" capture "$FW/crash_$n.elf" -o "$t/$n.cat" --oracle "$t/$n.oracle" --seed 1 -q --checkpoint-every 1000 \
      >/dev/null 2>"$t/err"
    rc=$?
    [ $rc -eq 3 ] || fail "$n: capture exited $rc, expected 3: $(cat "$t/err")"
    k=$(ckpts "$n")
    [ "$k" -ge 1 ] || fail "$n: the fault is not in a later segment ($k checkpoints)"
    pipeline "$n"
    tail -n 1 "$t/$n.txt" | grep -qi "fault\|undefined\|bus error" || fail "$n: listing ends $(tail -n 1 "$t/$n.txt")"
  done
  "$C" capture "$FW/crash_hang.elf" -o "$t/lim.cat" --oracle "$t/lim.oracle" --seed 1 -q --max-insns 100K \
    --checkpoint-every 7000 >/dev/null 2>"$t/err" || fail "limit: capture: $(cat "$t/err")"
  [ "$(ckpts lim)" -ge 10 ] || fail "limit: $(ckpts lim) checkpoints"
  pipeline lim
  finish checkpoint_postmortem
  ;;
usage)
  expect 2 "checkpoint interval" "$C" capture "$EX/idle.elf" -o "$t/x.cat" --checkpoint-every 999
  expect 2 "checkpoint interval" "$C" capture "$EX/idle.elf" -o "$t/x.cat" --checkpoint-every 0
  expect 2 "LVT or DAF" "$C" capture "$EX/idle.elf" -o "$t/x.cat" --checkpoint-every 1000 --lvt "$t/x.lvt"
  [ -e "$t/x.cat" ] && fail "a CAT was left behind"
  finish checkpoint_usage
  ;;
irq)
  for ck in "" "--checkpoint-every 1000"; do
    "$C" capture "$FW/ckpt.elf" -o "$t/k.cat" --oracle "$t/k.oracle" --seed 1 -q --exit-status $ck >"$t/out" 2>"$t/err" ||
      fail "capture $ck: exit $?: $(cat "$t/out" "$t/err")"
    grep -q "ckpt: .* OK" "$t/out" || fail "capture $ck: $(cat "$t/out")"
  done
  pipeline k
  # checkpoints whose EPC lies inside citcat_irq_timer (nm -S: address, size)
  read -r lo sz < <("$NM" -S "$FW/ckpt.elf" | awk '$4 == "citcat_irq_timer" { print $1, $2 }')
  [ -n "$lo" ] || fail "no citcat_irq_timer in ckpt.elf"
  ckpts k >/dev/null
  inside=0 all=0
  while read -r epc; do
    all=$((all + 1))
    (( 0x$epc >= 0x$lo && 0x$epc < 0x$lo + 0x$sz )) && inside=$((inside + 1))
  done < <(grep -o "interrupt line 15.*" "$t/k.txt" | grep -o -i "0x[0-9a-f]*\|[0-9a-f]\{8\}" | sed 's/^0x//' | head -n 100000)
  [ "$all" -ge 10 ] || fail "only $all checkpoints with an EPC"
  [ "$inside" -ge 1 ] || fail "no checkpoint landed in the timer handler ($all checkpoints)"
  echo "ckpt: $all checkpoints, $inside inside the timer handler"
  finish checkpoint_irq
  ;;
*) echo "unknown section $section"; exit 2 ;;
esac
