// What a retargeted file does, measured on the file (the "done when"
// figures), and MakeHuman's own rig as a rigged .glb to retarget onto: shared
// by test_retarget and the game-convention check (game_rig_check.cc).
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/retarget/gltf_splice.h>
#include <mocap/rig/rigged_model.h>

#include <string>
#include <vector>

namespace mocap::test {

// What the written file does (`out`, its `animation` sampled at the capture's
// frames), against the capture `result` was made from.
struct Measured {
  std::vector<double> angles_deg;    // per mapped segment and frame, after one rigid rotation
  double worst_extra_slide = -1e9;   // per contact: model slide - (scaled capture slide + 2 % leg), model units
  double worst_slide_share = 0.0;    // the worst contact's model slide / leg length
  double worst_capture_share = 0.0;  // the same contact's capture slide (scaled) / leg length
  double lowest_foot_vertex = 1e9;   // above (> 0) or below the floor, model units
  double lowest_hand_vertex = 1e9;   // likewise of the hands and fingers, on frame lowest_hand_frame
  int lowest_hand_frame = -1;
  int contacts = 0;
  int foot_vertices = 0;
  int hand_vertices = 0;
};

// The value at share p in [0, 1] of the sorted values (nearest rank below); v not empty.
double percentile(std::vector<double> v, double p);

// Per frame of `motion`: every mapped limb and spine segment of `out` (found
// by the names of result.model's nodes) against the capture's, after one
// rotation for the whole clip (Kabsch); per capture foot contact the model
// pinned point's sideways slide (the ball
// of a leg with toes, else the ankle); the lowest skinned foot vertex (largest weight on a
// foot or toe joint) above rig.floor. MOCAP_RETARGET_CONTACTS set: prints
// each contact's slide.
Measured measure(const RetargetFileResult& result, const Skeleton& skeleton, const Motion& motion,
                 const RiggedModel& out, const ModelAnimation& animation);

// MakeHuman's own default skeleton (163 bones, named clavicle.L,
// upperarm01.L, upperleg01.L, toe1-1.L, ...) and its artists' weights on
// the bundled humanoid, written as a rigged .glb in its bind pose (every bone
// at its head joint, unrotated; metres, Y up, facing +Z, MakeHuman's A-pose).
// With `leaf_twists` its limbs' second joints (upperarm02, lowerarm02,
// upperleg02, lowerleg02: twist bones between a mapped joint and its mapped
// child) become leaves beside the next joint, as Unreal's
// upperarm_twist_01_l hangs off upperarm_l (weights kept). Needs
// ../shared/data/meshes/makehuman.
Result<std::string> makehuman_glb(bool leaf_twists = false);

}  // namespace mocap::test
