// The limb joints a binding is judged by, and the worst of them: shared by
// the embedding's tests on the humanoid and on other bodies.
#pragma once

#include <mocap/core/skeleton.h>
#include <mocap/rig/embed.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace mocap::test {

// Bone ends: elbows, wrists, knees, ankles (the four joints).
inline constexpr std::initializer_list<const char*> kLimbJoints = {"lhumerus", "rhumerus", "lradius", "rradius",
                                                                   "lfemur",   "rfemur",   "ltibia",  "rtibia"};
// The same and the forearms' ends (CMU's lwrist is the palm).
inline constexpr std::initializer_list<const char*> kLimbJointsAndPalms = {
    "lhumerus", "rhumerus", "lradius", "rradius", "lwrist", "rwrist", "lfemur", "rfemur", "ltibia", "rtibia"};

// The bone indices of `names`: fit_report's `bones`, the joints measured.
inline std::vector<int> bone_indices(const Skeleton& skeleton, std::initializer_list<const char*> names = kLimbJoints) {
  std::vector<int> out;
  for (const char* name : names) out.push_back(skeleton.find_bone(name));
  return out;
}

// The worst signed distance (metres, > 0 outside) among `bones`, and which.
inline std::pair<double, std::string> worst_limb_joint(const Skeleton& skeleton, const FitReport& report,
                                                       std::initializer_list<const char*> bones = kLimbJoints) {
  std::pair<double, std::string> worst{-1.0, ""};
  for (const char* name : bones) {
    const int b = skeleton.find_bone(name);
    if (report.joints[b].signed_distance > worst.first) worst = {report.joints[b].signed_distance, name};
  }
  return worst;
}

}  // namespace mocap::test
