#!/usr/bin/env bash
# SDC/LSP decoding with the IMS as the program image gives the same
# instruction sequence as with the firmware ELF, and as the trace itself.
# Usage: sdclsp_ims_image.sh CITCAT OUTDIR NAME FIRMWARE.elf
set -u
citcat=$1 out=$2 name=$3 elf=$4
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$citcat" ims "$out/$name.cat" -o "$t/run.ims" 2>/dev/null || { echo "FAIL: ims"; exit 1; }
for v in b e r; do
  "$citcat" convert "$out/$name.itrace" -o "$t/run.sdc" --to sdclsp:$v || { echo "FAIL: encode $v"; exit 1; }
  "$citcat" convert "$t/run.sdc" -o "$t/ims.din" --image "$t/run.ims" || { echo "FAIL: decode $v with the IMS"; exit 1; }
  "$citcat" convert "$t/run.sdc" -o "$t/elf.din" --image "$elf" || { echo "FAIL: decode $v with the ELF"; exit 1; }
  cmp -s "$t/ims.din" "$t/elf.din" || { echo "FAIL: $v: IMS and ELF decodes differ"; exit 1; }
done
"$citcat" convert "$out/$name.itrace" -o "$t/all.din" || { echo "FAIL: itrace to din"; exit 1; }
grep '^2 ' "$t/all.din" >"$t/fetch.din"
cmp -s "$t/fetch.din" "$t/ims.din" || { echo "FAIL: decoded fetches differ from the trace's"; exit 1; }
echo "sdclsp_ims_image: $name decodes identically with its IMS and its ELF ($(wc -l <"$t/ims.din") instructions)"
