#!/usr/bin/env bash
# Byte-identity check of a refactoring (issue 30; not a CTest): runs
# tests/compare_outputs.sh with the citcat binary from before the change and
# with the one after it, on the same firmware, then `cmp`s every output file
# and exit status of the one with the other's.  Prints one line per file
# that differs or exists on one side only, and a summary; exits 1 if any
# does, 0 if every file is byte-identical.
# Usage: compare_before_after.sh BEFORE_CITCAT AFTER_CITCAT ELFDIR DATADIR [OUTDIR]
#   ELFDIR: a build's examples/ (ARM and Thumb *.elf, m7/*.elf);
#   OUTDIR (default: a temporary directory, removed at the end) keeps the
#   two runs' files in OUTDIR/before and OUTDIR/after.  LONG=1 adds the
#   *_long firmware.  REUSE_BEFORE=1 keeps a complete OUTDIR/before from an
#   earlier run (with the same BEFORE_CITCAT) instead of running it again;
#   REUSE_AFTER=1 likewise OUTDIR/after.  BEFORE_CITCAT and AFTER_CITCAT
#   should have the same file name (`plan` prints it), e.g. both `citcat`.
set -eu
[ $# -ge 4 ] && [ $# -le 5 ] || { echo "usage: $0 BEFORE_CITCAT AFTER_CITCAT ELFDIR DATADIR [OUTDIR]" >&2; exit 2; }
before=$(realpath -e "$1") after=$(realpath -e "$2") elfdir=$(realpath -e "$3") datadir=$(realpath -e "$4")
here=$(dirname "$(realpath -e "$0")")
if [ $# -eq 5 ]; then
  out=$5
  mkdir -p "$out"
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/citcat-compare-XXXXXX")
  trap 'rm -rf "$out"' EXIT
fi
if [ "${REUSE_BEFORE:-0}" = 1 ] && [ -s "$out/before.sha256" ]; then
  echo "reusing $out/before" >&2
else
  rm -rf "$out/before" "$out/before.sha256"
  bash "$here/compare_outputs.sh" "$before" "$elfdir" "$datadir" "$out/before" >"$out/before.sha256.tmp"
  mv "$out/before.sha256.tmp" "$out/before.sha256"
fi
if [ "${REUSE_AFTER:-0}" = 1 ] && [ -s "$out/after.sha256" ]; then
  echo "reusing $out/after" >&2
else
  rm -rf "$out/after" "$out/after.sha256"
  bash "$here/compare_outputs.sh" "$after" "$elfdir" "$datadir" "$out/after" >"$out/after.sha256.tmp"
  mv "$out/after.sha256.tmp" "$out/after.sha256"
fi
files=0 bytes=0 bad=0
while read -r f; do
  if [ ! -e "$out/after/$f" ]; then
    echo "only before: $f"; bad=$((bad + 1)); continue
  fi
  if ! cmp -s "$out/before/$f" "$out/after/$f"; then
    echo "differs: $f ($(cmp "$out/before/$f" "$out/after/$f" 2>&1 | head -n 1))"; bad=$((bad + 1))
  fi
  files=$((files + 1)) bytes=$((bytes + $(stat -c %s "$out/before/$f")))
done < <(cd "$out/before" && find . -type f ! -name '*.err' | LC_ALL=C sort)
while read -r f; do
  [ -e "$out/before/$f" ] || { echo "only after: $f"; bad=$((bad + 1)); }
done < <(cd "$out/after" && find . -type f ! -name '*.err' | LC_ALL=C sort)
nz=$(cd "$out/before" && grep -L '^0$' ./*.rc | wc -l)
echo "compared $files files ($bytes bytes) of $(ls "$elfdir"/*.elf "$elfdir"/m7/*.elf 2>/dev/null | grep -c . ) firmware listed (long ones only with LONG=1); $nz commands exited non-zero (the same on both sides unless listed); $bad differ"
[ $bad -eq 0 ]
