#!/bin/sh
# check-firmware.sh ELF [TOOL_PREFIX]
#
# Fails (exit 1) if a firmware ELF cannot run on the modelled target:
#  - any VFP/Advanced SIMD instruction (the target is soft-float);
#  - the vector table is not at 0 or the IRQ vector (0x18) does not branch
#    to the BSP's IRQ entry.
# ARM and Thumb-2 code may mix freely (the model interworks, TARGET.md); the
# BSP keeps the vectors, IRQ entry and CITCAT driver in ARM state.
# TOOL_PREFIX defaults to arm-none-eabi- (objdump/nm are run as PREFIXobjdump).
set -eu
elf=$1
prefix=${2:-arm-none-eabi-}
fail=0
err() { echo "check-firmware: $elf: $*" >&2; fail=1; }

[ -f "$elf" ] || { echo "check-firmware: $elf: no such file" >&2; exit 1; }

syms=$("${prefix}nm" --special-syms "$elf")

dis=$("${prefix}objdump" -d --no-show-raw-insn "$elf")
# Instruction lines are "  addr:<TAB>mnemonic<TAB>operands".
vfp=$(printf '%s\n' "$dis" | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ && $2 ~ /^(v[a-z]|fmrx|fmxr|fld|fst|fmdrr|fmrrd)/' | head -5)
[ -z "$vfp" ] || err "VFP/SIMD instructions (the target is soft-float):
$vfp"
vec=$(printf '%s\n' "$syms" | awk '$3 == "_vectors" { print $1 }')
[ "$vec" = "00000000" ] || err "_vectors is at 0x$vec, not 0"
irq=$(printf '%s\n' "$dis" | awk -F'\t' '$1 ~ /^ +18:$/ { print $2 " " $3 }')
case $irq in
    "b "*"<citcat_irq_entry>") ;;
    *) err "IRQ vector at 0x18 is '$irq', not a branch to citcat_irq_entry" ;;
esac

exit $fail
