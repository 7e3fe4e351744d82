#!/bin/sh
# check-firmware.sh ELF [TOOL_PREFIX [TARGET]]
#
# Fails (exit 1) if a firmware ELF cannot run on the modelled target.
# TARGET a (the default): the ARMv7-A target (capture/TARGET.md):
#  - any VFP/Advanced SIMD instruction (the target is soft-float);
#  - the vector table is not at 0 or the IRQ vector (0x18) does not branch
#    to the BSP's IRQ entry.
# ARM and Thumb-2 code may mix freely (the model interworks, TARGET.md); the
# BSP keeps the vectors, IRQ entry and CITCAT driver in ARM state.
# TARGET m7: the Cortex-M7 target (capture/TARGET-M7.md, bsp-m7):
#  - ARM-state code ($a mapping symbols): the M7 runs Thumb only;
#  - VFP/Advanced SIMD instructions (the target is soft-float);
#  - the vector table (_vectors) not at 0, its word 0 (initial MSP) not
#    8-byte aligned, or its word 1 not the Thumb address of Reset_Handler;
#  - an ELF entry point that is not a Thumb address.
# TOOL_PREFIX defaults to arm-none-eabi- (objdump/nm are run as PREFIXobjdump).
set -eu
elf=$1
prefix=${2:-arm-none-eabi-}
target=${3:-a}
case $target in
    a) me=check-firmware ;;
    m7) me=check-firmware-m7 ;;
    *) echo "check-firmware: unknown target '$target' (a or m7)" >&2; exit 2 ;;
esac
fail=0
err() { echo "$me: $elf: $*" >&2; fail=1; }

[ -f "$elf" ] || { echo "$me: $elf: no such file" >&2; exit 1; }

syms=$("${prefix}nm" --special-syms "$elf")
if [ "$target" = m7 ]; then
    arm=$(printf '%s\n' "$syms" | grep -E ' [tTdDnN] \$a(\.|$)' | head -5 || true)
    [ -z "$arm" ] || err "ARM-state code (\$a mapping symbols):
$arm"
fi

dis=$("${prefix}objdump" -d --no-show-raw-insn "$elf")
# Instruction lines are "  addr:<TAB>mnemonic<TAB>operands".
vfp=$(printf '%s\n' "$dis" | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ && $2 ~ /^(v[a-z]|fmrx|fmxr|fld|fst|fmdrr|fmrrd)/' | head -5)
[ -z "$vfp" ] || err "VFP/SIMD instructions (the target is soft-float):
$vfp"
vec=$(printf '%s\n' "$syms" | awk '$3 == "_vectors" { print $1 }')
[ "$vec" = "00000000" ] || err "_vectors is at 0x$vec, not 0"

if [ "$target" = a ]; then
    irq=$(printf '%s\n' "$dis" | awk -F'\t' '$1 ~ /^ +18:$/ { print $2 " " $3 }')
    case $irq in
        "b "*"<citcat_irq_entry>" | "b.w "*"<citcat_irq_entry>") ;; # ARM, or Thumb with SCTLR.TE = 1
        *) err "IRQ vector at 0x18 is '$irq', not a branch to citcat_irq_entry" ;;
    esac
else
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
fi

exit $fail
