#!/usr/bin/env bash
# The firmware recorded in a CAT (formats/CAT.md version 4, "The firmware"):
# capture stores the ELF's absolute path and GNU build id; info shows them;
# dump and report use the ELF's symbols without --elf while its build id
# still matches, and warn and go on without them when it does not.
# The expected build id is read independently, from the ELF's note section
# as binutils' readelf dumps it (4-byte namesz, descsz, type, "GNU\0", id).
# Usage: cat_elf.sh CITCAT FIRMWARE.elf READELF
set -u
citcat=$1 src=$2 readelf=$3
. "$(dirname "$0")/testlib.sh"

cp "$src" "$t/fw.elf"
hexdump=$("$readelf" -x .note.gnu.build-id "$t/fw.elf" | grep '^  0x' | cut -c14-48 | tr -d ' \n')
[ "${hexdump:0:32}" = "04000000140000000300000047""4e5500" ] || fail "note header ${hexdump:0:32}: not namesz 4, descsz 20, NT_GNU_BUILD_ID, GNU"
want=${hexdump:32}
[ ${#want} -eq 40 ] || fail "no 20-byte build id in the note section (got '$want'): is the BSP linking with --build-id?"
"$citcat" capture "$t/fw.elf" -o "$t/run.cat" -q --max-insns 200000 >/dev/null || fail "capture"

"$citcat" info "$t/run.cat" | grep -qxF "  firmware   $t/fw.elf (build id $want)" ||
  fail "info: $("$citcat" info "$t/run.cat" | grep firmware)"
"$citcat" info --json "$t/run.cat" | grep -qF "\"elf\": {\"path\": \"$t/fw.elf\", \"build_id\": \"$want\"}" ||
  fail "info --json lacks the firmware"

# dump names the SYNC's pc (the trace start point, in the BSP's driver)
# from the recorded ELF, with no warning
"$citcat" dump "$t/run.cat" --json >"$t/dump" 2>"$t/err" || fail "dump"
grep -m1 '"kind": "sync"' "$t/dump" | grep -q '"func": "citcat_trace_start+0x' ||
  fail "dump: SYNC without the recorded ELF's symbols: $(grep -m1 sync "$t/dump")"
[ -s "$t/err" ] && fail "dump warned: $(cat "$t/err")"
# report too (the page names the ELF it took its symbols from)
"$citcat" report "$t/run.cat" -o "$t/r.html" 2>"$t/err" || fail "report"
grep -qF "Symbols: $t/fw.elf." "$t/r.html" || fail "report: no symbols from the recorded ELF"

# rebuilt: one bit of the build id differs -> a warning, no symbols, exit 0
python3 - "$t/fw.elf" "$want" <<'PY'
import sys
p, want = sys.argv[1], bytes.fromhex(sys.argv[2])
d = bytearray(open(p, 'rb').read())
i = d.find(want)
d[i] ^= 1
open(p, 'wb').write(d)
PY
"$citcat" dump "$t/run.cat" --json >"$t/dump" 2>"$t/err" || fail "dump after the rebuild exited $?"
grep -q "captured from build id $want: rebuilt since" "$t/err" || fail "no mismatch warning: $(cat "$t/err")"
grep -q '"func"' "$t/dump" && fail "dump used a mismatching ELF's symbols"
"$citcat" report "$t/run.cat" -o "$t/r2.html" 2>"$t/err" || fail "report after the rebuild"
grep -q "rebuilt since" "$t/err" || fail "report: no mismatch warning"
grep -q "Symbols: " "$t/r2.html" && fail "report used a mismatching ELF's symbols"
# --elf wins, unchecked
"$citcat" dump "$t/run.cat" --elf "$src" --json 2>"$t/err" | grep -q '"func"' || fail "--elf: no symbols"
[ -s "$t/err" ] && fail "--elf warned: $(cat "$t/err")"
# gone: a warning naming the file, no symbols
rm "$t/fw.elf"
"$citcat" dump "$t/run.cat" --count 1 >/dev/null 2>"$t/err" || fail "dump with the ELF gone"
grep -q "fw.elf: cannot open" "$t/err" || fail "ELF gone: $(cat "$t/err")"

finish cat_elf
