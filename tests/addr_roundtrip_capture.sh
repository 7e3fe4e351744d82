#!/usr/bin/env bash
# Captures a firmware's itrace, then runs test_addr_roundtrip on it (every
# address format and second tier; issue 34).
# Usage: addr_roundtrip_capture.sh CITCAT TEST_ADDR_ROUNDTRIP ELF OUTBASE [capture options...]
set -u
citcat=$1 rt=$2 elf=$3 out=$4
shift 4
mkdir -p "$(dirname "$out")"
"$citcat" capture "$elf" -o "$out.cat" --oracle "$out.itrace" --uart-out /dev/null --seed 1 "$@" 2>"$out.log" ||
  { cat "$out.log"; echo "FAIL: capture"; exit 1; }
rm -f "$out.cat"
"$rt" "$citcat" "$out.itrace"
