#include <mocap/compress/extract.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mocap {

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

double rotation_angle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return 2.0 * std::acos(std::min(std::abs(a.dot(b)), 1.0));
}

double pose_distance(const PoseTrack& track, std::span<const double> weights, int a, int b,
                     const DistanceOptions& options) {
  const Eigen::Quaterniond* qa = track.rotations(a);
  const Eigen::Quaterniond* qb = track.rotations(b);
  double d = 0.0;
  for (int j = 0; j < track.bones; ++j) d += weights[j] * rotation_angle(qa[j], qb[j]);
  return d + options.root_translation_per_metre * (track.offsets(a)[0] - track.offsets(b)[0]).norm();
}

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

}  // namespace mocap
