#!/usr/bin/env bash
# Blender imports what `mocap retarget` writes (tests/retarget/blender_retarget.py).
#   bash tests/retarget/blender_retarget.sh MOCAP KHRONOS_DIR DATA_DIR WORK_DIR
# Exit 0: every check held; 1: one failed; 77: no blender (1 under CI=true).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mocap=$1 khronos=$2 data=$3 work=$4
source "$here/../../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh blender" blender
mkdir -p "$work"
status=0
run() {  # model (a path, or a name in KHRONOS_DIR) asf amc frames
  local model=$1
  [[ "$model" == */* ]] || model="$khronos/$model"
  local out="$work/blender_retarget_$(basename "$1" | tr . _).glb"
  "$mocap" retarget "$data/$2" "$data/$3" --model "$model" -o "$out" >/dev/null || { status=1; return; }
  echo "== $1 with $3"
  blender -b --factory-startup --python "$here/blender_retarget.py" -- --glb "$out" --frames "$4" --fps 120 \
    >"$work/blender_retarget.log" 2>&1
  local code=$?
  grep -E '^(ok|FAIL) ' "$work/blender_retarget.log"
  if [ $code -ne 0 ]; then
    tail -5 "$work/blender_retarget.log"
    status=1
  fi
}
run CesiumMan.glb 09.asf 09_06.amc 141
run RiggedFigure.dae 16.asf 16_05.amc "$(grep -cE '^[0-9]+$' "$data/16_05.amc")"
# An FBX input: CesiumMan as Blender's FBX exporter writes it (Assimp reads it in centimetres).
if blender -b --factory-startup --python "$here/blender_retarget.py" -- --make-fbx "$khronos/CesiumMan.glb" \
  --out "$work/blender_cesium.fbx" >"$work/blender_fbx.log" 2>&1; then
  run "$work/blender_cesium.fbx" 09.asf 09_06.amc 141
  # The FBX's output through the Khronos validator as well (77: no validator here, not a failure of this test).
  bash "$here/../../scripts/validate_gltf.sh" "$work/blender_retarget_blender_cesium_fbx.glb"
  code=$?
  [ $code -eq 0 ] || [ $code -eq 77 ] || status=1
else
  tail -5 "$work/blender_fbx.log"
  status=1
fi
exit $status
