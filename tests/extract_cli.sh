#!/usr/bin/env bash
# citcat ims / aes / info on bad inputs: truncated, corrupted, wrong magic,
# wrong version, empty, the wrong kind of file.  Each must exit 2 with a
# message naming the file and an offset, and leave no output behind.
# Usage: extract_cli.sh CITCAT CONTAINER_RETAG RUN.cat RUN.itrace OTHER.cat
set -u
citcat=$1 retag=$2 cat=$3 itrace=$4 other=$5
. "$(dirname "$0")/testlib.sh"

# expect2 PATTERN CMD...: exit 2, stderr matching PATTERN
expect2() { expect 2 "$@"; }
no_output() {
  [ ! -e "$1" ] || fail "$1 left behind after a failure"
  ls -a "$t" | grep -q 'tmp-' && fail "temporary file left behind: $(ls -a "$t" | grep tmp-)"
  rm -f "$t"/*.tmp-* 2>/dev/null
  return 0
}
patch_byte() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

"$citcat" ims "$cat" -o "$t/run.ims" 2>/dev/null || fail "citcat ims on a good CAT"
"$citcat" aes "$cat" -o "$t/run.aes" 2>/dev/null || fail "citcat aes on a good CAT"
"$citcat" aes "$other" -o "$t/other.aes" 2>/dev/null || fail "citcat aes on the other CAT"

# Bad CATs for both extractors.
size=$(stat -c %s "$cat")
: >"$t/empty.cat"
head -c $((size - 10)) "$cat" >"$t/trunc.cat"
head -c $((size / 2)) "$cat" >"$t/half.cat"
cp "$cat" "$t/corrupt.cat" && patch_byte "$t/corrupt.cat" $((size / 2)) '\xa5\x5a'
cp "$cat" "$t/magic.cat" && patch_byte "$t/magic.cat" 0 'X'
cp "$cat" "$t/version.cat" && patch_byte "$t/version.cat" 8 '\x07'
cp "$itrace" "$t/run.itrace"
for tool in ims aes; do
  out=$t/out.$tool
  expect2 "empty.cat: offset 0: file is empty" "$citcat" $tool "$t/empty.cat" -o "$out"; no_output "$out"
  expect2 "trunc.cat: offset [0-9]*: " "$citcat" $tool "$t/trunc.cat" -o "$out"; no_output "$out"
  expect2 "half.cat: offset [0-9]*: " "$citcat" $tool "$t/half.cat" -o "$out"; no_output "$out"
  expect2 "corrupt.cat: offset [0-9]*: .*checksum" "$citcat" $tool "$t/corrupt.cat" -o "$out"; no_output "$out"
  expect2 "magic.cat: offset 0: " "$citcat" $tool "$t/magic.cat" -o "$out"; no_output "$out"
  expect2 "version.cat: offset 8: format version 7" "$citcat" $tool "$t/version.cat" -o "$out"; no_output "$out"
  expect2 "run.itrace: offset 0: wrong kind of file" "$citcat" $tool "$t/run.itrace" -o "$out"; no_output "$out"
  expect2 "run.ims: offset 0: wrong kind of file" "$citcat" $tool "$t/run.ims" -o "$out"; no_output "$out"
  expect2 "missing.cat" "$citcat" $tool "$t/missing.cat" -o "$out"; no_output "$out"
  expect2 "need RUN.cat and -o OUT" "$citcat" $tool "$cat"; no_output "$out"
  expect2 "not standard input" "$citcat" $tool - -o "$out"; no_output "$out"
done
# An existing output is not clobbered by a failed run.
echo keep >"$t/keep.aes"
expect2 "corrupt.cat" "$citcat" aes "$t/corrupt.cat" -o "$t/keep.aes"
[ "$(cat "$t/keep.aes")" = keep ] || fail "a failed citcat aes replaced an existing output"

# Bad IMS and AES files for their readers (citcat info).
for kind in ims aes; do
  f=$t/run.$kind
  size=$(stat -c %s "$f")
  : >"$t/empty.$kind"
  head -c $((size - 3)) "$f" >"$t/trunc.$kind"
  head -c 100 "$f" >"$t/head.$kind"
  cp "$f" "$t/corrupt.$kind" && patch_byte "$t/corrupt.$kind" $((size - 40)) '\xa5'
  cp "$f" "$t/version.$kind" && patch_byte "$t/version.$kind" 8 '\x09'
  expect2 "empty.$kind: offset 0: file is empty" "$citcat" info "$t/empty.$kind"
  expect2 "trunc.$kind: offset [0-9]*: " "$citcat" info "$t/trunc.$kind"
  expect2 "head.$kind: offset [0-9]*: " "$citcat" info "$t/head.$kind"
  expect2 "corrupt.$kind: offset [0-9]*: .*checksum" "$citcat" info --json "$t/corrupt.$kind"
  expect2 "version.$kind: offset 8: format version 9" "$citcat" info "$t/version.$kind"
done
# A well-formed container of another kind's content under the IMS / AES magic
# and version.
"$retag" "$cat" "$t/cat-as.ims" CIMS 4 || fail "retag"
"$retag" "$cat" "$t/cat-as.aes" CAES 1 || fail "retag"
"$retag" "$t/run.aes" "$t/aes-as.ims" CIMS 4 || fail "retag"
"$retag" "$t/run.ims" "$t/ims-as.aes" CAES 1 || fail "retag"
# the CAT's metadata: the 96-byte configuration and, from CAT version 4, the
# firmware's path and build id (formats/CAT.md): its length from the header
cml=$(od -An -tu4 -j 12 -N 4 "$cat" | tr -d ' ')
expect2 "cat-as.ims: offset 12: IMS metadata is $cml bytes, expected 284" "$citcat" info "$t/cat-as.ims"
expect2 "cat-as.aes: offset 12: AES metadata is $cml bytes, expected 32" "$citcat" info "$t/cat-as.aes"
expect2 "aes-as.ims: offset 12: IMS metadata is 32 bytes" "$citcat" info --json "$t/aes-as.ims"
expect2 "ims-as.aes: offset 12: AES metadata is 284 bytes" "$citcat" info --json "$t/ims-as.aes"
# The previous CAT and IMS version (no replacement state at P) is refused
# by name; the header is re-checksummed so the version is what is wrong.
"$retag" "$cat" "$t/v1.cat" CCAT 1 || fail "retag"
"$retag" "$t/run.ims" "$t/v1.ims" CIMS 1 || fail "retag"
expect2 "v1.cat: offset 8: format version 1 is not supported" "$citcat" ims "$t/v1.cat" -o "$t/v1out.ims"
no_output "$t/v1out.ims"
expect2 "v1.cat: offset 8: format version 1 is not supported" "$citcat" info "$t/v1.cat"
expect2 "v1.ims: offset 8: format version 1 is not supported" "$citcat" info "$t/v1.ims"
# IMS version 2 (no SCTLR, IMS.md Version changes) likewise.
"$retag" "$t/run.ims" "$t/v2.ims" CIMS 2 || fail "retag"
expect2 "v2.ims: offset 8: format version 2 is not supported" "$citcat" info "$t/v2.ims"
expect2 "v2.ims: offset 8: format version 2 is not supported" "$citcat" replay "$t/v2.ims" "$t/run.aes" -o "$t/r.itrace"
no_output "$t/r.itrace"
# The replayer refuses a CAT where it reads an IMS or an AES, and a mismatched pair.
expect2 "offset 0: wrong kind of file: magic 'CCAT', expected 'CIMS'" "$citcat" replay "$cat" "$t/run.aes" -o "$t/r.itrace"
no_output "$t/r.itrace"
expect2 "offset 0: wrong kind of file: magic 'CCAT', expected 'CAES'" "$citcat" replay "$t/run.ims" "$cat" -o "$t/r.itrace"
no_output "$t/r.itrace"
expect2 "come from different captures" "$citcat" replay "$t/run.ims" "$t/other.aes" -o "$t/r.itrace"
no_output "$t/r.itrace"

finish extract_cli
