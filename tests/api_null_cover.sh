#!/usr/bin/env bash
# Every function libcitcat.so exports (nm -D) is called by test_api_null.c
# through one of its checking macros (INVAL, VALUE, NUL, NAMEQ, NONNULL,
# VOID), so a new export cannot go untested with NULL arguments.
# Usage: api_null_cover.sh LIBCITCAT.so tests/test_api_null.c
set -u
lib=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
[ -n "$exported" ] || fail "no exported symbols in $lib"
covered=$(grep -oE '^[[:space:]]*(INVAL|VALUE|NUL|NAMEQ|NONNULL|VOID)\(citcat_[A-Za-z0-9_]+,' "$src" |
	grep -oE 'citcat_[A-Za-z0-9_]+' | sort -u)
missing=$(comm -23 <(echo "$exported") <(echo "$covered"))
[ -z "$missing" ] || fail "exported but not called with NULL arguments in $src:"$'\n'"$missing"
extra=$(comm -13 <(echo "$exported") <(echo "$covered"))
[ -z "$extra" ] || fail "called in $src but not exported by $lib:"$'\n'"$extra"
echo "$(wc -l <<<"$exported") exported functions, all called with NULL arguments by $src"
