#!/usr/bin/env bash
# The block engine at the command line (replay/REPLAY.md "Block-granular
# replay"), the paths replay_block_NAME does not reach:
#  refusal: --engine block on a Cortex-M7 run (m7cap): exit 2, the reason on
#    stderr, no output file; --engine auto on the same run gives the insn
#    engine's bytes.
#  faults: runs that end in a fault (every crash firmware of the A target
#    in FW_DIR: a wild load, a stack overflow's store, UDF, an SMC and an
#    undefined MRC in the middle of a block, a wild store and a fetch from
#    nothing in ARM and Thumb-2) replayed with --engine block and with auto:
#    --verify and --oracle hold, the itrace equals the oracle, and the block
#    engine ran blocks (its summary); crash_wild checkpointed, its last
#    segment ending in the fault, with --jobs 2 --engine block equals the
#    oracle.  (Until stop 43 the block engine refused these runs.)
#  jobs: an example captured with checkpoints (about 4 segments) replayed
#    with --jobs 2 --engine block (IMS/AES bundles, with --verify and
#    --oracle, and the RUN.cat form) is byte-identical to the serial insn
#    replay.
# Usage: replay_block_cli.sh CITCAT EXAMPLE_DIR FW_DIR
set -u
C=$1 EX=$2 FW=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "replay_block_cli: $*" >&2; exit 1; }
# refused NAME CMD...: exit 2, the refusal and its reason, no -o file
refused() {
  local n=$1 why=$2 rc=0
  shift 2
  rm -f "$t/out.itrace"
  "$@" -o "$t/out.itrace" 2>"$t/err" || rc=$?
  [ $rc -eq 2 ] || fail "$n: exit $rc (want 2): $(cat "$t/err")"
  grep -q "block engine does not take this run: $why" "$t/err" || fail "$n: no reason: $(cat "$t/err")"
  [ -e "$t/out.itrace" ] && fail "$n: output file left after the refusal"
  echo "$n: refused ($(sed -n 's/.*this run: //p' "$t/err"))"
}
cap() { # NAME ELF [capture options]: CAT, oracle, IMS, AES
  local n=$1 elf=$2
  shift 2
  local rc=0
  "$C" capture "$elf" -o "$t/$n.cat" --oracle "$t/$n.oracle" --seed 1 -q "$@" >/dev/null 2>"$t/err" || rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "$n: capture exit $rc: $(cat "$t/err")" # 3: the run ends in a fault
  "$C" ims "$t/$n.cat" -o "$t/$n.ims" 2>"$t/err" && "$C" aes "$t/$n.cat" -o "$t/$n.aes" 2>"$t/err" ||
    fail "$n: extraction: $(cat "$t/err")"
}

# the Cortex-M7: replayed per instruction only
cap m7 "$FW/m7/m7cap.elf"
refused m7 "the Cortex-M7" "$C" replay "$t/m7.ims" "$t/m7.aes" --engine block --verify "$t/m7.cat"
"$C" replay "$t/m7.ims" "$t/m7.aes" --engine auto -o "$t/m7.auto" --verify "$t/m7.cat" -q 2>"$t/err" ||
  fail "m7: auto: $(cat "$t/err")"
cmp -s "$t/m7.auto" "$t/m7.oracle" || fail "m7: auto differs from the oracle"

# runs that end in a fault: the block engine takes them (REPLAY.md "Runs
# that end in a fault"), and must run blocks on the way
nf=0
for elf in "$FW"/crash_wild.elf "$FW"/crash_stack.elf "$FW"/crash_undef.elf "$FW"/blk_exc_smc.elf "$FW"/blk_exc_undef.elf \
  "$FW"/gdbfw/gdbcrash1.elf "$FW"/gdbfw/gdbcrash2.elf "$FW"/gdbfw/gdbcrash1_thumb.elf "$FW"/gdbfw/gdbcrash2_thumb.elf; do
  [ -f "$elf" ] || continue
  n=$(basename "$elf" .elf)
  cap "$n" "$elf"
  "$C" info --json "$t/$n.cat" | grep -q '"stop": "fault"' || fail "$n: the capture did not end in a fault"
  for e in block auto; do
    "$C" replay "$t/$n.ims" "$t/$n.aes" --engine $e --verify "$t/$n.cat" --oracle "$t/$n.oracle" -o "$t/$n.$e" 2>"$t/err" ||
      fail "$n: --engine $e: $(cat "$t/err")"
    cmp -s "$t/$n.$e" "$t/$n.oracle" || fail "$n: --engine $e differs from the oracle"
    nb=$(sed -n 's/.*block engine: \([0-9]*\) blocks without the code hook.*/\1/p' "$t/err")
    [ -n "$nb" ] && [ "$nb" -gt 0 ] || fail "$n: --engine $e ran no block: $(cat "$t/err")"
  done
  nf=$((nf + 1))
done
[ $nf -ge 5 ] || fail "only $nf crash firmware found in $FW"
echo "faults: $nf runs that end in a fault replayed by the block engine and auto, equal to the oracle"
# checkpointed, its last segment ends in the fault
cap wildk "$FW/crash_wild.elf" --checkpoint-every 1000
"$C" replay "$t/wildk.ims" "$t/wildk.aes" --jobs 2 --engine block -o "$t/wildk.jobs" --oracle "$t/wildk.oracle" -q 2>"$t/err" ||
  fail "wildk: --jobs 2 --engine block: $(cat "$t/err")"
cmp -s "$t/wildk.jobs" "$t/wildk.oracle" || fail "wildk: --jobs 2 --engine block differs from the oracle"
echo "wildk: --jobs 2 --engine block (its last segment ends in the fault) equals the oracle"

# --engine through --jobs: sha256 in about 4 segments
cap p "$EX/sha256.elf"
"$C" info --json "$t/p.cat" >"$t/p.json" || fail "info"
i=$(sed -n 's/.*"instructions": *\([0-9]*\).*/\1/p' "$t/p.json" | head -n 1)
[ -n "$i" ] && [ "$i" -ge 4000 ] || fail "sha256: $i instructions"
cap s "$EX/sha256.elf" --checkpoint-every $((i / 4))
"$C" replay "$t/s.ims" "$t/s.aes" --engine insn -o "$t/s.serial" -q 2>"$t/err" || fail "serial insn: $(cat "$t/err")"
cmp -s "$t/s.serial" "$t/s.oracle" || fail "the serial insn replay differs from the oracle"
"$C" replay "$t/s.ims" "$t/s.aes" --jobs 2 --engine block -o "$t/s.jobs" --verify "$t/s.cat" --oracle "$t/s.oracle" \
  2>"$t/err" || fail "--jobs 2 --engine block: $(cat "$t/err")"
nseg=$(sed -n 's/.* in \([0-9]*\) segments.*/\1/p' "$t/err")
[ -n "$nseg" ] && [ "$nseg" -ge 4 ] || fail "not about 4 segments: $(cat "$t/err")"
cmp -s "$t/s.jobs" "$t/s.serial" || fail "--jobs 2 --engine block differs from the serial insn replay"
"$C" replay "$t/s.cat" --jobs 2 --engine block -o "$t/s.catjobs" --verify "$t/s.cat" -q 2>"$t/err" ||
  fail "RUN.cat --jobs 2 --engine block: $(cat "$t/err")"
cmp -s "$t/s.catjobs" "$t/s.serial" || fail "RUN.cat --jobs 2 --engine block differs from the serial insn replay"
echo "sha256: $nseg segments, --jobs 2 --engine block byte-identical to serial insn"
echo "replay_block_cli: ok"
