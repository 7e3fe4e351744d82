#!/usr/bin/env bash
# WET of a Thumb example (issue 11), on a prefix of its run to keep CI
# cheap: captures the first MAX instructions (--seed 1, with the oracle
# itrace), then runs wet_example.sh on it (the brute-force reference, the
# query answers, basic-block nodes; not the compressed-input part, which
# the ARM examples check and which does not depend on the instruction set).
# Cortex-M7 ELFs too (issue 11, WET.md "Cortex-M7"); OPTIONS are more
# capture options (e.g. --ram 32M).
# Usage: wet_thumb.sh CITCAT TEST_WET_REF ELF NAME MAX SPACED [OPTIONS...]
set -u
citcat=$1 ref=$2 elf=$3 name=$4 max=$5 spaced=$6
shift 6
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$citcat" capture "$elf" "$@" -o "$d/$name.cat" --oracle "$d/$name.itrace" --seed 1 --max-insns "$max" -q >/dev/null 2>"$d/log" ||
  { echo "FAIL: capture: $(cat "$d/log")"; exit 1; }
bash "$(dirname "$0")/wet_example.sh" "$citcat" "$ref" "$d" "$name" "$spaced" nozip
