#!/usr/bin/env bash
# The figures of issue 35, reproducible (not run by CTest; prints numbers,
# never fails on them).  User CPU seconds (/usr/bin/time -f %U), the best of
# REPS runs, BEFORE and AFTER interleaved in one script so that both see the
# same machine load.
#   symbols:   symbolising a run, ARM, Thumb and Cortex-M7: `report --elf`
#              and the listing `convert --to text --elf` (every instruction
#              symbolised), BEFORE against AFTER (issue 35 part 1)
#   xz:        `convert -o RUN.champsim.xz` against plain `-o RUN.champsim`
#              on a long run (sha256_long's first $INSNS instructions,
#              default 5 M), BEFORE against AFTER (part 3)
#   profile:   `citcat profile` totals against `citcat info` and the CAT,
#              per example (part 4), AFTER only
# Usage: user_path_figures.sh symbols|xz|profile BEFORE_CITCAT AFTER_CITCAT EXAMPLE_DIR [REPS]
# (EXAMPLE_DIR: build/examples; BEFORE: a citcat built from the commit
# before the branch; it writes CAT version 6, so each binary captures its
# own runs.)
set -u
what=$1 before=$2 after=$3 ex=$4 reps=${5:-3}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
best() { # CMD...: the best user time of REPS runs
  local b="" u
  for _ in $(seq "$reps"); do
    /usr/bin/time -f %U -o "$t/time" "$@" >/dev/null 2>&1
    u=$(tail -n 1 "$t/time")
    [ -z "$b" ] || awk -v u="$u" -v b="$b" 'BEGIN { exit !(u < b) }' && b=$u
  done
  echo "$b"
}
case $what in
symbols)
  printf '| firmware | instructions | report --elf before | after | listing --elf before | after |\n|---|---|---|---|---|---|\n'
  for elf in "$ex/crc32.elf" "$ex/crc32_thumb.elf" "$ex/m7/crc32_m7.elf" "$ex/qsort_thumb.elf" "$ex/m7/qsort_m7.elf"; do
    n=$(basename "$elf" .elf)
    for v in before after; do
      c=$before
      [ $v = after ] && c=$after
      "$c" capture "$elf" -o "$t/$n.$v.cat" --oracle "$t/$n.$v.itrace" --seed 1 -q >/dev/null 2>&1
    done
    insns=$("$after" info --json "$t/$n.after.itrace" | grep -o '"instructions": [0-9]*' | grep -o '[0-9]*$')
    rb=$(best "$before" report "$t/$n.before.cat" -o "$t/r.html" --elf "$elf")
    ra=$(best "$after" report "$t/$n.after.cat" -o "$t/r.html" --elf "$elf")
    lb=$(best "$before" convert "$t/$n.before.itrace" -o "$t/l.txt" --to text --elf "$elf")
    la=$(best "$after" convert "$t/$n.after.itrace" -o "$t/l.txt" --to text --elf "$elf")
    echo "| $n | $insns | $rb | $ra | $lb | $la |"
  done
  ;;
xz)
  # the first INSNS instructions of sha256_long (64 bytes of records each)
  insns=${INSNS:-5000000}
  elf=$ex/sha256_long.elf
  "$after" capture "$elf" -o "$t/l.cat" --oracle "$t/l.itrace" --seed 1 -q --max-insns "$insns" >/dev/null 2>&1
  "$before" capture "$elf" -o "$t/b.cat" --oracle "$t/b.itrace" --seed 1 -q --max-insns "$insns" >/dev/null 2>&1
  insns=$("$after" info --json "$t/l.itrace" | grep -o '"instructions": [0-9]*' | grep -o '[0-9]*$')
  echo "sha256_long: $insns instructions"
  for v in before after; do
    c=$before it=$t/b.itrace
    [ $v = after ] && c=$after it=$t/l.itrace
    p=$(best "$c" convert "$it" -o "$t/x.champsim")
    x=$(best "$c" convert "$it" -o "$t/x.champsim.xz")
    /usr/bin/time -f %e -o "$t/wall" "$c" convert "$it" -o "$t/x.champsim.xz" >/dev/null 2>&1
    echo "$v: plain $p s user; .xz $x s user, $(cat "$t/wall") s wall; $(stat -c %s "$t/x.champsim.xz") bytes of $(stat -c %s "$t/x.champsim")"
  done
  ;;
profile)
  printf '| run | Ir = info instructions | Dr+Ur = reads | Dw+Uw = writes | I1mr = CAT fill_i | D1mr+D1mw = CAT fill_d | D1wb = CAT writeback | DMA = CAT dma |\n|---|---|---|---|---|---|---|---|\n'
  for elf in "$ex"/*.elf "$ex"/m7/*_m7.elf; do
    n=$(basename "$elf" .elf)
    case $n in *_long* | *_long_*) continue ;; esac
    extra=()
    [[ $n == uartline* ]] && extra=(--uart-in "$(dirname "$0")/../examples/data/uartline.txt")
    "$after" capture "$elf" -o "$t/p.cat" --oracle "$t/p.itrace" --seed 1 -q "${extra[@]}" >/dev/null 2>&1
    "$after" profile "$t/p.cat" -o "$t/p.cg" --elf "$elf" 2>/dev/null || { echo "| $n | profile failed |"; continue; }
    read -r ir dr dw i1 d1r d1w wb ur uw dma < <(callgrind_annotate --show-percs=no "$t/p.cg" 2>/dev/null |
      awk '/PROGRAM TOTALS/ { gsub(",", ""); for (i = 1; i <= 10; i++) printf "%s ", ($i == "." ? 0 : $i); print ""; exit }')
    ij=$("$after" info --json "$t/p.itrace")
    cj=$("$after" info --json "$t/p.cat" | grep -o '"events_traced": {[^}]*}')
    g() { grep -o "\"$1\": [0-9]*" <<<"$2" | head -n 1 | grep -o '[0-9]*$'; }
    echo "| $n | $ir = $(g instructions "$ij") | $((dr + ur)) = $(g reads "$ij") | $((dw + uw)) = $(g writes "$ij") | $i1 = $(g fill_i "$cj") | $((d1r + d1w)) = $(g fill_d "$cj") | $wb = $(g writeback "$cj") | $dma = $(g dma "$cj") |"
  done
  ;;
esac
