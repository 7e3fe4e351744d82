#!/usr/bin/env bash
# The layers of citcat's source folders (issue 30; README "Layers"), checked
# from the code: every `#include "NAME.h"` in a layer's .c and .h files
# (headers are included by bare name, and no two folders have a header of
# the same name, which this checks too), and the CMake target graph the
# build wrote to LAYERS_TXT (each layer's target_link_libraries, and the
# per-file include exceptions of citcat_layer_exception).
#
# Fails (exit 1), naming each, on:
#  - an include of a folder's header from a folder that may not use it
#    (below, LAYERS: a folder may use only the folders listed after it, all
#    of them below it), unless tests/layering_allow.txt lists that file and
#    header;
#  - an include of a folder the including folder's target does not link
#    (the compiler finds it only through an exception);
#  - a target_link_libraries between layers the table does not allow, a
#    layer without its target or a target without its layer, a circle in
#    the target graph or in the table;
#  - a per-file exception that no allowlisted include of that file needs;
#  - two folders with a header of the same name.
# Allowlisted includes still present are counted; allowlist entries that
# match no include any more are named (remove them), without failing; the
# circles the allowlisted includes still close are listed.
#
# Usage: layering.sh SOURCE_DIR LAYERS_TXT     the check (a CTest, unit)
#        layering.sh --graph SOURCE_DIR        "A uses B (N includes)", one
#                                              pair per line, from the includes
set -u
graph=0
[ "${1:-}" = --graph ] && { graph=1; shift; }
src=${1:?usage: layering.sh [--graph] SOURCE_DIR [LAYERS_TXT]}
layers_txt=${2:-}
allow=${ALLOWLIST:-$src/tests/layering_allow.txt}

# LAYERS: each folder, from the top down, and the folders it may use.  cli/
# may use only the public API (include/citcat/, not a layer).  capture/,
# ims/ and aes/ share a floor, as wet/ and bench/ do; aes/ reads its IMS.
LAYERS='
cli:
bench:   replay capture ims aes machine formats common
wet:     replay capture ims aes machine formats common
replay:  capture ims aes machine formats common
convert: ims machine formats common
aes:     ims machine formats common
ims:     machine formats common
capture: machine formats common
machine: formats common
formats: common
common:
'
folders=$(echo "$LAYERS" | sed -n 's/^\([a-z]*\):.*/\1/p')

if [ $graph = 0 ]; then
  [ -f "$layers_txt" ] || { echo "layering: no file $layers_txt (cmake writes it in the build directory)" >&2; exit 2; }
  layers_txt=$(realpath -e "$layers_txt")
fi
cd "$src" || exit 2
{
  echo "$LAYERS" | sed -n 's/^\([a-z]*\):\(.*\)/T \1 \2/p'
  for d in $folders; do
    [ -d "$d" ] || continue
    for h in "$d"/*.h; do [ -e "$h" ] && echo "H ${h##*/} $d"; done
  done
  for d in $folders; do
    [ -d "$d" ] || continue
    for f in "$d"/*.c "$d"/*.h; do
      [ -e "$f" ] || continue
      [ "$d" != cli ] && [ "${f%.c}" != "$f" ] && [ $graph = 0 ] && echo "C $f"
      sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/I '"${f//\//\\/}"' '"$d"' \1/p' "$f"
    done
  done
  if [ -f "$allow" ]; then
    sed 's/#.*//' "$allow" | awk 'NF { print "A", $1, $2, NF }'
  fi
  if [ $graph = 0 ]; then
    sed -n 's/^links \([a-z]*\):\(.*\)/L \1 \2/p; s/^sources \([a-z]*\):\(.*\)/S \1 \2/p; s/^exception \(.*\)/E \1/p' "$layers_txt"
  fi
} | awk -v graph=$graph '
function fail(msg) { print "layering: VIOLATION: " msg; bad++ }
# cycle(G, NODES): a circle of the graph G[a, b] over NODES (space-separated)
# as "a -> b -> ... -> a", or "" when there is none (depth-first search)
function cycle(G, nodes,    n, i, a, out) {
  split(nodes, n, " ")
  for (a in col) delete col[a]
  for (i in n) if (!(n[i] in col)) { out = dfs(G, n[i], n, ""); if (out != "") return out }
  return ""
}
function dfs(G, a, n, path,    i, b, out) {
  col[a] = 1
  path = path a " -> "
  for (i in n) {
    b = n[i]
    if (!((a, b) in G)) continue
    if ((b in col) && col[b] == 1) return substr(path, index(" " path, " " b " -> ")) b
    if (!(b in col)) { out = dfs(G, b, n, path); if (out != "") return out }
  }
  col[a] = 2
  return ""
}
# reach(G, X, T, NODES, PATH): PATH extended by a way from X to T in G, or ""
function reach(G, x, t, nodes, path,    n, i, b, out) {
  path = path x
  if (x == t) return path
  col[x] = 1
  split(nodes, n, " ")
  for (i in n) {
    b = n[i]
    if (((x, b) in G) && !(b in col)) { out = reach(G, b, t, nodes, path " -> "); if (out != "") return out }
  }
  return ""
}
$1 == "T" { layer[$2] = 1; order = order " " $2; for (i = 3; i <= NF; i++) may[$2, $i] = 1; next }
$1 == "H" {
  if (($2 in home) && home[$2] != $3) fail("header " $2 " is in both " home[$2] "/ and " $3 "/: bare includes cannot say which")
  home[$2] = $3; next
}
$1 == "C" { cfile[$2] = 1; next }
$1 == "I" { ninc++; file[ninc] = $2; from[ninc] = $3; hdr[ninc] = $4; next }
$1 == "A" {
  if ($4 != 2) fail("tests/layering_allow.txt: \"" $2 " " $3 "\": an entry is FILE HEADER # why; what removes it")
  allowed[$2, $3] = 1; nallow++; next
}
$1 == "L" {
  hastarget[$2] = 1
  for (i = 3; i <= NF; i++) if ($i ~ /^citcat_/) { d = substr($i, 8); links[$2, d] = 1; nlinks[$2] = nlinks[$2] " " d }
  next
}
$1 == "E" { exc[$2, $3] = 1; nexc++; next }
$1 == "S" {
  for (i = 3; i <= NF; i++) {
    if ($2 == "citcat") { fail("libcitcat compiles " $i " itself, outside the layers: target_sources(citcat_LAYER ...) in its folder"); continue }
    f = $i; sub(/.*\//, "", f); built[$2 "/" f] = 1
  }
  next
}
END {
  # the include graph, folder to folder
  for (k = 1; k <= ninc; k++) {
    h = hdr[k]
    if (!(h in home)) continue            # public <citcat/...>, system, BSP register maps, tests
    a = from[k]; b = home[h]
    if (a == b) continue
    uses[a, b]++
    key = file[k] SUBSEP h
    if ((a, b) in may) {
      if (!graph && !((a, b) in links)) fail(file[k] " includes " h " (" b "/): " a "/ may use " b "/, but citcat_" a " does not link citcat_" b " (target_link_libraries)")
      continue
    }
    if (key in allowed) { used[key] = 1; nused++; up[a, b] = 1; needs[file[k], b] = 1; continue }
    if (!graph) fail(file[k] " includes " h ": " a "/ may not use " b "/" (a == "cli" ? " (cli/ uses the public API only, include/citcat/)" : (b in layer && index(order, " " b " ") < index(order, " " a " ") ? " (" b "/ is above " a "/)" : "")) "; tests/layering_allow.txt does not list it")
  }
  if (graph) {
    for (p in uses) { split(p, ab, SUBSEP); printf "%s uses %s (%d includes)\n", ab[1], ab[2], uses[p] }
    exit 0
  }
  # the table: no circle
  c = cycle(may, order)
  if (c != "") fail("the layer table has a circle: " c)
  # the CMake targets
  for (l in layer) if (l != "cli" && !(l in hastarget)) fail("layer " l "/ has no target citcat_" l " in the build (citcat_layer)")
  for (f in cfile) if (!(f in built)) { split(f, ab, "/"); fail(f " is not a source of citcat_" ab[1] " (target_sources(citcat_" ab[1] " ...))") }
  for (l in hastarget) if (!(l in layer)) fail("target citcat_" l " is no layer of the table in tests/layering.sh")
  for (p in links) {
    split(p, ab, SUBSEP)
    if (!(p in may)) fail("citcat_" ab[1] " links citcat_" ab[2] ": " ab[1] "/ may not use " ab[2] "/")
  }
  c = cycle(links, order)
  if (c != "") fail("the CMake targets link in a circle: " c)
  # exceptions: only for a file with an allowlisted include of that folder,
  # or of a folder that one needs
  for (p in exc) {
    split(p, ab, SUBSEP); f = ab[1]; x = ab[2]; ok = 0
    for (q in needs) {
      split(q, cd, SUBSEP)
      if (cd[1] == f && (cd[2] == x || ((cd[2], x) in may))) ok = 1
    }
    if (!ok) fail("citcat_layer_exception(" f " " x "): no include of " f " in tests/layering_allow.txt needs " x "/")
  }
  for (k in allowed) if (!(k in used)) {
    split(k, ab, SUBSEP); print "layering: note: allowlist entry \"" ab[1] " " ab[2] "\" matches no include any more: remove it"
  }
  printf "layering: %d includes checked; %d of them allowlisted (%d entries); %d per-file exceptions in the build\n", ninc, nused, nallow, nexc
  # the circles between folders the allowlisted includes still close: for
  # each allowlisted folder pair a -> b, a way back from b to a
  for (p in up) {
    split(p, ab, SUBSEP)
    for (q in col) delete col[q]
    c = reach(uses, ab[2], ab[1], order, ab[1] " -> ")
    if (c != "") print "layering: circle left for phase B: " c
  }
  split(order, ol, " ")
  for (i = 1; i in ol; i++) if (ol[i] in nlinks) printf "layering: citcat_%s links:%s\n", ol[i], nlinks[ol[i]]
  if (bad) { printf "layering: %d violation(s)\n", bad; exit 1 }
  print "layering: OK"
}'
