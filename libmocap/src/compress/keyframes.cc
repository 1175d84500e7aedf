#include <mocap/compress/keyframes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <unordered_map>

#include "core/rotation.h"
#include "io/text.h"

namespace mocap {
namespace {

using rotation::sin_cos;
using rotation::turn;

constexpr double kCm = 100.0;  // metres -> cm
constexpr double kInf = std::numeric_limits<double>::infinity();

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

Eigen::Vector3d unit_axis(int a) {
  return Eigen::Vector3d::Unit(a);
}

Eigen::Quaterniond from_dofs(const BoneRig& rig, const double* angles) {
  Eigen::Quaterniond m = Eigen::Quaterniond::Identity();
  for (int k = 0; k < rig.rotations; ++k) m = Eigen::AngleAxisd(angles[k], unit_axis(rig.axis[k])) * m;
  return m;
}

// The dof-space rotation M of a local rotation q (see fk.h) and back.
Eigen::Quaterniond to_dof_space(const BoneRig& rig, const Eigen::Quaterniond& q) {
  return rig.root ? rig.c.conjugate() * q : rig.c.conjugate() * q * rig.c;
}
Eigen::Quaterniond from_dof_space(const BoneRig& rig, const Eigen::Quaterniond& m) {
  return rig.root ? rig.c * m : rig.c * m * rig.c.conjugate();
}

std::vector<BoneRig> make_rig(const Skeleton& skeleton) {
  std::vector<BoneRig> rig(skeleton.bones.size());
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Bone& bone = skeleton.bones[b];
    BoneRig& r = rig[b];
    r.root = bone.parent < 0;
    r.translates = r.root;
    r.c = bone.axis_rotation;
    int count = 0;
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      const Channel ch = bone.dofs[k];
      if (!is_rotation(ch)) {
        r.translates = true;
        continue;
      }
      if (count < 3) {
        r.axis[count] = ch == Channel::RX ? 0 : ch == Channel::RY ? 1 : 2;
        r.channel[count] = bone.first_channel + static_cast<int>(k);
      }
      ++count;
    }
    r.rotations = std::min(count, 3);
    r.linear_channels = count > 3 || (count >= 2 && r.axis[0] == r.axis[1]) || (count == 3 && r.axis[1] == r.axis[2]);
    if (r.rotations == 3 && !r.linear_channels) {
      const double a[3] = {0.3, 0.4, 0.5};
      const double mirrored[3] = {a[0] + std::numbers::pi, std::numbers::pi - a[1], a[2] + std::numbers::pi};
      r.euler_mirror = std::abs(from_dofs(r, a).dot(from_dofs(r, mirrored))) > 1.0 - 1e-9;
    }
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

// project_two_dofs without angles, for the hot loop: the half-angle
// rotations come from the directions by half-angle identities, and the twist
// about e1 is the quaternion's own part along e1, normalised.
Eigen::Quaterniond project_two_dofs_fast(const BoneRig& rig, const Eigen::Quaterniond& m) {
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
Eigen::Vector3d log_rotation(const Eigen::Quaterniond& q) {
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
Eigen::Quaterniond exp_rotation(const Eigen::Vector3d& r) {
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
std::vector<double> channel_tangents(const Skeleton& skeleton, const Motion& keys) {
  const std::size_t n = static_cast<std::size_t>(keys.frame_count());
  const std::size_t width = static_cast<std::size_t>(keys.channel_count);
  std::vector<bool> limited(width, false);
  for (const Bone& bone : skeleton.bones) {
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      if (is_rotation(bone.dofs[k])) limited[static_cast<std::size_t>(bone.first_channel) + k] = true;
    }
  }
  std::vector<double> slope(n > 0 ? (n - 1) * width : 0), tangent;
  for (std::size_t g = 0; g + 1 < n; ++g) {
    const int i = static_cast<int>(g);
    const double h = keys.frame_numbers[g + 1] - keys.frame_numbers[g];
    for (std::size_t c = 0; c < width; ++c) slope[g * width + c] = (keys.frame(i + 1)[c] - keys.frame(i)[c]) / h;
  }
  key_tangents<double>(keys.frame_numbers, slope, width, limited, 0.0, tangent);
  return tangent;
}

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

}  // namespace

// ---------------------------------------------------------------------------
// Weights and distance

std::vector<double> default_joint_weights(const Skeleton& skeleton) {
  const std::size_t n = skeleton.bones.size();
  std::vector<double> carried(n, 0.0);
  // Children come after their parents in eval_order: walk it backwards.
  for (auto it = skeleton.eval_order.rbegin(); it != skeleton.eval_order.rend(); ++it) {
    const int b = *it;
    carried[b] += skeleton.bones[b].length;
    if (const int parent = skeleton.bones[b].parent; parent >= 0) carried[parent] += carried[b];
  }
  double total = 0.0;
  for (const double w : carried) total += w;
  for (double& w : carried) w = total > 0.0 ? w / total : 1.0 / static_cast<double>(n);
  return carried;
}

Result<std::vector<double>> parse_joint_weights(std::string_view content, const std::string& name,
                                                const Skeleton& skeleton) {
  text::LineReader in(content, name);
  std::vector<double> weights(skeleton.bones.size(), 0.0);
  std::vector<bool> seen(skeleton.bones.size(), false);
  std::string_view line;
  while (in.next(line)) {
    std::string_view rest = text::trim(line);
    if (rest.empty() || rest.front() == '#') continue;
    const std::string_view bone_name = text::next_word(rest);
    const std::string_view number = text::next_word(rest);
    const int b = skeleton.find_bone(bone_name);
    if (b < 0)
      return fail(name, in.line_number(),
                  "unknown bone " + text::quote(bone_name) + "; expected a bone of the skeleton");
    if (seen[b]) return fail(name, in.line_number(), "bone " + text::quote(bone_name) + " is given twice");
    const auto w = text::parse_number(number);
    if (!w || *w < 0.0 || !text::trim(rest).empty()) {
      return fail(name, in.line_number(), "expected 'bone weight' with a weight >= 0");
    }
    seen[b] = true;
    weights[b] = *w;
  }
  if (in.error()) return std::unexpected(*in.error());
  double total = 0.0;
  for (const double w : weights) total += w;
  if (!(total > 0.0) || !std::isfinite(total)) return fail(name, 0, "every weight is 0; expected at least one above 0");
  for (double& w : weights) w /= total;
  return weights;
}

Result<std::vector<double>> read_joint_weights(const std::string& path, const Skeleton& skeleton) {
  auto in = text::LineReader::open(path);
  if (!in) return std::unexpected(in.error());
  std::string content;
  std::string_view line;
  while (in->next(line)) {
    content += line;
    content += '\n';
  }
  if (in->error()) return std::unexpected(*in->error());
  return parse_joint_weights(content, path, skeleton);
}

double rotation_angle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return 2.0 * std::acos(std::min(std::abs(a.dot(b)), 1.0));
}

// ---------------------------------------------------------------------------
// Pose track

PoseTrack make_pose_track(const Skeleton& skeleton, const Motion& motion) {
  PoseTrack track;
  const std::size_t n = static_cast<std::size_t>(motion.frame_count()) * skeleton.bones.size();
  track.rotation.resize(n);
  track.offset.resize(n);
  fill_pose_track(skeleton, motion, track);
  return track;
}

void fill_pose_track(const Skeleton& skeleton, const Motion& motion, PoseTrack& track) {
  track.frames = motion.frame_count();
  track.bones = static_cast<int>(skeleton.bones.size());
  const std::size_t bones = skeleton.bones.size();
  for (int f = 0; f < track.frames; ++f) {
    const std::size_t row = static_cast<std::size_t>(f) * bones;
    pose_from_channels(skeleton, motion.frame(f), std::span(track.rotation).subspan(row, bones),
                       std::span(track.offset).subspan(row, bones));
  }
}

double pose_distance(const PoseTrack& track, std::span<const double> weights, int a, int b,
                     const DistanceOptions& options) {
  const Eigen::Quaterniond* qa = track.rotations(a);
  const Eigen::Quaterniond* qb = track.rotations(b);
  double d = 0.0;
  for (int j = 0; j < track.bones; ++j) d += weights[j] * rotation_angle(qa[j], qb[j]);
  return d + options.root_translation_per_metre * (track.offsets(a)[0] - track.offsets(b)[0]).norm();
}

// ---------------------------------------------------------------------------
// Extraction by threshold

void extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                  const DistanceOptions& options, std::vector<int>& keys) {
  keys.clear();
  if (track.frames == 0) return;
  keys.push_back(0);
  int last = 0;
  for (int f = 1; f < track.frames; ++f) {
    if (pose_distance(track, weights, last, f, options) > threshold) {
      keys.push_back(f);
      last = f;
    }
  }
  if (keys.back() != track.frames - 1) keys.push_back(track.frames - 1);
}

std::vector<int> extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                              const DistanceOptions& options) {
  std::vector<int> keys;
  extract_keys(track, weights, threshold, options, keys);
  return keys;
}

namespace {
int clamp_count(int frames, int count) {
  return std::clamp(count, std::min(2, frames), frames);
}
}  // namespace

ThresholdKeys threshold_for_count(const PoseTrack& track, std::span<const double> weights, int count,
                                  const DistanceOptions& options) {
  ThresholdKeys best;
  count = clamp_count(track.frames, count);
  if (track.frames == 0) return best;
  // No distance is above the upper bound: every bone turned by pi plus the
  // root's whole travel.
  Eigen::Vector3d low = track.offsets(0)[0], high = low;
  for (int f = 1; f < track.frames; ++f) {
    low = low.cwiseMin(track.offsets(f)[0]);
    high = high.cwiseMax(track.offsets(f)[0]);
  }
  double weight_sum = 0.0;
  for (const double w : weights) weight_sum += w;
  double lo = 0.0;
  double hi = std::numbers::pi * weight_sum + options.root_translation_per_metre * (high - low).norm() + 1e-9;
  std::vector<int> keys;
  auto better = [&](const std::vector<int>& k) {
    if (best.keys.empty()) return true;
    const int dk = std::abs(static_cast<int>(k.size()) - count);
    const int db = std::abs(static_cast<int>(best.keys.size()) - count);
    return dk < db || (dk == db && k.size() > best.keys.size());
  };
  for (int i = 0; i < 64; ++i) {
    const double mid = 0.5 * (lo + hi);
    extract_keys(track, weights, mid, options, keys);
    if (better(keys)) {
      best.threshold = mid;
      best.keys = keys;
    }
    const int n = static_cast<int>(keys.size());
    if (n == count) break;
    if (n > count)
      lo = mid;  // too many keys: raise the threshold
    else
      hi = mid;
  }
  return best;
}

std::vector<int> uniform_keys(int frames, int count) {
  std::vector<int> keys;
  if (frames <= 0) return keys;
  count = clamp_count(frames, count);
  if (count == 1) return {0};
  keys.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    keys.push_back(static_cast<int>(std::lround(static_cast<double>(i) * (frames - 1) / (count - 1))));
  }
  return keys;
}

// ---------------------------------------------------------------------------
// Rebuild

std::string_view interpolation_name(Interpolation interpolation) {
  return interpolation == Interpolation::kCubic ? "cubic" : "slerp";
}

void rebuild_poses(const Skeleton& skeleton, const PoseTrack& track, std::span<const int> keys, PoseTrack& out,
                   Interpolation interpolation) {
  const std::vector<BoneRig> rig = make_rig(skeleton);
  KeyInterpolator interpolate(skeleton, rig, track, keys, keys, interpolation);
  const int bones = track.bones;
  const int first = keys.front();
  out.frames = keys.back() - first + 1;
  out.bones = bones;
  auto copy_frame = [&](int from, int to) {
    std::copy_n(track.rotations(from), bones, out.rotation.begin() + static_cast<std::ptrdiff_t>(to) * bones);
    std::copy_n(track.offsets(from), bones, out.offset.begin() + static_cast<std::ptrdiff_t>(to) * bones);
  };
  copy_frame(keys.front(), 0);
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    const int a = keys[i], b = keys[i + 1];
    if (b - a > 1) {
      interpolate.prepare(i);
      for (int f = a + 1; f < b; ++f) {
        const std::size_t row = static_cast<std::size_t>(f - first) * bones;
        interpolate.next(out.rotation.data() + row, out.offset.data() + row);
      }
    }
    copy_frame(b, b - first);
  }
}

Motion key_motion(const Motion& motion, std::span<const int> keys) {
  Motion out;
  out.fps = motion.fps;
  out.channel_count = motion.channel_count;
  out.file_in_degrees = motion.file_in_degrees;
  out.header = motion.header;
  out.line_order = motion.line_order;
  out.frame_numbers.reserve(keys.size());
  out.values.reserve(keys.size() * static_cast<std::size_t>(motion.channel_count));
  for (const int k : keys) {
    out.frame_numbers.push_back(motion.frame_numbers[k]);
    const auto values = motion.frame(k);
    out.values.insert(out.values.end(), values.begin(), values.end());
  }
  return out;
}

Result<Motion> rebuild_motion(const Skeleton& skeleton, const Motion& keys, const std::string& name,
                              Interpolation interpolation) {
  if (keys.frame_count() == 0) return fail(name, 0, "no key frames; expected at least one");
  if (keys.channel_count != skeleton.channel_count) {
    return fail(name, 0, "the keys do not match the skeleton's channels");
  }
  for (int i = 1; i < keys.frame_count(); ++i) {
    if (keys.frame_numbers[i] <= keys.frame_numbers[i - 1]) {
      return fail(name, 0,
                  "key frame " + std::to_string(keys.frame_numbers[i]) + " follows frame " +
                      std::to_string(keys.frame_numbers[i - 1]) + "; expected increasing frame numbers");
    }
  }
  const PoseTrack track = make_pose_track(skeleton, keys);
  const std::vector<BoneRig> rig = make_rig(skeleton);
  std::vector<int> rows(static_cast<std::size_t>(keys.frame_count()));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  KeyInterpolator interpolate(skeleton, rig, track, rows, keys.frame_numbers, interpolation);
  const bool cubic = interpolation == Interpolation::kCubic;
  const std::vector<double> tangent = cubic ? channel_tangents(skeleton, keys) : std::vector<double>();
  Motion out;
  out.fps = keys.fps;
  out.channel_count = keys.channel_count;
  out.file_in_degrees = keys.file_in_degrees;
  out.header = keys.header;
  out.line_order = keys.line_order;
  const int first = keys.frame_numbers.front();
  const int frames = keys.frame_numbers.back() - first + 1;
  out.frame_numbers.resize(static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f) out.frame_numbers[f] = first + f;
  out.values.resize(static_cast<std::size_t>(frames) * out.channel_count);
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Quaterniond> rotation(bones);
  std::vector<Eigen::Vector3d> offset(bones);
  const int channels = out.channel_count;
  auto copy_key = [&](int i) {
    const auto values = keys.frame(i);
    std::copy(values.begin(), values.end(), out.frame(keys.frame_numbers[i] - first).begin());
  };
  copy_key(0);
  for (int i = 0; i + 1 < keys.frame_count(); ++i) {
    const int na = keys.frame_numbers[i], nb = keys.frame_numbers[i + 1];
    if (nb - na > 1) interpolate.prepare(static_cast<std::size_t>(i));
    const double* ca = keys.frame(i).data();
    const double* cb = keys.frame(i + 1).data();
    const double* ma = cubic ? tangent.data() + static_cast<std::size_t>(i) * channels : nullptr;
    const double* mb = cubic ? ma + channels : nullptr;
    for (int n = na + 1; n < nb; ++n) {
      const double t = static_cast<double>(n - na) / (nb - na);
      double* c = out.frame(n - first).data();
      // The keys' values interpolated channel by channel (a straight line, or
      // the cubic Hermite): the answer for translations, the reference that
      // picks among equivalent angles.
      if (cubic) {
        const HermiteBasis hermite(t, nb - na);
        for (int k = 0; k < channels; ++k) c[k] = hermite(ca[k], cb[k], ma[k], mb[k]);
      } else {
        for (int k = 0; k < channels; ++k) c[k] = (1.0 - t) * ca[k] + t * cb[k];
      }
      interpolate.next(rotation.data(), offset.data());
      for (std::size_t b = 0; b < bones; ++b) {
        const BoneRig& r = rig[b];
        if (r.rotations == 0 || r.linear_channels) continue;
        const Eigen::Quaterniond m = to_dof_space(r, rotation[b]);
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
          const double solutions[2][3] = {{e[2], e[1], e[0]},
                                          {e[2] + pi, r.euler_mirror ? pi - e[1] : -e[1], e[0] + pi}};
          double best_cost = kInf;
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
    }
    copy_key(i + 1);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Selection

namespace {

// What a frame's error is, for SegmentError::max.
enum class FrameError { kMean, kJoint, kShell };

std::uint64_t segment_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

// The error of rebuilding frames between two keys, against the original
// world transforms (computed once): per frame, the mean over joints of the
// position error (what the count search sums), the worst joint's, or the
// worst shell point's (what max_error can bound).
class SegmentError {
 public:
  SegmentError(const Skeleton& skeleton, const PoseTrack& track, double shell_radius = 0.03)
      : skeleton_(skeleton),
        track_(track),
        rig_(make_rig(skeleton)),
        interpolate_(skeleton, rig_),
        pose_(make_pose(skeleton)),
        positions_(skeleton.bones.size()),
        rotations_(skeleton.bones.size()),
        reference_(static_cast<std::size_t>(track.frames) * track.bones),
        reference_rotations_(reference_.size()),
        per_bone_(kCm / std::max(track.bones, 1)),
        shell_radius_(shell_radius) {
    const std::size_t bones = static_cast<std::size_t>(track.bones);
    for (int f = 0; f < track.frames; ++f) {
      std::copy_n(track.rotations(f), bones, pose_.rotation.begin());
      std::copy_n(track.offsets(f), bones, pose_.offset.begin());
      forward_kinematics(skeleton_, pose_, std::span(reference_).subspan(f * bones, bones),
                         std::span(reference_rotations_).subspan(f * bones, bones));
    }
  }

  // Sum over the frames strictly between a and b of the position error (cm);
  // stops early, returning a partial sum above `stop`, once it exceeds it.
  // Complete sums are remembered: the search asks for the same segments
  // again and again as keys settle.
  double sum(int a, int b, double stop = kInf) {
    if (b - a < 2) return 0.0;
    const std::uint64_t key = segment_key(a, b);
    if (const auto known = sums_.find(key); known != sums_.end()) return known->second;
    interpolate_.prepare(track_, a, b, b - a);
    double total = 0.0;
    for (int f = a + 1; f < b; ++f) {
      total += next_frame(f, FrameError::kMean);
      if (total > stop) return total;
    }
    sums_.emplace(key, total);
    return total;
  }

  // Max of `what` over the same frames; stops early once a frame exceeds `stop`.
  double max(int a, int b, FrameError what, double stop = kInf) {
    if (b - a < 2) return 0.0;
    interpolate_.prepare(track_, a, b, b - a);
    double worst = 0.0;
    for (int f = a + 1; f < b; ++f) {
      worst = std::max(worst, next_frame(f, what));
      if (worst > stop) break;
    }
    return worst;
  }

 private:
  // The error of frame f, the interpolator's next frame.
  double next_frame(int f, FrameError what) {
    interpolate_.next(pose_.rotation.data(), pose_.offset.data());
    forward_kinematics(skeleton_, pose_, positions_, rotations_);
    const std::size_t row = static_cast<std::size_t>(f) * track_.bones;
    const Eigen::Vector3d* reference = reference_.data() + row;
    double s = 0.0;
    switch (what) {
      case FrameError::kMean:
        for (int j = 0; j < track_.bones; ++j) s += (positions_[j] - reference[j]).norm();
        return s * per_bone_;
      case FrameError::kJoint:
        for (int j = 0; j < track_.bones; ++j) s = std::max(s, (positions_[j] - reference[j]).squaredNorm());
        return std::sqrt(s) * kCm;
      case FrameError::kShell: {
        // As motion_error.cc measures it: points at the shell radius along
        // each axis of every joint's world frame.
        const Eigen::Quaterniond* reference_rotation = reference_rotations_.data() + row;
        for (int j = 0; j < track_.bones; ++j) {
          const Eigen::Vector3d d = positions_[j] - reference[j];
          const Eigen::Matrix3d diff = rotations_[j].toRotationMatrix() - reference_rotation[j].toRotationMatrix();
          for (int k = 0; k < 3; ++k) s = std::max(s, (d + shell_radius_ * diff.col(k)).squaredNorm());
        }
        return std::sqrt(s) * kCm;
      }
    }
    return 0.0;
  }

  std::unordered_map<std::uint64_t, double> sums_;  // complete sums by segment_key
  const Skeleton& skeleton_;
  const PoseTrack& track_;
  std::vector<BoneRig> rig_;
  Interpolator interpolate_;
  Pose pose_;
  std::vector<Eigen::Vector3d> positions_;
  std::vector<Eigen::Quaterniond> rotations_;
  std::vector<Eigen::Vector3d> reference_;
  std::vector<Eigen::Quaterniond> reference_rotations_;
  double per_bone_;
  double shell_radius_;  // metres
};

// Local search over key positions for the least summed position error with a
// fixed number of keys. The error of a frame depends only on the two keys
// around it, so the total is a sum over segments and a key change only
// touches the segments beside it.
class KeySearch {
 public:
  explicit KeySearch(SegmentError& error) : error_(error) {}

  void reset(std::vector<int> keys) {
    keys_ = std::move(keys);
    cost_.resize(keys_.size() > 0 ? keys_.size() - 1 : 0);
    for (std::size_t i = 0; i + 1 < keys_.size(); ++i) cost_[i] = error_.sum(keys_[i], keys_[i + 1]);
  }
  const std::vector<int>& keys() const { return keys_; }
  double total() const {
    double t = 0.0;
    for (const double c : cost_) t += c;
    return t;
  }

  // Removes or inserts keys until there are `count`: removing where the
  // error grows least, inserting where the error is largest.
  void set_count(std::size_t count) {
    while (keys_.size() > count && keys_.size() > 2) {
      std::size_t best = 1;
      double best_increase = kInf;
      for (std::size_t i = 1; i + 1 < keys_.size(); ++i) {
        const double increase = error_.sum(keys_[i - 1], keys_[i + 1]) - cost_[i - 1] - cost_[i];
        if (increase < best_increase) {
          best_increase = increase;
          best = i;
        }
      }
      cost_[best - 1] = error_.sum(keys_[best - 1], keys_[best + 1]);
      keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(best));
      cost_.erase(cost_.begin() + static_cast<std::ptrdiff_t>(best));
    }
    while (keys_.size() < count) {
      std::size_t worst = 0;
      for (std::size_t i = 0; i < cost_.size(); ++i) {
        if (keys_[i + 1] - keys_[i] > 1 && (keys_[worst + 1] - keys_[worst] < 2 || cost_[i] > cost_[worst])) worst = i;
      }
      if (keys_[worst + 1] - keys_[worst] < 2) break;  // every frame is a key
      const Split s = best_split(keys_[worst], keys_[worst + 1], kInf);
      keys_.insert(keys_.begin() + static_cast<std::ptrdiff_t>(worst) + 1, s.at);
      cost_[worst] = s.left;
      cost_.insert(cost_.begin() + static_cast<std::ptrdiff_t>(worst) + 1, s.right);
    }
  }

  // Moves every inner key to its best place between its neighbours. Returns
  // whether anything moved.
  bool move_pass() {
    bool moved = false;
    for (std::size_t i = 1; i + 1 < keys_.size(); ++i) {
      const double current = cost_[i - 1] + cost_[i];
      const Split s = best_split(keys_[i - 1], keys_[i + 1], current * (1.0 - 1e-9));
      if (s.at >= 0) {
        if (s.at == keys_[i]) continue;
        keys_[i] = s.at;
        cost_[i - 1] = s.left;
        cost_[i] = s.right;
        moved = true;
      } else {
        settle(keys_[i - 1], keys_[i + 1], {keys_[i], cost_[i - 1], cost_[i]});
      }
    }
    return moved;
  }

  // Moves keys from where they are least needed to the segments with the
  // largest error, as long as each move lowers the total. Looks at the
  // `candidates` segments of largest error. Returns whether any key moved.
  bool trade_round(std::size_t candidates) {
    const std::size_t n = keys_.size();
    if (n < 3) return false;
    increase_.assign(n, kInf);
    for (std::size_t i = 1; i + 1 < n; ++i) {
      increase_[i] = error_.sum(keys_[i - 1], keys_[i + 1]) - cost_[i - 1] - cost_[i];
    }
    order_.resize(cost_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    const std::size_t top = std::min(candidates, order_.size());
    std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(top), order_.end(),
                      [&](std::size_t a, std::size_t b) { return cost_[a] > cost_[b]; });
    removal_.resize(n - 2);
    for (std::size_t i = 0; i < n - 2; ++i) removal_[i] = i + 1;
    std::sort(removal_.begin(), removal_.end(),
              [&](std::size_t a, std::size_t b) { return increase_[a] < increase_[b]; });

    trades_.clear();
    segment_used_.assign(cost_.size(), false);
    key_removed_.assign(n, false);
    for (std::size_t c = 0; c < top; ++c) {
      const std::size_t j = order_[c];
      if (keys_[j + 1] - keys_[j] < 2 || segment_used_[j]) continue;
      const Split s = best_split(keys_[j], keys_[j + 1], cost_[j]);
      if (s.at < 0) continue;
      const double decrease = cost_[j] - s.left - s.right;
      for (const std::size_t i : removal_) {
        if (increase_[i] >= decrease) break;
        // Removing key i merges segments i - 1 and i: neither may be split,
        // and no neighbouring key may go too.
        if (i == j || i == j + 1 || segment_used_[i - 1] || segment_used_[i] || key_removed_[i - 1] ||
            key_removed_[i + 1] || key_removed_[i]) {
          continue;
        }
        trades_.push_back(s.at);
        segment_used_[j] = segment_used_[i - 1] = segment_used_[i] = true;
        key_removed_[i] = true;
        break;
      }
    }
    if (trades_.empty()) return false;
    std::vector<int> next;
    next.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!key_removed_[i]) next.push_back(keys_[i]);
    }
    next.insert(next.end(), trades_.begin(), trades_.end());
    std::sort(next.begin(), next.end());
    reset(std::move(next));
    return true;
  }

 private:
  struct Split {
    int at = -1;  // the best inner frame, or -1 when none beat the bound
    double left = 0.0, right = 0.0;
  };

  // The frame between a and b (exclusive) where a key leaves the least error
  // on both sides, if that is below `bound` (with an infinite bound there
  // always is one when b - a > 1).
  Split best_split(int a, int b, double bound) {
    const std::uint64_t key = segment_key(a, b);
    if (const auto known = best_splits_.find(key); known != best_splits_.end()) {
      const Split& s = known->second;
      return s.left + s.right < bound ? s : Split{};
    }
    Split best;
    double best_total = bound;
    for (int p = a + 1; p < b; ++p) {
      const double left = error_.sum(a, p, best_total);
      if (left >= best_total) continue;
      const double right = error_.sum(p, b, best_total - left);
      if (left + right < best_total) {
        best_total = left + right;
        best = {p, left, right};
      }
    }
    // A split found under the bound is the best of all; none found says only
    // that the best is not under the bound, so nothing is remembered.
    if (best.at >= 0) best_splits_.emplace(key, best);
    return best;
  }
  // Records that a key at `at` is the best between a and b, with these costs.
  void settle(int a, int b, const Split& split) { best_splits_.emplace(segment_key(a, b), split); }

  SegmentError& error_;
  std::vector<int> keys_;
  std::vector<double> cost_;  // cost_[i]: summed error between keys i and i + 1
  std::unordered_map<std::uint64_t, Split> best_splits_;  // by segment_key: the best inner key, once known
  // Scratch of trade_round.
  std::vector<double> increase_;
  std::vector<std::size_t> order_, removal_;
  std::vector<bool> segment_used_, key_removed_;
  std::vector<int> trades_;  // keys to insert
};

double max_error(SegmentError& error, std::span<const int> keys, FrameError what = FrameError::kMean) {
  double worst = 0.0;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) worst = std::max(worst, error.max(keys[i], keys[i + 1], what));
  return worst;
}

}  // namespace

KeySelection select_keys_for_count(const Skeleton& skeleton, const Motion& motion, std::span<const double> weights,
                                   int count, const SelectionOptions& options) {
  KeySelection result;
  const int frames = motion.frame_count();
  if (frames == 0) return result;
  count = clamp_count(frames, count);
  const PoseTrack track = make_pose_track(skeleton, motion);
  SegmentError error(skeleton, track);
  KeySearch search(error);

  const ThresholdKeys start = threshold_for_count(track, weights, count, options.distance);
  result.threshold = start.threshold;
  search.reset(start.keys);
  search.set_count(static_cast<std::size_t>(count));
  const double threshold_total = search.total();
  result.start_mean_error_cm = threshold_total / frames;
  std::vector<int> threshold_keys = search.keys();
  search.reset(uniform_keys(frames, count));
  if (threshold_total < search.total()) search.reset(std::move(threshold_keys));

  for (int pass = 0; pass < options.max_passes; ++pass) {
    const double before = search.total();
    search.move_pass();
    while (search.trade_round(16)) {
    }
    if (!(search.total() < before * (1.0 - 1e-6))) break;
  }
  result.keys = search.keys();
  result.mean_error_cm = search.total() / frames;
  result.max_error_cm = max_error(error, result.keys);
  result.worst_joint_cm = max_error(error, result.keys, FrameError::kJoint);
  return result;
}

KeySelection select_keys_for_max_error(const Skeleton& skeleton, const Motion& motion, double max_error_cm,
                                       ErrorBound bound, double shell_radius) {
  KeySelection result;
  result.threshold = std::numeric_limits<double>::quiet_NaN();
  const int frames = motion.frame_count();
  if (frames == 0) return result;
  const PoseTrack track = make_pose_track(skeleton, motion);
  SegmentError error(skeleton, track, shell_radius);
  const FrameError what = bound == ErrorBound::kShell ? FrameError::kShell : FrameError::kJoint;
  auto fits = [&](int a, int b) { return error.max(a, b, what, max_error_cm) <= max_error_cm; };
  std::vector<int> keys{0};
  int a = 0;
  while (a < frames - 1) {
    // Gallop out to the first key that breaks the bound, then bisect back.
    int good = a + 1, bad = -1;
    for (int step = 2;; step *= 2) {
      const int b = std::min(a + step, frames - 1);
      if (!fits(a, b)) {
        bad = b;
        break;
      }
      good = b;
      if (b == frames - 1) break;
    }
    while (bad > good + 1) {
      const int mid = good + (bad - good) / 2;
      (fits(a, mid) ? good : bad) = mid;
    }
    keys.push_back(good);
    a = good;
  }
  // The bound is not monotone in the span: a key may have become redundant.
  for (std::size_t i = 1; i + 1 < keys.size();) {
    if (fits(keys[i - 1], keys[i + 1])) {
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) total += error.sum(keys[i], keys[i + 1]);
  result.keys = std::move(keys);
  result.mean_error_cm = total / frames;
  result.start_mean_error_cm = result.mean_error_cm;
  result.max_error_cm = max_error(error, result.keys);
  result.worst_joint_cm = max_error(error, result.keys, FrameError::kJoint);
  return result;
}

KeyError key_error(const Skeleton& skeleton, const Motion& motion, std::span<const int> keys) {
  KeyError result;
  if (keys.empty()) return result;
  const PoseTrack track = make_pose_track(skeleton, motion);
  SegmentError error(skeleton, track);
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) total += error.sum(keys[i], keys[i + 1]);
  result.mean_cm = total / (keys.back() - keys.front() + 1);
  result.max_cm = max_error(error, keys);
  result.worst_joint_cm = max_error(error, keys, FrameError::kJoint);
  return result;
}

}  // namespace mocap
