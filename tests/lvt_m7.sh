#!/usr/bin/env bash
# The LVT on the Cortex-M7 (formats/LVT.md, "The Cortex-M7"): each firmware
# is captured with --lvt (byte granules) and its oracle in the same run,
# the LVT decoded with the firmware alone, and the regenerated itrace must
# equal the oracle byte for byte.  The first two names are also captured
# with word granules and a 4 KB PLRU D-cache over their first million
# instructions (its own oracle), unless --no-word is given (the long
# variants do not reach their trace start point that soon).  Then: info names the target and LVT
# version 2; a firmware that ends on a fault with no handler is refused by
# --lvt (the LVT has no abnormal end) and leaves no file; a corrupted LVT
# is refused with its name and the byte offset, exit 2, and no output.
# Usage: lvt_m7.sh CITCAT WORKDIR [--no-word] FIRMWARE.elf... [-- NOHANDLER.elf]
set -u
citcat=$1 tmp=$2
shift 2
words=2
if [ "${1:-}" = --no-word ]; then words=0; shift; fi
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
elfs=() nohandler=
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then nohandler=$2; shift 2; continue; fi
	elfs+=("$1"); shift
done
i=0
for elf in "${elfs[@]}"; do
	n=$(basename "$elf" .elf)
	rm -f "$tmp/$n".*
	rc=0
	"$citcat" capture "$elf" --lvt "$tmp/$n.lvt" --oracle "$tmp/$n.itrace" --seed 1 --uart-out /dev/null -q \
		2>"$tmp/$n.err" || rc=$?
	[ $rc -eq 0 ] || fail "$n: capture --lvt exited $rc: $(cat "$tmp/$n.err")"
	"$citcat" replay --lvt "$tmp/$n.lvt" --image "$elf" -o "$tmp/$n.re" --oracle "$tmp/$n.itrace" >"$tmp/$n.out" 2>&1 ||
		fail "$n: replay --lvt exited $?: $(cat "$tmp/$n.out")"
	cmp -s "$tmp/$n.re" "$tmp/$n.itrace" || fail "$n: the decoded trace differs from the oracle"
	"$citcat" info "$tmp/$n.lvt" | head -1 | grep -q "(LVT v2), Cortex-M7$" || fail "$n: info: $("$citcat" info "$tmp/$n.lvt" | head -1)"
	echo "$n: $("$citcat" info --json "$tmp/$n.lvt")"
	if [ $i -lt $words ]; then
		"$citcat" capture "$elf" --lvt "$tmp/$n.w.lvt" --oracle "$tmp/$n.w.itrace" --lvt-gran word \
			--dcache 4K:4:32:plru --max-insns 1000000 --seed 1 --uart-out /dev/null -q || fail "$n: capture (word) exited $?"
		"$citcat" replay --lvt "$tmp/$n.w.lvt" --image "$elf" -o "$tmp/$n.w.re" --oracle "$tmp/$n.w.itrace" >"$tmp/$n.out" 2>&1 ||
			fail "$n: replay --lvt (word granules) exited $?: $(cat "$tmp/$n.out")"
		cmp -s "$tmp/$n.w.re" "$tmp/$n.w.itrace" || fail "$n: the decoded trace (word granules) differs from its oracle"
	fi
	i=$((i + 1))
done
n=$(basename "${elfs[0]}" .elf)
elf=${elfs[0]}
# a flipped byte inside the first chunk: the chunk checksum, with file and offset
size=$(stat -c %s "$tmp/$n.lvt")
cp "$tmp/$n.lvt" "$tmp/bad.lvt"
printf '\x5a' | dd of="$tmp/bad.lvt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
cmp -s "$tmp/bad.lvt" "$tmp/$n.lvt" && printf '\xa5' | dd of="$tmp/bad.lvt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
rm -f "$tmp/bad.re"
rc=0
"$citcat" replay --lvt "$tmp/bad.lvt" --image "$elf" -o "$tmp/bad.re" >"$tmp/bad.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "corrupted LVT: exit $rc, want 2: $(cat "$tmp/bad.out")"
grep -q "bad.lvt: offset [0-9]" "$tmp/bad.out" || fail "corrupted LVT: no file and offset: $(cat "$tmp/bad.out")"
[ -e "$tmp/bad.re" ] && fail "corrupted LVT: output left behind"
if [ -n "$nohandler" ]; then
	rm -f "$tmp/nh.lvt"
	rc=0
	"$citcat" capture "$nohandler" --lvt "$tmp/nh.lvt" --uart-out /dev/null -q >"$tmp/nh.out" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "no handler: capture --lvt exited $rc, want 2"
	grep -q "no handler" "$tmp/nh.out" || fail "no handler: $(cat "$tmp/nh.out")"
	[ -e "$tmp/nh.lvt" ] && fail "no handler: an LVT was left behind"
fi
rm -f "$tmp"/*.itrace "$tmp"/*.re "$tmp"/*.lvt
echo "lvt_m7: ${#elfs[@]} Cortex-M7 firmware decoded from their LVT exactly; corruption and a fault end refused"
