#!/usr/bin/env bash
# The tier check catches what it is for: a copy of libmocap with a core file
# including a report header and an eyes file including compress's internal bits
# must fail scripts/check_tiers.py, naming both files and lines.
#   bash tests/tiers_wrong_include.sh <source-root>
set -euo pipefail
root="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/libmocap/CMakeLists.txt" "$root/libmocap/include" "$root/libmocap/src" "$work/"
echo '#include <mocap/report/report.h>' >> "$work/src/core/error.cc"
echo '#include "compress/runtime/clip_bits.h"' >> "$work/src/eyes/eyes.cc"
lines_core=$(wc -l < "$work/src/core/error.cc")
lines_eyes=$(wc -l < "$work/src/eyes/eyes.cc")
set +e
out="$(python3 "$root/scripts/check_tiers.py" "$work")"
code=$?
set -e
echo "$out"
[ "$code" -eq 1 ] || { echo "FAIL: exit $code, expected 1"; exit 1; }
grep -q "src/core/error.cc:$lines_core: tier core includes <mocap/report/report.h> of tier report" <<<"$out" ||
  { echo "FAIL: the core -> report include is not named"; exit 1; }
grep -q "src/eyes/eyes.cc:$lines_eyes: tier eyes includes \"compress/runtime/clip_bits.h\", internal to tier clip_runtime" <<<"$out" ||
  { echo "FAIL: the eyes -> compress internal include is not named"; exit 1; }
grep -q "check_tiers: 2 include(s)" <<<"$out" || { echo "FAIL: not exactly the two wrong includes"; exit 1; }
echo "OK"
