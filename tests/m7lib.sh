# Shared by the Cortex-M7 fault tests (m7dev.sh, m7it.sh, m7stk.sh,
# m7imp.sh, m7fault.sh); sourced after the caller has set citcat and tmp and defined
# fail().

# m7_roundtrip WANT NAME ELF [CAPTURE OPTIONS...]: captures ELF with its
# oracle (--seed 1), which must exit WANT, extracts the IMS and AES, and
# replays them with --verify and --oracle: the bus trace verified, the
# instruction trace equal to the oracle, and the itrace written equal to it
# too.  Leaves $tmp/NAME.cat, .itrace, .ims, .aes, .re, and the capture's
# stdout and stderr in $tmp/NAME.out and .err.
m7_roundtrip() {
	local want=$1 n=$2 elf=$3 rc=0
	shift 3
	"$citcat" capture "$elf" "$@" -o "$tmp/$n.cat" --oracle "$tmp/$n.itrace" --seed 1 -q >"$tmp/$n.out" \
		2>"$tmp/$n.err" || rc=$?
	[ $rc -eq "$want" ] || fail "$n: capture exited $rc (want $want): $(cat "$tmp/$n.err") $(cat "$tmp/$n.out")"
	"$citcat" ims "$tmp/$n.cat" -o "$tmp/$n.ims" 2>"$tmp/err" || fail "$n: ims: $(cat "$tmp/err")"
	"$citcat" aes "$tmp/$n.cat" -o "$tmp/$n.aes" 2>"$tmp/err" || fail "$n: aes: $(cat "$tmp/err")"
	rc=0
	"$citcat" replay "$tmp/$n.ims" "$tmp/$n.aes" --verify "$tmp/$n.cat" --oracle "$tmp/$n.itrace" -o "$tmp/$n.re" \
		>"$tmp/rep" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "$n: replay exited $rc: $(cat "$tmp/rep")"
	grep -q 'bus trace verified' "$tmp/rep" && grep -q 'instruction trace equals the oracle' "$tmp/rep" ||
		fail "$n: replay not verified: $(cat "$tmp/rep")"
	cmp -s <("$citcat" dump "$tmp/$n.itrace") <("$citcat" dump "$tmp/$n.re") ||
		fail "$n: the regenerated itrace differs from the oracle"
}

# m7_exact TAG NAME ELF [CAPTURE OPTIONS...]: m7_roundtrip of a capture
# that exits 0 with the firmware's "TAG: 0 failures".
m7_exact() {
	local tag=$1 n=$2 elf=$3
	shift 3
	m7_roundtrip 0 "$n" "$elf" "$@"
	grep -qx "$tag: 0 failures" "$tmp/$n.out" || fail "the firmware's own checks: $(cat "$tmp/$n.out")"
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
