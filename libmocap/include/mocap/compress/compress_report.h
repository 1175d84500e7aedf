// The reports of `mocap compress` and `mocap eval` as text and as one JSON
// object: one formatter each, so that the CLI, the report tier and tests print the same
// lines and keys. The reports are plain values (compress_clip.h fills a
// CompressReport; an EvalReport is a measure_error result with its names).
//
// Units as in the JSON keys: errors in cm (velocity in cm per frame), sizes
// in bytes, times in seconds or ns per pose. Frames are AMC frame numbers,
// joints bone names ("" where no frame was measured).
#pragma once

#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <optional>
#include <string>
#include <vector>

namespace mocap {

struct CompressReport;  // compress/compress_clip.h

// What names a report's joints and frames.
struct ReportNames {
  std::vector<std::string> bones;  // skeleton bone names, bone order
  std::vector<int> frame_numbers;  // the original motion's AMC frame numbers, frame order
  std::string bone(int b) const;   // "" for -1 (no frames)
  int frame(int f) const;          // 0 for -1
};
ReportNames report_names(const Skeleton& skeleton, const Motion& motion);

// The error measure's settings as the user gave them (printed as given).
struct ErrorSettings {
  double lambda = 1.0;           // weight of the velocity error in the combined error, >= 0
  double shell_radius_cm = 3.0;  // shell points' distance from each joint, cm, >= 0
  ErrorOptions options() const;  // shell_radius in metres
};

// A motion measured against an original (`mocap eval`).
struct EvalReport {
  MotionError error;
  ErrorSettings settings;
  ReportNames names;
  bool gated = false;         // a bound was set (--max-error)
  double max_error_cm = 0.0;  // the bound on error.joint.max when gated
  // Joint velocity error and planted-feet speed (jitter.h), when measured:
  // more lines and keys after the others (joint_vel_err_*_cm_s,
  // planted_feet_*).
  std::optional<JitterError> jitter = std::nullopt;
  bool pass() const { return !gated || !(error.joint.max > max_error_cm); }
};

// The lines `mocap compress` prints: for AMC keys the keys, the error of
// the rebuild and the uniform baseline; for a .mkc its size, the decoded
// file's error and the encode and decode times.
std::string format_compress_text(const CompressReport& report);
// The same as one JSON object on one line, newline-terminated.
std::string compress_report_json(const CompressReport& report);

std::string format_eval_text(const EvalReport& report);
std::string eval_report_json(const EvalReport& report);

}  // namespace mocap
