# What Blender (a real glTF client) shows of a body that `mocap skin
# --auto-weights -o body.glb` rigged and skinned (issue 29's criteria,
# measured on Blender's own skinning of our weights):
#
#   blender -b --factory-startup --python tests/rig/blender_auto_rig.py -- \
#       --glb body.glb --max-stretch 4.2 [--max-outside-cm 1] [--max-gap-cm 2]
#
# Imports the file with Blender's glTF importer (the armature modifier then
# blends the file's joints and weights), and at the bind pose and at 9
# frames spread over the animation measures:
#   - the limb joints (elbows, wrists, knees, ankles: the heads of the bones
#     that start there) against the deformed mesh: the signed distance to
#     its surface, < 0 inside (by the winding number, as mocap's fit report
#     decides it); each must be inside or within --max-outside-cm;
#   - every edge's length over its bind length: none past --max-stretch;
#   - parts that touch at rest: vertices of different connected pieces
#     within 1 mm of each other in the bind pose must stay within
#     --max-gap-cm of each other.
# Prints one line per pose and one "ok"/"FAIL" line per criterion; exits 1
# when one fails, 2 when the file cannot be read as expected.
import sys

import bpy
from mathutils.bvhtree import BVHTree
from mathutils.kdtree import KDTree

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
args = dict(zip([a.lstrip("-") for a in argv[::2]], argv[1::2]))
glb = args["glb"]
max_stretch = float(args["max-stretch"])
max_outside_cm = float(args.get("max-outside-cm", "1"))
max_gap_cm = float(args.get("max-gap-cm", "2"))
# Bone -> the joint at its head: CMU's elbow is where lradius starts, and so on.
LIMB_JOINTS = {"lradius": "l elbow", "rradius": "r elbow", "lwrist": "l wrist", "rwrist": "r wrist",
               "ltibia": "l knee", "rtibia": "r knee", "lfoot": "l ankle", "rfoot": "r ankle"}

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = 120
import numpy  # noqa: E402  (Blender 3.4's glTF importer uses numpy.bool, gone from numpy 1.24)

if not hasattr(numpy, "bool"):
    numpy.bool = bool
bpy.ops.import_scene.gltf(filepath=glb)
armatures = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
meshes = [o for o in bpy.context.scene.objects
          if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
if len(armatures) != 1 or len(meshes) != 1:
    print(f"FAIL {glb}: expected one armature and one skinned mesh, found {len(armatures)} and {len(meshes)}")
    sys.exit(2)
armature, body = armatures[0], meshes[0]
missing = [b for b in LIMB_JOINTS if b not in armature.pose.bones]
if missing or not armature.animation_data or not armature.animation_data.action:
    print(f"FAIL {glb}: no animation or no bones {missing}")
    sys.exit(2)

rest = [body.matrix_world @ v.co for v in body.data.vertices]
edges = [tuple(e.vertices) for e in body.data.edges]
polygons = [tuple(p.vertices) for p in body.data.polygons]
triangles = numpy.array([(p[0], p[k], p[k + 1]) for p in polygons for k in range(1, len(p) - 1)])
rest_length = [(rest[a] - rest[b]).length for a, b in edges]

# Connected pieces (union-find over the edges), then the touching pairs.
parent = list(range(len(rest)))


def root(v):
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


for a, b in edges:
    parent[root(a)] = root(b)
tree = KDTree(len(rest))
for i, co in enumerate(rest):
    tree.insert(co, i)
tree.balance()
touching = []
for i, co in enumerate(rest):
    for _, j, _ in tree.find_range(co, 0.001):
        if j > i and root(i) != root(j):
            touching.append((i, j))
pieces = len({root(v) for v in range(len(rest))})


def signed_distance(bvh, corners, point):
    """Distance to the surface, < 0 inside: inside where the generalised
    winding number (the triangles' solid angles over 4 pi) is over 1/2, so
    open, overlapping and nested pieces count as the solid they bound."""
    nearest = bvh.find_nearest(point)
    if nearest[0] is None:
        return float("inf")
    a, b, c = (corners[:, k, :] - numpy.array(point) for k in range(3))
    la, lb, lc = (numpy.linalg.norm(x, axis=1) for x in (a, b, c))
    det = numpy.einsum("ij,ij->i", a, numpy.cross(b, c))
    div = (la * lb * lc + numpy.einsum("ij,ij->i", a, b) * lc + numpy.einsum("ij,ij->i", b, c) * la
           + numpy.einsum("ij,ij->i", c, a) * lb)
    winding = numpy.sum(2.0 * numpy.arctan2(det, div)) / (4.0 * numpy.pi)
    return -nearest[3] if abs(winding) > 0.5 else nearest[3]


worst = {"joint": (-1e9, ""), "stretch": (0.0, ""), "gap": (0.0, "")}
over_3x = 0


def measure(label, positions, joints):
    global over_3x
    bvh = BVHTree.FromPolygons(positions, polygons)
    xyz = numpy.array([tuple(p) for p in positions])
    corners = xyz[triangles]
    joint = max((signed_distance(bvh, corners, p), name) for name, p in joints.items())
    stretch = (0.0, -1)
    for k, (a, b) in enumerate(edges):
        if rest_length[k] < 1e-5:
            continue
        ratio = (positions[a] - positions[b]).length / rest_length[k]
        over_3x += ratio > 3.0
        stretch = max(stretch, (ratio, k))
    gap = max(((positions[i] - positions[j]).length for i, j in touching), default=0.0)
    print(f"{label}: worst limb joint {100 * joint[0]:.2f} cm ({joint[1]}), longest edge {stretch[0]:.2f}x, "
          f"touching parts apart {100 * gap:.2f} cm")
    worst["joint"] = max(worst["joint"], (joint[0], f"{joint[1]} at {label}"))
    worst["stretch"] = max(worst["stretch"], (stretch[0], label))
    worst["gap"] = max(worst["gap"], (gap, label))


def joint_heads():
    return {LIMB_JOINTS[b]: armature.matrix_world @ armature.pose.bones[b].head for b in LIMB_JOINTS}


print(f"== {glb}: {len(rest)} vertices, {pieces} pieces, {len(touching)} touching pairs")
# The bind pose: the armature at rest, the mesh as the file holds it.
armature.data.pose_position = "REST"
bpy.context.view_layer.update()
measure("bind pose", rest, joint_heads())
armature.data.pose_position = "POSE"
start, end = (int(round(x)) for x in armature.animation_data.action.frame_range)
depsgraph = bpy.context.evaluated_depsgraph_get()
for k in range(9):
    frame = start + k * (end - start) // 8
    bpy.context.scene.frame_set(frame)
    evaluated = body.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    positions = [evaluated.matrix_world @ v.co for v in mesh.vertices]
    evaluated.to_mesh_clear()
    measure(f"frame {frame}", positions, joint_heads())

failed = False


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed = failed or not ok


joint_cm, where = 100 * worst["joint"][0], worst["joint"][1]
check(joint_cm <= max_outside_cm, f"limb joints inside or within {max_outside_cm} cm: worst {joint_cm:.2f} cm ({where})")
check(worst["stretch"][0] <= max_stretch,
      f"no edge past {max_stretch}x: longest {worst['stretch'][0]:.2f}x ({worst['stretch'][1]}), "
      f"{over_3x} edge-poses past 3x")
check(100 * worst["gap"][0] <= max_gap_cm,
      f"touching parts within {max_gap_cm} cm: {100 * worst['gap'][0]:.2f} cm ({worst['gap'][1]})")
sys.exit(1 if failed else 0)
