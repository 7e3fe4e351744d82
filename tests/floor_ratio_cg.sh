#!/bin/sh
# The block replay engine against its floor, in host instructions (issue 31):
# a stable measure of the ratio `citcat bench corpus` prints from wall clock.
#
#   tests/floor_ratio_cg.sh CITCAT FIRMWARE.elf [capture args...]
#
# Captures FIRMWARE (--seed 1, the oracle itrace too), extracts the IMS and
# AES, then counts with callgrind (valgrind --tool=callgrind):
#  - the floor: the timed part of the block engines' floor, an empty block
#    hook and memory hook (citcat_bench_bare_run's
#    CITCAT_BENCH_BARE_FLOOR_BLOCK, run by tests/floor_run next to CITCAT's
#    build, or $FLOOR_RUN), collected inside bare_timed_start only
#    (bench/bench_bare.c: its uc_emu_start calls, not the untimed IRQ entry,
#    DMA copy and shadow run between them);
#  - the captures `citcat capture FIRMWARE.elf --engine block` without and
#    with --oracle, collected inside uc_emu_start and cblk_switch (every
#    hook runs inside the first; the second moves the run between the
#    capture's two engines), the traced and untraced instructions alike
#    (the floor runs the traced ones: a start-up before the trace start
#    counts against the capture);
#  - the replays `citcat replay X.ims X.aes --verify X.cat --engine block -q`
#    and `... -o X.itrace --engine block -q`, collected inside replay_run only
#    (replay/replay_common.c: the run loop, its hooks and what they call on
#    the replay's thread; opening the inputs and engine before, and
#    finishing after, are left out, as the floor leaves them out).
# Prints host instructions of each, per guest instruction, and the ratio
# floor / replay (what bench corpus calls "/floor": 1.0 is the floor's
# speed).  A benchmark: it prints, it never passes or fails on the numbers.
# Callgrind counts the collecting thread only: a replay that hands its
# cache model to the model thread (REPLAY.md "session 12") is counted
# without the thread's work.  Work files go to $TMPDIR (or /tmp).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 CITCAT FIRMWARE.elf [capture args...]" >&2; exit 2; }
C=$1; ELF=$2; shift 2
FR=${FLOOR_RUN:-$(dirname "$C")/../tests/floor_run}
[ -x "$FR" ] || { echo "$0: no floor_run at $FR (set FLOOR_RUN)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found" >&2; exit 2; }
D=$(mktemp -d "${TMPDIR:-/tmp}/floorcg.XXXXXX")
trap 'rm -rf "$D"' EXIT
X=$D/run
"$C" capture "$ELF" --seed 1 -q -o "$X.cat" --uart-out /dev/null --oracle "$X.oracle.itrace" "$@"
"$C" ims "$X.cat" -o "$X.ims" 2>"$D/ims.log" || { cat "$D/ims.log" >&2; exit 1; }
"$C" aes "$X.cat" -o "$X.aes" 2>"$D/aes.log" || { cat "$D/aes.log" >&2; exit 1; }

# Ir collected (the summary line of a callgrind output file)
ir() { awk '/^summary:/ {print $2; exit}' "$1"; }
cg() { # OUT FN CMD...
	o=$1; f=$2; shift 2
	valgrind --tool=callgrind --callgrind-out-file="$o" --toggle-collect="$f" "$@" >"$o.stdout" 2>"$o.log" ||
		{ echo "$0: failed: $*" >&2; cat "$o.log" >&2; exit 1; }
}
cg "$D/floor.cg" bare_timed_start "$FR" "$X.ims" "$X.aes" "$X.oracle.itrace"
N=$(awk '{print $2; exit}' "$D/floor.cg.stdout")
cg "$D/verify.cg" replay_run "$C" replay "$X.ims" "$X.aes" --verify "$X.cat" --engine block -q
cg "$D/itrace.cg" replay_run "$C" replay "$X.ims" "$X.aes" -o "$X.itrace" --engine block -q
cmp -s "$X.itrace" "$X.oracle.itrace" || echo "$0: warning: the block engine's itrace differs from the oracle" >&2
# the capture: its Unicorn runs (every hook is called from inside them) and
# the moves between its two engines (capture/TARGET.md "Two engines")
cgc() { # OUT CMD...
	o=$1; shift
	valgrind --tool=callgrind --callgrind-out-file="$o" --toggle-collect=uc_emu_start --toggle-collect=cblk_switch "$@" \
		>"$o.stdout" 2>"$o.log" || { echo "$0: failed: $*" >&2; cat "$o.log" >&2; exit 1; }
}
cgc "$D/cap.cg" "$C" capture "$ELF" --seed 1 -q -o "$D/c.cat" --uart-out /dev/null --engine block "$@"
cgc "$D/capo.cg" "$C" capture "$ELF" --seed 1 -q -o "$D/c.cat" --uart-out /dev/null --oracle "$D/c.itrace" --engine block "$@"
F=$(ir "$D/floor.cg"); V=$(ir "$D/verify.cg"); I=$(ir "$D/itrace.cg"); K=$(ir "$D/cap.cg"); O=$(ir "$D/capo.cg")
awk -v n="$N" -v f="$F" -v v="$V" -v i="$I" -v k="$K" -v o="$O" -v elf="$(basename "$ELF")" 'BEGIN {
	printf "%s: %d guest instructions\n", elf, n
	printf "  %-34s %15s %10s %8s\n", "host instructions (callgrind)", "total", "per insn", "/floor"
	printf "  %-34s %15.0f %10.1f %8.3f\n", "floor (block+mem hooks)", f, f / n, 1
	printf "  %-34s %15.0f %10.1f %8.3f\n", "capture (block)", k, k / n, f / k
	printf "  %-34s %15.0f %10.1f %8.3f\n", "capture + oracle (block)", o, o / n, f / o
	printf "  %-34s %15.0f %10.1f %8.3f\n", "replay --verify (block)", v, v / n, f / v
	printf "  %-34s %15.0f %10.1f %8.3f\n", "replay -> itrace (block)", i, i / n, f / i
}'
