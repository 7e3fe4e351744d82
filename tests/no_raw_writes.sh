#!/usr/bin/env bash
# One output path (issue 29): no source file of the library or the tool
# opens a file for writing except common/outfile.c, through which every
# output goes (temporary file, same-file guard, fsync, rename, mode and
# owner kept).  Greps the sources (not the tests) for every way C opens a
# file for writing.  The few anonymous scratch files (created, unlinked or
# replaced by an outfile at once, never a user's name) are listed below
# with their reason; a new one fails this test until it is either moved to
# an outfile or listed here with its reason.
# Usage: no_raw_writes.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
allow=(
  "common/outfile.c:"                       # the one output path itself
  "common/input.c:mkostemp"                 # the copy of standard input or a FIFO: unlinked at once
  "common/segidx.c:mkstemp"                 # a bundle read from a pipe, copied: unlinked at once
  "wet/wet_read.c:tmpfile"                  # a compressed WET unwrapped for seeking: anonymous
  "cli/cmd_wet.c:tmpfile"                   # the backward slice's indices, reversed: anonymous
  "cli/sdclsp_cli.c:mkstemp"                # bench: makes a name only; the file is written by an outfile
  "cli/lvt_cli.c:mkstemp"                   # bench: makes names only; the files are written by outfiles
)
pattern='fopen *\([^;]*"[wa+]|fdopen *\([^;]*"[wa+]|popen *\([^;]*"w|freopen *\(|[^a-z_]creat *\(|open(at)? *\([^;]*O_(WRONLY|RDWR|CREAT)|tmpfile *\(|mkstemp|mkostemp|open_memstream'
fails=0
while IFS= read -r hit; do
  file=${hit%%:*}
  ok=0
  for a in "${allow[@]}"; do
    f=${a%%:*} what=${a#*:}
    if [ "$file" = "$f" ] && { [ -z "$what" ] || grep -q -- "$what" <<<"$hit"; }; then ok=1; break; fi
  done
  # /dev/null opened for writing (bench silences a child's output) stores nothing
  grep -q '"/dev/null"' <<<"$hit" && ok=1
  if [ $ok = 0 ]; then echo "FAIL: opens a file for writing outside common/outfile.c: $hit"; fails=$((fails + 1)); fi
done < <(grep -rnE --include='*.c' --include='*.h' "$pattern" common formats capture replay ims aes wet cli machine 2>/dev/null | grep -v '^[^:]*:[0-9]*: *\*\|//')
# the allow list stays honest: every entry still matches something
for a in "${allow[@]}"; do
  f=${a%%:*} what=${a#*:}
  [ -z "$what" ] && continue
  grep -qE -- "$what" "$f" 2>/dev/null || { echo "FAIL: allow list entry '$a' matches nothing: remove it"; fails=$((fails + 1)); }
done
[ $fails = 0 ] && echo "no_raw_writes: every file is written through common/outfile.c" && exit 0
exit 1
