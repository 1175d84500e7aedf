#!/usr/bin/env bash
# Every C++ source of the project is as clang-format 14 (Debian 12's) writes
# it with .clang-format: names the files that are not, and how to mend them.
#   bash tests/format_check.sh SOURCE_DIR
# Exit 0: all formatted; 1: some are not; 77: no clang-format-14 (1 under CI=true).
set -uo pipefail
root=$1
source "$(dirname "$0")/../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh" clang-format-14
cd "$root" || exit 1
mapfile -t files < <(find libmocap tools viewer tests examples python -name '*.cc' -o -name '*.h' | sort)
if [ ${#files[@]} -lt 100 ]; then
  echo "format_check: only ${#files[@]} C++ files under $root: expected the project's sources"
  exit 1
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format-14 --dry-run -Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "format_check: ${#unformatted[@]} of ${#files[@]} files differ from clang-format-14's layout; mend with:"
  printf '  clang-format-14 -i %s\n' "${unformatted[@]}"
  exit 1
fi
echo "format_check: ${#files[@]} files as clang-format-14 writes them"
