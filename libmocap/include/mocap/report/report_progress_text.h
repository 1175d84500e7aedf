// The progress of a report run as text, as `mocap report` shows it on
// stderr: for a person, one line rewritten in place on a terminal and a
// closing line; for scripts (--progress=machine), one JSON object per line
// with an "event": "resume" (continuing a journal), "clip" (one per
// finished clip) or "done". What to print when is the caller's.
#pragma once

#include <mocap/report/report.h>
#include <mocap/report/report_summary.h>

#include <cstddef>
#include <string>

namespace mocap {

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
