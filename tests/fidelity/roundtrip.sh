#!/usr/bin/env bash
# The round trip every regression firmware of the fidelity campaign must pass
# (tests/fidelity/README.md): capture with and without --oracle (the same
# CAT: an access is reported alike whichever hooks run), ims/aes, replay
# --verify --oracle and replay --verify alone exact (default engine), and,
# where the run ends normally, the LVT (byte granules) decoding to the
# oracle and the DAF rebuilding the itrace's din.
# Usage: roundtrip.sh CITCAT WANT_STATUS ELF [capture options...]
#   WANT_STATUS: the capture's exit status (0, or 3 for a run that faults)
set -u
citcat=$1 want=$2 elf=$3
shift 3
. "$(dirname "$0")/../testlib.sh"
r=$t/run
o=(--seed 1 -q "$@")
"$citcat" capture "$elf" -o "$r.cat" --oracle "$r.itrace" "${o[@]}" >"$r.out" 2>"$r.err"
rc=$?
[ $rc = "$want" ] || fail "capture exited $rc, want $want: $(cat "$r.err")"
"$citcat" capture "$elf" -o "$r.2.cat" "${o[@]}" >/dev/null 2>&1
cmp -s "$r.cat" "$r.2.cat" || fail "the CAT differs without --oracle"
"$citcat" ims "$r.cat" -o "$r.ims" >/dev/null 2>"$r.err" || fail "ims: $(cat "$r.err")"
"$citcat" aes "$r.cat" -o "$r.aes" >/dev/null 2>"$r.err" || fail "aes: $(cat "$r.err")"
"$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
  && grep -q "bus trace verified.*instruction trace equals the oracle" "$r.err" \
  || fail "replay --verify --oracle: $(head -c 600 "$r.err")"
"$citcat" replay "$r.ims" "$r.aes" --verify "$r.cat" >/dev/null 2>"$r.err" \
  && grep -q "bus trace verified" "$r.err" || fail "replay --verify: $(head -c 600 "$r.err")"
if [ "$want" = 0 ]; then
  "$citcat" capture "$elf" --lvt "$r.lvt" "${o[@]}" >/dev/null 2>"$r.err" || fail "capture --lvt: $(cat "$r.err")"
  "$citcat" replay --lvt "$r.lvt" --image "$elf" --oracle "$r.itrace" >/dev/null 2>"$r.err" \
    && grep -q "instruction trace equals the oracle" "$r.err" || fail "LVT decode: $(head -c 600 "$r.err")"
  "$citcat" capture "$elf" -o "$r.d.cat" --daf "$r.daf" "${o[@]}" >/dev/null 2>"$r.err" || fail "capture --daf: $(cat "$r.err")"
  "$citcat" convert "$r.itrace" -o "$r.din" --uncached && "$citcat" convert "$r.itrace" --daf "$r.daf" -o "$r.it.din" \
    && cmp -s "$r.din" "$r.it.din" || fail "itrace flow + DAF does not rebuild the din"
fi
finish "roundtrip $(basename "$elf")"
