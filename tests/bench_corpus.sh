#!/usr/bin/env bash
# The replay engines on runs that look like users' (issue 31; not a CTest:
# replay/REPLAY.md "Interrupts, DMA and the block engine").  Every run of
# the corpus is captured once (CAT and oracle) and extracted, then replayed
# with --engine insn, block and auto, with `-o --verify --oracle` ("full")
# and with `--verify` alone, by the AFTER binary and, when given, by a
# BEFORE binary, all interleaved: for each round, each run, each mode, each
# binary, each engine in turn.  It prints the user + system CPU seconds of
# each (the best of the rounds) and the peak RSS, and checks that every
# regenerated itrace is byte-identical to the first one (exit 1 if not).
# It prints numbers and never fails on speed.
#
# Usage: bench_corpus.sh AFTER_CITCAT [BEFORE_CITCAT]
# Environment:
#   EXAMPLES   the built examples (default: AFTER_CITCAT's ../examples)
#   DATA       the examples' input files (default: examples/data beside this script)
#   ROUNDS     rounds (default 3)
#   RUNS       the runs to time, separated by blanks (default: all; see
#              the list below, or RUNS=short / RUNS=long)
#   MODES      "full verify" (default) or one of them
#   KEEP=DIR   keep the captures in DIR (reused when present)
# The captures are made by AFTER_CITCAT with --seed 1, and by BEFORE_CITCAT
# for its own replays (it may not read the newer CAT).  Runs whose firmware
# is not built are skipped.  Everything runs under nice.
set -uo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 AFTER_CITCAT [BEFORE_CITCAT]" >&2; exit 2; }
A=$(realpath -e -- "$1") || exit 2
B=
[ $# = 2 ] && { B=$(realpath -e -- "$2") || exit 2; }
ex=${EXAMPLES:-$(dirname "$A")/../examples}
ex=$(realpath -e -- "$ex") || { echo "$0: no examples directory" >&2; exit 2; }
data=$(realpath -e -- "${DATA:-$(dirname "$0")/../examples/data}") || exit 2
rounds=${ROUNDS:-3}
modes=${MODES:-full verify}
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP"; tmp=$(realpath "$KEEP"); else tmp=$(mktemp -d "${TMPDIR:-/tmp}/citcat-corpus-XXXXXX"); fi
cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The corpus: NAME ELF [capture options...].  Short runs (set-up counts):
# every example, ARM and Thumb, and irqdma (a fast timer interrupt and a DMA
# stream restarted from its completion interrupt) on both targets, with
# and without its DMA input running out.  Long runs: the two long examples
# and irqdma_big cut at 100 M instructions, its DMA input (4 MiB) used up
# at about 25 M, on ARM, Thumb and the Cortex-M7.
head -c 16384 /dev/zero | tr '\0' '\145' >"$tmp/dma16k.bin"
head -c 4194304 /dev/zero | tr '\0' '\145' >"$tmp/dma4m.bin"
short=() long=()
for n in crc32 sha256 qsort matmul strsearch dijkstra sched uartline counter idle; do
  for v in "$n" "${n}_thumb"; do
    case $n in uartline) short+=("$v $v.elf --uart-in $data/uartline.txt");; *) short+=("$v $v.elf");; esac
  done
done
short+=("sched_m7 m7/sched_m7.elf" "crc32_m7 m7/crc32_m7.elf")
short+=("irqdma irqdma.elf" "irqdma_thumb irqdma_thumb.elf" "irqdma_m7 m7/irqdma_m7.elf")
short+=("irqdma_dmaend irqdma.elf --dma-in $tmp/dma16k.bin" "irqdma_dmaend_thumb irqdma_thumb.elf --dma-in $tmp/dma16k.bin")
long+=("matmul_long matmul_long.elf" "sha256_long sha256_long.elf")
long+=("irqdma_100M irqdma_big.elf --dma-in $tmp/dma4m.bin --max-insns 100000000")
long+=("irqdma_100M_thumb irqdma_big_thumb.elf --dma-in $tmp/dma4m.bin --max-insns 100000000")
long+=("irqdma_100M_m7 m7/irqdma_big_m7.elf --dma-in $tmp/dma4m.bin --max-insns 100000000")
case ${RUNS:-all} in
  all) want=("${short[@]}" "${long[@]}");;
  short) want=("${short[@]}");;
  long) want=("${long[@]}");;
  *) want=(); for r in $RUNS; do for s in "${short[@]}" "${long[@]}"; do [ "${s%% *}" = "$r" ] && want+=("$s"); done; done;;
esac

# capture each run once
runs=()
for spec in "${want[@]}"; do
  read -r -a w <<<"$spec"
  n=${w[0]} elf=$ex/${w[1]}
  [ -f "$elf" ] || { echo "skipped $n: no $elf" >&2; continue; }
  r=$tmp/$n
  if [ ! -f "$r.aes" ]; then
    nice "$A" capture "$elf" --seed 1 -q -o "$r.cat" --oracle "$r.oracle" --uart-out /dev/null "${w[@]:2}" 2>"$r.log"
    rc=$?
    if [ $rc != 0 ] && [ $rc != 3 ] || ! "$A" ims "$r.cat" -o "$r.ims" 2>>"$r.log" ||
       ! "$A" aes "$r.cat" -o "$r.aes" 2>>"$r.log"; then
      echo "$0: $n: capture or extraction failed: $(cat "$r.log")" >&2; exit 2
    fi
  fi
  # BEFORE replays a capture of its own: an older build may not read the
  # CAT version AFTER writes (the IMS and AES are the same)
  if [ -n "$B" ] && [ ! -f "$r.B.aes" ]; then
    nice "$B" capture "$elf" --seed 1 -q -o "$r.B.cat" --oracle "$r.B.oracle" --uart-out /dev/null "${w[@]:2}" 2>"$r.B.log"
    rc=$?
    if [ $rc != 0 ] && [ $rc != 3 ] || ! "$B" ims "$r.B.cat" -o "$r.B.ims" 2>>"$r.B.log" ||
       ! "$B" aes "$r.B.cat" -o "$r.B.aes" 2>>"$r.B.log"; then
      echo "$0: $n: capture or extraction by BEFORE failed: $(cat "$r.B.log")" >&2; exit 2
    fi
  fi
  runs+=("$n")
done

bins=(A)
[ -n "$B" ] && bins=(B A)
bin() { [ "$1" = A ] && echo "$A" || echo "$B"; }
declare -A best rss
bad=0
# one BIN RUN MODE ENGINE: times one replay, keeps the best CPU time
one() {
  local b=$1 n=$2 m=$3 e=$4 r=$tmp/$2 out=() c=$tmp/$2
  [ "$b" = B ] && c=$tmp/$2.B
  [ "$m" = full ] && out=(-o "$r.$b.$e.itrace" --oracle "$c.oracle")
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" nice "$(bin "$b")" replay "$c.ims" "$c.aes" --engine "$e" \
    --verify "$c.cat" -q "${out[@]}" 2>"$tmp/err"
  local rc=$?
  local k="$b $n $m $e"
  if [ $rc = 2 ] && grep -q "does not take this run" "$tmp/err"; then best[$k]=refused; return; fi
  if [ $rc != 0 ]; then echo "$0: $k: replay failed: $(cat "$tmp/err")" >&2; bad=1; best[$k]=FAIL; return; fi
  read -r u s m2 <"$tmp/time"
  local t
  t=$(printf '%.2f' "$(echo "$u + $s" | bc)")
  if [ -z "${best[$k]:-}" ] || [ "$(echo "$t < ${best[$k]}" | bc)" = 1 ]; then best[$k]=$t; fi
  rss[$k]=$m2
  if [ "$m" = full ]; then
    if [ -f "$r.ref.itrace" ]; then
      cmp -s "$r.ref.itrace" "$r.$b.$e.itrace" || { echo "$0: $k: the itrace differs" >&2; bad=1; }
      rm -f "$r.$b.$e.itrace"
    else
      mv "$r.$b.$e.itrace" "$r.ref.itrace"
    fi
  fi
}
echo "corpus: ${#runs[@]} runs, $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((i = 1; i <= rounds; i++)); do
  for n in "${runs[@]}"; do
    for m in $modes; do
      for b in "${bins[@]}"; do
        for e in insn block auto; do one "$b" "$n" "$m" "$e"; done
      done
    done
  done
  echo "round $i done; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done

# the table: CPU seconds (user + system, best of the rounds)
hdr="run"
for m in $modes; do for e in insn block auto; do for b in "${bins[@]}"; do hdr+=" | $m $e${B:+ $b}"; done; done; done
for b in "${bins[@]}"; do hdr+=" | peak RSS MB ($b: insn/block/auto, ${modes%% *})"; done
echo "$hdr"
declare -A sum
for n in "${runs[@]}"; do
  line="$n"
  for m in $modes; do
    for e in insn block auto; do
      for b in "${bins[@]}"; do
        v=${best["$b $n $m $e"]:--}
        line+=" | $v"
        case $v in [0-9]*) sum["$b $m $e"]=$(printf '%.2f' "$(echo "${sum["$b $m $e"]:-0} + $v" | bc)");; esac
      done
    done
  done
  m1=${modes%% *}
  for b in "${bins[@]}"; do
    line+=" | $(for e in insn block auto; do v=${rss["$b $n $m1 $e"]:-0}; printf '%s/' $((v / 1024)); done)"
    line=${line%/}
  done
  echo "$line"
done
line="sum"
for m in $modes; do for e in insn block auto; do for b in "${bins[@]}"; do line+=" | ${sum["$b $m $e"]:-0}"; done; done; done
echo "$line"
echo "(CPU seconds, user + system, best of $rounds; A = $A${B:+, B = $B}; refused: the block engine does not take the run, auto takes the insn engine)"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $bad = 0 ] || echo "OUTPUTS DIFFER OR A REPLAY FAILED (see above)"
exit $bad
