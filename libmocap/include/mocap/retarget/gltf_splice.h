// A retargeted clip written into the character's own glTF binary: the
// model's meshes, materials, textures, skin and node names are kept as they
// are, one animation is added.
//
// Splicing, in order: the input .glb's JSON chunk is parsed and its BIN
// chunk kept byte for byte; the clip's times and keys are appended to the
// BIN chunk (4-byte aligned, one bufferView and accessor each: times as
// float SCALAR with min/max, translations VEC3, rotations VEC4 x, y, z, w,
// linear); one animation named after the clip targets the glTF nodes the
// keyed model nodes were read from (ModelNode::source: by index, as names may
// repeat); a keyed node stored as a `matrix` is
// rewritten as the same translation, rotation and scale (glTF animates only
// those). A node's translation is keyed only where it moves away from the
// node's rest value (the hips), its rotation always. The model's own
// animations are dropped unless `keep_animations`. An embedded image whose
// mimeType is not image/png or image/jpeg (Assimp writes "image/fbm" for an
// FBX's texture) is given the type its bytes show.
//
// A model in another format (.dae, .fbx, .gltf with external files) is first
// converted to a .glb by Assimp's glTF 2 binary exporter (model_as_glb).
#pragma once

#include <mocap/core/error.h>
#include <mocap/retarget/retarget.h>
#include <mocap/rig/rigged_model.h>

#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// The model file's bytes as a .glb: the file itself for a .glb (checked:
// magic "glTF", version 2), else Assimp's glb2 export of it, the bytes of its
// BIN chunk that no bufferView covers zeroed (Assimp leaves uninitialised
// memory there: the output would differ from run to run). Fails naming the
// file and what was expected.
Result<std::string> model_as_glb(const std::string& path);

// Reads `glb` (the bytes of a .glb, `path` for messages) as a rigged model:
// read_rigged_model on a temporary copy, so that its nodes are exactly the
// ones splice_animation finds in `glb`.
Result<RiggedModel> read_rigged_glb(const std::string& glb, const std::string& path);

// `glb` with `clip` added as described above; `model` is the one the clip
// was made for (read from these bytes). Fails naming `path` for bytes that
// are not a glTF 2 binary with a BIN chunk, or a keyed node not read from
// one of its glTF nodes.
// Images that name a file are embedded (found as named relative to `path`'s
// folder, or by file name there); one found nowhere is left out with the
// texture slots that use it, and said in `warnings` when given.
Result<std::string> splice_animation(std::string_view glb, const std::string& path, const RiggedModel& model,
                                     const RetargetedClip& clip, bool keep_animations,
                                     std::vector<std::string>* warnings = nullptr);

// The whole job from files: the model as a .glb (model_as_glb), read
// (read_rigged_glb), the rig built (build_retarget_rig), the clip
// retargeted (retarget_clip, its animation called `clip_name`) and spliced.
// Nothing is written: `glb` holds the output's bytes.
struct RetargetFileResult {
  RiggedModel model;
  RetargetRig rig;
  RetargetedClip clip;
  std::string glb;
  std::vector<std::string> warnings;  // what was left out of the output (splice_animation)
};
Result<RetargetFileResult> retarget_model_file(const Skeleton& skeleton, const Motion& motion,
                                               const std::string& capture_path, const std::string& model_path,
                                               const std::string& clip_name, const RetargetOptions& options = {},
                                               bool keep_animations = false);

// describe_bone_map on the model file as retarget_model_file reads it, for
// --print-map when the retargeting fails. Fails only when the model cannot
// be read.
Result<std::string> describe_bone_map_file(const Skeleton& skeleton, const std::string& capture_path,
                                           const std::string& model_path, const RetargetOptions& options = {});

}  // namespace mocap
