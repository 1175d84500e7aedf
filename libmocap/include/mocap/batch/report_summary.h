// The summary of a batch report (report.h): per budget, over every clip that
// ran, the error of the selected keys and of uniform keys, the worst joint
// error named, the best and worst clips, the error per joint, and the bytes
// of the .mkc files per second of motion.
#pragma once

#include <mocap/batch/report.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mocap {

struct ClipRank {
  std::string name, path;
  double max_cm = 0.0;
};

// The .mkc files of one key set (selected or uniform) at one budget, or of
// one per-track bound, over every clip that ran.
struct FileSummary {
  std::int64_t bytes = 0;      // the files' bytes summed
  double kb_per_second = 0.0;  // bytes / 1000 / ReportSummary::motion_seconds (KB = 1000 bytes)
  double ratio = 0.0;          // ReportSummary::raw_bytes / bytes
  double joint_max_cm = 0.0;   // worst joint error of any decoded file, every joint and frame
  std::string joint_max_clip;  // where: clip name, bone, AMC frame number
  std::string joint_max_joint;
  int joint_max_frame = 0;
  double joint_mean_cm = 0.0;  // mean over every joint and frame of every clip (frame-weighted)
};

// One budget over every clip that ran.
struct BudgetSummary {
  double budget = 0.0;
  std::int64_t keys = 0;
  double key_ratio = 0.0;  // keys / frames over all clips
  ErrorSummary position;   // mean over all frames; p99 from the histogram; max
  ErrorSummary uniform_position;
  double shell_max = 0.0, uniform_shell_max = 0.0;
  // The worst joint error over every clip, joint and frame (cm), where it is.
  double joint_max = 0.0, uniform_joint_max = 0.0;
  std::string joint_max_clip, joint_max_joint;
  int joint_max_frame = 0;                               // AMC frame number
  std::vector<double> share_under, uniform_share_under;  // of frames, per ReportOptions::under_cm, in [0, 1]
  std::vector<ClipRank> best, worst;                     // up to 5 clips by max position error
  // Mean position error of each bone name over all frames of the clips that have it (cm), in
  // the order names first appear in the clips.
  std::vector<std::string> joints;
  std::vector<double> joint_error_cm;
  FileSummary file, uniform_file;  // zero when ReportOptions::clip_files is off
};

struct ReportSummary {
  int clips = 0, ok = 0, failed = 0;
  std::int64_t frames = 0;
  double hours = 0.0;           // of motion
  double motion_seconds = 0.0;  // of motion: frames / fps summed over the clips that ran
  std::int64_t raw_bytes = 0;   // frames * channels * 4 summed over the clips that ran
  double clip_seconds = 0.0;    // the jobs' wall times summed
  std::vector<BudgetSummary> budgets;
  std::vector<FileSummary> track_files;  // per-track .mkc, one per ReportOptions::track_bounds_cm
};

ReportSummary summarise(const Report& report);

}  // namespace mocap
