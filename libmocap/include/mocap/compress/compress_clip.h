// Compressing a loaded clip in one call, as `mocap compress` and the batch
// report's .mkc files do: a request in, the key file's (or compressed
// clip's) bytes, the rebuilt motion and the measured error out.
//
// The method, in order:
//   1. The encoding, from the format and the budget:
//        .mkc, pose_keys given        whole-pose clip of those keys (encode_clip, pose_keys)
//        .mkc, no budget, kMaxJointError, kMaxShellError
//                                     per-track keys under the bound (default 1 cm on the
//                                     worst joint) on the decoded file: method "bound"
//        .mkc, kThreshold/kCount/kRatio  keys chosen by compress_keys (key_pipeline.h),
//                                     stored whole-pose: method the budget's name
//        AMC                          compress_keys by the budget (default kRatio 0.1); the
//                                     key frames as AMC text in the capture's layout:
//                                     method the budget's name ("count" for a ratio)
//   2. For a .mkc: the file's bytes; the decoded file's error (encode_clip's
//      stats); when time_decoder, the runtime sampler timed over every frame
//      in order through one cursor, best of three passes.
//   3. When rebuilt: the motion rebuilt from the keys (AMC) or decoded from
//      the file (.mkc) as text in the capture's format (BVH for a BVH
//      skeleton, else AMC).
// Nothing is written: the caller writes key_file and rebuilt_file.
#pragma once

#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compress_report.h>
#include <mocap/compress/interpolation.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/error.h>
#include <mocap/io/bvh.h>
#include <mocap/io/capture.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mocap {

enum class CompressFormat { kAmc, kMkc };  // AMC key frames as text; a compressed clip (compressed_clip.h)

struct CompressRequest {
  CompressFormat format = CompressFormat::kAmc;
  // The budget and its value (KeyCompressOptions::value's ranges); none:
  // kRatio 0.1 for AMC, per-track keys within 1 cm on the worst joint for
  // a .mkc (step 1).
  std::optional<KeyBudget> budget;
  double value = 0.1;
  // Non-empty (.mkc only): store exactly these keys (frame indices,
  // increasing, first and last frame) whole-pose, no selection; the budget
  // is then ignored.
  std::vector<int> pose_keys;
  // Per-track .mkc (step 1's "bound"): the jitter bounds, the joint
  // velocity error's p99 (cm/s) and the planted feet's error (cm) and speed
  // (cm/s), with ClipEncodeOptions' defaults and meanings; 0: off.
  double max_velocity_error_cm_s = ClipEncodeOptions{}.max_velocity_error_cm_s;
  double max_contact_error_cm = ClipEncodeOptions{}.max_contact_error_cm;
  double max_contact_speed_cm_s = ClipEncodeOptions{}.max_contact_speed_cm_s;
  double pose_key_error_cm = 1.0;                       // whole-pose .mkc: bound on the quantised key values, > 0
  Interpolation interpolation = Interpolation::kSlerp;  // the rebuild between keys (AMC and whole-pose .mkc)
  std::vector<double> weights;                          // one per bone for the selection; empty: default_joint_weights
  ErrorSettings error;                                  // the measure (and the shell radius of kMaxShellError)
  bool rebuilt = false;                                 // also give the rebuilt motion as text
  std::string rebuilt_name = "rebuilt";                 // names the rebuilt motion in errors
  double bvh_metres_per_unit = kBvhCentimetres;         // the rebuilt BVH's lengths (BVH skeletons)
  bool time_decoder = true;                             // .mkc: time the runtime sampler (step 2)

  // Fails, naming the field, on pose keys with an AMC format, a bound or a
  // budget value out of range, negative error settings.
  Result<void> validate() const;
};

struct CompressReport {
  CompressFormat format = CompressFormat::kAmc;
  std::string method;  // "bound", "keys" (pose_keys given), or the budget's name
  Interpolation interpolation = Interpolation::kSlerp;
  int frames = 0;
  double duration_seconds = 0.0;  // the motion's, frames / fps
  ReportNames names;
  ErrorSettings settings;
  // AMC keys:
  int keys = 0;                                                 // key frames
  double threshold = std::numeric_limits<double>::quiet_NaN();  // found or used; NaN for the max-error budgets
  double start_mean_error_cm = 0.0;                             // kCount/kRatio: the threshold's keys before refinement
  MotionError error;                                            // of the rebuilt motion against the original
  MotionError uniform_error;                                    // uniform keys at the same count
  // .mkc: the decoded file's error and size (bytes, keys = points stored),
  // and the sampler's time per pose (0 unless time_decoder).
  ClipEncodeStats clip;
  double decode_ns_per_pose = 0.0;
  std::string key_file;      // AMC text or the .mkc's bytes
  std::string rebuilt_file;  // when rebuilt: AMC or BVH text
};

// Steps 1-3 for `capture` (its skeleton, motion, layout; amc_path names the
// motion in errors). Fails when the request does not validate, the motion
// has no frames or does not fit the skeleton, the weights are not one per
// bone, the selection or the encoding fails (encode_clip's error as it is),
// or the rebuilt BVH cannot be formatted (named by rebuilt_name).
Result<CompressReport> compress_clip(const Capture& capture, const CompressRequest& request);

}  // namespace mocap
