// io/bvh.h's to_bvh: any skeleton and motion as a BVH skeleton and motion
// with the same world joint positions.
#include <mocap/core/fk.h>
#include <mocap/io/bvh.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "io/bvh_format.h"
#include "io/text.h"

namespace mocap {
namespace {

using text::quote;

// Euler angles (a, b, c) with R = R_i(a) * R_j(b) * R_k(c) for distinct axes
// i, j, k: b in [-pi/2, pi/2], a and c in [-pi, pi]; c = 0 at gimbal lock.
Eigen::Vector3d euler_angles(const Eigen::Matrix3d& r, int i, int j, int k) {
  // Even permutations of (0, 1, 2) have sign +1.
  const double sign = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;
  const double sb = std::clamp(sign * r(i, k), -1.0, 1.0);
  const double b = std::asin(sb);
  if (std::abs(sb) > 1.0 - 1e-12) {
    const Eigen::Matrix3d a_only = r * Eigen::AngleAxisd(-b, Eigen::Vector3d::Unit(j)).toRotationMatrix();
    const int p = (i + 1) % 3, q = (i + 2) % 3;
    return {std::atan2(a_only(q, p), a_only(p, p)), b, 0.0};
  }
  return {std::atan2(-sign * r(j, k), r(k, k)), b, std::atan2(-sign * r(i, j), r(i, i))};
}

bool is_identity(const Eigen::Quaterniond& q) {
  return std::abs(std::abs(q.w()) - 1.0) < 1e-12;
}

// The BVH rotation channels of a bone, in dof order (first applied first):
// always three (Blender's importer, and others, take 0 or 3 rotation
// channels per joint and fail on 1 or 2): its own axes, then the ones it
// lacks. `own` is set to the count of its own when its axis is identity and
// they are distinct (its AMC values are then the angles, and the axes it
// lacks stay 0), else to -1.
std::vector<Channel> rotation_order(const Bone& bone, int& own) {
  std::vector<Channel> dofs;
  bool distinct = true;
  for (const Channel c : bone.dofs) {
    if (!is_rotation(c)) continue;
    if (std::find(dofs.begin(), dofs.end(), c) == dofs.end()) {
      dofs.push_back(c);
    } else {
      distinct = false;
    }
  }
  own = distinct && is_identity(bone.axis_rotation) ? static_cast<int>(dofs.size()) : -1;
  for (const Channel c : {Channel::RX, Channel::RY, Channel::RZ}) {
    if (std::find(dofs.begin(), dofs.end(), c) == dofs.end()) dofs.push_back(c);
  }
  return dofs;
}

Result<void> check_bvh_skeleton(const Skeleton& s) {
  if (s.bones.empty()) return fail("", 0, "the skeleton has no bones");
  for (const Bone& bone : s.bones) {
    if (!is_identity(bone.axis_rotation))
      return fail("", 0, "bone " + quote(bone.name) + " has an axis rotation: a BVH skeleton has none");
    for (std::size_t d = 0; d < bone.dofs.size(); ++d) {
      if (bone.dofs[d] == Channel::L)
        return fail("", 0, "bone " + quote(bone.name) + " has a length dof, which BVH cannot hold");
      if (std::find(bone.dofs.begin() + static_cast<std::ptrdiff_t>(d) + 1, bone.dofs.end(), bone.dofs[d]) !=
          bone.dofs.end())
        return fail("", 0,
                    "bone " + quote(bone.name) + " has dof " + std::string(channel_name(bone.dofs[d])) +
                        " twice, which BVH cannot hold");
    }
    if (bone.name.empty() || std::any_of(bone.name.begin(), bone.name.end(),
                                         [](char c) { return text::is_blank(c) || c == '{' || c == '}'; }))
      return fail("", 0, "bone name " + quote(bone.name) + " cannot be a BVH joint name (empty, a space or a brace)");
  }
  return {};
}

}  // namespace

Result<BvhFile> to_bvh(const Skeleton& skeleton, const Motion& motion) {
  if (skeleton.offsets_in_parent_frame) {
    if (auto ok = check_bvh_skeleton(skeleton); !ok) return std::unexpected(ok.error());
    return BvhFile{skeleton, motion};
  }
  if (motion.channel_count != skeleton.channel_count)
    return fail("", 0,
                "the motion has " + std::to_string(motion.channel_count) + " channels, the skeleton " +
                    std::to_string(skeleton.channel_count));
  BvhFile out;
  Skeleton& s = out.skeleton;
  s.name = skeleton.name;
  s.offsets_in_parent_frame = true;
  s.units = skeleton.units;
  const std::size_t n = skeleton.bones.size();
  std::vector<int> joint_of(n, -1);  // skeleton bone -> BVH bone
  std::vector<int> child_count(n, 0);
  for (std::size_t b = 1; b < n; ++b) ++child_count[static_cast<std::size_t>(skeleton.bones[b].parent)];
  std::vector<std::vector<Channel>> rotations(n);
  std::vector<int> own(n, -1);  // rotation_order's count of a bone's own angles, or -1
  for (std::size_t b = 0; b < n; ++b) {
    const Bone& bone = skeleton.bones[b];
    const bool root = bone.parent < 0;
    bool has_rotation = false;
    for (const Channel c : bone.dofs) {
      if (is_rotation(c)) {
        has_rotation = true;
      } else if (!root) {
        return fail("", 0,
                    "bone " + quote(bone.name) + " has a " + std::string(channel_name(c)) +
                        " dof: BVH output holds translations and lengths only at the root");
      }
    }
    Bone joint;
    joint.name = bone.name;
    if (!root) {
      const Bone& parent = skeleton.bones[static_cast<std::size_t>(bone.parent)];
      joint.parent = joint_of[static_cast<std::size_t>(bone.parent)];
      joint.direction = parent.direction;
      joint.length = parent.parent < 0 ? 0.0 : parent.length;
    }
    if (root) {
      joint.dofs = {Channel::TX, Channel::TY, Channel::TZ};
      if (has_rotation || !is_identity(bone.axis_rotation)) rotations[b] = rotation_order(bone, own[b]);
    } else if (has_rotation) {
      rotations[b] = rotation_order(bone, own[b]);
    }
    joint.dofs.insert(joint.dofs.end(), rotations[b].begin(), rotations[b].end());
    joint_of[b] = static_cast<int>(s.bones.size());
    s.bones.push_back(std::move(joint));
    if (child_count[b] == 0) {
      Bone site;
      site.name = bone.name + "_end";
      site.parent = joint_of[b];
      site.direction = bone.direction;
      site.length = root ? 0.0 : bone.length;
      s.bones.push_back(std::move(site));
    }
  }
  if (auto tree = finalize(s); !tree) return fail("", 0, tree.error().message);
  if (auto ok = check_bvh_skeleton(s); !ok) return std::unexpected(ok.error());

  Motion& m = out.motion;
  m.fps = motion.fps;
  m.channel_count = s.channel_count;
  m.frame_numbers = motion.frame_numbers;
  m.values.resize(static_cast<std::size_t>(motion.frame_count()) * static_cast<std::size_t>(s.channel_count));
  Pose pose = make_pose(skeleton);
  for (int f = 0; f < motion.frame_count(); ++f) {
    pose_from_channels(skeleton, motion.frame(f), pose);
    std::span<double> row = m.frame(f);
    for (std::size_t b = 0; b < n; ++b) {
      const Bone& joint = s.bones[static_cast<std::size_t>(joint_of[b])];
      double* values = row.data() + joint.first_channel;
      std::size_t k = 0;
      if (b == 0) {
        for (int a = 0; a < 3; ++a) values[k++] = pose.offset[0][a];
      }
      const std::vector<Channel>& order = rotations[b];
      if (order.empty()) continue;
      // Dof order (first applied first) is reversed in R = R_i * R_j * R_k.
      if (own[b] < 0 || own[b] == 3) {
        const int i = static_cast<int>(order[2]), j = static_cast<int>(order[1]), l = static_cast<int>(order[0]);
        const Eigen::Vector3d e = euler_angles(pose.rotation[b].toRotationMatrix(), i, j, l);
        values[k++] = e[2];
        values[k++] = e[1];
        values[k++] = e[0];
      } else {
        // An identity axis and fewer than three dofs: the AMC values are the
        // angles, the axes the bone lacks 0.
        const Bone& bone = skeleton.bones[b];
        const std::span<const double> source = motion.frame(f).subspan(static_cast<std::size_t>(bone.first_channel));
        for (std::size_t d = 0; d < bone.dofs.size(); ++d) {
          if (is_rotation(bone.dofs[d])) values[k++] = source[d];
        }
        while (k < joint.dofs.size()) values[k++] = 0.0;
      }
    }
  }
  return out;
}

}  // namespace mocap
