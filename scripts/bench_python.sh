#!/usr/bin/env bash
# Read + world positions of a clip through the Python module against the
# `mocap` CLI doing the same work, in one run (docs/python.md):
#
#   scripts/bench_python.sh [--amcparser path/to/amc_parser.py] [ASF AMC]
#
# Default clip: the longest of ../shared/data/cmu (14_02, 5,423 frames), else
# data/49_06. Times are the best of several runs, the interpreter's start
# excluded (the Python side is timed inside one interpreter):
#   python      mocap.read_clip(asf, amc) + clip.world_positions()
#   cli         mocap fk ASF AMC --frames LAST:LAST: reads the clip and runs
#               FK over every frame (its floor check, cli_util.cc's
#               warn_if_implausible), prints one frame; its process start
#               (mocap --version) is measured too and subtracted
#   cli csv     mocap fk ASF AMC --format csv > /dev/null: every frame printed
# With --amcparser (CalciferZh/AMCParser's amc_parser.py, not bundled: its
# licence is its own), its parse_amc on the same file and, with
# python3-transforms3d (setup.sh installs it when asked), its FK.
# MOCAP_BUILD picks the build folder (default build/, which must hold the
# module and the CLI: cmake --build build --target mocap_python mocap_cli).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MOCAP_BUILD:-$root/build}"
amcparser=""
if [ "${1:-}" = "--amcparser" ]; then amcparser="$(realpath "$2")"; shift 2; fi
if [ $# -eq 2 ]; then
  asf="$1" amc="$2"
elif [ -d "$root/../shared/data/cmu" ]; then
  amc="$(ls -S "$root"/../shared/data/cmu/*_*.amc | head -1)"
  asf="$(dirname "$amc")/$(basename "$amc" | cut -d_ -f1).asf"
else
  asf="$root/data/49.asf" amc="$root/data/49_06.amc"
fi
cli="$build/tools/mocap"
[ -x "$cli" ] && ls "$build"/python/mocap/_mocap.*.so >/dev/null 2>&1 || {
  echo "bench_python.sh: build the module and the CLI first: cmake --build $build --target mocap_python mocap_cli" >&2
  exit 1
}
python="$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' "$build/CMakeCache.txt")"
[ -n "$amcparser" ] && bash "$root/scripts/setup.sh" python3-transforms3d

PYTHONPATH="$build/python" "$python" - "$cli" "$asf" "$amc" "$amcparser" <<'PY'
import os, subprocess, sys, time
import mocap

cli, asf, amc, amcparser = sys.argv[1:5]


def best(work, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def run(*args):
    subprocess.run([cli, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


clip = mocap.read_clip(asf, amc)
frames, joints = len(clip), len(clip.joint_names)
last = int(clip.frame_numbers[-1])
megabytes = os.path.getsize(amc) / 1e6
python = best(lambda: mocap.read_clip(asf, amc).world_positions(), 9)
read_only = best(lambda: mocap.read_clip(asf, amc), 9)
start = best(lambda: run("--version"), 9)
same = best(lambda: run("fk", asf, amc, "--frames", f"{last}:{last}"), 9)
csv = best(lambda: run("fk", asf, amc, "--format", "csv"), 3)
print(f"{os.path.basename(amc)}: {frames} frames x {joints} joints, {megabytes:.2f} MB")
print(f"  python  read + world_positions  {python * 1e3:8.2f} ms  "
      f"({megabytes / python:.0f} MB/s; read alone {read_only * 1e3:.2f} ms)")
print(f"  cli     fk --frames {last}:{last}     {same * 1e3:8.2f} ms  "
      f"(process start {start * 1e3:.2f} ms: {(same - start) * 1e3:.2f} ms of work)")
print(f"  cli     fk --format csv          {csv * 1e3:8.2f} ms  (every frame printed)")
print(f"  ratio   python / cli work        {python / (same - start):8.2f}x  "
      f"(python / cli with its start: {python / same:.2f}x)")
if amcparser:
    sys.path.insert(0, os.path.dirname(amcparser))
    import amc_parser  # CalciferZh/AMCParser, as given
    parse = best(lambda: amc_parser.parse_amc(amc), 3)
    print(f"  amcparser parse_amc              {parse * 1e3:8.2f} ms  ({megabytes / parse:.0f} MB/s)")
    print(f"  ratio   amcparser parse / python read_clip {parse / read_only:.1f}x, "
          f"/ python read + world_positions {parse / python:.1f}x")
    bones = amc_parser.parse_asf(asf)
    motions = amc_parser.parse_amc(amc)
    def fk():
        for motion in motions:
            bones["root"].set_motion(motion)
    fk_time = best(fk, 1)
    print(f"  amcparser parse + set_motion     {(parse + fk_time) * 1e3:8.2f} ms  "
          f"({(parse + fk_time) / python:.0f}x python's read + world_positions)")
PY
