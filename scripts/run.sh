#!/usr/bin/env bash
# The README's first command: set up, build, and run the main job on the
# clips bundled in data/: keyframe compression of a real capture.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" >/dev/null
mocap="$root/build/tools/mocap"
# The Python module of the build tree on Debian's python3's path (a .pth file
# in its site-packages, as `pip install -e` does), so that `python3 -c
# "import mocap"` works now; root only, else the PYTHONPATH it needs is said.
python_note="PYTHONPATH=$root/build/python /usr/bin/python3 -c 'import mocap'"
if [ -d "$root/build/python/mocap" ] && [ "$(id -u)" -eq 0 ]; then
  site=$(/usr/bin/python3 -c "import site; print(site.getsitepackages()[0])")
  mkdir -p "$site" && echo "$root/build/python" >"$site/mocap-build-tree.pth"
  python_note="/usr/bin/python3 -c 'import mocap' ($site/mocap-build-tree.pth points at build/python)"
fi
out="$root/out"
mkdir -p "$out"
cd "$root"
echo "== mocap info data/49.asf data/49_06.amc"
"$mocap" info data/49.asf data/49_06.amc | head -n 6
echo
echo "== mocap compress data/49.asf data/49_06.amc --ratio 0.1 -o out/49_06.keys.amc --rebuilt out/49_06.rebuilt.amc"
"$mocap" compress data/49.asf data/49_06.amc --ratio 0.1 -o out/49_06.keys.amc --rebuilt out/49_06.rebuilt.amc
echo
echo "== mocap skin data/09.asf data/09_06.amc --mesh data/humanoid.obj --mesh-units dm --auto-weights --bind-pose data/makehuman_apose.amc -o out/09_06.humanoid.glb"
"$mocap" skin data/09.asf data/09_06.amc --mesh data/humanoid.obj --mesh-units dm --auto-weights \
  --bind-pose data/makehuman_apose.amc -o out/09_06.humanoid.glb
echo
echo "key frames: out/49_06.keys.amc, rebuilt motion: out/49_06.rebuilt.amc"
echo "the humanoid running, as glTF for Blender or three.js: out/09_06.humanoid.glb"
echo "Python: $python_note"
echo "watch it: build/viewer/mocap-viewer data/09.asf data/09_06.amc data/humanoid.obj --mesh-units dm --bind-pose data/makehuman_apose.amc"
