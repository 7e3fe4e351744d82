#!/bin/bash
# m7_bsp.sh M7_RUN BSP_DIR TOOL_PREFIX RUN SMOKE_ELF [EXAMPLE_ELF...]
# RUN: "all", or the comma-separated examples to run (the others are only
# checked; sanitizer builds run two).
#
# The Cortex-M7 BSP (examples/bsp-m7): each ELF passes check-firmware.sh (m7)
# and has the layout TARGET-M7.md states (.vectors at 0 with the initial MSP
# at the top of the 16 MiB RAM and a Thumb reset vector, Thumb entry, no
# .data before .text); the smoke firmware runs to exit 0 under m7_run
# (Unicorn + machine/m7exc.c) with the output its source computes by hand:
# sqrt(2) * 1e6 rounded = 1414214; 5 SysTick ticks, 1 SVC, 1 soft IRQ.
# The examples whose devices m7_run stands in for (all but the DMA users
# crc32 and sha256) run to their own self-check and exit 0 too; m7_run
# checks every driver dump against the registers at P.  Each ELF carries a
# GNU build id.
set -euo pipefail
run=$1 bsp=$2 prefix=$3 runset=$4 smoke=$5
shift 5
fail() { echo "m7_bsp: $*" >&2; exit 1; }

check_elf() {
	local elf=$1
	sh "$bsp/../bsp/check-firmware.sh" "$elf" "$prefix" m7 || fail "$elf: check-firmware.sh (m7)"
	local words msp reset entry vaddr
	words=$("${prefix}objdump" -s -j .vectors "$elf" | awk '$1 == "0000" { print $2, $3; exit }')
	msp=$(awk '{ s = $1; print substr(s,7,2) substr(s,5,2) substr(s,3,2) substr(s,1,2) }' <<<"$words")
	[ "$msp" = "01000000" ] || fail "$elf: initial MSP 0x$msp, want 0x01000000 (top of 16 MiB)"
	reset=$(awk '{ s = $2; print substr(s,7,2) substr(s,5,2) substr(s,3,2) substr(s,1,2) }' <<<"$words")
	[ $((0x$reset & 1)) -eq 1 ] || fail "$elf: reset vector 0x$reset not Thumb"
	entry=$("${prefix}readelf" -h "$elf" | awk '/Entry point/ { print $4 }')
	[ $((entry)) -eq $((0x$reset)) ] || fail "$elf: entry $entry is not the reset vector 0x$reset"
	vaddr=$("${prefix}readelf" -SW "$elf" | awk '{ for (i = 1; i < NF; i++) if ($i == ".vectors") print $(i + 2) }')
	[ "$vaddr" = "00000000" ] || fail "$elf: .vectors at 0x$vaddr"
	# build attributes: ARMv7E-M, microcontroller profile, Thumb-2, no ARM ISA
	local attrs
	attrs=$("${prefix}readelf" -A "$elf")
	grep -q "Tag_CPU_arch: v7E-M" <<<"$attrs" || fail "$elf: not built for ARMv7E-M"
	grep -q "Tag_CPU_arch_profile: Microcontroller" <<<"$attrs" || fail "$elf: not an M-profile build"
	grep -q "Tag_THUMB_ISA_use: Thumb-2" <<<"$attrs" || fail "$elf: not Thumb-2"
	! grep -q "Tag_ARM_ISA_use: Yes" <<<"$attrs" || fail "$elf: uses the ARM instruction set"
	# a GNU build id (issue 35), by which report and dump find the ELF of a CAT
	"${prefix}readelf" -SW "$elf" | grep -q " .note.gnu.build-id " || fail "$elf: no GNU build id"
}

check_elf "$smoke"
for e in "$@"; do
	check_elf "$e"
done

p=$("${prefix}nm" "$smoke" | awk '$3 == "citcat_trace_point" { print "0x" $1 }')
[ -n "$p" ] || fail "no citcat_trace_point in $smoke"
out=$("$run" "$smoke" "$p") || fail "m7_run exited $? with output: $out"
grep -qx "m7 sqrt(2) = 1414214" <<<"$out" || fail "printf/libm output wrong: $out"
grep -qx "ticks 5 svc 1 soft 1" <<<"$out" || fail "counts wrong: $out"
grep -qx "exit 0" <<<"$out" || fail "no exit 0: $out"
ran=0
for e in "$@"; do
	name=$(basename "$e" _m7.elf)
	case $name in
	crc32 | sha256) continue ;; # DMA: not in m7_run
	esac
	[ "$runset" = all ] || [[ ",$runset," == *",$name,"* ]] || continue
	p=$("${prefix}nm" "$e" | awk '$3 == "citcat_trace_point" { print "0x" $1 }')
	out=$("$run" "$e" "$p") || fail "$e: m7_run exited $? with output: $out"
	grep -q " OK$" <<<"$out" || fail "$e: no self-check OK: $out"
	grep -qx "exit 0" <<<"$out" || fail "$e: no exit 0: $out"
	ran=$((ran + 1))
done
echo "m7_bsp: ok ($(( $# + 1 )) ELFs checked; the smoke firmware and $ran examples ran to exit 0)"
