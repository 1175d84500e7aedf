# Sourced by the checks that drive a real tool (Blender, ffmpeg, Node.js, Slurm,
# clang-format): a tool that is not installed skips the check outside CI and
# fails it under CI=true, where scripts/test.sh installs every tool so that no
# check skips unseen.
#
#   source "$root/scripts/require_tool.sh"
#   require_tool "INSTALL" TOOL...   returns if every TOOL is on PATH; otherwise
#                                    unavailable "TOOL is not on PATH (INSTALL installs it)"
#   unavailable "WHY"                the check cannot run here, for the reason WHY:
#       outside CI     "NAME: skipped: WHY" on stderr, exit 77 (ctest's SKIP_RETURN_CODE)
#       under CI=true  "NAME: FAIL (CI): WHY" on stderr, exit 1
# NAME is the running script's file name without .sh.

unavailable() {
  local name="${0##*/}"
  name="${name%.sh}"
  if [ "${CI:-}" = true ]; then
    echo "$name: FAIL (CI): $1" >&2
    exit 1
  fi
  echo "$name: skipped: $1" >&2
  exit 77
}

require_tool() {
  local install="$1" tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || unavailable "$tool is not on PATH ($install installs it)"
  done
}
