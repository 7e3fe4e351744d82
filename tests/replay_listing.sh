#!/usr/bin/env bash
# citcat convert --to text: golden listings of a real trace prefix (the tiny
# firmware, --seed 1 --max-insns 70) and of a hand-built itrace (listing_gen),
# standard output, and bad inputs (exit 2, file named, no output left).
# Usage: replay_listing.sh CITCAT TINY.elf LISTING_GEN GOLDEN_DIR [CAPSTONE_VERSION]
# CITCAT_UPDATE_GOLDEN=1 rewrites the expected files.
# The disassembly text is Capstone's: the golden listings were made with
# Capstone 4.0.2 (Debian 12's libcapstone4).  With another version only the
# comparison with them is skipped, said so on the output; everything else runs.
set -u
citcat=$1 elf=$2 gen=$3 golden=$4 capstone=${5:-4.0.2}
. "$(dirname "$0")/testlib.sh"
golden_check() { # NAME FILE
  if [ "$capstone" != 4.0.2 ] && [ "${CITCAT_UPDATE_GOLDEN:-}" != 1 ]; then
    echo "SKIP: $1 was made with Capstone 4.0.2; this build links Capstone $capstone, whose text may differ"
    return 0
  fi
  if [ "${CITCAT_UPDATE_GOLDEN:-}" = 1 ]; then cp "$2" "$golden/$1"; fi
  diff -u "$golden/$1" "$2" || fail "$1 differs from the golden listing"
}

"$citcat" capture "$elf" -o "$t/tiny.cat" --oracle "$t/tiny.itrace" --seed 1 --max-insns 70 -q >/dev/null || fail "capture"
"$citcat" convert "$t/tiny.itrace" -o "$t/tiny.txt" || fail "convert tiny"
golden_check tiny.listing.txt "$t/tiny.txt"
"$gen" "$t/synth.itrace" || fail "listing_gen"
"$citcat" convert "$t/synth.itrace" -o "$t/synth.txt" --to text || fail "convert synth"
golden_check synth.listing.txt "$t/synth.txt"
# standard output gives the same bytes
"$citcat" convert "$t/synth.itrace" -o - --to text >"$t/stdout.txt" || fail "convert to stdout"
cmp -s "$t/synth.txt" "$t/stdout.txt" || fail "the listing on standard output differs"

# bad inputs: not an itrace, truncated, unwritable output; nothing left behind
expect 2 "tiny.cat: a text listing is made from an itrace" "$citcat" convert "$t/tiny.cat" -o "$t/bad.txt" --from din --to text
size=$(stat -c %s "$t/synth.itrace")
head -c $((size - 30)) "$t/synth.itrace" >"$t/cut.itrace"
expect 2 "cut.itrace: offset [0-9]*:" "$citcat" convert "$t/cut.itrace" -o "$t/bad.txt" --from itrace --to text
[ ! -e "$t/bad.txt" ] || fail "partial listing left behind"
ls "$t" | grep -q '\.tmp-' && fail "temporary file left behind"
expect 2 "nodir/x.txt" "$citcat" convert "$t/synth.itrace" -o "$t/nodir/x.txt"

finish replay_listing
