#!/usr/bin/env bash
# The README's first command: set up, build, and run the main job on the
# clips bundled in data/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" >/dev/null
mocap="$root/build/tools/mocap"
cd "$root"
echo "== mocap info data/09.asf data/09_06.amc"
"$mocap" info data/09.asf data/09_06.amc
echo
echo "== mocap fk data/09.asf data/09_06.amc --frames 1:2"
"$mocap" fk data/09.asf data/09_06.amc --frames 1:2
