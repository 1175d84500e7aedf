#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite.
# Extra arguments go to ctest (e.g. -R Fk).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j"$(nproc)" "$@"
