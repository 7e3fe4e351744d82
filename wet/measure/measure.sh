#!/usr/bin/env bash
# Reproduces WET.md "Measured: the directions of issue 32" (prints numbers,
# never passes or fails): builds version 6 of the WET (commit fb656a4) with
# v6-dump.patch, whose builder writes per instance its node execution,
# outcome, stored producers (memory or register) and control parent
# (WET_STUDY_DUMP) and per segment every stream's values and keys
# (WET_STUDY_STREAMS); dumps each run; compiles and runs the tools:
#   pred RUN.streams       the paper's predictor variants (direction 1)
#   repeat RUN.dump        repeated dependence tuples (direction 3)
#   study3 RUN.dump [SEG]  adaptive models, per segment of SEG (3, 4)
#   study4, study5         the same, missed memory producers coded by rank, by difference
# Usage: wet/measure/measure.sh REPO DIR NAME...
#   REPO: a citcat git repository holding fb656a4; DIR: NAME.ims, NAME.aes
#   (captures with --seed 1, uartline with --uart-in examples/data/uartline.txt)
set -eu
repo=$1 dir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$t/v6" >/dev/null 2>&1; rm -rf "$t"' EXIT
git -C "$repo" worktree add --detach "$t/v6" fb656a4 >/dev/null
git -C "$t/v6" apply "$here/v6-dump.patch"
cmake -S "$t/v6" -B "$t/v6/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCITCAT_EXAMPLES=OFF >/dev/null
cmake --build "$t/v6/build" -j2 --target citcat_cli >/dev/null
for tool in pred repeat study3 study4 study5; do
  cc -O2 "$here/$tool.c" -o "$t/$tool" -lm -lxxhash
done
for n in "$@"; do
  WET_STUDY_DUMP="$t/$n.dump" WET_STUDY_STREAMS="$t/$n.streams" "$t/v6/build/cli/citcat" wet "$dir/$n.ims" "$dir/$n.aes" -o "$t/$n.wet" 2>/dev/null
  "$t/pred" "$t/$n.streams"
  "$t/repeat" "$t/$n.dump"
  for seg in 16384 65536 262144 1048576; do "$t/study3" "$t/$n.dump" $seg; done
  "$t/study4" "$t/$n.dump" 65536
  "$t/study5" "$t/$n.dump" 65536
  rm -f "$t/$n.dump" "$t/$n.streams"
done
