#!/usr/bin/env bash
# The block engine against the per-instruction one (replay/REPLAY.md
# "Block-granular replay"): every example, ARM and Thumb, is captured (CAT +
# oracle), extracted, and replayed with --engine insn and --engine block, both
# with --verify and --oracle; the two itraces must be byte-identical.  A run
# the block engine refuses must be refused with exit 2 and a reason, and
# --engine auto must then give the insn engine's itrace.  Each run the block
# engine takes is also replayed with --verify alone (no records), and with
# each engine with -o alone (the memory-system model skipped) and with
# -o --model (driven though nothing reads it): the same bytes.
# A NAME may carry extra capture options after colons (irqdma:dmaend gives
# irqdma a 16 KiB DMA input that runs out; the run is named irqdma_dmaend).
# The interrupt- and DMA-heavy irqdma must be replayed with interrupts
# entered between blocks and DMA transfers applied inside them (the block
# engine's summary, replay/REPLAY.md "Interrupts, DMA and the block
# engine"), or the run proved nothing about those paths.
# Usage: replay_engines.sh CITCAT ELFDIR DATADIR OUTDIR [NAMES...]
set -u
citcat=$1 elfdir=$2 datadir=$3 out=$4
shift 4
names=${*:-"crc32 sha256 qsort matmul strsearch dijkstra sched uartline counter idle cxx_demo"}
mkdir -p "$out"
head -c 16384 /dev/zero | tr '\0' '\145' >"$out/dma16k.bin"
fail=0
for spec in $names; do
  base=${spec%%:*} variant=
  [ "$spec" != "$base" ] && variant=${spec#*:}
  for n0 in "$base" "${base}_thumb"; do
    [ -f "$elfdir/$n0.elf" ] || continue
    extra=() n=$n0
    case $n0 in uartline* | blk_devrd*) extra=(--uart-in "$datadir/uartline.txt");; esac
    case $variant in
      dmaend) extra+=(--dma-in "$out/dma16k.bin"); n=${base}_dmaend${n0#"$base"};;
      '') ;;
      *) echo "FAIL $spec: unknown variant"; fail=1; continue;;
    esac
    r=$out/$n
    if ! "$citcat" capture "$elfdir/$n0.elf" -o "$r.cat" --oracle "$r.oracle" --seed 1 "${extra[@]}" 2>"$r.log" ||
       ! "$citcat" ims "$r.cat" -o "$r.ims" 2>>"$r.log" || ! "$citcat" aes "$r.cat" -o "$r.aes" 2>>"$r.log"; then
      echo "FAIL $n: capture or extraction"; cat "$r.log"; fail=1; continue
    fi
    "$citcat" replay "$r.ims" "$r.aes" --engine insn -o "$r.insn.itrace" --verify "$r.cat" --oracle "$r.oracle" 2>>"$r.log"
    ri=$?
    "$citcat" replay "$r.ims" "$r.aes" --engine block -o "$r.block.itrace" --verify "$r.cat" --oracle "$r.oracle" 2>"$r.block.log"
    rb=$?
    if [ $ri -ne 0 ]; then echo "FAIL $n: insn engine exit $ri"; cat "$r.log"; fail=1; continue; fi
    if [ $rb -eq 2 ] && grep -q "block engine does not take this run" "$r.block.log"; then
      "$citcat" replay "$r.ims" "$r.aes" --engine auto -o "$r.auto.itrace" --verify "$r.cat" 2>>"$r.log" &&
        cmp -s "$r.insn.itrace" "$r.auto.itrace" || { echo "FAIL $n: auto after a refusal"; fail=1; continue; }
      echo "ok   $n (refused: $(sed -n 's/.*this run: //p' "$r.block.log"))"
      continue
    fi
    if [ $rb -ne 0 ]; then echo "FAIL $n: block engine exit $rb"; cat "$r.block.log"; fail=1; continue; fi
    if ! cmp "$r.insn.itrace" "$r.block.itrace"; then echo "FAIL $n: itraces differ"; fail=1; continue; fi
    case $n in irqdma*)
      if ! grep -Eq "block engine: [1-9][0-9]* blocks without the code hook, [1-9][0-9]* interrupts entered at or inside blocks, [1-9][0-9]* DMA transfers inside blocks" "$r.block.log"; then
        echo "FAIL $n: interrupts and DMA were not taken by the block engine"; cat "$r.block.log"; fail=1; continue
      fi;;
    esac
    # auto: the same bytes, whichever engine it chose
    if ! "$citcat" replay "$r.ims" "$r.aes" -o "$r.auto.itrace" --verify "$r.cat" --oracle "$r.oracle" 2>>"$r.log" ||
       ! cmp "$r.insn.itrace" "$r.auto.itrace"; then
      echo "FAIL $n: auto"; fail=1; continue
    fi
    # --verify alone: the block engine's path without records (blk_retire_run)
    if ! "$citcat" replay "$r.ims" "$r.aes" --engine block --verify "$r.cat" 2>>"$r.block.log"; then
      echo "FAIL $n: block engine, --verify alone"; cat "$r.block.log"; fail=1; continue
    fi
    # -o alone (no --verify: the memory-system model is skipped, REPLAY.md
    # "When the memory-system model runs"), both engines, and with --model
    for e in insn block; do
      for m in "" --model; do
        if ! "$citcat" replay "$r.ims" "$r.aes" --engine $e -o "$r.nm.itrace" $m 2>>"$r.block.log" ||
           ! cmp "$r.insn.itrace" "$r.nm.itrace"; then
          echo "FAIL $n: engine $e, -o alone ${m:-(no model)}"; fail=1; continue 3
        fi
      done
    done
    echo "ok   $n ($(stat -c %s "$r.block.itrace") bytes identical)"
  done
done
exit $fail
