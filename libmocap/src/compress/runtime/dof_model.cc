#include "compress/runtime/dof_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace mocap::detail {

Eigen::Quaterniond dof_rotation(const BoneRig& rig, const double* angles) {
  Eigen::Quaterniond m = Eigen::Quaterniond::Identity();
  for (int k = 0; k < rig.rotations; ++k) m = Eigen::AngleAxisd(angles[k], unit_axis(rig.axis[k])) * m;
  return m;
}

BoneRig make_bone_rig(const Eigen::Quaterniond& c, std::span<const Channel> dofs, int first_channel, bool root) {
  BoneRig r;
  r.root = root;
  r.translates = root;
  r.c = c;
  int count = 0;
  for (std::size_t k = 0; k < dofs.size(); ++k) {
    const Channel ch = dofs[k];
    if (!is_rotation(ch)) {
      r.translates = true;
      continue;
    }
    if (count < 3) {
      r.axis[count] = ch == Channel::RX ? 0 : ch == Channel::RY ? 1 : 2;
      r.channel[count] = first_channel + static_cast<int>(k);
    }
    ++count;
  }
  r.rotations = std::min(count, 3);
  r.linear_channels = count > 3 || (count >= 2 && r.axis[0] == r.axis[1]) || (count == 3 && r.axis[1] == r.axis[2]);
  if (r.rotations == 3 && !r.linear_channels) {
    const double a[3] = {0.3, 0.4, 0.5};
    const double mirrored[3] = {a[0] + std::numbers::pi, std::numbers::pi - a[1], a[2] + std::numbers::pi};
    r.euler_mirror = std::abs(dof_rotation(r, a).dot(dof_rotation(r, mirrored))) > 1.0 - 1e-9;
  }
  return r;
}

std::vector<BoneRig> make_rig(const Skeleton& skeleton) {
  std::vector<BoneRig> rig;
  rig.reserve(skeleton.bones.size());
  for (const Bone& bone : skeleton.bones) {
    rig.push_back(make_bone_rig(bone.axis_rotation, bone.dofs, bone.first_channel, bone.parent < 0));
  }
  return rig;
}

// `angle` plus the multiple of 2 pi that brings it nearest to `reference`.
double unwrap(double angle, double reference) {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  return angle + kTwoPi * std::round((reference - angle) / kTwoPi);
}

// Rotation about unit axis e that is the twist of m about e, as an angle.
double twist_angle(const Eigen::Quaterniond& m, int axis) {
  return 2.0 * std::atan2(m.vec()[axis], m.w());
}

// The nearest rotation R_e2(second) * R_e1(first) to the dof-space rotation m
// of a bone with two rotation dofs: `second` turns e1 as near as it can to
// where m takes it, `first` is the twist of what is left.
Eigen::Quaterniond project_two_dofs(const BoneRig& rig, const Eigen::Quaterniond& m, double& first, double& second) {
  const Eigen::Vector3d e1 = unit_axis(rig.axis[0]);
  const Eigen::Vector3d e2 = unit_axis(rig.axis[1]);
  const Eigen::Vector3d d = m * e1;
  // The axes are distinct unit axes, so e1 lies in the plane normal to e2.
  second = std::atan2(e2.dot(e1.cross(d)), e1.dot(d));
  const Eigen::Quaterniond r2(Eigen::AngleAxisd(second, e2));
  first = twist_angle(r2.conjugate() * m, rig.axis[0]);
  return r2 * Eigen::Quaterniond(Eigen::AngleAxisd(first, e1));
}

void channels_from_rotation(const BoneRig& r, const Eigen::Quaterniond& rotation, double* c) {
  if (r.rotations == 0 || r.linear_channels) return;
  const Eigen::Quaterniond m = to_dof_space(r, rotation);
  if (r.rotations == 1) {
    c[r.channel[0]] = unwrap(twist_angle(m, r.axis[0]), c[r.channel[0]]);
  } else if (r.rotations == 2) {
    double first_angle = 0.0, second_angle = 0.0;
    project_two_dofs(r, m, first_angle, second_angle);
    c[r.channel[0]] = unwrap(first_angle, c[r.channel[0]]);
    c[r.channel[1]] = unwrap(second_angle, c[r.channel[1]]);
  } else {
    // M = R_a3(e[0]) R_a2(e[1]) R_a1(e[2]), and its second solution.
    const Eigen::Vector3d e = m.toRotationMatrix().eulerAngles(r.axis[2], r.axis[1], r.axis[0]);
    const double pi = std::numbers::pi;
    const double solutions[2][3] = {{e[2], e[1], e[0]}, {e[2] + pi, r.euler_mirror ? pi - e[1] : -e[1], e[0] + pi}};
    double best_cost = std::numeric_limits<double>::infinity();
    double best[3] = {0.0, 0.0, 0.0};
    for (const auto& s : solutions) {
      double cost = 0.0, u[3];
      for (int k = 0; k < 3; ++k) {
        u[k] = unwrap(s[k], c[r.channel[k]]);
        cost += std::abs(u[k] - c[r.channel[k]]);
      }
      if (cost < best_cost) {
        best_cost = cost;
        std::copy_n(u, 3, best);
      }
    }
    for (int k = 0; k < 3; ++k) c[r.channel[k]] = best[k];
  }
}

void make_channels_continuous(const Skeleton& skeleton, std::span<double> values, int frames) {
  const std::vector<BoneRig> rig = make_rig(skeleton);
  const std::size_t stride = static_cast<std::size_t>(skeleton.channel_count);
  std::vector<double> original(stride);
  for (int f = 1; f < frames; ++f) {
    double* row = values.data() + static_cast<std::size_t>(f) * stride;
    const double* previous = row - stride;
    std::copy_n(row, stride, original.data());
    for (std::size_t b = 0; b < rig.size(); ++b) {
      const BoneRig& r = rig[b];
      if (r.rotations == 0) continue;
      if (r.linear_channels) {
        // No Euler solution to choose from: whole turns only.
        const Bone& bone = skeleton.bones[b];
        for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
          const std::size_t c = static_cast<std::size_t>(bone.first_channel) + k;
          if (is_rotation(bone.dofs[k])) row[c] = unwrap(original[c], previous[c]);
        }
        continue;
      }
      double angles[3];
      for (int k = 0; k < r.rotations; ++k) angles[k] = original[static_cast<std::size_t>(r.channel[k])];
      // channels_from_rotation picks the equivalent nearest to what `row`
      // holds, so it starts from the previous frame's values.
      for (int k = 0; k < r.rotations; ++k) row[r.channel[k]] = previous[r.channel[k]];
      channels_from_rotation(r, from_dof_space(r, dof_rotation(r, angles)), row);
    }
  }
}

}  // namespace mocap::detail
