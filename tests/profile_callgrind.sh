#!/usr/bin/env bash
# citcat profile against the real client, valgrind's callgrind_annotate
# (issue 35).  For each run (DIR/NAME.cat and DIR/NAME.itrace, firmware ELF):
#  - PROGRAM TOTALS: Ir = the itrace's instructions (citcat info); Dr + Ur
#    and Dw + Uw = its data reads and writes, Ur + Uw its uncached ones;
#    I1mr = the CAT's traced I-cache fills, D1mr + D1mw its D-cache fills,
#    D1wb its write-backs, DMA its transfers (citcat info of the CAT);
#  - per function: the rows (every function, --threshold=100) add up to the
#    totals, event by event; and each function of the example's main.c has
#    as many Ir as the itrace's instructions whose innermost function,
#    inlined ones included, binutils' addr2line -f -i names so;
#  - per line: every line of main.c has as many Ir as the itrace's
#    instructions addr2line places on it.
# Usage: profile_callgrind.sh CITCAT CALLGRIND_ANNOTATE ADDR2LINE UART_IN RUN...
# RUN is DIR/NAME:ELF:SOURCE (DIR/NAME.cat and .itrace exist: a fixture's
# capture; SOURCE: the example's main.c) or capture:ELF:SOURCE (captured
# here with its oracle; UART_IN feeds uartline).
set -u
citcat=$1 annotate=$2 a2l=$3 uart_in=$4
shift 4
. "$(dirname "$0")/testlib.sh"
num() { grep -o "\"$1\": [0-9]*" "$2" | head -n 1 | grep -o '[0-9]*$'; }
traced() { "$citcat" info --json "$1" | grep -o "\"events_traced\": {[^}]*}" | grep -o "\"$2\": [0-9]*" | grep -o '[0-9]*$'; }

for run in "$@"; do
  IFS=: read -r base elf src <<<"$run"
  if [ "$base" = capture ]; then
    name=$(basename "$elf" .elf) base=$t/$(basename "$elf" .elf)
    extra=()
    [[ $name == uartline* ]] && extra=(--uart-in "$uart_in")
    "$citcat" capture "$elf" -o "$base.cat" --oracle "$base.itrace" --seed 1 -q "${extra[@]}" >/dev/null 2>"$t/err" ||
      { fail "$name: capture: $(cat "$t/err")"; continue; }
  fi
  name=$(basename "$base")
  "$citcat" profile "$base.cat" --elf "$elf" -o "$t/$name.callgrind" 2>"$t/err" || { fail "$name: profile: $(cat "$t/err")"; continue; }
  "$annotate" --threshold=100 --show-percs=no --context=0 "$t/$name.callgrind" >"$t/$name.ann" 2>"$t/$name.annerr" ||
    { fail "$name: callgrind_annotate failed: $(head -c 300 "$t/$name.annerr")"; continue; }
  [ -s "$t/$name.annerr" ] && fail "$name: callgrind_annotate warns: $(head -c 300 "$t/$name.annerr")"
  "$citcat" info --json "$base.itrace" >"$t/it.json"
  # the totals, event by event (Ir Dr Dw I1mr D1mr D1mw D1wb Ur Uw DMA)
  read -r ir dr dw i1 d1r d1w wb ur uw dma < <(awk '/PROGRAM TOTALS/ { gsub(",", ""); for (i = 1; i <= 10; i++) printf "%s ", ($i == "." ? 0 : $i); print ""; exit }' "$t/$name.ann")
  [ "$ir" = "$(num instructions "$t/it.json")" ] || fail "$name: Ir $ir, info says $(num instructions "$t/it.json") instructions"
  [ $((dr + ur)) = "$(num reads "$t/it.json")" ] || fail "$name: Dr + Ur $((dr + ur)), info says $(num reads "$t/it.json") reads"
  [ $((dw + uw)) = "$(num writes "$t/it.json")" ] || fail "$name: Dw + Uw $((dw + uw)), info says $(num writes "$t/it.json") writes"
  [ $((ur + uw)) = "$(num uncached_accesses "$t/it.json")" ] || fail "$name: Ur + Uw $((ur + uw)), info says $(num uncached_accesses "$t/it.json")"
  [ "$i1" = "$(traced "$base.cat" fill_i)" ] || fail "$name: I1mr $i1, the CAT has $(traced "$base.cat" fill_i) traced I-fills"
  [ $((d1r + d1w)) = "$(traced "$base.cat" fill_d)" ] || fail "$name: D1mr + D1mw $((d1r + d1w)), the CAT has $(traced "$base.cat" fill_d) D-fills"
  [ "$wb" = "$(traced "$base.cat" writeback)" ] || fail "$name: D1wb $wb, the CAT has $(traced "$base.cat" writeback) write-backs"
  [ "$dma" = "$(traced "$base.cat" dma)" ] || fail "$name: DMA $dma, the CAT has $(traced "$base.cat" dma) transfers"
  # the function rows add up to the totals
  sums=$(awk '/file:function/ { on = 1; getline; next } on && /^-----/ { exit } on && NF > 10 { gsub(",", ""); for (i = 1; i <= 10; i++) s[i] += ($i == "." ? 0 : $i) } END { for (i = 1; i <= 10; i++) printf "%d ", s[i] }' "$t/$name.ann")
  [ "$sums" = "$ir $dr $dw $i1 $d1r $d1w $wb $ur $uw $dma " ] || fail "$name: the function rows add up to $sums, not the totals $ir $dr $dw $i1 $d1r $d1w $wb $ur $uw $dma"
  # addr2line's view of every instruction: innermost function and line
  "$citcat" dump --csv "$base.itrace" | awk -F, 'NR > 1 && $2 == "insn" { n[$4]++ } END { for (p in n) print p, n[p] }' >"$t/pcs"
  # pair each pc with the first (innermost) function and file:line addr2line prints for it
  join_a2l() { # "func file line count" per pc: addr2line -a -f -i prints the pc, then pairs, innermost first
    awk '{ print $2 }' "$t/pcs" >"$t/counts"
    awk '{ print $1 }' "$t/pcs" | "$a2l" -a -f -i -e "$elf" |
      awk -v cf="$t/counts" 'BEGIN { while ((getline c < cf) > 0) cnt[++n] = c }
        /^0x[0-9a-f]+$/ { k++; state = 1; next }
        state == 1 { fn = $0; state = 2; next }
        state == 2 { f = $0; sub(/:.*/, "", f); l = $0; sub(/.*:/, "", l); sub(/ .*/, "", l); print fn, f, l, cnt[k]; state = 0; next }'
  }
  join_a2l >"$t/a2l.rows"
  srcbase=$(basename "$src")
  awk -v s="$src" '$2 == s { ir[$3] += $4 } END { for (l in ir) print l, ir[l] }' "$t/a2l.rows" | sort -n >"$t/want.lines"
  # callgrind_annotate's annotation of SOURCE, line by line
  awk -v s="$src" '
    /^-- Auto-annotated source: / { on = (substr($0, 27) == s); next }
    /^-- line [0-9]+ / { ln = $3; next }
    on && /^-----/ { next }
    on && /^Ir / { next }
    / events annotated$/ { on = 0; next }
    on && / => / { next }
    on && NF >= 10 && ($1 ~ /^[0-9,]+$/ || $1 == ".") { if ($1 != "." && $1 != "0") { v = $1; gsub(",", "", v); print ln, v } ln++ }
  ' "$t/$name.ann" | sort -n >"$t/got.lines"
  [ -s "$t/want.lines" ] || fail "$name: addr2line placed no instruction in $src"
  diff "$t/want.lines" "$t/got.lines" >"$t/ldiff" || fail "$name: per-line Ir of $srcbase differ from addr2line's (want, got): $(head -n 8 "$t/ldiff" | tr '\n' ' ')"
  # per function of SOURCE: the innermost function addr2line names (DWARF's
  # name: a GCC clone such as quicksort.constprop.0, named by its symbol in
  # the profile, is quicksort there; C++ symbols are mangled in the profile,
  # so C++ sources are checked by line only)
  if [[ $src != *.cpp ]]; then
    awk -v s="$src" '$2 == s { ir[$1] += $4 } END { for (f in ir) print f, ir[f] }' "$t/a2l.rows" | sort >"$t/want.funcs"
    awk -v s="$src" '/file:function/ { on = 1; getline; next } on && /^-----/ { exit }
      on && NF > 10 { fl = $11; fn = fl; sub(/:[^:]*$/, "", fl); sub(/.*:/, "", fn)
        sub(/\.(constprop|part|isra|cold)(\.[0-9]+)*$/, "", fn)
        if (fl == s) { v = $1; gsub(",", "", v); ir[fn] += v } }
      END { for (f in ir) print f, ir[f] }' "$t/$name.ann" | sort >"$t/got.funcs"
    diff "$t/want.funcs" "$t/got.funcs" >"$t/fdiff" || fail "$name: per-function Ir of $srcbase differ from addr2line's (want, got): $(head -n 8 "$t/fdiff" | tr '\n' ' ')"
  fi
  echo "$name: Ir $ir Dr $dr Dw $dw I1mr $i1 D1mr $d1r D1mw $d1w D1wb $wb Ur $ur Uw $uw DMA $dma; $(wc -l <"$t/got.lines") lines of $srcbase as addr2line places them"
done
finish profile_callgrind
