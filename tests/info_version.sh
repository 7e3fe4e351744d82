#!/usr/bin/env bash
# citcat info prints the format version the file carries, not the one
# citcat writes: a CAT retagged as version 3 and an AES as version 1 (both
# still read: CAT.md and AES.md, Version changes) are described as such,
# from a file, through standard input (seekable and a pipe) and through a
# zstd wrapper; PDATS names its version 2 and SDC-LSP its version 1 (PDATS.md, SDCLSP.md).
# Usage: info_version.sh CITCAT TINY.elf CONTAINER_RETAG
set -u
citcat=$1 elf=$2 retag=$3
. "$(dirname "$0")/testlib.sh"

"$citcat" capture "$elf" -o "$t/run.cat" --oracle "$t/run.itrace" --seed 1 -q >/dev/null || fail "capture"
"$citcat" aes "$t/run.cat" -o "$t/run.aes" >/dev/null || fail "aes"
"$retag" "$t/run.cat" "$t/old.cat" CCAT 3 || fail "retag CAT"
"$retag" "$t/run.aes" "$t/old.aes" CAES 1 || fail "retag AES"

# first line, --json: the version field
has() { # FILE-OR-DASH TEXT JSON [stdin redirect via $in]
  local f=$1 text=$2 json=$3
  "$citcat" info "$f" <"${in:-/dev/null}" 2>"$t/err" | head -1 | grep -qF "$text" ||
    fail "info $f ${in:-}: first line lacks '$text': $("$citcat" info "$f" <"${in:-/dev/null}" 2>&1 | head -1)"
  "$citcat" info --json "$f" <"${in:-/dev/null}" 2>"$t/err" | grep -qF "$json" ||
    fail "info --json $f ${in:-}: lacks '$json': $(head -c 200 "$t/err")"
}
has "$t/old.cat" "(CAT v3)" '"version": 3,'
has "$t/old.aes" "(AES v1)" '"version": 1,'
cur_cat=$(od -An -tu2 -j8 -N2 "$t/run.cat" | tr -d ' ')
cur_aes=$(od -An -tu2 -j8 -N2 "$t/run.aes" | tr -d ' ')
cur_itr=$(od -An -tu2 -j8 -N2 "$t/run.itrace" | tr -d ' ')
has "$t/run.cat" "(CAT v$cur_cat)" "\"version\": $cur_cat,"
has "$t/run.aes" "(AES v$cur_aes)" "\"version\": $cur_aes,"
has "$t/run.itrace" "(itrace v$cur_itr)" "\"version\": $cur_itr,"
in="$t/old.cat" has - "(CAT v3)" '"version": 3,'
# a pipe, and a zstd frame: the version is read before the reader consumes it
cat "$t/old.aes" | "$citcat" info - | head -1 | grep -qF "(AES v1)" || fail "info - on a pipe of old.aes"
if command -v zstd >/dev/null; then
  zstd -qc "$t/old.cat" | "$citcat" info --json - | grep -qF '"version": 3,' || fail "info - on a zstd frame of old.cat"
fi
"$citcat" convert "$t/run.itrace" -o "$t/run.pdats" >/dev/null || fail "convert pdats"
"$citcat" convert "$t/run.itrace" -o "$t/run.sdc" --to sdclsp >/dev/null || fail "convert sdclsp"
has "$t/run.pdats" ", version 2" '"version": 2}'
has "$t/run.sdc" "SDC-LSP stream (v1)" '"version": 1,'
finish info_version
