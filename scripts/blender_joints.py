# World joint positions as Blender sees them, for scripts/blender_check.sh.
#
#   blender -b --factory-startup --python scripts/blender_joints.py -- \
#       --bvh clip.bvh --glb clip.glb --frames 0,70,140 --out joints.json
#
# Imports the BVH with Blender's own importer (bpy.ops.import_anim.bvh: one
# armature, a bone per joint, End Sites as the tails of leaf bones) and the
# skeleton-only glTF with Blender's glTF importer (nodes without a skin
# become empties), then writes, per source and per frame of the clip (0 is
# the first), each joint's world position in Blender's frame (Z up, Blender
# units) as JSON:
#   {"bvh": {"0": {"Hips": [x, y, z], "LeftToeBase_end": [...], ...}, ...},
#    "glb": {"0": {...}, ...}}
# BVH joints are the pose bones' heads, End Sites the tails of the bones that
# have one (named "<joint>_end", as mocap names them); glTF joints are the
# empties' world translations, named as the nodes.
import builtins
import json
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
args = {}
for key, value in zip(argv[::2], argv[1::2]):
    args[key.lstrip("-")] = value
frames = [int(f) for f in args.get("frames", "0").split(",")]
result = {}

# A scene of its own: nothing from the startup file in the world.
bpy.ops.wm.read_factory_settings(use_empty=True)

if "bvh" in args:
    # Debian's Blender 3.4 BVH importer opens files with mode 'rU', which
    # Python 3.11 removed; 'r' reads the same text.
    real_open = builtins.open

    def open_without_u(file, mode="r", *rest, **kw):
        if isinstance(mode, str) and "U" in mode:
            mode = mode.replace("U", "") or "r"
        return real_open(file, mode, *rest, **kw)

    builtins.open = open_without_u
    try:
        bpy.ops.import_anim.bvh(filepath=args["bvh"], global_scale=1.0, frame_start=1, use_fps_scale=False,
                                rotate_mode="NATIVE", axis_forward="-Z", axis_up="Y")
    finally:
        builtins.open = real_open
    armature = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    # Leaf bones whose tail is a BVH End Site: the importer reads the End
    # Site's OFFSET as the tail. Which joints have one is read from the file.
    end_sites = set()
    joint = None
    with open(args["bvh"]) as f:
        words = f.read().split()
    for i, w in enumerate(words):
        if w in ("ROOT", "JOINT"):
            joint = words[i + 1]
        elif w == "End" and i + 1 < len(words) and words[i + 1] == "Site":
            end_sites.add(joint)
        elif w == "MOTION":
            break
    scene = bpy.context.scene
    out = {}
    for frame in frames:
        scene.frame_set(frame + 1)  # BVH frame 0 is Blender frame frame_start
        joints = {}
        for bone in armature.pose.bones:
            joints[bone.name] = list(armature.matrix_world @ bone.head)
            if bone.name in end_sites:
                joints[bone.name + "_end"] = list(armature.matrix_world @ bone.tail)
        out[str(frame)] = joints
    result["bvh"] = out
    for o in list(bpy.context.scene.objects):
        bpy.data.objects.remove(o, do_unlink=True)

if "glb" in args:
    # The glTF importer of Blender 3.4 uses numpy.bool, gone from numpy 1.24.
    import numpy

    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    scene = bpy.context.scene
    # Keys land on frame time * scene fps: at the clip's rate, frame k is
    # sample k exactly.
    scene.render.fps = int(args.get("fps", "120"))
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=args["glb"])
    out = {}
    for frame in frames:
        scene.frame_set(frame)
        joints = {}
        for o in scene.objects:
            if o.type == "EMPTY":
                joints[o.name] = list(o.matrix_world.translation)
        out[str(frame)] = joints
    result["glb"] = out

with open(args["out"], "w") as f:
    json.dump(result, f)
print("blender_joints: wrote", args["out"], {k: len(v[str(frames[0])]) for k, v in result.items()})
