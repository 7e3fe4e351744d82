#!/usr/bin/env bash
# One cache configuration over every example firmware: capture with the
# oracle, extract the IMS and AES, replay from them alone and check the
# regenerated bus trace against the CAT and the instruction trace against the
# oracle (replay --verify --oracle).  A replay is exact only when both checks
# hold to the end of the traced interval.
# Usage: replay_matrix.sh CITCAT ELFDIR DATADIR OUTDIR "CAPTURE OPTIONS" NAME...
set -u
citcat=$1 elfdir=$2 datadir=$3 out=$4 opts=$5
shift 5
mkdir -p "$out"
fails=0 exact=0
for name in "$@"; do
  run=$out/$name
  extra=()
  [ "$name" = uartline ] && extra=(--uart-in "$datadir/uartline.txt")
  rm -f "$run".*
  # shellcheck disable=SC2086 # OPTS is a list of words
  if ! "$citcat" capture "$elfdir/$name.elf" -o "$run.cat" --oracle "$run.itrace" --uart-out "$run.uart" \
      --seed 1 $opts "${extra[@]}" 2>"$run.log" || ! grep -q "exit value 0;" "$run.log" || ! grep -q OK "$run.uart"; then
    echo "FAIL: $name [$opts]: capture did not run to EXIT 0 with its OK line"
    cat "$run.log"
    fails=$((fails + 1))
    continue
  fi
  if ! "$citcat" ims "$run.cat" -o "$run.ims" 2>"$run.log" || ! "$citcat" aes "$run.cat" -o "$run.aes" 2>>"$run.log"; then
    echo "FAIL: $name [$opts]: extraction failed"
    cat "$run.log"
    fails=$((fails + 1))
    continue
  fi
  if "$citcat" replay "$run.ims" "$run.aes" --verify "$run.cat" --oracle "$run.itrace" 2>"$run.log"; then
    echo "$name [$opts]: replay exact ($(sed -n 's/.*replay: \([0-9]*\) instructions.*/\1/p' "$run.log") instructions)"
    exact=$((exact + 1))
    rm -f "$run".*
  else
    echo "FAIL: $name [$opts]: replay not exact"
    cat "$run.log"
    fails=$((fails + 1))
  fi
done
echo "[$opts]: $exact of $# replays exact"
[ "$fails" -eq 0 ]
