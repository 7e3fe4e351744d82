#!/usr/bin/env bash
# cmake --install into a temporary prefix: the tool, static and shared
# libcitcat (with its soname), only the public headers (which pull in no
# dependency's headers), citcat.pc, the CMake package, the specs and the man
# page.  Then the examples in examples/lib, as installed, are built against
# that prefix through pkg-config (shared and static) and through
# find_package(citcat), and run on a real capture: count_events and
# capture_sink must report the events `citcat info` reports for the CAT, and
# replay_sink the instructions, interrupts and accesses of the oracle itrace.
# Usage: install_lib.sh BUILD_DIR SOURCE_DIR WORK_DIR FIRMWARE.elf EXAMPLE_OUT CFLAGS CC
set -u
build=$1 src=$2 work=$3 elf=$4 exout=$5 cflags=$6 cc=$7
name=$(basename "$elf" .elf)
cat_f=$exout/$name.cat itrace_f=$exout/$name.itrace
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }

# what is installed
so=$(find "$prefix" -name 'libcitcat.so.*.*.*' | head -1)
[ -n "$so" ] || fail "no versioned shared library"
libdir=$(dirname "$so")
[ -f "$libdir/libcitcat.a" ] || fail "no static library"
[ -L "$libdir/libcitcat.so" ] || fail "no libcitcat.so development link"
readelf -d "$so" | grep -q 'SONAME.*\[libcitcat\.so\.0\]' || fail "soname is not libcitcat.so.0"
[ -x "$prefix/bin/citcat" ] || fail "no citcat binary"
[ -f "$prefix/share/man/man1/citcat.1" ] || fail "no man page"
for spec in CAT.md IMS.md AES.md ITRACE.md SDCLSP.md CONTAINER.md; do
  [ -f "$prefix/share/doc/citcat/specs/$spec" ] || fail "spec $spec not installed"
done
# every spec the man page names is installed (issue 35: six were not)
for spec in $(sed 's/\\-/-/g' "$prefix/share/man/man1/citcat.1" | grep -o '[A-Z][A-Z0-9-]*\.md' | sort -u); do
  [ -f "$prefix/share/doc/citcat/specs/$spec" ] || fail "the man page names $spec, which is not installed"
done
# its synopses render with a space between an option and its value
if command -v man >/dev/null 2>&1; then
  MANWIDTH=200 man -l "$prefix/share/man/man1/citcat.1" 2>/dev/null | grep -E '\[--?[a-z-]+[A-Z]' &&
    fail "the man page glues an option to its value (above)"
fi
[ -f "$libdir/pkgconfig/citcat.pc" ] || fail "no citcat.pc"
[ -f "$libdir/cmake/citcat/citcatConfig.cmake" ] || fail "no CMake package config"
[ "$(ls "$prefix/include")" = citcat ] || fail "headers outside include/citcat: $(ls "$prefix/include")"
want=$( (cd "$src/include/citcat" && ls *.h; echo version.h) | sort)
have=$( (cd "$prefix/include/citcat" && ls) | sort)
[ "$want" = "$have" ] || fail "installed headers differ from the public tree:"$'\n'"$have"
# every command of the tool has its entry in the man page
for c in $("$prefix/bin/citcat" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
  grep -Eq "^\.B[IR]? \"?$c[ \"]" "$prefix/share/man/man1/citcat.1" || fail "man page lacks the command $c"
done

# the public headers stand alone, pull in no dependency, and are C11 clean
for h in "$prefix"/include/citcat/*.h; do
  printf "#include <citcat/%s>\ntypedef int header_alone_;\n" "$(basename "$h")" |
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$prefix/include" -x c - ||
    fail "$(basename "$h") does not compile alone"
done
deps=$(echo '#include <citcat/citcat.h>' | "$cc" -E -I"$prefix/include" -x c - |
  grep -o '^# [0-9]* "[^"]*"' | grep -Ei 'unicorn|capstone|lz4|xxhash|libelf|gelf' | sort -u)
[ -z "$deps" ] || fail "the public headers include dependencies' headers:"$'\n'"$deps"

# the same numbers as the tool, from three programs and three ways to link
export PKG_CONFIG_PATH=$libdir/pkgconfig LD_LIBRARY_PATH=$libdir
[ "$(pkg-config --modversion citcat)" = "$("$prefix/bin/citcat" --version | awk '{print $2}')" ] ||
  fail "pkg-config version differs from citcat --version"
# a shared-library consumer needs no dependency's .pc file nor its headers
# (issue 35): with citcat.pc alone on the search path, --cflags --libs
# works and names only citcat's include directory and library
pcflags=$(PKG_CONFIG_LIBDIR=$libdir/pkgconfig PKG_CONFIG_PATH= pkg-config --cflags --libs citcat) ||
  fail "pkg-config --cflags --libs citcat needs other packages' .pc files"
[ "$(echo "$pcflags" | tr ' ' '\n' | grep -c .)" -eq 3 ] && ! echo "$pcflags" | grep -q capstone ||
  fail "pkg-config --cflags --libs citcat: $pcflags"
ex=$prefix/share/doc/citcat/examples/lib
for p in count_events capture_sink replay_sink; do
  # shellcheck disable=SC2046,SC2086
  "$cc" -std=c11 -Wall -Wextra -Werror $cflags "$ex/$p.c" -o "$work/pc_$p" $(pkg-config --cflags --libs citcat) ||
    fail "$p: build through pkg-config"
done
# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$ex/count_events.c" -o "$work/static_count_events" \
  $(pkg-config --cflags citcat) $(pkg-config --static --libs citcat | sed 's/-lcitcat\b/-l:libcitcat.a/') ||
  fail "count_events: static build through pkg-config --static"
readelf -d "$work/static_count_events" | grep -q 'libcitcat\.so' && fail "static build still needs libcitcat.so"
cmake -S "$ex" -B "$work/fp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" \
  >"$work/fp.log" 2>&1 && cmake --build "$work/fp" >>"$work/fp.log" 2>&1 || { cat "$work/fp.log"; fail "find_package build"; }

"$prefix/bin/citcat" info "$cat_f" | awk '/^  events/ {on = 1; next} on && /^    / {print $1, $2; next} {on = 0}' \
  >"$work/events.want"
[ "$(wc -l <"$work/events.want")" -eq 13 ] || fail "citcat info listed $(wc -l <"$work/events.want") event kinds"
for prog in "$work/pc_count_events" "$work/static_count_events" "$work/fp/count_events"; do
  "$prog" "$cat_f" | awk '{print $1, $2}' >"$work/events.have" || fail "$prog exited $?"
  diff "$work/events.want" "$work/events.have" || fail "$prog: events differ from citcat info"
done
for prog in "$work/pc_capture_sink" "$work/fp/capture_sink"; do
  "$prog" "$elf" 1 | awk '{print $1, $2}' >"$work/events.have" || fail "$prog exited $?"
  diff "$work/events.want" "$work/events.have" || fail "$prog: in-memory events differ from the CAT's"
done
"$prefix/bin/citcat" ims "$cat_f" -o "$work/run.ims" && "$prefix/bin/citcat" aes "$cat_f" -o "$work/run.aes" ||
  fail "citcat ims/aes"
"$prefix/bin/citcat" info "$itrace_f" |
  awk '/^  instructions/ {print "instructions", $2} /^  interrupts/ {print "interrupts", $2}
       /^  data reads/ {print "data reads", $3} /^  data writes/ {print "data writes", $3}' >"$work/replay.want"
[ "$(wc -l <"$work/replay.want")" -eq 4 ] || fail "citcat info of the itrace: $(cat "$work/replay.want")"
for prog in "$work/pc_replay_sink" "$work/fp/replay_sink"; do
  "$prog" "$work/run.ims" "$work/run.aes" >"$work/replay.have" || fail "$prog exited $?"
  diff "$work/replay.want" "$work/replay.have" || fail "$prog: in-memory replay differs from the oracle"
done
echo "install_lib: installed, built three ways, and the in-memory results match the files"
cat "$work/events.want" "$work/replay.want"
