#!/usr/bin/env bash
# Captures one example firmware with its oracle and checks that it ran to
# EXIT 0 with its self-check line on the UART.
# Usage: example_capture.sh CITCAT ELF OUTDIR NAME [capture options...]
set -u
citcat=$1 elf=$2 out=$3 name=$4
shift 4
mkdir -p "$out"
rm -f "$out/$name.cat" "$out/$name.itrace" "$out/$name.uart"
"$citcat" capture "$elf" -o "$out/$name.cat" --oracle "$out/$name.itrace" --uart-out "$out/$name.uart" \
  --seed 1 "$@" 2>"$out/$name.log"
rc=$?
cat "$out/$name.log"
[ $rc -eq 0 ] || { echo "FAIL: capture exited $rc"; exit 1; }
grep -q "exit after .* exit value 0;" "$out/$name.log" || { echo "FAIL: firmware did not exit 0"; cat "$out/$name.uart"; exit 1; }
grep -q "OK" "$out/$name.uart" || { echo "FAIL: no OK line on the UART"; cat "$out/$name.uart"; exit 1; }
cat "$out/$name.uart"
"$citcat" info --json "$out/$name.cat" >"$out/$name.cat.json" || { echo "FAIL: info"; exit 1; }
echo "$name: $(cat "$out/$name.cat.json")"
