#!/usr/bin/env bash
# The real and hand-made inputs a fuzz target starts from, one path a line:
# the bundled files of its kind (fuzz_amc: data/*.amc), the shared
# development set's (../shared/data/cmu) where present, the CLI's malformed
# files, and tests/fuzz/seeds/<target>/ (hand-made seeds and the inputs of
# fixed crashes). fuzz.sh seeds its corpora with them; the ctest
# fuzz.replay.<target> runs each through the target in the ASan build.
#   bash tests/fuzz/seed_files.sh <target> <source dir> [shared data dir]
set -euo pipefail
target=$1 root=$2 shared=${3:-$2/../shared/data}
kind=${target#fuzz_}
shopt -s nullglob
for f in "$root"/data/*."$kind" "$shared"/cmu/*."$kind" "$root"/tests/cli/malformed/*."$kind" \
  "$root/tests/fuzz/seeds/$target"/*; do
  [ "$(basename "$f")" = README.md ] || printf '%s\n' "$f"
done
