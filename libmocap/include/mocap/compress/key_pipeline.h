// Whole-pose key compression in one call: a budget -> keys, the motion
// rebuilt from them, its error, and the uniform baseline at the same key
// count. What `mocap compress`, `mocap report` and the viewer's keyframe
// panel run, so that they give the same keys and numbers for the same budget.
//
// The method, in order:
//   1. Keys by the budget (selection.h, extract.h):
//        kThreshold      extract_keys at `value` (pose distance)
//        kCount          select_keys_for_count, `value` keys
//        kRatio          select_keys_for_count, round(value * frames) keys
//        kMaxJointError  select_keys_for_max_error, every joint on every frame within `value` cm
//        kMaxShellError  the same for every shell point (error.shell_radius from each joint)
//   2. The key motion (key_motion) and every frame rebuilt from it by
//      `interpolation` (rebuild_motion), as `mocap decompress` rebuilds a key file.
//   3. The rebuilt motion measured against the original (motion_error.h).
//   4. The same for uniform_keys at the same count: the baseline.
#pragma once

#include <mocap/compress/interpolation.h>
#include <mocap/compress/motion_error.h>
#include <mocap/compress/selection.h>
#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <string>
#include <string_view>
#include <vector>

namespace mocap {

enum class KeyBudget { kThreshold, kCount, kRatio, kMaxJointError, kMaxShellError };
// "threshold", "count", "ratio", "max_error", "max_shell_error".
std::string_view key_budget_name(KeyBudget budget);

struct KeyCompressOptions {
  KeyBudget budget = KeyBudget::kRatio;
  // The budget's value: a pose distance >= 0 (kThreshold), a key count >= 1
  // (kCount, a whole number; clamped to [min(2, frames), frames]), a share of
  // frames in (0, 1] (kRatio), or cm > 0 (kMaxJointError, kMaxShellError).
  double value = 0.1;
  Interpolation interpolation = Interpolation::kSlerp;  // the rebuild's, its error's and the baseline's
  // One weight per bone for the pose distance (threshold and the count's
  // starting keys); empty: default_joint_weights.
  std::vector<double> weights;
  SelectionOptions selection;    // refinement passes of the count search
  ErrorOptions error;            // velocity weight and shell radius (metres) of the measure
  bool uniform_baseline = true;  // also measure uniform keys at the same count (step 4)

  // Fails, naming the field, on a value out of its budget's range, a
  // negative or non-finite error option, or max_passes < 0.
  Result<void> validate() const;
};

struct KeyCompressResult {
  std::vector<int> keys;                      // frame indices, increasing; first and last frame included
  double threshold = 0.0;                     // the threshold used or found; NaN for the max-error budgets
  double start_mean_error_cm = 0.0;           // kCount/kRatio: the threshold's keys before refinement
  double select_seconds = 0.0;                // wall time of step 1
  Motion key_motion;                          // the key frames, AMC frame numbers kept: what a key file holds
  Motion rebuilt;                             // every frame, rebuilt
  MotionError error;                          // of `rebuilt` against the original
  std::vector<double> position_per_frame_cm;  // position error of every frame (mean over joints)
  std::vector<double> joint_mean_cm;          // each bone's position error averaged over frames
  MotionError uniform_error;                  // of uniform_keys(frames, keys.size()) (when asked)
  std::vector<double> uniform_position_per_frame_cm;
};

// Steps 1-4 for `motion` of `skeleton`. Fails when options do not validate,
// the motion has no frames or does not match the skeleton, or its frame
// numbers do not run consecutively (frames between keys could not be
// rebuilt). `name` stands for the motion's file in errors.
Result<KeyCompressResult> compress_keys(const Skeleton& skeleton, const Motion& motion,
                                        const KeyCompressOptions& options, const std::string& name = "motion");

}  // namespace mocap
