#!/usr/bin/env bash
# citcat replay --lvt and info on bad LVT files: empty, truncated, corrupted,
# wrong magic, wrong version, reserved header bits, the wrong kind of file,
# the wrong firmware.  Each must exit 2 with a message naming the file and
# an offset (or the reason), and leave no output behind.
# Usage: lvt_cli.sh CITCAT CONTAINER_RETAG FIRMWARE.elf OTHER.elf RUN.cat
set -u
citcat=$1 retag=$2 elf=$3 other=$4 cat=$5
. "$(dirname "$0")/testlib.sh"

expect2() { expect 2 "$@"; }
no_output() {
  [ ! -e "$1" ] || fail "$1 left behind after a failure"
  ls -a "$t" | grep -q 'tmp-' && fail "temporary file left behind: $(ls -a "$t" | grep tmp-)"
  return 0
}
patch_byte() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

"$citcat" capture "$elf" --lvt "$t/run.lvt" --oracle "$t/run.itrace" --seed 1 --uart-out /dev/null -q ||
  fail "capture --lvt"
"$citcat" replay --lvt "$t/run.lvt" --image "$elf" -o "$t/ok.itrace" --oracle "$t/run.itrace" 2>"$t/err" ||
  fail "replay --lvt on a good LVT: $(cat "$t/err")"
grep -q "instruction trace equals the oracle" "$t/err" || fail "no oracle confirmation: $(cat "$t/err")"

lvt=$t/run.lvt
size=$(stat -c %s "$lvt")
: >"$t/empty.lvt"
head -c $((size - 10)) "$lvt" >"$t/trunc.lvt"
head -c $((size / 2)) "$lvt" >"$t/half.lvt"
cp "$lvt" "$t/corrupt.lvt" && patch_byte "$t/corrupt.lvt" $((size / 2)) '\xa5\x5a'
cp "$lvt" "$t/magic.lvt" && patch_byte "$t/magic.lvt" 0 'X'
cp "$lvt" "$t/version.lvt" && patch_byte "$t/version.lvt" 8 '\x07'
# reserved granule code 1 and a reserved byte, with the header checksum made valid again
cp "$lvt" "$t/g.lvt" && patch_byte "$t/g.lvt" 112 '\x01' && "$retag" "$t/g.lvt" "$t/gran.lvt" CLVT
cp "$lvt" "$t/r.lvt" && patch_byte "$t/r.lvt" 114 '\x01' && "$retag" "$t/r.lvt" "$t/resv.lvt" CLVT
out=$t/out.itrace
run() { "$citcat" replay --lvt "$1" --image "$elf" -o "$out"; }
expect2 "empty.lvt: offset 0: file is empty" run "$t/empty.lvt"; no_output "$out"
expect2 "trunc.lvt: offset [0-9]*: " run "$t/trunc.lvt"; no_output "$out"
expect2 "half.lvt: offset [0-9]*: " run "$t/half.lvt"; no_output "$out"
expect2 "corrupt.lvt: offset [0-9]*: .*checksum" run "$t/corrupt.lvt"; no_output "$out"
expect2 "magic.lvt: offset 0: " run "$t/magic.lvt"; no_output "$out"
expect2 "version.lvt: offset 8: format version 7" run "$t/version.lvt"; no_output "$out"
expect2 "gran.lvt: offset 112: .*granule" run "$t/gran.lvt"; no_output "$out"
expect2 "resv.lvt: offset 114: .*reserved byte 98" run "$t/resv.lvt"; no_output "$out"
expect2 "crc32.cat: offset 0: wrong kind of file" run "$cat"; no_output "$out"
expect2 "not the firmware .* was recorded from" "$citcat" replay --lvt "$lvt" --image "$other" -o "$out"; no_output "$out"
expect2 "cannot open\|No such file" "$citcat" replay --lvt "$lvt" --image "$t/missing.elf" -o "$out"; no_output "$out"
expect2 "--lvt takes --image" "$citcat" replay --lvt "$lvt" -o "$out"; no_output "$out"
expect2 "--lvt-gran takes byte or word" "$citcat" capture "$elf" --lvt "$t/x.lvt" --lvt-gran half
no_output "$t/x.lvt"
for f in trunc half corrupt gran; do
  expect2 "$f.lvt: offset [0-9]*: " "$citcat" info "$t/$f.lvt"
done
"$citcat" info --json "$lvt" >"$t/info.json" || fail "info --json on a good LVT"
grep -q '"payload_bytes": [1-9][0-9]*, "file_bytes": '"$size" "$t/info.json" || fail "info --json sizes: $(cat "$t/info.json")"
finish lvt_cli
