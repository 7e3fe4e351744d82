#!/usr/bin/env bash
# CLI end to end on the tiny firmware: golden summary of its CAT, and every
# kind of bad input gives a clear error (file and offset), exit 2 and no
# partial output.  Usage: cli_capture.sh CITCAT TINY.elf GOLDEN_DIR
set -u
citcat=$1 elf=$2 golden=$3
. "$(dirname "$0")/testlib.sh"


"$citcat" capture "$elf" -o "$t/run.cat" --oracle "$t/run.itrace" --seed 1 -q >"$t/uart" || fail "capture"
"$citcat" info --json "$t/run.cat" >"$t/info.json" || fail "info"
if [ "${CITCAT_UPDATE_GOLDEN:-}" = 1 ]; then cp "$t/info.json" "$golden/tiny.cat.json"; fi
# The file size (and bytes per instruction) is liblz4's output, not a
# property of the run: compared with the file itself, not with the golden.
# The rest is the run: its truths are stated in golden/tiny.cat.md.
# The firmware's path (CAT version 4) is where this build put tiny.elf:
# checked against the argument; tiny.elf is linked without a build id.
nolz4() { sed -e 's/"file_bytes": [0-9]*, "bytes_per_instruction": [0-9.]*, //' -e 's/"elf": {[^}]*}, //' "$1"; }
diff -u <(nolz4 "$golden/tiny.cat.json") <(nolz4 "$t/info.json") || fail "CAT summary differs from the golden one"
grep -qF "\"elf\": {\"path\": \"$(realpath "$elf")\", \"build_id\": null}" "$t/info.json" ||
  fail "info: the recorded firmware is not $(realpath "$elf") without a build id"
grep -q "\"file_bytes\": $(stat -c %s "$t/run.cat")," "$t/info.json" || fail "info's file_bytes is not the file's size"
"$citcat" info --json "$t/run.itrace" | grep -q '"kind": "itrace"' || fail "itrace info"

# Bad inputs: empty, truncated, corrupted, wrong magic, wrong version, wrong kind, text.
size=$(stat -c %s "$t/run.cat")
: >"$t/empty.cat"
expect 2 "empty.cat: offset 0: file is empty" "$citcat" info "$t/empty.cat"
head -c $((size - 10)) "$t/run.cat" >"$t/trunc.cat"
expect 2 "trunc.cat: offset [0-9]*:" "$citcat" info "$t/trunc.cat"
cp "$t/run.cat" "$t/corrupt.cat"
printf '\xff' | dd of="$t/corrupt.cat" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 2 "corrupt.cat: offset [0-9]*: chunk checksum mismatch" "$citcat" info "$t/corrupt.cat"
cp "$t/run.cat" "$t/version.cat"
printf '\x09' | dd of="$t/version.cat" bs=1 seek=8 conv=notrunc 2>/dev/null
expect 2 "version.cat: offset 8: format version 9 is not supported" "$citcat" info "$t/version.cat"
printf 'not a trace at all\n' >"$t/text.bin"
expect 2 "text.bin: offset 0:" "$citcat" info "$t/text.bin"
expect 2 "cannot open" "$citcat" info "$t/missing.cat"

# Capture errors leave no output behind.
expect 2 "empty.cat" "$citcat" capture "$t/empty.cat" -o "$t/x.cat" --seed 1
[ ! -e "$t/x.cat" ] || fail "partial CAT left after a failed capture"
ls "$t" | grep -q 'tmp-' && fail "temporary file left behind"
expect 2 "bad cache geometry" "$citcat" capture "$elf" -o "$t/x.cat" --icache 3K:4:32
expect 2 "unknown or incomplete option" "$citcat" capture "$elf" -o "$t/x.cat" --bogus
expect 2 "need FIRMWARE.elf" "$citcat" capture
# A firmware that never starts tracing still runs, with a warning.
"$citcat" capture "$elf" -o "$t/lim.cat" --seed 1 --max-insns 5 -q 2>"$t/err" || fail "capture with a limit"
grep -q "never reached a trace start point" "$t/err" || fail "no warning for an untraced run"
"$citcat" --help | grep -q "Exit status" || fail "--help"
"$citcat" capture --help | grep -q -- "--oracle" || fail "capture --help"

finish cli_capture
