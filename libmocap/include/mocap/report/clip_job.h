// The job for one clip of a batch report: load it; for each budget select
// keys (compress/key_pipeline.h), rebuild every frame and measure it
// (compress/motion_error.h), and do the same for uniformly spaced keys of the
// same count, the baseline. Then store each key set as a compressed clip
// file (.mkc, compress/compressed_clip.h) in whole-pose mode, count its bytes and
// measure the file as decoded; and, when asked, the clip as per-track keys
// under each bound of ReportOptions::track_bounds_cm. The rebuild and every
// file are also measured for jitter (compress/jitter.h): the joint velocity
// error and the planted feet.
//
// Errors are in cm, times in seconds, sizes in bytes; frames are AMC frame
// numbers where named (worst_frame, *_max_frame).
#pragma once

#include <mocap/core/error.h>
#include <mocap/report/clip_inputs.h>
#include <mocap/report/report_options.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mocap {

// Mean, 99th percentile (nearest rank) and max over a clip's frames (cm).
struct ErrorSummary {
  double mean = 0.0;
  double p99 = 0.0;
  double max = 0.0;
};

// What a person sees in a motion that its position error misses, against the
// original (compress/jitter.h): joints that buzz, feet that slide. Velocities
// are central differences of world positions, in cm/s.
struct JitterResult {
  // |v' - v| of every joint (bone 0 the root position, else the bone's end
  // point) on every frame: mean, 99th percentile (nearest rank) and max.
  ErrorSummary velocity;           // cm/s
  std::string velocity_max_joint;  // bone at velocity.max
  int velocity_max_frame = 0;      // AMC frame number of velocity.max
  // Planted feet: on the original's foot contacts (core/foot_contacts.h),
  // both feet counted, the mean speed of the ball of the foot.
  bool feet = false;                     // two feet found; else the planted figures are 0
  int planted_frames = 0;                // contact frames of the original, both feet counted
  double planted_capture_cm_s = 0.0;     // the original's mean ball speed over them
  double planted_cm_s = 0.0;             // this motion's
  double planted_difference_cm_s = 0.0;  // planted_cm_s - planted_capture_cm_s (> 0: the feet slide)
};

// A clip stored as a .mkc file and measured as decoded, every joint on every
// frame. For a key set: encode_clip with pose_keys set to the keys
// (whole-pose mode: every channel keyed at those frames, values quantised
// within ReportOptions::clip_file_error_cm, Hermite between keys). For a
// per-track bound: encode_clip with max_joint_error_cm set to it.
struct ClipFileResult {
  std::int64_t bytes = 0;         // the file, as write_compressed_clip writes it
  double bytes_per_second = 0.0;  // bytes / the clip's duration (frames / fps)
  double ratio = 0.0;             // ClipResult::raw_bytes / bytes
  double joint_max_cm = 0.0;      // worst joint error of the decoded file, every joint and frame
  std::string joint_max_joint;    // bone at joint_max_cm ("root": the root's position)
  int joint_max_frame = 0;        // AMC frame number of joint_max_cm
  double joint_mean_cm = 0.0;     // mean over every joint and frame
  double encode_seconds = 0.0;    // wall time of encode_clip
  JitterResult jitter;            // of the decoded file (encode_clip's stats)
};

// One clip at one budget.
struct BudgetResult {
  double budget = 0.0;
  int keys = 0;
  double key_ratio = 0.0;   // keys / frames
  ErrorSummary position;    // cm: mean over bones of the world position error
  ErrorSummary velocity;    // cm per frame
  ErrorSummary shell;       // cm: points at shell_radius from every joint
  std::string worst_joint;  // bone with the largest position error averaged over frames
  int worst_frame = 0;      // AMC frame number of the largest position error
  // cm: per frame the worst joint's position error, so joint.max is the
  // worst joint error of the clip, every joint and every frame (the honest
  // max; position.max is the worst frame of a mean over joints).
  ErrorSummary joint;
  std::string joint_max_joint;    // bone at joint.max
  int joint_max_frame = 0;        // AMC frame number of joint.max
  std::string shell_max_joint;    // bone at shell.max
  int shell_max_frame = 0;        // AMC frame number of shell.max
  ErrorSummary uniform_position;  // the same count of uniformly spaced keys
  ErrorSummary uniform_joint;
  ErrorSummary uniform_shell;
  double select_seconds = 0.0;  // choosing the keys
  // The selected keys and the uniform keys as .mkc files; zero when
  // ReportOptions::clip_files is off.
  ClipFileResult file, uniform_file;
  // Mean position error of each bone over frames (cm), in the clip's bone
  // order (ClipResult::joints).
  std::vector<double> joint_error_cm;
  // The rebuild's (every frame rebuilt from the keys by slerp) jitter.
  JitterResult jitter;
  // Per-frame position error (cm) of the selection and of uniform keys. Set
  // by run_clip; run_report folds them into the aggregate and clears them.
  std::vector<double> frame_error_cm;
  std::vector<double> uniform_frame_error_cm;
};

struct ClipResult {
  std::string path, asf, name;  // as in ClipInput
  // Measured, or the error that stopped it (read back from a report's JSON,
  // an Error holding its text, "file:line: message", alone).
  Result<void> status;
  int frames = 0;
  double fps = 120.0;
  std::int64_t raw_bytes = 0;               // frames * channels * 4: every AMC value as a float32
  double seconds = 0.0;                     // wall time of the whole job: load, every budget, measure, encode
  std::vector<std::string> joints;          // bone names, bone order
  std::vector<BudgetResult> budgets;        // one per ReportOptions::budgets when ok
  std::vector<ClipFileResult> track_files;  // one per ReportOptions::track_bounds_cm when ok

  double duration_seconds() const { return fps > 0.0 ? frames / fps : 0.0; }
  // "file:line: message" of a failed clip, "" of a measured one.
  std::string error_text() const { return status ? std::string() : status.error().to_string(); }
};

// The job for one clip: every failure (no ASF, a parse error, frames that
// cannot be rebuilt or encoded) is the result's `status`.
// `options` must pass validate(). Every number but the times depends only on
// the clip and the options.
ClipResult run_clip(const ClipInput& input, const ReportOptions& options);

}  // namespace mocap
