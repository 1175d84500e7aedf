#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite.
# Extra arguments go to ctest (e.g. -R Fk).
#
# Stages, each timed (the times are printed at the end):
#   tsan  the suites that run threads (skinning's pool, the serial streamer,
#         parallel reports) under ThreadSanitizer; only their programs are built
#   fuzz  only with MOCAP_FUZZ_SECONDS > 0: every libFuzzer target for that
#         long, the library instrumented for coverage (scripts/fuzz.sh)
#   asan  the WHOLE suite through ctest (gtest programs, CLI contract,
#         package, viewer, every fuzz target over its seeds), built once
#         with AddressSanitizer + UBSan: no separate plain build, every test
#         runs under the sanitizers
# Sanitized builds compile the library at -O1 -g1 and the code on it (tests,
# CLI, viewer, Python module) at -Og (MOCAP_SANITIZE in CMakeLists.txt): with
# ASan + UBSan -O1 is a third of -O2 -g's compile time. They are unity
# builds (CMAKE_UNITY_BUILD: each target's sources compiled 8 to a unit), so
# that CLI11, nlohmann-json and Eigen are parsed once per unit, not per file:
# the CLI's 12 files took 219 s of CPU, as 2 units 57 s. ccache, where
# installed, keeps objects between runs and between clones of the project.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
start_all=$SECONDS
# The real clients the suite runs (Blender's importers, ffmpeg for movies,
# a one-node Slurm; Node.js for the glTF validator is in the base list):
# installed here so that they run, not skip. Under CI=true a test whose
# client is missing fails, naming the install command.
bash "$root/scripts/setup.sh" blender ffmpeg slurm

source "$root/scripts/cmake_env.sh"

times=()
timed() {  # timed <stage> <command...>
  local name="$1" start=$SECONDS
  shift
  "$@"
  times+=("$(printf '%-6s %4d s' "$name" $((SECONDS - start)))")
}

configure() {  # configure <dir> <sanitizers> [cmake args...]
  local dir="$1" sanitizers="$2"
  shift 2
  cmake_dir "$root/$dir"
  cmake -S "$root" -B "$root/$dir" "${cmake_env[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOCAP_WERROR=ON \
    -DCMAKE_UNITY_BUILD=ON -DMOCAP_SANITIZE="$sanitizers" "$@" >/dev/null
}

# Suites that run threads, each program run directly, in shards.
tsan() {
  local targets=(test_skin test_eyes test_report)
  echo "== thread: ${targets[*]}"
  configure build-tsan thread -DMOCAP_BENCHMARKS=OFF
  cmake --build "$root/build-tsan" -j"$jobs" --target "${targets[@]}" >/dev/null
  # The report's sweeps over the 18 shared clips run the same threads as its
  # tests on the bundled clips; under TSan they only cost (ASan runs them).
  # So do the suites that check what a run wrote and measured (ReportWrite,
  # ReportClipFiles, ReportJitter: 38 s of TSan's CPU, each a two-thread run
  # of the bundled clips as ReportRun's) and two journal cases that check
  # files; ReportRun, the stopped and resumed runs and the shards keep the
  # workers, their hand-over and the journal's writer under TSan.
  # Of the eyes' tests, the serial streamer's (the others run no threads).
  local report_filter='-*OnSharedClips:*OnASharedClip:ReportWrite.*:ReportClipFiles.*:ReportJitter.*'
  report_filter+=':ReportJournal.ATornLastLineIsIgnoredAndCutOff:ReportJournal.AJournalWithItsFirstLineTornStartsAfresh'
  report_filter+=':ReportShard.MergedShardsGiveTheNumbersOfOneRun'
  declare -A filter=([test_report]="$report_filter" [test_eyes]='EyeStream*')
  # Most of these tests run one thread at a time (test_report's took 141 s
  # of wall for 146 s of CPU), so each program runs in gtest shards, as many
  # at once as there are cores: no core waits.
  local shards=$((2 * jobs)) logs="$root/build-tsan/shards" t k failed=0
  rm -rf "$logs" && mkdir -p "$logs"
  for t in "${targets[@]}"; do
    for ((k = 0; k < shards; ++k)); do
      while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
      (
        if GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
          "$root/build-tsan/tests/$t" --gtest_brief=1 --gtest_filter="${filter[$t]:-*}" >"$logs/$t.$k.txt" 2>&1; then
          echo 0 >"$logs/$t.$k.rc"
        else
          echo $? >"$logs/$t.$k.rc"
        fi
      ) &
    done
  done
  wait
  for t in "${targets[@]}"; do
    local passed
    passed=$(awk '/^\[  PASSED  \]/ { n += $4 } END { print n + 0 }' "$logs/$t".*.txt)
    echo "$t: ${passed:-0} tests passed in $shards shards"
    for ((k = 0; k < shards; ++k)); do
      if [ "$(cat "$logs/$t.$k.rc")" != 0 ]; then
        echo "tsan: $t shard $k of $shards failed (exit $(cat "$logs/$t.$k.rc")):"
        cat "$logs/$t.$k.txt"
        failed=1
      fi
    done
  done
  return $failed
}
timed tsan tsan

# libFuzzer only when asked: its clang build was a quarter of a fresh run
# (281 s of 1,257), and the ASan suite already runs every target over its
# seeds and the inputs of fixed crashes (fuzz.replay.*).
fuzz_seconds="${MOCAP_FUZZ_SECONDS:-0}"  # scripts/fuzz.sh 600 for a long campaign
if [ "$fuzz_seconds" -gt 0 ]; then
  # One seed, so that a run repeats the last one's inputs; long campaigns
  # (fuzz.sh alone) draw a new one each time.
  export MOCAP_FUZZ_SEED="${MOCAP_FUZZ_SEED:-1}"
  timed fuzz bash "$root/scripts/fuzz.sh" "$fuzz_seconds"
fi

# The whole suite last, so its summary closes the run.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
asan_build() {
  echo "== address,undefined: the whole suite"
  # UBSan's alignment and null checks left out here: they cost a fifth of
  # this build's compile CPU (865 s -> 690 s; mocap_rig's heaviest unit
  # 75 s -> 48 s) and a third of its tests'. The tree's pointer casts are to
  # bytes or over vectors' own storage; fuzz.sh's campaigns keep full UBSan
  # on the code that reads raw bytes; ASan still stops on a null access.
  configure build-asan address,undefined -DMOCAP_NO_SANITIZE=alignment,null
  bash "$root/scripts/check_packages.sh" "$root/build-asan/linked-files.txt" >/dev/null
  cmake --build "$root/build-asan" -j"$jobs" >/dev/null
}
timed build asan_build
cd "$root/build-asan"
ctest_start=$SECONDS
set +e
ctest --output-on-failure -j"$jobs" "$@" 2>&1 | tee ctest.log
status=${PIPESTATUS[0]}
set -e
times+=("$(printf '%-6s %4d s' ctest $((SECONDS - ctest_start)))")
times+=("$(printf '%-6s %4d s' total $((SECONDS - start_all)))")
echo
echo "== stage times"
printf '%s\n' "${times[@]}"
# Every test that did not run, by name (ctest's list: skipped or not run).
skipped=$(sed -n '/The following tests did not run:/,/^$/p' ctest.log | grep -E '^[[:space:]]+[0-9]+ - ' || true)
if [ -n "$skipped" ]; then
  echo "== skipped ($(wc -l <<<"$skipped")): these checks did not run"
  printf '%s\n' "$skipped"
else
  echo "== skipped: none"
fi
# The runner's summary again, last.
grep -E "tests passed|tests failed" ctest.log | tail -n 1
exit $status
