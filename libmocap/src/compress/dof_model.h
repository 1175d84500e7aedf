// Internal: the dof model of a bone, what the rebuild and the selection need
// to go between a bone's rotation dofs (AMC channels) and its local rotation.
// The forward direction for whole frames is fk.h's pose_from_channels; here it
// is dof_rotation for one bone, and its inverse channels_from_rotation.
#pragma once

#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

namespace mocap::detail {

// What the rebuild needs to know of a bone's dofs.
struct BoneRig {
  int rotations = 0;        // rotation dofs
  int axis[3] = {0, 0, 0};  // their axes (0 x, 1 y, 2 z), in dof-line order
  int channel[3] = {0, 0, 0};
  bool root = false;
  bool translates = false;  // has tx, ty, tz or l: the offset moves
  // Three rotation dofs: the second Euler solution is (a3 + pi, mirror ? pi -
  // a2 : -a2, a1 + pi); which one depends on the axis pattern.
  bool euler_mirror = true;
  // Rotation dofs the decomposition cannot invert (more than three, or an
  // axis repeated next to itself): their channels are interpolated linearly.
  bool linear_channels = false;
  Eigen::Quaterniond c = Eigen::Quaterniond::Identity();
};

inline Eigen::Vector3d unit_axis(int a) {
  return Eigen::Vector3d::Unit(a);
}

// The forward model: the dof-space rotation M = R_ak(angle k) ... R_a1(angle 1)
// of a bone's rotation dofs, in dof-line order (fk.h's pose_from_channels
// applies it to whole frames).
Eigen::Quaterniond dof_rotation(const BoneRig& rig, const double* angles);

// The dof-space rotation M of a local rotation q (see fk.h) and back.
Eigen::Quaterniond to_dof_space(const BoneRig& rig, const Eigen::Quaterniond& q);
Eigen::Quaterniond from_dof_space(const BoneRig& rig, const Eigen::Quaterniond& m);

// One BoneRig per bone of `skeleton`.
std::vector<BoneRig> make_rig(const Skeleton& skeleton);

// `angle` plus the multiple of 2 pi that brings it nearest to `reference`.
double unwrap(double angle, double reference);

// The angle of the twist of m about unit axis `axis` (0 x, 1 y, 2 z).
double twist_angle(const Eigen::Quaterniond& m, int axis);

// The nearest rotation R_e2(second) * R_e1(first) to the dof-space rotation m
// of a bone with two rotation dofs, and its angles.
Eigen::Quaterniond project_two_dofs(const BoneRig& rig, const Eigen::Quaterniond& m, double& first, double& second);
// The same rotation without angles, for hot loops.
Eigen::Quaterniond project_two_dofs_fast(const BoneRig& rig, const Eigen::Quaterniond& m);

// The inverse model: the channel values of bone `rig` that give the local
// rotation `rotation` (after the two-dof projection where it applies), each
// angle the one of its equivalents (2 pi apart, or the other Euler solution)
// nearest to the value already in `channels` (a frame's values, indexed by
// channel). Bones without rotation dofs, or whose dofs cannot be inverted
// (linear_channels), are left alone.
void channels_from_rotation(const BoneRig& rig, const Eigen::Quaterniond& rotation, double* channels);

}  // namespace mocap::detail
