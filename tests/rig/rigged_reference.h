// A rigged model's own skin (read_rigged_model, rig/rigged_model.h) as a
// reference for automatic rigging: its mesh written as an OBJ for bind_mesh,
// and its artists' weights folded into body segments that a CMU skeleton's
// bones fold into too, so that the dominant segment per vertex can be
// compared (as makehuman_reference.h does bone by bone for MakeHuman's rig).
//
// Segments, not bones: the Khronos characters have one or two spine joints
// where CMU has three, no clavicle or a hand without fingers, so bones are
// compared where both rigs have them: trunk (CMU root, hipjoints, lowerback,
// upperback, thorax), head (lowerneck, upperneck, head), and per side
// clavicle, upper arm (humerus), forearm (radius), hand (wrist, hand,
// fingers, thumb), thigh (femur), shin (tibia), foot (foot, toes).
// The model's joints get their segment from the humanoid roles the
// retargeting's bone map finds for them (retarget/bone_map.h: name tables
// and topology); a joint without a role takes its nearest ancestor's (a
// twist bone its limb's, a finger its hand's), and one above the hips the
// trunk's. A model without a clavicle role folds a CMU clavicle into the
// trunk.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/skin_weights.h>

#include <filesystem>
#include <string>
#include <vector>

#include "rig/makehuman_reference.h"

namespace mocap::test {

enum class Segment {
  kTrunk,
  kHead,
  kClavicleL,
  kUpperArmL,
  kForearmL,
  kHandL,
  kClavicleR,
  kUpperArmR,
  kForearmR,
  kHandR,
  kThighL,
  kShinL,
  kFootL,
  kThighR,
  kShinR,
  kFootR,
};
inline constexpr int kSegmentCount = 16;
std::string_view segment_name(Segment s);

struct RiggedReference {
  std::string path;                         // the model file
  int vertex_count = 0;                     // of the model's mesh, as written to the OBJ
  std::vector<int> dominant_segment;        // per vertex: the artists' dominant segment, -1 without weight
  std::vector<std::string> joint_segments;  // per model joint: "name -> segment", for messages
  bool has_clavicles = false;
};

// Reads `model_path` and writes its mesh (model space, bind pose, metres, as
// read_rigged_model gives it: vertices in its order) to `obj_path`. Fails
// naming the file when it cannot be read, when the bone map finds no
// humanoid, or when the OBJ cannot be written.
Result<RiggedReference> rigged_reference(const std::filesystem::path& model_path,
                                         const std::filesystem::path& obj_path);

// How often our dominant segment per vertex (our weights summed per segment,
// as the artists' are) is the artists' dominant segment; regions as in makehuman_reference.h (clavicles and limbs
// in arms, hands, legs, trunk and head in spine/head). `weights`: one per
// vertex of the written OBJ, bones of `skeleton` (CMU names).
BoneAgreement segment_agreement(std::span<const VertexWeights> weights, const Skeleton& skeleton,
                                const RiggedReference& reference);

}  // namespace mocap::test
