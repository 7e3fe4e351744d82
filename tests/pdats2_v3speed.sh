#!/usr/bin/env bash
# pdats2_v3speed.sh OLD_CITCAT NEW_CITCAT DIN (issue 34: a measurement, not a CTest test)
# Callgrind instruction counts of `citcat convert DIN -o X.pdats2` (encode)
# and `citcat convert X.pdats2 -o back.din` (decode), OLD's (PDATS II
# version 2) against NEW's (version 3), and NEW decoding OLD's file: the
# whole program and the PDATS II part (pdats2_put / pdats2_next, inclusive).
set -eu
O=$1 N=$2 D=$3
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cg() { out=$1; shift; nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$t/$out.cg" "$@" >/dev/null 2>&1; }
cg enc_old "$O" convert "$D" -o "$t/old.pdats2"
cg enc_new "$N" convert "$D" -o "$t/new.pdats2"
cg dec_old "$O" convert "$t/old.pdats2" -o "$t/a.din"
cg dec_new "$N" convert "$t/new.pdats2" -o "$t/b.din"
cg dec_new_oldfile "$N" convert "$t/old.pdats2" -o "$t/c.din"
for f in a b c; do cmp -s "$t/$f.din" "$D" || { echo "round trip $f differs" >&2; exit 1; }; done
printf '%-16s %15s %15s\n' run program pdats2_part
for f in enc_old enc_new dec_old dec_new dec_new_oldfile; do
  tot=$(callgrind_annotate "$t/$f.cg" | awk '/PROGRAM TOTALS/ {print $1; exit}')
  part=$(callgrind_annotate --inclusive=yes "$t/$f.cg" | awk '/pdats2\.c:pdats2_(put|next) / {print $1; exit}')
  printf '%-16s %15s %15s\n' $f $tot $part
done
