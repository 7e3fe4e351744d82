#!/usr/bin/env bash
# Refactoring check (not a CTest): runs one citcat binary over every example
# firmware and writes every output the tool makes of it, one file per output,
# then prints the sha256 of every file, one line per file.  Run it with the
# build from before a change and with the build after it and compare the two
# (tests/compare_before_after.sh does both and `cmp`s every pair): a
# behaviour-neutral change leaves every file the same.
#
# Per firmware (ARM and Thumb on the ARMv7-A target, ELFDIR/*.elf; the
# Cortex-M7, ELFDIR/m7/*.elf; the *_long and *_big ones only with LONG=1):
#  - capture: CAT, oracle itrace, UART output; a second capture with --lvt
#    and --daf; a third with --checkpoint-every (segments);
#  - ims, aes; replay -o itrace --verify --oracle (and of the checkpointed
#    capture: --jobs 2, plan); the LVT decoder (replay --lvt);
#  - convert: din, xdin, pdats, pdats2, sdclsp (two variants), the text
#    listing (with --elf), champsim; sdclsp -> din (--image IMS), sdclsp +
#    DAF -> din, pdats2 -> din;
#  - wet: build, queries --cf, --loads, --info --json, --slice, --check;
#  - info (text and --json) and dump (text and --json) of every file kind
#    (a listing's, dump's or query's sha256 is kept, not the text itself);
#  - report (HTML + CSV).
# Each command's exit status is written beside its output (NAME.rc), so a
# command that fails the same way before and after compares equal too; its
# standard error is kept (NAME.err) but not compared (it carries timings).
# The two binaries compared should have the same file name (`plan` writes
# its own name into the commands it prints).
# Usage: compare_outputs.sh CITCAT ELFDIR DATADIR OUTDIR > LISTING
set -u
citcat=$(realpath -e "$1") elfdir=$(realpath -e "$2") datadir=$(realpath -e "$3") out=$4
mkdir -p "$out"
# Every command runs in OUTDIR on bare file names, so no output names the
# directory it was written in (info, plan, report and wet print names).
cd "$out" || exit 2
out=.

# run NAME CMD...: CMD's standard output to $out/NAME.out, its standard
# error to $out/NAME.err, its exit status to $out/NAME.rc
run() {
  local name=$1
  shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}
# runh NAME CMD...: likewise, but only the sha256 of the standard output is
# kept (NAME.out.sha256): the listings and dumps of a whole run are
# hundreds of MB each
runh() {
  local name=$1
  shift
  "$@" 2>"$out/$name.err" | sha256sum >"$out/$name.out.sha256"
  echo "${PIPESTATUS[0]}" >"$out/$name.rc"
}

elfs=()
for e in "$elfdir"/*.elf "$elfdir"/m7/*.elf; do
  [ -f "$e" ] || continue
  case $(basename "$e") in *_long*|*_big*) [ "${LONG:-0}" = 1 ] || continue;; esac
  elfs+=("$e")
done
[ ${#elfs[@]} -gt 0 ] || { echo "$0: no firmware in $elfdir" >&2; exit 2; }

for elf in "${elfs[@]}"; do
  n=$(basename "$elf" .elf)
  r=$n
  extra=()
  case $n in uartline*) extra=(--uart-in "$datadir/uartline.txt");; esac
  run "$n.capture" "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.oracle" --uart-out "$r.uart" --seed 1 -q "${extra[@]}"
  run "$n.capture_lvt" "$citcat" capture "$elf" -o "$r.lvtrun.cat" --lvt "$r.lvt" --daf "$r.daf" --seed 1 -q "${extra[@]}"
  run "$n.capture_ck" "$citcat" capture "$elf" -o "$r.ck.cat" --checkpoint-every 200000 --seed 1 -q "${extra[@]}"
  run "$n.ims" "$citcat" ims "$r.cat" -o "$r.ims"
  run "$n.aes" "$citcat" aes "$r.cat" -o "$r.aes"
  run "$n.replay" "$citcat" replay "$r.ims" "$r.aes" -o "$r.itrace" --verify "$r.cat" --oracle "$r.oracle"
  run "$n.replay_lvt" "$citcat" replay --lvt "$r.lvt" --image "$elf" -o "$r.lvt.itrace"
  run "$n.ims_ck" "$citcat" ims "$r.ck.cat" -o "$r.ck.ims"
  run "$n.aes_ck" "$citcat" aes "$r.ck.cat" -o "$r.ck.aes"
  run "$n.replay_ck" "$citcat" replay "$r.ck.ims" "$r.ck.aes" --jobs 2 -o "$r.ck.itrace"
  run "$n.plan" "$citcat" plan "$r.ck.ims" "$r.ck.aes" --verify "$r.ck.cat" -o -
  for to in din xdin pdats pdats2; do
    run "$n.to_$to" "$citcat" convert "$r.itrace" -o "$r.$to" --to "$to"
  done
  run "$n.to_sdc" "$citcat" convert "$r.itrace" -o "$r.sdc" --to sdclsp
  run "$n.to_rsdc" "$citcat" convert "$r.itrace" -o "$r.r.sdc" --to sdclsp:r:32x4,128
  runh "$n.to_text" "$citcat" convert "$r.itrace" -o - --to text --elf "$elf"
  run "$n.to_champsim" "$citcat" convert "$r.itrace" -o "$r.champsim" --to champsim
  run "$n.sdc_to_din" "$citcat" convert "$r.sdc" -o "$r.sdc.din" --image "$r.ims"
  run "$n.daf_to_din" "$citcat" convert "$r.sdc" --daf "$r.daf" --image "$elf" -o "$r.daf.din"
  run "$n.pdats2_to_din" "$citcat" convert "$r.pdats2" -o "$r.pdats2.din" --to din
  run "$n.wet_build" "$citcat" wet "$r.ims" "$r.aes" -o "$r.wet"
  runh "$n.wet_cf" "$citcat" wet query "$r.wet" --cf
  runh "$n.wet_loads" "$citcat" wet query "$r.wet" --loads
  run "$n.wet_info" "$citcat" wet query "$r.wet" --info --json
  runh "$n.wet_slice" "$citcat" wet query "$r.wet" --slice 1000
  run "$n.wet_check" "$citcat" wet query "$r.wet" --check
  run "$n.report" "$citcat" report "$r.cat" -o "$r.html" --itrace "$r.itrace" --elf "$elf" --csv "$r.csv"
  for f in cat ims aes itrace oracle lvt daf din xdin pdats pdats2 sdc ck.ims wet; do
    run "$n.$f.info" "$citcat" info "$r.$f"
    run "$n.$f.info.json" "$citcat" info --json "$r.$f"
  done
  for f in cat ims aes itrace din xdin pdats pdats2; do
    runh "$n.$f.dump" "$citcat" dump "$r.$f"
    runh "$n.$f.dump.json" "$citcat" dump --json "$r.$f"
  done
  runh "$n.itrace.dump.elf" "$citcat" dump --csv --elf "$elf" "$r.itrace"
  runh "$n.lvt.dump" "$citcat" dump --itrace "$r.oracle" "$r.lvt"
  runh "$n.daf.dump" "$citcat" dump --itrace "$r.oracle" "$r.daf"
  runh "$n.sdc.dump" "$citcat" dump --image "$r.ims" "$r.sdc"
done
find . -type f ! -name '*.err' | LC_ALL=C sort | xargs sha256sum
