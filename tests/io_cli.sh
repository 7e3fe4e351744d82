#!/usr/bin/env bash
# Output-file safety and argument checks of the citcat command (issue 15,
# defects 2, 8 and 9): device nodes, FIFOs and links given as outputs are
# still what they were after the run and got the bytes; outputs that are an
# input or another output are refused (exit 2) before anything is written;
# write errors and their errno reach the exit status and the message;
# strict numbers.  Device nodes are made with mknod in the scratch folder
# (root only; those checks are skipped with a message otherwise), never the
# system's /dev.
# Usage: io_cli.sh CITCAT UARTLINE.elf UARTLINE.txt
set -u
citcat=$1 elf=$2 input=$3
. "$(dirname "$0")/testlib.sh"

# run0 CMD...: CMD exits 0 (stdout in $t/stdout, stderr in $t/err)
run0() { "$@" >"$t/stdout" 2>"$t/err" || fail "'$*' exited $?: $(head -c 300 "$t/err")"; return 0; }
# the firmware's UART input, copied: a broken same-file check must not reach the source tree
cp "$input" "$t/in.txt"
input=$t/in.txt
cap() { "$citcat" capture "$elf" --uart-in "$input" --seed 1 -q "$@"; }
same() { cmp -s "$1" "$2" || fail "$3"; }
no_tmp() { ls -a "$t" | grep -q 'tmp-' && fail "temporary file left behind after $1: $(ls -a "$t" | grep tmp-)"; rm -f "$t"/*.tmp-*; return 0; }
is_chr() { [ "$(stat -c '%F %t:%T' "$1" 2>/dev/null)" = "character special file $2" ] || fail "$1 is no longer the character device $2: $(stat -c '%F' "$1" 2>&1)"; }

cap -o "$t/run.cat" --oracle "$t/run.itrace" --uart-out "$t/run.uart" || fail "reference capture"
"$citcat" ims "$t/run.cat" -o "$t/run.ims" 2>/dev/null || fail "ims"
"$citcat" aes "$t/run.cat" -o "$t/run.aes" 2>/dev/null || fail "aes"
for f in cat itrace ims aes uart; do cp "$t/run.$f" "$t/keep.$f"; done
[ -s "$t/run.uart" ] || fail "the firmware wrote nothing to the UART"

# ---- defect 2: special files are written through, never replaced ----
mkfifo "$t/fifo"
cat "$t/fifo" >"$t/fifo.out" &
reader=$!
run0 cap -o "$t/fifo" --uart-out "$t/u.txt"
wait $reader
[ -p "$t/fifo" ] || fail "the FIFO was replaced"
same "$t/fifo.out" "$t/run.cat" "the CAT written into a FIFO differs from the file capture"
ln -s fifo "$t/fifolink"
cat "$t/fifolink" >"$t/fifo.out" &
reader=$!
run0 "$citcat" convert "$t/run.itrace" -o "$t/fifolink" --to din
wait $reader
[ -L "$t/fifolink" ] && [ -p "$t/fifo" ] || fail "a link to a FIFO was replaced"
"$citcat" convert "$t/run.itrace" -o "$t/run.din" 2>/dev/null
same "$t/fifo.out" "$t/run.din" "din through a link to a FIFO differs"
# a link to the descriptor of standard output (what /dev/stdout is), stdout a file
ln -s /proc/self/fd/1 "$t/fd1"
"$citcat" aes "$t/run.cat" -o "$t/fd1" >"$t/stdout.aes" 2>"$t/err" || fail "aes -o link-to-fd-1: $(cat "$t/err")"
[ -L "$t/fd1" ] || fail "the link to /proc/self/fd/1 was replaced"
same "$t/stdout.aes" "$t/run.aes" "the AES written through /proc/self/fd/1 differs"
mkdir "$t/dir"
expect 2 "dir: .*Is a directory" cap -o "$t/dir"
[ -d "$t/dir" ] || fail "the directory was replaced"
expect 2 "No such file or directory" cap -o ""
expect 2 "nodir/x.cat: .*No such file or directory" "$citcat" ims "$t/run.cat" -o "$t/nodir/x.cat"
ln -s missing "$t/dangling"
expect 2 "dangling.*No such file or directory" "$citcat" ims "$t/run.cat" -o "$t/dangling"
[ -L "$t/dangling" ] && [ ! -e "$t/missing" ] || fail "a dangling link was replaced or followed"
# --uart-out: a failed capture removes nothing that was there before
echo precious >"$t/precious.txt"
printf 'not an elf' >"$t/bad.elf"
expect 2 "bad.elf" "$citcat" capture "$t/bad.elf" -o "$t/bad.cat" --uart-out "$t/precious.txt" --seed 1
[ "$(cat "$t/precious.txt" 2>/dev/null)" = precious ] || fail "a failed capture removed or changed --uart-out's file"
no_tmp "a failed capture"

if [ "$(id -u)" = 0 ] && mknod "$t/null" c 1 3 && mknod "$t/full" c 1 7; then
  run0 cap -o "$t/null" --oracle "$t/null" --uart-out "$t/null"
  is_chr "$t/null" 1:3
  expect 2 "full: .*No space left on device" cap -o "$t/full"
  is_chr "$t/full" 1:7
  expect 2 "full: .*No space left on device" "$citcat" replay "$t/run.ims" "$t/run.aes" -o "$t/full"
  is_chr "$t/full" 1:7
  expect 2 "full: .*No space left on device" "$citcat" convert "$t/run.itrace" -o "$t/full" --to pdats2
  is_chr "$t/full" 1:7
  expect 2 "full: .*No space left on device" "$citcat" convert "$t/run.itrace" -o "$t/full" --to text
  is_chr "$t/full" 1:7
  ln -s full "$t/fulllink"
  expect 2 "No space left on device" "$citcat" ims "$t/run.cat" -o "$t/fulllink"
  [ -L "$t/fulllink" ] || fail "the link to a device was replaced"
  is_chr "$t/full" 1:7
  # --uart-out on a full device: exit 2
  expect 2 "full.*No space left on device" cap -o "$t/u.cat" --uart-out "$t/full"
  is_chr "$t/full" 1:7
  # a failed capture does not remove a device given as --uart-out
  expect 2 "bad.elf" "$citcat" capture "$t/bad.elf" -o "$t/bad.cat" --uart-out "$t/null" --seed 1
  is_chr "$t/null" 1:3
  # write errors on standard output (defect 9)
  "$citcat" info "$t/run.cat" >"$t/full" 2>"$t/err"
  rc=$?
  [ $rc -eq 2 ] || fail "info > full exited $rc"
  grep -q "standard output.*No space left on device" "$t/err" || fail "info > full: $(cat "$t/err")"
  "$citcat" convert "$t/run.itrace" -o - --to din >"$t/full" 2>"$t/err"
  [ $? -eq 2 ] || fail "convert -o - > full did not exit 2"
  is_chr "$t/full" 1:7
  no_tmp "the device checks"
else
  echo "io_cli: skipping the device-node checks (mknod c 1 3 / c 1 7 needs root)"
fi

# ---- defect 8: an output that is an input or another output ----
expect 2 "same file" cap -o "$t/two.cat" --oracle "$t/two.cat"
[ ! -e "$t/two.cat" ] || fail "capture -o X --oracle X left X"
expect 2 "same file" cap -o "$t/two.cat" --oracle "$t/../$(basename "$t")/two.cat"
expect 2 "same file" cap -o "$t/run.cat" --oracle "$t/run.cat"
expect 2 "same file" cap -o "$t/x.cat" --uart-out "$t/run.uart" --oracle "$t/run.uart"
expect 2 "the input .*in.txt" "$citcat" capture "$elf" -o "$t/x.cat" --uart-in "$input" --uart-out "$input" --seed 1
same "$input" "$3" "capture --uart-out INPUT changed the input"
expect 2 "the input" "$citcat" ims "$t/run.cat" -o "$t/run.cat"
expect 2 "the input" "$citcat" aes "$t/run.cat" -o "$t/run.cat"
ln -s run.cat "$t/catlink"
expect 2 "the input" "$citcat" ims "$t/run.cat" -o "$t/catlink"
ln "$t/run.cat" "$t/hardlink.cat"
expect 2 "the input" "$citcat" aes "$t/run.cat" -o "$t/hardlink.cat"
expect 2 "the input" "$citcat" replay "$t/run.ims" "$t/run.aes" -o "$t/run.ims"
expect 2 "the input" "$citcat" replay "$t/run.ims" "$t/run.aes" -o "$t/run.aes"
expect 2 "the input" "$citcat" replay "$t/run.ims" "$t/run.aes" --verify "$t/run.cat" -o "$t/run.cat"
expect 2 "the input" "$citcat" replay "$t/run.ims" "$t/run.aes" --oracle "$t/run.itrace" -o "$t/run.itrace"
expect 2 "the input" "$citcat" convert "$t/run.itrace" -o "$t/run.itrace"
expect 2 "the input" "$citcat" convert "$t/run.itrace" -o "$t/./run.itrace" --to din
"$citcat" convert "$t/run.itrace" -o "$t/run.sdc" --to sdclsp 2>/dev/null || fail "convert --to sdclsp"
cp "$t/run.sdc" "$t/keep.sdc"
expect 2 "the input" "$citcat" convert "$t/run.sdc" -o "$t/run.ims" --image "$t/run.ims" --to din
for f in cat itrace ims aes uart sdc; do same "$t/run.$f" "$t/keep.$f" "run.$f changed by a refused command"; done
no_tmp "the same-file checks"
# two outputs on /dev/null-like devices are fine (checked above); "-" twice is not
expect 2 "standard output" cap -o - --oracle -

# ---- defect 9: the smaller ones ----
# info - reads standard input, seekable or a pipe
"$citcat" info - <"$t/run.cat" >"$t/info1" 2>"$t/err" || fail "info - < run.cat: $(cat "$t/err")"
grep -q "cache-filtered address trace" "$t/info1" || fail "info - < run.cat: $(cat "$t/info1")"
for f in cat itrace ims aes din sdc; do
  "$citcat" info "$t/run.$f" | sed 1d >"$t/want"
  cat "$t/run.$f" | "$citcat" info - 2>"$t/err" | sed 1d >"$t/got"
  [ "${PIPESTATUS[1]}" -eq 0 ] || fail "cat run.$f | info - failed: $(cat "$t/err")"
  grep -v "file bytes\|file  \|size  " "$t/want" >"$t/want2"; grep -v "file bytes\|file  \|size  " "$t/got" >"$t/got2"
  cmp -s "$t/want2" "$t/got2" || fail "info - on a pipe of run.$f differs: $(diff "$t/want2" "$t/got2" | head -5)"
done
: | "$citcat" info - >/dev/null 2>"$t/err" && fail "info - on empty input succeeded"
grep -q "empty" "$t/err" || fail "info - on empty input: $(cat "$t/err")"
# --verify with another capture of the same configuration: exit 2, not a divergence
printf 'another line\nand more\n' >"$t/other.txt"
"$citcat" capture "$elf" --uart-in "$t/other.txt" --seed 1 -q -o "$t/other.cat" >/dev/null || fail "other capture"
expect 2 "other.cat is not the CAT .*run.ims was extracted from" \
  "$citcat" replay "$t/run.ims" "$t/run.aes" --verify "$t/other.cat" -o "$t/o.itrace"
[ ! -e "$t/o.itrace" ] || fail "replay --verify OTHER left its output"
# a shorter capture: its STOP comes at an interrupt entry, where the replay
# used to resume after the divergence and run forever (hence the timeout)
cap --max-insns 20000 -o "$t/short.cat" >/dev/null || fail "short capture"
expect 2 "short.cat is not the CAT" timeout -s KILL 120 "$citcat" replay "$t/run.ims" "$t/run.aes" --verify "$t/short.cat"
run0 "$citcat" replay "$t/run.ims" "$t/run.aes" --verify "$t/run.cat" -q
# --uart-in DIR
expect 2 "dir: cannot open UART input: Is a directory" "$citcat" capture "$elf" -o "$t/x.cat" --uart-in "$t/dir" --seed 1
expect 2 "Is a directory" "$citcat" capture "$elf" -o "$t/x.cat" --dma-in "$t/dir" --seed 1
# numbers: decimal or 0x hex, nothing else
seed_of() { "$citcat" info --json "$1" | grep -o '"seed": [0-9]*' | cut -d' ' -f2; }
run0 "$citcat" capture "$elf" -o "$t/s.cat" --seed 010 -q --uart-out "$t/u.txt" --max-insns 1000
[ "$(seed_of "$t/s.cat")" = 10 ] || fail "--seed 010 is not ten: $(seed_of "$t/s.cat")"
run0 "$citcat" capture "$elf" -o "$t/s.cat" --seed 0x10 -q --uart-out "$t/u.txt" --max-insns 1000
[ "$(seed_of "$t/s.cat")" = 16 ] || fail "--seed 0x10 is not sixteen"
run0 "$citcat" capture "$elf" -o "$t/s.cat" --seed 18446744073709551615 -q --uart-out "$t/u.txt" --max-insns 1000
for bad in " 10" "10 " "+10" "-1" "1e3" "0x" "" "18446744073709551616" "0x1g" "010x"; do
  expect 2 "bad seed" "$citcat" capture "$elf" -o "$t/s2.cat" --seed "$bad"
done
expect 2 "bad instruction count" "$citcat" capture "$elf" -o "$t/s2.cat" --max-insns " 5"
expect 2 "bad RAM size" "$citcat" capture "$elf" -o "$t/s2.cat" --ram " 16M"
expect 2 "bad RAM size" "$citcat" capture "$elf" -o "$t/s2.cat" --ram "16Mi"
run0 "$citcat" capture "$elf" -o "$t/s.cat" --ram 16MiB --dcache 8KB:2:32B:fifo -q --uart-out "$t/u.txt" --max-insns 1000
for bad in 16K:4:32:lru:x 16K:4:32:lru: 16K::4:32 16K:4:32:: :16K:4:32 16K:4 16K:4:32:LRU " 16K:4:32" 16K:04x:32; do
  expect 2 "bad cache geometry" "$citcat" capture "$elf" -o "$t/s2.cat" --dcache "$bad"
done
long="miss=1,wb=2,uncached=$(printf '%0200d' 3)"
expect 2 "bad --penalty" "$citcat" capture "$elf" -o "$t/s2.cat" --penalty "$long"
expect 2 "bad --penalty" "$citcat" capture "$elf" -o "$t/s2.cat" --penalty "miss=1,,wb=2"
expect 2 "bad --penalty" "$citcat" capture "$elf" -o "$t/s2.cat" --penalty "miss=1,wb=2,uncached=3,miss=4"
expect 2 "bad --penalty item" "$citcat" capture "$elf" -o "$t/s2.cat" --penalty "miss= 1"
[ ! -e "$t/s2.cat" ] || fail "a refused capture left its output"
no_tmp "the argument checks"

finish io_cli
