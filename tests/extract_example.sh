#!/usr/bin/env bash
# IMS and AES extraction through the CLI on one example's CAT (from the
# ex_NAME capture fixture), checked against the CAT's own counts.
# Usage: extract_example.sh CITCAT CAT_AFTER_SYNC RUN.cat OUTDIR NAME
set -u
citcat=$1 after=$2 cat=$3 out=$4 name=$5
mkdir -p "$out"
fails=0
fail() { echo "FAIL ($name): $*"; fails=$((fails + 1)); }
# num JSON KEY: the first "KEY": NUMBER of a one-line JSON object
num() { grep -o "\"$2\": [0-9.]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }
str() { grep -o "\"$2\": \"[^\"]*\"" <<<"$1" | head -n 1 | sed 's/.*: "//; s/"$//'; }
obj() { sed -n "s/.*\"$2\": {\([^}]*\)}.*/\1/p" <<<"$1"; }

# own names: replay_NAME replays them (this test is its fixture ex_NAME_x)
ims=$out/$name.x.ims aes=$out/$name.x.aes
rm -f "$ims" "$aes"
"$citcat" ims "$cat" -o "$ims" || fail "citcat ims exited $?"
"$citcat" aes "$cat" -o "$aes" || fail "citcat aes exited $?"
cj=$("$citcat" info --json "$cat") || fail "info on the CAT"
ij=$("$citcat" info --json "$ims") || fail "info on the IMS"
aj=$("$citcat" info --json "$aes") || fail "info on the AES"
sync=$("$after" "$cat") || fail "cat_after_sync"
after() { sed -n "s/^$1=//p" <<<"$sync"; }
echo "CAT: $cj"; echo "IMS: ${ij:0:200}..."; echo "AES: $aj"

# IMS
[ "$(str "$ij" kind)" = ims ] || fail "IMS kind"
regs=$(obj "$ij" registers)
[ "$(grep -o '"[a-z0-9_]*": [0-9]*' <<<"$regs" | wc -l)" -eq 39 ] || fail "IMS registers is not an object of 39: $regs"
[ "$(num "$ij" memory_bytes)" -gt 0 ] || fail "IMS memory_bytes not > 0"
[ "$(num "$ij" file_bytes)" -eq "$(stat -c %s "$ims")" ] || fail "IMS file_bytes differs from the file's size"
[ "$(num "$ij" start_pc)" -eq "$(num "$cj" trace_start_pc)" ] || fail "IMS start_pc != CAT trace_start_pc"
[ "$(num "$regs" pc)" -eq "$(num "$cj" trace_start_pc)" ] || fail "dumped pc != CAT trace_start_pc"
[ "$(num "$ij" instructions)" -eq "$(num "$cj" instructions)" ] || fail "IMS instructions != CAT instructions"

# AES against the CAT's events (those after the trace start point)
[ "$(str "$aj" kind)" = aes ] || fail "AES kind"
recs=$(obj "$aj" records) events=$(obj "$cj" events)
r() { num "$recs" "$1"; }
e() { num "$events" "$1"; }
[ "$(r irq)" -eq "$(e irq)" ] && [ "$(r irq)" -eq "$(after irq)" ] || fail "irq: AES $(r irq), CAT $(e irq), after SYNC $(after irq)"
[ "$(r dma)" -eq "$(e dma)" ] && [ "$(r dma)" -eq "$(after dma)" ] || fail "dma: AES $(r dma), CAT $(e dma), after SYNC $(after dma)"
[ $(($(r input) + $(r counter))) -eq "$(after uncached_read)" ] ||
  fail "input $(r input) + counter $(r counter) != uncached reads after SYNC $(after uncached_read)"
[ "$(after uncached_read)" -le "$(e uncached_read)" ] || fail "more uncached reads after SYNC than in all"
[ "$(r output)" -eq "$(after uncached_write)" ] || fail "output $(r output) != uncached writes after SYNC $(after uncached_write)"
# the driver's CLEAN_INV_D and INV_I commands are the only device writes before P
[ "$(r output)" -eq $(($(e uncached_write) - 2)) ] || fail "output $(r output) != CAT uncached writes $(e uncached_write) - 2"
[ "$(num "$aj" dma_bytes)" -eq "$(num "$cj" dma_bytes)" ] || fail "AES dma_bytes != CAT dma_bytes"
[ "$(num "$aj" instructions)" -eq "$(num "$cj" instructions)" ] || fail "AES instructions != CAT instructions"
[ "$(num "$aj" file_bytes)" -eq "$(stat -c %s "$aes")" ] || fail "AES file_bytes differs from the file's size"
[ "$(str "$aj" trace_id)" = "$(str "$ij" trace_id)" ] || fail "IMS and AES trace ids differ"

if [ "$fails" -eq 0 ]; then echo "extract_example $name: all checks passed"; exit 0; fi
echo "extract_example $name: $fails check(s) failed"; exit 1
