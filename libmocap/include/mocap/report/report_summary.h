// The summary of a batch report (report.h): per budget, over every clip that
// ran, the error of the selected keys and of uniform keys, the worst joint
// error named, the best and worst clips, the error per joint, and the bytes
// of the .mkc files per second of motion, and the jitter (JitterSummary) of
// the rebuilds and files.
#pragma once

#include <mocap/report/report.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mocap {

struct ClipRank {
  std::string name, path;
  double max_cm = 0.0;
};

// The jitter (clip_job.h JitterResult) of one kind of motion (the rebuilds
// of one budget, or one kind of .mkc file) over every clip that ran. The
// velocity error's p99 is the largest clip's: every clip has at most 1 % of
// its joint-frames above its own p99, so at most 1 % of all of them lie
// above the largest, which bounds the p99 of all clips' joint-frames pooled
// from above; and it is the figure a per-clip bound ("p99 <= 20 cm/s on
// every clip") is checked against. Planted feet: means over every contact
// frame of every clip (frame-weighted), and the clip whose feet slide most.
struct JitterSummary {
  double velocity_mean_cm_s = 0.0;  // over every joint and frame of every clip
  double velocity_p99_cm_s = 0.0;   // the largest clip p99 (see above)
  std::string velocity_p99_clip;
  double velocity_max_cm_s = 0.0;  // the largest single joint-frame, where: clip, bone, AMC frame number
  std::string velocity_max_clip, velocity_max_joint;
  int velocity_max_frame = 0;
  std::int64_t planted_frames = 0;       // contact frames over all clips, both feet counted
  int clips_without_feet = 0;            // clips where no two feet were found (not in the planted figures)
  double planted_capture_cm_s = 0.0;     // the originals' mean ball speed over those frames
  double planted_cm_s = 0.0;             // the rebuilds' or decoded files'
  double planted_difference_cm_s = 0.0;  // planted_cm_s - planted_capture_cm_s
  // The largest clip difference (the clip with contacts whose feet slide most).
  double planted_worst_difference_cm_s = 0.0;
  std::string planted_worst_clip;
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
  JitterSummary jitter;        // of the decoded files
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
  JitterSummary jitter;            // of the rebuilds from the selected keys
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
