#!/usr/bin/env bash
# ctest fuzz.replay.<target>: the target's seeds (seed_files.sh), and those
# its LLVMFuzzerInitialize writes into an empty corpus folder, through its
# replay program under the build's sanitizers.
#   bash tests/fuzz/replay.sh <replay program> <target> <source dir> <shared data dir>
set -euo pipefail
program=$1 target=$2 root=$3 shared=$4
mapfile -t files < <(bash "$(dirname "$0")/seed_files.sh" "$target" "$root" "$shared")
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
"$program" "$corpus" ${files[@]+"${files[@]}"}
