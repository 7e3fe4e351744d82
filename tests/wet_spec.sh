#!/usr/bin/env bash
# The fuzz seeds (real version 7 WETs of short runs: A32, Thumb, the
# Cortex-M7, path and basic-block nodes, 1 to 4 segments) read by
# tests/wet_spec.py, a reader written from wet/WET.md alone: every field
# where the spec puts it.  trunc.wet (a cut file) must be refused.  Then
# tests/wet_spec_mutate.py: twelve fields of irqs.wet set to what WET.md
# forbids, the checksums resealed, each refused by wet_spec.py naming the
# field and by `citcat wet query --check`.
# Usage: wet_spec.sh CORPUS_DIR CITCAT
set -u
c=$1 citcat=$2
for f in "$c"/*.wet; do
  case $(basename "$f") in
    trunc.wet)
      out=$(python3 "$(dirname "$0")/wet_spec.py" "$f" --skip1) && { echo "FAIL: $f read"; exit 1; }
      echo "$out" | grep -q "footer magic" || { echo "FAIL: $f: $out"; exit 1; } ;;
    *)
      python3 "$(dirname "$0")/wet_spec.py" "$f" --skip1 || exit 1 ;;
  esac
done
python3 "$(dirname "$0")/wet_spec_mutate.py" "$c/irqs.wet" "$citcat" --skip1 || exit 1
