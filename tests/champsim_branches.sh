#!/usr/bin/env bash
# ChampSim export against the CAT's branch counter (issue 35): the records'
# branch_taken flags add up to the branches the trace module counted
# (TARGET.md, "Branch counter": every instruction after which execution
# does not continue at pc + size), and there is one record per instruction.
# The trace module is an independent count of the same thing, so a PC write
# the exporter does not flag as a branch (Thumb's tbb/tbh were one) or one
# it flags wrongly shows up here.
# Usage: champsim_branches.sh CITCAT CHAMPSIM_COUNT UART_IN RUN...
# Each RUN is DIR/NAME (DIR/NAME.cat and DIR/NAME.itrace exist: a fixture's
# capture) or ELF (captured here with its oracle; UART_IN feeds uartline).
set -u
citcat=$1 count=$2 uart_in=$3
shift 3
. "$(dirname "$0")/testlib.sh"
n=0
for run in "$@"; do
  case $run in
  *.elf)
    name=$(basename "$run" .elf)
    extra=()
    [[ $name == uartline* ]] && extra=(--uart-in "$uart_in")
    rc=0
    "$citcat" capture "$run" -o "$t/$name.cat" --oracle "$t/$name.itrace" --seed 1 -q "${extra[@]}" \
      >/dev/null 2>"$t/err" || rc=$?
    # a crashed run (exit 3) is as good an input as a clean one
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || { fail "$name: capture exited $rc: $(head -c 300 "$t/err")"; continue; }
    cat=$t/$name.cat it=$t/$name.itrace
    ;;
  *)
    name=$(basename "$run") cat=$run.cat it=$run.itrace
    ;;
  esac
  want=$("$citcat" info --json "$cat" | grep -o '"branches": [0-9]*' | grep -o '[0-9]*$')
  insns=$("$citcat" info --json "$it" | grep -o '"instructions": [0-9]*' | grep -o '[0-9]*$')
  [ -n "$want" ] && [ -n "$insns" ] || { fail "$name: no counts from info"; continue; }
  set -o pipefail
  got=$("$citcat" convert "$it" -o - --to champsim | "$count") || { fail "$name: convert | count failed"; continue; }
  set +o pipefail
  read -r recs branches taken <<<"$got"
  [ "$recs" = "$insns" ] || fail "$name: $recs ChampSim records for $insns instructions"
  [ "$taken" = "$want" ] || fail "$name: $taken branches taken in the ChampSim records, the CAT counted $want"
  echo "$name: $recs records, $branches branches, $taken taken = the CAT's $want"
  n=$((n + 1))
done
[ $n -eq $# ] || fail "only $n of $# runs checked"
finish champsim_branches
