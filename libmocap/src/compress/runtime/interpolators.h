// Internal: the interpolators behind rebuild.h and selection.h. Slerp and
// the cubic between keys of a pose track, bone by bone, into caller-owned
// arrays; prepared once per pair of keys, no allocation while running.
#pragma once

#include <mocap/compress/interpolation.h>
#include <mocap/core/motion.h>
#include <mocap/core/pose_track.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "compress/runtime/dof_model.h"
#include "core/rotation.h"

namespace mocap::detail {

using rotation::sin_cos;

// Slerp along the short arc at t = k / steps for k = 1, 2, ... in turn. The
// sines of k * delta (delta = theta / steps) come from the angle-sum
// recurrence, four products a step instead of two sines: rounding grows by
// about an ulp a step, far below anything the error measure can see.
struct Slerp {
  Eigen::Vector4d q0, q1;                                  // (x, y, z, w), q1 on q0's side of the sphere
  double sin_theta = 0.0, cos_theta = 1.0, inv_sin = 0.0;  // theta: half the angle between them
  double sin_delta = 0.0, cos_delta = 1.0;
  double s = 0.0, c = 1.0;  // sin and cos of k * delta
  bool linear = true;       // too close for the sines: normalised lerp

  void set(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b, int steps) {
    q0 = a.coeffs();
    q1 = b.coeffs();
    double dot = q0.dot(q1);
    if (dot < 0.0) {
      q1 = -q1;
      dot = -dot;
    }
    dot = std::min(dot, 1.0);
    const double theta = std::acos(dot);
    linear = theta < 1e-6;
    sin_cos(theta, sin_theta, cos_theta);
    inv_sin = linear ? 0.0 : 1.0 / sin_theta;
    sin_cos(theta / steps, sin_delta, cos_delta);
    s = 0.0;
    c = 1.0;
  }
  // The next step's rotation; t is k / steps, used when the keys are too close.
  Eigen::Quaterniond next(double t) {
    const double s_next = s * cos_delta + c * sin_delta;
    c = c * cos_delta - s * sin_delta;
    s = s_next;
    Eigen::Vector4d q;
    if (linear) {
      q = ((1.0 - t) * q0 + t * q1).normalized();
    } else {
      // sin((1 - t) theta) = sin(theta - k delta).
      q = ((sin_theta * c - cos_theta * s) * inv_sin) * q0 + (s * inv_sin) * q1;
    }
    return Eigen::Quaterniond(q);  // coeffs order x, y, z, w
  }
};

// Interpolates frames between two keys of a pose track, bone by bone, into a
// Pose. Prepared once per pair of keys; no allocation after construction.
class Interpolator {
 public:
  Interpolator(const Skeleton& skeleton, const std::vector<BoneRig>& rig)
      : rig_(rig), slerp_(skeleton.bones.size()), two_dof_(), moving_() {
    for (std::size_t b = 0; b < rig.size(); ++b) {
      if (rig[b].rotations == 2 && !rig[b].linear_channels) two_dof_.push_back(static_cast<int>(b));
      if (rig[b].translates) moving_.push_back(static_cast<int>(b));
    }
  }

  // Between frames a and b of `track`, `steps` frames apart in time; next()
  // then gives the frames in between in order.
  void prepare(const PoseTrack& track, int a, int b, int steps) {
    const Eigen::Quaterniond* qa = track.rotations(a);
    const Eigen::Quaterniond* qb = track.rotations(b);
    for (std::size_t j = 0; j < slerp_.size(); ++j) slerp_[j].set(qa[j], qb[j], steps);
    k_ = 0;
    steps_ = steps;
    oa_ = track.offsets(a);
    ob_ = track.offsets(b);
  }

  // The rotations and offsets of the next frame between the keys, into
  // arrays of one entry per bone.
  void next(Eigen::Quaterniond* rotation, Eigen::Vector3d* offset) {
    const double t = static_cast<double>(++k_) / steps_;
    for (std::size_t j = 0; j < slerp_.size(); ++j) rotation[j] = slerp_[j].next(t);
    for (const int j : two_dof_) {
      const BoneRig& r = rig_[j];
      rotation[j] = from_dof_space(r, project_two_dofs_fast(r, to_dof_space(r, rotation[j])));
    }
    // Offsets of bones without translation dofs never change.
    std::copy(oa_, oa_ + slerp_.size(), offset);
    for (const int j : moving_) offset[j] = (1.0 - t) * oa_[j] + t * ob_[j];
  }

 private:
  const std::vector<BoneRig>& rig_;
  std::vector<Slerp> slerp_;
  std::vector<int> two_dof_;
  std::vector<int> moving_;
  const Eigen::Vector3d* oa_ = nullptr;
  const Eigen::Vector3d* ob_ = nullptr;
  int k_ = 0;
  int steps_ = 1;
};

// ---------------------------------------------------------------------------
// The cubic rebuild (Interpolation::kCubic)
//
// Why this curve: a Hermite cubic on the quaternions' four numbers, then
// normalised (or Catmull-Rom on them), bends its speed by the normalisation
// and does not give back a constant angular velocity; SQUAD is C1 only for
// evenly spaced keys unless its control points are corrected for the gaps.
// The cumulative form of Kim, Kim and Shin ("A general construction scheme for
// unit quaternion curves with simple high order derivatives", SIGGRAPH 1995)
// is the Hermite cubic itself written with exp and log of the rotation group:
// it passes through the keys, leaves and reaches them at exactly the angular
// velocities asked for (so C1 across keys at any spacing: velocities are per
// frame, scaled by each gap), and a constant angular velocity comes back
// exactly. It costs three exps a bone a frame, which the rebuild can afford
// (the selection's hot loop stays slerp).

// The rotation vector (angle times unit axis, radians) of a unit quaternion,
// along the short arc: angle in [0, pi].
inline Eigen::Vector3d log_rotation(const Eigen::Quaterniond& q) {
  Eigen::Vector3d v = q.vec();
  double w = q.w();
  if (w < 0.0) {
    v = -v;
    w = -w;
  }
  const double s = v.norm();  // sin of half the angle
  if (!(s > 0.0)) return Eigen::Vector3d::Zero();
  return (2.0 * std::atan2(s, w) / s) * v;
}

// The unit quaternion of a rotation vector.
inline Eigen::Quaterniond exp_rotation(const Eigen::Vector3d& r) {
  const double angle = r.norm();
  if (!(angle > 0.0)) return Eigen::Quaterniond::Identity();
  double s = 0.0, c = 1.0;
  sin_cos(0.5 * angle, s, c);
  const Eigen::Vector3d v = (s / angle) * r;
  return Eigen::Quaterniond(c, v.x(), v.y(), v.z());
}

// Tangents at the keys (times[k], increasing) from the slopes over the gaps
// between them (slope[g * width + c] over gap g, per frame), into
// tangent[k * width + c]; a single key has no gap, and tangents `zero`.
//
// Inner keys: Catmull-Rom's chord slope at the real times, (h0 d0 + h1 d1) /
// (h0 + h1) for slopes d0, d1 over gaps h0, h1. The parabola's slope (the
// same weights swapped) is exact for quadratic motion and better on smooth
// synthetic motion, but leans on the shorter gap, and the selection puts
// short gaps where capture is jerky: on the 18 shared clips at the
// selection's 10 % keys its mean position error was 0.69 of slerp's
// (geometric mean over clips) against 0.63 for the chord, with a max error
// 28 times slerp's on 16_15 (an arm dropping out for two frames, keys 1 frame
// apart, the jump thrown into the next 12 frames).
// Columns marked `limited` (rotations, and rotation channels, which only pick
// among equivalent angles) then, where one gap beside the key is at least
// twice the other, have the tangent's size capped at kTangentLimit times the
// longer gap's mean speed (3: Fritsch and Carlson's bound for a cubic that
// does not overshoot): a jump between close keys is not carried into the
// long gap beside them. Even gaps are left alone, where the cap only cost
// accuracy (a gap straddling a turning point has a small mean speed). With
// the cap: mean 0.62 of slerp's, the max error within 5 % of slerp's or
// below on every clip (16_15 was 3.7 times slerp's without it), and uniform
// keys unchanged. Translations are not capped: it did not help (root paths
// are smooth), and channel-wise and vector caps would disagree for a bone
// whose translation dofs are turned by its axis.
// First and last key: the slope of the one gap beside them.
constexpr double kTangentLimit = 3.0;

inline double magnitude(double x) {
  return std::abs(x);
}
inline double magnitude(const Eigen::Vector3d& v) {
  return v.norm();
}

template <class T>
void key_tangents(std::span<const int> times, const std::vector<T>& slope, std::size_t width,
                  const std::vector<bool>& limited, const T& zero, std::vector<T>& tangent) {
  const std::size_t n = times.size();
  tangent.assign(n * width, zero);
  if (n < 2) return;
  for (std::size_t c = 0; c < width; ++c) {
    tangent[c] = slope[c];
    tangent[(n - 1) * width + c] = slope[(n - 2) * width + c];
  }
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const double h0 = times[k] - times[k - 1], h1 = times[k + 1] - times[k];
    for (std::size_t c = 0; c < width; ++c) {
      const T& d0 = slope[(k - 1) * width + c];
      const T& d1 = slope[k * width + c];
      T m = (h0 * d0 + h1 * d1) / (h0 + h1);
      if (limited[c] && std::max(h0, h1) >= 2.0 * std::min(h0, h1)) {
        const double bound = kTangentLimit * magnitude(h0 > h1 ? d0 : d1);
        const double size = magnitude(m);
        if (size > bound) m = m * (bound / size);
      }
      tangent[k * width + c] = m;
    }
  }
}

// The cubic Hermite basis at s in [0, 1], for a gap of h frames: value =
// p0 * b[0] + p1 * b[1] + m0 * b[2] + m1 * b[3] with tangents m per frame.
struct HermiteBasis {
  double b[4];
  HermiteBasis(double s, double h) {
    const double s2 = s * s, s3 = s2 * s;
    b[0] = 2.0 * s3 - 3.0 * s2 + 1.0;
    b[1] = 3.0 * s2 - 2.0 * s3;
    b[2] = h * (s3 - 2.0 * s2 + s);
    b[3] = h * (s3 - s2);
  }
  template <class T>
  T operator()(const T& p0, const T& p1, const T& m0, const T& m1) const {
    return b[0] * p0 + b[1] * p1 + b[2] * m0 + b[3] * m1;
  }
};

// The slope (per frame) of each channel over each gap between the frames of
// `keys`, and the tangents at its frames, timed by its frame numbers.
std::vector<double> channel_tangents(const Skeleton& skeleton, const Motion& keys);

// Interpolates frames between keys by the cubic, bone by bone, into a Pose.
// The tangents of every key are computed once (this allocates); after that,
// no allocation.
class CubicInterpolator {
 public:
  // The keys are frames rows[k] of `track` at times times[k] (increasing).
  CubicInterpolator(const Skeleton& skeleton, const std::vector<BoneRig>& rig, const PoseTrack& track,
                    std::span<const int> rows, std::span<const int> times)
      : rig_(rig), track_(track), rows_(rows), times_(times), bones_(skeleton.bones.size()), segment_(bones_) {
    for (std::size_t b = 0; b < rig.size(); ++b) {
      if (rig[b].rotations == 2 && !rig[b].linear_channels) two_dof_.push_back(static_cast<int>(b));
      if (rig[b].translates) moving_.push_back(static_cast<int>(b));
    }
    const std::size_t n = rows.size();
    std::vector<Eigen::Vector3d> turn_slope(n > 0 ? (n - 1) * bones_ : 0), move_slope(turn_slope.size());
    for (std::size_t g = 0; g + 1 < n; ++g) {
      const double h = times[g + 1] - times[g];
      const Eigen::Quaterniond* qa = track.rotations(rows[g]);
      const Eigen::Quaterniond* qb = track.rotations(rows[g + 1]);
      const Eigen::Vector3d* oa = track.offsets(rows[g]);
      const Eigen::Vector3d* ob = track.offsets(rows[g + 1]);
      for (std::size_t j = 0; j < bones_; ++j) {
        // The relative rotation's axis is the same seen from either key.
        turn_slope[g * bones_ + j] = log_rotation(qa[j].conjugate() * qb[j]) / h;
        move_slope[g * bones_ + j] = (ob[j] - oa[j]) / h;
      }
    }
    const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
    key_tangents<Eigen::Vector3d>(times, turn_slope, bones_, std::vector<bool>(bones_, true), zero, turn_);
    key_tangents<Eigen::Vector3d>(times, move_slope, bones_, std::vector<bool>(bones_, false), zero, move_);
  }

  // Between keys i and i + 1; next() then gives the frames in between in order.
  void prepare(std::size_t i) {
    a_ = i;
    k_ = 0;
    h_ = times_[i + 1] - times_[i];
    const Eigen::Quaterniond* qa = track_.rotations(rows_[i]);
    const Eigen::Quaterniond* qb = track_.rotations(rows_[i + 1]);
    for (std::size_t j = 0; j < bones_; ++j) {
      // The Bezier form of the Hermite cubic: q_a exp(w1) exp(w2) exp(w3) is
      // q_b, w1 and w3 a third of a gap at the keys' angular velocities.
      Segment& s = segment_[j];
      s.start = qa[j];
      s.w1 = (h_ / 3.0) * turn_[i * bones_ + j];
      s.w3 = (h_ / 3.0) * turn_[(i + 1) * bones_ + j];
      s.w2 = log_rotation(exp_rotation(-s.w1) * qa[j].conjugate() * qb[j] * exp_rotation(-s.w3));
    }
  }

  // The rotations and offsets of the next frame between the keys, into
  // arrays of one entry per bone.
  void next(Eigen::Quaterniond* rotation, Eigen::Vector3d* offset) {
    const double s = static_cast<double>(++k_) / h_;
    // The cumulative cubic Bernstein basis.
    const double u = 1.0 - s;
    const double b1 = 1.0 - u * u * u, b2 = s * s * (3.0 - 2.0 * s), b3 = s * s * s;
    for (std::size_t j = 0; j < bones_; ++j) {
      const Segment& g = segment_[j];
      rotation[j] = g.start * exp_rotation(b1 * g.w1) * exp_rotation(b2 * g.w2) * exp_rotation(b3 * g.w3);
    }
    for (const int j : two_dof_) {
      const BoneRig& r = rig_[j];
      rotation[j] = from_dof_space(r, project_two_dofs_fast(r, to_dof_space(r, rotation[j])));
    }
    const Eigen::Vector3d* oa = track_.offsets(rows_[a_]);
    const Eigen::Vector3d* ob = track_.offsets(rows_[a_ + 1]);
    std::copy(oa, oa + bones_, offset);
    const HermiteBasis hermite(s, h_);
    for (const int j : moving_) {
      offset[j] = hermite(oa[j], ob[j], move_[a_ * bones_ + j], move_[(a_ + 1) * bones_ + j]);
    }
  }

 private:
  struct Segment {
    Eigen::Quaterniond start = Eigen::Quaterniond::Identity();
    Eigen::Vector3d w1 = Eigen::Vector3d::Zero(), w2 = Eigen::Vector3d::Zero(), w3 = Eigen::Vector3d::Zero();
  };
  const std::vector<BoneRig>& rig_;
  const PoseTrack& track_;
  std::span<const int> rows_, times_;
  std::size_t bones_;
  std::vector<Eigen::Vector3d> turn_;  // keys * bones: angular velocity at each key, rad per frame (body frame)
  std::vector<Eigen::Vector3d> move_;  // keys * bones: offset velocity at each key, metres per frame
  std::vector<Segment> segment_;
  std::vector<int> two_dof_;
  std::vector<int> moving_;
  std::size_t a_ = 0;
  int k_ = 0;
  double h_ = 1.0;
};

// The rebuild between keys by either rule: the keys are frames rows[k] of
// `track` at times times[k].
class KeyInterpolator {
 public:
  KeyInterpolator(const Skeleton& skeleton, const std::vector<BoneRig>& rig, const PoseTrack& track,
                  std::span<const int> rows, std::span<const int> times, Interpolation interpolation)
      : track_(track), rows_(rows), times_(times), slerp_(skeleton, rig) {
    if (interpolation == Interpolation::kCubic) cubic_.emplace(skeleton, rig, track, rows, times);
  }
  // Between keys i and i + 1, more than a frame apart.
  void prepare(std::size_t i) {
    if (cubic_) {
      cubic_->prepare(i);
    } else {
      slerp_.prepare(track_, rows_[i], rows_[i + 1], times_[i + 1] - times_[i]);
    }
  }
  void next(Eigen::Quaterniond* rotation, Eigen::Vector3d* offset) {
    if (cubic_) {
      cubic_->next(rotation, offset);
    } else {
      slerp_.next(rotation, offset);
    }
  }

 private:
  const PoseTrack& track_;
  std::span<const int> rows_, times_;
  Interpolator slerp_;
  std::optional<CubicInterpolator> cubic_;
};

}  // namespace mocap::detail
