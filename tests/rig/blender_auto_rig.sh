#!/usr/bin/env bash
# Issue 29's criteria in a real client: bodies rigged and skinned by
# `mocap skin --auto-weights -o body.glb`, imported by Blender and measured
# on Blender's own skinning of our weights (blender_auto_rig.py: limb joints
# inside or within 1 cm, touching parts within 2 cm, the longest edge).
#   bash tests/rig/blender_auto_rig.sh MOCAP DATA_DIR CMU_DIR WORK_DIR
# Bodies (scripts/make_rig_test_meshes.py): the humanoid cut into parts with
# plates, eyes and teeth, in Blender's own frame (Z up, facing -Y, metres),
# by the cartwheel 49_06 and the walk 16_15 (read onto subject 49's
# skeleton, as tests/rig/test_embed_bodies.cc does; the walk's binding reads
# the weights the cartwheel's saved, the same binding without its cost);
# the overlapping parts with a pouch and a belt (Z up, centimetres) by the
# cartwheel. Stretch bounds: on the walk the issue's 3x (Blender measured
# 1.92x, none past 3x; 2.19x before the creases were relaxed,
# voxel_weights.h step 7); on the cartwheels what test_embed_bodies.cc
# measures with a margin (2.40x and 2.38x in Blender, none past 3x; 2.42x
# and 2.50x before the chest ended at the neck's base, embed.h step 3b, and
# the legs' stretch was summed, voxel_weights.h step 7; before
# the creases were relaxed 2.97x and 2.72x; with falloff 0.5, step 4, 3.10x
# and 2.75x, 3 and 0 edge-poses past 3x; 3.85x and 3.38x before the pelvis
# was a girdle and the spine thick, step 2).
# Exit 0: every check held; 1: one failed; 77: no blender (1 under CI=true).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mocap=$1 data=$2 cmu=$3 work=$4
source "$here/../../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh blender" blender
rm -rf "$work" && mkdir -p "$work" || exit 1
python3 "$here/../../scripts/make_rig_test_meshes.py" "$work" >/dev/null || exit 1
status=0
# name mesh units amc max_stretch [mocap skin's weight flags]
body() {
  local name=$1 mesh="$work/$2" units=$3 amc=$4 stretch=$5
  shift 5
  "$mocap" skin "$data/49.asf" "$amc" --mesh "$mesh" --mesh-units "$units" "$@" -o "$work/$name.glb" \
    >"$work/$name.log" 2>&1 || { echo "FAIL mocap skin $name:"; cat "$work/$name.log"; status=1; return; }
  blender -b --factory-startup --python "$here/blender_auto_rig.py" -- --glb "$work/$name.glb" \
    --max-stretch "$stretch" >"$work/$name.blender.log" 2>&1
  local code=$?
  grep -E '^(==|ok|FAIL) ' "$work/$name.blender.log"
  if [ $code -ne 0 ]; then
    grep -E '^(Traceback|  File|[A-Za-z]*Error)' "$work/$name.blender.log"
    status=1
  fi
}
body parts_cartwheel parts_zup_m.obj m "$data/49_06.amc" 2.8 --auto-weights --save-weights "$work/parts.weights"
if [ -f "$cmu/16_15.amc" ] && [ -f "$work/parts.weights" ]; then
  body parts_walk parts_zup_m.obj m "$cmu/16_15.amc" 3.0 --weights "$work/parts.weights"
else
  echo "no walk at $cmu/16_15.amc: the cartwheels alone"
fi
body overlap_cartwheel overlap_zup_cm.obj cm "$data/49_06.amc" 2.8 --auto-weights
exit $status
