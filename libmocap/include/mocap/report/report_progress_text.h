// The progress of a report run as text, as `mocap report` shows it on
// stderr: for a person, one line rewritten in place on a terminal and a
// closing line; for scripts (--progress=machine), one JSON object per line
// with an "event": "resume" (continuing a journal), "clip" (one per
// finished clip) or "done". ReportProgressPrinter prints them when
// `mocap report` does; the functions below it are the texts alone.
#pragma once

#include <mocap/report/report.h>
#include <mocap/report/report_summary.h>

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>
#include <utility>

namespace mocap {

enum class ProgressStyle {
  kNone,      // nothing but failed clips, each on its own line
  kTerminal,  // a line rewritten in place (at most ten times a second), failed clips between, a closing line
  kMachine,   // JSON lines: "resume", one "clip" per finished clip (failed ones with their error), "done"
};

// Prints a run's progress to `out` (stderr in the CLI) in one style. Failed
// clips are named "<prefix>error" in the person's styles, so that a run
// with --progress=none still says which clip failed.
class ReportProgressPrinter {
 public:
  ReportProgressPrinter(std::ostream& out, ProgressStyle style, std::string prefix = "mocap report: ")
      : out_(out), style_(style), prefix_(std::move(prefix)) {}

  // A run continuing a journal: `done` of `total` clips kept in it, a torn
  // last line of `torn_bytes` ignored. Says nothing when nothing was kept.
  void resumed(std::size_t done, std::size_t total, const std::string& journal, std::size_t torn_bytes);
  // After each finished clip (make_report's progress callback).
  void update(const ReportProgress& progress);
  // Once the report is written.
  void finish(const ReportSummary& summary, double wall_seconds, const std::string& output);

 private:
  void clear();
  std::ostream& out_;
  ProgressStyle style_;
  std::string prefix_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

// Seconds as "m:ss", or "h:mm:ss" from an hour; negatives are 0:00.
std::string clock_text(double seconds);

// "\r\033[K[done/total] pct%  N frames/s  T threads  m:ss left[  failed: F]":
// the terminal line, redrawn over the last one (no newline). Time left
// goes by the input bytes still to measure.
std::string progress_line(const ReportProgress& progress);

// "N clips (F failed), M frames in S s: C clips/s, R frames/s -> output\n".
std::string progress_done_line(const ReportSummary& summary, double wall_seconds, const std::string& output);

// {"event":"clip","done","total","failed","frames","elapsed_s","frames_per_s","eta_s"
//  [,"path","status" ("ok" or "failed")[,"error"]]} for the clip just finished.
std::string progress_clip_json(const ReportProgress& progress);
// {"event":"done","clips","failed","frames","wall_s","output"}.
std::string progress_done_json(const ReportSummary& summary, double wall_seconds, const std::string& output);
// {"event":"resume","done","total","journal","torn_bytes"}.
std::string progress_resume_json(std::size_t done, std::size_t total, const std::string& journal,
                                 std::size_t torn_bytes);

}  // namespace mocap
