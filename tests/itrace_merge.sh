#!/bin/bash
# The splicing merge (formats/itrace_merge.c; replay/SEGMENTS.md "Merge",
# ITRACE.md "Chunks"): sha256 captured with checkpoints (about 4 segments),
# each segment extracted and replayed on its own; then
#   - merge and merge --check give the serial replay's itrace and the
#     oracle byte for byte (so the serial itrace has a chunk boundary at
#     each segment start), and it has at least one chunk per segment;
#   - the seam checks refuse: an itrace whose first PC does not follow the
#     segment before it, one that does not end at a checkpoint's INV_I store
#     followed by a segment, an empty input list;
#   - a corrupted chunk (one payload byte flipped) is refused by its
#     checksum with the file's name, and no output is left behind.
# usage: itrace_merge.sh CITCAT EXAMPLE_DIR PCS_GEN
. "$(dirname "$0")/testlib.sh"
C=$1 EX=$2 PCS=$3
export CITCAT_NO_PROGRESS=1
n=sha256
"$C" capture "$EX/$n.elf" -o "$t/p.cat" --seed 1 -q >/dev/null 2>"$t/err" || fail "capture: $(cat "$t/err")"
i=$("$C" info --json "$t/p.cat" | grep -o '"instructions": [0-9]*' | head -n 1 | grep -o '[0-9]*$')
N=$((i / 4))
[ "$N" -ge 1000 ] || N=1000
"$C" capture "$EX/$n.elf" -o "$t/r.cat" --oracle "$t/r.oracle" --seed 1 -q --checkpoint-every $N >/dev/null 2>"$t/err" ||
  fail "capture with checkpoints: $(cat "$t/err")"
"$C" ims "$t/r.cat" -o "$t/r.ims" 2>"$t/err" && "$C" aes "$t/r.cat" -o "$t/r.aes" 2>"$t/err" &&
  "$C" replay "$t/r.ims" "$t/r.aes" -o "$t/r.itrace" -q 2>"$t/err" || fail "serial replay: $(cat "$t/err")"
"$C" plan "$t/r.cat" -o "$t/jobs.txt" --prefix "$t/s" --citcat "$C" 2>"$t/err" || fail "plan: $(cat "$t/err")"
k=$(wc -l <"$t/jobs.txt")
[ "$k" -ge 3 ] || fail "only $k segments"
while read -r line; do
  bash -c "$line" >"$t/out" 2>&1 || fail "job failed: $line: $(tail -n 5 "$t/out")"
done <"$t/jobs.txt"
"$C" merge "$t"/s.*.itrace -o "$t/m.itrace" 2>"$t/err" || fail "merge: $(cat "$t/err")"
cmp -s "$t/m.itrace" "$t/r.itrace" || fail "the spliced itrace differs from the serial one"
cmp -s "$t/m.itrace" "$t/r.oracle" || fail "the spliced itrace differs from the oracle"
"$C" merge --check "$t"/s.*.itrace -o "$t/mc.itrace" 2>"$t/err" || fail "merge --check: $(cat "$t/err")"
cmp -s "$t/mc.itrace" "$t/r.itrace" || fail "merge --check's itrace differs from the serial one"
# chunk tags ("BLK\0") in the serial file: at least one per segment
blk=$(grep -c -a -o $'BLK' "$t/r.itrace" || true)
[ "$blk" -ge "$k" ] || fail "$blk chunks in the serial itrace of $k segments"

# seams: after a segment, an itrace that starts elsewhere (pcs_gen's, at
# PC 0); that itrace (not ending at an INV_I store) before a segment; no
# inputs.  Every segment starts at the same PC (the driver's instruction
# after its INV_I store), so order is checked by the segment numbers each
# segment's itrace carries (ITRACE.md, issue 29): out of order, twice, or
# beside a whole run's itrace is refused.
"$PCS" "$t/pcs.itrace" 100 2 || fail "pcs_gen"
expect 2 "first instruction is at 0x0, not at" "$C" merge "$t/s.000000.itrace" "$t/pcs.itrace" -o "$t/bad.itrace"
expect 2 "pcs.itrace: does not end at a checkpoint" "$C" merge "$t/pcs.itrace" "$t/s.000001.itrace" -o "$t/bad.itrace"
expect 2 "need the segments" "$C" merge -o "$t/bad.itrace"
expect 2 "give the segments in order" "$C" merge "$t/s.000001.itrace" "$t/s.000000.itrace" -o "$t/bad.itrace"
expect 2 "one segment given twice" "$C" merge "$t/s.000000.itrace" "$t/s.000000.itrace" -o "$t/bad.itrace"
expect 2 "not a segment's itrace" "$C" merge "$t/s.000000.itrace" "$t/r.itrace" -o "$t/bad.itrace"
[ -e "$t/bad.itrace" ] && fail "a refused merge left an output behind"

# a flipped payload byte in the middle of segment 1: its chunk's checksum
cp "$t/s.000001.itrace" "$t/c.itrace"
sz=$(stat -c %s "$t/c.itrace")
off=$((sz / 2))
b=$(od -An -tu1 -j $off -N1 "$t/c.itrace" | tr -d ' ')
printf "$(printf '\\%03o' $(((b + 1) % 256)))" | dd of="$t/c.itrace" bs=1 seek=$off conv=notrunc status=none
expect 2 "c.itrace.*checksum" "$C" merge "$t/s.000000.itrace" "$t/c.itrace" -o "$t/bad.itrace"
[ -e "$t/bad.itrace" ] && fail "a refused merge left an output behind"
ls "$t" | grep -q 'bad.itrace' && fail "a temporary output was left behind"
echo "$n: $k segments spliced: identical to the serial replay and the oracle; bad seams and chunks refused"
finish itrace_merge
