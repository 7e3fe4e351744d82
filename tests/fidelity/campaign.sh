#!/usr/bin/env bash
# The random-program campaign (issue 36, part 3; tests/fidelity/README.md).
#
# Generates programs (Csmith with seeds, and tests/fidelity/fidgen.c for the
# accesses Csmith does not make), builds each with both board-support
# packages (ARM, Thumb-2: examples/bsp; Cortex-M7: examples/bsp-m7) linked
# with tests/fidelity/harness.c, and runs each build under a baseline and K
# random machine configurations:
#   caches: I and D geometry (1K..32K, 1..8 ways, 16..128-byte lines),
#           policy lru|fifo|plru|random, D write-back or write-through;
#   async:  a periodic timer interrupt, with or without a DMA stream into
#           the harness's buffer (sometimes from a short --dma-in file
#           that runs out), the period and burst random;
#   checkpoints (--checkpoint-every) replayed serially and with --jobs 2;
#   the capture's and the replay's engine, timestamps, the device seed.
# Checks, for every run: the capture ends by EXIT with the program's
# checksum line identical to the baseline's (and the baseline's identical
# on ARM, Thumb and the M7); ims/aes and replay --verify --oracle exact;
# with checkpoints the --jobs 2 replay too; the LVT (byte or word
# granules) decodes to the oracle; the DAF rebuilds the itrace's din, over
# the itrace's flow and over SDC-LSP with the ELF; the LVT/DAF capture's
# oracle equals the first capture's (without checkpoints).
#
# Every failure keeps its directory (program, ELF, the commands in repro.sh,
# the logs) under OUT/fail/.  The summary counts programs x configurations
# exactly; the exit status is 0 only when nothing failed.
#
# Usage: campaign.sh [--citcat PATH] [--fidgen PATH] [--out DIR]
#          [--csmith FIRST:COUNT] [--fidgen-seeds FIRST:COUNT] [--configs K]
#          [--isa "arm thumb m7"] [--max-insns N] [--parallel N]
# Defaults: build/cli/citcat and build/tests/fidgen of this tree, a new
# directory under /tmp, --csmith 1:4, --fidgen-seeds 1:4, --configs 3, all
# three ISAs, --max-insns 20M (programs that do not end by then are
# skipped and counted), --parallel 1.  CAMPAIGN_REPLAY_ENGINE=E in the
# environment replays every run with --engine E (the M7's block: auto);
# CAMPAIGN_ENGINE_LOG=FILE appends the block engine's summary line of
# every replay to FILE.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
citcat=$root/build/cli/citcat
fidgen=$root/build/tests/fidgen
out=
cs=1:4 fg=1:4 K=3 isas="arm thumb m7" maxi=20M par=1
while [ $# -gt 0 ]; do
  case $1 in
    --citcat) citcat=$2; shift 2 ;;
    --fidgen) fidgen=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --csmith) cs=$2; shift 2 ;;
    --fidgen-seeds) fg=$2; shift 2 ;;
    --configs) K=$2; shift 2 ;;
    --isa) isas=$2; shift 2 ;;
    --max-insns) maxi=$2; shift 2 ;;
    --parallel) par=$2; shift 2 ;;
    *) echo "campaign.sh: unknown option $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done
[ -x "$citcat" ] || { echo "campaign.sh: no citcat at $citcat (--citcat)" >&2; exit 2; }
command -v csmith >/dev/null || [ "${cs#*:}" = 0 ] || { echo "campaign.sh: csmith is not installed (Debian: csmith libcsmith-dev)" >&2; exit 2; }
[ -x "$fidgen" ] || [ "${fg#*:}" = 0 ] || { echo "campaign.sh: no fidgen at $fidgen (--fidgen)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d /tmp/fidelity-campaign.XXXXXX)
rm -rf "$out/fail" "$out/res" "$out/work" # a fresh start (CTest reuses its directory)
mkdir -p "$out/fail" "$out/res"
out=$(cd "$out" && pwd)
bsp=$root/examples/bsp bspm7=$root/examples/bsp-m7
csinc=/usr/include/csmith

# rng: a 31-bit LCG on the caller's variable st (deterministic on any
# bash), the draw in r; pick ARRAY: a random element in P; geometry: a
# random SIZE:WAYS:LINE:POLICY in G.  No subshells: they would lose st.
rng() { st=$(( (st * 1103515245 + 12345) & 0x7fffffff )); r=$(( st >> 8 )); }
pick() { local -n a=$1; rng; P=${a[$(( r % ${#a[@]} ))]}; }
sizes=(1K 2K 4K 8K 16K 32K) lines=(16 32 64 128) wayss=(1 2 4 8) pols=(lru fifo plru random) engs=(auto insn block)
geometry() {
  local s l w
  pick sizes; s=$P
  pick lines; l=$P
  pick wayss; w=$P
  while [ $(( w * l )) -gt $(( ${s%K} * 1024 )) ]; do w=$(( w / 2 )); done
  pick pols
  G=$s:$w:$l:$P
}

build() { # PROG.c ISA OUT.elf
  local mk=("-f" "$bsp/firmware.mk")
  case $2 in thumb) mk+=(THUMB=1) ;; m7) mk=("-f" "$bspm7/firmware.mk") ;; esac
  nice make -s "${mk[@]}" SRC="$1 $here/harness.c" OUT="$3" CFLAGS_EXTRA="-I$csinc -w -Wa,--no-warn" \
    LDFLAGS_EXTRA="-Wl,--wrap=main" >"$3.build.log" 2>&1
}

# one program: NAME KIND SEED; writes $out/res/NAME (counts) and failure dirs
program() {
  local name=$1 kind=$2 seed=$3 d=$out/work/$1
  rm -rf "$d"
  mkdir -p "$d"
  local runs=0 fails=0 skipped=0 sums=""
  local -a rec=()
  if [ "$kind" = csmith ]; then
    csmith --seed "$seed" --no-argc --max-funcs 6 --max-block-depth 4 -o "$d/prog.c" >/dev/null 2>&1
  else
    "$fidgen" "$seed" >"$d/prog.c"
  fi || { echo "gen_failed 1" >"$out/res/$name"; return; }
  local isa
  for isa in $isas; do
    local elf=$d/$isa.elf
    if ! build "$d/prog.c" "$isa" "$elf"; then
      if [ "$kind" = fidgen ]; then # the generator's own programs must build
        fails=$((fails + 1)); mkdir -p "$out/fail/$name.$isa.build"; cp "$d/prog.c" "$elf.build.log" "$out/fail/$name.$isa.build/"
      fi
      rec+=("build_failed_$isa")
      continue
    fi
    local st=$(( (seed * 7919 + ${#isa} * 104729 + ${#kind} * 15485863) & 0x7fffffff )) r P G
    local base_sum= base_insns= k
    for ((k = 0; k <= K; k++)); do
      local w=$d/$isa.$k
      mkdir -p "$w"
      local -a cap=(--seed 1 -q --max-insns "$maxi") lvtcap
      local ic=16K:4:32:lru dc=16K:4:32:lru wr=wb async=0 ck= eng=auto reng=auto ts= dmain= gran=byte word=0
      if [ $k -gt 0 ]; then
        geometry; ic=$G
        geometry; dc=$G
        rng; [ $(( r % 2 )) = 1 ] && wr=wt
        rng; async=$(( r % 2 ))
        rng; word=$(( (r % 2) << 30 | (r >> 1 & 0x3f) << 16 | (r >> 7 & 0x3fff) ))
        rng; [ $(( r % 3 )) = 0 ] && ck=$(( base_insns / (2 + r % 6) )) && [ "$ck" -lt 1000 ] && ck=1000
        pick engs; eng=$P
        pick engs; reng=$P
        rng; [ $(( r % 5 )) = 0 ] && ts=--timestamps
        rng; [ $(( r % 4 )) = 0 ] && dmain=1
        rng; [ $(( r % 2 )) = 0 ] && gran=word
        # room for the interrupts' handlers; a run that still does not end is a failure
        rng; cap=(--seed $(( r % 1000000 + 1 )) -q --max-insns $(( 3 * base_insns + 2000000 )))
      fi
      # CAMPAIGN_REPLAY_ENGINE (insn, block, auto) replaces the drawn
      # replay engine, to put one engine through every run
      [ -n "${CAMPAIGN_REPLAY_ENGINE:-}" ] && reng=$CAMPAIGN_REPLAY_ENGINE
      # the block engines refuse the M7 (capture and replay) and checkpoints (capture)
      [ "$isa" = m7 ] && [ "$eng" = block ] && eng=auto
      [ "$isa" = m7 ] && [ "$reng" = block ] && reng=auto
      [ -n "$ck" ] && eng=insn
      # the entropy word: the harness's switch (harness.c)
      local ew=0
      [ "$async" = 1 ] && ew=$(( 0x80000000 | word ))
      printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((ew & 255)) $((ew >> 8 & 255)) $((ew >> 16 & 255)) $((ew >> 24 & 255)))" >"$w/entropy"
      cap+=(--icache "$ic" --dcache "$dc" --dcache-write "$wr" --entropy-in "$w/entropy" --uart-out "$w/uart")
      [ -n "$ts" ] && cap+=($ts)
      [ -n "$dmain" ] && { head -c $(( 512 + (st % 8192) )) "$d/prog.c" >"$w/dma.in"; cap+=(--dma-in "$w/dma.in"); }
      lvtcap=("${cap[@]}")
      [ -n "$ck" ] && cap+=(--checkpoint-every "$ck")
      local desc="$name $isa cfg$k: icache $ic dcache $dc $wr async=$async$([ "$async" = 1 ] && printf ' word=0x%08x' $ew) ck=${ck:-none} engine=$eng/$reng ${ts} ${dmain:+dma-in} lvt-gran=$gran"
      echo "$desc" >"$w/desc"
      local cmds=$w/repro.sh
      {
        echo "#!/usr/bin/env bash"
        echo "# $desc"
        echo "set -x"
        echo "C=$citcat ELF=$elf W=$w"
        echo "\$C capture \$ELF -o \$W/run.cat --oracle \$W/run.itrace --engine $eng ${cap[*]}"
        echo "\$C ims \$W/run.cat -o \$W/run.ims && \$C aes \$W/run.cat -o \$W/run.aes"
        echo "\$C replay \$W/run.ims \$W/run.aes --verify \$W/run.cat --oracle \$W/run.itrace --engine $reng"
        [ -n "$ck" ] && echo "\$C replay \$W/run.ims \$W/run.aes --jobs 2 -o \$W/jobs.itrace --verify \$W/run.cat --oracle \$W/run.itrace"
        echo "\$C capture \$ELF --lvt \$W/run.lvt --lvt-gran $gran --daf \$W/run.daf --oracle \$W/lvt.itrace ${lvtcap[*]}"
        echo "\$C replay --lvt \$W/run.lvt --image \$ELF --oracle \$W/lvt.itrace"
        echo "\$C convert \$W/lvt.itrace -o \$W/run.din --uncached; \$C convert \$W/lvt.itrace --daf \$W/run.daf --uncached -o \$W/it.din; cmp \$W/run.din \$W/it.din"
      } >"$cmds"
      local why=
      "$citcat" capture "$elf" -o "$w/run.cat" --oracle "$w/run.itrace" --engine "$eng" "${cap[@]}" >"$w/cap.out" 2>"$w/cap.err"
      local rc=$?
      local sum
      sum=$(grep -a -m 1 "^checksum = " "$w/uart" 2>/dev/null)
      if [ $k = 0 ]; then
        local stop
        stop=$("$citcat" info --json "$w/run.cat" 2>/dev/null | grep -o '"stop": "[a-z-]*"' | head -n 1)
        if [ $rc != 0 ] || [ "$stop" != '"stop": "exit"' ] || [ -z "$sum" ]; then
          skipped=$((skipped + 1)) # does not end within --max-insns (or faults) in the plain machine
          rec+=("skipped_$isa")
          rm -rf "$w"
          break
        fi
        base_sum=$sum
        base_insns=$("$citcat" info --json "$w/run.cat" 2>/dev/null | grep -o '"instructions": [0-9]*' | head -n 1 | sed 's/.*: //')
        sums="$sums $isa=${sum#checksum = }"
      fi
      runs=$((runs + 1))
      [ $rc = 0 ] || why="capture exited $rc: $(head -c 300 "$w/cap.err")"
      [ -z "$why" ] && [ $k -gt 0 ] && ! "$citcat" info --json "$w/run.cat" 2>/dev/null | grep -q '"stop": "exit"' \
        && why="the run did not end by EXIT within $(( 3 * base_insns + 2000000 )) instructions (the baseline's: $base_insns)"
      [ -z "$why" ] && [ "$sum" != "$base_sum" ] && why="checksum '$sum', baseline '$base_sum'"
      if [ -z "$why" ]; then
        "$citcat" ims "$w/run.cat" -o "$w/run.ims" >/dev/null 2>"$w/ims.err" || why="ims: $(head -c 300 "$w/ims.err")"
      fi
      [ -z "$why" ] && { "$citcat" aes "$w/run.cat" -o "$w/run.aes" >/dev/null 2>"$w/aes.err" || why="aes: $(head -c 300 "$w/aes.err")"; }
      if [ -z "$why" ]; then
        # (a checkpointed IMS replays segment by segment: "every segment's bus
        # trace verified", then "the merged instruction trace equals the oracle")
        "$citcat" replay "$w/run.ims" "$w/run.aes" --verify "$w/run.cat" --oracle "$w/run.itrace" --engine "$reng" >/dev/null 2>"$w/rep.err" \
          && grep -q "bus trace verified" "$w/rep.err" && grep -q "instruction trace equals the oracle" "$w/rep.err" \
          || why="replay: $(head -c 400 "$w/rep.err")"
        # what the block engine did (its summary line), for a campaign that
        # must show it went through a path (CAMPAIGN_ENGINE_LOG=FILE)
        [ -n "${CAMPAIGN_ENGINE_LOG:-}" ] && { grep -h "block engine:" "$w/rep.err" >>"$CAMPAIGN_ENGINE_LOG" || true; }
      fi
      if [ -z "$why" ] && [ -n "$ck" ]; then
        "$citcat" replay "$w/run.ims" "$w/run.aes" --jobs 2 -o "$w/jobs.itrace" --verify "$w/run.cat" --oracle "$w/run.itrace" >/dev/null 2>"$w/jobs.err" \
          || why="replay --jobs 2: $(head -c 400 "$w/jobs.err")"
        [ -z "$why" ] && ! cmp -s "$w/jobs.itrace" "$w/run.itrace" && why="replay --jobs 2: its itrace differs from the oracle"
      fi
      if [ -z "$why" ]; then
        "$citcat" capture "$elf" --lvt "$w/run.lvt" --lvt-gran $gran --daf "$w/run.daf" --oracle "$w/lvt.itrace" "${lvtcap[@]}" >/dev/null 2>"$w/lcap.err" \
          || why="capture --lvt --daf: $(head -c 300 "$w/lcap.err")"
      fi
      if [ -z "$why" ] && [ -z "$ck" ] && ! cmp -s "$w/lvt.itrace" "$w/run.itrace"; then
        why="the LVT/DAF capture's oracle differs from the first capture's"
      fi
      if [ -z "$why" ]; then
        "$citcat" replay --lvt "$w/run.lvt" --image "$elf" --oracle "$w/lvt.itrace" >/dev/null 2>"$w/lvt.err" \
          && grep -q "instruction trace equals the oracle" "$w/lvt.err" || why="LVT decode: $(head -c 400 "$w/lvt.err")"
      fi
      if [ -z "$why" ]; then
        "$citcat" convert "$w/lvt.itrace" -o "$w/run.din" --uncached 2>/dev/null \
          && "$citcat" convert "$w/lvt.itrace" --daf "$w/run.daf" --uncached -o "$w/it.din" 2>"$w/daf.err" && cmp -s "$w/run.din" "$w/it.din" \
          || why="DAF over the itrace's flow: $(head -c 300 "$w/daf.err")"
      fi
      # SDC-LSP follows the program flow through the ELF's bytes: code the
      # program writes at run time (fidgen's smc) is in no image, so such
      # programs are checked over the itrace's flow only (README.md)
      if [ -z "$why" ] && ! grep -q "^		smc(" "$d/prog.c"; then
        "$citcat" convert "$w/lvt.itrace" -o "$w/run.sdc" --to sdclsp:r:32x4,128 2>/dev/null \
          && "$citcat" convert "$w/run.sdc" --daf "$w/run.daf" --image "$elf" --uncached -o "$w/flow.din" 2>"$w/daf.err" \
          && cmp -s "$w/run.din" "$w/flow.din" || why="DAF over SDC-LSP: $(head -c 300 "$w/daf.err")"
      fi
      if [ -n "$why" ]; then
        fails=$((fails + 1))
        echo "FAIL $desc: $why" >"$w/FAIL"
        cp "$d/prog.c" "$w/"
        cp "$elf" "$w/"
        mv "$w" "$out/fail/$name.$isa.cfg$k"
        echo "FAIL $desc: $why" >&2
      else
        rm -rf "$w"
      fi
    done
  done
  # the same checksum on every ISA (a UB-free program; the same ABI)
  local u
  u=$(tr ' ' '\n' <<<"$sums" | sed '/^$/d; s/^[a-z0-9]*=//' | sort -u | wc -l)
  if [ "$u" -gt 1 ]; then
    fails=$((fails + 1))
    mkdir -p "$out/fail/$name.isas"
    cp "$d/prog.c" "$d"/*.elf "$out/fail/$name.isas/" 2>/dev/null
    echo "FAIL $name: checksums differ between ISAs:$sums" | tee "$out/fail/$name.isas/FAIL" >&2
  fi
  echo "runs $runs fails $fails skipped $skipped sums$sums ${rec[*]}" >"$out/res/$name"
  [ "$fails" = 0 ] && rm -rf "$d"
}
list=()
IFS=: read -r a n <<<"$cs"
for ((i = 0; i < n; i++)); do list+=("cs$((a + i)) csmith $((a + i))"); done
IFS=: read -r a n <<<"$fg"
for ((i = 0; i < n; i++)); do list+=("fg$((a + i)) fidgen $((a + i))"); done
t0=$(date +%s)
running=0
for item in "${list[@]}"; do
  set -- $item
  program "$@" &
  running=$((running + 1))
  if [ "$running" -ge "$par" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
t1=$(date +%s)

# the summary
progs=0 runs=0 fails=0 skipped=0 gen=0
for f in "$out"/res/*; do
  [ -e "$f" ] || continue
  progs=$((progs + 1))
  read -r _ r _ fl _ s _ <"$f" || true
  if grep -q "^gen_failed" "$f"; then gen=$((gen + 1)); continue; fi
  runs=$((runs + r)) fails=$((fails + fl)) skipped=$((skipped + s))
done
nfail=$(find "$out/fail" -mindepth 1 -maxdepth 1 -type d | wc -l)
echo "campaign: $progs programs (csmith $cs, fidgen $fg), ISAs: $isas, $K random configurations + the baseline each:"
echo "campaign: $runs runs (program x ISA x configuration) checked, $skipped program x ISA skipped (no EXIT within $maxi instructions in the baseline), $gen not generated"
echo "campaign: $fails failure(s)$([ "$nfail" -gt 0 ] && echo ", kept under $out/fail"), $((t1 - t0)) s"
echo "campaign: results in $out/res, summary: $out/summary.txt"
cat "$out"/res/* >"$out/summary.txt" 2>/dev/null
[ "$fails" = 0 ]
