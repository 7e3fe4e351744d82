#!/bin/sh
# check-firmware-m7.sh ELF [TOOL_PREFIX]
#
# Fails (exit 1) if a firmware ELF cannot run on the modelled Cortex-M7
# target (capture/TARGET-M7.md):
#  - ARM-state code ($a mapping symbols): the M7 runs Thumb only;
#  - VFP/Advanced SIMD instructions (the target is soft-float);
#  - the vector table (_vectors) not at 0, its word 0 (initial MSP) not
#    8-byte aligned, or its word 1 not the Thumb address of Reset_Handler;
#  - an ELF entry point that is not a Thumb address.
# TOOL_PREFIX defaults to arm-none-eabi-.
set -eu
elf=$1
prefix=${2:-arm-none-eabi-}
fail=0
err() { echo "check-firmware-m7: $elf: $*" >&2; fail=1; }

[ -f "$elf" ] || { echo "check-firmware-m7: $elf: no such file" >&2; exit 1; }

syms=$("${prefix}nm" --special-syms "$elf")
arm=$(printf '%s\n' "$syms" | grep -E ' [tTdDnN] \$a(\.|$)' | head -5 || true)
[ -z "$arm" ] || err "ARM-state code (\$a mapping symbols):
$arm"

dis=$("${prefix}objdump" -d --no-show-raw-insn "$elf")
vfp=$(printf '%s\n' "$dis" | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ && $2 ~ /^(v[a-z]|fmrx|fmxr|fld|fst|fmdrr|fmrrd)/' | head -5)
[ -z "$vfp" ] || err "VFP/SIMD instructions (the target is soft-float):
$vfp"

vec=$(printf '%s\n' "$syms" | awk '$3 == "_vectors" { print $1 }')
[ "$vec" = "00000000" ] || err "_vectors is at 0x$vec, not 0"
reset=$(printf '%s\n' "$syms" | awk '$3 == "Reset_Handler" { print $1 }')
[ -n "$reset" ] || err "no Reset_Handler"
# words 0 and 1 of the vector table, little-endian, from the .vectors section
words=$("${prefix}objdump" -s -j .vectors "$elf" | awk '$1 == "0000" { print $2, $3; exit }')
w0=$(printf '%s\n' "$words" | awk '{ s = $1; print substr(s,7,2) substr(s,5,2) substr(s,3,2) substr(s,1,2) }')
w1=$(printf '%s\n' "$words" | awk '{ s = $2; print substr(s,7,2) substr(s,5,2) substr(s,3,2) substr(s,1,2) }')
[ -n "$w0" ] && [ $((0x$w0 % 8)) -eq 0 ] || err "initial MSP (vector word 0) '0x$w0' is not 8-byte aligned"
[ -n "$w1" ] && [ -n "$reset" ] && [ $((0x$w1)) -eq $((0x$reset | 1)) ] ||
    err "reset vector (word 1) '0x$w1' is not Reset_Handler (0x$reset) | 1"
entry=$("${prefix}readelf" -h "$elf" | awk '/Entry point/ { print $4 }')
[ $((entry % 2)) -eq 1 ] || err "entry point $entry is not a Thumb address"

exit $fail
