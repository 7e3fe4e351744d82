#!/usr/bin/env bash
# citcat report (issue 12): the HTML page rendered by headless Chromium has
# every chart, and its numbers are `citcat info`'s (events per kind,
# instructions, the CAT's size); the CSV's columns add up to the same totals;
# bad arguments fail with no output left.  Exit 77 (skipped) without chromium.
# Usage: report_html.sh CITCAT FIRMWARE.elf RUN.cat RUN.itrace
set -u
citcat=$1 elf=$2 cat=$3 itrace=$4
. "$(dirname "$0")/testlib.sh"

"$citcat" report "$cat" --elf "$elf" --itrace "$itrace" -o "$t/r.html" --csv "$t/r.csv" || fail "report"
"$citcat" info --json "$cat" >"$t/info.json" || fail "info"
json() { grep -o "\"$1\": [0-9]*" "$t/info.json" | head -1 | grep -o '[0-9]*$'; }
insns=$(json instructions)
[ -n "$insns" ] && [ "$insns" -gt 0 ] || fail "no instruction count from info"

# the CSV: one row per bucket, columns adding up to the drawn totals
hdr=$(head -1 "$t/r.csv")
[ "$hdr" = "first_insn,insns,fill_i,fill_d,writeback,write,uread,uwrite,dma,irq,dma_bytes,data_accesses,cat_bits_per_insn,ims_aes_bits_per_insn,icache_miss_rate,dcache_miss_rate" ] ||
  fail "CSV header: $hdr"
[ "$(awk -F, 'NR > 1 {s += $2} END {print s}' "$t/r.csv")" = "$insns" ] || fail "CSV instructions do not add up to $insns"
[ "$(awk -F, 'NR > 1 {s += $11} END {print s}' "$t/r.csv")" = "$(json dma_bytes)" ] || fail "CSV DMA bytes differ from info's"
[ "$(($(wc -l <"$t/r.csv") - 1))" -le 1000 ] || fail "more than 1000 buckets"

if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIPPED: chromium is not installed (Debian package chromium); the page was not rendered"
  exit 77
fi
# no script, no external reference: the page is self-contained
grep -qi '<script' "$t/r.html" && fail "the page has a script"
grep -Eqi '(src|href)="(https?:)?//' "$t/r.html" && fail "the page refers to the network"
timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$t/chrome" --dump-dom "file://$t/r.html" \
  >"$t/dom.html" 2>"$t/chrome.err" || fail "chromium failed: $(tail -3 "$t/chrome.err")"
for id in bus-events timeline bits miss-rates top-insns top-misses; do
  grep -q "<svg id=\"$id\"" "$t/dom.html" || fail "no SVG '$id' in the rendered page"
done
grep -q '<table id="density">' "$t/dom.html" || fail "no density table"
svg=$(grep -o '<svg id="bus-events"[^>]*>' "$t/dom.html")
attr() { echo "$svg" | grep -o " data-$1=\"[0-9]*\"" | grep -o '[0-9]*'; }
for k in fill_i fill_d writeback write uread uwrite dma irq; do
  ik=$k
  [ $k = uread ] && ik=uncached_read
  [ $k = uwrite ] && ik=uncached_write
  [ "$(attr $k)" = "$(json $ik)" ] || fail "bus-events $k: page $(attr $k), info $(json $ik)"
done
# the drawn (replayed) fills add up in the CSV too
[ "$(awk -F, 'NR > 1 {s += $3} END {print s}' "$t/r.csv")" = "$(attr drawn-fill_i)" ] || fail "CSV fill_i differs from the page"
[ "$(awk -F, 'NR > 1 {s += $4} END {print s}' "$t/r.csv")" = "$(attr drawn-fill_d)" ] || fail "CSV fill_d differs from the page"
grep -q "data-instructions=\"$insns\"" "$t/dom.html" || fail "the summary does not say $insns instructions"
grep -q "<tr data-format=\"CAT\" data-bytes=\"$(json file_bytes)\"" "$t/dom.html" || fail "density: the CAT's bytes differ from info's"
grep -q '<tr data-format="itrace"' "$t/dom.html" || fail "density: no itrace row"
tl=$(grep -o '<svg id="timeline"[^>]*>' "$t/dom.html")
echo "$tl" | grep -q "data-irq=\"$(json irq)\"" || fail "timeline: interrupts differ from info's"
[ "$(grep -o '<rect[^>]*>' "$t/dom.html" | wc -l)" -gt 20 ] || fail "too few bars drawn"
grep -q 'data-function="main"' "$t/dom.html" || fail "main is not among the top functions"
# the summary (issue 35): first, and how the run ended: crc32 exits 0
sum=$(grep -o '<section id="run-summary"[^>]*>' "$t/dom.html")
[ -n "$sum" ] || fail "no run summary"
echo "$sum" | grep -q 'data-stop="exit"' && echo "$sum" | grep -q 'data-exit-value="0"' || fail "summary: $sum"
echo "$sum" | grep -q "data-seed=\"$(json seed)\"" || fail "summary: seed differs from info's $(json seed): $sum"
[ "$(grep -bo '<section id="run-summary"' "$t/dom.html" | cut -d: -f1)" -lt "$(grep -bo '<svg id="bus-events"' "$t/dom.html" | cut -d: -f1)" ] ||
  fail "the summary is not above the charts"
grep -q '<pre id="last-insns">' "$t/dom.html" && fail "a listing of the last instructions for a clean exit"
# the charts take the page's width
grep -q 'svg{display:block;width:100%;height:auto}' "$t/r.html" || fail "the charts do not scale with the page"

# bad arguments: exit 2, no output
expect 2 "need RUN.cat" "$citcat" report -o "$t/bad.html"
expect 2 "bad bucket count" "$citcat" report "$cat" -o "$t/bad.html" --buckets 0
expect 2 "missing.cat" "$citcat" report "$t/missing.cat" -o "$t/bad.html"
head -c 1000 "$cat" >"$t/cut.cat"
expect 2 "cut.cat" "$citcat" report "$t/cut.cat" -o "$t/bad.html" --csv "$t/bad.csv"
echo "not an elf" >"$t/notelf"
expect 2 "notelf" "$citcat" report "$cat" -o "$t/bad.html" --elf "$t/notelf"
[ ! -e "$t/bad.html" ] && [ ! -e "$t/bad.csv" ] || fail "output left behind by a failed report"

finish report_html
