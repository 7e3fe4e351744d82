#!/usr/bin/env bash
# WET of one example (issue 10): build it while replaying the fixture's
# capture, check it against the brute-force reference (test_wet_ref), check
# the fixed text answers of `citcat wet query` against the ones the
# reference derived from the itrace, and check that damaged WET files give
# exit 2 naming the file and the byte offset.
# Usage: wet_example.sh CITCAT TEST_WET_REF DIR NAME SPACED [tamper|nozip]
# (SPACED: evenly spaced slice starts for test_wet_ref; nozip: skip the
# compressed WET files and standard input)
set -u
citcat=$1 ref=$2 dir=$3 name=$4 spaced=$5 tamper=${6:-}
. "$(dirname "$0")/testlib.sh"

"$citcat" ims "$dir/$name.cat" -o "$t/run.ims" 2>/dev/null || fail "ims"
"$citcat" aes "$dir/$name.cat" -o "$t/run.aes" 2>/dev/null || fail "aes"
"$citcat" wet "$t/run.ims" "$t/run.aes" -o "$t/run.wet" 2>"$t/err" || fail "wet: $(cat "$t/err")"
# the layout as WET.md gives it, read by a reader of its own; the embedded
# IMS and AES byte for byte those replayed
python3 "$(dirname "$0")/wet_spec.py" "$t/run.wet" "$t/run.ims" "$t/run.aes" >"$t/spec" || fail "layout: $(cat "$t/spec")"
mkdir -p "$t/ref"
"$ref" "$t/run.ims" "$t/run.aes" "$dir/$name.itrace" "$t/run.wet" "$t/ref" "$spaced" || fail "reference comparison"

q() { "$citcat" wet query "$t/run.wet" "$@" 2>"$t/qerr"; }
q --cf >"$t/cf" || fail "--cf: $(cat "$t/qerr")"
cmp -s "$t/cf" "$t/ref/cf.txt" || fail "--cf differs from the itrace's PCs"
q --cf --backward >"$t/cfb" || fail "--cf --backward"
tac "$t/ref/cf.txt" | cmp -s - "$t/cfb" || fail "--cf --backward differs from the itrace's PCs reversed"
q --loads >"$t/ld" || fail "--loads"
cmp -s "$t/ld" "$t/ref/loads.txt" || fail "--loads differs from the itrace's reads"
q --addrs >"$t/ad" || fail "--addrs"
cmp -s "$t/ad" "$t/ref/addrs.txt" || fail "--addrs differs from the itrace's accesses"
# one PC's loads: the reference's lines with that PC
pc=$(awk 'NR == 1 { print $2 }' "$t/ref/loads.txt")
if [ -n "$pc" ]; then
  q --loads --pc "$pc" >"$t/ldpc" || fail "--loads --pc"
  awk -v pc="$pc" '$2 == pc' "$t/ref/loads.txt" | cmp -s - "$t/ldpc" || fail "--loads --pc $pc differs"
fi
# a timestamp range: timestamps 1..3 hold at least the first instruction
q --cf --range 1:3 >"$t/cfr" || fail "--cf --range"
[ -s "$t/cfr" ] && head -n "$(wc -l <"$t/cfr")" "$t/ref/cf.txt" | cmp -s - "$t/cfr" || fail "--cf --range 1:3 is not a prefix of the trace"
i=0
while read -r s; do
  q --slice "$s" >"$t/sl" || fail "--slice $s"
  cmp -s "$t/sl" "$t/ref/slice$i.txt" || fail "--slice $s differs from the reference"
  q --forward-slice "$s" >"$t/fsl" || fail "--forward-slice $s"
  cmp -s "$t/fsl" "$t/ref/fslice$i.txt" || fail "--forward-slice $s differs from the reference"
  i=$((i + 1))
done <"$t/ref/starts.txt"
q --check >/dev/null || fail "--check on a good WET: $(cat "$t/qerr")"
# basic-block nodes (--nodes bb): the same answers from a different node table
"$citcat" wet "$t/run.ims" "$t/run.aes" -o "$t/bb.wet" --nodes bb 2>"$t/err" || fail "wet --nodes bb: $(cat "$t/err")"
"$citcat" wet query "$t/bb.wet" --cf --backward 2>/dev/null | tac | cmp -s - "$t/ref/cf.txt" || fail "--nodes bb: --cf --backward"
s=$(head -n 1 "$t/ref/starts.txt")
"$citcat" wet query "$t/bb.wet" --slice "$s" 2>/dev/null | cmp -s - "$t/ref/slice0.txt" || fail "--nodes bb: --slice $s"
"$citcat" wet query "$t/bb.wet" --forward-slice "$s" 2>/dev/null | cmp -s - "$t/ref/fslice0.txt" || fail "--nodes bb: --forward-slice $s"
q --cf --json >"$t/j" && grep -q '^{"query": "cf", "pcs": \[' "$t/j" || fail "--cf --json"

# compressed WET files and standard input (the input layer): the same answers
if [ "$tamper" != nozip ]; then
lz4 -qf "$t/run.wet" "$t/run.wet.lz4" && zstd -qf "$t/run.wet" -o "$t/run.wet.zst" && xz -kf -T1 "$t/run.wet" ||
  fail "cannot compress the WET"
for z in lz4 zst xz; do
  "$citcat" wet query "$t/run.wet.$z" --cf --backward 2>"$t/qerr" | cmp -s - "$t/cfb" || fail "--cf --backward on .$z: $(cat "$t/qerr")"
  "$citcat" wet query "$t/run.wet.$z" --slice "$s" 2>"$t/qerr" | cmp -s - "$t/ref/slice0.txt" || fail "--slice on .$z"
done
"$citcat" wet query - --loads <"$t/run.wet.zst" 2>"$t/qerr" | cmp -s - "$t/ref/loads.txt" || fail "--loads on zstd standard input"
fi

if [ "$tamper" = tamper ]; then
  w="$t/run.wet"
  # a truncated compressed WET: exit 2 naming the file and the offset
  zs=$(stat -c %s "$w.zst")
  head -c $((zs / 2)) "$w.zst" >"$t/trunc.wet.zst"
  expect 2 "trunc.wet.zst.*offset" "$citcat" wet query "$t/trunc.wet.zst" --cf
  size=$(stat -c %s "$w")
  # truncated: no footer any more
  head -c $((size - 7)) "$w" >"$t/trunc.wet"
  expect 2 "trunc.wet.*offset" "$citcat" wet query "$t/trunc.wet" --cf
  head -c 10 "$w" >"$t/short.wet"
  expect 2 "short.wet.*offset" "$citcat" wet query "$t/short.wet" --cf
  : >"$t/empty.wet"
  expect 2 "empty.wet" "$citcat" wet query "$t/empty.wet" --cf
  # a flipped byte: in the header, a stream block, and the footer's offsets
  for off in 8 100 $((size / 2)) $((size - 64)); do
    cp "$w" "$t/bad.wet"
    printf '\xff' | dd of="$t/bad.wet" bs=1 seek="$off" conv=notrunc 2>/dev/null
    cmp -s "$w" "$t/bad.wet" && printf '\x00' | dd of="$t/bad.wet" bs=1 seek="$off" conv=notrunc 2>/dev/null
    expect 2 "bad.wet.*offset" "$citcat" wet query "$t/bad.wet" --check
  done
  # the wrong kind of file
  expect 2 "run.ims.*not a WET" "$citcat" wet query "$t/run.ims" --cf
  # usage errors
  expect 2 "usage\|need" "$citcat" wet query "$w"
  expect 2 "'path' or 'bb'" "$citcat" wet "$t/run.ims" "$t/run.aes" -o "$t/x.wet" --nodes loops
  [ ! -e "$t/x.wet" ] || fail "output left behind"
  # a bad AES: no WET left behind
  head -c 100 "$t/run.aes" >"$t/bad.aes"
  expect 2 "bad.aes" "$citcat" wet "$t/run.ims" "$t/bad.aes" -o "$t/y.wet"
  [ ! -e "$t/y.wet" ] || fail "output left behind after a bad AES"
  ls "$t" | grep -q '\.tmp-' && fail "temporary file left behind"
fi
finish "wet $name"
