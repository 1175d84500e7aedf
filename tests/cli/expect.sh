#!/usr/bin/env bash
# Runs a command and checks its exit code and output; ctest runs each CLI case
# through it.
#
#   expect.sh --exit N [checks...] -- command [args...]
#
# Checks (each may be given more than once, all must hold):
#   --exit N            the command exits with N (required)
#   --stderr REGEX      some line of stderr matches REGEX (grep -E)
#   --stdout REGEX      some line of stdout matches REGEX
#   --stderr-lines N    stderr has exactly N lines
#   --stdout-lines N    stdout has exactly N lines
#   --stdout-check CMD  `sh -c CMD` exits 0 with stdout on its standard input
#   --file-check F CMD  the command wrote F (removed before it runs, so that an old F
#                       cannot pass), and `sh -c CMD` exits 0 with F on its standard input
#   --timeout S         kill the command after S seconds (a hang fails)
# Prints what was expected and what came out when a check fails.
set -u

expected_exit=""
timeout_s=60
declare -a checks=() outputs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --exit) expected_exit="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --stderr | --stdout | --stderr-lines | --stdout-lines | --stdout-check)
      checks+=("$1" "$2"); shift 2 ;;
    --file-check) checks+=("$1" "$2"$'\n'"$3"); outputs+=("$2"); shift 3 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option '$1'" >&2; exit 64 ;;
  esac
done
if [[ -z "$expected_exit" || $# -eq 0 ]]; then
  echo "usage: expect.sh --exit N [checks...] -- command [args...]" >&2
  exit 64
fi

for f in "${outputs[@]}"; do rm -f -- "$f"; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout --kill-after=5 "$timeout_s" "$@" >"$work/stdout" 2>"$work/stderr"
status=$?

failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=1
}
count_lines() { wc -l <"$1" | tr -d ' '; }

if [[ $status -eq 124 || $status -eq 137 ]]; then
  fail "timed out after ${timeout_s}s"
elif [[ "$status" != "$expected_exit" ]]; then
  fail "exit code $status, expected $expected_exit"
fi
for ((i = 0; i < ${#checks[@]}; i += 2)); do
  what="${checks[i]}"
  arg="${checks[i + 1]}"
  case "$what" in
    --stderr) grep -Eq -e "$arg" "$work/stderr" || fail "no line of stderr matches /$arg/" ;;
    --stdout) grep -Eq -e "$arg" "$work/stdout" || fail "no line of stdout matches /$arg/" ;;
    --stderr-lines)
      n=$(count_lines "$work/stderr")
      [[ "$n" == "$arg" ]] || fail "stderr has $n lines, expected $arg" ;;
    --stdout-lines)
      n=$(count_lines "$work/stdout")
      [[ "$n" == "$arg" ]] || fail "stdout has $n lines, expected $arg" ;;
    --stdout-check)
      sh -c "$arg" <"$work/stdout" >"$work/check" 2>&1 || fail "stdout fails '$arg': $(head -c 500 "$work/check")" ;;
    --file-check)
      file="${arg%%$'\n'*}"
      cmd="${arg#*$'\n'}"
      if [[ ! -f "$file" ]]; then
        fail "no file $file"
      else
        sh -c "$cmd" <"$file" >"$work/check" 2>&1 || fail "$file fails '$cmd': $(head -c 500 "$work/check")"
      fi ;;
  esac
done

if [[ $failed -ne 0 ]]; then
  echo "command: $*" >&2
  echo "--- stdout (first 20 lines) ---" >&2
  head -n 20 "$work/stdout" | cut -c1-300 >&2
  echo "--- stderr (first 20 lines) ---" >&2
  head -n 20 "$work/stderr" | cut -c1-300 >&2
  exit 1
fi
exit 0
