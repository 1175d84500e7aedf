#!/usr/bin/env bash
# Reads tests/cli/cases.txt (its header says the columns) and runs one case
# through expect.sh; CMake lists the cases with --list and registers a ctest each.
#
#   run_case.sh --list CASES                 one line per case: "name exit props"
#   run_case.sh CASES NAME [VAR=value...]    runs case NAME, the VARs exported
#
# A case is a line starting at column 0 and the indented lines under it. Its
# words are read as shell words (quotes as in bash, $VARs expanded); lines
# "    | ..." are a script run by bash, in place of a command after "--".
# Errors name the table and the line: "cases.txt:12: what was expected".
set -u
here=$(cd "$(dirname "$0")" && pwd)

die() {
  echo "run_case.sh: $*" >&2
  exit 64
}

# parse_cases FILE: fills names[], starts[] (line numbers), texts[] (the words,
# one line per table line) and scripts[] (the script lines, empty if none).
names=() starts=() texts=() scripts=()
parse_cases() {
  local file="$1" n=0 line k=-1
  [[ -f "$file" ]] || die "$file: no such file: expected the table of CLI cases"
  while IFS= read -r line || [[ -n "$line" ]]; do
    n=$((n + 1))
    if [[ -z "${line//[[:space:]]/}" || "$line" == \#* ]]; then
      continue
    elif [[ "$line" =~ ^[[:space:]]+\|\ ?(.*)$ ]]; then
      ((k >= 0)) || die "$file:$n: a script line before the first case"
      scripts[k]+="${BASH_REMATCH[1]}"$'\n'
    elif [[ "$line" =~ ^[[:space:]]+(.*)$ ]]; then
      ((k >= 0)) || die "$file:$n: an indented line before the first case"
      [[ -z "${scripts[k]}" ]] || die "$file:$n: words after the script: expected '    | ' on every line to the case's end"
      texts[k]+=$'\n'"${BASH_REMATCH[1]}"
    else
      k=$((k + 1))
      names[k]="${line%%[[:space:]]*}"
      starts[k]=$n
      texts[k]="$line"
      scripts[k]=""
    fi
  done <"$file"
}

# case_words K: sets words=(...) from case K's text, expanding the exported variables.
words=()
case_words() {
  eval "words=( ${texts[$1]} )" || die "$cases:${starts[$1]}: case '${names[$1]}': its words do not parse as shell words"
}

# check_case K: the columns of case K hold what the header says.
check_case() {
  local k="$1" at="$cases:${starts[$1]}"
  ((${#words[@]} >= 3)) || die "$at: expected a name, an exit code and props"
  [[ "${words[0]}" =~ ^[A-Za-z0-9_.-]+$ ]] || die "$at: name '${words[0]}': expected letters, digits, '_', '.' or '-'"
  [[ "${words[1]}" =~ ^[0-9]+$ ]] || die "$at: case '${words[0]}': exit '${words[1]}': expected a number"
  local p
  for p in ${words[2]//,/ }; do
    [[ "$p" =~ ^(-|python|khronos|setup=[A-Za-z0-9_]+|needs=[A-Za-z0-9_]+)$ ]] ||
      die "$at: case '${words[0]}': prop '$p': expected python, khronos, setup=FIXTURE, needs=FIXTURE or -"
  done
  local has_command=0 w
  for w in "${words[@]:3}"; do [[ "$w" == "--" ]] && has_command=1; done
  if [[ -n "${scripts[k]}" ]]; then
    ((has_command == 0)) || die "$at: case '${words[0]}': both a command after -- and a script"
  else
    ((has_command == 1)) || die "$at: case '${words[0]}': expected a command after -- or a script"
  fi
}

if [[ $# -eq 2 && "$1" == "--list" ]]; then
  cases="$2"
  parse_cases "$cases"
  # Every variable a case may name, so that the words parse (their values do not matter here).
  export MOCAP=mocap DATA=data MALFORMED=malformed SEEDS=seeds OUT=out PYTHON=python3 KHRONOS=khronos
  export HUMANOID=humanoid CHECK=check
  declare -A seen=()
  for k in "${!names[@]}"; do
    case_words "$k"
    check_case "$k"
    [[ -z "${seen[${words[0]}]:-}" ]] || die "$cases:${starts[k]}: case '${words[0]}' named twice (first at line ${seen[${words[0]}]})"
    seen[${words[0]}]=${starts[k]}
    echo "${words[0]} ${words[1]} ${words[2]}"
  done
  exit 0
fi

[[ $# -ge 2 ]] || die "usage: run_case.sh --list CASES | run_case.sh CASES NAME [VAR=value...]"
cases="$1"
name="$2"
shift 2
for kv in "$@"; do
  [[ "$kv" =~ ^[A-Z][A-Z0-9_]*= ]] || die "'$kv': expected VAR=value"
  export "${kv?}"
done
# Shorthands the cases use: the bundled humanoid as skin reads it, and tests/cli/checks.py.
export HUMANOID="${DATA:-}/humanoid.obj --mesh-units dm --bind-pose ${DATA:-}/makehuman_apose.amc"
export CHECK="${PYTHON:-python3} $here/checks.py"

parse_cases "$cases"
for k in "${!names[@]}"; do
  [[ "${names[k]}" == "$name" ]] || continue
  case_words "$k"
  check_case "$k"
  if [[ -n "${scripts[k]}" ]]; then
    exec bash "$here/expect.sh" --exit "${words[1]}" "${words[@]:3}" -- bash -c "${scripts[k]}" "cli.$name"
  fi
  exec bash "$here/expect.sh" --exit "${words[1]}" "${words[@]:3}"
done
die "$cases: no case '$name'"
