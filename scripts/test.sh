#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite,
# after the suites that parse files or run threads, under sanitizers.
# Extra arguments go to ctest (e.g. -R Fk).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
bash "$root/scripts/setup.sh"

# Sanitizer passes: the test programs run directly (not through ctest), so
# only the suites named here are built.
run_sanitized() {
  local sanitizers="$1" dir="$2"
  shift 2
  local targets=()
  for t in "$@"; do compgen -G "$root/tests/*/$t.cc" >/dev/null && targets+=("$t"); done
  [ ${#targets[@]} -gt 0 ] || return 0
  echo "== ${sanitizers}: ${targets[*]}"
  cmake -S "$root" -B "$root/$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOCAP_WERROR=ON \
    -DMOCAP_SANITIZE="$sanitizers" >/dev/null
  cmake --build "$root/$dir" -j"$jobs" --target "${targets[@]}" >/dev/null
  for t in "${targets[@]}"; do
    "$root/$dir/tests/$t" --gtest_brief=1
  done
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
run_sanitized address,undefined build-asan test_text test_asf test_amc test_fk test_malformed test_mesh test_atomic_write
# Suites that run threads: skinning's worker pool, the serial streamer, parallel reports.
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
run_sanitized thread build-tsan test_skin test_eyes_stream test_report

# Each fuzz target for a while (MOCAP_FUZZ_SECONDS, 0 skips), seeded with the real files.
fuzz_seconds="${MOCAP_FUZZ_SECONDS:-20}"  # CI: 20 s a target keeps the run under 15 min; scripts/fuzz.sh 60 for longer
if [ "$fuzz_seconds" -gt 0 ]; then
  bash "$root/scripts/fuzz.sh" "$fuzz_seconds"
fi

# The whole suite last, so its summary closes the run.
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j"$jobs" "$@"
