#!/usr/bin/env bash
# The CLI conformance test (issue 29): every guarantee of the output and
# input paths, for every command, driven by the command table.
#
# tests/conformance/commands.txt declares each command's files, one
# invocation form per line; this script checks that the table names exactly
# the commands `citcat --help` lists (a new command fails here until its
# files are declared), makes one fixture of each file type, and tries every
# form under every case below, checking the exit status, the message and
# that no input and no previous output changed:
#   ok       the form as given exits 0 and writes its outputs
#   quiet    with -q it also exits 0 and prints nothing on standard error
#            but warnings (the README's -q: "only errors and warnings")
#   same     each output over each input, by name, through a hard link
#            and through a symbolic link: exit 2, "same file"/"refusing"
#   full     each output on a full file system (a 64 KiB tmpfs): exit 2,
#            "No space left on device", the file that was there unchanged,
#            no temporary file left
#   rodir    each output in a read-only directory: exit 2, "Read-only file
#            system", the file that was there unchanged
#   mode     each output over an existing 0600 file owned by another user:
#            exit 0, still 0600 and that user's
#   symlink  each output through a symbolic link to a file elsewhere: exit
#            0, the link is still a link to it, the target has the output
#   fifo     each input as a FIFO: the same outputs as from the file, or,
#            for an input that must be a file, exit 2 with a message; never
#            a hang
#   stdin    each input as '-', from a file (<) and from a pipe (|): the
#            same outputs as from the file (or, for an input that must be a
#            file, exit 2 with a message)
#   sigint, sigterm   the signal while the command runs (it waits on a pipe
#            for the rest of an input, or on a FIFO): exit 2 (capture: 2
#            or 3), "interrupted", no output left and the previous ones
#            unchanged
# The full and rodir cases need a tmpfs mount (root): without it they are
# skipped with a message.  The last lines print the matrix, commands x
# cases, with pass counts.
# Usage: conformance.sh CITCAT EXAMPLES_DIR EXAMPLE_DATA_DIR [COMMAND...]
# (with COMMANDs: only those rows, for a quick run)
set -u
citcat=$1 examples=$2 data=$3
shift 3
only=" $* "
here=$(cd "$(dirname "$0")" && pwd)
table=$here/conformance/commands.txt
. "$here/testlib.sh"
export CITCAT_NO_PROGRESS=1 TMPDIR=$t/tmp
mkdir -p "$TMPDIR"
printf 'previous output\n' >"$t/prev"
is_prev() { cmp -s "$1" "$t/prev"; }

cases="ok quiet same full rodir mode symlink fifo stdin sigint sigterm"
declare -A pass total
note() { # note COMMAND CASE 0|1 [why]: counts a check of the matrix
  total[$1:$2]=$(( ${total[$1:$2]:-0} + 1 ))
  if [ "$3" = 0 ]; then pass[$1:$2]=$(( ${pass[$1:$2]:-0} + 1 )); else fail "$1: $2: $4"; fi
}

# ---- the table against the command list ----
listed=$("$citcat" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF >= 2 && $1 != "Commands:" {print $1}' | sort -u)
declared=$(grep -v '^#' "$table" | sed -n 's/^\([a-z][a-z0-9_-]*\):.*/\1/p' | sort -u)
[ -n "$listed" ] || fail "citcat --help lists no command"
for c in $listed; do
  grep -qx "$c" <<<"$declared" || fail "the command '$c' (citcat --help) declares no files in tests/conformance/commands.txt"
done
for c in $declared; do
  grep -qx "$c" <<<"$listed" || fail "tests/conformance/commands.txt declares '$c', which citcat --help does not list"
done

# ---- fixtures: one file of each type ----
fx=$t/fx
mkdir -p "$fx"
cp "$examples/crc32.elf" "$fx/fw.elf"
cp "$examples/uartline.elf" "$fx/u.elf"
cp "$data/uartline.txt" "$fx/in.txt"
mk() { "$@" >/dev/null 2>"$t/mk.err" || { echo "conformance: making a fixture failed: $* ($(head -c 300 "$t/mk.err"))"; exit 1; }; }
mk "$citcat" capture "$fx/fw.elf" -o "$fx/run.cat" --oracle "$fx/run.itrace" --daf "$fx/run.daf" --lvt "$fx/run.lvt" \
  --seed 1 --max-insns 200000 -q
mk "$citcat" ims "$fx/run.cat" -o "$fx/run.ims" -q
mk "$citcat" aes "$fx/run.cat" -o "$fx/run.aes" -q
mk "$citcat" capture "$fx/fw.elf" -o "$fx/ck.cat" --checkpoint-every 50000 --seed 1 --max-insns 200000 -q
mk "$citcat" ims "$fx/ck.cat" -o "$fx/ck.ims" -q
mk "$citcat" aes "$fx/ck.cat" -o "$fx/ck.aes" -q
mk "$citcat" replay "$fx/ck.ims" "$fx/ck.aes" --segment 0 -o "$fx/seg0.itrace" -q
mk "$citcat" replay "$fx/ck.ims" "$fx/ck.aes" --segment 1 -o "$fx/seg1.itrace" -q
mk "$citcat" convert "$fx/run.itrace" -o "$fx/run.sdc" --to sdclsp -q
mk "$citcat" wet "$fx/run.ims" "$fx/run.aes" -o "$fx/run.wet" -q
declare -A fixture=([elf]=fw.elf [uelf]=u.elf [txt]=in.txt [cat]=run.cat [itrace]=run.itrace [daf]=run.daf
  [lvt]=run.lvt [ims]=run.ims [aes]=run.aes [ckcat]=ck.cat [ckims]=ck.ims [ckaes]=ck.aes [seg0]=seg0.itrace
  [seg1]=seg1.itrace [sdc]=run.sdc [wet]=run.wet)
(cd "$fx" && md5sum -- * >"$t/fx.md5")

# ---- the small file systems ----
mnt=$t/mnt
mkdir -p "$mnt/full" "$mnt/ro"
have_mounts=0
if mount -t tmpfs -o size=64k tmpfs "$mnt/full" 2>/dev/null; then
  if mount -t tmpfs -o size=64k tmpfs "$mnt/ro" 2>/dev/null; then
    have_mounts=1
  else
    umount "$mnt/full"
  fi
fi
cleanup() {
  [ "$have_mounts" = 1 ] && { umount "$mnt/full" 2>/dev/null; umount "$mnt/ro" 2>/dev/null; }
  rm -rf "$t"
}
trap cleanup EXIT
[ "$have_mounts" = 1 ] || echo "conformance: skipping the full-disk and read-only cases (mount -t tmpfs needs root)"
fill_full() { # leaves OLD (a previous output) and no free block
  rm -rf "${mnt:?}/full/"*
  printf 'previous output\n' >"$mnt/full/$1"
  dd if=/dev/zero of="$mnt/full/fill" bs=4k count=64 2>/dev/null
  dd if=/dev/zero of="$mnt/full/fill2" bs=512 count=64 2>/dev/null
  return 0
}
ro_dir() {
  mount -o remount,rw "$mnt/ro" 2>/dev/null
  rm -rf "${mnt:?}/ro/"*
  printf 'previous output\n' >"$mnt/ro/$1"
  mount -o remount,ro "$mnt/ro"
}

# ---- running one form ----
# A form's words are in W; its placeholders are resolved into ARGS by
# build DIR [SUBST...], where SUBST "K=PATH" replaces placeholder number K
# (counted over the form, from 0) by PATH.  Inputs default to fresh copies
# of the fixtures in DIR, outputs to DIR/oK.TYPE.  Resolved: ARGS, and the
# lists INS, OUTS (paths), INTYPES, OUTTYPES, INSLOT, OUTSLOT (placeholder
# numbers), NOPIPE (1 for {in:TYPE!}).
build() {
  local dir=$1 k=0 w ty path
  shift
  declare -A sub=()
  for s in "$@"; do sub[${s%%=*}]=${s#*=}; done
  ARGS=() INS=() OUTS=() INTYPES=() OUTTYPES=() INSLOT=() OUTSLOT=() NOPIPE=()
  mkdir -p "$dir"
  for w in "${W[@]}"; do
    case $w in
      '{in:'*'}')
        ty=${w#\{in:}; ty=${ty%\}}
        local np=0
        case $ty in *!) np=1; ty=${ty%!};; esac
        path=$dir/i$k.${fixture[$ty]##*.}
        cp "$fx/${fixture[$ty]}" "$path"
        [ -n "${sub[$k]:-}" ] && path=${sub[$k]}
        ARGS+=("$path") INS+=("$path") INTYPES+=("$ty") INSLOT+=("$k") NOPIPE+=("$np")
        k=$((k + 1));;
      '{out:'*'}')
        ty=${w#\{out:}; ty=${ty%\}}
        path=$dir/o$k.$ty
        [ -n "${sub[$k]:-}" ] && path=${sub[$k]}
        ARGS+=("$path") OUTS+=("$path") OUTTYPES+=("$ty") OUTSLOT+=("$k")
        k=$((k + 1));;
      *) ARGS+=("$w");;
    esac
  done
}

# run DIR [STDIN-FILE]: ARGS in DIR, exit status in RC, stderr in DIR/err
run() {
  local dir=$1 in=${2:-/dev/null}
  (cd "$dir" && timeout -k 5 120 "$citcat" "${ARGS[@]}" <"$in" >"$dir/out" 2>"$dir/err")
  RC=$?
}
# no temporary file of an outfile left in DIR (or TMPDIR)
no_tmp() { ! ls -a "$1" "$TMPDIR" 2>/dev/null | grep -q 'tmp-\|citcat-input-'; }
sum() { md5sum <"$1" 2>/dev/null | cut -c1-32; }
# an output's sum for same_outputs: a callgrind profile without its "cmd:" line (the input names)
outsum() { if [ "$2" = callgrind ]; then grep -v '^cmd: ' "$1" 2>/dev/null | sum /dev/stdin; else sum "$1"; fi; }
# the inputs of a form as fresh copies of the fixtures: unchanged?
inputs_intact() {
  local i ty
  for i in "${!INS[@]}"; do
    [ -f "${INS[$i]}" ] && [ ! -L "${INS[$i]}" ] || continue
    ty=${INTYPES[$i]}
    cmp -s "${INS[$i]}" "$fx/${fixture[$ty]}" || return 1
  done
  return 0
}
why() { echo "exit $RC: $(head -c 300 "$1/err" | tr '\n' ' ')"; }

# The outputs of the baseline run, to compare other runs with (outputs
# whose bytes depend on their inputs' names are compared by size class:
# the report names its files).
declare -A want
same_outputs() { # DIR: each output equals the baseline's
  local i
  for i in "${!OUTS[@]}"; do
    [ -f "${OUTS[$i]}" ] || return 1
    case ${OUTTYPES[$i]} in html|csv|cat|lvt) continue;; esac # they record paths or run times
    [ "$(outsum "${OUTS[$i]}" "${OUTTYPES[$i]}")" = "${want[$form_id:$i]}" ] || return 1
  done
  return 0
}

# sig_case DIR SIGNAL: the command waits for the rest of its first input
# that may be a pipe (a FIFO for one that must be a file is refused at
# once, so there the first output is a FIFO nobody reads: it waits to open
# it), gets SIGNAL, and must stop.
sig_case() {
  local dir=$1 sig=$2 i pick=-1
  for i in "${!INS[@]}"; do [ "${NOPIPE[$i]}" = 0 ] && { pick=$i; break; }; done
  local feeder=
  if [ $pick -ge 0 ]; then
    local fixfile=$fx/${fixture[${INTYPES[$pick]}]}
    build "$dir" "${INSLOT[$pick]}=-"
    mkfifo "$dir/pipe"
    (cat "$fixfile"; exec sleep 60) >"$dir/pipe" &
    feeder=$!
  elif [ ${#OUTS[@]} = 0 ]; then
    # no output and no input that may be a pipe (citcat gdb --stdio): it
    # waits on standard input, a pipe whose writer never writes
    build "$dir"
    mkfifo "$dir/pipe"
    (exec sleep 60) >"$dir/pipe" &
    feeder=$!
  else
    build "$dir" "${OUTSLOT[0]}=$dir/out.fifo"
    mkfifo "$dir/out.fifo"
    : >"$dir/pipe"
  fi
  for o in "${OUTS[@]}"; do [ -p "$o" ] || printf 'previous output\n' >"$o"; done
  (cd "$dir" && exec timeout -k 5 60 "$citcat" "${ARGS[@]}" <"$dir/pipe" >"$dir/out" 2>"$dir/err") &
  local runner=$! pid
  sleep 1
  pid=$(pgrep -P "$runner" -x citcat 2>/dev/null | head -1) # the citcat under timeout
  [ -n "$pid" ] && kill -s "$sig" "$pid"
  wait "$runner"
  RC=$?
  [ -n "$feeder" ] && { kill -9 "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null; }
  [ -n "$pid" ] || RC=99 # finished before the signal: not a test of it
}

run_form() {
  local cmd=$1 line=$2 n=$3
  read -r -a W <<<"$line"
  form_id=$n
  local d=$t/f$n o i j
  echo "conformance: $line"
  # ok
  build "$d/ok"; run "$d/ok"
  if [ $RC = 0 ] && inputs_intact && [ "$(ls -A "$TMPDIR")" = "" ]; then
    note "$cmd" ok 0
    for i in "${!OUTS[@]}"; do want[$n:$i]=$(outsum "${OUTS[$i]}" "${OUTTYPES[$i]}"); done
  else
    note "$cmd" ok 1 "'$line': $(why "$d/ok")"
    return
  fi
  local nout=${#OUTS[@]} nin=${#INS[@]}
  # quiet
  build "$d/q"; ARGS+=(-q); run "$d/q"
  # (README: -q leaves "only errors and warnings"; exit 0, so warnings only)
  if [ $RC = 0 ] && ! grep -qv 'warning: ' "$d/q/err"; then note "$cmd" quiet 0; else note "$cmd" quiet 1 "'$line -q': $(why "$d/q")"; fi
  for ((j = 0; j < nout; j++)); do
    build "$d/x"; local oslot=${OUTSLOT[$j]} otype=${OUTTYPES[$j]}
    # same: over each input, by name, hard link, symbolic link
    for ((i = 0; i < nin; i++)); do
      for how in name hard sym; do
        rm -rf "$d/s"; build "$d/s"
        local target=${INS[$i]} path
        case $how in
          name) path=$target;;
          hard) path=$d/s/hard.$otype; ln "$target" "$path";;
          sym) path=$d/s/sym.$otype; ln -s "$target" "$path";;
        esac
        build "$d/s" "$oslot=$path"
        local before; before=$(sum "$target")
        run "$d/s"
        if [ $RC = 2 ] && grep -q 'same file\|refusing' "$d/s/err" && [ "$(sum "$target")" = "$before" ] && inputs_intact && no_tmp "$d/s"; then
          note "$cmd" same 0
        else
          note "$cmd" same 1 "'$line': output $j over input $i ($how): $(why "$d/s")"
        fi
      done
    done
    # full
    if [ "$have_mounts" = 1 ]; then
      rm -rf "$d/u"; fill_full "prev.$otype"; build "$d/u" "$oslot=$mnt/full/prev.$otype"; run "$d/u"
      if [ $RC = 2 ] && grep -q 'No space left on device' "$d/u/err" && is_prev "$mnt/full/prev.$otype" &&
        ! ls -a "$mnt/full" | grep -q 'tmp-' && inputs_intact; then
        note "$cmd" full 0
      else
        note "$cmd" full 1 "'$line': output $j on a full disk: $(why "$d/u")"
      fi
      rm -rf "$d/r"; ro_dir "prev.$otype"; build "$d/r" "$oslot=$mnt/ro/prev.$otype"; run "$d/r"
      if [ $RC = 2 ] && grep -q 'Read-only file system' "$d/r/err" && is_prev "$mnt/ro/prev.$otype" && inputs_intact; then
        note "$cmd" rodir 0
      else
        note "$cmd" rodir 1 "'$line': output $j in a read-only directory: $(why "$d/r")"
      fi
    fi
    # mode: an existing 0600 file of another user keeps both
    rm -rf "$d/m"; mkdir -p "$d/m"; printf 'previous output\n' >"$d/m/prev.$otype"; chmod 600 "$d/m/prev.$otype"
    local owner=""
    if [ "$(id -u)" = 0 ]; then chown 65534:65534 "$d/m/prev.$otype"; owner="65534:65534"; fi
    build "$d/m" "$oslot=$d/m/prev.$otype"; run "$d/m"
    if [ $RC = 0 ] && [ "$(stat -c %a "$d/m/prev.$otype")" = 600 ] && [ -z "$owner" -o "$(stat -c %u:%g "$d/m/prev.$otype")" = "$owner" ] &&
      ! is_prev "$d/m/prev.$otype"; then
      note "$cmd" mode 0
    else
      note "$cmd" mode 1 "'$line': output $j over a 0600 file: mode $(stat -c '%a %u:%g' "$d/m/prev.$otype"), $(why "$d/m")"
    fi
    # symlink: written through, the link stays
    rm -rf "$d/l"; mkdir -p "$d/l/else"; printf 'previous output\n' >"$d/l/else/target.$otype"; chmod 640 "$d/l/else/target.$otype"
    ln -s else/target.$otype "$d/l/link.$otype"
    build "$d/l" "$oslot=$d/l/link.$otype"; run "$d/l"
    if [ $RC = 0 ] && [ -L "$d/l/link.$otype" ] && [ "$(readlink "$d/l/link.$otype")" = else/target.$otype ] &&
      ! is_prev "$d/l/else/target.$otype" && [ "$(stat -c %a "$d/l/else/target.$otype")" = 640 ] && no_tmp "$d/l/else"; then
      note "$cmd" symlink 0
    else
      note "$cmd" symlink 1 "'$line': output $j through a symbolic link: $(why "$d/l")"
    fi
  done
  for ((i = 0; i < nin; i++)); do
    build "$d/x"; local islot=${INSLOT[$i]} ity=${INTYPES[$i]} np=${NOPIPE[$i]}
    local fixfile=$fx/${fixture[$ity]}
    # fifo
    rm -rf "$d/p"; mkdir -p "$d/p"; mkfifo "$d/p/in.fifo"
    build "$d/p" "$islot=$d/p/in.fifo"
    (exec cat "$fixfile" >"$d/p/in.fifo") 2>/dev/null &
    local feeder=$!
    run "$d/p"
    kill -9 "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null # still waiting to open it when refused
    if [ $RC = 124 ] || [ $RC = 137 ]; then
      note "$cmd" fifo 1 "'$line': input $i as a FIFO: a hang"
    elif { [ "$np" = 0 ] && [ $RC = 0 ] && same_outputs; } || { [ "$np" = 1 ] && [ $RC = 2 ] && grep -q 'FIFO\|file' "$d/p/err"; }; then
      note "$cmd" fifo 0
    else
      note "$cmd" fifo 1 "'$line': input $i as a FIFO: $(why "$d/p")"
    fi
    # stdin: from a file, then from a pipe
    for how in file pipe; do
      rm -rf "$d/i"; build "$d/i" "$islot=-"
      if [ $how = file ]; then
        run "$d/i" "$fixfile"
      else
        (cd "$d/i" && cat "$fixfile" | timeout -k 5 120 "$citcat" "${ARGS[@]}" >"$d/i/out" 2>"$d/i/err")
        RC=$?
      fi
      if { [ "$np" = 0 ] && [ $RC = 0 ] && same_outputs && inputs_intact; } ||
        { [ "$np" = 1 ] && [ $RC = 2 ] && grep -q 'standard input\|file' "$d/i/err"; }; then
        note "$cmd" stdin 0
      else
        note "$cmd" stdin 1 "'$line': input $i as - ($how): $(why "$d/i")"
      fi
    done
  done
  # signals
  for sig in INT TERM; do
    local c=sig$(tr 'A-Z' 'a-z' <<<"$sig")
    rm -rf "$d/g"; mkdir -p "$d/g"
    sig_case "$d/g" "$sig"
    local okrc=2
    [ "$cmd" = capture ] && [ $RC = 3 ] && okrc=3
    local leftover=0
    for o in "${OUTS[@]}"; do [ -p "$o" ] || is_prev "$o" || leftover=1; done
    if [ $RC = $okrc ] && grep -q 'interrupted' "$d/g/err" && [ $leftover = 0 ] && no_tmp "$d/g"; then
      note "$cmd" "$c" 0
    else
      note "$cmd" "$c" 1 "'$line': SIG$sig while it waits for its input: $(why "$d/g")"
    fi
  done
  rm -rf "$d"
}

n=0
while IFS= read -r l; do
  case $l in '#'*|'') continue;; esac
  cmd=${l%%:*} form=${l#*: }
  [ "$only" = "  " ] || [[ $only == *" $cmd "* ]] || continue
  run_form "$cmd" "$form" $n
  n=$((n + 1))
done <"$table"

# the fixtures themselves were never written over
(cd "$fx" && md5sum -c --quiet "$t/fx.md5") || fail "a fixture changed"

# ---- the matrix ----
printf '\n%-9s' "command"
for c in $cases; do printf ' %8s' "$c"; done
printf '\n'
tp=0 tt=0
for cmd in $declared; do
  [ "$only" = "  " ] || [[ $only == *" $cmd "* ]] || continue
  printf '%-9s' "$cmd"
  for c in $cases; do
    p=${pass[$cmd:$c]:-0} a=${total[$cmd:$c]:-0}
    tp=$((tp + p)) tt=$((tt + a))
    if [ "$a" = 0 ]; then printf ' %8s' "-"; else printf ' %8s' "$p/$a"; fi
  done
  printf '\n'
done
echo "conformance: $tp of $tt checks passed"
finish conformance
