#!/usr/bin/env bash
# Issue 14 figures (not a CTest): the old benchmarks of a build from before
# the honest baseline and `bench all` of this build, on the same machine in
# one run, with peak memory.  Numbers are printed, never judged.
# Usage: bench_before_after.sh OLD_CITCAT NEW_CITCAT ELF...
set -u
old=$1 new=$2
shift 2
echo "== $(date -u)  $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== BEFORE: $old bench capture $*"
nice /usr/bin/time -f "peak RSS %M KiB, %e s" "$old" bench capture "$@"
echo "== BEFORE: $old bench replay $*"
nice /usr/bin/time -f "peak RSS %M KiB, %e s" "$old" bench replay "$@"
echo "== AFTER: $new bench all $*"
nice /usr/bin/time -f "peak RSS %M KiB, %e s" "$new" bench all "$@"
echo "== AFTER: $new bench all --json $*"
nice "$new" bench all --json "$@"
echo "== $(date -u)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
