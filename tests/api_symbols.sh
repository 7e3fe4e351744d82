#!/usr/bin/env bash
# The shared libcitcat exports exactly the functions the public headers
# declare with CITCAT_API, and every exported symbol starts with citcat_.
# Usage: api_symbols.sh LIBCITCAT.so INCLUDE_DIR/citcat
set -u
lib=$1 hdr=$2
fail() { echo "FAIL: $*"; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
[ -n "$exported" ] || fail "no exported symbols in $lib"
bad=$(grep -v '^citcat_' <<<"$exported")
[ -z "$bad" ] || fail "exported symbols without the citcat_ prefix:"$'\n'"$bad"
declared=$(grep -hv '^#' "$hdr"/*.h | tr '\n' ' ' | grep -o 'CITCAT_API[^(;]*(' | grep -o '[A-Za-z0-9_]*($' | tr -d '(' | sort -u)
diff <(echo "$declared") <(echo "$exported") >/dev/null ||
  fail "declared (<) and exported (>) differ:"$'\n'"$(diff <(echo "$declared") <(echo "$exported"))"
echo "$(wc -l <<<"$exported") exported symbols, all citcat_*, all declared in $hdr"
