#!/usr/bin/env bash
# `mocap report --resume` against the real binary: a report over a few clips
# is killed (SIGKILL) once its journal holds at least one clip, started again
# without --resume (refused: exit 1), then with --resume, and the result is
# compared with an uninterrupted run. Only the run times and the run record
# (date, command line) may differ; any other difference is printed and fails.
#
# usage: report_resume_kill.sh <mocap> <python3> <work folder> <amc>...
set -euo pipefail
mocap=$1 python=$2 work=$3
shift 3
fail() { echo "report_resume_kill: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
args=("$@" --ratios 0.05,0.1 --passes 2 -j 1)
out=$work/r.json journal=$work/r.json.journal

"$mocap" report "${args[@]}" --progress=none -o "$work/whole.json"

"$mocap" report "${args[@]}" --progress=none -o "$out" &
pid=$!
for _ in $(seq 1 3000); do  # at most 30 s
  lines=$(wc -l < "$journal" 2>/dev/null || echo 0)
  [ "$lines" -ge 2 ] && break  # the run's first line and one clip
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null && fail "the run ended before it was killed: use longer clips"
[ -e "$out" ] && fail "the run wrote $out before it was killed"
[ -f "$journal" ] || fail "no journal at $journal after the kill"
kept=$(( $(wc -l < "$journal") - 1 ))
[ "$kept" -ge 1 ] && [ "$kept" -lt $# ] || fail "expected 1 to $(($# - 1)) clips in the journal, found $kept"
echo "killed with $kept of $# clips journalled ($(wc -c < "$journal") bytes)"

# Without --resume the journal is not thrown away.
set +e
"$mocap" report "${args[@]}" --progress=none -o "$out" 2> "$work/refused.txt"
code=$?
set -e
[ "$code" -eq 1 ] || fail "without --resume: exit $code, expected 1"
grep -q -- "add --resume" "$work/refused.txt" || fail "without --resume: $(cat "$work/refused.txt")"

"$mocap" report "${args[@]}" --resume --progress=machine -o "$out" 2> "$work/resume.jsonl"
[ -e "$journal" ] && fail "the journal is still there after the report was written"
head -n 1 "$work/resume.jsonl" | grep -q "\"event\":\"resume\",\"done\":$kept," ||
  fail "expected a resume event with done $kept: $(head -n 1 "$work/resume.jsonl")"
ran=$(grep -c '"event":"clip"' "$work/resume.jsonl")
[ "$ran" -eq $(($# - kept)) ] || fail "the resumed run measured $ran clips, expected $(($# - kept))"

"$python" "$(dirname "$0")/../../scripts/same_report.py" "$work/whole.json" "$out" --names uninterrupted resumed
