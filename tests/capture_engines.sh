#!/usr/bin/env bash
# The capture's block engine against its per-instruction one (capture/
# TARGET.md "The block engine"): every firmware given is captured with
# --engine insn, --engine block and --engine auto (the default, whose
# simulated windows decide when blocks run: TARGET.md "Simulated
# windows"), and the exit status, the CAT, the oracle itrace and the UART
# output must be byte-identical; the block engine's CAT without --oracle
# too.  A run the block engine refuses must be refused with exit 2, a
# reason and no output, and --engine auto must then give the insn
# engine's files.  Auto's choice is checked where it is known: it runs
# blocks on matmul and crc32 (long, block-friendly) and none on uartline
# and uartline_thumb (short, a change every few dozen instructions).
# Each argument after OUTDIR is an ELF path, optionally followed by
# ':'-separated extra capture options (e.g. "x.elf:--max-insns:300000");
# the option DMA16K stands for a 16 KiB DMA input file, and a firmware
# given twice gets its second run named NAME_2.
# Usage: capture_engines.sh CITCAT DATADIR OUTDIR ELF[:OPT...]...
set -u
citcat=$1 datadir=$2 out=$3
shift 3
mkdir -p "$out"
head -c 16384 /dev/zero | tr '\0' '\145' >"$out/dma16k.bin"
fail=0 nblock=0
declare -A seen
for spec in "$@"; do
  IFS=: read -r -a parts <<<"$spec"
  elf=${parts[0]}
  extra=()
  for o in "${parts[@]:1}"; do [ "$o" = DMA16K ] && extra+=("$out/dma16k.bin") || extra+=("$o"); done
  n=$(basename "$elf" .elf)
  [ -n "${seen[$n]:-}" ] && n=${n}_2
  seen[$n]=1
  case $n in
    uartline* | blk_devrd* | blk_devflt*) extra+=(--uart-in "$datadir/uartline.txt");;
    wfi_dma) head -c 4096 /dev/zero >"$out/dma.bin"; extra+=(--ram 64M --dma-in "$out/dma.bin");;
  esac
  r=$out/$n
  for e in insn block auto; do
    rm -f "$r.$e.cat" "$r.$e.oracle" "$r.$e.uart"
    v=()
    case $n:$e in blk_exc_*:block | *:auto) v=(env CITCAT_VERBOSE=1);; esac # the engine's state at the stop, on standard error
    "${v[@]}" "$citcat" capture "$elf" -q --seed 1 --engine $e -o "$r.$e.cat" --oracle "$r.$e.oracle" \
      --uart-out "$r.$e.uart" "${extra[@]}" 2>"$r.$e.log"
    echo $? >"$r.$e.rc"
  done
  ri=$(cat "$r.insn.rc") rb=$(cat "$r.block.rc") ra=$(cat "$r.auto.rc")
  if [ "$ri" != 0 ] && [ "$ri" != 3 ]; then echo "FAIL $n: insn engine exit $ri"; cat "$r.insn.log"; fail=1; continue; fi
  same() { cmp "$r.insn.cat" "$r.$1.cat" && cmp "$r.insn.oracle" "$r.$1.oracle" && cmp "$r.insn.uart" "$r.$1.uart"; }
  if [ "$rb" = 2 ] && grep -q "block engine does not take this run" "$r.block.log"; then
    if [ -e "$r.block.cat" ] || [ -e "$r.block.oracle" ]; then echo "FAIL $n: output left after a refusal"; fail=1; continue; fi
    if [ "$ra" != "$ri" ] || ! same auto; then echo "FAIL $n: auto after a refusal"; fail=1; continue; fi
    echo "ok   $n (refused: $(sed -n 's/.*this run: //p' "$r.block.log"))"
    continue
  fi
  if [ "$rb" != "$ri" ]; then
    echo "FAIL $n: exit insn $ri, block $rb"; cat "$r.block.log"; fail=1; continue
  fi
  if ! same block; then echo "FAIL $n: outputs differ"; fail=1; continue; fi
  if [ "$ra" != "$ri" ] || ! same auto; then echo "FAIL $n: auto: exit $ra, or other outputs"; fail=1; continue; fi
  ablocks=$(sed -n 's/.*block engine: \([0-9]*\) blocks without the code hook.*/\1/p' "$r.auto.log")
  case $n in
    matmul | crc32)
      if [ -z "$ablocks" ]; then echo "FAIL $n: auto ran no block"; cat "$r.auto.log"; fail=1; continue; fi;;
    uartline | uartline_thumb)
      if [ -n "$ablocks" ]; then echo "FAIL $n: auto ran $ablocks blocks"; fail=1; continue; fi;;
  esac
  # blk_exc is there for the exception inside a block run without the code
  # hook: the block engine must have been taking blocks (its back-off over)
  # when the run stopped there, or the run proved nothing
  case $n in blk_exc_*)
    if ! grep -q "block engine: [1-9][0-9]* blocks without the code hook; taking blocks at the stop" "$r.block.log"; then
      echo "FAIL $n: the block engine was not taking blocks at the exception"; cat "$r.block.log"; fail=1; continue
    fi;;
  esac
  # without the oracle the block engine retires A32 runs in bulk
  # (cblk_retire_run): the same CAT (the insn engine's does not depend on
  # --oracle); not for the Thumb builds, which never take that path
  case $n in *_thumb*) nblock=$((nblock + 1)); echo "ok   $n (exit $ri; CAT $(stat -c %s "$r.insn.cat") bytes, oracle $(stat -c %s "$r.insn.oracle") bytes identical)"; continue;; esac
  rm -f "$r.noor.cat"
  "$citcat" capture "$elf" -q --seed 1 --engine block -o "$r.noor.cat" --uart-out "$r.noor.uart" "${extra[@]}" \
    2>"$r.noor.log"
  rn=$?
  if [ "$rn" != "$ri" ] || ! cmp "$r.insn.cat" "$r.noor.cat"; then
    echo "FAIL $n: the block engine without --oracle: exit $rn, or another CAT"; cat "$r.noor.log"; fail=1; continue
  fi
  nblock=$((nblock + 1))
  echo "ok   $n (exit $ri; CAT $(stat -c %s "$r.insn.cat") bytes, oracle $(stat -c %s "$r.insn.oracle") bytes identical)"
done
[ $nblock -gt 0 ] || { echo "FAIL: no run was taken by the block engine"; fail=1; }
exit $fail
