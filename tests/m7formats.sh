#!/usr/bin/env bash
# Every format converter on a Cortex-M7 itrace (isa 2; issue 11):
#  - info on the AES names the target (metadata byte 24, AES.md);
#  - the itrace's xdin through the independent reference cache simulator
#    (tests/ref_cache.c, via dinero_example.sh) gives the CAT's fills,
#    write-backs and writes: exact only when each exception entry's eight
#    stacking writes and vector read are data references (DIN.md);
#  - PDATS and PDATS II read back give the itrace's din byte for byte;
#  - rSDC-LSP, bSDC-LSP and eSDC-LSP decoded against the IMS give the
#    itrace's instruction fetches;
#  - the text listing disassembles every instruction in M-class Thumb and
#    lists each entry with its 8 writes and 1 read;
#  - dump and ChampSim run (ChampSim: 64 bytes per instruction).
# Usage: m7formats.sh CITCAT REF_CACHE ELF OUTDIR NAME
set -u
citcat=$1 ref=$2 elf=$3 out=$4 name=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$out/$name
fails=0
fail() { echo "FAIL ($name): $*"; fails=$((fails + 1)); }
num() { grep -o "\"$2\": [0-9]*" <<<"$1" | head -n 1 | sed 's/.*: //'; }

"$citcat" capture "$elf" -o "$b.cat" --oracle "$b.itrace" --uart-out /dev/null --seed 1 2>"$b.log" || { cat "$b.log"; exit 1; }
"$citcat" ims "$b.cat" -o "$b.ims" 2>>"$b.log" && "$citcat" aes "$b.cat" -o "$b.aes" 2>>"$b.log" || { cat "$b.log"; exit 1; }

# info names the target of an AES
j=$("$citcat" info --json "$b.aes") || fail "info --json AES"
grep -q '"target": "cortex-m7"' <<<"$j" || fail "info --json on the AES does not name cortex-m7: $j"
"$citcat" info "$b.aes" | grep -q '^  target     Cortex-M7' || fail "info on the AES does not name the Cortex-M7"

# the reference cache simulator agrees with the CAT (entries' accesses included)
bash "$here/dinero_example.sh" "$citcat" "$ref" "$elf" "$out" "$name" "1K:1:16:lru 1K:4:16:fifo" \
  "1K:4:16:fifo 1K:2:16:lru wt" || fail "reference cache simulator"

# address formats read back
"$citcat" convert "$b.itrace" -o "$b.din" || fail "itrace -> din"
for f in pdats pdats2; do
  "$citcat" convert "$b.itrace" -o "$b.$f" --to $f || { fail "itrace -> $f"; continue; }
  "$citcat" convert "$b.$f" --from $f -o "$b.$f.din" --to din || { fail "$f -> din"; continue; }
  cmp -s "$b.din" "$b.$f.din" || fail "$f read back differs from the itrace's din"
  rm -f "$b.$f" "$b.$f.din"
done

# SDC-LSP program flow, decoded against the IMS
grep '^2 ' "$b.din" >"$b.fetch"
for s in b e r:32x4,128; do
  "$citcat" convert "$b.itrace" -o "$b.sdc" --to "sdclsp:$s" || { fail "itrace -> sdclsp:$s"; continue; }
  "$citcat" convert "$b.sdc" -o "$b.flow.din" --image "$b.ims" || { fail "sdclsp:$s -> din"; continue; }
  grep '^2 ' "$b.flow.din" | cmp -s - "$b.fetch" || fail "sdclsp:$s decoded fetches differ from the itrace's"
  rm -f "$b.sdc" "$b.flow.din"
done

# the listing
ij=$("$citcat" info --json "$b.itrace")
insns=$(num "$ij" instructions) irqs=$(num "$ij" interrupts)
"$citcat" convert "$b.itrace" -o "$b.txt" --to text || fail "itrace -> text"
head -n 1 "$b.txt" | grep -q 'Cortex-M7' || fail "listing header: $(head -n 1 "$b.txt")"
lines=$(wc -l <"$b.txt")
[ "$lines" -eq $((2 + insns + irqs)) ] || fail "listing has $lines lines for $insns instructions and $irqs entries"
ne=$(grep -c '^        --  exception ' "$b.txt")
[ "$ne" -eq "$irqs" ] || fail "$ne exception lines for $irqs entries"
bad=$(grep '^        --  exception ' "$b.txt" | awk '{w = gsub(/ W4 /, "&"); r = gsub(/ R4 /, "&"); if (w != 8 || r != 1) n++} END {print n + 0}')
[ "$bad" -eq 0 ] || fail "$bad exception lines without 8 stacking writes and 1 vector read"
grep -q '\.inst\|\.short' "$b.txt" && fail "the listing has undecoded instructions: $(grep -m 3 '\.inst\|\.short' "$b.txt")"

# dump, ChampSim
"$citcat" dump "$b.itrace" --count 20 >/dev/null || fail "dump"
"$citcat" convert "$b.itrace" -o "$b.champsim" || fail "itrace -> champsim"
[ "$(wc -c <"$b.champsim")" -eq $((64 * insns)) ] || fail "ChampSim: $(wc -c <"$b.champsim") bytes for $insns instructions"

rm -f "$b".*
[ "$fails" -eq 0 ] || { echo "$name: $fails check(s) failed"; exit 1; }
echo "$name: every converter agrees on the Cortex-M7 itrace ($insns instructions, $irqs entries)"
