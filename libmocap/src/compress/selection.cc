#include <mocap/compress/selection.h>

#include <mocap/compress/rebuild.h>
#include <mocap/core/fk.h>
#include <mocap/core/units.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include "compress/runtime/dof_model.h"
#include "compress/runtime/interpolators.h"

namespace mocap {

using detail::BoneRig;
using detail::Interpolator;
using detail::make_rig;

namespace {
constexpr int kExhaustiveGap = 12;  // frames: best_split tries every inner frame up to this gap
// Past kExhaustiveGap, best_split ranks its candidates by estimates from at
// most kSamples frames a side, then sums the kFinalists best exactly.
constexpr int kSamples = 12;
constexpr int kFinalists = 3;
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

namespace {

// What a frame's error is, for SegmentError::max.
enum class FrameError { kMean, kJoint, kShell };

std::uint64_t segment_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

// detail::Interpolator's slerp, stepping `stride` frames at a time: frames
// a + stride, a + 2 stride, ... of the rebuild between keys a and b, each
// exactly what the one-frame steps give there (up to rounding).
class StridedInterpolator {
 public:
  StridedInterpolator(const Skeleton& skeleton, const std::vector<BoneRig>& rig)
      : rig_(rig), slerp_(skeleton.bones.size()) {
    for (std::size_t b = 0; b < rig.size(); ++b) {
      if (rig[b].rotations == 2 && !rig[b].linear_channels) two_dof_.push_back(static_cast<int>(b));
      if (rig[b].translates) moving_.push_back(static_cast<int>(b));
    }
  }

  void prepare(const PoseTrack& track, int a, int b, int stride) {
    const Eigen::Quaterniond* qa = track.rotations(a);
    const Eigen::Quaterniond* qb = track.rotations(b);
    for (std::size_t j = 0; j < slerp_.size(); ++j) {
      detail::Slerp& q = slerp_[j];
      q.set(qa[j], qb[j], b - a);
      // The angle of one frame's step times stride, by the angle sum.
      double sn = 0.0, cs = 1.0;
      for (int i = 0; i < stride; ++i) {
        const double next = sn * q.cos_delta + cs * q.sin_delta;
        cs = cs * q.cos_delta - sn * q.sin_delta;
        sn = next;
      }
      q.sin_delta = sn;
      q.cos_delta = cs;
    }
    frame_ = 0;
    stride_ = stride;
    steps_ = b - a;
    oa_ = track.offsets(a);
    ob_ = track.offsets(b);
  }

  void next(Eigen::Quaterniond* rotation, Eigen::Vector3d* offset) {
    frame_ += stride_;
    const double t = static_cast<double>(frame_) / steps_;
    for (std::size_t j = 0; j < slerp_.size(); ++j) rotation[j] = slerp_[j].next(t);
    for (const int j : two_dof_) {
      const BoneRig& r = rig_[j];
      rotation[j] = detail::from_dof_space(r, detail::project_two_dofs_fast(r, detail::to_dof_space(r, rotation[j])));
    }
    std::copy(oa_, oa_ + slerp_.size(), offset);
    for (const int j : moving_) offset[j] = (1.0 - t) * oa_[j] + t * ob_[j];
  }

 private:
  const std::vector<BoneRig>& rig_;
  std::vector<detail::Slerp> slerp_;
  std::vector<int> two_dof_, moving_;
  const Eigen::Vector3d* oa_ = nullptr;
  const Eigen::Vector3d* ob_ = nullptr;
  int frame_ = 0, stride_ = 1, steps_ = 1;
};

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
        strided_(skeleton, rig_),
        pose_(make_pose(skeleton)),
        positions_(skeleton.bones.size()),
        rotations_(skeleton.bones.size()),
        reference_(static_cast<std::size_t>(track.frames) * track.bones),
        reference_rotations_(reference_.size()),
        per_bone_(kCmPerM / std::max(track.bones, 1)),
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

  // An estimate of sum(a, b) from at most kSamples frames evenly strided
  // between the keys, by the trapezoid rule (the error is 0 at the keys and
  // smooth between them at this scale); the exact sum when the segment has
  // no more inner frames than that. For ranking candidates only.
  double estimate(int a, int b) {
    const int inner = b - a - 1;
    if (inner <= kSamples) return sum(a, b);
    const std::uint64_t key = segment_key(a, b);
    if (const auto known = estimates_.find(key); known != estimates_.end()) return known->second;
    const int stride = (inner + kSamples - 1) / kSamples;
    strided_.prepare(track_, a, b, stride);
    double total = 0.0, previous = 0.0;
    int f = a;
    for (; f + stride < b; f += stride) {
      strided_.next(pose_.rotation.data(), pose_.offset.data());
      const double e = pose_error(f + stride, FrameError::kMean);
      total += 0.5 * stride * (previous + e);
      previous = e;
    }
    total += 0.5 * (b - f) * previous;
    estimates_.emplace(key, total);
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
    return pose_error(f, what);
  }

 public:
  // Per-frame errors of the whole rebuild from `keys` (first and last frame
  // among them) by `interpolation`, as rebuild_poses gives it: the mean over
  // joints into `mean`, `what` into `bounded` (cm, one per frame). For the
  // cubic, whose segments depend on the keys beside them.
  void whole(std::span<const int> keys, Interpolation interpolation, FrameError what, std::vector<double>& mean,
             std::vector<double>& bounded) {
    rebuilt_.rotation.resize(track_.rotation.size());
    rebuilt_.offset.resize(track_.offset.size());
    rebuild_poses(skeleton_, track_, keys, rebuilt_, interpolation);
    mean.assign(static_cast<std::size_t>(track_.frames), 0.0);
    bounded.assign(static_cast<std::size_t>(track_.frames), 0.0);
    const std::size_t bones = static_cast<std::size_t>(track_.bones);
    for (int f = keys.front(); f <= keys.back(); ++f) {
      std::copy_n(rebuilt_.rotations(f - keys.front()), bones, pose_.rotation.begin());
      std::copy_n(rebuilt_.offsets(f - keys.front()), bones, pose_.offset.begin());
      mean[f] = pose_error(f, FrameError::kMean);
      bounded[f] = what == FrameError::kMean ? mean[f] : measure(f, what);
    }
  }

 private:
  // The error of frame f for the pose in pose_.
  double pose_error(int f, FrameError what) {
    forward_kinematics(skeleton_, pose_, positions_, rotations_);
    return measure(f, what);
  }
  // The error of frame f for the world transforms in positions_, rotations_.
  double measure(int f, FrameError what) {
    const std::size_t row = static_cast<std::size_t>(f) * track_.bones;
    const Eigen::Vector3d* reference = reference_.data() + row;
    double s = 0.0;
    switch (what) {
      case FrameError::kMean:
        for (int j = 0; j < track_.bones; ++j) s += (positions_[j] - reference[j]).norm();
        return s * per_bone_;
      case FrameError::kJoint:
        for (int j = 0; j < track_.bones; ++j) s = std::max(s, (positions_[j] - reference[j]).squaredNorm());
        return std::sqrt(s) * kCmPerM;
      case FrameError::kShell: {
        // As motion_error.cc measures it: points at the shell radius along
        // each axis of every joint's world frame.
        const Eigen::Quaterniond* reference_rotation = reference_rotations_.data() + row;
        for (int j = 0; j < track_.bones; ++j) {
          const Eigen::Vector3d d = positions_[j] - reference[j];
          const Eigen::Matrix3d diff = rotations_[j].toRotationMatrix() - reference_rotation[j].toRotationMatrix();
          for (int k = 0; k < 3; ++k) s = std::max(s, (d + shell_radius_ * diff.col(k)).squaredNorm());
        }
        return std::sqrt(s) * kCmPerM;
      }
    }
    return 0.0;
  }

  PoseTrack rebuilt_;                                    // scratch of whole()
  std::unordered_map<std::uint64_t, double> sums_;       // complete sums by segment_key
  std::unordered_map<std::uint64_t, double> estimates_;  // estimate()s by segment_key
  const Skeleton& skeleton_;
  const PoseTrack& track_;
  std::vector<BoneRig> rig_;
  Interpolator interpolate_;
  StridedInterpolator strided_;
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
    auto consider = [&](int p) {
      const double left = error_.sum(a, p, best_total);
      if (left >= best_total) return;
      const double right = error_.sum(p, b, best_total - left);
      if (left + right < best_total) {
        best_total = left + right;
        best = {p, left, right};
      }
    };
    // Every inner frame costs a sum over the whole gap, so an exhaustive
    // search is O(gap^2) and long gaps (a few keys per thousand frames)
    // dominate. Past kExhaustiveGap frames: every stride-th frame, then
    // every frame within a stride of the best, stride = sqrt(gap / 2), all
    // ranked by estimate() (at most 2 kSamples frames each); then the
    // kFinalists best estimated are summed exactly and the best kept.
    // Measured on the 18 shared clips against the exact stride search this
    // replaced: mean position error at 5/10/20 % keys 1.4669 -> 1.4540,
    // 0.46686 -> 0.46570, 0.15455 -> 0.15449 cm, and 1.8, 1.4, 1.1 times
    // less time (12 frames here rather than 24: the same errors, faster; 6
    // samples rather than 12 lost at 20 %).
    const int inner = b - a - 1;
    if (inner <= kExhaustiveGap) {
      for (int p = a + 1; p < b; ++p) consider(p);
    } else {
      const int stride = std::max(2, static_cast<int>(std::lround(std::sqrt(inner / 2.0))));
      std::array<std::pair<double, int>, kFinalists> top;
      top.fill({kInf, -1});
      auto rank = [&](int p) {
        const double e = error_.estimate(a, p) + error_.estimate(p, b);
        if (e >= top.back().first) return;
        for (auto& t : top) {
          if (t.second == p) return;
        }
        top.back() = {e, p};
        std::sort(top.begin(), top.end());
      };
      for (int p = a + 1 + stride / 2; p < b; p += stride) rank(p);
      const int centre = top.front().second;
      for (int p = std::max(a + 1, centre - stride + 1); p < std::min(b, centre + stride); ++p) rank(p);
      for (const auto& t : top) {
        if (t.second >= 0) consider(t.second);
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
  std::vector<double> cost_;                              // cost_[i]: summed error between keys i and i + 1
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
  count = std::clamp(count, std::min(2, frames), frames);  // as uniform_keys clamps it
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
  const std::vector<int> threshold_keys_copy = threshold_keys;
  const std::vector<int> uniform = uniform_keys(frames, count);
  search.reset(uniform);
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
  if (options.interpolation != Interpolation::kSlerp) {
    // The search is local to segments, which slerp's error is and the
    // cubic's is not (its tangents reach to the next keys). Keys are placed
    // for slerp, then measured by the cubic against the threshold's and
    // uniform keys, and the best of the three kept, so a cubic selection is
    // never worse than uniform under the cubic either.
    std::vector<double> mean, joint;
    auto cubic = [&](const std::vector<int>& keys, double& total, double& max_mean, double& max_joint) {
      error.whole(keys, options.interpolation, FrameError::kJoint, mean, joint);
      total = 0.0, max_mean = 0.0, max_joint = 0.0;
      for (int f = 0; f < frames; ++f) {
        total += mean[f];
        max_mean = std::max(max_mean, mean[f]);
        max_joint = std::max(max_joint, joint[f]);
      }
    };
    double total = 0.0, max_mean = 0.0, max_joint = 0.0;
    cubic(result.keys, total, max_mean, max_joint);
    for (const std::vector<int>* other : {&threshold_keys_copy, &uniform}) {
      double t = 0.0, m = 0.0, j = 0.0;
      cubic(*other, t, m, j);
      if (other == &threshold_keys_copy) result.start_mean_error_cm = t / frames;
      if (t < total) {
        result.keys = *other;
        total = t, max_mean = m, max_joint = j;
      }
    }
    result.mean_error_cm = total / frames;
    result.max_error_cm = max_mean;
    result.worst_joint_cm = max_joint;
  }
  return result;
}

KeySelection select_keys_for_max_error(const Skeleton& skeleton, const Motion& motion, double max_error_cm,
                                       ErrorBound bound, double shell_radius, Interpolation interpolation) {
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
  if (interpolation != Interpolation::kSlerp) {
    // The keys above hold the bound for slerp. The cubic's segments depend
    // on the keys beside them: measure the whole rebuild, add a key at the
    // worst frame of every segment that breaks the bound, and again until
    // none does (every frame a key is exact, so this ends).
    std::vector<double> mean, bounded, joint;
    for (;;) {
      error.whole(keys, interpolation, what, mean, bounded);
      std::vector<int> added;
      for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        int worst = -1;
        for (int f = keys[i] + 1; f < keys[i + 1]; ++f) {
          if (bounded[f] > max_error_cm && (worst < 0 || bounded[f] > bounded[worst])) worst = f;
        }
        if (worst >= 0) added.push_back(worst);
      }
      if (added.empty()) break;
      keys.insert(keys.end(), added.begin(), added.end());
      std::sort(keys.begin(), keys.end());
    }
    error.whole(keys, interpolation, FrameError::kJoint, mean, joint);
    result.keys = std::move(keys);
    double total = 0.0;
    for (int f = 0; f < frames; ++f) {
      total += mean[f];
      result.max_error_cm = std::max(result.max_error_cm, mean[f]);
      result.worst_joint_cm = std::max(result.worst_joint_cm, joint[f]);
    }
    result.mean_error_cm = total / frames;
    result.start_mean_error_cm = result.mean_error_cm;
    return result;
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
