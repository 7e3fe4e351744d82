#!/usr/bin/env bash
# Issue 31's scale figure (not a CTest; replay/SEGMENTS.md "Figures"):
# `replay --jobs 2` against `--jobs 1` on a checkpointed long run with
# interrupts and DMA, and the projection of the wall time of 1 B
# instructions on P cores with the Slurm recipe (one `plan` line per
# segment, then `citcat merge`).
# ELF (default: irqdma_big, a timer interrupt every 3000 cycles and a DMA
# stream restarted from its completion interrupt) is captured for INSNS
# instructions (default 100 M) with --checkpoint-every EVERY (default 10 M)
# and a DMA input of DMA_BYTES (default 2 MiB), extracted once (IMS and AES
# bundles), then replayed with `--verify RUN.cat -o OUT.itrace` by
# `--jobs 1` and `--jobs 2` in turn for ROUNDS rounds (default 2), then
# segment by segment (`--segment K`, what one Slurm task runs), and the
# segments merged; every itrace must be byte-identical to the first (exit 1
# if not).  It prints wall, user and system seconds and the peak RSS of
# each, the load, and the projection.  It never fails on time.
# Usage: jobs_scale.sh CITCAT ELF OUTDIR
# Environment: INSNS, EVERY, DMA_BYTES, ROUNDS, TARGET_INSNS (default
#   1000000000), CORES (default 64).
# Example: bash tests/jobs_scale.sh build/cli/citcat build/examples/irqdma_big.elf /tmp/js
set -u
[ $# = 3 ] || { echo "usage: $0 CITCAT ELF OUTDIR" >&2; exit 2; }
citcat=$(realpath -e -- "$1") || exit 2
elf=$(realpath -e -- "$2") || exit 2
out=$3
insns=${INSNS:-100000000}
every=${EVERY:-10000000}
dma=${DMA_BYTES:-2097152}
rounds=${ROUNDS:-2}
tinsns=${TARGET_INSNS:-1000000000}
cores=${CORES:-64}
mkdir -p "$out" || exit 2
cd "$out" || exit 2
rm -f seg.*.itrace
head -c "$dma" /dev/zero | tr '\0' '\145' >dma.bin
load() { cut -d' ' -f1-3 /proc/loadavg; }
bad=0
# timed NAME CMD...: runs CMD under /usr/bin/time, prints and keeps (in
# $w $u $s $m) its wall, user, system seconds and peak RSS in KB, and in
# $c the CPU seconds (user + system) the figures below add up
timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o t.time "$@" 2>"t.err"
  local rc=$?
  read -r w u s m <t.time
  c=$(echo "$u + $s" | bc)
  echo "$name: exit $rc, $w s wall, $u s user, $s s system, peak RSS $((m / 1024)) MB; load $(load)"
  if [ $rc != 0 ]; then echo "  FAILED: $(tail -3 t.err)"; bad=1; fi
  return $rc
}
echo "jobs_scale: $elf, $insns instructions, a checkpoint every $every, DMA input $dma bytes; load $(load)"
timed capture "$citcat" capture "$elf" --seed 1 -q -o run.cat --dma-in dma.bin --max-insns "$insns" \
  --checkpoint-every "$every" --uart-out /dev/null || [ $? = 3 ] || exit 1
cu=$c
timed ims "$citcat" ims run.cat -o run.ims || exit 1
eu=$c
nseg=$(grep -o "[0-9]* segments" t.err | grep -o "[0-9]*")
[ -n "$nseg" ] || { echo "no segments: $(cat t.err)"; exit 1; }
timed aes "$citcat" aes run.cat -o run.aes || exit 1
eu=$(echo "$eu + $c" | bc)
grep . t.err | sed 's/^/  /'
declare -A su
for ((i = 1; i <= rounds; i++)); do
  for j in 1 2; do
    timed "round $i: replay --jobs $j --verify -o" "$citcat" replay run.ims run.aes --jobs "$j" --verify run.cat -o "j$j.itrace" -q
    su["$i $j"]=$c
    if [ -f ref.itrace ]; then
      cmp -s ref.itrace "j$j.itrace" || { echo "  the itrace of --jobs $j differs"; bad=1; }
      rm -f "j$j.itrace"
    else
      mv "j$j.itrace" ref.itrace
    fi
  done
done
# one Slurm task: one segment, --verify, its itrace
max=0 sum=0 segs=()
for ((k = 0; k < nseg; k++)); do
  timed "segment $k" "$citcat" replay run.ims run.aes --segment "$k" --verify run.cat -o "seg.$k.itrace" -q
  sum=$(echo "$sum + $c" | bc)
  [ "$(echo "$c > $max" | bc)" = 1 ] && max=$c
  segs+=("seg.$k.itrace")
done
timed merge "$citcat" merge "${segs[@]}" -o merged.itrace
mu=$c
cmp -s ref.itrace merged.itrace && echo "merged: identical to --jobs 1" || { echo "merged: DIFFERS"; bad=1; }
echo
echo "segments: ${#segs[@]}, CPU seconds per segment: max $max, sum $sum"
echo "--jobs 1 / --jobs 2 CPU seconds (user + system) per round: $(for ((i = 1; i <= rounds; i++)); do printf '%s/%s ' "${su["$i 1"]}" "${su["$i 2"]}"; done)"
# Projection: TARGET_INSNS on CORES cores, one segment of TARGET_INSNS/CORES
# instructions per task (Slurm array); the capture and the extraction run
# once (serially, in proportion to the length), the longest task is the
# longest segment measured here scaled to its length, then the merge
# (splicing, in proportion to the length).
seglen=$((tinsns / cores))
per=$(echo "scale=9; $max / $every" | bc)
crit=$(echo "scale=2; ($eu * $tinsns / $insns + $per * $seglen + $mu * $tinsns / $insns) / 1" | bc)
serial=$(echo "scale=2; $eu * $tinsns / $insns + ${su["1 1"]} * $tinsns / $insns" | bc)
echo "projection for $tinsns instructions on $cores cores (CPU seconds, user + system, as measured here; the capture, $(echo "scale=1; $cu * $tinsns / $insns" | bc) s, not counted):"
echo "  extraction $(echo "scale=2; $eu * $tinsns / $insns" | bc) s (ims + aes, serial) + the longest segment of $seglen instructions $(echo "scale=2; $per * $seglen / 1" | bc) s + merge $(echo "scale=2; $mu * $tinsns / $insns" | bc) s = $crit s"
echo "  against serial extraction + replay --jobs 1 --verify -o: $serial s"
echo "load at the end: $(load)"
exit $bad
