// Internal: the dof model of a bone, what the rebuild and the selection need
// to go between a bone's rotation dofs (AMC channels) and its local rotation.
// The forward direction for whole frames is fk.h's pose_from_channels; here it
// is dof_rotation for one bone, and its inverse channels_from_rotation.
#pragma once

#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <span>
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

// The BoneRig of one bone: its frame C (for the root, O), its dofs in
// dof-line order and its first channel in a frame.
BoneRig make_bone_rig(const Eigen::Quaterniond& c, std::span<const Channel> dofs, int first_channel, bool root);

// One BoneRig per bone of `skeleton`.
std::vector<BoneRig> make_rig(const Skeleton& skeleton);

// `angle` plus the multiple of 2 pi that brings it nearest to `reference`.
double unwrap(double angle, double reference);

// The angle of the twist of m about unit axis `axis` (0 x, 1 y, 2 z).
double twist_angle(const Eigen::Quaterniond& m, int axis);

// The nearest rotation R_e2(second) * R_e1(first) to the dof-space rotation m
// of a bone with two rotation dofs, and its angles.
Eigen::Quaterniond project_two_dofs(const BoneRig& rig, const Eigen::Quaterniond& m, double& first, double& second);

// The inverse model: the channel values of bone `rig` that give the local
// rotation `rotation` (after the two-dof projection where it applies), each
// angle the one of its equivalents (2 pi apart, or the other Euler solution)
// nearest to the value already in `channels` (a frame's values, indexed by
// channel). Bones without rotation dofs, or whose dofs cannot be inverted
// (linear_channels), are left alone.
void channels_from_rotation(const BoneRig& rig, const Eigen::Quaterniond& rotation, double* channels);

// Every frame's rotation channels (frame-major `values`, `frames` rows of
// skeleton.channel_count) replaced, in place, by the equivalents (2 pi apart,
// or a three-dof bone's other Euler solution) nearest to the previous frame's;
// frame 0 is kept. The rotations stay the same (to ~1e-15 rad), the signal
// becomes continuous: captures flip Euler solutions near gimbal lock (05_06's
// rfemur rz goes 95 -> -18 and 82 -> 261 deg in one frame), and a curve
// through such channels turns the long way round between two frames.
void make_channels_continuous(const Skeleton& skeleton, std::span<double> values, int frames);

// Inline: they run for every bone of every frame of the selection's search.

// The dof-space rotation M of a local rotation q (see fk.h) and back.
inline Eigen::Quaterniond to_dof_space(const BoneRig& rig, const Eigen::Quaterniond& q) {
  return rig.root ? rig.c.conjugate() * q : rig.c.conjugate() * q * rig.c;
}

inline Eigen::Quaterniond from_dof_space(const BoneRig& rig, const Eigen::Quaterniond& m) {
  return rig.root ? rig.c * m : rig.c * m * rig.c.conjugate();
}

// project_two_dofs without angles, for the hot loop: the half-angle
// rotations come from the directions by half-angle identities, and the twist
// about e1 is the quaternion's own part along e1, normalised.
inline Eigen::Quaterniond project_two_dofs_fast(const BoneRig& rig, const Eigen::Quaterniond& m) {
  const int a1 = rig.axis[0], a2 = rig.axis[1];
  const Eigen::Vector3d e1 = unit_axis(a1);
  const Eigen::Vector3d e2 = unit_axis(a2);
  const Eigen::Vector3d d = m * e1;
  const double x = e1.dot(d), y = e2.dot(e1.cross(d));
  const double r = std::sqrt(x * x + y * y);
  double ch = 1.0, sh = 0.0;  // cos and sin of half the angle about e2
  if (r > 1e-12) {
    const double cos_b = x / r;
    ch = std::sqrt(std::max(0.0, 0.5 * (1.0 + cos_b)));
    sh = std::copysign(std::sqrt(std::max(0.0, 0.5 * (1.0 - cos_b))), y);
  }
  const Eigen::Quaterniond r2(ch, sh * e2.x(), sh * e2.y(), sh * e2.z());
  const Eigen::Quaterniond n = r2.conjugate() * m;
  Eigen::Quaterniond twist(n.w(), 0.0, 0.0, 0.0);
  twist.vec()[a1] = n.vec()[a1];
  const double norm = twist.norm();
  if (norm < 1e-12) return r2;
  twist.coeffs() /= norm;
  return r2 * twist;
}

}  // namespace mocap::detail
