#!/usr/bin/env bash
# TVP through the tool (issue 34; common/TVP.md, formats/TVP_MODEL.md):
#  - ARM and Thumb-2 itraces to every address format in a TVP container
#    (.tvp or --tvp) and back give the itrace's din byte for byte, and
#    info names the container and the format it holds;
#  - a CAT captured straight into a TVP container (mode 0) is read by
#    every reader as the plain CAT (info, ims: the same IMS);
#  - bad TVP files: cut short or damaged, each reader says the file and the
#    offset, exits 2 and writes nothing.
# Usage: tvp_cli.sh CITCAT ARM.itrace THUMB.itrace IDLE.elf OUTDIR
set -u
citcat=$1 arm=$2 thumb=$3 elf=$4 out=$5
rm -rf "$out"
mkdir -p "$out"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for it in "$arm" "$thumb"; do
  b=$out/$(basename "$it" .itrace)
  "$citcat" convert "$it" -o "$b.din" || fail "itrace -> din"
  for f in din pdats pdats2 xdin; do
    "$citcat" convert "$it" -o "$b.$f.tvp" || { fail "$it -> $f.tvp"; continue; }
    "$citcat" info "$b.$f.tvp" | head -1 | grep -q "in a TVP container (value-prediction model" ||
      fail "info on $f.tvp does not name the TVP model: $("$citcat" info "$b.$f.tvp" | head -1)"
    [ "$f" = xdin ] && continue # sizes and DMA: test_addr_roundtrip compares xdin
    "$citcat" convert "$b.$f.tvp" -o "$b.$f.back.din" || { fail "$f.tvp -> din"; continue; }
    cmp -s "$b.din" "$b.$f.back.din" || fail "$it: din -> $f.tvp -> din differs"
  done
  # --tvp on a plain name: the same container
  "$citcat" convert "$it" -o "$b.named.pdats2" --tvp || fail "--tvp"
  cmp -s "$b.named.pdats2" "$b.pdats2.tvp" || fail "--tvp and .tvp differ"
  "$citcat" info --json "$b.pdats2.tvp" | grep -q '"wrap": "tvp", "tvp_model": true, "version": 3' ||
    fail "info --json on pdats2.tvp: $("$citcat" info --json "$b.pdats2.tvp")"
done

# mode 0: a CAT in a TVP container reads as the CAT
"$citcat" capture "$elf" -o "$out/idle.cat" --uart-out /dev/null --seed 1 2>/dev/null || fail "capture"
"$citcat" capture "$elf" -o "$out/idle.cat.tvp" --uart-out /dev/null --seed 1 2>/dev/null || fail "capture .tvp"
head -c 6 "$out/idle.cat.tvp" | od -An -tx1 | grep -q "89 54 56 50 01 00" || fail "capture .tvp: not a mode-0 TVP container"
"$citcat" info "$out/idle.cat.tvp" | grep -q "wrapper *TVP container" || fail "info on a CAT in TVP names no wrapper"
"$citcat" ims "$out/idle.cat" -o "$out/a.ims" 2>/dev/null && "$citcat" ims "$out/idle.cat.tvp" -o "$out/b.ims" 2>/dev/null ||
  fail "ims from the CAT in TVP"
cmp -s "$out/a.ims" "$out/b.ims" || fail "the IMS of the CAT in TVP differs"

# bad input: file and offset, exit 2, no output
p=$out/$(basename "$arm" .itrace).pdats2.tvp
m=$out/idle.cat.tvp
len=$(stat -c %s "$p")
head -c $((len / 2)) "$p" >"$out/cut.pdats2.tvp"
cp "$p" "$out/bad.pdats2.tvp"
printf '\x5a' | dd of="$out/bad.pdats2.tvp" bs=1 seek=$((len / 2)) conv=notrunc 2>/dev/null
head -c $(($(stat -c %s "$m") / 2)) "$m" >"$out/cut.cat.tvp"
for bad in cut.pdats2.tvp bad.pdats2.tvp cut.cat.tvp; do
  rm -f "$out/o.din" "$out/o.ims"
  if [ "$bad" = cut.cat.tvp ]; then
    "$citcat" ims "$out/$bad" -o "$out/o.ims" 2>"$out/err"; rc=$?
    [ -e "$out/o.ims" ] && fail "$bad: output left behind"
  else
    "$citcat" convert "$out/$bad" -o "$out/o.din" 2>"$out/err"; rc=$?
    [ -e "$out/o.din" ] && fail "$bad: output left behind"
  fi
  [ $rc -eq 2 ] || fail "$bad: exit $rc, not 2"
  grep -q "$bad.*offset [0-9]" "$out/err" || fail "$bad: no file and offset in: $(cat "$out/err")"
done

[ $fails -eq 0 ] || { echo "tvp_cli: $fails check(s) failed"; exit 1; }
echo "tvp_cli: ok"
