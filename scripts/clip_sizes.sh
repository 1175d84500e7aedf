#!/usr/bin/env bash
# Prints the per-clip .mkc table (bytes, worst joint error with joint name
# and frame number, KB/s, encode seconds) and the totals at each bound, for
# the shared clips (../shared/data/cmu) or the bundled ones.
#   bash scripts/clip_sizes.sh [build-dir] [bounds]      e.g. build "1 0.1 0.02"
# MOCAP_CLIP_OFF="cubic,linear,entropy,quantise,delta,per_track_keys,continuous" switches
# techniques off one at a time for measurement.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
bounds="${2:-1 0.1 0.02}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target test_compress >/dev/null
MOCAP_CLIP_BOUNDS="$bounds" "$build/tests/test_compress" --gtest_filter='ClipCodec.EveryRealClipHoldsEveryBound' |
  grep -vE '^\[|^Running main|^$'
