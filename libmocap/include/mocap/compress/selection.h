// Selection of whole-pose keys against the rebuild's own error, measured
// through the whole hierarchy: a count of keys placed for the least mean
// position error (select_keys_for_count), or the fewest keys holding a bound
// on the worst joint or shell point on every frame (select_keys_for_max_error).
// Errors in cm; keys are 0-based frame indices.
#pragma once

#include <mocap/compress/extract.h>
#include <mocap/compress/interpolation.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <span>
#include <vector>

namespace mocap {

// The position error used by the selection: for a frame, the mean over bones
// of the distance between original and rebuilt world positions (the same as
// motion_error.h's position error), in cm.
struct KeySelection {
  std::vector<int> keys;
  double threshold = 0.0;            // threshold of the extraction the search started from
  double mean_error_cm = 0.0;        // mean over frames of the position error
  double max_error_cm = 0.0;         // max over frames of the position error (a mean over joints)
  double worst_joint_cm = 0.0;       // max over every joint and frame of |p' - p|
  double start_mean_error_cm = 0.0;  // the same for the threshold's keys, before refinement
};

struct SelectionOptions {
  DistanceOptions distance;
  // Refinement passes at most (each moves every key to its best place between
  // its neighbours, then trades keys from where they are least needed to where
  // the error is largest). Each pass lowers the mean error or stops.
  int max_passes = 8;
  // The rebuild the keys are for. The search measures slerp (its error is
  // local to a segment); with kCubic the result is the best under the cubic
  // of the searched keys, the threshold's and uniform keys, and its errors
  // are the cubic's.
  Interpolation interpolation = Interpolation::kSlerp;
};

// `count` keys (clamped to [min(2, frames), frames]) with a low mean position
// error: the threshold's keys for that count (bisection) or uniformly spaced
// keys, whichever rebuilds better, refined by local search. The result's mean
// error is never above that of uniform_keys(frames, count).
KeySelection select_keys_for_count(const Skeleton& skeleton, const Motion& motion, std::span<const double> weights,
                                   int count, const SelectionOptions& options = {});

// What select_keys_for_max_error bounds on every frame (motion_error.h).
enum class ErrorBound {
  kJoint,  // the worst joint's position error, max_j |p' - p|: every joint, every frame
  kShell,  // the worst shell point's error, points at shell_radius from every joint
};

// The fewest keys found whose rebuild keeps `bound` within `max_error_cm`
// (cm) on every frame: from each key, the farthest next key that keeps the
// bound (all frames are keys in the worst case, so the bound always holds).
// `shell_radius` (metres) is used by ErrorBound::kShell. The threshold is
// NaN: none is used.
// With `interpolation` kCubic the bound holds for the cubic rebuild: the
// slerp keys, then a key added at the worst frame of every segment the cubic
// breaks, until none does.
KeySelection select_keys_for_max_error(const Skeleton& skeleton, const Motion& motion, double max_error_cm,
                                       ErrorBound bound = ErrorBound::kJoint, double shell_radius = 0.03,
                                       Interpolation interpolation = Interpolation::kSlerp);

// The mean and max position error (cm) of rebuilding `motion` from `keys`, as
// the selection measures it, over the frames from the first key to the last.
struct KeyError {
  double mean_cm = 0.0;
  double max_cm = 0.0;          // worst frame of the mean over joints
  double worst_joint_cm = 0.0;  // worst joint on the worst frame
};
KeyError key_error(const Skeleton& skeleton, const Motion& motion, std::span<const int> keys);

}  // namespace mocap
