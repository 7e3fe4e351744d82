#!/usr/bin/env bash
# convert --to text with --elf and ranges (issue 12), on a real trace:
# the source lines agree with binutils (nm for function ranges, addr2line
# for lines: an independent reader of the same ELF), the ranges select
# exactly the instructions of the full listing they name, bad options fail.
# Usage: listing_symbols.sh CITCAT FIRMWARE.elf RUN.itrace NM ADDR2LINE
set -u
citcat=$1 elf=$2 trace=$3 nm=$4 a2l=$5
. "$(dirname "$0")/testlib.sh"

# (the first 300000 instructions, to keep the test short)
"$citcat" convert "$trace" -o "$t/full.txt" --to text --count 300000 || fail "full listing"
"$citcat" convert "$trace" -o "$t/sym.txt" --to text --elf "$elf" --count 300000 || fail "listing with --elf"
# with --elf the instruction lines are the same, and source lines are added
grep -v '^            ; ' "$t/sym.txt" | cmp -s - "$t/full.txt" || fail "--elf changed instruction lines"
[ "$(grep -c '^            ; main+0x[0-9a-f]* (main.c:[0-9]*)$' "$t/sym.txt")" -gt 10 ] || fail "no main.c source lines"

# each distinct source line names the function nm gives for that pc and
# the line addr2line gives (first 40 distinct pcs that follow a source line)
awk '/^            ; .*\+0x.* \(/{s=substr($0,15); getline; print $2 " " s}' "$t/sym.txt" | sort -u -k1,1 | head -40 >"$t/pairs"
[ "$(wc -l <"$t/pairs")" -ge 20 ] || fail "too few source lines to compare"
"$nm" "$elf" >"$t/nm"
while read -r pc fn rest; do
  want_line=$("$a2l" -e "$elf" "0x$pc" | sed 's/ (discriminator.*//; s|.*/||')
  got_line=$(echo "$rest" | tr -d '()')
  [ "$want_line" = "$got_line" ] || fail "pc $pc: line $got_line, addr2line says $want_line"
  name=${fn%%+*} off=${fn#*+}
  start=$(awk -v n="$name" '$3 == n {print $1; exit}' "$t/nm")
  [ -n "$start" ] || fail "pc $pc: $name is not in nm's list"
  [ $((0x$start + off)) -eq $((0x$pc)) ] || fail "pc $pc: $fn, but nm puts $name at 0x$start"
done <"$t/pairs"

# --from-insn N --count K: the instructions N..N+K-1 of the full listing, interrupts between them included
"$citcat" convert "$trace" -o "$t/part.txt" --to text --from-insn 1000 --count 50 || fail "--from-insn/--count"
awk 'NR > 2 && !/^ *--/' "$t/part.txt" | awk '{print $1}' >"$t/idx"
[ "$(wc -l <"$t/idx")" -eq 50 ] && [ "$(head -1 "$t/idx")" = 1000 ] && [ "$(tail -1 "$t/idx")" = 1049 ] ||
  fail "--from-insn 1000 --count 50 listed $(wc -l <"$t/idx") from $(head -1 "$t/idx") to $(tail -1 "$t/idx")"
awk 'NR > 2' "$t/full.txt" | awk '$1 == 1000 {on = 1} on && !/^ *--/ {n++} on {print} n == 50 {exit}' >"$t/want"
awk 'NR > 2' "$t/part.txt" | cmp -s - "$t/want" || fail "--from-insn/--count lines differ from the full listing's"

# --function main: exactly the full listing's instructions inside nm's range of main (the first 20000)
read -r lo size < <("$nm" -S "$elf" | awk '$4 == "main" {print $1, $2}')
"$citcat" convert "$trace" -o "$t/main.txt" --to text --elf "$elf" --function main --count 20000 || fail "--function main"
# (pcs are 8 lower-case hex digits: as strings they compare as numbers)
awk 'NR > 2 && !/^ *(;|--)/' "$t/full.txt" | awk -v lo="$lo" -v hi="$(printf %08x $((0x$lo + 0x$size)))" \
  '($2 "") >= (lo "") && ($2 "") < (hi "")' | head -20000 >"$t/want"
[ -s "$t/want" ] || fail "main runs no instruction?"
grep -v '^ *\(;\|--\)' "$t/main.txt" | awk 'NR > 2' | cmp -s - "$t/want" || fail "--function main selects other instructions"
# --pc over the same range selects the same instructions
"$citcat" convert "$trace" -o "$t/pc.txt" --to text --pc "0x$lo:$((0x$lo + 0x$size))" --count 20000 || fail "--pc"
grep -v '^ *--' "$t/pc.txt" | awk 'NR > 2' | cmp -s - "$t/want" || fail "--pc selects other instructions than --function"

# bad options: exit 2, a message, no output
expect 2 "needs --elf" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --function main
expect 2 "no function named 'nosuchfn'" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --elf "$elf" --function nosuchfn
echo "not an elf" >"$t/notelf"
expect 2 "notelf: offset 0: not an ELF file" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --elf "$t/notelf"
expect 2 "missing.elf: cannot open" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --elf "$t/missing.elf"
expect 2 "bad instruction count" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --count 0
expect 2 "bad address range" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --pc 0x200:0x100
expect 2 "bad address range" "$citcat" convert "$trace" -o "$t/bad.txt" --to text --pc 0x200
expect 2 "are for --to text" "$citcat" convert "$trace" -o "$t/bad.din" --elf "$elf"
[ ! -e "$t/bad.txt" ] && [ ! -e "$t/bad.din" ] || fail "output left behind by a failed convert"

finish listing_symbols
