// Key extraction by a threshold on the distance between poses, the thesis's
// rule.
//
// The method, in order:
//   1. Each bone gets a weight for how much of the body it moves
//      (default_joint_weights, or a file: io/joint_weights.h).
//   2. The distance between two poses is the weighted sum of the rotation
//      angles between the bones' local rotations, plus a root translation term
//      (pose_distance).
//   3. Extraction (extract_keys): the first frame is a key; a frame farther
//      than the threshold from the last key becomes a key; the last frame is
//      always a key. threshold_for_count bisects the threshold for a count.
//
// Keys are indices of frames (0-based, increasing), not AMC frame numbers.
// Angles in radians, lengths in metres.
#pragma once

#include <mocap/core/pose_track.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Geometry>
#include <span>
#include <vector>

namespace mocap {

// One weight per bone (bone order, bone 0 the root), each the summed length of
// the bones it carries (its own and all below it), normalised to sum 1: the
// root carries the whole body, a hip outweighs a finger. A skeleton whose bones
// all have zero length gets equal weights.
std::vector<double> default_joint_weights(const Skeleton& skeleton);

// The angle of the rotation between two unit quaternions, 2 acos |<a, b>|, in
// radians in [0, pi]: q and -q are the same rotation, at distance 0. Near 0
// acos is good to about 1e-8 rad; the distance only compares against
// thresholds far above that.
double rotation_angle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

struct DistanceOptions {
  // The root translation term: a root displacement of 1 m adds this much to
  // the distance, which is otherwise a weighted mean of angles in radians.
  // With 1, moving the whole body 1 m counts like turning every bone 1 rad.
  double root_translation_per_metre = 1.0;
};

// Distance between frames a and b of `track`: sum over bones of
// weights[b] * rotation_angle, plus root_translation_per_metre * |root
// position a - root position b| (metres).
double pose_distance(const PoseTrack& track, std::span<const double> weights, int a, int b,
                     const DistanceOptions& options = {});

// Key frame indices by the threshold rule (step 3 above) into `keys` (cleared
// first; capacity is reused). An empty track gives no keys, a single frame one.
void extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                  const DistanceOptions& options, std::vector<int>& keys);
std::vector<int> extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                              const DistanceOptions& options = {});

struct ThresholdKeys {
  double threshold = 0.0;  // the threshold found
  std::vector<int> keys;   // what extract_keys gives at it
};
// Bisects the threshold until extract_keys gives `count` keys, or as close to
// it as a threshold can (the count is not always reachable exactly; the
// result then has the nearest count found, preferring more keys). `count` is
// clamped to [min(2, frames), frames].
ThresholdKeys threshold_for_count(const PoseTrack& track, std::span<const double> weights, int count,
                                  const DistanceOptions& options = {});

// `count` keys spaced as evenly as frame indices allow, first and last frame
// included: round(i * (frames - 1) / (count - 1)). `count` is clamped to
// [min(2, frames), frames].
std::vector<int> uniform_keys(int frames, int count);

}  // namespace mocap
