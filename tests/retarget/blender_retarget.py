# What Blender (a real glTF client) sees in a `mocap retarget` output.
#
#   blender -b --factory-startup --python tests/retarget/blender_retarget.py -- \
#       --fps 120 --glb out.glb --frames 141 [--glb other.glb --frames 471 ...]
#   (or -- --make-fbx model.glb --out model.fbx: an FBX input, see below)
#
# Imports each .glb with Blender's own glTF importer at the capture's rate
# (into an empty scene each) and checks: one armature; its bones are the
# file's skin joints by name; the meshes hold as many vertices as the file's
# POSITION accessors; the action named after the clip spans the capture's
# frames. Prints one line per check and exits 1 when any fails.
import json
import struct
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
pairs = list(zip([a.lstrip("-") for a in argv[::2]], argv[1::2]))
args = dict(pairs)
if "make-fbx" in args:
    # --make-fbx in.glb --out out.fbx: the model as Blender's FBX exporter
    # writes it (centimetres under a 0.01 scale in Assimp's reading, the
    # texture embedded), without its animations: an FBX input for mocap.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    import numpy

    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    bpy.ops.import_scene.gltf(filepath=args["make-fbx"])
    for action in list(bpy.data.actions):
        bpy.data.actions.remove(action)
    bpy.ops.export_scene.fbx(filepath=args["out"], add_leaf_bones=False, bake_anim=False, path_mode="COPY",
                             embed_textures=True)
    sys.exit(0)
fps = int(args["fps"])
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def check_file(path, frames):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<I", data[12:16])[0]
    doc = json.loads(data[20:20 + length])
    skin_joints = {doc["nodes"][j].get("name") for skin in doc.get("skins", []) for j in skin["joints"]}
    positions = sum(doc["accessors"][p["attributes"]["POSITION"]]["count"] for m in doc["meshes"]
                    for p in m["primitives"])
    clip = doc["animations"][0]["name"]

    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = fps
    # The glTF importer of Blender 3.4 uses numpy.bool, gone from numpy 1.24.
    import numpy

    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    bpy.ops.import_scene.gltf(filepath=path)

    print("== " + path)
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    check(len(armatures) == 1, "one armature (found %d)" % len(armatures))
    if armatures:
        bones = {b.name for b in armatures[0].data.bones}
        check(skin_joints <= bones, "the armature's bones include the %d skin joints by name (missing: %s)"
              % (len(skin_joints), sorted(skin_joints - bones)[:5]))
    vertices = sum(len(o.data.vertices) for o in bpy.data.objects if o.type == "MESH")
    check(vertices == positions, "mesh vertices %d == the file's %d" % (vertices, positions))
    actions = [a for a in bpy.data.actions if a.name.startswith(clip)]
    check(len(actions) >= 1, "an action named after the clip '%s' (actions: %s)"
          % (clip, [a.name for a in bpy.data.actions]))
    if actions:
        start, end = actions[0].frame_range
        span = int(round(end - start)) + 1
        check(abs(span - frames) <= 1, "the action spans %d frames at %d fps, the capture %d" % (span, fps, frames))


glbs = [v for k, v in pairs if k == "glb"]
frame_counts = [int(v) for k, v in pairs if k == "frames"]
check(len(glbs) == len(frame_counts) and glbs, "a --frames for each of %d --glb" % len(glbs))
for path, frames in zip(glbs, frame_counts):
    check_file(path, frames)
sys.exit(1 if failures else 0)
