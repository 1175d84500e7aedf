// Batch error reports: every clip of a motion database compressed at a few
// budgets and measured, in parallel, with a summary and CSV, JSON and HTML
// writers. One header per stage:
//   1. clip_inputs.h: find_clips, pair_asf, shard_clips.
//   2. clip_job.h: run_clip, the job for one clip (keys, rebuild, measure,
//      the uniform baseline, the .mkc files).
//   3. this header: run_report runs the job over every clip on a pool of
//      threads. Results are folded in as they finish (error_aggregate.h) and
//      their per-frame errors dropped, so memory is bounded by the clips in
//      flight, not by the database. merge_reports joins shards run apart.
//   4. report_summary.h: summarise.
//   5. report_format.h: CSV, JSON (read back for merging) and HTML.
// Settings are report_options.h.
//
// A clip that fails is kept with its error; the others still run. Every
// number a report holds is independent of the thread count and of how the
// clips were sharded: sums over clips are taken in path order once all
// have finished, and the rest are integer counts or maxima. Errors are in
// cm, times in seconds.
#pragma once

#include <mocap/core/error.h>
#include <mocap/report/clip_inputs.h>
#include <mocap/report/clip_job.h>
#include <mocap/report/error_aggregate.h>
#include <mocap/report/report_options.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace mocap {

// How a report was made, for whoever reads it later. The library sets the
// date; the front end sets the version and the command line.
struct ReportRun {
  std::string tool_version;  // "0.1.0": the project version, as `mocap --version` prints it
  std::string date_utc;      // ISO 8601, when run_report started: "2026-12-02T01:11:09Z"
  std::string command_line;  // the command as typed, arguments quoted where a shell needs it
};

struct Report {
  ReportOptions options;  // as run (threads: as asked)
  ReportRun run;          // after a merge: the merge's (see merge_reports)
  int shard_index = 0;    // which shard this is of shard_count (after a merge: 0 of 1)
  int shard_count = 1;
  int threads = 1;                         // threads used (after a merge: the most any shard used)
  double wall_seconds = 0.0;               // run time (after a merge: the longest shard's)
  std::vector<ClipResult> clips;           // sorted by path; frame errors cleared
  std::vector<BudgetAggregate> aggregate;  // one per budget
};

// Where a run is, for a progress display. Called on the thread that called
// run_report, once per finished clip.
struct ReportProgress {
  int done = 0, total = 0, failed = 0;
  std::int64_t frames = 0;                         // frames of the clips this run finished
  std::uintmax_t bytes_done = 0, bytes_total = 0;  // AMC bytes, for time left
  double elapsed_seconds = 0.0;
  int threads = 1;
  const ClipResult* last = nullptr;  // the clip just finished
};

// Continuing a run that was stopped part way, and keeping each clip as it
// finishes so that a run can be continued (report_journal.h keeps them in a
// file). Every clip is folded into its own share of the aggregate (one per
// budget) which is then added to the report's: counts add and the worst
// curves are a sorted choice, so a report made of shares, in any order, is
// the report of one run.
struct ReportResume {
  // Clips an earlier run finished (per-frame errors cleared): taken as they
  // are, not run again. Matched to `clips` by path; others are ignored.
  std::vector<ClipResult> done;
  // The shares of `done` added up, one per budget; empty when `done` is.
  std::vector<BudgetAggregate> done_aggregate;
  // Called on run_report's thread once per clip this run finishes (per-frame
  // errors cleared) with its share, before the progress callback. Returning
  // false stops the run: no clip starts after it, the running ones finish,
  // and the report returned is incomplete, for the caller to discard.
  std::function<bool(const ClipResult& clip, std::span<const BudgetAggregate> share)> finished;
};

// run_clip over `clips` on min(threads, clips) worker threads (threads from
// options; 0: std::thread::hardware_concurrency). `options` must pass
// validate(). The report's clips are sorted by path; run.date_utc is set
// (when this call started, also when resuming). With `resume`, the clips in
// resume.done are not run; the progress counts them as done from the start
// and its bytes (time left) are those of the clips still to run.
Report run_report(std::span<const ClipInput> clips, const ReportOptions& options,
                  const std::function<void(const ReportProgress&)>& progress = {}, ReportResume resume = {});

// The time now as ISO 8601 UTC to the second: "2026-12-02T01:11:09Z".
std::string utc_now_iso8601();

// Joins reports of the same options (kind, budgets, fps, error options,
// selection_passes, under_cm, worst_clips, clip files, their bound and the
// per-track bounds) into
// one, as if run at once; `run` is the first part's (the caller sets the
// merge's command line and date). Fails when options differ or a clip
// appears twice (the same shard given twice).
Result<Report> merge_reports(std::span<const Report> parts);

}  // namespace mocap
