#!/usr/bin/env bash
# Refactoring check (not a CTest): runs capture (CAT + oracle), ims, aes and
# replay (-o itrace, verified against the CAT and the oracle) on every
# default example with one citcat binary and prints the sha256 of every
# output, one line per file.  Run it with the build from before a change and
# with the build after it and diff the two listings: a behaviour-neutral
# change leaves every line the same.
# Usage: compare_outputs.sh CITCAT ELFDIR DATADIR OUTDIR > LISTING
set -eu
citcat=$1 elfdir=$2 datadir=$3 out=$4
names="crc32 sha256 qsort matmul strsearch dijkstra sched uartline counter idle"
mkdir -p "$out"
for n in $names; do
  extra=()
  [ "$n" = uartline ] && extra=(--uart-in "$datadir/uartline.txt")
  r=$out/$n
  "$citcat" capture "$elfdir/$n.elf" -o "$r.cat" --oracle "$r.oracle" --uart-out "$r.uart" --seed 1 "${extra[@]}" 2>"$r.log"
  "$citcat" ims "$r.cat" -o "$r.ims" 2>>"$r.log"
  "$citcat" aes "$r.cat" -o "$r.aes" 2>>"$r.log"
  "$citcat" replay "$r.ims" "$r.aes" -o "$r.itrace" --verify "$r.cat" --oracle "$r.oracle" 2>>"$r.log"
  (cd "$out" && sha256sum "$n.cat" "$n.oracle" "$n.uart" "$n.ims" "$n.aes" "$n.itrace")
done
