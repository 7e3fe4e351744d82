# Shared by the Cortex-M7 fault tests (m7dev.sh, m7it.sh, m7stk.sh,
# m7imp.sh); sourced after the caller has set citcat and tmp and defined
# fail().

# m7_exact TAG NAME ELF [CAPTURE OPTIONS...]: captures ELF with its oracle
# (--seed 1), checks that the firmware printed "TAG: 0 failures", extracts
# the IMS and AES, and replays them with --verify and --oracle: the bus
# trace verified, the instruction trace equal to the oracle, and the itrace
# written equal to it too.  Leaves $tmp/NAME.cat, .itrace, .ims, .aes, .re.
m7_exact() {
	local tag=$1 n=$2 elf=$3 rc=0
	shift 3
	"$citcat" capture "$elf" "$@" -o "$tmp/$n.cat" --oracle "$tmp/$n.itrace" --seed 1 -q >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc -eq 0 ] || fail "capture exited $rc: $(cat "$tmp/err") $(cat "$tmp/out")"
	grep -qx "$tag: 0 failures" "$tmp/out" || fail "the firmware's own checks: $(cat "$tmp/out")"
	"$citcat" ims "$tmp/$n.cat" -o "$tmp/$n.ims" 2>"$tmp/err" || fail "ims: $(cat "$tmp/err")"
	"$citcat" aes "$tmp/$n.cat" -o "$tmp/$n.aes" 2>"$tmp/err" || fail "aes: $(cat "$tmp/err")"
	rc=0
	"$citcat" replay "$tmp/$n.ims" "$tmp/$n.aes" --verify "$tmp/$n.cat" --oracle "$tmp/$n.itrace" -o "$tmp/$n.re" \
		>"$tmp/rep" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "replay exited $rc: $(cat "$tmp/rep")"
	grep -q 'bus trace verified' "$tmp/rep" && grep -q 'instruction trace equals the oracle' "$tmp/rep" ||
		fail "replay not verified: $(cat "$tmp/rep")"
	cmp -s <("$citcat" dump "$tmp/$n.itrace") <("$citcat" dump "$tmp/$n.re") ||
		fail "the regenerated itrace differs from the oracle"
}

# m7_lvt_exact NAME ELF [CAPTURE OPTIONS...]: captures ELF's LVT with an
# oracle and decodes it (replay --lvt): the instruction trace equals the
# oracle.
m7_lvt_exact() {
	local n=$1 elf=$2
	shift 2
	"$citcat" capture "$elf" "$@" --lvt "$tmp/$n.lvt" --oracle "$tmp/l.itrace" --seed 1 -q >/dev/null 2>"$tmp/err" ||
		fail "LVT capture: $(cat "$tmp/err")"
	"$citcat" replay --lvt "$tmp/$n.lvt" --image "$elf" -o "$tmp/l.re" --oracle "$tmp/l.itrace" >"$tmp/rep" 2>&1 ||
		fail "LVT replay: $(cat "$tmp/rep")"
	grep -q 'instruction trace equals the oracle' "$tmp/rep" || fail "LVT replay not verified: $(cat "$tmp/rep")"
}
