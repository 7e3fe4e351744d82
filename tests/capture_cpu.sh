#!/usr/bin/env bash
# Does the capture's default engine ever lose? (issue 31; a benchmark, not a
# CTest: it prints, it never fails on the numbers.)  Captures each run with
# --engine insn, block and auto and prints the CPU time of each (user +
# system, /usr/bin/time, the whole process: set-up counts, as it does for a
# user; getrusage of the child, in microseconds), the best of ROUNDS rounds, and auto / the better of insn and block.
# With BEFORE_CITCAT, the same for it too, in the same rounds: every round
# runs every binary and engine on a run before the next run, so a change in
# the machine's load falls on all of them alike.  The last lines are the
# sums over the runs.  The capture is `citcat capture E.elf --seed 1 -q -o
# X.cat --uart-out /dev/null` (uartline* add --uart-in
# examples/data/uartline.txt; the runs of an irq corpus, tests/irq_corpus.sh,
# --max-insns 3M --entropy-in entropy).
#
# Usage: capture_cpu.sh ELFDIR CITCAT [BEFORE_CITCAT]
#   ELFDIR: a build's examples/.  Environment:
#   RUNS="a b ..."  example names (default: the issue's sched idle uartline
#                   crc32 counter sched_thumb and uartline_thumb counter_thumb
#                   matmul irqdma irqdma_thumb)
#   IRQ=DIR IRQRUNS="x y ..."  also these runs of an irq corpus made by
#                   tests/irq_corpus.sh DIR (DIR/src/X.elf, DIR/entropy)
#   ROUNDS=N        rounds (default 5)
set -u
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 ELFDIR CITCAT [BEFORE_CITCAT]" >&2; exit 2; }
elfdir=$(realpath -e -- "$1") || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
after=$(realpath -e -- "$2") || exit 2
bins=("$after") names=(after)
[ $# = 3 ] && { bins=("$(realpath -e -- "$3")" "$after") || exit 2; names=(before after); }
runs=${RUNS:-sched idle uartline crc32 counter sched_thumb uartline_thumb counter_thumb matmul irqdma irqdma_thumb}
rounds=${ROUNDS:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture_cpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the CPU seconds (user + system) of one command, which must exit 0 or 3
cpu() {
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.4f" % (r.ru_utime + r.ru_stime))
sys.exit(0 if rc in (0, 3) else 1)' "$@"
}
specs=()
for n in $runs; do specs+=("$n"); done
for n in ${IRQRUNS:-}; do specs+=("irq:$n"); done
declare -A best
for ((r = 0; r < rounds; r++)); do
  for s in "${specs[@]}"; do
    n=${s#irq:} extra=()
    if [ "$s" != "$n" ]; then
      elf=${IRQ:?IRQRUNS needs IRQ}/src/$n.elf extra=(--max-insns 3M --entropy-in "$IRQ/entropy")
    else
      elf=$elfdir/$n.elf
    fi
    case $n in uartline*) extra+=(--uart-in "$root/examples/data/uartline.txt");; esac
    for k in "${!bins[@]}"; do
      for e in insn block auto; do
        t=$(cpu "${bins[$k]}" capture "$elf" --seed 1 -q -o "$tmp/x.cat" --uart-out /dev/null --engine $e \
          "${extra[@]}" 2>"$tmp/err")
        rc=$?
        [ $rc = 0 ] || { echo "$n: ${names[$k]} --engine $e failed" >&2; cat "$tmp/err" >&2; exit 2; }
        key="$n ${names[$k]} $e"
        old=${best[$key]:-}
        if [ -z "$old" ] || awk -v a="$t" -v b="$old" 'BEGIN { exit !(a < b) }'; then best[$key]=$t; fi
      done
    done
  done
done
printf '%-18s %-7s %8s %8s %8s %10s\n' run binary insn block auto auto/best
declare -A sum
for s in "${specs[@]}"; do
  n=${s#irq:}
  for k in "${!bins[@]}"; do
    w=${names[$k]} i=${best["$n ${names[$k]} insn"]} b=${best["$n ${names[$k]} block"]} a=${best["$n ${names[$k]} auto"]}
    awk -v n=$n -v w=$w -v i=$i -v b=$b -v a=$a \
      'BEGIN { m = i < b ? i : b; printf "%-18s %-7s %8.4f %8.4f %8.4f %10.3f\n", n, w, i, b, a, a / m }'
    for e in insn block auto; do
      sum["$w $e"]=$(awk -v s="${sum["$w $e"]:-0}" -v x="${best["$n $w $e"]}" 'BEGIN { printf "%.4f", s + x }')
    done
  done
done
for k in "${!bins[@]}"; do
  w=${names[$k]}
  awk -v w=$w -v i=${sum["$w insn"]} -v b=${sum["$w block"]} -v a=${sum["$w auto"]} \
    'BEGIN { m = i < b ? i : b; printf "%-18s %-7s %8.4f %8.4f %8.4f %10.3f\n", "sum", w, i, b, a, a / m }'
done
echo "(user + system CPU seconds of the whole process, best of $rounds rounds)"
