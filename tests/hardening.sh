#!/usr/bin/env bash
# Regression tests for the defects of issue 29 ("Hardening, round 2"), one
# block each, from small reproducers written from the issue's descriptions.
# Defects 5, 10, 11 and 12 are covered by unit tests and the fuzz job
# (test_dump, test_itrace, fuzz_replay, tests/fuzz_ci.sh), defect 16 also
# by the conformance matrix (tests/conformance.sh); see the report.
# Usage: hardening.sh CITCAT EXAMPLES_DIR
set -u
citcat=$1 ex=$2
. "$(dirname "$0")/testlib.sh"
export CITCAT_NO_PROGRESS=1 TMPDIR=$t/tmp
mkdir -p "$TMPDIR"
C=$citcat
q() { "$C" "$@" -q >/dev/null 2>"$t/q.err" || { echo "setup failed: $* ($(head -c 300 "$t/q.err"))"; exit 1; }; }
cp "$ex/crc32.elf" "$t/fw.elf"
q capture "$t/fw.elf" -o "$t/r.cat" --oracle "$t/r.itrace" --daf "$t/r.daf" --lvt "$t/r.lvt" --seed 1 --max-insns 200000
q ims "$t/r.cat" -o "$t/r.ims"
q aes "$t/r.cat" -o "$t/r.aes"
q wet "$t/r.ims" "$t/r.aes" -o "$t/r.wet"
for f in cat itrace daf lvt ims aes wet; do cp "$t/r.$f" "$t/keep.$f"; done
intact() { for f in cat itrace daf lvt ims aes wet; do cmp -s "$t/r.$f" "$t/keep.$f" || fail "$1: r.$f changed"; done; }
# sig_stall SIG CMD...: CMD reads - from a pipe that stays open; SIG after 1 s
sig_stall() {
  local sig=$1 src=$2
  shift 2
  mkfifo "$t/p.$$" 2>/dev/null
  (cat "$src"; exec sleep 30) >"$t/p.$$" &
  local feeder=$!
  "$@" <"$t/p.$$" >"$t/stdout" 2>"$t/err" &
  local pid=$!
  sleep 1
  kill -s "$sig" $pid
  wait $pid
  RC=$?
  kill -9 $feeder 2>/dev/null
  wait $feeder 2>/dev/null
  rm -f "$t/p.$$"
}

# ---- 1: wet query -o the WET itself; the answer on a full disk ----
expect 2 "refusing to write over the input" "$C" wet query "$t/r.wet" --cf -o "$t/r.wet"
intact "defect 1"
"$C" wet query "$t/r.wet" --cf -o "$t/cf.txt" -q || fail "defect 1: wet query -o"
"$C" wet query "$t/r.wet" --cf -q >"$t/cf2.txt" || fail "defect 1: wet query"
[ -s "$t/cf.txt" ] && cmp -s "$t/cf.txt" "$t/cf2.txt" || fail "defect 1: the answer in -o FILE is not the answer on standard output"

# ---- 2: wet RUN.ims RUN.aes -o RUN.ims (or RUN.aes) ----
expect 2 "refusing" "$C" wet "$t/r.ims" "$t/r.aes" -o "$t/r.ims"
expect 2 "refusing" "$C" wet "$t/r.ims" "$t/r.aes" -o "$t/r.aes"
intact "defect 2"

# ---- 3: convert RUN.itrace --daf RUN.daf -o RUN.daf ----
expect 2 "refusing to write over the input" "$C" convert "$t/r.itrace" --daf "$t/r.daf" -o "$t/r.daf" --to din
intact "defect 3"

# ---- 4: the ELF a CAT records is now a FIFO: no hang, no open ----
mkdir -p "$t/fw4"
cp "$t/fw.elf" "$t/fw4/fw.elf"
q capture "$t/fw4/fw.elf" -o "$t/r4.cat" --seed 1 --max-insns 20000
rm "$t/fw4/fw.elf"
mkfifo "$t/fw4/fw.elf"
timeout 20 "$C" dump "$t/r4.cat" --count 5 >"$t/stdout" 2>"$t/err"
rc=$?
[ $rc = 0 ] || fail "defect 4: dump with the recorded ELF a FIFO exited $rc: $(head -c 300 "$t/err")"
grep -q "FIFO, not opened" "$t/err" || fail "defect 4: no warning naming the FIFO: $(head -c 300 "$t/err")"
timeout 60 "$C" report "$t/r4.cat" -o "$t/r4.html" -q >/dev/null 2>"$t/err"
rc=$?
[ $rc = 0 ] || fail "defect 4: report with the recorded ELF a FIFO exited $rc: $(head -c 300 "$t/err")"
timeout 20 "$C" info "$t/r4.cat" >/dev/null 2>&1 || fail "defect 4: info with the recorded ELF a FIFO"

# ---- 6: merge --check stops at SIGINT and SIGTERM ----
q capture "$t/fw.elf" -o "$t/ck.cat" --checkpoint-every 50000 --seed 1 --max-insns 200000
q replay "$t/ck.cat" --jobs 1 -o "$t/ck.itrace"
q ims "$t/ck.cat" -o "$t/ck.ims"
q aes "$t/ck.cat" -o "$t/ck.aes"
q replay "$t/ck.ims" "$t/ck.aes" --segment 0 -o "$t/s0.itrace"
q replay "$t/ck.ims" "$t/ck.aes" --segment 1 -o "$t/s1.itrace"
for sig in INT TERM; do
  sig_stall $sig "$t/s1.itrace" "$C" merge "$t/s0.itrace" - -o "$t/m.itrace" --check
  [ $RC = 2 ] && grep -q interrupted "$t/err" || fail "defect 6: merge --check, SIG$sig: exit $RC: $(head -c 300 "$t/err")"
  [ ! -e "$t/m.itrace" ] || fail "defect 6: merge --check left its output after SIG$sig"
done

# ---- 7: ims of a many-segment capture costs what the segments touch ----
q capture "$t/fw.elf" -o "$t/many.cat" --checkpoint-every 2000 --ram 128M --seed 1 --max-insns 200000
/usr/bin/time -f %U -o "$t/time" "$C" ims "$t/many.cat" -o "$t/many.ims" -q || fail "defect 7: ims of 100 segments"
"$C" info "$t/many.ims" | head -1 | grep -q ' 9[0-9] segments' || fail "defect 7: not about 100 segments: $("$C" info "$t/many.ims" | head -1)"
# ~100 segments of 128 MiB scanned whole took 10 s of CPU; the touched pages, a few ms
awk '{ exit !($1 < 3.0) }' "$t/time" || fail "defect 7: ims took $(cat "$t/time") s of CPU for ~100 segments of a 128 MiB RAM"

# ---- 8: dump --json/--csv with hostile symbol names ----
arm-none-eabi-objcopy --redefine-sym 'main=m", "kind": "exit", "pc": "0xdeadbeef' \
  --redefine-sym 'citcat_trace_start==cmd|calc,x' --redefine-sym $'buf=\x1b[31m\xffbad' "$t/fw.elf" "$t/evil.elf" ||
  fail "defect 8: objcopy"
"$C" dump "$t/r.itrace" --elf "$t/evil.elf" --json >"$t/d.json" 2>/dev/null || fail "defect 8: dump --json"
awk '{ n = gsub(/[^\\]"kind": /, "&"); if (n != 1) { print "line " NR ": " n " kind keys"; exit 1 } }' "$t/d.json" ||
  fail "defect 8: a symbol name forged a JSON key"
grep -q 'm\\", \\"kind\\": \\"exit' "$t/d.json" || fail "defect 8: the hostile name is not in the JSON, escaped"
iconv -f UTF-8 -t UTF-8 "$t/d.json" >/dev/null 2>&1 || fail "defect 8: the JSON is not valid UTF-8"
! grep -q $'\x1b' "$t/d.json" || fail "defect 8: a raw ESC in the JSON"
"$C" dump "$t/r.itrace" --elf "$t/evil.elf" --csv >"$t/d.csv" 2>/dev/null || fail "defect 8: dump --csv"
grep -q "^0,insn,.*,\"'=cmd|calc,x+0x28\"," "$t/d.csv" || fail "defect 8: the formula name is not quoted and neutralised: $(sed -n 2p "$t/d.csv")"
! grep -q ',=cmd\|,"=cmd' "$t/d.csv" || fail "defect 8: a CSV cell starts with ="
"$C" dump "$t/r.itrace" --elf "$t/evil.elf" >"$t/d.txt" 2>/dev/null || fail "defect 8: dump"
! grep -q $'\x1b' "$t/d.txt" || fail "defect 8: a raw ESC in the text dump"

# ---- 9: info of a CAT whose recorded path holds escapes, a newline, 0xff ----
evil=$t/$'e\x1b[2Jv\nil\xff'
mkdir -p "$evil"
cp "$t/fw.elf" "$evil/fw.elf"
q capture "$evil/fw.elf" -o "$t/r9.cat" --seed 1 --max-insns 20000
"$C" info "$t/r9.cat" >"$t/i.txt" 2>&1 || fail "defect 9: info"
! grep -q $'\x1b' "$t/i.txt" || fail "defect 9: info prints a raw ESC"
grep -q 'firmware .*e\\x1b\[2Jv\\nil\\xff/fw.elf' "$t/i.txt" || fail "defect 9: the path is not shown escaped: $(grep firmware "$t/i.txt")"
"$C" info --json "$t/r9.cat" >"$t/i.json" 2>/dev/null || fail "defect 9: info --json"
iconv -f UTF-8 -t UTF-8 "$t/i.json" >/dev/null 2>&1 || fail "defect 9: info --json is not valid UTF-8"
grep -q 'e\\u001b\[2Jv\\nil\\ufffd' "$t/i.json" || fail "defect 9: info --json: $(grep -o '"path": "[^}]*' "$t/i.json")"

# ---- 13: merge of one segment twice ----
expect 2 "one segment given twice" "$C" merge "$t/s0.itrace" "$t/s0.itrace" -o "$t/m.itrace"
cp "$t/s1.itrace" "$t/s1copy.itrace"
expect 2 "one segment given twice" "$C" merge "$t/s0.itrace" "$t/s1.itrace" "$t/s1copy.itrace" -o "$t/m.itrace"
expect 2 "give the segments in order" "$C" merge "$t/s1.itrace" "$t/s0.itrace" -o "$t/m.itrace"
expect 2 "not a segment's itrace" "$C" merge "$t/s0.itrace" "$t/r.itrace" -o "$t/m.itrace"
expect 2 "not a segment's itrace" "$C" merge "$t/s0.itrace" "$t/ck.itrace" -o "$t/m.itrace"
[ ! -e "$t/m.itrace" ] || fail "defect 13: a refused merge left its output"
"$C" merge "$t/s0.itrace" "$t/s1.itrace" -o "$t/m01.itrace" -q || fail "defect 13: merge of segments 0 and 1"

# ---- 14: - everywhere; info - interrupted ----
"$C" replay "$t/r.ims" - -o "$t/x.itrace" -q <"$t/r.aes" 2>"$t/err" || fail "defect 14: replay X.ims - < X.aes: $(cat "$t/err")"
cmp -s "$t/x.itrace" "$t/r.itrace" || fail "defect 14: replay X.ims - < X.aes: another itrace"
cat "$t/r.aes" | "$C" replay "$t/r.ims" - -o "$t/x.itrace" -q 2>"$t/err" || fail "defect 14: replay X.ims - from a pipe: $(cat "$t/err")"
"$C" report - -o "$t/x.html" -q <"$t/r.cat" 2>"$t/err" || fail "defect 14: report - < X.cat: $(cat "$t/err")"
"$C" wet - "$t/r.aes" -o "$t/x.wet" -q <"$t/r.ims" 2>"$t/err" || fail "defect 14: wet - X.aes < X.ims: $(cat "$t/err")"
cmp -s "$t/x.wet" "$t/r.wet" || fail "defect 14: wet - X.aes: another WET"
cat "$t/ck.cat" | "$C" replay - --jobs 2 -o "$t/j.itrace" -q 2>"$t/err" || fail "defect 14: replay - --jobs 2: $(cat "$t/err")"
cmp -s "$t/j.itrace" "$t/ck.itrace" || fail "defect 14: replay - --jobs 2: another itrace"
for sig in INT TERM; do
  sig_stall $sig "$t/r.itrace" "$C" info -
  [ $RC = 2 ] && grep -q interrupted "$t/err" || fail "defect 14: info - with SIG$sig: exit $RC: $(head -c 300 "$t/err")"
done

# ---- 15: convert FLOW --daf D --image X ----
expect 2 "leave --image out" "$C" convert "$t/r.itrace" --daf "$t/r.daf" --image "$t/fw.elf" -o "$t/x.din"
"$C" convert "$t/r.itrace" -o "$t/r.sdc" --to sdclsp -q || fail "defect 15: itrace -> sdc"
expect 2 "character device" "$C" convert "$t/r.sdc" --daf "$t/r.daf" --image /dev/zero -o "$t/x.din"

# ---- 16: a 0600 file stays 0600; a link stays a link ----
printf 'old\n' >"$t/p600.itrace"; chmod 600 "$t/p600.itrace"
"$C" replay "$t/r.ims" "$t/r.aes" -o "$t/p600.itrace" -q || fail "defect 16: replay over a 0600 file"
[ "$(stat -c %a "$t/p600.itrace")" = 600 ] || fail "defect 16: the 0600 file became $(stat -c %a "$t/p600.itrace")"
mkdir -p "$t/else"; printf 'old\n' >"$t/else/tgt.itrace"; ln -s else/tgt.itrace "$t/lnk.itrace"
"$C" replay "$t/r.ims" "$t/r.aes" -o "$t/lnk.itrace" -q || fail "defect 16: replay through a link"
[ -L "$t/lnk.itrace" ] && cmp -s "$t/else/tgt.itrace" "$t/r.itrace" || fail "defect 16: the link was replaced, or its target not written"
if [ "$(cat /proc/sys/fs/protected_symlinks 2>/dev/null)" = 1 ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$t/sticky"; chmod 1777 "$t/sticky"; printf 'precious\n' >"$t/precious"
  setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$t/precious" "$t/sticky/out.itrace"
  expect 2 "Permission denied" "$C" replay "$t/r.ims" "$t/r.aes" -o "$t/sticky/out.itrace"
  [ "$(cat "$t/precious")" = precious ] || fail "defect 16: replaced through another user's link in a sticky directory"
else
  echo "hardening: fs.protected_symlinks is not 1 (or not root): the sticky-directory link check is skipped"
fi

# ---- 17: a header's RAM claim costs nothing until used ----
q capture "$t/fw.elf" --lvt "$t/big.lvt" --ram 1G --seed 1 --max-insns 200000
/usr/bin/time -f %M -o "$t/rss" "$C" replay --lvt "$t/big.lvt" --image "$t/fw.elf" -o "$t/x.itrace" -q || fail "defect 17: replay --lvt"
[ "$(cat "$t/rss")" -lt 200000 ] || fail "defect 17: replay --lvt of a 1 GiB claim took $(cat "$t/rss") KB"

# ---- 18: the din of FLOW --daf is the din of the itrace ----
"$C" convert "$t/r.itrace" -o "$t/a.din" -q && "$C" convert "$t/r.itrace" --daf "$t/r.daf" -o "$t/b.din" -q &&
  "$C" convert "$t/r.sdc" --daf "$t/r.daf" --image "$t/fw.elf" -o "$t/c.din" -q || fail "defect 18: conversions"
cmp -s "$t/a.din" "$t/b.din" && cmp -s "$t/a.din" "$t/c.din" || fail "defect 18: the two paths to the din disagree"

# ---- 19: messages keep their reason and name the right file ----
expect 2 "Is a directory" "$C" merge "$t/s0.itrace" -o "$t"
"$C" info - <"$t/r.itrace" >"$t/info.txt" 2>&1 || fail "defect 19: info - < itrace"
grep -q 'file bytes  *[0-9]' "$t/info.txt" && ! grep -q 'file bytes *-1' "$t/info.txt" || fail "defect 19: info -: $(grep 'file bytes' "$t/info.txt")"
cp "$t/fw.elf" "$t/badsym.elf"
shoff=$(od -An -tu4 -j32 -N4 "$t/badsym.elf" | tr -d ' ')
shentsize=40
idx=$(arm-none-eabi-readelf -S "$t/badsym.elf" | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
printf '\377\377\377\177' | dd of="$t/badsym.elf" bs=1 seek=$((shoff + idx * shentsize + 16)) conv=notrunc 2>/dev/null
expect 0 "warning: .*badsym.elf: its symbol table does not read" "$C" dump "$t/r.itrace" --elf "$t/badsym.elf" --count 1
if [ "$(id -u)" = 0 ] && mkdir -p "$t/full" && mount -t tmpfs -o size=64k tmpfs "$t/full" 2>/dev/null; then
  dd if=/dev/zero of="$t/full/fill" bs=4k count=64 2>/dev/null
  expect 2 "full/c.sdc: writing failed: No space left on device" "$C" convert "$t/r.itrace" --to sdclsp -o "$t/full/c.sdc"
  expect 2 "full/o.wet: writing failed: No space left on device" "$C" wet "$t/r.ims" "$t/r.aes" -o "$t/full/o.wet"
  expect 2 "full/q.txt: writing failed: No space left on device" "$C" wet query "$t/r.wet" --cf -o "$t/full/q.txt"
  expect 2 "full/x.daf: writing failed: No space left on device" "$C" capture "$t/fw.elf" -o "$t/x.cat" --daf "$t/full/x.daf" --seed 1 --max-insns 200000
  ls -a "$t/full" | grep -q 'tmp-' && fail "defect 19: a temporary file was left on the full disk"
  umount "$t/full"
else
  echo "hardening: skipping the full-disk messages (mount -t tmpfs needs root)"
fi
intact "the whole test"
finish hardening
