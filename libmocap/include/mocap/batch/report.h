// Batch error reports: every clip of a motion database compressed at a few
// budgets and measured, in parallel, with a summary and CSV, JSON and HTML
// writers.
//
// The stages, in order:
//   1. find_clips: AMC files from files and folders, each paired with its ASF
//      the CMU way (pair_asf), sorted by path; shard_clips keeps every n-th.
//   2. run_clip: the job for one clip. Load it; for each budget select keys
//      (keyframes.h), rebuild, measure (motion_error.h), and do the same for
//      uniformly spaced keys of the same count, the baseline.
//   3. run_report: run_clip over every clip on a pool of threads. Results are
//      folded in as they finish (histograms, frames under thresholds, the
//      worst clips' error curves) and their per-frame errors dropped, so
//      memory is bounded by the clips in flight, not by the database.
//   4. summarise, format_csv / format_json / format_html, write_report.
//   5. parse_report_json and merge_reports join shards run apart.
//
// A clip that fails (missing ASF, parse error, frames that cannot be rebuilt)
// is kept with its error; the others still run. Every number a report holds
// is independent of the thread count and of how the clips were sharded:
// sums over clips are taken in path order once all have finished, and the
// rest are integer counts or maxima. Errors are in cm, times in seconds.
#pragma once

#include <mocap/core/error.h>
#include <mocap/compress/keyframes.h>
#include <mocap/compress/motion_error.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// ---------------------------------------------------------------------------
// Finding clips

// An AMC to measure and the ASF it was paired with.
struct ClipInput {
  std::string path;          // the AMC, as found (relative when the input was)
  std::string asf;           // the paired ASF; empty when none was found
  std::string name;          // the AMC's stem: "09_06"
  std::uintmax_t bytes = 0;  // the AMC's size, for progress estimates
  std::string error;         // why this input cannot run (no ASF, no such file); empty when it can
};

// The ASF for the AMC at `amc`, the CMU way, first match wins:
//   1. NN.asf beside NN_MM.amc (the stem up to its first '_'),
//   2. the same stem (walk.amc -> walk.asf),
//   3. the only .asf in the AMC's folder,
//   4. `fallback_asf` (--asf) when not empty.
// Extensions match in any case. Fails, naming the AMC and what was tried,
// when none applies.
Result<std::string> pair_asf(const std::string& amc, const std::string& fallback_asf = "");

// The clips of `inputs`: a folder gives every .amc below it (recursively), a
// file gives itself (an .asf is skipped, being a skeleton). Every AMC is
// paired with pair_asf. Inputs that do not exist, files that are not .amc and
// AMCs without an ASF come back with `error` set, to be reported as failed.
// Sorted by path, each path once.
std::vector<ClipInput> find_clips(std::span<const std::string> inputs, const std::string& fallback_asf = "");

// Every `count`-th clip starting at `index` (0 <= index < count): shards
// 0..count-1 partition the list. Clips outside [0, count) give nothing.
std::vector<ClipInput> shard_clips(std::span<const ClipInput> clips, int index, int count);

// ---------------------------------------------------------------------------
// Options

// What a budget means.
enum class BudgetKind {
  kRatio,      // keys as a share of frames, in (0, 1]: select_keys_for_count
  kThreshold,  // pose distance threshold (weighted radians, root metres): extract_keys
  kMaxError,   // every joint on every frame within this many cm: select_keys_for_max_error
};
// "ratio", "threshold", "max_error".
std::string_view budget_kind_name(BudgetKind kind);

struct ReportOptions {
  BudgetKind kind = BudgetKind::kRatio;
  std::vector<double> budgets = {0.05, 0.1, 0.2};  // in the kind's unit, in the order given
  double fps = 120.0;                              // AMC files store no rate
  ErrorOptions error;                              // velocity weight and shell radius of the measure
  // Refinement passes of select_keys_for_count (ratio budgets): the
  // selection's cost grows with them; 0 keeps the better of the threshold's
  // and uniform keys.
  int selection_passes = SelectionOptions{}.max_passes;
  // The summary counts frames whose position error is under each of these (cm).
  std::vector<double> under_cm = {1.0};
  int worst_clips = 3;  // error-over-time curves kept per budget, the clips with the largest max
  int threads = 0;      // worker threads; 0 means every core
};

// Checks budgets (non-empty, finite, ratio in (0, 1], threshold >= 0,
// max error > 0), fps > 0, under_cm > 0, selection_passes, worst_clips and
// threads >= 0.
// Returns the first problem as a message.
Result<void> validate(const ReportOptions& options);

// ---------------------------------------------------------------------------
// Results

// Mean, 99th percentile (nearest rank) and max over a clip's frames (cm).
struct ErrorSummary {
  double mean = 0.0;
  double p99 = 0.0;
  double max = 0.0;
};

// One clip at one budget.
struct BudgetResult {
  double budget = 0.0;
  int keys = 0;
  double key_ratio = 0.0;         // keys / frames
  ErrorSummary position;          // cm: mean over bones of the world position error
  ErrorSummary velocity;          // cm per frame
  ErrorSummary shell;             // cm: points at shell_radius from every joint
  std::string worst_joint;        // bone with the largest position error averaged over frames
  int worst_frame = 0;            // AMC frame number of the largest position error
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
  // Mean position error of each bone over frames (cm), in the clip's bone
  // order (ClipResult::joints).
  std::vector<double> joint_error_cm;
  // Per-frame position error (cm) of the selection and of uniform keys. Set
  // by run_clip; run_report folds them into the aggregate and clears them.
  std::vector<double> frame_error_cm;
  std::vector<double> uniform_frame_error_cm;
};

struct ClipResult {
  std::string path, asf, name;  // as in ClipInput
  bool ok = false;
  std::string error;  // "file:line: message" when !ok
  int frames = 0;
  double fps = 120.0;
  double seconds = 0.0;               // wall time of the whole job: load, every budget, measure
  std::vector<std::string> joints;    // bone names, bone order
  std::vector<BudgetResult> budgets;  // one per ReportOptions::budgets when ok

  double duration_seconds() const { return fps > 0.0 ? frames / fps : 0.0; }
};

// Per-frame position errors of many clips, counted in log-spaced bins
// (kBinsPerDecade per factor of 10, from 1e-5 cm; smaller values fall in
// bin 0, larger ones in the last bin). Counts add, so shards merge exactly.
struct ErrorHistogram {
  static constexpr int kBinsPerDecade = 200;  // bins are 1.2 % wide
  static constexpr double kLowestCm = 1e-5;
  static constexpr int kBins = 10 * kBinsPerDecade;  // up to 1e5 cm
  std::vector<std::int64_t> counts = std::vector<std::int64_t>(kBins, 0);

  static int bin(double cm);
  static double upper_edge(int bin);  // cm
  void add(double cm) { ++counts[static_cast<std::size_t>(bin(cm))]; }
  std::int64_t total() const;
  // The upper edge of the bin holding the nearest-rank q-quantile (0 < q <=
  // 1), so within 1.2 % above the exact value; 0 when empty.
  double quantile(double q) const;
};

// The per-frame error of one clip at one budget over time, kept for the
// clips with the largest max error. Point i is the max over frames [i *
// stride, (i + 1) * stride), so peaks survive the thinning.
struct ErrorCurve {
  std::string path, name;
  double max_cm = 0.0;  // the clip's max position error at this budget
  double fps = 120.0;
  int stride = 1;
  std::vector<double> error_cm;
};
// At most kCurvePoints points.
inline constexpr int kCurvePoints = 600;

// What run_report keeps of per-frame errors, per budget.
struct BudgetAggregate {
  ErrorHistogram selection, uniform;
  std::vector<std::int64_t> under, uniform_under;  // frames under each ReportOptions::under_cm
  std::vector<ErrorCurve> worst;                   // largest max first, at most worst_clips
};

struct Report {
  ReportOptions options;  // as run (threads: as asked)
  int shard_index = 0;    // which shard this is of shard_count (after a merge: 0 of 1)
  int shard_count = 1;
  int threads = 1;                         // threads used (after a merge: the most any shard used)
  double wall_seconds = 0.0;               // run time (after a merge: the longest shard's)
  std::vector<ClipResult> clips;           // sorted by path; frame errors cleared
  std::vector<BudgetAggregate> aggregate;  // one per budget
};

// ---------------------------------------------------------------------------
// Running

// The job for one clip (see stage 2 above). Never throws: every failure is
// the result's `error`. `options` must pass validate().
ClipResult run_clip(const ClipInput& input, const ReportOptions& options);

// Where a run is, for a progress display. Called on the thread that called
// run_report, once per finished clip.
struct ReportProgress {
  int done = 0, total = 0, failed = 0;
  std::int64_t frames = 0;                         // frames of the clips done
  std::uintmax_t bytes_done = 0, bytes_total = 0;  // AMC bytes, for time left
  double elapsed_seconds = 0.0;
  int threads = 1;
  const ClipResult* last = nullptr;  // the clip just finished
};

// run_clip over `clips` on min(threads, clips) worker threads (threads from
// options; 0: std::thread::hardware_concurrency). `options` must pass
// validate(). The report's clips are sorted by path.
Report run_report(std::span<const ClipInput> clips, const ReportOptions& options,
                  const std::function<void(const ReportProgress&)>& progress = {});

// ---------------------------------------------------------------------------
// Summary

struct ClipRank {
  std::string name, path;
  double max_cm = 0.0;
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
  int joint_max_frame = 0;  // AMC frame number
  std::vector<double> share_under, uniform_share_under;  // of frames, per ReportOptions::under_cm, in [0, 1]
  std::vector<ClipRank> best, worst;                     // up to 5 clips by max position error
  // Mean position error of each bone name over all frames of the clips that have it (cm), in
  // the order names first appear in the clips.
  std::vector<std::string> joints;
  std::vector<double> joint_error_cm;
};

struct ReportSummary {
  int clips = 0, ok = 0, failed = 0;
  std::int64_t frames = 0;
  double hours = 0.0;         // of motion
  double clip_seconds = 0.0;  // the jobs' wall times summed
  std::vector<BudgetSummary> budgets;
};

ReportSummary summarise(const Report& report);

// ---------------------------------------------------------------------------
// Writing and merging

// One row per clip and budget (a failed clip: one row with its error), a
// header line first. Numbers in the shortest form that reads back exactly.
std::string format_csv(const Report& report);
// The whole report, summary included, in a form parse_report_json reads back.
std::string format_json(const Report& report);
// One self-contained HTML page: summary, inline SVG plots, a sortable table.
// Nothing is fetched: no scripts, styles, fonts or images from elsewhere.
std::string format_html(const Report& report);

// The format by the extension of `path` (.csv, .json, .html or .htm), written
// with write_file_atomically. Fails on another extension or a write error.
Result<void> write_report(const Report& report, const std::string& path);

// Reads format_json's output. `name` stands for the file in errors.
Result<Report> parse_report_json(std::string_view text, const std::string& name);
Result<Report> read_report_json(const std::string& path);

// Joins reports of the same options (kind, budgets, fps, error options,
// selection_passes, under_cm, worst_clips) into one, as if run at once. Fails when options
// differ or a clip appears twice (the same shard given twice).
Result<Report> merge_reports(std::span<const Report> parts);

}  // namespace mocap
