#!/usr/bin/env bash
# The real-client check of issue 14: Blender imports a BVH and a
# skeleton-only glTF that `mocap convert` wrote, and the world joint
# positions it reports equal `mocap fk`'s within a bound (default 1 mm).
#
#   scripts/blender_check.sh [--no-install] [--mocap PATH] [--asf A --amc M]
#                            [--frames 0,70,140] [--tolerance-mm 1] [--work DIR]
#
# Blender is installed for this check only (scripts/setup.sh blender, about
# 300 MB) unless --no-install, in which case a missing Blender exits 77
# ("skipped", ctest's SKIP_RETURN_CODE). The clip defaults to the bundled
# data/09.asf + data/09_06.amc. Positions: mocap fk of the BVH (metres, Y up)
# against Blender's (Z up: Blender x, y, z = ours x, -z, y), BVH in
# centimetres (Blender keeps the file's numbers: 1 unit = 1 cm here), glTF in
# metres. Prints the worst difference per file, with its frame and joint;
# exits 0 when both are within the bound, 3 otherwise, 2 when a step fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
install=1
mocap=""
asf="$root/data/09.asf"
amc="$root/data/09_06.amc"
frames="0,35,70,105,140"
tolerance_mm=1
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0 ;;
    --mocap) mocap=$2; shift ;;
    --asf) asf=$2; shift ;;
    --amc) amc=$2; shift ;;
    --frames) frames=$2; shift ;;
    --tolerance-mm) tolerance_mm=$2; shift ;;
    --work) work=$2; shift ;;
    *) echo "blender_check: unknown argument $1" >&2; exit 1 ;;
  esac
  shift
done
source "$here/require_tool.sh"
[ "$install" = 1 ] || require_tool "bash scripts/setup.sh blender" blender  # 77, or 1 under CI=true
command -v blender >/dev/null 2>&1 || bash "$here/setup.sh" blender
if [ -z "$mocap" ]; then
  for candidate in "$root/build/tools/mocap" "$(command -v mocap || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then mocap=$candidate; break; fi
  done
fi
[ -x "$mocap" ] || { echo "blender_check: no mocap binary (pass --mocap PATH)" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
name=$(basename "$amc" .amc)
"$mocap" convert "$asf" "$amc" -o "$work/$name.bvh" --bvh-units cm || exit 2
"$mocap" convert "$asf" "$amc" -o "$work/$name.glb" || exit 2
# Ours: the BVH's joints (End Sites included), the same names as the glTF's nodes.
"$mocap" fk "$work/$name.bvh" --bvh-units cm --format csv -o "$work/ours.csv" || exit 2
blender -b --factory-startup --python "$here/blender_joints.py" -- --bvh "$work/$name.bvh" \
  --glb "$work/$name.glb" --frames "$frames" --fps 120 --out "$work/blender.json" >"$work/blender.log" 2>&1 || {
  tail -20 "$work/blender.log" >&2
  echo "blender_check: blender failed (log above)" >&2
  exit 2
}
python3 - "$work/ours.csv" "$work/blender.json" "$frames" "$tolerance_mm" <<'EOF'
import csv, json, sys
ours_path, blender_path, frames, tolerance_mm = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
frames = [int(f) for f in frames.split(",")]
ours = {}
with open(ours_path) as f:
    for row in csv.DictReader(f):
        ours.setdefault(int(row["frame"]), {})[row["bone"]] = (float(row["x"]), float(row["y"]), float(row["z"]))
blender = json.load(open(blender_path))
failed = False
for source, metres_per_unit in (("bvh", 0.01), ("glb", 1.0)):
    worst, where, compared = 0.0, None, 0
    for frame in frames:
        theirs = blender[source][str(frame)]
        for bone, (x, y, z) in ours[frame].items():
            if bone not in theirs:
                print(f"blender_check: {source}: frame {frame}: joint {bone} missing in Blender", file=sys.stderr)
                failed = True
                continue
            bx, by, bz = (v * metres_per_unit for v in theirs[bone])
            # Blender is Z up: its (x, y, z) is our (x, -z, y).
            d = ((bx - x) ** 2 + (by + z) ** 2 + (bz - y) ** 2) ** 0.5 * 1000.0
            compared += 1
            if d >= worst:
                worst, where = d, (frame, bone)
    print(f"blender_check: {source}: worst {worst:.4f} mm at frame {where[0]}, joint {where[1]} "
          f"({compared} joint positions, {len(frames)} frames)")
    if worst > tolerance_mm or compared == 0:
        failed = True
sys.exit(3 if failed else 0)
EOF
