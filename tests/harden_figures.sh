#!/usr/bin/env bash
# Figures for issue 29's closing note (not a ctest): defect 7, ims's cost per
# segment (user CPU time of `ims` over a capture of ~100 segments of a 128 MiB
# RAM), and defect 17, replay --lvt's memory for an LVT claiming 1 GiB of RAM
# (max RSS).  Both are CPU time / memory, so they hold on a loaded machine.
# The CI clang job's executions per target: bash tests/fuzz_ci.sh BUILD-FUZZ . 3
# Usage: harden_figures.sh [CITCAT [FIRMWARE.elf]]   (default: build/cli/citcat build/examples/crc32.elf)
# Give main's citcat from before the fixes (fb656a4) as CITCAT for the "before" figures.
set -eu
C=${1:-build/cli/citcat} E=${2:-build/examples/crc32.elf}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# no -q (main before issue 29 lacks it for some commands): chatter to $t/log
"$C" capture "$E" -o "$t/many.cat" --checkpoint-every 2000 --ram 128M --seed 1 --max-insns 200000 2>"$t/log"
/usr/bin/time -f '%U s user, %S s system, %e s elapsed' -o "$t/tm" "$C" ims "$t/many.cat" -o "$t/many.ims" 2>"$t/log"
echo "defect 7: ims of a CAT of $("$C" info "$t/many.ims" | head -1 | sed 's/.*, //') of a 128 MiB RAM: $(cat "$t/tm")"
"$C" capture "$E" --lvt "$t/big.lvt" --ram 1G --seed 1 --max-insns 200000 2>"$t/log"
/usr/bin/time -f 'max RSS %M KB, %U s user, %S s system' -o "$t/tm" "$C" replay --lvt "$t/big.lvt" --image "$E" -o "$t/x.itrace" 2>"$t/log"
echo "defect 17: replay --lvt of an LVT claiming 1 GiB of RAM: $(cat "$t/tm")"
