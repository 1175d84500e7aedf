# Makes data/rigged_simple.fbx, the FBX rigged model the tests read, from the
# Khronos riggedSimple.dae (a cylinder, two bones, one animation) with
# Blender's own COLLADA importer and FBX exporter, as an artist's FBX is made:
#   blender -b --python scripts/make_rigged_simple_fbx.py -- \
#     ../shared/data/meshes/khronos/riggedSimple.dae data/rigged_simple.fbx
# No leaf bones (Blender's default adds an end bone per chain, which Assimp
# reads as joints that weight nothing), the animation baked, textures left out.
import sys

import bpy

source, destination = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.collada_import(filepath=source)
meshes = [o for o in bpy.data.objects if o.type == 'MESH']
armatures = [o for o in bpy.data.objects if o.type == 'ARMATURE']
if len(meshes) != 1 or len(armatures) != 1 or not bpy.data.actions:
    sys.exit(f"make_rigged_simple_fbx: expected one mesh, one armature and an action in {source}")
# Each action baked over its own frames (bake_anim_use_all_actions; the
# scene's animation alone comes out empty for a COLLADA import).
bpy.ops.export_scene.fbx(filepath=destination, add_leaf_bones=False, bake_anim=True, bake_anim_use_all_actions=True,
                         object_types={'ARMATURE', 'MESH'}, path_mode='STRIP')
print(f"make_rigged_simple_fbx: {destination}: {len(meshes[0].data.vertices)} vertices, "
      f"{len(armatures[0].data.bones)} bones, frames {bpy.data.actions[0].frame_range[:]}")
