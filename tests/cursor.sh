#!/bin/bash
# Captures ELF with its oracle and runs test_cursor on it (the cursor
# against the oracle and the replayer's observer: tests/test_cursor.c).
# usage: cursor.sh CITCAT TEST_CURSOR ELF WORK_DIR [capture options...]
set -u
citcat=$1 test=$2 elf=$3 work=$4
shift 4
name=$(basename "$elf" .elf)
mkdir -p "$work/$name"
d=$work/$name
"$citcat" capture "$elf" -o "$d/run.cat" --oracle "$d/run.itrace" --seed 1 -q "$@" >"$d/uart" 2>"$d/err" ||
  { echo "FAIL: capture: $(cat "$d/err")"; exit 1; }
"$test" "$d/run.itrace" "$d/run.cat" "$d"
