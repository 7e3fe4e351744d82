#!/usr/bin/env bash
# The clang job of CI (issue 29): runs every libFuzzer target of a
# -DCITCAT_FUZZ=ON build (clang, libFuzzer + ASan + UBSan) on its seed
# corpus for SECONDS seconds each, new inputs going to a scratch directory
# (the checked-in corpus is read, never written).  A target that crashes,
# leaks, trips UBSan or dies on a seed fails the job; the executions per
# target are printed (libFuzzer's final stats).
# Usage: fuzz_ci.sh BUILD_DIR SOURCE_DIR [SECONDS]   (default 3)
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) secs=${3:-3}
corpus=$src/tests/fuzz/corpus
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export LSAN_OPTIONS=suppressions=$src/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fails=0 total=0
printf '%-22s %12s %10s\n' target executions exec/s
for dir in "$corpus"/*/; do
  name=$(basename "$dir")
  bin=$build/tests/fuzz_$name
  if [ ! -x "$bin" ]; then echo "FAIL: $name: no fuzz target $bin"; fails=$((fails + 1)); continue; fi
  mkdir -p "$scratch/$name" "$scratch/art"
  (cd "$scratch/art" && "$bin" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
     -artifact_prefix="$scratch/art/$name-" "$scratch/$name" "$dir") >"$scratch/$name.log" 2>&1
  rc=$?
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$name.log" | tail -1)
  if [ $rc != 0 ] || [ -z "$n" ]; then
    echo "FAIL: $name exited $rc:"; grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$scratch/$name.log" | head -5
    fails=$((fails + 1))
    continue
  fi
  total=$((total + n))
  printf '%-22s %12s %10s\n' "$name" "$n" "$((n / secs))"
done
echo "fuzz_ci: $total executions in all"
[ $fails = 0 ] || { echo "fuzz_ci: $fails target(s) failed"; exit 1; }
