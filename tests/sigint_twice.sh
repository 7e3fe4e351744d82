#!/usr/bin/env bash
# A second interrupt forces the exit (cli/util.c): a capture of a firmware
# that hangs, interrupted twice in a row, exits at once with status 130 and
# leaves neither its outputs nor their temporary files behind; interrupted
# once, it still stops cleanly with a valid CAT (exit 3, tests/postmortem.sh).
# The second interrupt is a SIGTERM sent right after the SIGINT: two SIGINTs
# sent back to back may merge into one pending signal before the process
# sees the first, while two different signals are both delivered, one after
# the other.  Both are sent while the process is stopped (SIGSTOP), so both
# are pending when it continues: otherwise, on a loaded machine, the shell
# could be descheduled between the two kills long enough for the clean stop
# (finishing and renaming the files) to end first, and the run exited 3.
# Usage: sigint_twice.sh CITCAT crash_hang.elf
set -u
citcat=$1 elf=$2
. "$(dirname "$0")/testlib.sh"

# start a capture into directory $1 and wait until its CAT is being written
start() {
  mkdir "$t/$1"
  "$citcat" capture "$elf" -o "$t/$1/run.cat" --oracle "$t/$1/run.itrace" --seed 1 -q >/dev/null 2>"$t/$1.err" &
  pid=$!
  local i=0
  while ! ls "$t/$1"/run.cat* >/dev/null 2>&1 && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  sleep 0.3
}

start twice
kill -STOP $pid
kill -INT $pid
kill -TERM $pid
kill -CONT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] || fail "twice: exit status $rc, expected 130 ($(cat "$t/twice.err"))"
grep -q "interrupted again: aborted, temporary outputs removed" "$t/twice.err" || fail "twice: $(cat "$t/twice.err")"
left=$(ls -A "$t/twice")
[ -z "$left" ] || fail "twice: left behind: $left"

# once: the clean stop, as before
start once
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 3 ] || fail "once: exit status $rc, expected 3 ($(cat "$t/once.err"))"
"$citcat" info "$t/once/run.cat" | grep -q "stopped by interrupted" || fail "once: the CAT does not end 'interrupted'"
[ -z "$(ls "$t/once" | grep tmp)" ] || fail "once: temporary files left: $(ls "$t/once")"

finish sigint_twice
