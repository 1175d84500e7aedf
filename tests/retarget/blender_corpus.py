# What Blender (a real glTF client) sees in `mocap retarget` outputs made on
# the real characters of shared/data/characters/, and in those characters as
# their authors shipped them. Measures only; tests/retarget/corpus_check.py
# judges (tests/retarget/corpus_check.sh runs both).
#
#   blender -b --factory-startup --python tests/retarget/blender_corpus.py -- \
#       --roles tests/retarget/corpus_roles.json --fps 120 --out measures.json \
#       --original CHARACTER FILE [--original ...] \
#       --output CHARACTER CLIP OUT.glb [--output ...]
#
# CHARACTER is a key of the roles file (the character's file name). Each file
# is imported into an empty scene of its own: outputs and glTF/GLB/VRM
# originals with Blender's glTF importer (a .vrm is copied to a .glb name
# first), FBX originals with Blender's FBX importer. Nothing is fitted: every
# position is in the scene's own frame, converted back to glTF axes (Blender
# (x, y, z) -> glTF (x, z, -y)), in the file's units (metres for glTF).
#
# Per output: the armatures' bone names, the mesh vertex count, the names
# holding "$AssimpFbx$", the action(s), and on every frame of the animation
# (integer frames over the armature's action's range, at --fps) the world
# position of the head of each bone named in the roles file
# (armature.matrix_world @ pose_bone.head: the glTF importer puts a bone's head
# at its joint node's position); on 8 evenly spaced frames the lowest vertex
# of the evaluated meshes (after their armature modifier), skinned meshes and
# all meshes apart. Per original: bone names, vertex count, "$AssimpFbx$"
# names and the rest-pose head of each role bone. Both: every object's name,
# and per mesh its vertex count and its count of distinct vertex positions.
#
# One JSON file out; a file that fails to import is recorded with its error
# and the others go on. Exit 0 unless the arguments are wrong.
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

import bmesh
import bpy

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
roles_path = out_path = None
fps = 120
originals, outputs = [], []
i = 0
while i < len(argv):
    a = argv[i]
    if a == "--roles":
        roles_path, i = argv[i + 1], i + 2
    elif a == "--out":
        out_path, i = argv[i + 1], i + 2
    elif a == "--fps":
        fps, i = int(argv[i + 1]), i + 2
    elif a == "--original":
        originals.append((argv[i + 1], argv[i + 2]))
        i += 3
    elif a == "--output":
        outputs.append((argv[i + 1], argv[i + 2], argv[i + 3]))
        i += 4
    else:
        sys.exit("blender_corpus.py: unknown argument " + a)
if not roles_path or not out_path:
    sys.exit("blender_corpus.py: --roles and --out are required")
with open(roles_path) as f:
    roles = {k: v for k, v in json.load(f).items() if not k.startswith("_")}

# The glTF importer of Blender 3.4 uses numpy.bool, gone from numpy 1.24.
import numpy  # noqa: E402

if not hasattr(numpy, "bool"):
    numpy.bool = bool

MARK = "$AssimpFbx$"
tmp = tempfile.mkdtemp(prefix="blender_corpus_")


def gltf(v):
    return [v[0], v[2], -v[1]]


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = fps
    bpy.context.scene.render.fps_base = 1.0


def import_file(path):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".fbx":
        bpy.ops.import_scene.fbx(filepath=path)
        return "fbx"
    if ext == ".dae":
        bpy.ops.wm.collada_import(filepath=path)
        return "dae"
    if ext not in (".glb", ".gltf"):  # .vrm: a GLB under another name
        copy = os.path.join(tmp, os.path.basename(path) + ".glb")
        shutil.copyfile(path, copy)
        path = copy
    bpy.ops.import_scene.gltf(filepath=path)
    return "gltf"


def armatures():
    return [o for o in bpy.data.objects if o.type == "ARMATURE"]


def meshes():
    return [o for o in bpy.data.objects if o.type == "MESH"]


def common(record):
    arms = armatures()
    record["armatures"] = [a.name for a in arms]
    record["bones"] = sorted({b.name for a in arms for b in a.data.bones})
    record["vertices"] = sum(len(o.data.vertices) for o in meshes())
    record["meshes"] = [[o.name, len(o.data.vertices), distinct_positions(o)] for o in meshes()]
    record["distinct_positions"] = sum(m[2] for m in record["meshes"])
    record["objects"] = sorted(o.name for o in bpy.data.objects)
    names = [o.name for o in bpy.data.objects] + record["bones"]
    record["assimp_names"] = sorted({n for n in names if MARK in n})


def distinct_positions(o):
    """The mesh's vertices counted once per position (merged by distance,
    1e-6 of the mesh's diagonal, in the mesh's own space): what an FBX's
    control points and a glTF's vertices, split at UV and normal seams, have
    in common. (Not exact equality: the glTF importer's axis conversion
    leaves some copies of a vertex a float's last bit apart.)"""
    n = len(o.data.vertices)
    if not n:
        return 0
    co = numpy.empty(n * 3, dtype=numpy.float64)
    o.data.vertices.foreach_get("co", co)
    co = co.reshape(n, 3)
    diagonal = float(numpy.linalg.norm(co.max(axis=0) - co.min(axis=0)))
    bm = bmesh.new()
    bm.from_mesh(o.data)
    bmesh.ops.remove_doubles(bm, verts=bm.verts[:], dist=max(diagonal * 1e-6, 1e-12))
    count = len(bm.verts)
    bm.free()
    return count


def role_bones(character):
    return {role: name for role, name in roles[character].items() if name}


def find_bone(name):
    """The armature holding a bone of that name (the first), or None."""
    for a in armatures():
        if name in a.data.bones:
            return a
    return None


def measure_original(character, path):
    record = {"file": path, "character": character}
    try:
        empty_scene()
        record["importer"] = import_file(path)
        common(record)
        rest = {}
        for role, name in role_bones(character).items():
            a = find_bone(name)
            rest[role] = gltf(a.matrix_world @ a.data.bones[name].head_local) if a else None
        record["rest"] = rest
    except Exception:
        record["error"] = traceback.format_exc()
    return record


def lowest_vertex():
    """Lowest world height (glTF Y = Blender Z) of the evaluated meshes:
    (skinned meshes only, all meshes, the name of the mesh with the lowest
    skinned vertex)."""
    dg = bpy.context.evaluated_depsgraph_get()
    skinned, every, where = None, None, None
    for o in meshes():
        e = o.evaluated_get(dg)
        m = e.to_mesh()
        n = len(m.vertices)
        if n:
            co = numpy.empty(n * 3, dtype=numpy.float64)
            m.vertices.foreach_get("co", co)
            co = co.reshape(n, 3)
            w = numpy.array(e.matrix_world, dtype=numpy.float64)
            z = float((co @ w[:3, :3].T + w[:3, 3])[:, 2].min())
            every = z if every is None else min(every, z)
            if any(mod.type == "ARMATURE" for mod in o.modifiers) and (skinned is None or z < skinned):
                skinned, where = z, o.name
        e.to_mesh_clear()
    return skinned, every, where


def measure_output(character, clip, path):
    record = {"file": path, "character": character, "clip": clip}
    try:
        empty_scene()
        import_file(path)
        common(record)
        record["actions"] = [a.name for a in bpy.data.actions]
        # The armature(s) holding the role bones; the animated one's action
        # gives the frame range.
        wanted = role_bones(character)
        holders = {role: find_bone(name) for role, name in wanted.items()}
        record["missing_roles"] = sorted(r for r, a in holders.items() if a is None)
        animated = [a for a in armatures() if a.animation_data and a.animation_data.action]
        if not animated:
            record["error"] = "no armature with an action (armatures: %s, actions: %s)" % (
                record["armatures"], record["actions"])
            return record
        action = animated[0].animation_data.action
        record["action"] = action.name
        start, end = action.frame_range
        first, last = int(round(start)), int(round(end))
        record["frame_start"], record["frame_end"] = first, last
        scene = bpy.context.scene
        scene.frame_start, scene.frame_end = first, last
        frames = list(range(first, last + 1))
        samples = sorted({int(round(x)) for x in numpy.linspace(first, last, 8)})
        joints = {role: [] for role, a in holders.items() if a is not None}
        lowest = []
        # Bones only on most frames: the meshes' modifiers are turned off
        # meanwhile (the pose does not depend on them) and back on for the
        # sampled frames.
        mods = [m for o in meshes() for m in o.modifiers if m.show_viewport]
        for frame in frames:
            sample = frame in samples
            for m in mods:
                m.show_viewport = sample
            scene.frame_set(frame)
            for role, a in holders.items():
                if a is not None:
                    name = wanted[role]
                    joints[role].append(gltf(a.matrix_world @ a.pose.bones[name].head))
            if sample:
                skinned, every, where = lowest_vertex()
                lowest.append({"frame": frame, "skinned": skinned, "all": every, "mesh": where})
        record["joints"] = joints
        record["lowest"] = lowest
    except Exception:
        record["error"] = traceback.format_exc()
    return record


started = time.time()
result = {"fps": fps, "roles": roles_path, "originals": {}, "outputs": []}
for character, path in originals:
    t = time.time()
    result["originals"][character] = measure_original(character, path)
    print("original %s: %.1f s" % (character, time.time() - t), flush=True)
for character, clip, path in outputs:
    t = time.time()
    result["outputs"].append(measure_output(character, clip, path))
    print("output %s %s: %.1f s" % (character, clip, time.time() - t), flush=True)
result["seconds"] = time.time() - started
with open(out_path, "w") as f:
    json.dump(result, f)
shutil.rmtree(tmp, ignore_errors=True)
print("wrote %s (%.1f s)" % (out_path, result["seconds"]))
