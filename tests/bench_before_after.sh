#!/usr/bin/env bash
# Before/after benchmark (issue 14; not a CTest, replay/REPLAY.md "Before
# and after").  Builds two revisions of this repository (each in a git
# worktree in a temporary directory, release build of the citcat CLI), then
# runs `citcat bench all --json --formats ""` of each on the long examples,
# alternating BEFORE and AFTER for ROUNDS rounds, and prints one table per
# example: every phase's Minsn/s (the best of the rounds, and each round's)
# for both revisions and the ratio AFTER / BEFORE.  Both revisions run the
# same firmware ELFs (the AFTER tree's examples), so they do the same work.
# It prints numbers and never fails on speed.
#
# Usage: bench_before_after.sh REV_BEFORE [REV_AFTER]
#   REV_AFTER defaults to HEAD.  Environment:
#   ROUNDS (default 2)  rounds of BEFORE then AFTER per example
#   ELFS                firmware to run, separated by blanks, relative to
#                       the current directory or absolute (default:
#                       matmul_long.elf and sha256_long.elf of the AFTER
#                       build)
#   KEEP=1              keep the temporary directory (the builds)
#   BEFORE_CITCAT, AFTER_CITCAT  use these citcat binaries (relative or
#                       absolute paths) instead of building (both set;
#                       ELFS then has no default
#                       unless the AFTER revision's examples are built)
# Everything runs under `nice`; the machine's load is printed before and
# after, since the figures are wall-clock rates of the measured loops.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 REV_BEFORE [REV_AFTER]" >&2; exit 2; }
before=$1 after=${2:-HEAD}
rounds=${ROUNDS:-2}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rb=$(git -C "$repo" rev-parse --verify "$before^{commit}") || { echo "$0: no revision $before" >&2; exit 2; }
ra=$(git -C "$repo" rev-parse --verify "$after^{commit}") || { echo "$0: no revision $after" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/citcat-before-after-XXXXXX")
cleanup() {
  for s in before after; do
    [ -d "$tmp/$s" ] && git -C "$repo" worktree remove --force "$tmp/$s" >/dev/null 2>&1
  done
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build SIDE REV [TARGETS...]: a release build of REV in $tmp/SIDE
build() {
  local side=$1 rev=$2
  shift 2
  git -C "$repo" worktree add --detach "$tmp/$side" "$rev" >/dev/null 2>&1
  echo "== building $side: $(git -C "$repo" log -1 --format='%h %s' "$rev")" >&2
  nice cmake -S "$tmp/$side" -B "$tmp/$side/build" -DCMAKE_BUILD_TYPE=Release >"$tmp/$side.log" 2>&1 &&
    nice cmake --build "$tmp/$side/build" -j2 --target citcat_cli "$@" >>"$tmp/$side.log" 2>&1 ||
    { echo "$0: the $side build failed; see $tmp/$side.log" >&2; KEEP=1; exit 2; }
}
# abspath NAME PATH: PATH made absolute (the runs below change directory,
# so a relative path given by the caller would name nothing there); an
# error naming the variable if PATH is not an existing file
abspath() {
  [ -f "$2" ] || { echo "$0: $1: no file $2" >&2; exit 2; }
  realpath -e -- "$2"
}
# resolve the caller's ELFS before anything changes directory
elfs=()
if [ -n "${ELFS:-}" ]; then
  read -r -a given <<<"$ELFS"
  for e in "${given[@]}"; do elfs+=("$(abspath ELFS "$e")"); done
fi
if [ -n "${BEFORE_CITCAT:-}" ] && [ -n "${AFTER_CITCAT:-}" ]; then
  B=$(abspath BEFORE_CITCAT "$BEFORE_CITCAT")
  A=$(abspath AFTER_CITCAT "$AFTER_CITCAT")
  [ ${#elfs[@]} -gt 0 ] || { echo "$0: BEFORE_CITCAT and AFTER_CITCAT need ELFS" >&2; exit 2; }
else
  build before "$rb"
  build after "$ra" firmware_matmul_long firmware_sha256_long
  B=$tmp/before/build/cli/citcat A=$tmp/after/build/cli/citcat
fi
if [ ${#elfs[@]} -eq 0 ]; then
  elfs=("$tmp/after/build/examples/matmul_long.elf" "$tmp/after/build/examples/sha256_long.elf")
fi

# phases FILE: "phase<TAB>minsn_s" lines of a bench all --json output
# (the bare run as the phase "bare Unicorn")
phases() {
  grep -o '"bare": {[^}]*"minsn_s": [0-9.]*' "$1" | sed 's/.*"minsn_s": /bare Unicorn\t/' || true
  grep -o '"phase": "[^"]*"[^}]*"minsn_s": [0-9.]*' "$1" | sed 's/"phase": "\([^"]*\)".*"minsn_s": \([0-9.]*\)/\1\t\2/'
}

echo "== $(date -u '+%F %T UTC')  $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== before: $(git -C "$repo" log -1 --format='%h %s' "$rb")"
echo "== after:  $(git -C "$repo" log -1 --format='%h %s' "$ra")"
for elf in "${elfs[@]}"; do
  n=$(basename "$elf" .elf)
  for r in $(seq 1 "$rounds"); do
    for s in before after; do
      bin=$B
      [ $s = after ] && bin=$A
      (cd "$tmp" && nice "$bin" bench all --json --formats "" "$elf" >"$tmp/$n.$s.$r.json" 2>"$tmp/$n.$s.$r.err") ||
        { echo "$0: $s bench all on $n failed: $(tail -n 3 "$tmp/$n.$s.$r.err")" >&2; exit 2; }
      phases "$tmp/$n.$s.$r.json" >"$tmp/$n.$s.$r.tsv"
    done
  done
  echo
  echo "$n (Minsn/s, best of $rounds rounds; each round's in brackets; ratio = after / before)"
  # one row per phase, in the AFTER run's order; a phase only one side has shows "-"
  awk -F'\t' -v rounds="$rounds" '
    FNR == 1 { split(FILENAME, p, "."); side = p[length(p) - 2] }
    {
      if (!(($1, side) in best) || $2 + 0 > best[$1, side] + 0) best[$1, side] = $2
      had = (($1, side) in each)
      each[$1, side] = had ? each[$1, side] "/" $2 : $2
      if (side == "after" && !($1 in seen)) { seen[$1] = 1; order[++k] = $1 }
      if (side == "before" && !($1 in seenb)) { seenb[$1] = 1; border[++kb] = $1 }
    }
    END {
      for (i = 1; i <= kb; i++) if (!(border[i] in seen)) order[++k] = border[i]
      printf "  %-28s %10s %-19s %10s %-19s %7s\n", "phase", "before", "", "after", "", "ratio"
      for (i = 1; i <= k; i++) {
        ph = order[i]
        b = ((ph, "before") in best) ? best[ph, "before"] : "-"
        a = ((ph, "after") in best) ? best[ph, "after"] : "-"
        eb = ((ph, "before") in each) ? "[" each[ph, "before"] "]" : ""
        ea = ((ph, "after") in each) ? "[" each[ph, "after"] "]" : ""
        ratio = (b != "-" && a != "-" && b + 0 > 0) ? sprintf("%.2f", a / b) : "-"
        printf "  %-28s %10s %-19s %10s %-19s %7s\n", ph, b, eb, a, ea, ratio
      }
    }' $(for r in $(seq 1 "$rounds"); do echo "$tmp/$n.before.$r.tsv" "$tmp/$n.after.$r.tsv"; done)
done
echo
echo "== $(date -u '+%F %T UTC')  load average $(cut -d' ' -f1-3 /proc/loadavg)"
