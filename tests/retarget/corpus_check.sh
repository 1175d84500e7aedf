#!/usr/bin/env bash
# `mocap retarget` on the real characters of shared/data/characters/ (their
# PROVENANCE.md: glb, gltf, vrm and fbx from eight exporters, each with its
# trap), read back by a real client and judged against the capture.
#   bash tests/retarget/corpus_check.sh MOCAP CMU_DIR CHARACTERS_DIR WORK_DIR
# 1. `mocap retarget` plays the walk 16_15 and the run 09_06 on each of the
#    eight characters and on the Khronos CesiumMan (glTF) and RiggedFigure
#    (COLLADA, read by Blender's COLLADA importer) the in-tree tests use
#    (a character named by a path relative to CHARACTERS_DIR in
#    corpus_roles.json) (20 outputs; a retarget that fails is a FAIL line with
#    mocap's stderr, and the rest go on); `mocap fk` writes the two captures'
#    world positions;
# 2. the Khronos validator reads each output (scripts/validate_gltf.sh; its
#    77, no validator here, is not a failure of this test);
# 3. one Blender process (blender_corpus.py) imports every output and every
#    original character and measures them (bone heads on every frame, lowest
#    deformed vertex, names, vertex counts);
# 4. corpus_check.py judges those measures against the captures with the
#    hand-made role table corpus_roles.json: upright, soles on the floor,
#    root travel, segment directions, foot sliding on contacts, size, names
#    and vertex counts kept.
# Exit 0: every check held; 1: one failed; 77: no blender, no python3 with
# numpy or no shared data (1 under CI=true).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mocap=$1 cmu=$2 characters=$3 work=$4
source "$here/../../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh blender" blender
python=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || unavailable "no python3 with numpy (python3-numpy; bash scripts/setup.sh)"
for f in 16.asf 16_15.amc 09.asf 09_06.amc; do
  [ -f "$cmu/$f" ] || unavailable "no $cmu/$f (the shared CMU clips)"
done
names=$("$python" -c 'import json, sys; print("\n".join(k for k in json.load(open(sys.argv[1])) if not k.startswith("_")))' \
  "$here/corpus_roles.json") || exit 1
for c in $names; do
  [ -f "$characters/$c" ] || unavailable "no $characters/$c (the shared characters)"
done
rm -rf "$work" && mkdir -p "$work" || exit 1
started=$SECONDS
status=0
clips=(16_15 09_06)
fks=() outputs=() originals=() measure=()
declare -A validated  # output -> its character, for corpus_open.txt
for clip in "${clips[@]}"; do
  asf="$cmu/${clip%%_*}.asf"
  if "$mocap" fk "$asf" "$cmu/$clip.amc" -o "$work/fk_$clip.csv" >"$work/fk_$clip.log" 2>&1; then
    fks+=("$clip=$work/fk_$clip.csv")
  else
    echo "FAIL mocap fk $clip: $(tr '\n' ' ' <"$work/fk_$clip.log")"
    status=1
  fi
done
[ ${#fks[@]} -eq ${#clips[@]} ] || exit 1
for c in $names; do
  originals+=(--original "$c" "$characters/$c")
  for clip in "${clips[@]}"; do
    asf="$cmu/${clip%%_*}.asf"
    out="$work/$(basename "$c" | tr . _)_$clip.glb"
    if "$mocap" retarget "$asf" "$cmu/$clip.amc" --model "$characters/$c" -o "$out" >"$out.log" 2>&1 && [ -f "$out" ]; then
      outputs+=("$out")
      validated[$out]=$c
      measure+=(--output "$c" "$clip" "$out")
    else
      echo "FAIL $c $clip retarget: mocap retarget failed: $(tr '\n' ' ' <"$out.log")"
      status=1
    fi
  done
done
echo "== retargeted ${#outputs[@]} of $(( $(wc -w <<<"$names") * ${#clips[@]} )) ($((SECONDS - started)) s)"
if [ ${#outputs[@]} -gt 0 ]; then
  bash "$here/../../scripts/validate_gltf.sh" "${outputs[@]}" >"$work/validate.log" 2>&1
  code=$?
  sed 's/^/  /' "$work/validate.log"
  if [ $code -eq 77 ]; then
    echo "== no glTF validator here (77): nothing validated"
  else
    for out in "${outputs[@]}"; do
      line=$(grep -F "$out: " "$work/validate.log" | head -1)
      line=${line#"$out: "}
      if [[ "$line" =~ ^0\ errors, ]]; then
        echo "ok   $(basename "$out") gltf validator: $line"
      elif grep -qE "^${validated[$out]//./\\.} \\* validator" "$here/corpus_open.txt"; then
        echo "OPEN $(basename "$out") gltf validator: ${line:-no report}"
      else
        echo "FAIL $(basename "$out") gltf validator: ${line:-no report}"
        status=1
      fi
    done
  fi
fi
echo "== validated ($((SECONDS - started)) s)"
if ! blender -b --factory-startup --python "$here/blender_corpus.py" -- --roles "$here/corpus_roles.json" --fps 120 \
  --out "$work/measures.json" "${originals[@]}" "${measure[@]}" >"$work/blender.log" 2>&1 \
  || [ ! -f "$work/measures.json" ]; then
  echo "FAIL blender_corpus.py measured nothing:"
  tail -20 "$work/blender.log"
  exit 1
fi
echo "== measured by Blender ($((SECONDS - started)) s)"
"$python" "$here/corpus_check.py" "$work/measures.json" "$here/corpus_roles.json" --open="$here/corpus_open.txt" \
  "${fks[@]}" || status=1
echo "== corpus_check.sh: $((SECONDS - started)) s"
exit $status
