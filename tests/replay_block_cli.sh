#!/usr/bin/env bash
# The block engine at the command line (replay/REPLAY.md "Block-granular
# replay"), the paths replay_block_NAME does not reach:
#  refusal: --engine block on a Cortex-M7 run (m7cap) and on a run whose AES
#    ends in a fault (crash_wild): exit 2, the reason on stderr, no output
#    file; --engine auto on the same run gives the insn engine's bytes.
#  jobs: an example captured with checkpoints (about 4 segments) replayed
#    with --jobs 2 --engine block (IMS/AES bundles, with --verify and
#    --oracle, and the RUN.cat form) is byte-identical to the serial insn
#    replay; a segment the block engine refuses (crash_wild's last one ends
#    in the fault) fails the whole --jobs run with exit 2, no output.
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

# a run that ends in a fault (its AES END record says so)
cap wild "$FW/crash_wild.elf"
refused wild "the run ends in a fault" "$C" replay "$t/wild.ims" "$t/wild.aes" --engine block --verify "$t/wild.cat"
"$C" replay "$t/wild.ims" "$t/wild.aes" --engine auto -o "$t/wild.auto" --verify "$t/wild.cat" -q 2>"$t/err" ||
  fail "wild: auto: $(cat "$t/err")"
cmp -s "$t/wild.auto" "$t/wild.oracle" || fail "wild: auto differs from the oracle"
# checkpointed, its last segment ends in the fault: --jobs with the block engine fails as a whole
cap wildk "$FW/crash_wild.elf" --checkpoint-every 1000
rc=0
"$C" replay "$t/wildk.ims" "$t/wildk.aes" --jobs 2 --engine block -o "$t/out.itrace" 2>"$t/err" || rc=$?
[ $rc -eq 2 ] || fail "wildk: --jobs 2 --engine block exit $rc (want 2): $(cat "$t/err")"
grep -q "segment [0-9]*: .*block engine does not take this run: the run ends in a fault" "$t/err" ||
  fail "wildk: no reason: $(cat "$t/err")"
[ -e "$t/out.itrace" ] && fail "wildk: output file left after the refusal"
"$C" replay "$t/wildk.ims" "$t/wildk.aes" --jobs 2 --engine auto -o "$t/wildk.auto" --oracle "$t/wildk.oracle" -q \
  2>"$t/err" || fail "wildk: --jobs 2 --engine auto: $(cat "$t/err")"
echo "wildk: --jobs --engine block refused (a segment ends in the fault); auto equals the oracle"

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
