#include <mocap/report/report_progress_text.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace mocap {
namespace {

double eta_seconds(const ReportProgress& p) {
  return p.bytes_done > 0
             ? p.elapsed_seconds * static_cast<double>(p.bytes_total - p.bytes_done) / static_cast<double>(p.bytes_done)
             : 0.0;
}

double frames_per_second(const ReportProgress& p) {
  return p.elapsed_seconds > 0 ? static_cast<double>(p.frames) / p.elapsed_seconds : 0.0;
}

}  // namespace

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(std::lround(std::max(0.0, seconds)));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

std::string progress_line(const ReportProgress& p) {
  char line[256];
  std::snprintf(line, sizeof line, "\r\033[K[%d/%d] %3.0f%%  %.0f frames/s  %d thread%s  %s left%s%s", p.done, p.total,
                p.total ? 100.0 * p.done / p.total : 100.0, frames_per_second(p), p.threads, p.threads == 1 ? "" : "s",
                clock_text(eta_seconds(p)).c_str(), p.failed ? "  failed: " : "",
                p.failed ? std::to_string(p.failed).c_str() : "");
  return line;
}

std::string progress_done_line(const ReportSummary& s, double wall_seconds, const std::string& output) {
  char line[256];
  std::snprintf(line, sizeof line, "%d clips (%d failed), %lld frames in %.2f s: %.1f clips/s, %.0f frames/s -> %s\n",
                s.clips, s.failed, static_cast<long long>(s.frames), wall_seconds,
                wall_seconds > 0 ? s.clips / wall_seconds : 0.0,
                wall_seconds > 0 ? static_cast<double>(s.frames) / wall_seconds : 0.0, output.c_str());
  return line;
}

std::string progress_clip_json(const ReportProgress& p) {
  nlohmann::ordered_json j{{"event", "clip"},
                           {"done", p.done},
                           {"total", p.total},
                           {"failed", p.failed},
                           {"frames", p.frames},
                           {"elapsed_s", p.elapsed_seconds},
                           {"frames_per_s", frames_per_second(p)},
                           {"eta_s", eta_seconds(p)}};
  if (p.last) {
    j["path"] = p.last->path;
    j["status"] = p.last->status ? "ok" : "failed";
    if (!p.last->status) j["error"] = p.last->error_text();
  }
  return j.dump();
}

std::string progress_done_json(const ReportSummary& s, double wall_seconds, const std::string& output) {
  const nlohmann::ordered_json j{{"event", "done"},    {"clips", s.clips},       {"failed", s.failed},
                                 {"frames", s.frames}, {"wall_s", wall_seconds}, {"output", output}};
  return j.dump();
}

std::string progress_resume_json(std::size_t done, std::size_t total, const std::string& journal,
                                 std::size_t torn_bytes) {
  const nlohmann::ordered_json j{
      {"event", "resume"}, {"done", done}, {"total", total}, {"journal", journal}, {"torn_bytes", torn_bytes}};
  return j.dump();
}

void ReportProgressPrinter::resumed(std::size_t done, std::size_t total, const std::string& journal,
                                    std::size_t torn_bytes) {
  if (style_ == ProgressStyle::kMachine) {
    out_ << progress_resume_json(done, total, journal, torn_bytes) << "\n";
  } else if (style_ == ProgressStyle::kTerminal && (done > 0 || torn_bytes > 0)) {
    out_ << prefix_ << "resuming: " << done << " of " << total << " clips done in " << journal;
    if (torn_bytes > 0) out_ << " (a torn last line of " << torn_bytes << " bytes ignored)";
    out_ << "\n";
  }
}

void ReportProgressPrinter::update(const ReportProgress& p) {
  if (style_ == ProgressStyle::kMachine) {
    out_ << progress_clip_json(p) << "\n";
    return;
  }
  if (p.last && !p.last->status) {
    clear();
    out_ << prefix_ << p.last->error_text() << "\n";
  }
  if (style_ != ProgressStyle::kTerminal) return;
  const auto now = std::chrono::steady_clock::now();
  if (p.done < p.total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  out_ << progress_line(p) << std::flush;
  drawn_ = true;
}

void ReportProgressPrinter::finish(const ReportSummary& s, double wall_seconds, const std::string& output) {
  if (style_ == ProgressStyle::kMachine) {
    out_ << progress_done_json(s, wall_seconds, output) << "\n";
  } else if (style_ == ProgressStyle::kTerminal) {
    clear();
    out_ << progress_done_line(s, wall_seconds, output);
  }
}

void ReportProgressPrinter::clear() {
  if (drawn_) out_ << "\r\033[K";
  drawn_ = false;
}

}  // namespace mocap
