// Which joint of a skeleton plays which humanoid role (hips, spine, arms,
// legs), on a capture skeleton and on a rigged model alike, so that
// retarget.h can drive one with the other.
//
// The method, in order:
//  1. Names. Each joint name is normalised (a "prefix:" or "prefix|" cut, split
//     into lower-case words at separators and case changes, "def", "org",
//     "bip01" and similar words dropped) and its left/right marker taken out
//     ("l", "left", "r", "right" as a word, e.g. `LeftUpLeg`, `thigh_l`,
//     `DEF-thigh.L`, `upperleg01.L`). What remains is looked up in one table
//     covering CMU (root, lfemur, ...), cgspeed/MotionBuilder and Mixamo
//     (`mixamorig:Hips`, `LeftUpLeg`, ...), Unreal (pelvis, thigh_l, calf_l,
//     ball_l, upperarm_l, ...), Rigify `DEF-*`, MakeHuman's default skeleton,
//     Unity humanoid names and the Khronos samples (torso_joint_1,
//     leg_joint_L_1, ...). A role found twice keeps the joint nearest the root.
//  2. Topology, for what names did not find: the hips are the joint with two
//     chains going down and one going up (the largest such); each leg is the
//     chain down from the hips (thigh, shin, foot, toe in order, a first
//     joint lying sideways taken as a pelvis bone and skipped); the spine
//     runs up from the hips to the first joint where two chains branch off
//     sideways (the chest), the neck and head above it; each arm is such a
//     sideways chain (clavicle when it has four joints or more, then upper
//     arm, forearm, hand). A limb whose first joint is known by name but not
//     the rest is completed along its chain the same way. Left and right
//     come from the names, or from the side of the body the chain lies on.
//  3. Mirrored names: when both thighs and both forearms are named for the
//     side they do not lie on (the character's left is up x forward, forward
//     from heel to toe; judged only on a skeleton with toes that reach
//     forward), every left and right role is swapped
//     (`sides_swapped`, "sides swapped" in `how`): a model exported with
//     mirrored names would otherwise face backwards.
//  4. Overrides (read_bone_map_overrides): "target bone": "capture bone"
//     pairs from a JSON file give a target joint the capture joint's role.
//
// The spine and the chest are the first and last joints strictly between the
// hips and the neck; joints between them are the chain's middle (`spine`).
#pragma once

#include <mocap/core/error.h>

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

enum class Role : std::uint8_t {
  Hips,
  Spine,
  Chest,
  Neck,
  Head,
  ClavicleL,
  UpperArmL,
  ForearmL,
  HandL,
  ClavicleR,
  UpperArmR,
  ForearmR,
  HandR,
  ThighL,
  ShinL,
  FootL,
  ToeL,
  ThighR,
  ShinR,
  FootR,
  ToeR,
  // Fingers, by names only (the capture's one finger bone and thumb):
  // "fingers" is the first joint of the middle finger (CMU lfingers,
  // Mixamo LeftHandMiddle1, Unreal middle_01_l, MakeHuman finger3-1.L),
  // "thumb" the thumb's first joint (lthumb, LeftHandThumb1, finger1-1.L).
  // Without a middle finger, the first other finger's first joint plays
  // "fingers" (cgspeed's BVH: LeftHandIndex1).
  FingersL,
  ThumbL,
  FingersR,
  ThumbR,
};
inline constexpr int kRoleCount = 25;
inline constexpr int kBodyRoleCount = 21;  // the roles before the fingers

// "hips", "upper_arm.L", ... as --print-map shows them.
std::string_view role_name(Role role);

// A joint hierarchy as the mapping sees it: names, parents (lower indices,
// -1 for a root) and each joint's position in the rest or bind pose, in any
// units, with `up` the world's up direction (unit).
struct JointHierarchy {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Eigen::Vector3d> positions;
  Eigen::Vector3d up = Eigen::Vector3d::UnitY();
  int find(std::string_view name) const;  // index or -1
};

struct RoleMatch {
  int joint = -1;   // index into the hierarchy, -1 when unmapped
  std::string how;  // "name table", "topology", "map FILE:LINE"
};

struct HumanoidMap {
  std::array<RoleMatch, kRoleCount> roles;
  // Hips to head along the spine, both included (every joint on the way).
  std::vector<int> spine;
  bool sides_swapped = false;  // step 3
  // First joints of the other fingers (index, ring, little), left and right,
  // found by name: they follow the capture's finger bone as `fingers` does.
  std::array<std::vector<int>, 2> other_fingers;
  const RoleMatch& operator[](Role role) const { return roles[static_cast<int>(role)]; }
  RoleMatch& operator[](Role role) { return roles[static_cast<int>(role)]; }
};

// The normalised name (step 1) and its side: -1 left, +1 right, 0 none.
struct NormalisedName {
  std::string base;
  int side = 0;
};
NormalisedName normalise_bone_name(std::string_view name);

// Steps 1 to 3 on `hierarchy`. Fails, naming `what` (a file) and the
// missing chain, when no hips, a leg (thigh, shin, foot), an arm (upper arm,
// forearm) or the head can be found.
Result<HumanoidMap> find_humanoid(const JointHierarchy& hierarchy, const std::string& what);
// Steps 1 to 3 without the check: every role found, the others unmapped
// (all of them but those found by name when there are no hips).
HumanoidMap find_humanoid_roles(const JointHierarchy& hierarchy);
// The roles find_humanoid needs that `map` lacks, in the order it checks
// them (hips, left leg, right leg, left arm, right arm, head).
std::vector<Role> missing_roles(const HumanoidMap& map);

// One "target bone": "capture bone" pair of a --map file and its line.
struct BoneMapOverride {
  std::string target;
  std::string capture;
  int line = 0;
};
// Reads a --map JSON object. Fails with file:line for text that is not a
// JSON object of strings.
Result<std::vector<BoneMapOverride>> read_bone_map_overrides(const std::string& path);
// Applies `overrides` (from `path`) to `target_map`: each target joint takes
// the role the capture joint has in `capture_map`. Fails with path:line for
// a bone the target or the capture lacks, or a capture bone with no role.
Result<void> apply_bone_map_overrides(const std::vector<BoneMapOverride>& overrides, const std::string& path,
                                      const JointHierarchy& capture, const HumanoidMap& capture_map,
                                      const JointHierarchy& target, HumanoidMap& target_map);

// One line per role: "role  capture-bone  target-bone  (how)", for --print-map,
// a line for a side whose names were swapped (step 3), then, for a side
// that lacks needed roles (missing_roles), the line
// "not found on the capture|model (needed): role role ...".
std::string format_bone_map(const JointHierarchy& capture, const HumanoidMap& capture_map, const JointHierarchy& target,
                            const HumanoidMap& target_map);

}  // namespace mocap
