#!/usr/bin/env bash
# pdats2_v3check.sh OLD_CITCAT NEW_CITCAT DIN... (issue 34: a measurement, not a CTest test)
# Per din: the PDATS II file bytes raw, .lz4, .zst and .tvp written by OLD
# (version 2) and NEW (version 3), NEW - OLD, and NEW's round trips
# din -> X -> din for all four forms (rt: "same" when all four are
# byte-identical).  For a din whose NEW raw file has no size bits (ARM) it
# also checks that the two raw files differ only in the version byte (4)
# and the trailer's checksum, which covers the header (arm: "=v" or "DIFF").
O=$1; N=$2; shift 2
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '%-16s %8s | %8s %8s %5s | %8s %8s %5s | %8s %8s %5s | %7s %7s %4s | %-4s %s\n' din refs \
  raw_v2 raw_v3 d lz4_v2 lz4_v3 d zst_v2 zst_v3 d tvp_v2 tvp_v3 d rt arm
for d in "$@"; do
  r=$(wc -l < "$d")
  for v in O N; do
    C=${!v}
    for s in pdats2 pdats2.lz4 pdats2.zst pdats2.tvp; do "$C" convert "$d" -o $t/$v.$s 2>/dev/null || echo "convert $v $s failed" >&2; done
  done
  rt=same
  for s in pdats2 pdats2.lz4 pdats2.zst pdats2.tvp; do
    "$N" convert $t/N.$s -o $t/back.din 2>/dev/null; cmp -s $t/back.din "$d" || rt=DIFF
  done
  a=-
  if [ "$(stat -c %s $t/O.pdats2)" = "$(stat -c %s $t/N.pdats2)" ]; then
    n=$(stat -c %s $t/N.pdats2)
    a=$(cmp -l $t/O.pdats2 $t/N.pdats2 | awk -v n=$n '$1 != 5 && $1 <= n - 4 {bad=1} END {print bad ? "DIFF" : "=v"}')
  fi
  sz() { stat -c %s $t/$1; }
  printf '%-16s %8d | %8d %8d %5d | %8d %8d %5d | %8d %8d %5d | %7d %7d %4d | %-4s %s\n' "$(basename "$d" .din)" $r \
    $(sz O.pdats2) $(sz N.pdats2) $(( $(sz N.pdats2) - $(sz O.pdats2) )) \
    $(sz O.pdats2.lz4) $(sz N.pdats2.lz4) $(( $(sz N.pdats2.lz4) - $(sz O.pdats2.lz4) )) \
    $(sz O.pdats2.zst) $(sz N.pdats2.zst) $(( $(sz N.pdats2.zst) - $(sz O.pdats2.zst) )) \
    $(sz O.pdats2.tvp) $(sz N.pdats2.tvp) $(( $(sz N.pdats2.tvp) - $(sz O.pdats2.tvp) )) $rt $a
done
