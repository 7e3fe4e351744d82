#!/usr/bin/env bash
# Does the default replay engine ever lose? (issue 31; a benchmark, not a
# CTest: it prints, it never fails on the numbers.)  For every run of a
# corpus kept by tests/bench_corpus.sh (KEEP=DIR RUNS=short ROUNDS=1 bash
# tests/bench_corpus.sh CITCAT: DIR/X.ims, X.aes, X.cat, X.oracle) or made
# by tests/irq_corpus.sh (the oracle named X.ref.itrace), it
# counts the host instructions (valgrind --tool=callgrind, whole process)
# of `citcat replay X.ims X.aes --verify X.cat -q` under --engine insn,
# block and auto, and prints them with auto / the better of insn and
# block.  With BEFORE_CITCAT, the same for it first, in the same run.
# The Cortex-M7 runs (X_m7), which only the insn engine takes, are left out.
#
# Usage: engines_cg.sh DIR CITCAT [BEFORE_CITCAT]
# Environment: RUNS="a b ..." (default: every X.aes in DIR but *_m7),
#              CPU=N: instead, user + system CPU seconds (/usr/bin/time),
#              best of N per run, summed over RUNS, for `--verify` and
#              `-o --verify --oracle` (the issue's "sum, best of N" row).
set -u
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 DIR CITCAT [BEFORE_CITCAT]" >&2; exit 2; }
dir=$1
after=$(realpath -e -- "$2") || exit 2
bins=("$after")
names=(after)
[ $# = 3 ] && { bins=("$(realpath -e -- "$3")" "$after") || exit 2; names=(before after); }
cd "$dir" || exit 2
runs=${RUNS:-$(ls *.aes | sed 's/\.aes$//' | grep -v '_m7$')}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/engines_cg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" -q 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
cpu() { /usr/bin/time -o "$tmp/t" -f '%U %S' "$@" -q >/dev/null 2>&1; awk '{print $1 + $2}' "$tmp/t"; }
if [ -z "${CPU:-}" ]; then
  printf '%-22s %-7s %14s %14s %14s %10s\n' run binary insn block auto auto/best
  for n in $runs; do
    for k in "${!bins[@]}"; do
      c=${bins[$k]} i=$(ir "$c" replay $n.ims $n.aes --verify $n.cat --engine insn)
      b=$(ir "$c" replay $n.ims $n.aes --verify $n.cat --engine block)
      a=$(ir "$c" replay $n.ims $n.aes --verify $n.cat --engine auto)
      awk -v n=$n -v w=${names[$k]} -v i=$i -v b=$b -v a=$a \
        'BEGIN { m = i < b ? i : b; printf "%-22s %-7s %14.0f %14.0f %14.0f %10.3f\n", n, w, i, b, a, a / m }'
    done
  done
  exit 0
fi
declare -A best
for r in $(seq "$CPU"); do
  for n in $runs; do
    for mode in full verify; do
      args=(--verify $n.cat)
      ref=$n.ref.itrace # irq_corpus.sh's name; bench_corpus.sh's KEEP calls it X.oracle
      [ -f $ref ] || ref=$n.oracle
      [ $mode = full ] && args=(-o "$tmp/x.itrace" --verify $n.cat --oracle $ref)
      for k in "${!bins[@]}"; do
        for e in insn block auto; do
          t=$(cpu "${bins[$k]}" replay $n.ims $n.aes "${args[@]}" --engine $e)
          key=$n.$mode.$k.$e
          if [ -z "${best[$key]:-}" ] || awk -v a=$t -v b=${best[$key]} 'BEGIN { exit !(a < b) }'; then best[$key]=$t; fi
        done
      done
    done
  done
done
printf '%-28s %8s %8s %8s\n' "mode, binary (CPU s, summed)" insn block auto
for mode in full verify; do
  for k in "${!bins[@]}"; do
    line=$(printf '%-28s' "$mode, ${names[$k]}")
    for e in insn block auto; do
      s=0
      for n in $runs; do s=$(awk -v a=$s -v b=${best[$n.$mode.$k.$e]} 'BEGIN { print a + b }'); done
      line="$line $(printf '%8.2f' $s)"
    done
    echo "$line"
  done
done
