#!/usr/bin/env bash
# Compressed files (issues 12 and 13): every citcat file read through an
# outer LZ4, zstd or xz wrapper (made with the lz4, zstd and xz tools) gives
# the same result as the plain file; .lz4/.zst output names are written in
# that wrapper (checked by unwrapping with the tools); a truncated or
# corrupt wrapper is exit 2 naming the file and an offset, with no partial
# output; gzip and bzip2 files get "compressed with X; decompress first".
# Usage: compressed_cli.sh CITCAT FIRMWARE.elf
set -u
citcat=$1 elf=$2
. "$(dirname "$0")/testlib.sh"
ok() { "$@" >"$t/stdout" 2>"$t/err" || fail "'$*' exited $?: $(head -c 300 "$t/err")"; return 0; }
same() { cmp -s "$1" "$2" || fail "$3"; }
wrap() { # wrap FILE: FILE.lz4 FILE.zst FILE.xz
  lz4 -qf "$1" "$1.lz4" && zstd -qf "$1" -o "$1.zst" && xz -kf "$1" || fail "cannot wrap $1"
}

r=$t/run
ok "$citcat" capture "$elf" -o "$r.cat" --oracle "$r.truth" --seed 1 -q
ok "$citcat" ims "$r.cat" -o "$r.ims"
ok "$citcat" aes "$r.cat" -o "$r.aes"
ok "$citcat" replay "$r.ims" "$r.aes" -o "$r.itrace"
for f in din xdin pdats pdats2 sdc; do ok "$citcat" convert "$r.itrace" -o "$r.$f"; done
ok "$citcat" convert "$r.itrace" -o "$r.din.ref" --to din
for f in cat ims aes itrace din xdin pdats pdats2 sdc; do wrap "$r.$f"; done

for w in lz4 zst xz; do
  # the containers: replay from wrapped IMS and AES, verified against a wrapped CAT and oracle
  ok "$citcat" replay "$r.ims.$w" "$r.aes.$w" --verify "$r.cat.$w" --oracle "$r.itrace.$w" -o "$t/re.itrace"
  same "$t/re.itrace" "$r.itrace" "replay through .$w: itrace differs from the plain replay's"
  # info recognises each wrapped file as the same kind as the plain one
  for f in cat ims aes itrace din xdin pdats pdats2 sdc; do
    ok "$citcat" info --json "$r.$f"
    k1=$(grep -o '"kind": "[a-z0-9]*"' "$t/stdout")
    ok "$citcat" info --json "$r.$f.$w"
    k2=$(grep -o '"kind": "[a-z0-9]*"' "$t/stdout")
    [ -n "$k1" ] && [ "$k1" = "$k2" ] || fail "info on $f.$w says '$k2', on the plain file '$k1'"
  done
  # every address/flow format converts to the same din as the plain file
  for f in itrace din xdin pdats pdats2; do
    ok "$citcat" convert "$r.$f.$w" -o "$t/c.din"
    [ "$f" = xdin ] || same "$t/c.din" "$r.din.ref" "convert $f.$w -o din differs from the plain itrace's din"
    ok "$citcat" convert "$r.$f" -o "$t/p.din"
    same "$t/c.din" "$t/p.din" "convert $f.$w differs from convert $f"
  done
  ok "$citcat" convert "$r.sdc.$w" --image "$elf" -o "$t/s.din"
  ok "$citcat" convert "$r.sdc" --image "$elf" -o "$t/p.din"
  same "$t/s.din" "$t/p.din" "convert sdc.$w differs from convert sdc"
done
# standard input, wrapped
zstd -qc "$r.pdats2" | "$citcat" info - >"$t/stdout" 2>"$t/err" || fail "info - on a zstd stream: $(cat "$t/err")"
grep -q "PDATS II address trace in a zstd frame" "$t/stdout" || fail "info - on zstd: $(head -2 "$t/stdout")"
xz -c "$r.din" | "$citcat" convert - -o "$t/stdin.din" 2>"$t/err" || fail "convert - on xz: $(cat "$t/err")"
same "$t/stdin.din" "$r.din.ref" "convert - through xz differs"

# output wrappers by name (and --zstd), unwrapped by the tools
for f in din pdats2 pdats sdc; do
  for w in lz4 zst; do
    ok "$citcat" convert "$r.itrace" -o "$t/o.$f.$w"
    if [ $w = lz4 ]; then lz4 -dcq "$t/o.$f.$w" >"$t/o.$f"; else zstd -dcq "$t/o.$f.$w" >"$t/o.$f"; fi
    same "$t/o.$f" "$r.$f" "convert -o X.$f.$w does not unwrap to the plain $f"
  done
done
ok "$citcat" convert "$r.itrace" -o "$t/z.bin" --to pdats2 --zstd
zstd -dcq "$t/z.bin" | cmp -s - "$r.pdats2" || fail "--zstd does not write a zstd-wrapped pdats2"
ok "$citcat" ims "$r.cat" -o "$t/w.ims.zst"
zstd -dcq "$t/w.ims.zst" | cmp -s - "$r.ims" || fail "ims -o X.ims.zst does not unwrap to the plain IMS"
ok "$citcat" convert "$r.itrace" -o "$t/l.txt.zst" --to text
ok "$citcat" convert "$r.itrace" -o "$t/l.txt" --to text
zstd -dcq "$t/l.txt.zst" | cmp -s - "$t/l.txt" || fail "a .txt.zst listing does not unwrap to the plain one"
expect 2 "not xz" "$citcat" convert "$r.itrace" -o "$t/x.din.xz"
[ -e "$t/x.din.xz" ] && fail "refused xz output left a file"

# bad wrappers: truncated and corrupt, each kind; exit 2, file and offset named, no output
for w in lz4 zst xz; do
  for f in pdats2 ims din; do
    sz=$(stat -c %s "$r.$f.$w")
    head -c $((sz / 2)) "$r.$f.$w" >"$t/cut.$f.$w"
    if [ $f = ims ]; then
      expect 2 "cut.$f.$w: offset [0-9]*: " "$citcat" replay "$t/cut.$f.$w" "$r.aes" -o "$t/bad.itrace"
    else
      expect 2 "cut.$f.$w: offset [0-9]*: " "$citcat" convert "$t/cut.$f.$w" -o "$t/bad.pdats"
    fi
    cp "$r.$f.$w" "$t/flip.$f.$w"
    printf '\x55\xaa\x55\xaa' | dd of="$t/flip.$f.$w" bs=1 seek=$((sz / 2)) conv=notrunc status=none
    expect 2 "flip.$f.$w: offset [0-9]*: " "$citcat" info "$t/flip.$f.$w"
  done
  # the wrapper's own damage: just the magic
  head -c 4 "$r.din.$w" >"$t/magic.$w"
  expect 2 "magic.$w: offset [0-9]*: " "$citcat" convert "$t/magic.$w" --from din -o "$t/bad.pdats"
done
[ -e "$t/bad.pdats" ] || [ -e "$t/bad.itrace" ] && fail "a failed run left its output"
ls -a "$t" | grep -q 'tmp-' && fail "temporary file left behind"

# compressors citcat does not read
gzip -c "$r.cat" >"$t/run.cat.gz"
bzip2 -c "$r.din" >"$t/run.din.bz2" 2>/dev/null || printf 'BZh91AY&SY' >"$t/run.din.bz2"
expect 2 "run.cat.gz: offset 0: compressed with gzip; decompress first" "$citcat" info "$t/run.cat.gz"
expect 2 "compressed with gzip; decompress first" "$citcat" ims "$t/run.cat.gz" -o "$t/g.ims"
expect 2 "run.din.bz2: offset 0: compressed with bzip2; decompress first" "$citcat" convert "$t/run.din.bz2" -o "$t/g.pdats"
[ -e "$t/g.ims" ] || [ -e "$t/g.pdats" ] && fail "a refused input left an output"
# info gives the reason a file cannot be opened
expect 2 "nofile: cannot open: No such file or directory" "$citcat" info "$t/nofile"
finish compressed_cli
