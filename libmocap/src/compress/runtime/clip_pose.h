// Whole-pose clips between keys, one bone at a time, in double (internal to
// the compress tier): the reference that sample_clip(CompressedClip) and
// sample_channel evaluate at any frame time, without preparation and without
// allocation. It is compress/rebuild.h's rebuild written for one time:
//   slerp  the bone's local rotations at the two keys around t, slerped on
//          the short arc; the root translation linear;
//   cubic  Kim, Kim and Shin's cumulative cubic (interpolators.h) with the
//          tangents key_tangents gives (Catmull-Rom at the key times, capped
//          beside uneven gaps), computed here from the keys j-1 .. j+2; the
//          root translation the Hermite cubic with uncapped tangents;
// then a bone with two rotation dofs projected onto them
// (project_two_dofs_fast). decode_motion runs rebuild_motion itself; the
// tests hold these to it on every frame.
#pragma once

#include <mocap/compress/compressed_clip.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "compress/runtime/dof_model.h"
#include "compress/runtime/interpolators.h"

namespace mocap::clip_pose {

using detail::BoneRig;

// make_rig's BoneRig of clip bone b (its C from the clip's stored angles).
inline BoneRig rig_of(const CompressedClip& clip, std::size_t b) {
  static constexpr const char* kOrders[6] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  const ClipBone& bone = clip.bones[b];
  const Eigen::Quaterniond c =
      euler_to_quaternion(bone.axis.cast<double>(), kOrders[std::min<int>(bone.axis_order, 5)]);
  return detail::make_bone_rig(c, bone.dofs, bone.first_channel, bone.parent < 0);
}

// Channel `c`'s value at key j: the key point, or the constant.
inline double key_value(const CompressedClip& clip, int c, int j) {
  const ClipTrack& t = clip.tracks[static_cast<std::size_t>(c)];
  if (t.storage == TrackStorage::kConstant) return t.constant;
  return t.points[static_cast<std::size_t>(j)];
}

// The bone's local rotation at key j, as pose_from_channels composes it.
inline Eigen::Quaterniond key_rotation(const CompressedClip& clip, const BoneRig& r, int j) {
  double angles[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < r.rotations; ++k) angles[k] = key_value(clip, r.channel[k], j);
  return detail::from_dof_space(r, detail::dof_rotation(r, angles));
}

// The root translation's channels (tx, ty, tz; 0 where the root has none) at key j.
inline Eigen::Vector3d key_translation(const CompressedClip& clip, int j) {
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  const ClipBone& root = clip.bones[0];
  for (std::size_t k = 0; k < root.dofs.size(); ++k) {
    const Channel c = root.dofs[k];
    if (is_rotation(c) || c == Channel::L) continue;
    v[static_cast<int>(c) - static_cast<int>(Channel::TX)] =
        key_value(clip, root.first_channel + static_cast<int>(k), j);
  }
  return v;
}

// key_tangents' tangent at key j of `count` keys (times `keys`), from
// slope(g), the slope over gap g; `limited`: capped as rotations are.
template <class T, class Slope>
T tangent_at(const int* keys, int count, int j, bool limited, const Slope& slope) {
  if (count < 2) return slope(0) * 0.0;
  if (j == 0) return slope(0);
  if (j == count - 1) return slope(count - 2);
  const double h0 = keys[j] - keys[j - 1], h1 = keys[j + 1] - keys[j];
  const T d0 = slope(j - 1), d1 = slope(j);
  T m = (h0 * d0 + h1 * d1) / (h0 + h1);
  if (limited && std::max(h0, h1) >= 2.0 * std::min(h0, h1)) {
    const double bound = detail::kTangentLimit * detail::magnitude(h0 > h1 ? d0 : d1);
    const double size = detail::magnitude(m);
    if (size > bound) m = m * (bound / size);
  }
  return m;
}

// The bone's local rotation at frame time t in key segment j (keys[j] <= t <=
// keys[j + 1]), before the two-dof projection.
inline Eigen::Quaterniond rotation_at(const CompressedClip& clip, const BoneRig& r, int j, double t) {
  const int count = static_cast<int>(clip.keys.size());
  if (count < 2) return key_rotation(clip, r, 0);
  const int* keys = clip.keys.data();
  const double h = keys[j + 1] - keys[j];
  const double s = std::clamp((t - keys[j]) / h, 0.0, 1.0);
  const Eigen::Quaterniond qa = key_rotation(clip, r, j), qb = key_rotation(clip, r, j + 1);
  if (clip.interpolation != Interpolation::kCubic) {
    // Slerp on the short arc (interpolators.h's Slerp, without its recurrence).
    Eigen::Vector4d q0 = qa.coeffs(), q1 = qb.coeffs();
    double dot = q0.dot(q1);
    if (dot < 0.0) q1 = -q1, dot = -dot;
    const double theta = std::acos(std::min(dot, 1.0));
    if (theta < 1e-6) return Eigen::Quaterniond(Eigen::Vector4d(((1.0 - s) * q0 + s * q1).normalized()));
    const double inv = 1.0 / std::sin(theta);
    return Eigen::Quaterniond(
        Eigen::Vector4d((std::sin((1.0 - s) * theta) * inv) * q0 + (std::sin(s * theta) * inv) * q1));
  }
  const auto slope = [&](int g) {
    return Eigen::Vector3d(detail::log_rotation(key_rotation(clip, r, g).conjugate() * key_rotation(clip, r, g + 1)) /
                           static_cast<double>(keys[g + 1] - keys[g]));
  };
  const Eigen::Vector3d w1 = (h / 3.0) * tangent_at<Eigen::Vector3d>(keys, count, j, true, slope);
  const Eigen::Vector3d w3 = (h / 3.0) * tangent_at<Eigen::Vector3d>(keys, count, j + 1, true, slope);
  const Eigen::Vector3d w2 =
      detail::log_rotation(detail::exp_rotation(-w1) * qa.conjugate() * qb * detail::exp_rotation(-w3));
  const double u = 1.0 - s;
  const double b1 = 1.0 - u * u * u, b2 = s * s * (3.0 - 2.0 * s), b3 = s * s * s;
  return qa * detail::exp_rotation(b1 * w1) * detail::exp_rotation(b2 * w2) * detail::exp_rotation(b3 * w3);
}

// rotation_at, then the two-dof projection where it applies: the rebuild's
// local rotation.
// Key frames give the key's rotation exactly, from either segment beside it.
inline Eigen::Quaterniond pose_rotation_at(const CompressedClip& clip, const BoneRig& r, int j, double t) {
  if (clip.keys.size() < 2 || t <= clip.keys[static_cast<std::size_t>(j)]) return key_rotation(clip, r, j);
  if (t >= clip.keys[static_cast<std::size_t>(j) + 1]) return key_rotation(clip, r, j + 1);
  const Eigen::Quaterniond q = rotation_at(clip, r, j, t);
  if (r.rotations != 2 || r.linear_channels) return q;
  return detail::from_dof_space(r, detail::project_two_dofs_fast(r, detail::to_dof_space(r, q)));
}

// Channel c's value in the rebuild's interpolation at time t in segment j:
// linear, or the Hermite cubic with channel_tangents' tangents (rotation
// channels capped). The answer for translations; for angles, the reference
// that picks among equivalents (rebuild_motion).
inline double channel_reference_at(const CompressedClip& clip, int c, bool rotation, int j, double t) {
  const int count = static_cast<int>(clip.keys.size());
  if (count < 2) return key_value(clip, c, 0);
  const int* keys = clip.keys.data();
  const double h = keys[j + 1] - keys[j];
  const double s = std::clamp((t - keys[j]) / h, 0.0, 1.0);
  const double a = key_value(clip, c, j), b = key_value(clip, c, j + 1);
  if (s == 0.0) return a;
  if (s == 1.0) return b;
  if (clip.interpolation != Interpolation::kCubic) return (1.0 - s) * a + s * b;
  const auto slope = [&](int g) {
    return (key_value(clip, c, g + 1) - key_value(clip, c, g)) / (keys[g + 1] - keys[g]);
  };
  const detail::HermiteBasis hermite(s, h);
  return hermite(a, b, tangent_at<double>(keys, count, j, rotation, slope),
                 tangent_at<double>(keys, count, j + 1, rotation, slope));
}

}  // namespace mocap::clip_pose
