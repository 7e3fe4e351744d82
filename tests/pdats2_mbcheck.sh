#!/usr/bin/env bash
# pdats2_mbcheck.sh CITCAT OUT.tsv DIN... (issue 34: a measurement, not a CTest test)
# Per din, one at a time (the MiBench2 dins are 0.1-260 MB): its references
# (lines), its bytes, the raw PDATS II bytes of `CITCAT convert X.din -o
# X.pdats2` (the writer's default version), the user CPU seconds of that
# convert, and with RT=1 whether din -> pdats2 -> din is byte-identical.
# Appends tab-separated rows to OUT.tsv; tests/pdats2_mbtable.py OUT.tsv
# prints the ARM / Thumb / M7 refs/byte table.
C=$1; out=$2; shift 2
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for d in "$@"; do
  b=$(basename "$d" .din)
  r=$(wc -l < "$d")
  s=$( { /usr/bin/time -f %U "$C" convert "$d" -o $t/x.pdats2 >/dev/null; } 2>&1 | tail -1)
  rt=-
  if [ "${RT:-0}" = 1 ]; then
    "$C" convert $t/x.pdats2 -o $t/x.din && cmp -s $t/x.din "$d" && rt=same || rt=DIFF
  fi
  printf '%s\t%d\t%d\t%d\t%s\t%s\n' "$b" "$r" "$(stat -c %s "$d")" "$(stat -c %s $t/x.pdats2)" "$s" "$rt" >> "$out"
  rm -f $t/x.pdats2 $t/x.din
done
