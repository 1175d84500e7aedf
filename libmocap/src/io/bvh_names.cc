#include <mocap/io/bvh_names.h>

#include <array>
#include <map>
#include <string>
#include <utility>

namespace mocap {
namespace {

// CMU bone -> the cgspeed joint at that bone's start (io/bvh.h's to_bvh puts
// a joint per bone there), as cgspeed's 09_06.bvh names them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 31> kCmuToMotionBuilder = {{
    {"root", "Hips"},
    {"lhipjoint", "LHipJoint"},
    {"lfemur", "LeftUpLeg"},
    {"ltibia", "LeftLeg"},
    {"lfoot", "LeftFoot"},
    {"ltoes", "LeftToeBase"},
    {"rhipjoint", "RHipJoint"},
    {"rfemur", "RightUpLeg"},
    {"rtibia", "RightLeg"},
    {"rfoot", "RightFoot"},
    {"rtoes", "RightToeBase"},
    {"lowerback", "LowerBack"},
    {"upperback", "Spine"},
    {"thorax", "Spine1"},
    {"lowerneck", "Neck"},
    {"upperneck", "Neck1"},
    {"head", "Head"},
    {"lclavicle", "LeftShoulder"},
    {"lhumerus", "LeftArm"},
    {"lradius", "LeftForeArm"},
    {"lwrist", "LeftHand"},
    {"lhand", "LeftFingerBase"},
    {"lfingers", "LeftHandIndex1"},
    {"lthumb", "LThumb"},
    {"rclavicle", "RightShoulder"},
    {"rhumerus", "RightArm"},
    {"rradius", "RightForeArm"},
    {"rwrist", "RightHand"},
    {"rhand", "RightFingerBase"},
    {"rfingers", "RightHandIndex1"},
    {"rthumb", "RThumb"},
}};

std::string_view renamed(std::string_view name, BvhJointNames names) {
  for (const auto& [cmu, motionbuilder] : kCmuToMotionBuilder) {
    if (names == BvhJointNames::kMotionBuilder && name == cmu) return motionbuilder;
    if (names == BvhJointNames::kCmu && name == motionbuilder) return cmu;
  }
  return name;
}

}  // namespace

std::optional<BvhJointNames> parse_bvh_joint_names(std::string_view text) {
  if (text == "source") return BvhJointNames::kSource;
  if (text == "cmu") return BvhJointNames::kCmu;
  if (text == "motionbuilder" || text == "mobu") return BvhJointNames::kMotionBuilder;
  return std::nullopt;
}

Result<void> rename_joints(Skeleton& skeleton, BvhJointNames names) {
  if (names == BvhJointNames::kSource) return {};
  std::vector<std::string> next;
  next.reserve(skeleton.bones.size());
  std::map<std::string, std::string, std::less<>> was;  // new name -> the name it had
  for (const Bone& bone : skeleton.bones) {
    next.emplace_back(renamed(bone.name, names));
    if (const auto [at, added] = was.emplace(next.back(), bone.name); !added) {
      return std::unexpected(
          Error{"", 0,
                "joint names: '" + at->second + "' and '" + bone.name + "' would both be named '" + next.back() + "'"});
    }
  }
  for (std::size_t b = 0; b < next.size(); ++b) skeleton.bones[b].name = std::move(next[b]);
  return {};
}

}  // namespace mocap
