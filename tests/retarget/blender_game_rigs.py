# Game-convention characters made from the MakeHuman rig, for retargeting tests.
#
#   blender -b --factory-startup --python tests/retarget/blender_game_rigs.py -- \
#       --glb makehuman.glb --out-dir DIR
#
# Reads the MakeHuman body with MakeHuman's own 163-bone skeleton and weights
# (a .glb in metres, Y up, facing +Z, in MakeHuman's A-pose) and writes FBX
# files the way Mixamo, Unity and Unreal characters come:
#   DIR/mixamo_apose.fbx     Mixamo names, the A-pose as it is
#   DIR/mixamo_tpose.fbx     Mixamo names, the upper arms raised to horizontal,
#                            applied as the new rest pose with the deformed mesh
#   DIR/mixamo_tpose_cm.fbx  that T-pose written with FBX_SCALE_NONE (below)
#   DIR/unreal_apose.fbx     Unreal's names, the A-pose, Z up, facing +Y,
#                            FBX_SCALE_NONE
# In all:
#  - names: the humanoid bones renamed (MIXAMO below: root -> mixamorig:Hips,
#    upperleg01.L -> mixamorig:LeftUpLeg, ...; UNREAL: root -> pelvis,
#    upperleg01.L -> thigh_l, ...); the bones the convention has no name for
#    (pelvis.L, the upperarm02.L twist bones, metacarpals, face bones, ...)
#    keep MakeHuman's; the vertex groups follow.
#  - units: the armature and the mesh in centimetres (the character about 170
#    units tall) under the armature object "Armature" scaled 0.01. Written
#    with apply_scale_options FBX_SCALE_UNITS (the unit scale goes to the
#    file's UnitScaleFactor, metres, and the objects keep their own scale),
#    Assimp reads a node "Armature" scaled 0.01 above bones whose
#    translations are centimetres, the world in metres. FBX_SCALE_NONE, the
#    exporter's default, multiplies the root by 100 instead: Assimp reads the
#    Armature at scale 1 and the world in centimetres, as it reads Mixamo's
#    own downloads and Unreal's exports. (apply_unit_scale and global_scale 1
#    change neither.)
#  - facing: the character turned about the up axis (on the armature
#    object): the Mixamo files face +X of their Y-up frame (the glTF faced
#    +Z), the Unreal one +Y of its Z-up frame (axis_forward Y, axis_up Z:
#    Blender's own axes, which Assimp keeps).
#  - no animation, no leaf bones.
# Prints one line per file written: its name, bone count, vertex count and
# how far the left arm's shoulder-to-wrist line is above the horizontal.
import math
import os
import sys

import bpy
from mathutils import Matrix, Vector

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
args = dict(zip([a.lstrip("-") for a in argv[::2]], argv[1::2]))

# MakeHuman's default skeleton -> Mixamo's names (mixamorig: prefix added).
MIXAMO = {
    "root": "Hips",
    "spine05": "Spine",
    "spine03": "Spine1",
    "spine01": "Spine2",
    "neck01": "Neck",
    "head": "Head",
}
for side, s in (("L", "Left"), ("R", "Right")):
    MIXAMO.update({
        "clavicle." + side: s + "Shoulder",
        "upperarm01." + side: s + "Arm",
        "lowerarm01." + side: s + "ForeArm",
        "wrist." + side: s + "Hand",
        "upperleg01." + side: s + "UpLeg",
        "lowerleg01." + side: s + "Leg",
        "foot." + side: s + "Foot",
        "toe1-1." + side: s + "ToeBase",
    })
    for finger, name in ((1, "Thumb"), (2, "Index"), (3, "Middle"), (4, "Ring"), (5, "Pinky")):
        for k in (1, 2, 3):
            MIXAMO["finger%d-%d.%s" % (finger, k, side)] = "%sHand%s%d" % (s, name, k)
MIXAMO = {bone: "mixamorig:" + name for bone, name in MIXAMO.items()}

# MakeHuman's default skeleton -> Unreal's mannequin names (UE5's five spine
# and two neck joints). The twist bones keep MakeHuman's names: Unreal's
# (upperarm_twist_01_l) hang beside the chain, MakeHuman's lie in it.
UNREAL = {
    "root": "pelvis",
    "spine05": "spine_01",
    "spine04": "spine_02",
    "spine03": "spine_03",
    "spine02": "spine_04",
    "spine01": "spine_05",
    "neck01": "neck_01",
    "neck02": "neck_02",
    "head": "head",
}
for side, s in (("L", "l"), ("R", "r")):
    UNREAL.update({
        "clavicle." + side: "clavicle_" + s,
        "upperarm01." + side: "upperarm_" + s,
        "lowerarm01." + side: "lowerarm_" + s,
        "wrist." + side: "hand_" + s,
        "upperleg01." + side: "thigh_" + s,
        "lowerleg01." + side: "calf_" + s,
        "foot." + side: "foot_" + s,
        "toe1-1." + side: "ball_" + s,
    })
    for finger, name in ((1, "thumb"), (2, "index"), (3, "middle"), (4, "ring"), (5, "pinky")):
        for k in (1, 2, 3):
            UNREAL["finger%d-%d.%s" % (finger, k, side)] = "%s_%02d_%s" % (name, k, s)

CENTIMETRES = 100.0  # armature units per metre


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def load(glb):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # The glTF importer of Blender 3.4 uses numpy.bool, gone from numpy 1.24.
    import numpy

    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    bpy.ops.import_scene.gltf(filepath=glb)
    for action in list(bpy.data.actions):
        bpy.data.actions.remove(action)
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    if len(armatures) != 1 or not meshes:
        fail("%s: expected one armature and a mesh, found %d armatures and %d meshes" % (glb, len(armatures),
                                                                                         len(meshes)))
    armature = armatures[0]
    armature.name = "Armature"  # Blender's own name for it, as characters made in Blender come
    armature.animation_data_clear()
    for mesh in meshes:
        if mesh.parent is not armature:
            fail("%s: mesh %s is not parented to the armature" % (glb, mesh.name))
    return armature, meshes


def rename(armature, meshes, names):
    bones = armature.data.bones
    missing = [name for name in names if name not in bones]
    if missing:
        fail("MakeHuman bones missing from the glTF: %s" % missing[:5])
    for old, new in names.items():
        bones[old].name = new  # vertex groups of the armature's meshes follow
    for mesh in meshes:
        groups = {g.name for g in mesh.vertex_groups}
        if names["upperleg01.L"] not in groups or "upperleg01.L" in groups:
            fail("vertex groups of %s were not renamed with the bones" % mesh.name)


def world_head(armature, name):
    return armature.matrix_world @ armature.pose.bones[name].head


def raise_arms_to_t_pose(armature, meshes, names):
    """Turns each upper arm about the character's forward axis so that the
    shoulder-to-wrist line is horizontal, then makes that the rest pose: the
    meshes keep the deformed shape (armature modifier applied) and the
    armature its posed bones (Apply Pose as Rest Pose)."""
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.mode_set(mode="POSE")
    for side in ("L", "R"):
        arm = armature.pose.bones[names["upperarm01." + side]]
        shoulder = arm.head.copy()
        wrist = armature.pose.bones[names["wrist." + side]].head.copy()
        reach = wrist - shoulder
        horizontal = Vector((reach.x, reach.y, 0.0))  # Blender is Z up
        turn = reach.rotation_difference(horizontal).to_matrix().to_4x4()
        arm.matrix = Matrix.Translation(shoulder) @ turn @ Matrix.Translation(-shoulder) @ arm.matrix
        bpy.context.view_layer.update()
    bpy.ops.object.mode_set(mode="OBJECT")
    for mesh in meshes:
        bpy.context.view_layer.objects.active = mesh
        modifiers = [m for m in mesh.modifiers if m.type == "ARMATURE"]
        if len(modifiers) != 1:
            fail("mesh %s has %d armature modifiers, expected one" % (mesh.name, len(modifiers)))
        name = modifiers[0].name
        bpy.ops.object.modifier_apply(modifier=name)
        modifier = mesh.modifiers.new(name, "ARMATURE")
        modifier.object = armature
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.mode_set(mode="POSE")
    bpy.ops.pose.armature_apply(selected=False)
    bpy.ops.object.mode_set(mode="OBJECT")


def to_game_convention(armature, meshes, turn_degrees):
    """Centimetres under a 0.01 scale, turned about the up axis."""
    scale = Matrix.Scale(CENTIMETRES, 4)
    armature.data.transform(scale)  # the bones' heads, tails and rolls, as Edit Mode would scale them
    for mesh in meshes:
        if mesh.matrix_parent_inverse != Matrix.Identity(4) or mesh.matrix_basis != Matrix.Identity(4):
            fail("mesh %s is not at the armature's origin" % mesh.name)
        mesh.data.transform(scale)
    armature.scale = (1.0 / CENTIMETRES,) * 3
    armature.rotation_mode = "XYZ"
    armature.rotation_euler = (0.0, 0.0, math.radians(turn_degrees))  # faced -Y (glTF +Z): 90 -> +X, 180 -> +Y
    bpy.context.view_layer.update()


def export(path, scale_options, forward, up):
    bpy.ops.export_scene.fbx(filepath=path, add_leaf_bones=False, bake_anim=False, apply_unit_scale=True,
                             global_scale=1.0, apply_scale_options=scale_options, axis_forward=forward, axis_up=up,
                             path_mode="COPY", embed_textures=True)


def describe(path, armature, meshes, names):
    vertices = sum(len(m.data.vertices) for m in meshes)
    shoulder = world_head(armature, names["upperarm01.L"])
    wrist = world_head(armature, names["wrist.L"])
    reach = wrist - shoulder
    elevation = math.degrees(math.asin(max(-1.0, min(1.0, reach.z / reach.length))))
    hips = world_head(armature, names["root"])
    print("wrote %s: %d bones, %d vertices; left shoulder-to-wrist %.1f deg above horizontal; hips at %.3f m; "
          "armature scale %.3g" % (os.path.basename(path), len(armature.data.bones), vertices, elevation, hips.z,
                                   armature.scale.x))
    return elevation


glb = args["glb"]
out_dir = args["out-dir"]
# names, T-pose, turn about the up axis (degrees), then the files written of
# that scene: name, apply_scale_options, the file's forward and up axes.
BUILDS = [
    (MIXAMO, False, 90.0, [("mixamo_apose", "FBX_SCALE_UNITS", "-Z", "Y")]),
    (MIXAMO, True, 90.0, [("mixamo_tpose", "FBX_SCALE_UNITS", "-Z", "Y"),
                          ("mixamo_tpose_cm", "FBX_SCALE_NONE", "-Z", "Y")]),
    (UNREAL, False, 180.0, [("unreal_apose", "FBX_SCALE_NONE", "Y", "Z")]),
]
for names, tpose, turn, files in BUILDS:
    armature, meshes = load(glb)
    rename(armature, meshes, names)
    if tpose:
        raise_arms_to_t_pose(armature, meshes, names)
    to_game_convention(armature, meshes, turn)
    for name, scale_options, forward, up in files:
        path = os.path.join(out_dir, name + ".fbx")
        export(path, scale_options, forward, up)
        elevation = describe(path, armature, meshes, names)
    if tpose and abs(elevation) > 1.0:
        fail("%s: the arm is %.1f deg off horizontal" % (path, elevation))
    if not tpose and elevation > -20.0:
        fail("%s: the A-pose arm is only %.1f deg below horizontal" % (path, -elevation))
sys.exit(0)
