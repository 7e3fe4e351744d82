#!/usr/bin/env bash
# The figures of issue 34 (not a CTest test: it runs xz -9 and zstd -19 on
# every trace, minutes each on the long runs).  For each itrace or address
# trace given, `citcat bench formats` on it, one line per trace:
#   name refs  refs/byte: din pdats pdats2 pdats2+lz4 pdats2+zstd pdats2.tvp xz-9 zstd-19-long
#              encode Mref/s: pdats2.tvp xz-9   decode Mref/s: pdats2.tvp xz-d
# then, for names NAME, NAME_thumb and NAME_m7, whether PDATS II's raw
# density on the Thumb-2 builds is at least the ARM build's, and whether
# TVP beats xz -9 in density, is 10 times faster encoding and at least as
# fast decoding (bench formats' own counts: in-process for citcat, the tool
# through a pipe for xz).  OLD=path to an older citcat adds a column with
# its PDATS II (from the din) for comparison.
# Usage: density_table.sh CITCAT TRACE...   (TMPDIR for the scratch files)
# A din gives every row the same references; an itrace gives bench formats'
# (all the core's references, uncached ones too).
set -u
citcat=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-22s %10s %7s %7s %7s %7s %7s %7s %7s %7s | %7s %7s | %7s %7s%s\n" trace refs din pdats pdats2 p2+lz4 \
  p2+zstd tvp xz-9 zstd19L enc:tvp xz-9 dec:tvp xz-d "${OLD:+ | old-pdats2}"
for t in "$@"; do
  name=$(basename "$t"); name=${name%%.*}
  "$citcat" bench formats "$t" >"$tmp/b" 2>"$tmp/e" || { echo "$name: bench failed: $(cat "$tmp/e")"; continue; }
  refs=$(head -1 "$tmp/b" | awk '{print $2}')
  row() { awk -v r="$1" -v c="$2" '$1 == r || ($1 " " $2) == r || ($1 " " $2 " " $3) == r {
            n = split(r, w, " "); print $(c + n - 1); exit }' "$tmp/b"; }
  old=""
  if [ -n "${OLD:-}" ]; then # the older citcat's PDATS II of the same references (the din's)
    "$citcat" convert "$t" -o "$tmp/a.din" 2>/dev/null && "$OLD" convert "$tmp/a.din" -o "$tmp/a.pdats2" 2>/dev/null &&
      old=$(awk -v n="$(wc -l <"$tmp/a.din")" -v b="$(stat -c %s "$tmp/a.pdats2")" 'BEGIN { printf " | %7.3f", n / b }')
  fi
  printf "%-22s %10s %7s %7s %7s %7s %7s %7s %7s %7s | %7s %7s | %7s %7s%s\n" "$name" "$refs" \
    "$(row din 3)" "$(row pdats 3)" "$(row pdats2 3)" "$(row pdats2+lz4 3)" "$(row pdats2+zstd 3)" \
    "$(row pdats2.tvp 3)" "$(row 'din|xz -9' 3)" "$(row 'din|zstd -19 --long' 3)" \
    "$(row pdats2.tvp 4)" "$(row 'din|xz -9' 4)" "$(row pdats2.tvp 5)" "$(row 'din|xz -9' 5)" "$old"
done | tee "$tmp/t"
echo
awk '
  { name = $1; v[name] = $5; tvp[name] = $8; xz[name] = $9; et[name] = $12; ex[name] = $13; dt[name] = $15; dx[name] = $16 }
  END {
    for (n in v) {
      if (n ~ /_thumb$/ || n ~ /_m7$/) continue
      t = n "_thumb"
      if (t in v) { pairs++; ok = v[t] + 0 >= v[n] + 0; good += ok
        printf "PDATS II raw, Thumb >= ARM: %-16s ARM %8.3f Thumb %8.3f %s\n", n, v[n], v[t], ok ? "yes" : "NO" }
    }
    for (n in v) { k++
      d = tvp[n] + 0 > xz[n] + 0; e = et[n] + 0 >= 10 * ex[n]; f = dt[n] + 0 >= dx[n] + 0
      nd += d; ne += e; nf += f
      if (!d || !e || !f) printf "TVP: %-22s denser %s, 10x encode %s, decode %s\n", n, d ? "yes" : "NO", e ? "yes" : "NO", f ? "yes" : "NO" }
    printf "Thumb >= ARM on %d of %d programs; TVP denser than xz -9 on %d of %d traces, 10x faster encoding on %d, decoding at least as fast on %d\n", good, pairs, nd, k, ne, nf
  }' "$tmp/t"
