#!/bin/sh
# The command line end to end: itrace -> .sdc (plain and LZ4-framed) -> din
# with the firmware ELF, compared with the trace's own instruction fetches;
# `info --json` fields; a broken IMS image is refused with its offset.
# usage: sdclsp_cli_test.sh CITCAT SDCLSP_GEN ELF WORKDIR
set -eu
citcat=$1 gen=$2 elf=$3 dir=$4
mkdir -p "$dir"
cd "$dir"
"$gen" run.itrace 7 200000 300 want.din
for to in sdclsp:b sdclsp:e:16x4,64 sdclsp:r:32x4,128; do
	"$citcat" convert run.itrace -o run.sdc --to "$to"
	"$citcat" convert run.sdc -o got.din --image "$elf"
	cmp want.din got.din
done
"$citcat" convert run.itrace -o run.sdc.lz4 --to sdclsp:e
lz4 -dq -c run.sdc.lz4 > unwrapped.sdc
"$citcat" convert run.sdc.lz4 -o got.din --image "$elf"
cmp want.din got.din
"$citcat" convert unwrapped.sdc -o got.din --image "$elf"
cmp want.din got.din
"$citcat" info --json run.sdc.lz4 > info.json
for k in '"kind": "sdclsp"' '"variant": "e"' '"instructions": ' '"streams": ' '"hr_sdc": ' '"hr_lsp": ' \
	'"bits_per_instruction": ' '"msdc": ' '"hsdc": ' '"hlsp": '; do
	grep -q "$k" info.json || { echo "info --json lacks $k"; cat info.json; exit 1; }
done
grep -q "\"instructions\": $(wc -l < want.din)," info.json
printf 'CIMS\r\n\032\n' > fake.ims
if "$citcat" convert run.sdc -o x.din --image fake.ims 2> err.txt; then exit 1; fi
grep -q "fake.ims: offset [0-9]*:" err.txt
test ! -e x.din
echo ok
