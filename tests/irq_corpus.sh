#!/usr/bin/env bash
# A corpus of third-party programs under a periodic timer interrupt and a
# DMA stream (issue 31: "the default never loses" on code we did not write;
# a benchmark's input, not a CTest).  Each program is linked with
# tests/fidelity/harness.c (--wrap=main), whose entropy word 0xC00F0BB8
# starts a timer every 2000 + 3000 cycles and a 256-byte DMA stream
# restarted from the timer's handler once the last transfer completed
# (harness.c), and built for ARM and Thumb-2 with examples/bsp; each build
# is captured with the default engine (--seed 1, at most 3 M instructions)
# and extracted.  OUT/NAME.ims, .aes, .cat and .ref.itrace are what
# tests/engines_cg.sh OUT CITCAT takes (and bench_corpus.sh's KEEP layout).
#
# Usage: irq_corpus.sh OUT CITCAT [--csmith FIRST:COUNT] [--mibench DIR NAME...]
#   --csmith: Csmith programs with those seeds (the campaign's options);
#   --mibench: MiBench2 programs (github.com/impedimentToProgress/MiBench2,
#     not a Debian package) from their source tree DIR, each NAME a
#     directory there whose Makefile lists its OBJS, built with -DBARE_METAL
#     and OUT/src/mb_stubs.c (written here: the board calls some of them
#     make, initLED, LED, PUT32 and GET32, as calls that do nothing).
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUT CITCAT [--csmith FIRST:COUNT] [--mibench DIR NAME...]" >&2; exit 2; }
out=$1 C=$(realpath -e -- "$2") || exit 2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
bsp=$root/examples/bsp harness=$root/tests/fidelity/harness.c
mkdir -p "$out/src" && cd "$out" || exit 2
printf '\xb8\x0b\x0f\xc0' >entropy
# one build: NAME ISA SRC... [-- CPPFLAGS]
one() {
  local n=$1 isa=$2 src=$3 cpp=$4 cf=$5
  local mk=(-f "$bsp/firmware.mk")
  [ "$isa" = thumb ] && mk+=(THUMB=1)
  nice make -s "${mk[@]}" SRC="$src $harness" OUT="src/$n.elf" CPPFLAGS_EXTRA="$cpp" CFLAGS_EXTRA="$cf" \
    LDFLAGS_EXTRA="-Wl,--wrap=main" >"src/$n.log" 2>&1 || { echo "$n: build failed (src/$n.log)"; return; }
  "$C" capture "src/$n.elf" --seed 1 -q --max-insns 3M -o "$n.cat" --oracle "$n.ref.itrace" --entropy-in entropy \
    --uart-out /dev/null 2>"src/$n.cap"
  local rc=$?
  [ $rc = 0 ] || [ $rc = 3 ] || { echo "$n: capture exit $rc"; rm -f "$n".*; return; }
  "$C" ims "$n.cat" -o "$n.ims" 2>/dev/null && "$C" aes "$n.cat" -o "$n.aes" 2>/dev/null ||
    { echo "$n: extraction failed"; rm -f "$n".*; return; }
  "$C" info "$n.cat" | awk -v n="$n" '$1 == "trace" { for (k = 2; k < NF; k++) if ($(k + 1) ~ /^instructions/) t = $k }
    $1 == "irq" { i = $2 } $1 == "dma" { d = $2 }
    END { printf "%s: %s instructions, %d interrupts, %d DMA events\n", n, t, i, d }'
}
while [ $# -gt 0 ]; do
  case $1 in
  --csmith)
    first=${2%:*} count=${2#*:}
    shift 2
    for ((s = first; s < first + count; s++)); do
      csmith --seed $s --no-argc --max-funcs 6 --max-block-depth 4 -o src/cs$s.c >/dev/null 2>&1 || continue
      for isa in arm thumb; do one cs${s}_$isa $isa src/cs$s.c "" "-I/usr/include/csmith -w -Wa,--no-warn"; done
    done ;;
  --mibench)
    dir=$(realpath -e -- "$2") || exit 2
    shift 2
    printf '%s\n' 'void initLED(void) {}' 'void LED(int on) { (void)on; }' 'void PUT32(unsigned a, unsigned v) { (void)a; (void)v; }' \
      'unsigned GET32(unsigned a) { (void)a; return 0; }' >src/mb_stubs.c
    while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do
      d=$1 src=
      shift
      for o in $(grep -E '^OBJS' "$dir/$d/Makefile" | head -n 1 | sed 's/.*=//'); do
        b=${o%.o}
        b=${b%.c}
        [ -f "$dir/$d/$b.c" ] || { src=; break; }
        src="$src $dir/$d/$b.c"
      done
      [ -n "$src" ] || { echo "$d: sources not found"; continue; }
      for isa in arm thumb; do one mb_${d}_$isa $isa "$src src/mb_stubs.c" "-DBARE_METAL -I$dir/$d" "-std=gnu99 -w"; done
    done ;;
  *) echo "$0: unknown option $1" >&2; exit 2 ;;
  esac
done
