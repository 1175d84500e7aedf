#!/usr/bin/env bash
# Builds the benchmarks in Release (build-bench/) and runs every
# tests/bench/bench_* program, then measures the memory a loaded clip takes.
#
#   scripts/bench.sh [benchmark flags...]    e.g. --benchmark_filter=Parse
#
# Results are printed and written as JSON to build-bench/bench-results/.
# Set MOCAP_BENCH_SKIP_MEMORY=1 to skip the memory section.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-bench"
results="$build/bench-results"

if [[ -f "$root/scripts/setup.sh" ]]; then
  bash "$root/scripts/setup.sh"
fi

source "$root/scripts/cmake_env.sh"
cmake_dir "$build"
cmake -S "$root" -B "$build" "${cmake_env[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null
targets=()
for source in "$root"/tests/bench/bench_*.cc; do
  [[ -e "$source" ]] && targets+=("$(basename "$source" .cc)")
done
if ((${#targets[@]} == 0)); then
  echo "bench.sh: no tests/bench/bench_*.cc" >&2
  exit 1
fi
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}" mocap_cli

mkdir -p "$results"
for name in "${targets[@]}"; do
  echo
  echo "== $name"
  "$build/tests/bench/$name" --benchmark_out="$results/$name.json" --benchmark_out_format=json "$@"
done

# Parser speed as a ratio to the naive baseline measured in the same run.
if [[ -f "$results/bench_parse.json" ]] && command -v python3 >/dev/null; then
  echo
  echo "== AMC parsing, MB/s (10^6 bytes per CPU second)"
  python3 - "$results/bench_parse.json" <<'EOF'
import json, sys
runs = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
for name, b in runs.items():
    kind, _, clip = name.partition("/")
    if "bytes_per_second" in b and kind in ("ParseAmc", "ReadAmc", "NaiveParse"):
        mbps = b["bytes_per_second"] / 1e6
        naive = runs.get("NaiveParse/" + clip, {}).get("bytes_per_second")
        ratio = f"  {b['bytes_per_second'] / naive:5.1f}x naive" if naive else ""
        print(f"  {name:24s} {mbps:8.1f} MB/s{ratio}")
    if "items_per_second" in b:
        print(f"  {name:24s} {b['items_per_second']:10.0f} frames/s")
EOF
fi

# The peer skinning case (bench_skin BM_PeerSkin, 1M vertices, 31 joints, one
# thread) as a ratio to the memcpy of the same bytes in the same run, and
# the packed weights against the VertexWeights layout.
if [[ -f "$results/bench_skin.json" ]] && command -v python3 >/dev/null; then
  echo
  echo "== Peer skinning, vertices/cpu-s as a ratio to BM_PeerMemcpy (same normals)"
  python3 "$root/scripts/peer_skin_ratios.py" "$results/bench_skin.json"
fi

if [[ "${MOCAP_BENCH_SKIP_MEMORY:-0}" != 1 && -x "$build/tests/bench/bench_parse" ]]; then
  echo
  echo "== Memory of the longest clip"
  cmu="$root/../shared/data/cmu"
  [[ -d "$cmu" ]] || cmu="$root/data"
  amc="$(ls -S "$cmu"/*.amc | head -n 1)"
  clip="$(basename "$amc" .amc)"
  asf="$cmu/${clip%%_*}.asf"
  "$build/tests/bench/bench_parse" --memory "$clip"
  if [[ -x /usr/bin/time ]]; then
    max_rss_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
    base="$(max_rss_kb "$build/tools/mocap" --version)"
    skel="$(max_rss_kb "$build/tools/mocap" info "$asf")"
    full="$(max_rss_kb "$build/tools/mocap" info "$asf" "$amc")"
    file_kb=$(($(stat -c %s "$amc") / 1024))
    echo "max RSS, mocap --version      ${base} KiB"
    echo "max RSS, mocap info ASF       ${skel} KiB"
    echo "max RSS, mocap info ASF AMC   ${full} KiB  (+$((full - skel)) KiB for the clip; AMC file ${file_kb} KiB)"
  else
    echo "(no /usr/bin/time: max RSS of mocap info not measured)"
  fi
fi
