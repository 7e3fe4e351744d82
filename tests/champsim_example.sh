#!/usr/bin/env bash
# ChampSim export on one example's oracle itrace (ex_NAME fixture): one
# 64-byte record per instruction, the .xz output decodes to the same bytes,
# and a text or DMA-only input is refused.
# Usage: champsim_example.sh CITCAT OUTDIR NAME
set -u
citcat=$1 out=$2 name=$3
. "$(dirname "$0")/testlib.sh"
it=$out/$name.itrace
"$citcat" convert "$it" -o "$t/a.champsim" || fail "itrace -> champsim"
"$citcat" convert "$it" -o "$t/a.champsim.xz" || fail "itrace -> champsim.xz"
ij=$("$citcat" info --json "$it") || fail "info"
insns=$(grep -o '"instructions": [0-9]*' <<<"$ij" | sed 's/.*: //')
[ "$(stat -c %s "$t/a.champsim")" -eq $((64 * insns)) ] || fail "$(stat -c %s "$t/a.champsim") bytes for $insns instructions"
xz -dc "$t/a.champsim.xz" | cmp -s - "$t/a.champsim" || fail ".xz output does not decode to the plain records"
"$citcat" convert "$it" -o "$t/b.xdin" || fail "xdin"
expect 2 "made from an itrace" "$citcat" convert "$t/b.xdin" -o "$t/c.champsim"
[ ! -e "$t/c.champsim" ] || fail "partial output left behind"
echo "$name: $insns ChampSim records"
finish "champsim $name"
