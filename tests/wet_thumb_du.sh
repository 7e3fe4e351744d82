#!/usr/bin/env bash
# The WET def-use decoder on a Thumb capture (issue 11): IMS and AES from
# the fixture's CAT, then test_wet_thumb_du replays them and checks every
# instruction's condition and def set against the register file.
# Usage: wet_thumb_du.sh CITCAT TEST_WET_THUMB_DU DIR NAME
set -u
citcat=$1 tool=$2 dir=$3 name=$4
. "$(dirname "$0")/testlib.sh"
"$citcat" ims "$dir/$name.cat" -o "$t/run.ims" 2>/dev/null || fail "ims"
"$citcat" aes "$dir/$name.cat" -o "$t/run.aes" 2>/dev/null || fail "aes"
"$tool" "$t/run.ims" "$t/run.aes" || fail "def-use check"
finish "wet_thumb_du $name"
