// Joint names for BVH output. Tools that retarget BVH (MotionBuilder,
// Blender add-ons, game engines' humanoid mappers) look joints up by the
// names of cgspeed's conversion of the CMU set (Hips, LeftUpLeg, ...),
// while CMU's own names (root, lfemur, ...) are what ASF users know. Both
// name the same 31 joints, one for one; `rename_joints` turns one into the
// other and leaves any other name as it is.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>

#include <optional>
#include <string_view>

namespace mocap {

enum class BvhJointNames {
  kSource,         // as the source names them
  kCmu,            // CMU ASF bone names: a BVH joint is named as the bone that starts at it
  kMotionBuilder,  // cgspeed's / MotionBuilder's: Hips, LHipJoint, LeftUpLeg, ...
};

// "source", "cmu" or "motionbuilder" (also "mobu"); nullopt otherwise.
std::optional<BvhJointNames> parse_bvh_joint_names(std::string_view text);

// Renames the bones of `skeleton` that the CMU <-> MotionBuilder table knows
// to the names `names` asks for (kSource: none). Fails, leaving `skeleton`
// as it was, when two bones would end up with one name.
Result<void> rename_joints(Skeleton& skeleton, BvhJointNames names);

}  // namespace mocap
