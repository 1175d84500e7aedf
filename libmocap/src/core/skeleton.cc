#include <mocap/core/skeleton.h>

#include <array>
#include <cmath>
#include <numbers>

namespace mocap {

bool is_rotation(Channel c) {
  return c == Channel::RX || c == Channel::RY || c == Channel::RZ;
}

std::string_view channel_name(Channel c, bool upper_case) {
  static constexpr std::array<std::string_view, 7> kLower = {"rx", "ry", "rz", "tx", "ty", "tz", "l"};
  static constexpr std::array<std::string_view, 7> kUpper = {"RX", "RY", "RZ", "TX", "TY", "TZ", "L"};
  return (upper_case ? kUpper : kLower)[static_cast<std::size_t>(c)];
}

std::optional<Channel> parse_channel(std::string_view word) {
  for (int i = 0; i < 7; ++i) {
    const auto c = static_cast<Channel>(i);
    if (word == channel_name(c, false) || word == channel_name(c, true)) return c;
  }
  return std::nullopt;
}

double MotionUnits::radians_per_angle() const {
  return degrees ? std::numbers::pi / 180.0 : 1.0;
}

int Skeleton::find_bone(std::string_view bone_name) const {
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (bones[i].name == bone_name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> Skeleton::children(int b) const {
  std::vector<int> result;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (bones[i].parent == b) result.push_back(static_cast<int>(i));
  }
  return result;
}

Result<void> finalize(Skeleton& skeleton) {
  const int n = static_cast<int>(skeleton.bones.size());
  if (n == 0 || skeleton.bones[0].parent != -1) return fail("", 0, "the root must be bone 0 and have no parent");
  for (int b = 1; b < n; ++b) {
    const int parent = skeleton.bones[b].parent;
    if (parent >= n)
      return fail("", 0,
                  "bone '" + skeleton.bones[b].name + "' has parent " + std::to_string(parent) + " of " +
                      std::to_string(n) + " bones");
  }
  skeleton.eval_order.clear();
  skeleton.eval_order.push_back(0);
  std::vector<bool> placed(n, false);
  placed[0] = true;
  // Breadth-first from the root; a bone never reached sits on a cycle or
  // under a parent that is not in the tree.
  for (std::size_t next = 0; next < skeleton.eval_order.size(); ++next) {
    const int parent = skeleton.eval_order[next];
    for (int b = 1; b < n; ++b) {
      if (skeleton.bones[b].parent == parent && !placed[b]) {
        placed[b] = true;
        skeleton.eval_order.push_back(b);
      }
    }
  }
  for (int b = 1; b < n; ++b) {
    if (placed[b]) continue;
    if (skeleton.bones[b].parent < 0)
      return fail("", 0, "bone '" + skeleton.bones[b].name + "' has no parent in :hierarchy");
    return fail("", 0, "bone '" + skeleton.bones[b].name + "' is not connected to the root (a cycle in :hierarchy)");
  }
  int channel = 0;
  for (Bone& bone : skeleton.bones) {
    bone.dof_axes.clear();
    for (const Channel c : bone.dofs) {
      const int k = static_cast<int>(c) % 3;  // RX, TX -> x; RY, TY -> y; RZ, TZ -> z
      bone.dof_axes.push_back(bone.axis_rotation * Eigen::Vector3d::Unit(k));
    }
    bone.first_channel = channel;
    channel += static_cast<int>(bone.dofs.size());
  }
  skeleton.channel_count = channel;
  return {};
}

Eigen::Quaterniond euler_to_quaternion(const Eigen::Vector3d& angles, std::string_view order) {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  for (const char axis : order) {
    switch (axis) {
      case 'X':
      case 'x': q = Eigen::AngleAxisd(angles.x(), Eigen::Vector3d::UnitX()) * q; break;
      case 'Y':
      case 'y': q = Eigen::AngleAxisd(angles.y(), Eigen::Vector3d::UnitY()) * q; break;
      case 'Z':
      case 'z': q = Eigen::AngleAxisd(angles.z(), Eigen::Vector3d::UnitZ()) * q; break;
      default: break;
    }
  }
  return q;
}

Eigen::Vector3d xyz_euler_angles(const Eigen::Quaterniond& q) {
  // R = Rz(z) * Ry(y) * Rx(x): row 2 is (-sin y, cos y sin x, cos y cos x),
  // column 0 is cos y (cos z, sin z, .).
  const Eigen::Matrix3d r = q.normalized().toRotationMatrix();
  const double cos_y = std::hypot(r(0, 0), r(1, 0));
  const double y = std::atan2(-r(2, 0), cos_y);
  if (cos_y < 1e-12) return {std::atan2(-r(1, 2), r(1, 1)), y, 0.0};
  return {std::atan2(r(2, 1), r(2, 2)), y, std::atan2(r(1, 0), r(0, 0))};
}

}  // namespace mocap
