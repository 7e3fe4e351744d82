#!/usr/bin/env bash
# citcat replay on bad inputs: truncated IMS/AES, a mismatched IMS/AES pair
# (two captures with different seeds), the wrong kind of file in each place,
# and a CAT/oracle that is not the one the IMS came from.  Each must exit 2
# with a message naming the file, and leave no output behind.
# Usage: replay_cli.sh CITCAT SCHED.elf DIR   (DIR holds the fixture's sched.cat/.itrace)
set -u
citcat=$1 elf=$2 dir=$3
. "$(dirname "$0")/testlib.sh"

# expect_replay CODE PATTERN REPLAY-ARGS...: exit code, a stderr pattern, no output
expect_replay() {
  local code=$1 pat=$2
  shift 2
  rm -f "$t/out.itrace"
  expect "$code" "$pat" "$citcat" replay "$@" -o "$t/out.itrace"
  [ ! -e "$t/out.itrace" ] || fail "replay $*: output left behind"
  ls "$t" | grep -q '\.tmp-' && fail "replay $*: temporary file left behind"
  return 0
}

cp "$dir/sched.cat" "$t/run.cat"
cp "$dir/sched.itrace" "$t/run.itrace"
"$citcat" ims "$t/run.cat" -o "$t/run.ims" 2>/dev/null || fail "ims"
"$citcat" aes "$t/run.cat" -o "$t/run.aes" 2>/dev/null || fail "aes"
# a second capture of the same firmware with another seed
"$citcat" capture "$elf" -o "$t/other.cat" --seed 2 -q >/dev/null || fail "capture --seed 2"
"$citcat" ims "$t/other.cat" -o "$t/other.ims" 2>/dev/null || fail "ims (seed 2)"
"$citcat" aes "$t/other.cat" -o "$t/other.aes" 2>/dev/null || fail "aes (seed 2)"

# the good pair works (so the failures below are about the inputs)
"$citcat" replay "$t/run.ims" "$t/run.aes" -o "$t/good.itrace" --verify "$t/run.cat" --oracle "$t/run.itrace" 2>"$t/err" ||
  fail "the untouched pair: $(cat "$t/err")"

# truncated: in a chunk, and just the end marker
for k in ims aes; do
  size=$(stat -c %s "$t/run.$k")
  head -c $((size / 2)) "$t/run.$k" >"$t/half.$k"
  head -c $((size - 3)) "$t/run.$k" >"$t/cut.$k"
  : >"$t/empty.$k"
done
expect_replay 2 "half.ims: offset [0-9]*: " "$t/half.ims" "$t/run.aes"
expect_replay 2 "cut.ims: offset [0-9]*: " "$t/cut.ims" "$t/run.aes"
expect_replay 2 "empty.ims: offset 0: file is empty" "$t/empty.ims" "$t/run.aes"
expect_replay 2 "half.aes: offset [0-9]*: " "$t/run.ims" "$t/half.aes"
expect_replay 2 "cut.aes: offset [0-9]*: file ends inside the end marker" "$t/run.ims" "$t/cut.aes"
expect_replay 2 "empty.aes: offset 0: file is empty" "$t/run.ims" "$t/empty.aes"
# mismatched pair, both ways
expect_replay 2 "run.ims and .*other.aes come from different captures" "$t/run.ims" "$t/other.aes"
expect_replay 2 "other.ims and .*run.aes come from different captures" "$t/other.ims" "$t/run.aes"
# the wrong kind of file
expect_replay 2 "run.cat: offset 0: wrong kind of file: magic 'CCAT', expected 'CIMS'" "$t/run.cat" "$t/run.aes"
expect_replay 2 "run.itrace: offset 0: wrong kind of file: magic 'CITR', expected 'CAES'" "$t/run.ims" "$t/run.itrace"
expect_replay 2 "run.aes: offset 0: wrong kind of file: magic 'CAES', expected 'CIMS'" "$t/run.aes" "$t/run.ims"
expect_replay 2 "run.aes: offset 0: wrong kind of file: magic 'CAES', expected 'CCAT'" "$t/run.ims" "$t/run.aes" --verify "$t/run.aes"
expect_replay 2 "run.cat: offset 0: wrong kind of file: magic 'CCAT', expected 'CITR'" "$t/run.ims" "$t/run.aes" --oracle "$t/run.cat"
# checks against files of another capture
expect_replay 2 "other.cat is not the CAT .*run.ims was extracted from" "$t/run.ims" "$t/run.aes" --verify "$t/other.cat"
# a truncated CAT or oracle is an input error even when every event matched
size=$(stat -c %s "$t/run.cat")
head -c $((size - 3)) "$t/run.cat" >"$t/cut.cat"
expect_replay 2 "cut.cat: offset [0-9]*: file ends inside the end marker" "$t/run.ims" "$t/run.aes" --verify "$t/cut.cat"
size=$(stat -c %s "$t/run.itrace")
head -c $((size - 3)) "$t/run.itrace" >"$t/cut.itrace"
expect_replay 2 "cut.itrace: offset [0-9]*: file ends inside the end marker" "$t/run.ims" "$t/run.aes" --oracle "$t/cut.itrace"
# missing files and usage
expect_replay 2 "missing.ims: cannot open" "$t/missing.ims" "$t/run.aes"
expect_replay 2 "need RUN.ims and RUN.aes" "$t/run.ims"
expect_replay 2 "unknown or incomplete option" "$t/run.ims" "$t/run.aes" --bogus

finish replay_cli
