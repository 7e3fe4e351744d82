#!/usr/bin/env bash
# pdats2_table.sh CITCAT DIN... (issue 34: a measurement, not a CTest test)
#: refs/byte of PDATS II raw, + LZ4, + zstd, and the din -> pdats2 -> din round trip
C=$1; shift
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '%-18s %9s %9s %9s %9s %9s %s\n' din refs raw_B raw lz4 zstd roundtrip
for d in "$@"; do
  r=$(wc -l < "$d")
  "$C" convert "$d" -o $t/x.pdats2 2>/dev/null; "$C" convert "$d" -o $t/x.pdats2.lz4 2>/dev/null; "$C" convert "$d" -o $t/x.pdats2.zst 2>/dev/null
  "$C" convert $t/x.pdats2 -o $t/back.din 2>/dev/null; cmp -s $t/back.din "$d" && rt=same || rt=DIFF
  awk -v n=$(basename "$d" .din) -v r=$r -v a=$(stat -c %s $t/x.pdats2) -v b=$(stat -c %s $t/x.pdats2.lz4) -v c=$(stat -c %s $t/x.pdats2.zst) -v rt=$rt \
    'BEGIN{printf "%-18s %9d %9d %9.3f %9.3f %9.3f %s\n", n, r, a, r/a, r/b, r/c, rt}'
done
