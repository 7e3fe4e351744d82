#!/bin/bash
# Issue 33's speed and memory figures (docs in replay/CURSOR.md "Speed and
# memory"): citcat bench gdb on the long examples, ARM, Thumb and the
# Cortex-M7, at the default budget, half of it and 2 MiB; then the effect of
# the snapshot interval on matmul_long at the default budget.  Times are CPU
# seconds (the machine may be loaded); the peak RSS is the child's.
# usage: tests/bench_gdb_figures.sh [BUILD_DIR] [OUT_DIR]
set -u
B=${1:-build} O=${2:-/tmp/citcat-bench-gdb-figures}
C=$B/cli/citcat E=$B/examples
mkdir -p "$O"
export CITCAT_NO_PROGRESS=1
uptime >"$O/load.txt"
for f in matmul_long sha256_long matmul_long_thumb m7/matmul_long_m7 m7/sha256_long_m7; do
  n=$(basename "$f")
  nice "$C" bench gdb "$E/$f.elf" >"$O/$n.txt" 2>&1
  uptime >>"$O/load.txt"
done
for iv in 256K 4M 16M; do
  nice "$C" bench gdb "$E/matmul_long.elf" --budget 256M --interval "$iv" >"$O/interval_$iv.txt" 2>&1
  uptime >>"$O/load.txt"
done
