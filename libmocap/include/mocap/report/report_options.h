// The settings of a batch report (report.h): what a budget means, the
// budgets, the measure, and what is kept for the summary.
#pragma once

#include <mocap/compress/motion_error.h>
#include <mocap/compress/selection.h>
#include <mocap/core/error.h>

#include <string_view>
#include <vector>

namespace mocap {

// What a budget means.
enum class BudgetKind {
  kRatio,      // keys as a share of frames, in (0, 1]: select_keys_for_count
  kThreshold,  // pose distance threshold (weighted radians, root metres): extract_keys
  kMaxError,   // every joint on every frame within this many cm: select_keys_for_max_error
};
// "ratio", "threshold", "max_error".
std::string_view budget_kind_name(BudgetKind kind);
// The kind named `name` (as budget_kind_name gives it); an error listing the
// kinds when none is.
Result<BudgetKind> parse_budget_kind(std::string_view name);

struct ReportOptions {
  BudgetKind kind = BudgetKind::kRatio;
  std::vector<double> budgets = {0.05, 0.1, 0.2};  // in the kind's unit, in the order given
  double fps = 120.0;                              // AMC files store no rate
  // Metres per BVH file unit for .bvh clips (io/bvh.h; BVH has no unit):
  // centimetres by default, as most BVH tools write. Their rate is their own
  // Frame Time, not `fps`.
  double bvh_metres_per_unit = 0.01;
  ErrorOptions error;  // velocity weight and shell radius of the measure
  // Refinement passes of select_keys_for_count (ratio budgets): the
  // selection's cost grows with them; 0 keeps the better of the threshold's
  // and uniform keys.
  int selection_passes = SelectionOptions{}.max_passes;
  // The summary counts frames whose position error is under each of these (cm).
  std::vector<double> under_cm = {1.0};
  int worst_clips = 3;  // error-over-time curves kept per budget, the clips with the largest max
  int threads = 0;      // worker threads; 0 means every core
  // Compressed clip files (.mkc, compress/compressed_clip.h): per clip and budget
  // the selected keys and the uniform keys are each encoded in whole-pose
  // mode (encode_clip with pose_keys), their bytes counted and the decoded
  // files measured. About 0.1 s per clip and budget on a CMU clip.
  bool clip_files = true;
  // cm > 0: the bound within which encode_clip quantises the key values
  // (ClipEncodeOptions::max_joint_error_cm); as `mocap compress -o x.mkc`.
  double clip_file_error_cm = 1.0;
  // Per clip, a .mkc of per-track keys (encode_clip's default mode, the
  // codec at its best and what `mocap compress -o x.mkc` writes) under each
  // of these bounds on the worst joint error (cm, > 0), independent of the
  // budgets. Empty: none. About 0.2 s per CMU clip at 1 cm, 0.35 s at 0.1.
  std::vector<double> track_bounds_cm = {1.0, 0.1};
};

// Checks budgets (non-empty, finite, ratio in (0, 1], threshold >= 0,
// max error > 0), fps > 0, bvh_metres_per_unit > 0, under_cm > 0, selection_passes, worst_clips and
// threads >= 0, clip_file_error_cm > 0, track_bounds_cm > 0. Returns the
// first problem as a message.
Result<void> validate(const ReportOptions& options);

}  // namespace mocap
